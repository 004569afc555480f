package native

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/clc-tools/clc/internal/infile"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/trace"
)

// This file reads native trace directories: the streaming DirReader and
// StreamReader, and ReadDir on top of them.

// DirReader reads a native trace directory location by location. Its
// streams share a bounded cache of open files (maxOpenFiles, more only
// while more blocks are read at once), so any number of streams may be
// open at once; Close closes the cached files.
type DirReader struct {
	dir string
	m   *manifest
	// rewriteDefs are the definitions RewriteTimes writes (rewriteDefsOf),
	// taken when the manifest was read: the caller may fill and change
	// Defs().
	rewriteDefs trace.Trace
	lim         *refLimits
	dec         *zstd.Decoder
	complete    bool
	files       *fileCache
}

// OpenDir reads and checks dir/clc.json (format, version, required fields,
// references between definitions, extents). Stream files are checked as
// they are read.
func OpenDir(dir string) (*DirReader, error) { return openDir(dir, 0) }

// OpenDirWith is OpenDir with opt.Parallel goroutines decoding a large
// manifest and its streams' blocks (opt nil: GOMAXPROCS).
func OpenDirWith(dir string, opt *ReadOptions) (*DirReader, error) {
	np := 0
	if opt != nil {
		np = opt.Parallel
	}
	return openDir(dir, np)
}

func openDir(dir string, parallel int) (*DirReader, error) {
	m, err := readManifest(dir, parallelism(parallel))
	if err != nil {
		return nil, err
	}
	if err := attachCarried(dir, m); err != nil {
		return nil, err
	}
	dec, err := newDecoder(parallelism(parallel))
	if err != nil {
		return nil, fmt.Errorf("native reader: %w", err)
	}
	return &DirReader{dir: dir, m: m, rewriteDefs: rewriteDefsOf(m.defs), lim: limitsOf(m.defs, m.version), dec: dec, complete: m.complete, files: newFileCache(dir, maxOpenFiles)}, nil
}

// rewriteDefsOf copies the definitions d as a rewrite writes them: its
// locations without events and without clock offsets (the new times have
// them folded in). Nothing the copy holds is shared with d but strings and
// the carried definitions.
func rewriteDefsOf(d *trace.Trace) trace.Trace {
	c := *d
	c.Nodes, c.Processes, c.Regions = slices.Clone(d.Nodes), slices.Clone(d.Processes), slices.Clone(d.Regions)
	c.Properties = nil
	c.Comms = slices.Clone(d.Comms)
	for i := range c.Comms {
		c.Comms[i].Members = slices.Clone(c.Comms[i].Members)
	}
	c.Locations = make([]*trace.Location, len(d.Locations))
	locs := make([]trace.Location, len(d.Locations))
	for i, l := range d.Locations {
		locs[i] = *l
		locs[i].Offsets, locs[i].Events = nil, trace.Events{}
		c.Locations[i] = &locs[i]
	}
	return c
}

// Defs returns the definitions of the manifest; its locations have no
// events. The reader does not use it after OpenDir, so the caller may fill
// it in (ReadDir puts the events there).
func (r *DirReader) Defs() *trace.Trace { return r.m.defs }

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

// Close closes the files the reader keeps open. Streams still being read
// continue to work (opening files as they need them, without keeping
// them). It always returns nil.
func (r *DirReader) Close() error {
	r.files.close()
	return nil
}

// segment is a part of a location's stream: a whole per-location file
// (len -1: up to the end of the file) or an extent of a bundle.
type segment struct {
	name     string // relative to the trace directory, slash-separated
	off, len int64
}

// Stream opens the event stream of location loc and checks the header of
// its file (or of its first extent).
func (r *DirReader) Stream(loc int) (*StreamReader, error) {
	if loc < 0 || loc >= len(r.m.counts) {
		return nil, fmt.Errorf("native reader: location %d out of range [0,%d)", loc, len(r.m.counts))
	}
	s := &StreamReader{dir: r.dir, files: r.files, loc: loc, want: r.m.counts[loc], complete: r.complete, dec: r.dec, lim: r.lim, seg: -1}
	if !r.complete {
		s.want = -1
	}
	if r.m.extents != nil && r.m.extents[loc] != nil {
		s.bundled = true
		s.segs = make([]segment, len(r.m.extents[loc]))
		for k, e := range r.m.extents[loc] {
			s.segs[k] = segment{name: r.m.files[e.file], off: e.off, len: e.len}
		}
	} else {
		s.segs = []segment{{name: EventsDirName + "/" + strconv.Itoa(loc) + StreamExt, off: 0, len: -1}}
	}
	s.manifestPath = filepath.Join(r.dir, ManifestName)
	s.path = s.manifestPath
	if err := s.nextSegment(); err != nil {
		return nil, err
	}
	return s, nil
}

