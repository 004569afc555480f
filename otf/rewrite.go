package otf

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/trace"
)

// WriteOptions control Rewrite, Create and WriteTrace. The zero value (or
// nil) is fine.
type WriteOptions struct {
	// Parallel is the number of location files written at once; 0 means
	// GOMAXPROCS.
	Parallel int
	// KeepClockOffsets keeps the source's ClockOffset definitions in
	// Rewrite. By default they are dropped, because the corrected times
	// have the offsets folded in: a reader would apply them a second time.
	KeepClockOffsets bool
	// EventChunkSize and DefChunkSize set the chunk sizes of a new archive
	// (Create, WriteTrace); 0 means 1 MiB and 4 MiB, the reference
	// library's defaults. Rewrite keeps the source's.
	EventChunkSize uint64
	DefChunkSize   uint64
	// Creator is written to a new archive's anchor; "" means "clc".
	Creator string

	// bigEndian makes Create write big-endian files (tests only).
	bigEndian bool
	// memBudget replaces Create's budget for unfinished chunks (tests
	// only; 0 = defaultMemBudget).
	memBudget uint64
}

func (o *WriteOptions) parallel() int {
	if o == nil {
		return par.Workers(0)
	}
	return par.Workers(o.Parallel)
}

// ErrNoLocations is wrapped by the writers' error for a trace without
// locations: the reference reader cannot read the events of such an
// archive (it has no event reader to select), so none is written.
var ErrNoLocations = errors.New("an OTF2 archive needs at least one location, and the trace has none")

// ArchiveName is the archive name of every archive this package writes,
// and the one Locate prefers in a directory: the directory holds
// AnchorName (traces.otf2), traces.def and traces/.
const ArchiveName = "traces"

// AnchorName is the anchor file of an archive named ArchiveName.
const AnchorName = ArchiveName + ".otf2"

// outDir prepares dir for a new archive: it creates dir (and its parents)
// or accepts an existing empty directory, and refuses a dir that is not
// empty or overlaps one of the inputs. The archive is written into dir
// itself; making it appear atomically (a temporary directory renamed when
// whole) is the caller's job (package output). cleanup removes what was
// written after a failure (dir too, if it made it).
func outDir(dir string, inputs ...string) (abs string, cleanup func(), err error) {
	abs, err = filepath.Abs(dir)
	if err != nil {
		return "", nil, fmt.Errorf("otf2: %w", err)
	}
	for _, in := range inputs {
		ain, err := filepath.Abs(in)
		if err == nil && (ain == abs || strings.HasPrefix(abs, ain+string(filepath.Separator)) || strings.HasPrefix(ain, abs+string(filepath.Separator))) {
			return "", nil, fmt.Errorf("otf2: output %s overlaps the input archive %s", dir, in)
		}
	}
	existed := false
	if ents, err := os.ReadDir(abs); err == nil && len(ents) > 0 {
		return "", nil, fmt.Errorf("otf2: output directory %s exists and is not empty", dir)
	} else if err == nil {
		existed = true
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", nil, fmt.Errorf("otf2: %w", err)
	}
	if err := os.MkdirAll(abs, 0o777); err != nil {
		return "", nil, fmt.Errorf("otf2: %w", err)
	}
	cleanup = func() {
		if !existed {
			os.RemoveAll(abs)
			return
		}
		ents, _ := os.ReadDir(abs)
		for _, e := range ents {
			os.RemoveAll(filepath.Join(abs, e.Name()))
		}
	}
	return abs, cleanup, nil
}

// fileSink is a buffered output file.
type fileSink struct {
	f *os.File
	w *bufio.Writer
}

func createFile(path string) (*fileSink, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("otf2: %w", err)
	}
	return &fileSink{f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

func (s *fileSink) Write(b []byte) (int, error) { return s.w.Write(b) }

func (s *fileSink) Close() error {
	err := s.w.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("otf2: %w", err)
	}
	return nil
}

// timeRange accumulates the earliest and latest time written.
type timeRange struct {
	min, max uint64
	any      bool
}

