package trace

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/sync/errgroup"
)

// This file reads native trace directories: the streaming DirReader and
// StreamReader, and ReadDir on top of them.

// DirReader reads a native trace directory location by location. It holds
// no open files: a StreamReader opens its file only while it reads a block,
// so any number of streams may be open at once.
type DirReader struct {
	dir      string
	m        *manifest
	lim      *refLimits
	dec      *zstd.Decoder
	complete bool
}

// OpenDir reads and checks dir/clc.json (format, version, required fields,
// references between definitions). Stream files are checked as they are
// read.
func OpenDir(dir string) (*DirReader, error) { return openDir(dir, 0) }

func openDir(dir string, parallel int) (*DirReader, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	dec, err := newDecoder(parallelism(parallel))
	if err != nil {
		return nil, fmt.Errorf("native reader: %w", err)
	}
	return &DirReader{dir: dir, m: m, lim: limitsOf(m.defs), dec: dec, complete: m.complete}, nil
}

// Defs returns the definitions of the manifest; its locations have no
// events. The reader does not use it after OpenDir, so the caller may fill
// it in (ReadDir puts the events there).
func (r *DirReader) Defs() *Trace { return r.m.defs }

// Complete reports the manifest's "complete" field. For an incomplete
// trace, streams may end inside a block (the partial block is dropped, see
// StreamReader.Truncated) or be missing, and event counts are not checked.
func (r *DirReader) Complete() bool { return r.complete }

// NumEvents returns the manifest's event count of location loc, or -1 if
// the manifest has none (possible only when the trace is incomplete).
func (r *DirReader) NumEvents(loc int) int64 {
	if loc < 0 || loc >= len(r.m.counts) {
		return -1
	}
	return r.m.counts[loc]
}

// Stream opens the event stream of location loc and checks its file header.
func (r *DirReader) Stream(loc int) (*StreamReader, error) {
	if loc < 0 || loc >= len(r.m.counts) {
		return nil, fmt.Errorf("native reader: location %d out of range [0,%d)", loc, len(r.m.counts))
	}
	path := filepath.Join(r.dir, EventsDirName, strconv.Itoa(loc)+StreamExt)
	s := &StreamReader{path: path, loc: loc, off: fileHeaderSize, want: r.m.counts[loc], complete: r.complete, dec: r.dec, lim: r.lim}
	if !r.complete {
		s.want = -1
	}
	f, err := os.Open(path)
	if err != nil {
		if !r.complete && errors.Is(err, os.ErrNotExist) {
			s.truncated, s.done = true, true
			return s, nil
		}
		return nil, &FormatError{Path: path, Offset: -1, Location: loc, Block: -1, Event: -1, Err: err}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &FormatError{Path: path, Offset: -1, Location: loc, Block: -1, Event: -1, Err: err}
	}
	s.size = fi.Size()
	var h [fileHeaderSize]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			if !r.complete {
				s.truncated, s.done = true, true
				return s, nil
			}
			err = fmt.Errorf("%w: file header: file has %d bytes, the header %d", ErrTruncated, s.size, fileHeaderSize)
		}
		return nil, &FormatError{Path: path, Offset: 0, Location: loc, Block: -1, Event: -1, Err: err}
	}
	if err := checkStreamHeader(h[:], loc); err != nil {
		return nil, &FormatError{Path: path, Offset: 0, Location: loc, Block: -1, Event: -1, Err: err}
	}
	return s, nil
}

// StreamReader decodes the blocks of one location's stream in order.
type StreamReader struct {
	path     string
	loc      int
	size     int64 // file size when the stream was opened
	off      int64 // offset of the next block
	block    int   // index of the next block
	events   int64 // events decoded so far
	want     int64 // events the manifest declares, -1 to skip the check
	complete bool
	dec      *zstd.Decoder
	lim      *refLimits

	stored, raw []byte
	ar          arena
	truncated   bool
	done        bool
}

func (s *StreamReader) errAt(off int64, event int64, err error) error {
	return &FormatError{Path: s.path, Offset: off, Location: s.loc, Block: s.block, Event: event, Err: err}
}

