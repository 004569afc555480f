package otf

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/clc-tools/clc/trace"
)

// Event record types the reader maps onto the trace model.
const (
	evBufferFlush                   = 10
	evEnter                         = 12
	evLeave                         = 13
	evMpiSend                       = 14
	evMpiIsend                      = 15
	evMpiIsendComplete              = 16
	evMpiIrecvRequest               = 17
	evMpiRecv                       = 18
	evMpiIrecv                      = 19
	evMpiRequestTest                = 20
	evMpiRequestCancelled           = 21
	evMpiCollectiveBegin            = 22
	evMpiCollectiveEnd              = 23
	evNonBlockingCollectiveRequest  = 85
	evNonBlockingCollectiveComplete = 86
	evCommCreate                    = 87
	evCommDestroy                   = 88

	// Thread records (OTF2 1.2–1.3) and the OpenMP records of OTF2 1.0
	// they supersede.
	evOmpFork            = 24
	evOmpJoin            = 25
	evOmpAcquireLock     = 26
	evOmpReleaseLock     = 27
	evOmpTaskCreate      = 28
	evOmpTaskSwitch      = 29
	evOmpTaskComplete    = 30
	evThreadFork         = 53
	evThreadJoin         = 54
	evThreadTeamBegin    = 55
	evThreadTeamEnd      = 56
	evThreadAcquireLock  = 57
	evThreadReleaseLock  = 58
	evThreadTaskCreate   = 59
	evThreadTaskSwitch   = 60
	evThreadTaskComplete = 61
	evThreadCreate       = 62
	evThreadBegin        = 63
	evThreadWait         = 64
	evThreadEnd          = 65
)

// threadKinds maps the thread record types to the model's kinds; the other
// record types have trace.KindInvalid (the zero value, no valid kind).
var threadKinds = [256]trace.Kind{
	evOmpFork: trace.KindThreadFork, evOmpJoin: trace.KindThreadJoin,
	evOmpAcquireLock: trace.KindThreadAcquireLock, evOmpReleaseLock: trace.KindThreadReleaseLock,
	evOmpTaskCreate: trace.KindThreadTaskCreate, evOmpTaskSwitch: trace.KindThreadTaskSwitch,
	evOmpTaskComplete: trace.KindThreadTaskComplete,
	evThreadFork:      trace.KindThreadFork, evThreadJoin: trace.KindThreadJoin,
	evThreadTeamBegin: trace.KindThreadTeamBegin, evThreadTeamEnd: trace.KindThreadTeamEnd,
	evThreadAcquireLock: trace.KindThreadAcquireLock, evThreadReleaseLock: trace.KindThreadReleaseLock,
	evThreadTaskCreate: trace.KindThreadTaskCreate, evThreadTaskSwitch: trace.KindThreadTaskSwitch,
	evThreadTaskComplete: trace.KindThreadTaskComplete,
	evThreadCreate:       trace.KindThreadCreate, evThreadBegin: trace.KindThreadBegin,
	evThreadWait: trace.KindThreadWait, evThreadEnd: trace.KindThreadEnd,
}