func (r *timeRange) add(t uint64) {
	if !r.any {
		r.min, r.max, r.any = t, t, true
		return
	}
	if t < r.min {
		r.min = t
	}
	if t > r.max {
		r.max = t
	}
}

// synced widens r, the range of a location's times as written, to hold
// also the times a reader that applies the location's clock offsets (as
// the reference reader does: presync.Interpolate) maps them to, so that
// the ClockProperties' global offset lies at or before every time a
// reader sees (Scalasca's reader subtracts it from every time). The
// correction is piecewise linear and monotone between two offsets: its
// extremes over r are at r's ends and the offsets within r. Times below 0
// or beyond the 64-bit range have no place in the range.
func (r timeRange) synced(offs []trace.ClockOffset) timeRange {
	if !r.any {
		return r
	}
	f, err := presync.New(offs, presync.Interpolate)
	if err != nil || f.Identity() {
		return r
	}
	at := []uint64{r.min}
	for _, o := range offs {
		if o.Time >= 0 && uint64(o.Time) > r.min && uint64(o.Time) < r.max {
			at = append(at, uint64(o.Time))
		}
	}
	at = append(at, r.max)
	c := f.Cursor()
	out := r
	for _, t := range at {
		if t > math.MaxInt64 {
			continue
		}
		v, ok := c.Map(int64(t))
		switch {
		case !ok:
		case v < 0:
			out.add(0)
		default:
			out.add(uint64(v))
		}
	}
	return out
}

func (r *timeRange) merge(o timeRange) {
	if o.any {
		r.add(o.min)
		r.add(o.max)
	}
}

// Rewrite writes a complete copy of the archive to dir with the event times
// taken from corrected, a trace read from this archive (by Read) whose Time
// columns were changed: event i of location l in corrected is the i-th event
// record of l's event file. Every record is copied as it was, except:
//   - TIMESTAMP records are written anew (one at the start of each chunk and
//     one wherever the time changes), so events that shared a timestamp but
//     were moved apart get their own;
//   - BufferFlush's stopTime moves by as much as the flush event's own time;
//   - the local definitions lose their ClockOffset records (unless
//     opt.KeepClockOffsets), because the corrected times have them folded in;
//   - ClockProperties' globalOffset and traceLength are recomputed from the
//     corrected times;
//   - snapshots and thumbnails are not copied (the anchor says none).
//
// The source's event files are streamed, not held in memory. dir must not
// exist or be empty (atomicity is the caller's, see outDir); it then holds
// traces.otf2, traces.def and traces/ whatever the source archive was
// called. Times per location must
// not decrease.
func (a *Archive) Rewrite(dir string, corrected *trace.Trace, opt *WriteOptions) error {
	g := a.defs
	if corrected == nil || len(corrected.Locations) != len(g.locations) {
		n := -1
		if corrected != nil {
			n = len(corrected.Locations)
		}
		return fmt.Errorf("otf2: rewrite: the corrected trace has %d locations, the archive %d", n, len(g.locations))
	}
	times := make([][]int64, len(corrected.Locations))
	for li, l := range corrected.Locations {
		ld := g.locations[li]
		if l == nil || l.ID != ld.id {
			return fmt.Errorf("otf2: rewrite: location %d of the corrected trace is not location %d of the archive", li, ld.id)
		}
		if len(l.Events.Time) != l.Events.Len() {
			return fmt.Errorf("otf2: rewrite: location %d (id %d) has %d times for %d events", li, ld.id, len(l.Events.Time), l.Events.Len())
		}
		times[li] = l.Events.Time
	}
	return a.RewriteTimes(context.Background(), dir, times, opt)
}

// RewriteTimes is Rewrite with the corrected times given as one column per
// location (event i of location li at times[li][i]), the archive's
// records and definitions being copied from it as they are. Each column
// must hold as many times as the location's event file holds events, none
// negative and none before its predecessor. It stops at the next location
// when ctx is cancelled.
func (a *Archive) RewriteTimes(ctx context.Context, dir string, times [][]int64, opt *WriteOptions) error {
	g := a.defs
	if len(times) != len(g.locations) {
		return fmt.Errorf("otf2: rewrite: %d time columns for the %d locations of the archive", len(times), len(g.locations))
	}
	if len(g.locations) == 0 {
		return fmt.Errorf("otf2: rewrite: %w", ErrNoLocations)
	}
	tmp, cleanup, err := outDir(dir, a.dir)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			cleanup()
		}
	}()
	span, err := a.RewritePart(ctx, tmp, times, nil, opt)
	if err != nil {
		return err
	}
	counts := make([]uint64, len(times))
	for li, ts := range times {
		counts[li] = uint64(len(ts))
	}
	if err := a.RewriteGlobals(tmp, span, counts); err != nil {
		return err
	}
	ok = true
	return nil
}

