package native

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/trace"
)

// This file writes native trace directories: the streaming DirWriter and
// WriteDir on top of it.

// maxOpenFiles bounds the stream files a DirWriter has open at once,
// however many goroutines append: a file is opened only to write one block
// (or header) and closed again.
const maxOpenFiles = 64

// bundleBufferSize is the write buffer of each bundle file.
const bundleBufferSize = 256 << 10

// DirWriter writes a native trace directory with bounded memory: each
// location buffers at most one raw block (BlockSize bytes plus one record),
// which is compressed and appended to the location's stream when full, so
// memory stays below locations × (BlockSize + largest record) plus one
// compressed block per concurrent flush (and a 256 KiB write buffer per
// bundle).
//
// Up to BundleThreshold locations (see WriteOptions.Bundles) each
// location has its own stream file, opened only while a block is written,
// at most 64 at once. Above it, consecutive locations share bundle files
// (at most 64, open until Close or Abort): each flush appends the block to
// the location's bundle, as a new extent (stream header and block) unless
// the location's previous extent ends where the bundle does. Either way
// any number of locations works within a small file descriptor budget.
// A bundle's bytes depend only on the order of the Appends to its
// locations (Ranges): Close writes each bundle's last blocks from one
// goroutine, in location order.
//
// Compression runs in the goroutine that calls Append: append different
// locations from several goroutines to compress in parallel. DirWriter
// implements trace.RangedSink.
type DirWriter struct {
	dir       string
	defs      *trace.Trace
	codec     Codec
	enc       *zstd.Encoder
	blockSize int
	parallel  int
	locs      []locWriter
	files     chan struct{} // semaphore for open stream files
	out       sync.Pool     // *[]byte buffers for sealed blocks

	// bundles are the bundle files, nil when every location has its own
	// file; bundle k holds locations [bundleStart[k], bundleStart[k+1]).
	bundles     []bundleWriter
	bundleStart []int

	closed  atomic.Bool
	errMu   sync.Mutex
	err     error // first error of any Append; Close then fails
	numLocs int
}

// bundleWriter is one bundle file being written.
type bundleWriter struct {
	mu      sync.Mutex
	name    string // relative to the trace directory, slash-separated
	f       *os.File
	bw      *bufio.Writer
	size    int64 // bytes written (into bw) so far
	lastLoc int   // location whose extent ends at size, -1 if none
	err     error // a write failed: the bundle is unusable
}

var _ trace.RangedSink = (*DirWriter)(nil)

// locWriter is the state of one location's stream.
type locWriter struct {
	mu      sync.Mutex
	enc     blockEncoder
	refs    refTracker
	events  uint64
	blocks  int
	size    int64 // bytes written to the file so far
	created bool
	// extents in the location's bundle (offset, length), in order.
	extents []extent
}

// CreateDir starts writing a native trace into dir, which must not exist or
// be an empty directory (its parent must exist). defs holds the definitions
// (its events are ignored); it is used again at Close, so the caller may
// still change it (add clock offsets, properties, regions, communicators)
// until then, but not the number of locations. On error, the caller removes
// what was written; no manifest is ever left behind by a failed writer.
func CreateDir(dir string, defs *trace.Trace, opt *WriteOptions) (*DirWriter, error) {
	return createDir(dir, defs, opt, nil)
}

// createDir is CreateDir; if bundled, the bundles hold about equal sums of
// weight (nil: equal numbers of locations).
func createDir(dir string, defs *trace.Trace, opt *WriteOptions, weight func(loc int) int64) (*DirWriter, error) {
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
	if nb := bundleCount(opt.Bundles, len(defs.Locations)); nb > 0 {
		w.bundleStart = bundleBounds(len(defs.Locations), nb, weight)
		w.bundles = make([]bundleWriter, nb)
		for k := range w.bundles {
			w.bundles[k].name = EventsDirName + "/bundle-" + strconv.Itoa(k) + BundleExt
			w.bundles[k].lastLoc = -1
		}
	}
	return w, nil
}

// bundleCount is the number of bundles for n locations with
// WriteOptions.Bundles = opt (0: none, one file per location). It does not
// depend on the writer's parallelism, so that a trace's layout is the same
// on any machine and with any -j.
func bundleCount(opt, n int) int {
	var nb int
	switch {
	case opt < 0:
		return 0
	case opt > 0:
		nb = opt
	case n <= BundleThreshold:
		return 0
	default:
		nb = max(8, n/BundleThreshold)
	}
	return min(nb, n, maxBundles)
}

// bundleBounds splits n locations into nb groups of consecutive locations,
// each at least one, with about equal sums of weight (nil: of 1). It
// returns the nb+1 bounds.
func bundleBounds(n, nb int, weight func(loc int) int64) []int {
	if weight == nil {
		weight = func(int) int64 { return 1 }
	}
	cum := make([]int64, n+1)
	for i := range n {
		cum[i+1] = cum[i] + weight(i)
	}
	total := cum[n]
	b := make([]int, nb+1)
	b[nb] = n
	for k := 1; k < nb; k++ {
		// The first location whose start reaches the k-th share.
		target := total / int64(nb) * int64(k)
		target += total % int64(nb) * int64(k) / int64(nb)
		i := sort.Search(n, func(i int) bool { return cum[i] >= target })
		b[k] = min(max(i, b[k-1]+1), n-(nb-k))
	}
	return b
}