// decodeThread decodes the fields of a thread record of type typ (one of
// threadKinds) into the model's payload, its team or contingent
// translated with comms (OTF2's undefined reference: trace.NoComm). ok is
// false with a dangling reference, whose id is returned.
func decodeThread(d *dec, typ uint8, comms *idIndex) (th trace.Thread, ok bool, id uint32) {
	th.Team = trace.NoComm
	team := func() {
		id = d.u32c()
		th.Team = id
	}
	switch typ {
	case evOmpFork:
		th.Legacy, th.Model, th.Threads = true, trace.ParadigmOpenMP, d.u32c()
	case evOmpJoin:
		th.Legacy, th.Model = true, trace.ParadigmOpenMP
	case evOmpAcquireLock, evOmpReleaseLock:
		th.Legacy, th.Model = true, trace.ParadigmOpenMP
		th.Lock, th.Order = d.u32c(), d.u32c()
	case evOmpTaskCreate, evOmpTaskSwitch, evOmpTaskComplete:
		th.Legacy, th.Model, th.Sequence = true, trace.ParadigmOpenMP, d.u64c()
	case evThreadFork:
		th.Model, th.Threads = trace.Paradigm(d.u8()), d.u32c()
	case evThreadJoin:
		th.Model = trace.Paradigm(d.u8())
	case evThreadTeamBegin, evThreadTeamEnd:
		team()
	case evThreadAcquireLock, evThreadReleaseLock:
		th.Model = trace.Paradigm(d.u8())
		th.Lock, th.Order = d.u32c(), d.u32c()
	case evThreadTaskCreate, evThreadTaskSwitch, evThreadTaskComplete:
		team()
		th.Creator, th.Generation = d.u32c(), d.u32c()
	case evThreadCreate, evThreadBegin, evThreadWait, evThreadEnd:
		team()
		th.Sequence = d.u64c()
	}
	if d.err != nil || th.Team == undefined32 {
		th.Team = trace.NoComm
		return th, true, 0
	}
	idx, found := comms.get(uint64(th.Team))
	if !found {
		return th, false, id
	}
	th.Team = idx
	return th, true, 0
}

// eventDecoder decodes one location's event file into the model's columns.
type eventDecoder struct {
	s  *scanner
	ev *trace.Events
	// expect is the number of events the location announces: after the
	// first events the payload tables are sized for the whole file from
	// the mix seen so far, which saves the copies of repeated growth.
	expect int
	// slow disables the fast path (tests compare both).
	slow    bool
	regions *idIndex
	comms   *idIndex
	// keep, when not nil, makes ev a selection (trace.Events.Select) of
	// the events keep accepts, and every event's time goes to all: opaque
	// records and attribute lists are checked but not kept.
	keep func(trace.Kind, uint32) bool
	all  *[]int64

	// attrSeen is checkAttributeList's map of the ids of a long list.
	attrSeen map[uint64]bool

	arena []byte
	opOff []span // where each Opaque's data lies in arena
	atOff []span // where each Attachment's data lies in arena
}

func (x *eventDecoder) dangling(r *record, event int, what string, id uint64) error {
	return x.recErr(r, event, r.off, "%s %d is not defined", what, id)
}

// recErr returns a FormatError about event record r (event number event,
// 0-based) at file offset off.
func (x *eventDecoder) recErr(r *record, event int, off int64, format string, args ...any) error {
	return &FormatError{File: x.s.c.name, Offset: off, Err: fmt.Errorf("%w: event %d (%s): "+format,
		append([]any{ErrFormat, event, recordName(&eventNames, r.typ)}, args...)...)}
}