// Span is the range of the times a rewrite wrote (RewritePart), as the
// global definitions' ClockProperties state it (RewriteGlobals).
type Span struct {
	Min, Max uint64
	// Empty: no time was written.
	Empty bool
}

// Merge widens s to hold o.
func (s *Span) Merge(o Span) {
	r := s.timeRange()
	r.merge(o.timeRange())
	*s = spanOf(r)
}

func spanOf(r timeRange) Span       { return Span{Min: r.min, Max: r.max, Empty: !r.any} }
func (s Span) timeRange() timeRange { return timeRange{min: s.Min, max: s.Max, any: !s.Empty} }

// RewritePart writes into dir, an existing directory, RewriteTimes' files
// of the locations own says (nil: all): their local definitions and event
// files under dir/traces/ (made if missing), and returns the span of
// their times. Processes that divide a rewrite among them (each holding
// the times of its locations; the other columns may be nil) write their
// parts into one directory, and one of them then the global definitions
// and the anchor (RewriteGlobals) with the parts' spans merged. It stops
// at the next location when ctx is cancelled.
func (a *Archive) RewritePart(ctx context.Context, dir string, times [][]int64, own func(li int) bool, opt *WriteOptions) (Span, error) {
	g := a.defs
	if len(times) != len(g.locations) {
		return Span{}, fmt.Errorf("otf2: rewrite: %d time columns for the %d locations of the archive", len(times), len(g.locations))
	}
	if err := os.MkdirAll(filepath.Join(dir, ArchiveName), 0o777); err != nil {
		return Span{}, fmt.Errorf("otf2: %w", err)
	}
	ranges := make([]timeRange, len(g.locations))
	type bufs struct {
		in, out []byte
		patches []patchAt
	}
	err := par.DoEachWith(ctx, len(g.locations), opt.parallel(), func() *bufs { return &bufs{} }, func(b *bufs, li int) error {
		if own != nil && !own(li) {
			return nil
		}
		if err := a.rewriteLocalDefs(dir, li, opt, b.in, b.out); err != nil {
			return err
		}
		r, err := a.rewriteEvents(ctx, dir, li, times[li], &b.in, &b.out, &b.patches)
		if err != nil {
			return err
		}
		if opt != nil && opt.KeepClockOffsets {
			// Readers apply the kept offsets to the times written.
			lds, err := a.readLocalDefs(g.locations[li].id, &b.in)
			if err != nil {
				return err
			}
			offs := make([]trace.ClockOffset, len(lds.offsets))
			for k, co := range lds.offsets {
				offs[k] = trace.ClockOffset{Time: int64(co.time), Offset: co.offset}
			}
			r = r.synced(offs)
		}
		ranges[li] = r
		return nil
	})
	if err != nil {
		return Span{}, err
	}
	var all timeRange
	for _, r := range ranges {
		all.merge(r)
	}
	return spanOf(all), nil
}

// RewriteGlobals writes into dir RewriteTimes' global definitions and
// anchor, with span the times written (every part's RewritePart's,
// merged) and counts[li] the events of location li.
func (a *Archive) RewriteGlobals(dir string, span Span, counts []uint64) error {
	g := a.defs
	if len(counts) != len(g.locations) {
		return fmt.Errorf("otf2: rewrite: %d event counts for the %d locations of the archive", len(counts), len(g.locations))
	}
	if err := a.rewriteGlobalDefs(dir, span.timeRange(), counts); err != nil {
		return err
	}
	an := a.Anchor()
	an.NumSnapshots, an.NumThumbnails = 0, 0
	an.NumLocations = uint64(len(g.locations))
	if err := os.WriteFile(filepath.Join(dir, AnchorName), an.encode(), 0o666); err != nil {
		return fmt.Errorf("otf2: %w", err)
	}
	return nil
}