// bundleOf returns the bundle of location loc.
func (w *DirWriter) bundleOf(loc int) int {
	return sort.Search(len(w.bundles), func(k int) bool { return w.bundleStart[k+1] > loc })
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
func (w *DirWriter) Defs() *trace.Trace { return w.defs }

// streamPath returns the file that holds location loc's stream.
func (w *DirWriter) streamPath(loc int) string {
	if w.bundles != nil {
		return filepath.Join(w.dir, filepath.FromSlash(w.bundles[w.bundleOf(loc)].name))
	}
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
func (w *DirWriter) Append(loc int, ev *trace.Events) error {
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
	if lw.events+uint64(n) > trace.MaxEvents {
		return w.fail(fmt.Errorf("native writer: location %d: more than %d events", loc, uint64(trace.MaxEvents)))
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
	if w.bundles != nil {
		return w.flushBundled(loc, lw)
	}
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

// flushBundled appends the pending block of a location to its bundle,
// extending the location's last extent if it ends where the bundle does,
// else as a new extent with a stream header. lw is locked.
func (w *DirWriter) flushBundled(loc int, lw *locWriter) error {
	if lw.enc.n == 0 {
		return nil // empty streams have no extent
	}
	bp, _ := w.out.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	defer w.out.Put(bp)
	*bp = sealBlock(*bp, w.enc, w.codec, lw.enc.buf, lw.enc.n)
	block := *bp

	b := &w.bundles[w.bundleOf(loc)]
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return b.err
	}
	fail := func(err error) error {
		b.err = fmt.Errorf("native writer: %s: location %d: %w", filepath.Join(w.dir, filepath.FromSlash(b.name)), loc, err)
		return b.err
	}
	if b.f == nil {
		f, err := os.OpenFile(filepath.Join(w.dir, filepath.FromSlash(b.name)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err != nil {
			return fail(err)
		}
		b.f, b.bw = f, bufio.NewWriterSize(f, bundleBufferSize)
	}
	if b.lastLoc != loc || len(lw.extents) == 0 {
		if _, err := b.bw.Write(streamHeader(loc)); err != nil {
			return fail(err)
		}
		lw.extents = append(lw.extents, extent{off: b.size, len: fileHeaderSize})
		b.size += fileHeaderSize
		b.lastLoc = loc
	}
	if _, err := b.bw.Write(block); err != nil {
		return fail(fmt.Errorf("block %d: %w", lw.blocks, err))
	}
	b.size += int64(len(block))
	lw.extents[len(lw.extents)-1].len += int64(len(block))
	lw.blocks++
	lw.enc.reset()
	return nil
}

// closeBundles flushes and closes the bundle files and returns the first
// error (after any, the bundles are incomplete).
func (w *DirWriter) closeBundles() error {
	var first error
	for k := range w.bundles {
		b := &w.bundles[k]
		b.mu.Lock()
		if b.f != nil {
			err := b.err
			if err == nil {
				err = b.bw.Flush()
			}
			if cerr := b.f.Close(); err == nil {
				err = cerr
			}
			if err != nil && first == nil {
				first = fmt.Errorf("native writer: %s: %w", filepath.Join(w.dir, filepath.FromSlash(b.name)), err)
			}
			b.f, b.bw = nil, nil
			if b.err == nil {
				b.err = errors.New("native writer: bundle closed")
			}
		}
		b.mu.Unlock()
	}
	return first
}

// finish writes the pending block of location loc, which will get no more
// events, and returns its block buffer emptied for reuse.
func (w *DirWriter) finish(loc int) ([]byte, error) {
	lw := &w.locs[loc]
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if err := w.flush(loc, lw); err != nil {
		return nil, w.fail(err)
	}
	buf := lw.enc.buf[:0]
	lw.enc.buf = nil
	return buf, nil
}

// Close writes the pending block of every location, creates the streams
// of locations without events, checks the events' references against the
// definitions as they are now, and writes clc.json with the event counts.
// It writes no manifest if anything failed. Calling Close twice is an error.
func (w *DirWriter) Close() error {
	if w.closed.Swap(true) {
		return errors.New("native writer: Close called twice")
	}
	defer w.closeBundles() // on error; harmless after the successful close
	if err := w.firstErr(); err != nil {
		return fmt.Errorf("native writer: not finished because of an earlier error: %w", err)
	}
	if len(w.defs.Locations) != w.numLocs {
		return fmt.Errorf("native writer: the definitions have %d locations, CreateDir saw %d", len(w.defs.Locations), w.numLocs)
	}
	// One goroutine per bundle, its locations in order: the last blocks go
	// into each bundle in the same order whatever the parallelism.
	if err := w.eachRange(nil, func(lo, hi int) error {
		for loc := lo; loc < hi; loc++ {
			if _, err := w.finish(loc); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := w.closeBundles(); err != nil {
		return err
	}
	if err := w.defs.ValidateDefs(); err != nil {
		return fmt.Errorf("native writer: definitions: %w", err)
	}
	counts := make([]uint64, len(w.locs))
	threaded := false
	for loc := range w.locs {
		lw := &w.locs[loc]
		if err := lw.refs.check(w.defs); err != nil {
			return &FormatError{Path: w.streamPath(loc), Offset: -1, Location: loc, Block: -1, Event: -1, Err: err}
		}
		counts[loc] = lw.events
		threaded = threaded || lw.refs.threads
	}
	var files []string
	var exts [][]extent
	if w.bundles != nil {
		files = make([]string, len(w.bundles))
		for k := range w.bundles {
			files[k] = w.bundles[k].name
		}
		exts = make([][]extent, len(w.locs))
		for loc := range w.locs {
			k := int32(w.bundleOf(loc))
			exts[loc] = make([]extent, len(w.locs[loc].extents))
			for j, e := range w.locs[loc].extents {
				exts[loc][j] = extent{file: k, off: e.off, len: e.len}
			}
		}
	}
	carried, err := w.writeCarried()
	if err != nil {
		return err
	}
	data, err := encodeManifest(w.defs, counts, true, files, exts, threaded, carried)
	if err != nil {
		return fmt.Errorf("native writer: %w", err)
	}
	return writeFileAtomic(filepath.Join(w.dir, ManifestName), data)
}

// abort stops the writer after an error outside of it; no manifest is written.
func (w *DirWriter) abort(err error) {
	w.fail(err)
	w.closed.Store(true)
	w.closeBundles()
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

// eachRange calls write(lo, hi) for ranges of consecutive locations that
// cover them all, w.parallel at a time, for writers that finish each
// location before the next: with one file per location, one location per
// range; with bundles, one bundle per range, largest first (by weight, nil:
// by count), so that the last to finish are small. A bundle is then written
// by one goroutine, its locations one after the other, one extent each:
// its bytes do not depend on scheduling.
func (w *DirWriter) eachRange(weight func(loc int) int64, write func(lo, hi int) error) error {
	if w.bundles == nil {
		return par.DoEach(context.Background(), len(w.locs), w.parallel, func(loc int) error { return write(loc, loc+1) })
	}
	if weight == nil {
		weight = func(int) int64 { return 1 }
	}
	order := make([]int, len(w.bundles))
	size := make([]int64, len(w.bundles))
	for k := range order {
		order[k] = k
		for loc := w.bundleStart[k]; loc < w.bundleStart[k+1]; loc++ {
			size[k] += weight(loc)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	return par.DoEach(context.Background(), len(order), w.parallel, func(i int) error {
		k := order[i]
		return write(w.bundleStart[k], w.bundleStart[k+1])
	})
}

// WriteDir writes t to dir (which must not exist, or be an empty
// directory) in the native format, the manifest last. t must pass
// Validate. With one file per location, the locations are written in
// parallel; with bundles (WriteOptions.Bundles), the bundles are, each by
// one goroutine that writes its locations one after the other, one extent
// each, and the bundles hold about equal amounts of data. On error no
// manifest is written; removing dir is the caller's job. It stops at the
// next location when ctx is cancelled.
func WriteDir(ctx context.Context, dir string, t *trace.Trace, opt *WriteOptions) error {
	if t == nil {
		return errors.New("native writer: nil trace")
	}
	for i, l := range t.Locations {
		if l == nil {
			return fmt.Errorf("native writer: location %d is nil", i)
		}
	}
	// Bundles of equal raw size, roughly: a few bytes per event plus data.
	weights := make([]int64, len(t.Locations))
	for loc, l := range t.Locations {
		e := &l.Events
		n := int64(e.Len())*5 + 1
		for _, o := range e.Opaque {
			n += int64(len(o.Data))
		}
		for _, a := range e.Attach {
			n += int64(len(a.Data)) + 3
		}
		weights[loc] = n
	}
	weight := func(loc int) int64 { return weights[loc] }
	w, err := createDir(dir, t, opt, weight)
	if err != nil {
		return err
	}
	err = w.eachRange(weight, func(lo, hi int) error {
		var buf []byte
		for loc := lo; loc < hi; loc++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			w.locs[loc].enc.buf = buf // reuse the previous location's buffer
			if err := w.Append(loc, &t.Locations[loc].Events); err != nil {
				return err
			}
			var err error
			if buf, err = w.finish(loc); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		w.abort(err)
		return err
	}
	return w.Close()
}

// Ranges returns the bounds of the bundles, b[0] = 0 < b[1] < … < b[k] =
// the number of locations: bundle file i holds the locations [b[i],
// b[i+1]). Blocks go into a bundle as they fill up, during Append, so its
// bytes depend on the order of the Appends to its locations, and only on
// that: a caller that appends each bundle's locations in the same order
// every time (from one goroutine at a time, say) gets the same bytes
// whatever the scheduling. Without bundles (one file per location) it
// returns nil: the order of Appends never matters.
func (w *DirWriter) Ranges() []int {
	return slices.Clone(w.bundleStart)
}