// Truncated reports whether the stream ended inside a block (or its file
// was missing or shorter than its header) in an incomplete trace; the
// partial block was dropped.
func (s *StreamReader) Truncated() bool { return s.truncated }

// Events returns the number of events decoded so far.
func (s *StreamReader) Events() int64 { return s.events }

// Next decodes the next block, appending its events to dst (payload
// indices and attachment event numbers are adjusted to dst). It returns
// io.EOF at the end of the stream, after checking that the stream held as
// many events as the manifest says. On any other error dst is left as it
// was and the error is a *FormatError.
func (s *StreamReader) Next(dst *Events) error {
	if s.done {
		return io.EOF
	}
	f, err := os.Open(s.path)
	if err != nil {
		return s.errAt(s.off, -1, err)
	}
	defer f.Close()
	return s.next(f, dst)
}

func (s *StreamReader) next(f io.ReaderAt, dst *Events) error {
	left := s.size - s.off
	if left == 0 {
		s.done = true
		if s.want >= 0 && s.events != s.want {
			return s.errAt(s.off, -1, fmt.Errorf("stream holds %d events, the manifest says %d", s.events, s.want))
		}
		return io.EOF
	}
	cut := func(what string, need int64) error {
		if !s.complete {
			s.truncated, s.done = true, true
			return io.EOF
		}
		return s.errAt(s.off, -1, fmt.Errorf("%w: %s needs %d bytes, the file has %d left", ErrTruncated, what, need, left))
	}
	if left < blockHeaderSize {
		return cut("block header", blockHeaderSize)
	}
	var h [blockHeaderSize]byte
	if _, err := f.ReadAt(h[:], s.off); err != nil {
		return s.errAt(s.off, -1, err)
	}
	bh, err := parseBlockHeader(h[:])
	if err != nil {
		return s.errAt(s.off, -1, err)
	}
	if int64(bh.stored) > left-blockHeaderSize {
		return cut("block payload", blockHeaderSize+int64(bh.stored))
	}
	if s.events+int64(bh.n) > MaxEvents {
		return s.errAt(s.off, s.events, fmt.Errorf("more than %d events", uint64(MaxEvents)))
	}
	if cap(s.stored) < int(bh.stored) {
		s.stored = make([]byte, bh.stored)
	}
	stored := s.stored[:bh.stored]
	if _, err := f.ReadAt(stored, s.off+blockHeaderSize); err != nil {
		return s.errAt(s.off, -1, err)
	}
	raw, err := unpackBlock(bh, h[:], stored, s.dec, s.raw)
	if bh.codec == CodecZstd {
		s.raw = raw
	}
	if err != nil {
		return s.errAt(s.off, -1, err)
	}
	mark := markOf(dst)
	if err := decodeRecords(raw, int(bh.n), dst, s.lim, &s.ar); err != nil {
		mark.truncate(dst)
		var de *decodeError
		if errors.As(err, &de) {
			return s.errAt(s.off, s.events+int64(de.event), fmt.Errorf("raw offset %d: %w", de.off, de.err))
		}
		return s.errAt(s.off, -1, err)
	}
	s.off += blockHeaderSize + int64(bh.stored)
	s.block++
	s.events += int64(bh.n)
	return nil
}

// countHint sums the event counts of the stream's block headers without
// reading payloads (headers are checked later); ReadDir sizes the columns
// with it.
func (s *StreamReader) countHint() int64 {
	if s.done {
		return 0
	}
	f, err := os.Open(s.path)
	if err != nil {
		return 0
	}
	defer f.Close()
	var total int64
	var h [blockHeaderSize]byte
	for off := s.off; s.size-off >= blockHeaderSize; {
		if _, err := f.ReadAt(h[:], off); err != nil {
			break
		}
		bh, err := parseBlockHeader(h[:])
		if err != nil {
			break
		}
		total += int64(bh.n)
		off += blockHeaderSize + int64(bh.stored)
	}
	return total
}

// Close releases the stream's buffers. The reader holds no open file
// between calls of Next.
func (s *StreamReader) Close() error {
	s.stored, s.raw, s.ar.buf = nil, nil, nil
	s.done = true
	return nil
}