// run decodes every record of the file.
func (x *eventDecoder) run() error {
	var (
		rec      record
		now      int64
		haveTime bool
		pending  = -1 // arena offset of an attribute list waiting for its event
		pendLen  int
		pendOff  int64
		pos      int // events decoded so far
	)
	s := x.s
	ev := x.ev
	sel := x.keep != nil
	// Append to local copies of the columns (no write barrier per event)
	// and store them back at the end.
	kinds, times, refs := ev.Kind, ev.Time, ev.Ref
	msgs, colls, reqs, threads := ev.Msgs, ev.Colls, ev.Reqs, ev.Threads
	var allT []int64
	var idx []uint32
	if sel {
		allT, idx = *x.all, ev.Index
		if idx == nil {
			idx = []uint32{}
		}
	}
	defer func() {
		ev.Kind, ev.Time, ev.Ref = kinds, times, refs
		ev.Msgs, ev.Colls, ev.Reqs, ev.Threads = msgs, colls, reqs, threads
		if sel {
			*x.all, ev.Index = allT, idx
		}
	}()
	// In a selection: the rule that may take a skipped enter into it.
	rule := trace.NewSelectRule()
	// selected decides on the event just appended to the local columns
	// (and to a payload table, whose earlier lengths are given): it stays
	// if keep accepts it, and is removed otherwise.
	selected := func(nm, nc, nr, nt int) {
		allT = append(allT, now)
		e := len(kinds) - 1
		k, r := kinds[e], refs[e]
		times = times[:0] // a selection's times are in allT
		if !x.keep(k, r) {
			kinds, refs = kinds[:e], refs[:e]
			msgs, colls, reqs, threads = msgs[:nm], colls[:nc], reqs[:nr], threads[:nt]
			rule.Skip(k, r, uint32(pos))
			return
		}
		if at, region, ok := rule.Take(k); ok {
			// The enter goes before the kept events that followed it.
			kinds, refs = kinds[:e], refs[:e]
			kinds, refs, idx = trace.InsertEnter(kinds, refs, idx, at, region)
			kinds, refs = append(kinds, k), append(refs, r)
		}
		idx = append(idx, uint32(pos))
	}
	for {
		// Fast path for the commonest records (TIMESTAMP, Enter, Leave) of
		// a little-endian chunk, decoded in place; everything else, and
		// every case that needs a check or an error, goes through the
		// scanner below.
		if c := s.c; !x.slow && s.started && !s.done && !c.be && pending < 0 {
			b := c.buf
			p := s.p
			if p+10 <= len(b) {
				switch t := b[p]; t {
				case recTimestamp:
					u := binary.LittleEndian.Uint64(b[p+1:])
					if u <= math.MaxInt64 {
						now = int64(u)
						haveTime = true
						s.p = p + 9
						continue
					}
				case evEnter, evLeave:
					k := int(b[p+1])
					if haveTime && k <= 4 && pos != estimateAt && pos < trace.MaxEvents {
						id := binary.LittleEndian.Uint64(b[p+2:]) & (1<<(8*uint(k)) - 1)
						if ri, ok := x.regions.get(id); ok {
							kind := trace.KindEnter
							if t == evLeave {
								kind = trace.KindLeave
							}
							switch {
							case !sel:
								kinds = append(kinds, kind)
								times = append(times, now)
								refs = append(refs, ri)
							case x.keep(kind, ri):
								allT = append(allT, now)
								kinds = append(kinds, kind)
								refs = append(refs, ri)
								idx = append(idx, uint32(pos))
								rule.Take(kind)
							default:
								allT = append(allT, now)
								rule.Skip(kind, ri, uint32(pos))
							}
							pos++
							s.p = p + 2 + k
							s.chunkEvents++
							s.nextEvent++
							continue
						}
					}
				}
			}
		}
		err := s.next(&rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch rec.typ {
		case recTimestamp:
			d := dec{b: rec.payload, be: s.c.be}
			u := d.u64full()
			if u > math.MaxInt64 {
				return &FormatError{File: s.c.name, Offset: rec.off, Err: fmt.Errorf("%w: timestamp %d does not fit in a signed 64-bit time", ErrFormat, u)}
			}
			now = int64(u)
			haveTime = true
			continue
		case recAttributeList:
			if pending >= 0 {
				return &FormatError{File: s.c.name, Offset: rec.off, Err: fmt.Errorf("%w: two attribute lists for one event", ErrFormat)}
			}
			if at, err := checkAttributeList(rec.payload, s.c.be, &x.attrSeen); err != nil {
				return &FormatError{File: s.c.name, Offset: rec.poff + int64(at), Err: fmt.Errorf("%w: attribute list before event %d: %s", ErrFormat, pos, detail(err))}
			}
			pending = len(x.arena)
			pendLen = len(rec.payload)
			pendOff = rec.off
			switch {
			case sel: // checked, not kept
			case s.c.be:
				p, _ := swapAttributeList(rec.payload, false)
				x.arena = append(x.arena, p...)
			default:
				x.arena = append(x.arena, rec.payload...)
			}
			continue
		}
		if !haveTime {
			return &FormatError{File: s.c.name, Offset: rec.off, Err: fmt.Errorf("%w: event record type %d before any TIMESTAMP", ErrFormat, rec.typ)}
		}
		if pos == estimateAt && x.expect > estimateAt {
			msgs = growTo(msgs, len(msgs), estimateAt, x.expect)
			colls = growTo(colls, len(colls), estimateAt, x.expect)
			reqs = growTo(reqs, len(reqs), estimateAt, x.expect)
			if sel {
				kinds = growTo(kinds, len(kinds), estimateAt, x.expect)
				refs = growTo(refs, len(refs), estimateAt, x.expect)
				idx = growTo(idx, len(idx), estimateAt, x.expect)
				threads = growTo(threads, len(threads), estimateAt, x.expect)
			}
		}
		if pos >= trace.MaxEvents {
			return &FormatError{File: s.c.name, Offset: rec.off, Err: fmt.Errorf("%w: more than %d events", ErrFormat, trace.MaxEvents)}
		}
		nm, nc, nr, nt := len(msgs), len(colls), len(reqs), len(threads)
		d := dec{b: rec.payload, be: s.c.be}
		switch rec.typ {
		case evEnter, evLeave:
			id := d.u32c()
			if d.err != nil {
				break
			}
			ri, ok := x.regions.get(uint64(id))
			if !ok {
				return x.dangling(&rec, pos, "region", uint64(id))
			}
			k := trace.KindEnter
			if rec.typ == evLeave {
				k = trace.KindLeave
			}
			kinds = append(kinds, k)
			times = append(times, now)
			refs = append(refs, ri)
		case evMpiSend, evMpiIsend, evMpiRecv, evMpiIrecv:
			var m trace.Message
			m.Peer = d.u32c()
			c := d.u32c()
			m.Tag = d.u32c()
			m.Bytes = d.u64c()
			var k trace.Kind
			switch rec.typ {
			case evMpiSend:
				k = trace.KindSend
			case evMpiIsend:
				k = trace.KindIsend
				m.Request = d.u64c()
			case evMpiRecv:
				k = trace.KindRecv
			default:
				k = trace.KindIrecv
				m.Request = d.u64c()
			}
			if d.err != nil {
				break
			}
			ci, ok := x.comms.get(uint64(c))
			if !ok {
				return x.dangling(&rec, pos, "communicator", uint64(c))
			}
			m.Comm = ci
			kinds = append(kinds, k)
			times = append(times, now)
			refs = append(refs, uint32(len(msgs)))
			msgs = append(msgs, m)
		case evMpiIsendComplete, evMpiIrecvRequest, evMpiRequestTest, evMpiRequestCancelled, evNonBlockingCollectiveRequest:
			req := d.u64c()
			if d.err != nil {
				break
			}
			var k trace.Kind
			switch rec.typ {
			case evMpiIsendComplete:
				k = trace.KindIsendComplete
			case evMpiIrecvRequest:
				k = trace.KindIrecvRequest
			case evMpiRequestTest:
				k = trace.KindRequestTest
			case evMpiRequestCancelled:
				k = trace.KindRequestCancelled
			default:
				k = trace.KindNBCollRequest
			}
			kinds = append(kinds, k)
			times = append(times, now)
			refs = append(refs, uint32(len(reqs)))
			reqs = append(reqs, req)
		case evMpiCollectiveBegin:
			kinds = append(kinds, trace.KindCollBegin)
			times = append(times, now)
			refs = append(refs, 0)
		case evMpiCollectiveEnd, evNonBlockingCollectiveComplete:
			var c trace.Collective
			c.Op = trace.CollOp(d.u8())
			cm := d.u32c()
			c.Root = d.u32c()
			c.Sent = d.u64c()
			c.Received = d.u64c()
			k := trace.KindCollEnd
			if rec.typ == evNonBlockingCollectiveComplete {
				k = trace.KindNBCollComplete
				c.Request = d.u64c()
			}
			if d.err != nil {
				break
			}
			ci, ok := x.comms.get(uint64(cm))
			if !ok {
				return x.dangling(&rec, pos, "communicator", uint64(cm))
			}
			c.Comm = ci
			kinds = append(kinds, k)
			times = append(times, now)
			refs = append(refs, uint32(len(colls)))
			colls = append(colls, c)
		case evCommCreate, evCommDestroy:
			cm := d.u32c()
			if d.err != nil {
				break
			}
			ci, ok := x.comms.get(uint64(cm))
			if !ok {
				return x.dangling(&rec, pos, "communicator", uint64(cm))
			}
			k := trace.KindCommCreate
			if rec.typ == evCommDestroy {
				k = trace.KindCommDestroy
			}
			kinds = append(kinds, k)
			times = append(times, now)
			refs = append(refs, ci)
		case evOmpFork, evOmpJoin, evOmpAcquireLock, evOmpReleaseLock, evOmpTaskCreate, evOmpTaskSwitch,
			evOmpTaskComplete, evThreadFork, evThreadJoin, evThreadTeamBegin, evThreadTeamEnd,
			evThreadAcquireLock, evThreadReleaseLock, evThreadTaskCreate, evThreadTaskSwitch,
			evThreadTaskComplete, evThreadCreate, evThreadBegin, evThreadWait, evThreadEnd:
			th, ok, id := decodeThread(&d, rec.typ, x.comms)
			if d.err != nil {
				break
			}
			if !ok {
				return x.dangling(&rec, pos, "communicator (thread team or contingent)", uint64(id))
			}
			kinds = append(kinds, threadKinds[rec.typ])
			times = append(times, now)
			refs = append(refs, uint32(len(threads)))
			threads = append(threads, th)
		default:
			if knownEvent[rec.typ] {
				if at, err := checkLayout(eventLayouts[rec.typ], rec.payload, s.c.be, nil); err != nil {
					return x.recErr(&rec, pos, rec.poff+int64(at), "%s", detail(err))
				}
			}
			if sel { // checked, not kept
				allT = append(allT, now)
				pos++
				pending = -1
				continue
			}
			x.opOff = append(x.opOff, span{len(x.arena), len(rec.payload)})
			if s.c.be {
				p, _ := swapEvent(rec.typ, rec.payload, false)
				x.arena = append(x.arena, p...)
			} else {
				x.arena = append(x.arena, rec.payload...)
			}
			kinds = append(kinds, trace.KindOther)
			times = append(times, now)
			refs = append(refs, uint32(len(ev.Opaque)))
			ev.Opaque = append(ev.Opaque, trace.Opaque{Format: trace.FormatOTF2, Type: uint32(rec.typ)})
		}
		if d.err != nil {
			return x.recErr(&rec, pos, rec.poff+int64(d.at), "%s", detail(d.err))
		}
		if sel {
			selected(nm, nc, nr, nt)
			pos++
			pending = -1
			continue
		}
		pos++
		if pending >= 0 {
			x.atOff = append(x.atOff, span{pending, pendLen})
			ev.Attach = append(ev.Attach, trace.Attachment{Event: uint32(len(kinds) - 1), Format: trace.FormatOTF2})
			pending = -1
		}
	}
	if pending >= 0 {
		return &FormatError{File: s.c.name, Offset: pendOff, Err: fmt.Errorf("%w: attribute list without an event", ErrFormat)}
	}
	x.fixData()
	return nil
}

type span struct{ off, n int }

// estimateAt is the number of events after which the payload tables are
// sized for the whole location.
const estimateAt = 1 << 12

// growTo makes room in s for its expected final size: n items in the first
// seen of total events, scaled, with 5 % to spare.
func growTo[T any](s []T, n, seen, total int) []T {
	want := int(float64(n)/float64(seen)*float64(total)*1.05) + 64
	if want <= cap(s) {
		return s
	}
	out := make([]T, len(s), want)
	copy(out, s)
	return out
}

// fixData points the Opaque and Attachment data into the arena, whose
// final address is known only now.
func (x *eventDecoder) fixData() {
	ev := x.ev
	arena := x.arena[:len(x.arena):len(x.arena)]
	base := len(ev.Opaque) - len(x.opOff)
	for i, sp := range x.opOff {
		ev.Opaque[base+i].Data = arena[sp.off : sp.off+sp.n : sp.off+sp.n]
	}
	base = len(ev.Attach) - len(x.atOff)
	for i, sp := range x.atOff {
		ev.Attach[base+i].Data = arena[sp.off : sp.off+sp.n : sp.off+sp.n]
	}
}