// clockPropertiesPayload re-encodes a ClockProperties payload with a new
// global offset and trace length. The resolution and every later field are
// kept, except the realtime timestamp (OTF2 3.0: the wall-clock time of the
// global offset, in ns), which moves with the global offset.
func clockPropertiesPayload(old []byte, be bool, r timeRange) ([]byte, error) {
	d := dec{b: old, be: be}
	res := d.u64c()
	oldOffset := d.u64c()
	d.u64c()
	if d.err != nil {
		return nil, d.err
	}
	newOffset, length := uint64(0), uint64(0)
	if r.any {
		newOffset, length = r.min, r.max-r.min
	}
	e := enc{be: be}
	e.u64c(res)
	e.u64c(newOffset)
	e.u64c(length)
	rest := old[d.p:]
	if len(rest) > 0 {
		rt := d.u64c()
		if d.err == nil && rt != undefined64 && res > 0 {
			// rt + (newOffset − oldOffset) · 10^9 / res, exactly, rounded down.
			delta := new(big.Int).Sub(new(big.Int).SetUint64(newOffset), new(big.Int).SetUint64(oldOffset))
			delta.Mul(delta, big.NewInt(1_000_000_000))
			q, m := new(big.Int), new(big.Int)
			q.DivMod(delta, new(big.Int).SetUint64(res), m)
			v := q.Add(q, new(big.Int).SetUint64(rt))
			if v.Sign() >= 0 && v.IsUint64() && v.Uint64() != undefined64 {
				e.u64c(v.Uint64())
				rest = old[d.p:]
			}
		}
	}
	e.b = append(e.b, rest...)
	return e.b, nil
}

// locationPayload re-encodes a Location payload with a new event count,
// keeping every other byte.
func locationPayload(old []byte, be bool, n uint64) []byte {
	d := dec{b: old, be: be}
	d.u64c() // self
	d.u32c() // name
	d.u8()   // type
	start := d.p
	d.u64c() // numberOfEvents
	if d.err != nil {
		return old
	}
	e := enc{b: append([]byte(nil), old[:start]...), be: be}
	e.u64c(n)
	return append(e.b, old[d.p:]...)
}

// rewriteGlobalDefs writes the global definitions: every record as it was,
// except ClockProperties (the corrected time range r) and Location (the
// event counts, counts[i] for location i, which the source may have
// announced wrongly).
func (a *Archive) rewriteGlobalDefs(tmp string, r timeRange, counts []uint64) error {
	name := ArchiveName + ".def"
	f, err := createFile(filepath.Join(tmp, name))
	if err != nil {
		return err
	}
	defer f.Close()
	be := a.defs.be
	cw := newChunkWriter(name, f, int(a.anchor.DefChunkSize), be, false, make([]byte, 0, a.anchor.DefChunkSize))
	locIdx := make(map[uint64]int, len(a.defs.locations))
	for li, l := range a.defs.locations {
		locIdx[l.id] = li
	}
	for i, rec := range a.defs.records {
		p := rec.payload
		switch {
		case i == a.defs.clockRec:
			if p, err = clockPropertiesPayload(p, be, r); err != nil {
				return &FormatError{File: name, Offset: rec.off, Err: err}
			}
		case rec.typ == defLocation:
			d := dec{b: p, be: be}
			if li, ok := locIdx[d.u64c()]; ok && d.err == nil {
				p = locationPayload(p, be, counts[li])
			}
		}
		if err := cw.def(rec.typ, p); err != nil {
			return err
		}
	}
	if err := cw.close(); err != nil {
		return err
	}
	return f.Close()
}

