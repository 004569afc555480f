package otf

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/trace"
)

// Enumeration values of OTF2 used by the writer.
const (
	paradigmUser = 1
	paradigmMPI  = 4

	paradigmClassProcess        = 0
	paradigmClassThreadForkJoin = 1
	paradigmClassThreadCreate   = 2

	locGroupTypeProcess = 1
	locTypeCPUThread    = 1

	roleFunction    = 1
	roleBarrier     = 15
	roleCollOne2All = 23
	roleCollAll2One = 24
	roleCollAll2All = 25
	roleCollOther   = 26
	roleP2P         = 28
)

// defaultMemBudget bounds the memory a Writer holds in unfinished chunks.
const defaultMemBudget = 256 << 20

// Writer writes a new archive from the trace model, location by location
// (path b: clc-sim --format otf2, native → OTF2). It implements trace.Sink.
//
// Event files are written as the events arrive; the definitions, which
// depend on the whole trace (event counts, the time range, clock offsets),
// are written by Close. Memory: about 256 MiB at most for unfinished chunks
// (docs/otf2.md).
type Writer struct {
	dir     string
	tmp     string
	cleanup func()
	defs    *trace.Trace
	opt     WriteOptions
	evSize  int
	shrink  bool
	locs    []*locWriter
	// pending counts the bytes of unfinished chunks held in memory (in
	// shrink mode); past spillAt, Append writes them out.
	pending atomic.Int64
	spillAt int64
	closed  bool
	mu      sync.Mutex
	dropped int64
	// carry is the OTF2 data the trace carries (nil: none): the archive
	// is then written with the source's definitions and ids.
	carry *carried
}

type locWriter struct {
	cw      *chunkWriter
	held    int64 // bytes of cw.buf counted in Writer.pending
	tr      timeRange
	last    uint64
	scratch []byte
	err     error
}

// appendFile is an io.Writer that appends to a file, opening and closing
// it for every write, so that any number of locations can be written
// without holding a file descriptor each. Writes are whole chunks.
type appendFile struct{ path string }

