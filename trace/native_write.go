package trace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/sync/errgroup"
)

// This file writes native trace directories: the streaming DirWriter and
// WriteDir on top of it.

// maxOpenFiles bounds the stream files a DirWriter has open at once,
// however many goroutines append: a file is opened only to write one block
// (or header) and closed again.
const maxOpenFiles = 64

// DirWriter writes a native trace directory with bounded memory: each
// location buffers at most one raw block (BlockSize bytes plus one record),
// which is compressed and appended to the location's stream file when full,
// so memory stays below locations × (BlockSize + largest record) plus one
// compressed block per concurrent flush. Stream files are opened only while
// a block is written, so any number of locations works within a small file
// descriptor budget.
//
// Compression runs in the goroutine that calls Append: append different
// locations from several goroutines to compress in parallel. DirWriter
// implements Sink.
type DirWriter struct {
	dir       string
	defs      *Trace
	codec     Codec
	enc       *zstd.Encoder
	blockSize int
	parallel  int
	locs      []locWriter
	files     chan struct{} // semaphore for open stream files
	out       sync.Pool     // *[]byte buffers for sealed blocks

	closed  atomic.Bool
	errMu   sync.Mutex
	err     error // first error of any Append; Close then fails
	numLocs int
}

var _ Sink = (*DirWriter)(nil)

// locWriter is the state of one location's stream.
type locWriter struct {
	mu      sync.Mutex
	enc     blockEncoder
	refs    refTracker
	events  uint64
	blocks  int
	size    int64 // bytes written to the file so far
	created bool
}

// CreateDir starts writing a native trace into dir, which must not exist or
// be an empty directory (its parent must exist). defs holds the definitions
// (its events are ignored); it is used again at Close, so the caller may
// still change it (add clock offsets, properties, regions, communicators)
// until then, but not the number of locations. On error, the caller removes
// what was written; no manifest is ever left behind by a failed writer.
func CreateDir(dir string, defs *Trace, opt *WriteOptions) (*DirWriter, error) {
	if opt == nil {
		opt = DefaultWriteOptions()
	}
	if defs == nil {
		return nil, errors.New("native writer: nil definitions")
	}
	for i, l := range defs.Locations {
		if l == nil {
			return nil, fmt.Errorf("native writer: location %d is nil", i)
		}
	}
	if opt.Codec != CodecNone && opt.Codec != CodecZstd {
		return nil, fmt.Errorf("native writer: unknown codec %d", opt.Codec)
	}
	level := opt.Level
	if level == 0 {
		level = int(zstd.SpeedFastest)
	}
	if level < int(zstd.SpeedFastest) || level > int(zstd.SpeedBestCompression) {
		return nil, fmt.Errorf("native writer: zstd level %d not in [1,4]", opt.Level)
	}
	bs := opt.BlockSize
	switch {
	case bs < 0 || bs > MaxBlockSize:
		return nil, fmt.Errorf("native writer: block size %d not in [1,%d]", bs, MaxBlockSize)
	case bs == 0:
		bs = autoBlockSize(len(defs.Locations))
	}
	par := parallelism(opt.Parallel)
	if err := makeEmptyDir(dir); err != nil {
		return nil, err
	}
	if err := os.Mkdir(filepath.Join(dir, EventsDirName), 0o777); err != nil {
		return nil, fmt.Errorf("native writer: %w", err)
	}
	w := &DirWriter{
		dir:       dir,
		defs:      defs,
		codec:     opt.Codec,
		blockSize: bs,
		parallel:  par,
		locs:      make([]locWriter, len(defs.Locations)),
		files:     make(chan struct{}, maxOpenFiles),
		numLocs:   len(defs.Locations),
	}
	if w.codec == CodecZstd {
		enc, err := newEncoder(level, par)
		if err != nil {
			return nil, fmt.Errorf("native writer: %w", err)
		}
		w.enc = enc
	}
	return w, nil
}