// StreamReader decodes the blocks of one location's stream in order.
type StreamReader struct {
	dir          string
	files        *fileCache
	manifestPath string
	loc          int
	bundled      bool      // the stream is a list of extents
	segs         []segment // the stream's parts, in order
	seg          int       // index of the current segment
	path         string    // file of the current segment
	end          int64     // end of the current segment in its file
	off          int64     // offset of the next block
	mem          []byte    // the current segment in memory, if small
	memOff       int64     // file offset of mem[0]
	inMem        bool      // the current segment is in mem
	block        int       // index of the next block
	events       int64     // events decoded so far
	want         int64     // events the manifest declares, -1 to skip the check
	complete     bool
	dec          *zstd.Decoder
	lim          *refLimits

	stored, raw []byte
	ar          arena
	truncated   bool
	done        bool
}

// maxSegmentInMemory is the largest segment (extent or per-location file)
// a StreamReader reads with a single ReadAt and decodes from memory.
const maxSegmentInMemory = 1 << 20

// errAt returns an error about the block at file offset off (and event
// event, if >= 0) of the current segment.
func (s *StreamReader) errAt(off int64, event int64, err error) error {
	return &FormatError{Path: s.path, Offset: off, Location: s.loc, Block: s.block, Event: event, Err: s.inExtent(err)}
}

// headerErr returns an error about the current segment as a whole or its
// stream header at file offset off (-1: none).
func (s *StreamReader) headerErr(off int64, err error) error {
	return &FormatError{Path: s.path, Offset: off, Location: s.loc, Block: -1, Event: -1, Err: s.inExtent(err)}
}

// inExtent prefixes err with the current extent of a bundled stream.
func (s *StreamReader) inExtent(err error) error {
	if s.bundled && s.seg >= 0 && s.seg < len(s.segs) {
		g := s.segs[s.seg]
		return fmt.Errorf("extent %d (offset %d, length %d): %w", s.seg, g.off, g.len, err)
	}
	return err
}

// Truncated reports whether the stream ended inside a block (or its file
// was missing or shorter than its header, or an extent ran past the end
// of its file) in an incomplete trace; the partial block was dropped.
func (s *StreamReader) Truncated() bool { return s.truncated }

// Events returns the number of events decoded so far.
func (s *StreamReader) Events() int64 { return s.events }

// cut ends an incomplete trace's stream early.
func (s *StreamReader) cut() {
	s.truncated, s.done = true, true
	s.inMem = false
}