// copyDefs streams the records of a definition file into a new one,
// dropping the record types drop says so.
func (a *Archive) copyDefs(tmp, name string, drop func(uint8) bool, in, out []byte) error {
	cs := int(a.anchor.DefChunkSize)
	src, err := a.openLocal(name)
	if err != nil {
		return err
	}
	dst, err := createFile(filepath.Join(tmp, ArchiveName, filepath.Base(name)))
	if err != nil {
		if src != nil {
			src.Close()
		}
		return err
	}
	defer dst.Close()
	be := a.anchor.BigEndian
	var cw *chunkWriter
	if src != nil {
		defer src.Close()
		s := newScanner(newChunkReader(name, src, cs, in), false)
		var rec record
		for {
			err := s.next(&rec)
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			if cw == nil {
				be = s.c.be
				cw = newChunkWriter(name, dst, cs, be, false, out)
			} else if s.c.be != be {
				return &FormatError{File: name, Offset: s.c.off + 1, Err: fmt.Errorf("%w: chunk %d changes the byte order", ErrFormat, s.c.index)}
			}
			if drop(rec.typ) {
				continue
			}
			if err := cw.def(rec.typ, rec.payload); err != nil {
				return err
			}
		}
	}
	if cw == nil {
		cw = newChunkWriter(name, dst, cs, be, false, out)
	}
	if err := cw.close(); err != nil {
		return err
	}
	return dst.Close()
}

func (a *Archive) rewriteLocalDefs(tmp string, li int, opt *WriteOptions, in, out []byte) error {
	keep := opt != nil && opt.KeepClockOffsets
	return a.copyDefs(tmp, a.defName(a.defs.locations[li].id), func(t uint8) bool {
		return t == defClockOffset && !keep
	}, in, out)
}