// autoBlockSize is the default block size for a trace with n locations.
func autoBlockSize(n int) int {
	bs := DefaultBlockSize
	if n > 0 && int64(n)*int64(bs) > blockMemoryBudget {
		bs = int(blockMemoryBudget / int64(n))
		if bs < minAutoBlockSize {
			bs = minAutoBlockSize
		}
	}
	return bs
}

// makeEmptyDir creates dir, or accepts it if it is an empty directory.
func makeEmptyDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.Mkdir(dir, 0o777); err != nil {
			return fmt.Errorf("native writer: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("native writer: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("native writer: %s exists and is not a directory", dir)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("native writer: %w", err)
	}
	if len(ents) > 0 {
		return fmt.Errorf("native writer: directory %s is not empty", dir)
	}
	return nil
}

// Defs returns the definitions passed to CreateDir.
func (w *DirWriter) Defs() *Trace { return w.defs }

func (w *DirWriter) streamPath(loc int) string {
	return filepath.Join(w.dir, EventsDirName, strconv.Itoa(loc)+StreamExt)
}

func (w *DirWriter) fail(err error) error {
	w.errMu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.errMu.Unlock()
	return err
}

func (w *DirWriter) firstErr() error {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	return w.err
}

// Append encodes the events of ev as the next events of location loc.
// It may be called concurrently for different locations, never for the
// same one. Events are checked as they are encoded (payload indices,
// kinds, attachment order); their region and communicator references are
// checked against the definitions at Close. After an error, every later
// Append and Close fail.
func (w *DirWriter) Append(loc int, ev *Events) error {
	if w.closed.Load() {
		return errors.New("native writer: Append after Close")
	}
	if loc < 0 || loc >= w.numLocs {
		return fmt.Errorf("native writer: location %d out of range [0,%d)", loc, w.numLocs)
	}
	if err := w.firstErr(); err != nil {
		return fmt.Errorf("native writer: an earlier error stopped the writer: %w", err)
	}
	n := ev.Len()
	if len(ev.Time) != n || len(ev.Ref) != n {
		return w.fail(fmt.Errorf("native writer: location %d: columns differ in length: kind %d, time %d, ref %d", loc, n, len(ev.Time), len(ev.Ref)))
	}
	lw := &w.locs[loc]
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.events+uint64(n) > MaxEvents {
		return w.fail(fmt.Errorf("native writer: location %d: more than %d events", loc, uint64(MaxEvents)))
	}
	att := 0
	for i := 0; i < n; {
		next, err := lw.enc.encode(ev, i, n, &att, w.blockSize, &lw.refs)
		if err != nil {
			var ee *encodeError
			if errors.As(err, &ee) {
				return w.fail(&FormatError{Path: w.streamPath(loc), Offset: -1, Location: loc, Block: lw.blocks, Event: int64(lw.events) + int64(ee.event), Err: ee.err})
			}
			return w.fail(err)
		}
		if next < n || len(lw.enc.buf) >= w.blockSize {
			if err := w.flush(loc, lw); err != nil {
				return w.fail(err)
			}
		}
		i = next
	}
	if att < len(ev.Attach) {
		return w.fail(&FormatError{Path: w.streamPath(loc), Offset: -1, Location: loc, Block: -1, Event: -1,
			Err: fmt.Errorf("attachment %d refers to event %d, not in the %d events appended (or out of order)", att, ev.Attach[att].Event, n)})
	}
	lw.events += uint64(n)
	return nil
}

// flush writes the pending block of a location (creating its file with
// the file header first if needed). lw is locked.
func (w *DirWriter) flush(loc int, lw *locWriter) error {
	var block []byte
	if lw.enc.n > 0 {
		bp, _ := w.out.Get().(*[]byte)
		if bp == nil {
			bp = new([]byte)
		}
		defer w.out.Put(bp)
		*bp = sealBlock(*bp, w.enc, w.codec, lw.enc.buf, lw.enc.n)
		block = *bp
	} else if lw.created {
		return nil
	}
	w.files <- struct{}{}
	defer func() { <-w.files }()
	path := w.streamPath(loc)
	var f *os.File
	var err error
	if lw.created {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	} else {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			lw.created = true
			if _, err = f.Write(streamHeader(loc)); err == nil {
				lw.size = fileHeaderSize
			}
		}
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		return fmt.Errorf("native writer: location %d: %w", loc, err)
	}
	if len(block) > 0 {
		if _, err := f.Write(block); err != nil {
			f.Close()
			return fmt.Errorf("native writer: location %d: block %d: %w", loc, lw.blocks, err)
		}
		lw.size += int64(len(block))
		lw.blocks++
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("native writer: location %d: %w", loc, err)
	}
	lw.enc.reset()
	return nil
}