// nextSegment moves to the next segment: it opens its file, checks that it
// lies within the file and checks its stream header. At the last segment's
// end it checks the event count. It sets s.done when the stream ended.
func (s *StreamReader) nextSegment() error {
	s.seg++
	s.inMem = false
	if s.seg >= len(s.segs) {
		s.done = true
		if s.want >= 0 && s.events != s.want {
			off := s.end
			if len(s.segs) == 0 {
				off = -1 // s.path is the manifest's
			}
			return s.headerErr(off, fmt.Errorf("stream holds %d events, the manifest says %d", s.events, s.want))
		}
		return nil
	}
	g := s.segs[s.seg]
	s.path = filepath.Join(s.dir, filepath.FromSlash(g.name))
	cf, err := s.files.acquire(g.name)
	if err != nil {
		if !s.complete && errors.Is(err, os.ErrNotExist) {
			s.cut()
			return nil
		}
		return s.headerErr(-1, err)
	}
	defer s.files.release(cf)
	size := cf.size
	s.end = size
	if g.len >= 0 {
		s.end = g.off + g.len
		if s.end > size {
			if s.complete {
				return s.headerErr(g.off, fmt.Errorf("%w: extent ends at byte %d, beyond the end of the file (%d bytes)", ErrTruncated, s.end, size))
			}
			// An incomplete trace's extent was cut: read its whole
			// blocks, then end the stream.
			s.end = max(size, g.off)
			s.truncated = true
		}
	}
	if n := s.end - g.off; n <= maxSegmentInMemory {
		if cap(s.mem) < int(n) {
			s.mem = make([]byte, n)
		}
		s.mem = s.mem[:n]
		if _, err := cf.f.ReadAt(s.mem, g.off); err != nil {
			return s.headerErr(g.off, err)
		}
		s.memOff, s.inMem = g.off, true
	}
	if s.end-g.off < fileHeaderSize {
		if !s.complete {
			s.cut()
			return nil
		}
		return s.headerErr(g.off, fmt.Errorf("%w: stream header: %d bytes left, the header has %d", ErrTruncated, s.end-g.off, fileHeaderSize))
	}
	var h [fileHeaderSize]byte
	if _, err := s.reader(cf).ReadAt(h[:], g.off); err != nil {
		return s.headerErr(g.off, err)
	}
	if err := checkStreamHeader(h[:], s.loc, s.bundled); err != nil {
		return s.headerErr(g.off, err)
	}
	s.off = g.off + fileHeaderSize
	return nil
}

// reader returns where the current segment's bytes are read from.
func (s *StreamReader) reader(cf *cachedFile) io.ReaderAt {
	if s.inMem {
		return offsetReaderAt{s.mem, s.memOff}
	}
	return cf.f
}

// Next decodes the next block, appending its events to dst (payload
// indices and attachment event numbers are adjusted to dst). It returns
// io.EOF at the end of the stream, after checking that the stream held as
// many events as the manifest says. On any other error dst is left as it
// was and the error is a *FormatError.
func (s *StreamReader) Next(dst *trace.Events) error {
	for !s.done && s.off == s.end {
		if s.truncated {
			s.cut() // the cut extent ended at a block boundary
			break
		}
		if err := s.nextSegment(); err != nil {
			return err
		}
	}
	if s.done {
		return io.EOF
	}
	if s.inMem {
		return s.next(offsetReaderAt{s.mem, s.memOff}, dst)
	}
	cf, err := s.files.acquire(s.segs[s.seg].name)
	if err != nil {
		return s.errAt(s.off, -1, err)
	}
	defer s.files.release(cf)
	return s.next(cf.f, dst)
}