// ReadDir reads a whole native trace, streams in parallel, and checks it
// (see OpenDir and StreamReader.Next). A trace whose manifest says
// "complete": false is accepted: streams may end inside a block (the
// partial block is dropped) or be missing, and the returned trace then has
// the property PropIncomplete = "true" and, if any stream was cut,
// PropTruncated listing those locations.
func ReadDir(dir string, opt *ReadOptions) (*Trace, error) {
	par := 0
	if opt != nil {
		par = opt.Parallel
	}
	par = parallelism(par)
	r, err := openDir(dir, par)
	if err != nil {
		return nil, err
	}
	t := r.Defs()
	var mu sync.Mutex
	var truncated []int
	var g errgroup.Group
	g.SetLimit(par)
	for i, l := range t.Locations {
		g.Go(func() error {
			s, err := r.Stream(i)
			if err != nil {
				return err
			}
			defer s.Close()
			hint := s.countHint()
			if want := r.NumEvents(i); want >= 0 && want < hint {
				hint = want
			}
			e := &l.Events
			e.Grow(int(hint))
			for {
				err := s.Next(e)
				if err == io.EOF {
					break
				}
				if err != nil {
					return err
				}
				if s.block == 1 {
					reserveTables(e, int(hint))
				}
			}
			fitTables(e)
			if s.Truncated() {
				mu.Lock()
				truncated = append(truncated, i)
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if !r.Complete() {
		if t.Properties == nil {
			t.Properties = make(map[string]string)
		}
		t.Properties[PropIncomplete] = "true"
		if len(truncated) > 0 {
			sort.Ints(truncated)
			s := make([]string, len(truncated))
			for i, l := range truncated {
				s[i] = strconv.Itoa(l)
			}
			t.Properties[PropTruncated] = strings.Join(s, ",")
		}
	}
	return t, nil
}

// reserveTables makes room in e's payload tables for a location of total
// events, extrapolating from the share of each payload among the events
// decoded so far, so the tables rarely grow by copying.
func reserveTables(e *Events, total int) {
	n := e.Len()
	if n == 0 || total <= n {
		return
	}
	want := func(have int) int { return min(total, have*total/n+have/8+16) - have }
	e.Msgs = reserve(e.Msgs, want(len(e.Msgs)))
	e.Colls = reserve(e.Colls, want(len(e.Colls)))
	e.Reqs = reserve(e.Reqs, want(len(e.Reqs)))
	e.Opaque = reserve(e.Opaque, want(len(e.Opaque)))
}

func reserve[T any](s []T, more int) []T {
	if more <= 0 || cap(s)-len(s) >= more {
		return s
	}
	out := make([]T, len(s), len(s)+more)
	copy(out, s)
	return out
}

// fitTables trims the columns and tables of e to their lengths where they
// have more than about 3 % spare capacity, so a read trace holds no slack.
func fitTables(e *Events) {
	e.Kind, e.Time, e.Ref = fit(e.Kind), fit(e.Time), fit(e.Ref)
	e.Msgs, e.Colls, e.Reqs = fit(e.Msgs), fit(e.Colls), fit(e.Reqs)
	e.Opaque, e.Attach = fit(e.Opaque), fit(e.Attach)
}

func fit[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/32+16 {
		return s
	}
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// decodeStream decodes a whole stream file held in memory (used by the
// fuzz target and tests): header for location loc, then blocks, with
// references checked against lim (nil: unchecked).
func decodeStream(data []byte, loc int, complete bool, lim *refLimits, dec *zstd.Decoder, dst *Events) (truncated bool, err error) {
	s := &StreamReader{path: "stream", loc: loc, size: int64(len(data)), off: fileHeaderSize, want: -1, complete: complete, dec: dec, lim: lim}
	if len(data) < fileHeaderSize {
		if !complete {
			return true, nil
		}
		return false, s.errAt(0, -1, fmt.Errorf("%w: file header", ErrTruncated))
	}
	if err := checkStreamHeader(data[:fileHeaderSize], loc); err != nil {
		return false, s.errAt(0, -1, err)
	}
	r := bytesReaderAt(data)
	for {
		err := s.next(r, dst)
		if err == io.EOF {
			return s.truncated, nil
		}
		if err != nil {
			return false, err
		}
	}
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off > int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