// rewriteEvents streams one location's event file, giving event i the time
// times[i]. in, out and patches are the worker's buffers, reused from one
// location to the next.
func (a *Archive) rewriteEvents(ctx context.Context, tmp string, li int, times []int64, in, out *[]byte, patches *[]patchAt) (timeRange, error) {
	var tr timeRange
	ld := a.defs.locations[li]
	name := a.evtName(ld.id)
	cs := int(a.anchor.EventChunkSize)
	src, err := a.openLocal(name)
	if err != nil {
		return tr, err
	}
	if src == nil && len(times) > 0 {
		return tr, &FormatError{File: name, Err: fmt.Errorf("%w: event file missing (location %d has %d events in the corrected trace)", ErrFormat, ld.id, len(times))}
	}
	dst, err := createFile(filepath.Join(tmp, ArchiveName, filepath.Base(name)))
	if err != nil {
		if src != nil {
			src.Close()
		}
		return tr, err
	}
	defer dst.Close()
	be := a.anchor.BigEndian
	var cw *chunkWriter
	if src != nil {
		defer src.Close()
		cr := newChunkReader(name, src, cs, *in)
		cr.ctx = ctx
		defer func() { *in = cr.buf }()
		s := newScanner(cr, true)
		// The fast path (patch.go): chunks copied with their times patched,
		// as long as each keeps its TIMESTAMP grouping; from the first that
		// does not, the records are written anew.
		ps := patchState{patches: *patches}
		defer func() { *patches = ps.patches }()
		var written int64
		for !ps.end {
			if err := cr.load(); err != nil {
				if err == io.EOF {
					return tr, cr.errf(cr.next, "file ends without END_OF_FILE")
				}
				return tr, err
			}
			if !patchChunk(cr, times, &ps, &tr) {
				s.started, s.p, s.nextEvent = true, chunkHeaderLen, uint64(ps.done)+1
				break
			}
			if _, err := dst.Write(cr.buf); err != nil {
				return tr, err
			}
			written += int64(len(cr.buf))
		}
		if ps.end {
			if ps.done != len(times) {
				return tr, &FormatError{File: name, Offset: cr.next, Err: fmt.Errorf("%w: %d events, but the corrected trace has %d", ErrFormat, ps.done, len(times))}
			}
			*out = (*out)[:0]
			return tr, dst.Close()
		}
		var (
			rec     record
			srcTime = ps.srcTime
			attr    []byte
			hasAttr bool
			i       = ps.done
			scratch []byte
			last    = ps.last
		)
		// order refuses a time that is negative or before its
		// predecessor's (OTF2 times are unsigned, and readers expect them
		// in order).
		order := func(v int64) error {
			if v >= last {
				last = v
				return nil
			}
			if v < 0 {
				return &trace.EventError{Location: li, Event: i, Err: fmt.Errorf("otf2: rewrite: negative time %d", v)}
			}
			return &trace.EventError{Location: li, Event: i, Err: fmt.Errorf("otf2: rewrite: time %d is before the previous event's %d", v, last)}
		}
		for {
			// Fast path for TIMESTAMP, Enter and Leave in a little-endian
			// chunk (most records); the rest goes through the scanner.
			if c := s.c; cw != nil && !be && s.started && !s.done && !c.be && !hasAttr && i < len(times) {
				b := c.buf
				if p := s.p; p+10 <= len(b) {
					switch t := b[p]; t {
					case recTimestamp:
						srcTime = binary.LittleEndian.Uint64(b[p+1:])
						s.p = p + 9
						continue
					case evEnter, evLeave:
						if k := int(b[p+1]); k <= 8 {
							if err := order(times[i]); err != nil {
								return tr, err
							}
							tt := uint64(times[i])
							i++
							tr.add(tt)
							if err := cw.event(tt, nil, t, b[p+1:p+2+k]); err != nil {
								return tr, err
							}
							s.p = p + 2 + k
							s.chunkEvents++
							s.nextEvent++
							continue
						}
					}
				}
			}
			err := s.next(&rec)
			if err == io.EOF {
				break
			}
			if err != nil {
				return tr, err
			}
			if cw == nil {
				be = s.c.be
				cw = newChunkWriter(name, dst, cs, be, true, *out)
				cw.continueAt(uint64(i)+1, written)
			} else if s.c.be != be {
				return tr, &FormatError{File: name, Offset: s.c.off + 1, Err: fmt.Errorf("%w: chunk %d changes the byte order", ErrFormat, s.c.index)}
			}
			switch rec.typ {
			case recTimestamp:
				d := dec{b: rec.payload, be: s.c.be}
				srcTime = d.u64full()
				continue
			case recAttributeList:
				attr = append(attr[:0], rec.payload...)
				hasAttr = true
				continue
			}
			if i >= len(times) {
				return tr, &FormatError{File: name, Offset: rec.off, Err: fmt.Errorf("%w: more events than the %d of the corrected trace (did the file change since it was read?)", ErrFormat, len(times))}
			}
			if err := order(times[i]); err != nil {
				return tr, err
			}
			t := uint64(times[i])
			i++
			tr.add(t)
			payload := rec.payload
			if rec.typ == evBufferFlush {
				d := dec{b: payload, be: s.c.be}
				stop := d.u64full()
				if d.err != nil {
					return tr, s.errAt(&rec, &d, d.err)
				}
				stop = shiftStop(stop, srcTime, t)
				tr.add(stop)
				e := enc{b: scratch[:0], be: s.c.be}
				e.u64full(stop)
				e.b = append(e.b, payload[8:]...)
				scratch = e.b
				payload = scratch
			}
			var al []byte
			if hasAttr {
				al = attr
				hasAttr = false
			}
			if err := cw.event(t, al, rec.typ, payload); err != nil {
				return tr, err
			}
		}
		if i != len(times) {
			return tr, &FormatError{File: name, Offset: s.c.next, Err: fmt.Errorf("%w: %d events, the corrected trace has %d for location %d (did the file change since it was read?)", ErrFormat, i, len(times), ld.id)}
		}
	}
	if cw == nil {
		cw = newChunkWriter(name, dst, cs, be, true, *out)
	}
	if err := cw.close(); err != nil {
		return tr, err
	}
	*out = cw.buf[:0]
	return tr, dst.Close()
}

// shiftStop maps a BufferFlush stopTime: it moves by as much as its event's
// time moved (from src to dst), and never before dst.
func shiftStop(stop, src, dst uint64) uint64 {
	var s uint64
	if dst >= src {
		d := dst - src
		if stop > math.MaxUint64-d {
			s = math.MaxUint64 - 1
		} else {
			s = stop + d
		}
	} else {
		d := src - dst
		if stop < d {
			s = 0
		} else {
			s = stop - d
		}
	}
	if s < dst {
		s = dst
	}
	return s
}