// WriteAt patches bytes already written (a spilled chunk's header).
func (a appendFile) WriteAt(b []byte, off int64) (int, error) {
	f, err := os.OpenFile(a.path, os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	n, err := f.WriteAt(b, off)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

func (a appendFile) Write(b []byte) (int, error) {
	f, err := os.OpenFile(a.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return 0, err
	}
	n, err := f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// Create starts a new archive in dir (which must not exist or be empty)
// for the definitions in defs: its Locations fix the event files, and its
// other definitions, including each location's Offsets (written as
// ClockOffset records), are read at Close. The events of defs are ignored.
// The archive is written into dir directly; making it appear atomically is
// the caller's job (package output).
//
// If defs carries OTF2 data (defs.Carried, from Archive.Read, possibly
// through the native format), the archive is the source's: its anchor
// (chunk sizes, byte order, creator, properties), every global and local
// definition as it was, and the events in the source's ids; only the
// ClockOffset records (written from the locations' Offsets), ClockProperties
// (the time range written) and the Location event counts are written
// anew. The carried definitions must define defs' model exactly.
func Create(dir string, defs *trace.Trace, opt *WriteOptions) (*Writer, error) {
	if defs == nil {
		return nil, fmt.Errorf("otf2: create: no definitions")
	}
	if len(defs.Locations) == 0 {
		return nil, fmt.Errorf("otf2: create: %w", ErrNoLocations)
	}
	w := &Writer{dir: dir, defs: defs}
	if opt != nil {
		w.opt = *opt
	}
	if defs.Carried != nil && defs.Carried.Format() == trace.FormatOTF2 {
		c, err := loadCarried(defs)
		if err != nil {
			return nil, err
		}
		an := c.a.anchor
		w.carry = c
		w.opt.EventChunkSize, w.opt.DefChunkSize, w.opt.bigEndian = an.EventChunkSize, an.DefChunkSize, an.BigEndian
	}
	if w.opt.EventChunkSize == 0 {
		w.opt.EventChunkSize = 1 << 20
	}
	if w.opt.DefChunkSize == 0 {
		w.opt.DefChunkSize = 4 << 20
	}
	for _, cs := range []uint64{w.opt.EventChunkSize, w.opt.DefChunkSize} {
		if cs < MinChunkSize || cs > MaxChunkSize {
			return nil, fmt.Errorf("otf2: create: chunk size %d outside [%d, %d]", cs, MinChunkSize, MaxChunkSize)
		}
	}
	w.evSize = int(w.opt.EventChunkSize)
	budget := w.opt.memBudget
	if budget == 0 {
		budget = defaultMemBudget
	}
	w.shrink = uint64(len(defs.Locations))*w.opt.EventChunkSize > budget
	w.spillAt = int64(budget)
	seen := map[uint64]int{}
	for li, l := range defs.Locations {
		if l == nil {
			return nil, fmt.Errorf("otf2: create: location %d is nil", li)
		}
		if o, dup := seen[l.ID]; dup {
			return nil, fmt.Errorf("otf2: create: locations %d and %d have the same id %d", o, li, l.ID)
		}
		seen[l.ID] = li
	}
	tmp, cleanup, err := outDir(dir)
	if err != nil {
		return nil, err
	}
	w.tmp, w.cleanup = tmp, cleanup
	if err := os.Mkdir(filepath.Join(tmp, ArchiveName), 0o777); err != nil {
		cleanup()
		return nil, fmt.Errorf("otf2: %w", err)
	}
	w.locs = make([]*locWriter, len(defs.Locations))
	for li, l := range defs.Locations {
		name := "traces/" + strconv.FormatUint(l.ID, 10) + ".evt"
		var buf []byte
		if !w.shrink {
			buf = make([]byte, 0, w.evSize)
		}
		w.locs[li] = &locWriter{cw: newChunkWriter(name, appendFile{filepath.Join(tmp, filepath.FromSlash(name))}, w.evSize, w.opt.bigEndian, true, buf)}
	}
	return w, nil
}

// Defs returns the definitions given to Create; they may be changed until
// Close.
func (w *Writer) Defs() *trace.Trace { return w.defs }

// Dropped returns the number of events and attachments not written
// because they are not OTF2 records (opaque records or attachments of
// another format).
func (w *Writer) Dropped() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dropped
}

// Append writes the events of ev as the next events of location loc. It may
// be called concurrently for different locations. Times must not decrease
// and must not be negative.
func (w *Writer) Append(loc int, ev *trace.Events) error {
	if w.closed {
		return fmt.Errorf("otf2: append after close")
	}
	if loc < 0 || loc >= len(w.locs) {
		return fmt.Errorf("otf2: append: location %d out of range [0,%d)", loc, len(w.locs))
	}
	lw := w.locs[loc]
	if lw.err != nil {
		return lw.err
	}
	dropped, err := w.appendEvents(loc, lw, ev)
	if err != nil {
		lw.err = err
		return err
	}
	if dropped > 0 {
		w.mu.Lock()
		w.dropped += dropped
		w.mu.Unlock()
	}
	if w.shrink {
		// Many locations: bound the memory of unfinished chunks. Past the
		// budget, a location's unfinished chunk goes to its file (the chunk
		// header is patched when the chunk is complete); below it, the
		// buffer is at least kept near its used size.
		n := int64(len(lw.cw.buf))
		total := w.pending.Add(n - lw.held)
		lw.held = n
		if total > w.spillAt {
			lw.cw.spill()
			w.pending.Add(-n)
			lw.held = 0
			if lw.cw.err != nil {
				lw.err = lw.cw.err
				return lw.err
			}
		} else if cap(lw.cw.buf) > 2*len(lw.cw.buf)+4096 {
			lw.cw.buf = append([]byte(nil), lw.cw.buf...)
		}
	}
	return nil
}

func (w *Writer) appendEvents(loc int, lw *locWriter, ev *trace.Events) (int64, error) {
	var dropped int64
	att := 0
	e := enc{b: lw.scratch, be: w.opt.bigEndian}
	defer func() { lw.scratch = e.b[:0] }()
	cw := lw.cw
	if w.shrink {
		// The buffers of many locations start small (Append): room for
		// these events at once, at the size of the events so far.
		cw.reserve(ev.Len() * cw.bytesPerEvent(16))
	}
	evErr := func(err error) error {
		return &trace.EventError{Location: loc, Event: int(cw.numEvents()), Err: err}
	}
	for i, k := range ev.Kind {
		var attr []byte
		for att < len(ev.Attach) && int(ev.Attach[att].Event) < i {
			att++
			dropped++
		}
		for att < len(ev.Attach) && int(ev.Attach[att].Event) == i {
			a := ev.Attach[att]
			if a.Format == trace.FormatOTF2 && attr == nil {
				attr = a.Data
				if w.opt.bigEndian {
					attr, _ = swapAttributeList(attr, true)
				}
			} else {
				dropped++
			}
			att++
		}
		t := ev.Time[i]
		if t < 0 {
			return dropped, &trace.EventError{Location: loc, Event: int(cw.numEvents()), Err: fmt.Errorf("otf2: negative time %d", t)}
		}
		ut := uint64(t)
		if lw.tr.any && ut < lw.last {
			return dropped, &trace.EventError{Location: loc, Event: int(cw.numEvents()), Err: fmt.Errorf("otf2: time %d is before the previous event's %d", ut, lw.last)}
		}
		e.b = e.b[:0]
		var typ uint8
		r := ev.Ref[i]
		switch k {
		case trace.KindEnter, trace.KindLeave:
			typ = evEnter
			if k == trace.KindLeave {
				typ = evLeave
			}
			id, err := w.regionOut(loc, r)
			if err != nil {
				return dropped, evErr(err)
			}
			e.u32c(id)
		case trace.KindSend, trace.KindIsend, trace.KindRecv, trace.KindIrecv:
			m := ev.Msgs[r]
			switch k {
			case trace.KindSend:
				typ = evMpiSend
			case trace.KindIsend:
				typ = evMpiIsend
			case trace.KindRecv:
				typ = evMpiRecv
			default:
				typ = evMpiIrecv
			}
			c, err := w.commOut(loc, m.Comm)
			if err != nil {
				return dropped, evErr(err)
			}
			e.u32c(m.Peer)
			e.u32c(c)
			e.u32c(m.Tag)
			e.u64c(m.Bytes)
			if k == trace.KindIsend || k == trace.KindIrecv {
				e.u64c(m.Request)
			}
		case trace.KindIsendComplete, trace.KindIrecvRequest, trace.KindRequestTest, trace.KindRequestCancelled, trace.KindNBCollRequest:
			switch k {
			case trace.KindIsendComplete:
				typ = evMpiIsendComplete
			case trace.KindIrecvRequest:
				typ = evMpiIrecvRequest
			case trace.KindRequestTest:
				typ = evMpiRequestTest
			case trace.KindRequestCancelled:
				typ = evMpiRequestCancelled
			default:
				typ = evNonBlockingCollectiveRequest
			}
			e.u64c(ev.Reqs[r])
		case trace.KindCollBegin:
			typ = evMpiCollectiveBegin
		case trace.KindCollEnd, trace.KindNBCollComplete:
			c := ev.Colls[r]
			typ = evMpiCollectiveEnd
			if k == trace.KindNBCollComplete {
				typ = evNonBlockingCollectiveComplete
			}
			cm, err := w.commOut(loc, c.Comm)
			if err != nil {
				return dropped, evErr(err)
			}
			e.u8(uint8(c.Op))
			e.u32c(cm)
			e.u32c(c.Root)
			e.u64c(c.Sent)
			e.u64c(c.Received)
			if k == trace.KindNBCollComplete {
				e.u64c(c.Request)
			}
		case trace.KindCommCreate, trace.KindCommDestroy:
			typ = evCommCreate
			if k == trace.KindCommDestroy {
				typ = evCommDestroy
			}
			c, err := w.commOut(loc, r)
			if err != nil {
				return dropped, evErr(err)
			}
			e.u32c(c)
		case trace.KindOther:
			o := ev.Opaque[r]
			if o.Format != trace.FormatOTF2 {
				dropped++
				if attr != nil {
					dropped++
				}
				continue
			}
			if o.Type < 10 || o.Type > 255 {
				return dropped, evErr(fmt.Errorf("otf2: opaque record type %d is not an OTF2 event record", o.Type))
			}
			typ = uint8(o.Type)
			data := o.Data
			if typ == evBufferFlush && len(data) >= 8 {
				// The flush's stop time (little-endian, as read) is a time
				// of the trace too: ClockProperties cover it.
				lw.tr.add(binary.LittleEndian.Uint64(data))
			}
			if w.opt.bigEndian {
				data, _ = swapEvent(typ, data, true)
			}
			e.b = append(e.b, data...)
		default:
			if !k.HasThread() {
				return dropped, evErr(fmt.Errorf("otf2: cannot write event kind %s", k))
			}
			th := ev.Threads[r]
			if th.Team != trace.NoComm {
				c, err := w.commOut(loc, th.Team)
				if err != nil {
					return dropped, evErr(err)
				}
				th.Team = c
			}
			typ = encodeThread(&e, k, &th)
		}
		if err := cw.event(ut, attr, typ, e.b); err != nil {
			return dropped, err
		}
		lw.last = ut
		lw.tr.add(ut)
	}
	dropped += int64(len(ev.Attach) - att)
	return dropped, nil
}

// regionOut returns the id location loc's events use for model region r:
// r itself, or with carried definitions the source's (local) id.
func (w *Writer) regionOut(loc int, r uint32) (uint32, error) {
	if w.carry == nil {
		return r, nil
	}
	return w.carry.region(loc, r)
}

// commOut returns the id location loc's events use for model communicator
// c: c itself, or with carried definitions the source's (local) id.
func (w *Writer) commOut(loc int, c uint32) (uint32, error) {
	if w.carry == nil {
		return c, nil
	}
	return w.carry.comm(loc, c)
}

// threadRecords gives the record type of each thread kind: the thread
// record, and the OTF2 1.0 OpenMP record it supersedes (0: none). The
// other kinds have {0, 0} (0 is no event record type).
var threadRecords = [trace.NumKinds][2]uint8{
	trace.KindThreadFork: {evThreadFork, evOmpFork}, trace.KindThreadJoin: {evThreadJoin, evOmpJoin},
	trace.KindThreadTeamBegin: {evThreadTeamBegin, 0}, trace.KindThreadTeamEnd: {evThreadTeamEnd, 0},
	trace.KindThreadAcquireLock:  {evThreadAcquireLock, evOmpAcquireLock},
	trace.KindThreadReleaseLock:  {evThreadReleaseLock, evOmpReleaseLock},
	trace.KindThreadTaskCreate:   {evThreadTaskCreate, evOmpTaskCreate},
	trace.KindThreadTaskSwitch:   {evThreadTaskSwitch, evOmpTaskSwitch},
	trace.KindThreadTaskComplete: {evThreadTaskComplete, evOmpTaskComplete},
	trace.KindThreadCreate:       {evThreadCreate, 0}, trace.KindThreadBegin: {evThreadBegin, 0},
	trace.KindThreadWait: {evThreadWait, 0}, trace.KindThreadEnd: {evThreadEnd, 0},
}

// encodeThread encodes a thread event's fields into e and returns its
// record type: the OTF2 1.0 OpenMP record for a legacy event (which has no
// model; a task's id is Sequence), the thread record otherwise. An
// undefined team or contingent (trace.NoComm) is OTF2's undefined
// reference, all ones.
func encodeThread(e *enc, k trace.Kind, th *trace.Thread) uint8 {
	types := threadRecords[k]
	legacy := th.Legacy && types[1] != 0
	switch k {
	case trace.KindThreadFork, trace.KindThreadJoin, trace.KindThreadAcquireLock, trace.KindThreadReleaseLock:
		if !legacy {
			e.u8(uint8(th.Model))
		}
		if k == trace.KindThreadFork {
			e.u32c(th.Threads)
		} else if k != trace.KindThreadJoin {
			e.u32c(th.Lock)
			e.u32c(th.Order)
		}
	case trace.KindThreadTeamBegin, trace.KindThreadTeamEnd:
		e.u32c(th.Team)
	case trace.KindThreadTaskCreate, trace.KindThreadTaskSwitch, trace.KindThreadTaskComplete:
		if legacy {
			e.u64c(th.Sequence)
			break
		}
		e.u32c(th.Team)
		e.u32c(th.Creator)
		e.u32c(th.Generation)
	default: // thread create, begin, wait, end
		e.u32c(th.Team)
		e.u64c(th.Sequence)
	}
	if legacy {
		return types[1]
	}
	return types[0]
}

// Abort discards everything written so far.
func (w *Writer) Abort() {
	if !w.closed {
		w.closed = true
		w.cleanup()
	}
}

// Close finishes the event files and writes the definitions and the
// anchor. After an error, what was written is removed.
func (w *Writer) Close() (err error) {
	if w.closed {
		return fmt.Errorf("otf2: close: already closed")
	}
	w.closed = true
	defer func() {
		if err != nil {
			w.cleanup()
		}
	}()
	// Each location's last event chunk and its local definitions, a file
	// each: on several goroutines (at 65,536 locations, creating the files
	// is most of the write).
	err = par.DoEach(context.Background(), len(w.locs), w.opt.parallel(), func(li int) error {
		lw := w.locs[li]
		if lw.err != nil {
			return lw.err
		}
		if err := lw.cw.close(); err != nil {
			return err
		}
		lw.cw.buf = nil
		return w.writeLocalDefs(li)
	})
	if err != nil {
		return err
	}
	var all timeRange
	for li, lw := range w.locs {
		all.merge(lw.tr.synced(w.defs.Locations[li].Offsets))
	}
	if w.carry != nil {
		if err := w.writeCarriedDefs(all); err != nil {
			return err
		}
		return nil
	}
	n, err := w.writeGlobalDefs(all)
	if err != nil {
		return err
	}
	an := &Anchor{
		BigEndian:      w.opt.bigEndian,
		AnchorFormat:   3,
		TraceFormat:    2,
		Version:        [3]uint8{3, 0, 0},
		EventChunkSize: w.opt.EventChunkSize,
		DefChunkSize:   w.opt.DefChunkSize,
		Substrate:      SubstratePOSIX,
		Compression:    CompressionNone,
		NumLocations:   uint64(len(w.locs)),
		NumGlobalDefs:  n,
		Creator:        w.opt.Creator,
	}
	if an.Creator == "" {
		an.Creator = "clc"
	}
	props := map[string]string{}
	for k, v := range w.defs.Properties {
		switch {
		case validPropertyName(k) && v != "":
			// OTF2 cannot hold an empty value: the reference reader takes
			// it for the removal of a property and refuses the archive.
			props[k] = v
		case nativeToOTF2[k] != "":
			if v == "" {
				v = "none"
			}
			if _, set := props[nativeToOTF2[k]]; !set {
				props[nativeToOTF2[k]] = v
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(props)) {
		an.Properties = append(an.Properties, Property{k, props[k]})
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %d %d %d", w.defs.Resolution, len(w.locs), all.min, all.max)
	an.TraceID = h.Sum64()
	if err := os.WriteFile(filepath.Join(w.tmp, AnchorName), an.encode(), 0o666); err != nil {
		return fmt.Errorf("otf2: %w", err)
	}
	return nil
}

// validPropertyName reports whether an anchor property name has OTF2's
// NAMESPACE::NAME form (checkPropertyName) in upper-case letters, digits and
// underscores only.
func validPropertyName(k string) bool {
	return checkPropertyName(k) == nil && !strings.ContainsFunc(k, func(c rune) bool { return c >= 'a' && c <= 'z' })
}

func (w *Writer) writeLocalDefs(li int) error {
	l := w.defs.Locations[li]
	name := "traces/" + strconv.FormatUint(l.ID, 10) + ".def"
	f, err := createFile(filepath.Join(w.tmp, filepath.FromSlash(name)))
	if err != nil {
		return err
	}
	defer f.Close()
	if w.carry != nil {
		err = w.carry.writeLocalDefs(f, name, li, l.Offsets)
	} else {
		cw := newChunkWriter(name, f, int(w.opt.DefChunkSize), w.opt.bigEndian, false, nil)
		if err = putOffsets(cw, li, l.Offsets); err == nil {
			err = cw.close()
		}
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// offsetDeviation is what an OTF2 ClockOffset record states of a
// measurement's uncertainty: its standard deviation, or, when only its
// round trip is known (OTF2 has no field for it), half the round trip,
// the bound of a ping-pong measurement's error, in ticks. clc's readers
// weigh and bound measurements alike by either (presync, clockmodel).
func offsetDeviation(o trace.ClockOffset) float64 {
	if o.StdDev == 0 && o.RTT > 0 {
		return float64(o.RTT) / 2
	}
	return o.StdDev
}

// putOffsets writes the ClockOffset records of location li.
func putOffsets(cw *chunkWriter, li int, offsets []trace.ClockOffset) error {
	e := enc{be: cw.be}
	for k, o := range offsets {
		if o.Time < 0 || (k > 0 && o.Time <= offsets[k-1].Time) {
			return fmt.Errorf("otf2: location %d: clock offset %d at time %d is negative or not after the previous one", li, k, o.Time)
		}
		e.b = e.b[:0]
		e.u64full(uint64(o.Time))
		e.i64c(o.Offset)
		e.f64(offsetDeviation(o))
		if err := cw.def(defClockOffset, e.b); err != nil {
			return err
		}
	}
	return nil
}

// locGroupOut is a location group to write: one per process.
type locGroupOut struct {
	name string
	node int32
}

// locationGroups returns the location groups of t, one per process (per
// location for a trace without processes, named "MPI Rank i" as before),
// each on the node of its locations.
func locationGroups(t *trace.Trace) ([]locGroupOut, error) {
	n := t.NumProcesses()
	out := make([]locGroupOut, n)
	for i := range out {
		out[i].node = -1
		if len(t.Processes) > 0 {
			out[i].name = t.Processes[i].Name
		}
		if out[i].name == "" {
			out[i].name = "MPI Rank " + strconv.Itoa(i)
		}
	}
	for li, l := range t.Locations {
		if l.Node < 0 || int(l.Node) >= len(t.Nodes) {
			return nil, fmt.Errorf("otf2: location %d: node %d out of range", li, l.Node)
		}
		p := t.ProcessOf(li)
		if p < 0 || int(p) >= n {
			return nil, fmt.Errorf("otf2: location %d: process %d out of range", li, p)
		}
		if out[p].node >= 0 && out[p].node != l.Node {
			return nil, fmt.Errorf("otf2: location %d: on node %d, but process %d has a location on node %d", li, l.Node, p, out[p].node)
		}
		out[p].node = l.Node
	}
	for i := range out {
		out[i].node = max(out[i].node, 0) // a process without locations
	}
	return out, nil
}

// commParadigm is the paradigm a communicator is written with: its own,
// or MPI when unknown.
func commParadigm(p trace.Paradigm) trace.Paradigm {
	if p == trace.ParadigmUnknown {
		return paradigmMPI
	}
	return p
}

// commParadigms returns the paradigms of the communicators of t, MPI
// first (always), then the others in ascending order.
func commParadigms(t *trace.Trace) []trace.Paradigm {
	seen := map[trace.Paradigm]bool{paradigmMPI: true}
	out := []trace.Paradigm{paradigmMPI}
	var more []trace.Paradigm
	for _, c := range t.Comms {
		if p := commParadigm(c.Paradigm); !seen[p] {
			seen[p] = true
			more = append(more, p)
		}
	}
	sort.Slice(more, func(a, b int) bool { return more[a] < more[b] })
	return append(out, more...)
}

// paradigmName and paradigmClass describe a paradigm's Paradigm definition.
func paradigmName(p trace.Paradigm) string {
	switch p {
	case paradigmMPI:
		return "MPI"
	case trace.ParadigmOpenMP:
		return "OpenMP"
	case trace.ParadigmPthread:
		return "Pthread"
	case trace.ParadigmCUDA:
		return "CUDA"
	}
	return "paradigm " + strconv.Itoa(int(p))
}

func paradigmClass(p trace.Paradigm) uint8 {
	switch p {
	case trace.ParadigmOpenMP:
		return paradigmClassThreadForkJoin
	case trace.ParadigmPthread:
		return paradigmClassThreadCreate
	}
	return paradigmClassProcess
}

// regionRole guesses an MPI region's role and paradigm from its name.
func regionRole(name string) (role, paradigm uint8) {
	if !strings.HasPrefix(name, "MPI_") {
		return roleFunction, paradigmUser
	}
	n := strings.ToLower(strings.TrimPrefix(name, "MPI_"))
	switch n {
	case "barrier", "ibarrier":
		return roleBarrier, paradigmMPI
	case "bcast", "ibcast", "scatter", "iscatter", "scatterv", "iscatterv":
		return roleCollOne2All, paradigmMPI
	case "gather", "igather", "gatherv", "igatherv", "reduce", "ireduce":
		return roleCollAll2One, paradigmMPI
	case "allgather", "iallgather", "allgatherv", "iallgatherv", "alltoall", "ialltoall",
		"alltoallv", "ialltoallv", "alltoallw", "ialltoallw", "allreduce", "iallreduce",
		"reduce_scatter", "ireduce_scatter", "reduce_scatter_block", "ireduce_scatter_block":
		return roleCollAll2All, paradigmMPI
	case "scan", "iscan", "exscan", "iexscan":
		return roleCollOther, paradigmMPI
	}
	for _, p := range []string{"send", "recv", "isend", "irecv", "ssend", "bsend", "rsend",
		"issend", "ibsend", "irsend", "sendrecv", "sendrecv_replace", "wait", "waitall",
		"waitany", "waitsome", "test", "testall", "testany", "testsome", "probe", "iprobe",
		"start", "startall", "cancel", "request_free"} {
		if n == p {
			return roleP2P, paradigmMPI
		}
	}
	return roleFunction, paradigmMPI
}

// writeGlobalDefs writes traces.def and returns the number of records.
func (w *Writer) writeGlobalDefs(all timeRange) (uint64, error) {
	t := w.defs
	name := "traces.def"
	f, err := createFile(filepath.Join(w.tmp, name))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	be := w.opt.bigEndian
	cw := newChunkWriter(name, f, int(w.opt.DefChunkSize), be, false, nil)
	var n uint64
	e := enc{be: be}
	put := func(typ uint8) error {
		n++
		return cw.def(typ, e.b)
	}
	// Strings, interned in order of first use.
	strs := map[string]uint32{}
	var order []string
	str := func(s string) uint32 {
		if id, ok := strs[s]; ok {
			return id
		}
		id := uint32(len(order))
		strs[s] = id
		order = append(order, s)
		return id
	}
	str("")
	str("machine")
	str("node")
	str("MPI")
	for _, nd := range t.Nodes {
		str(nd.Name)
	}
	groups, err := locationGroups(t)
	if err != nil {
		return 0, err
	}
	lgNames := make([]uint32, len(groups))
	for gi, lg := range groups {
		lgNames[gi] = str(lg.name)
	}
	paradigms := commParadigms(t)
	for _, p := range paradigms[1:] {
		str(paradigmName(p))
	}
	locNames := make([]uint32, len(t.Locations))
	for li, l := range t.Locations {
		nm := l.Name
		if nm == "" {
			nm = "rank " + strconv.Itoa(li)
		}
		locNames[li] = str(nm)
	}
	for _, r := range t.Regions {
		str(r.Name)
	}
	for _, c := range t.Comms {
		str(c.Name)
	}
	attrs, err := parseAttributeDefs(t.Properties[PropAttributes])
	if err != nil {
		return 0, fmt.Errorf("otf2: property %s: %w", PropAttributes, err)
	}
	for _, a := range attrs {
		str(a.name)
		str(a.desc)
	}

	e.b = e.b[:0]
	e.u64c(t.Resolution)
	if all.any {
		e.u64c(all.min)
		e.u64c(all.max - all.min)
	} else {
		e.u64c(0)
		e.u64c(0)
	}
	e.u64c(undefined64) // realtimeTimestamp unknown
	if t.Resolution == 0 {
		return 0, fmt.Errorf("otf2: timer resolution is 0")
	}
	if err := put(defClockProperties); err != nil {
		return 0, err
	}
	for id, s := range order {
		e.b = e.b[:0]
		e.u32c(uint32(id))
		e.str(s)
		if err := put(defString); err != nil {
			return 0, err
		}
	}
	for _, p := range paradigms {
		e.b = e.b[:0]
		e.u8(uint8(p))
		e.u32c(strs[paradigmName(p)])
		e.u8(paradigmClass(p))
		if err := put(defParadigm); err != nil {
			return 0, err
		}
	}
	for _, a := range attrs {
		e.b = e.b[:0]
		e.u32c(a.id)
		e.u32c(strs[a.name])
		e.u8(a.typ)
		e.u32c(strs[a.desc])
		if err := put(defAttribute); err != nil {
			return 0, err
		}
	}
	// System tree: a root, then one node per trace.Node.
	e.b = e.b[:0]
	e.u32c(0)
	e.u32c(strs["machine"])
	e.u32c(strs["machine"])
	e.u32c(undefined32)
	if err := put(defSystemTreeNode); err != nil {
		return 0, err
	}
	for i, nd := range t.Nodes {
		e.b = e.b[:0]
		e.u32c(uint32(1 + i))
		e.u32c(strs[nd.Name])
		e.u32c(strs["node"])
		e.u32c(0)
		if err := put(defSystemTreeNode); err != nil {
			return 0, err
		}
	}
	for gi, lg := range groups {
		e.b = e.b[:0]
		e.u32c(uint32(gi))
		e.u32c(lgNames[gi])
		e.u8(locGroupTypeProcess)
		e.u32c(uint32(1 + lg.node))
		e.u32c(undefined32) // creatingLocationGroup
		if err := put(defLocationGroup); err != nil {
			return 0, err
		}
	}
	for li, l := range t.Locations {
		e.b = e.b[:0]
		e.u64c(l.ID)
		e.u32c(locNames[li])
		typ := uint8(l.Kind)
		if l.Kind == trace.LocationUnknown {
			typ = locTypeCPUThread
		}
		e.u8(typ)
		e.u64c(w.locs[li].cw.numEvents())
		e.u32c(uint32(t.ProcessOf(li)))
		if err := put(defLocation); err != nil {
			return 0, err
		}
	}
	for ri, r := range t.Regions {
		role, par := regionRole(r.Name)
		if r.Role != trace.RoleUnknown || r.Paradigm != trace.ParadigmUnknown {
			role, par = uint8(r.Role), uint8(r.Paradigm)
		}
		e.b = e.b[:0]
		e.u32c(uint32(ri))
		e.u32c(strs[r.Name]) // name
		e.u32c(strs[""])     // description
		e.u8(0)              // regionType (withdrawn)
		e.u32c(undefined32)  // sourceFile
		e.u32c(0)            // beginLineNumber
		e.u32c(0)            // endLineNumber
		e.u32c(strs[r.Name]) // canonicalName
		e.u8(role)
		e.u8(par)
		e.u32c(0) // regionFlags
		if err := put(defRegion); err != nil {
			return 0, err
		}
	}
	group := func(id uint32, typ uint8, paradigm trace.Paradigm, members func(*enc) int) error {
		e.b = e.b[:0]
		e.u32c(id)
		e.u32c(strs[""])
		e.u8(0) // groupTypePre12 (withdrawn)
		members(&e)
		e.u8(typ)
		e.u8(uint8(paradigm))
		e.u32c(0)
		return put(defGroup)
	}
	allLocations := func(e *enc) int {
		e.u32c(uint32(len(t.Locations)))
		for _, l := range t.Locations {
			e.u64c(l.ID)
		}
		return 0
	}
	if len(t.Comms) > 0 {
		// Groups 0 … P−1 list every location, one per paradigm (MPI
		// first): rank i of a COMM_GROUP is location i. The groups of the
		// communicators follow (the reference reader wants the
		// COMM_LOCATIONS group of a paradigm before its COMM_GROUPs).
		for j, p := range paradigms {
			if err := group(uint32(j), groupCommLocations, p, allLocations); err != nil {
				return 0, err
			}
		}
		for ci, c := range t.Comms {
			for r, m := range c.Members {
				if m < 0 || int(m) >= len(t.Locations) {
					return 0, fmt.Errorf("otf2: communicator %d: member %d is location %d, out of range", ci, r, m)
				}
			}
			if err := group(uint32(len(paradigms)+ci), groupCommGroup, commParadigm(c.Paradigm), func(e *enc) int {
				e.u32c(uint32(len(c.Members)))
				for _, m := range c.Members {
					e.u64c(uint64(m))
				}
				return 0
			}); err != nil {
				return 0, err
			}
		}
		for ci, c := range t.Comms {
			e.b = e.b[:0]
			e.u32c(uint32(ci))
			e.u32c(strs[c.Name])
			e.u32c(uint32(len(paradigms) + ci))
			e.u32c(undefined32) // parent
			e.u32c(0)           // flags
			if err := put(defComm); err != nil {
				return 0, err
			}
		}
	}
	if err := cw.close(); err != nil {
		return 0, err
	}
	return n, f.Close()
}

// PropAttributes is the trace property holding OTF2 Attribute definitions
// for the attribute lists attached to events (trace.FormatOTF2
// attachments) of a trace that does not come from an OTF2 archive, such as
// clc-trace's: one definition per line, "ID TYPE NAME DESCRIPTION", TYPE one
// of uint8, uint16, uint32, uint64, int8, int16, int32, int64, double.
// Create writes them to the new archive's definitions.
const PropAttributes = "clc.otf2-attributes"

type attributeDef struct {
	id         uint32
	typ        uint8
	name, desc string
}

var attributeTypes = map[string]uint8{"uint8": 1, "uint16": 2, "uint32": 3, "uint64": 4, "int8": 5, "int16": 6,
	"int32": 7, "int64": 8, "double": 10}

func parseAttributeDefs(s string) ([]attributeDef, error) {
	var out []attributeDef
	seen := map[uint32]bool{}
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.SplitN(line, " ", 4)
		if len(f) < 3 {
			return nil, fmt.Errorf("line %d: want ID TYPE NAME [DESCRIPTION], got %q", i+1, line)
		}
		id, err := strconv.ParseUint(f[0], 10, 32)
		if err != nil || id == undefined32 || seen[uint32(id)] {
			return nil, fmt.Errorf("line %d: bad or repeated attribute id %q", i+1, f[0])
		}
		typ, ok := attributeTypes[f[1]]
		if !ok {
			return nil, fmt.Errorf("line %d: unknown attribute type %q", i+1, f[1])
		}
		a := attributeDef{id: uint32(id), typ: typ, name: f[2]}
		if len(f) == 4 {
			a.desc = f[3]
		}
		seen[a.id] = true
		out = append(out, a)
	}
	return out, nil
}

// WriteTrace writes the whole trace t as a new archive in dir (path b),
// writing the locations in parallel. It stops at the next location when
// ctx is cancelled, and leaves nothing then.
func WriteTrace(ctx context.Context, dir string, t *trace.Trace, opt *WriteOptions) error {
	w, err := Create(dir, t, opt)
	if err != nil {
		return err
	}
	err = par.DoEach(ctx, len(t.Locations), w.opt.parallel(), func(li int) error {
		return w.Append(li, &t.Locations[li].Events)
	})
	if err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

var _ trace.Sink = (*Writer)(nil)

// nativeToOTF2 is CLCProperties the other way.
var nativeToOTF2 = func() map[string]string {
	m := map[string]string{}
	for o, n := range CLCProperties {
		m[n] = o
	}
	return m
}()