// Close writes the pending block of every location, creates the streams
// of locations without events, checks the events' references against the
// definitions as they are now, and writes clc.json with the event counts.
// It writes no manifest if anything failed. Calling Close twice is an error.
func (w *DirWriter) Close() error {
	if w.closed.Swap(true) {
		return errors.New("native writer: Close called twice")
	}
	if err := w.firstErr(); err != nil {
		return fmt.Errorf("native writer: not finished because of an earlier error: %w", err)
	}
	if len(w.defs.Locations) != w.numLocs {
		return fmt.Errorf("native writer: the definitions have %d locations, CreateDir saw %d", len(w.defs.Locations), w.numLocs)
	}
	var g errgroup.Group
	g.SetLimit(w.parallel)
	for loc := range w.locs {
		g.Go(func() error {
			lw := &w.locs[loc]
			lw.mu.Lock()
			defer lw.mu.Unlock()
			if err := w.flush(loc, lw); err != nil {
				return err
			}
			lw.enc.buf = nil
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := defsOnly(w.defs).Validate(); err != nil {
		return fmt.Errorf("native writer: definitions: %w", err)
	}
	counts := make([]uint64, len(w.locs))
	for loc := range w.locs {
		lw := &w.locs[loc]
		if err := lw.refs.check(w.defs); err != nil {
			return &FormatError{Path: w.streamPath(loc), Offset: -1, Location: loc, Block: -1, Event: -1, Err: err}
		}
		counts[loc] = lw.events
	}
	data, err := encodeManifest(w.defs, counts, true)
	if err != nil {
		return fmt.Errorf("native writer: %w", err)
	}
	return writeFileAtomic(filepath.Join(w.dir, ManifestName), data)
}

// abort stops the writer after an error outside of it; no manifest is written.
func (w *DirWriter) abort(err error) {
	w.fail(err)
	w.closed.Store(true)
}

// Abort stops the writer without writing a manifest and releases its
// buffers; the stream files written so far stay (removing the directory is
// the caller's job). Later calls of Append and Close fail. It must not run
// concurrently with Append.
func (w *DirWriter) Abort() {
	w.abort(errors.New("native writer: aborted"))
	for i := range w.locs {
		w.locs[i].enc.buf = nil
	}
}

// defsOnly returns a shallow copy of t whose locations have no events.
func defsOnly(t *Trace) *Trace {
	c := *t
	c.Locations = make([]*Location, len(t.Locations))
	locs := make([]Location, len(t.Locations))
	for i, l := range t.Locations {
		if l == nil {
			continue
		}
		locs[i] = Location{ID: l.ID, Name: l.Name, Node: l.Node, Offsets: l.Offsets}
		c.Locations[i] = &locs[i]
	}
	return &c
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it, so path never holds a partial file.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o666); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("native writer: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("native writer: %w", err)
	}
	return nil
}

// WriteDir writes t to dir (which must not exist, or be an empty
// directory) in the native format: the streams of different locations in
// parallel, the manifest last. t must pass Validate. On error no manifest
// is written; removing dir is the caller's job.
func WriteDir(dir string, t *Trace, opt *WriteOptions) error {
	w, err := CreateDir(dir, t, opt)
	if err != nil {
		return err
	}
	var g errgroup.Group
	g.SetLimit(w.parallel)
	for i, l := range t.Locations {
		g.Go(func() error { return w.Append(i, &l.Events) })
	}
	if err := g.Wait(); err != nil {
		w.abort(err)
		return err
	}
	return w.Close()
}