// next decodes the block at s.off of the current segment, which ends at
// s.end, reading from f.
func (s *StreamReader) next(f io.ReaderAt, dst *trace.Events) error {
	left := s.end - s.off
	cut := func(what string, need int64) error {
		if !s.complete {
			s.cut()
			return io.EOF
		}
		return s.errAt(s.off, -1, fmt.Errorf("%w: %s needs %d bytes, the stream has %d left", ErrTruncated, what, need, left))
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
	if s.events+int64(bh.n) > trace.MaxEvents {
		return s.errAt(s.off, s.events, fmt.Errorf("more than %d events", uint64(trace.MaxEvents)))
	}
	// The manifest's count bounds what is decoded, before the payload is
	// read: a few bytes of zstd may declare millions of events.
	if s.want >= 0 && s.events+int64(bh.n) > s.want {
		return s.errAt(s.off, s.events, fmt.Errorf("the block holds %d events, more than the %d the manifest says the stream has", bh.n, s.want))
	}
	var stored []byte
	if m, ok := f.(offsetReaderAt); ok {
		p := s.off + blockHeaderSize - m.base
		stored = m.b[p : p+int64(bh.stored)]
	} else {
		if cap(s.stored) < int(bh.stored) {
			s.stored = make([]byte, bh.stored)
		}
		stored = s.stored[:bh.stored]
		if _, err := f.ReadAt(stored, s.off+blockHeaderSize); err != nil {
			return s.errAt(s.off, -1, err)
		}
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
	var total int64
	var h [blockHeaderSize]byte
	sum := func(r io.ReaderAt, off, end int64) {
		for end-off >= blockHeaderSize {
			if _, err := r.ReadAt(h[:], off); err != nil {
				return
			}
			bh, err := parseBlockHeader(h[:])
			if err != nil || int64(bh.stored) > end-off-blockHeaderSize {
				return
			}
			total += int64(bh.n)
			off += blockHeaderSize + int64(bh.stored)
		}
	}
	if s.inMem {
		sum(offsetReaderAt{s.mem, s.memOff}, s.off, s.end)
	} else {
		cf, err := s.files.acquire(s.segs[s.seg].name)
		if err != nil {
			return total
		}
		sum(cf.f, s.off, s.end)
		s.files.release(cf)
	}
	for _, g := range s.segs[s.seg+1:] {
		cf, err := s.files.acquire(g.name)
		if err != nil {
			break
		}
		sum(cf.f, g.off+fileHeaderSize, min(g.off+g.len, cf.size))
		s.files.release(cf)
	}
	return total
}

// DeclaredEvents returns how many events the stream of location loc
// declares, before any is decoded: the manifest's count, which bounds what
// the stream yields; or for an incomplete trace the sum of the counts in
// its block headers (the payloads are not read), which no decoding passes
// either.
func (r *DirReader) DeclaredEvents(loc int) (int64, error) {
	if loc < 0 || loc >= len(r.m.counts) {
		return 0, fmt.Errorf("native reader: location %d out of range [0,%d)", loc, len(r.m.counts))
	}
	if r.complete {
		return r.m.counts[loc], nil
	}
	s, err := r.Stream(loc)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	return s.countHint(), nil
}

// Close releases the stream's buffers. The reader holds no open file
// between calls of Next.
func (s *StreamReader) Close() error {
	s.stored, s.raw, s.ar.buf, s.mem = nil, nil, nil, nil
	s.inMem = false
	s.done = true
	return nil
}

// offsetReaderAt reads a file's bytes from b, which holds them from file
// offset base on.
type offsetReaderAt struct {
	b    []byte
	base int64
}

func (r offsetReaderAt) ReadAt(p []byte, off int64) (int, error) {
	off -= r.base
	if off < 0 || off > int64(len(r.b)) {
		return 0, io.EOF
	}
	n := copy(p, r.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// fileCache keeps up to max files of a trace directory open for the
// streams that read them, closing the least recently used idle one when a
// new one is needed. Files in use are never closed, so more than max may
// be open while more are in use at once.
type fileCache struct {
	dir    string
	max    int
	mu     sync.Mutex
	files  map[string]*cachedFile
	idle   list.List // *cachedFile with refs == 0, least recently used first
	open   int
	closed bool
}

// cachedFile is an open file of a fileCache.
type cachedFile struct {
	name  string
	f     *os.File
	size  int64 // when opened
	err   error
	refs  int
	ready chan struct{} // closed once f, size and err are set
	elem  *list.Element // in idle, if idle
}

func newFileCache(dir string, max int) *fileCache {
	return &fileCache{dir: dir, max: max, files: make(map[string]*cachedFile)}
}

// acquire returns the open file name (relative to the directory), opening
// it if needed; the caller releases it.
func (c *fileCache) acquire(name string) (*cachedFile, error) {
	c.mu.Lock()
	if cf, ok := c.files[name]; ok {
		cf.refs++
		if cf.elem != nil {
			c.idle.Remove(cf.elem)
			cf.elem = nil
		}
		c.mu.Unlock()
		<-cf.ready
		if cf.err != nil {
			err := cf.err
			c.release(cf)
			return nil, err
		}
		return cf, nil
	}
	cf := &cachedFile{name: name, refs: 1, ready: make(chan struct{})}
	c.files[name] = cf
	c.open++
	c.evictLocked()
	c.mu.Unlock()
	// Open outside the lock, so goroutines open different files at once.
	f, fi, err := infile.Open(filepath.Join(c.dir, filepath.FromSlash(name)))
	if err == nil {
		cf.f, cf.size = f, fi.Size()
	}
	cf.err = err
	close(cf.ready)
	if err != nil {
		c.release(cf)
		return nil, err
	}
	return cf, nil
}

// release gives back a file acquire returned.
func (c *fileCache) release(cf *cachedFile) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cf.refs--
	if cf.refs > 0 {
		return
	}
	if cf.err != nil || c.closed {
		if c.files[cf.name] == cf {
			delete(c.files, cf.name)
			c.open--
		}
		if cf.f != nil {
			cf.f.Close()
		}
		return
	}
	cf.elem = c.idle.PushBack(cf)
	c.evictLocked()
}

// evictLocked closes idle files while more than max are open.
func (c *fileCache) evictLocked() {
	for c.open > c.max && c.idle.Len() > 0 {
		cf := c.idle.Remove(c.idle.Front()).(*cachedFile)
		cf.elem = nil
		delete(c.files, cf.name)
		c.open--
		cf.f.Close()
	}
}

// close closes the idle files; files in use are closed when released.
func (c *fileCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for c.idle.Len() > 0 {
		cf := c.idle.Remove(c.idle.Front()).(*cachedFile)
		cf.elem = nil
		delete(c.files, cf.name)
		c.open--
		cf.f.Close()
	}
}

// maxGrowHint bounds the events ReadDir allocates per location before
// decoding: 2^22 events, 52 MiB of columns.
const maxGrowHint = 1 << 22

// ReadDir reads a whole native trace, streams in parallel, and checks it
// (see OpenDir and StreamReader.Next). A trace whose manifest says
// "complete": false is accepted: streams may end inside a block (the
// partial block is dropped) or be missing, and the returned trace then has
// the property trace.PropIncomplete = "true" and, if any stream was cut,
// trace.PropTruncated listing those locations.
func ReadDir(dir string, opt *ReadOptions) (*trace.Trace, error) {
	t, _, err := readDir(dir, opt, nil)
	return t, err
}

// ReadSelected reads the trace in dir as ReadDir does, but keeps of each
// location only the events keep accepts, as a selection
// (trace.Events.Index), and every event's time in a column of its own:
// what a correction needs (replay.Needs makes keep from the definitions).
// Opaque records and attachments are not kept.
func ReadSelected(dir string, opt *ReadOptions, needs func(defs *trace.Trace) func(trace.Kind, uint32) bool) (*trace.Trace, [][]int64, error) {
	return readDir(dir, opt, needs)
}

func readDir(dir string, opt *ReadOptions, needs func(defs *trace.Trace) func(trace.Kind, uint32) bool) (*trace.Trace, [][]int64, error) {
	r, err := OpenDirWith(dir, opt)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return r.read(context.Background(), opt, needs)
}

// Read is the package's ReadDir on the open directory, whose definitions
// (Defs) it fills with the events: call it once. It stops at the next
// location when ctx is cancelled.
func (r *DirReader) Read(ctx context.Context, opt *ReadOptions) (*trace.Trace, error) {
	t, _, err := r.read(ctx, opt, nil)
	return t, err
}

// ReadSelected is the package's ReadSelected on the open directory, whose
// definitions (Defs) it fills with the selections: call it once. It stops
// at the next location when ctx is cancelled.
func (r *DirReader) ReadSelected(ctx context.Context, opt *ReadOptions, needs func(defs *trace.Trace) func(trace.Kind, uint32) bool) (*trace.Trace, [][]int64, error) {
	return r.read(ctx, opt, needs)
}

// read reads every location's events into r's definitions (a selection
// and a time column when needs is not nil), opt.Parallel at a time.
func (r *DirReader) read(ctx context.Context, opt *ReadOptions, needs func(defs *trace.Trace) func(trace.Kind, uint32) bool) (*trace.Trace, [][]int64, error) {
	np := 0
	if opt != nil {
		np = opt.Parallel
	}
	np = parallelism(np)
	t := r.Defs()
	var keep func(trace.Kind, uint32) bool
	var times [][]int64
	if needs != nil {
		keep = needs(t)
		times = make([][]int64, len(t.Locations))
	}
	own, err := opt.Chosen(t)
	if err != nil {
		return nil, nil, err
	}
	var mu sync.Mutex
	var truncated []int
	// A worker decodes each location's blocks into a scratch block of its
	// own (selections), kept from one location to the next.
	err = par.DoEachWith(ctx, len(t.Locations), np, func() *trace.Events { return new(trace.Events) }, func(block *trace.Events, i int) error {
		if own != nil && !own[i] {
			return nil
		}
		l := t.Locations[i]
		s, err := r.Stream(i)
		if err != nil {
			return err
		}
		defer s.Close()
		hint := s.countHint()
		if want := r.NumEvents(i); want >= 0 && want < hint {
			hint = want
		}
		if keep != nil {
			times[i], err = readSelection(ctx, s, &l.Events, keep, hint, block)
		} else {
			err = readWhole(ctx, s, &l.Events, hint)
		}
		if err != nil {
			return err
		}
		if s.Truncated() {
			mu.Lock()
			truncated = append(truncated, i)
			mu.Unlock()
		}
		if opt != nil && opt.Done != nil {
			return opt.Done(t, i)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	r.markIncomplete(truncated)
	return t, times, nil
}

// markIncomplete sets, for a trace whose run did not finish, the
// properties that say so in the definitions (Defs): trace.PropIncomplete,
// and trace.PropTruncated with the locations whose streams were cut.
func (r *DirReader) markIncomplete(truncated []int) {
	if r.Complete() {
		return
	}
	t := r.Defs()
	if t.Properties == nil {
		t.Properties = make(map[string]string)
	}
	t.Properties[trace.PropIncomplete] = "true"
	if len(truncated) > 0 {
		t.Properties[trace.PropTruncated] = trace.TruncatedList(truncated)
	}
}

// readWhole decodes every block of s into e, hint being the expected
// number of events. It stops when ctx is cancelled.
func readWhole(ctx context.Context, s *StreamReader, e *trace.Events, hint int64) error {
	// The hint comes from block headers whose checksums are not verified
	// yet: never trust it for more than maxGrowHint events up front (a
	// forged count must not allocate gigabytes before the first CRC
	// fails); beyond that the columns grow as blocks decode.
	e.Grow(int(min(hint, maxGrowHint)))
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := s.Next(e)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if s.block == 1 {
			reserveTables(e, e.Len(), int(hint))
		}
	}
	fitTables(e)
	return nil
}

// readSelection decodes the blocks of s one at a time, keeps the events
// keep accepts in e (a selection) and returns every event's time. It
// stops when ctx is cancelled.
func readSelection(ctx context.Context, s *StreamReader, e *trace.Events, keep func(trace.Kind, uint32) bool, hint int64, block *trace.Events) ([]int64, error) {
	all := make([]int64, 0, min(hint, maxGrowHint))
	sel := trace.NewSelector(keep, e)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		block.Reset()
		err := s.Next(block)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if s.block == 1 {
			reserveSelection(e, block, keep, int(min(hint, maxGrowHint)))
		}
		base := uint32(len(all))
		for i := range block.Kind {
			sel.Add(block, i, base+uint32(i))
		}
		all = append(all, block.Time...)
	}
	return all, nil
}

// reserveSelection makes room in the selection e for a location of total
// events, at the share of each column and payload table that keep selects
// in its first block (counted before they are added, so that the columns
// and tables do not grow by copying while that block is added either).
func reserveSelection(e *trace.Events, block *trace.Events, keep func(trace.Kind, uint32) bool, total int) {
	n := len(block.Kind)
	if n == 0 {
		return
	}
	var sel, msgs, reqs, colls, threads int
	for i, k := range block.Kind {
		if k == trace.KindOther || !keep(k, block.Ref[i]) {
			continue
		}
		sel++
		switch {
		case k.HasMsg():
			msgs++
		case k.HasReq():
			reqs++
		case k.HasColl():
			colls++
		case k.HasThread():
			threads++
		}
	}
	// extrapolate's slack also covers the enters the selection takes in
	// for collectives (trace.SelectRule).
	total = max(total, n)
	more := func(have int) int {
		if have == 0 {
			return 0
		}
		return have + extrapolate(have, n, total)
	}
	e.Kind, e.Ref, e.Index = reserve(e.Kind, more(sel)), reserve(e.Ref, more(sel)), reserve(e.Index, more(sel))
	e.Msgs, e.Reqs = reserve(e.Msgs, more(msgs)), reserve(e.Reqs, more(reqs))
	e.Colls, e.Threads = reserve(e.Colls, more(colls)), reserve(e.Threads, more(threads))
}

// reserveTables makes room in e's payload tables for a location of total
// events of which n have been decoded, extrapolating from the share of
// each payload among them, so the tables rarely grow by copying.
func reserveTables(e *trace.Events, n, total int) {
	if n == 0 || total <= n {
		return
	}
	e.Msgs = reserve(e.Msgs, extrapolate(len(e.Msgs), n, total))
	e.Colls = reserve(e.Colls, extrapolate(len(e.Colls), n, total))
	e.Reqs = reserve(e.Reqs, extrapolate(len(e.Reqs), n, total))
	e.Threads = reserve(e.Threads, extrapolate(len(e.Threads), n, total))
	e.Opaque = reserve(e.Opaque, extrapolate(len(e.Opaque), n, total))
}

// extrapolate returns how many more of something to expect, with some
// slack (never more than total in all), when there are have of it among n
// of total events.
func extrapolate(have, n, total int) int {
	if n == 0 || total <= n {
		return 0
	}
	return min(total, have*total/n+have/8+16) - have
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
func fitTables(e *trace.Events) {
	e.Kind, e.Time, e.Ref = fit(e.Kind), fit(e.Time), fit(e.Ref)
	e.Msgs, e.Colls, e.Reqs, e.Threads = fit(e.Msgs), fit(e.Colls), fit(e.Reqs), fit(e.Threads)
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
func decodeStream(data []byte, loc int, complete bool, lim *refLimits, dec *zstd.Decoder, dst *trace.Events) (truncated bool, err error) {
	s := &StreamReader{path: "stream", loc: loc, end: int64(len(data)), off: fileHeaderSize, want: -1, complete: complete, dec: dec, lim: lim}
	if len(data) < fileHeaderSize {
		if !complete {
			return true, nil
		}
		return false, s.headerErr(0, fmt.Errorf("%w: file header", ErrTruncated))
	}
	if err := checkStreamHeader(data[:fileHeaderSize], loc, false); err != nil {
		return false, s.headerErr(0, err)
	}
	r := offsetReaderAt{data, 0}
	for s.off < s.end {
		err := s.next(r, dst)
		if err == io.EOF {
			return s.truncated, nil
		}
		if err != nil {
			return false, err
		}
	}
	return false, nil
}

// Files returns the files the trace is made of, relative to its directory
// and slash-separated, sorted: the manifest, the carried data if the
// manifest declares it, the stream file of every location without extents
// and every bundle an extent names. Files of an incomplete trace may be
// missing.
func (r *DirReader) Files() []string {
	names := []string{ManifestName}
	if r.m.carried != nil {
		names = append(names, CarriedName)
	}
	names = append(names, r.m.files...)
	for loc := range r.m.counts {
		if r.m.extents == nil || r.m.extents[loc] == nil {
			names = append(names, EventsDirName+"/"+strconv.Itoa(loc)+StreamExt)
		}
	}
	sort.Strings(names)
	return slices.Compact(names)
}

// Declared returns what the manifest declares before any event is read:
// every location's events (DeclaredEvents), the locations, and the
// carried data a writer of the source format reads whole (CarriedBytes).
func (r *DirReader) Declared() (trace.Declared, error) {
	d := trace.Declared{Locations: len(r.m.defs.Locations), HeldBytes: r.CarriedBytes()}
	d.LocationEvents = make([]int64, d.Locations)
	for li := range d.Locations {
		n, err := r.DeclaredEvents(li)
		if err != nil {
			return trace.Declared{}, err
		}
		d.Events += n
		d.LocationEvents[li] = n
	}
	return d, nil
}

// CarriedBytes returns the size of the trace's carried data (0: none),
// which a writer of the source format reads whole.
func (r *DirReader) CarriedBytes() int64 {
	if r.m.carried == nil {
		return 0
	}
	return r.m.carried.length
}

// HasStreamHeader reports whether the file at path begins with the magic
// of a stream header, as every stream file and every bundle a writer of
// the format makes does.
func HasStreamHeader(path string) bool {
	f, _, err := infile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [len(streamMagic)]byte
	_, err = io.ReadFull(f, b[:])
	return err == nil && b == streamMagic
}

// A DirReader is a trace.Source.
var _ trace.Source = (*DirReader)(nil)
