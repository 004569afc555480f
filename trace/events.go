package trace

import (
	"fmt"
	"math"
	"slices"
)

// Events is the ordered event sequence of one location, stored column-wise:
// Kind, Time and Ref have one entry per event; the payload tables hold only
// what the kinds that need them refer to. A correction touches only the
// Time column.
//
// The zero value is an empty sequence ready to use. Append events with the
// Append methods, which keep the columns and tables consistent.
type Events struct {
	Kind []Kind
	// Time is the timestamp of each event in ticks of the trace's timer.
	Time []int64
	// Ref is what each event refers to; its meaning depends on Kind.
	Ref []uint32

	Msgs    []Message
	Colls   []Collective
	Reqs    []uint64
	Threads []Thread
	Opaque  []Opaque
	// Attach lists data bound to events, in ascending order of Event.
	Attach []Attachment

	// Index, when not nil, makes the sequence a selection of a location's
	// events (see Select): event i is event Index[i] of the location's
	// whole sequence. It is strictly ascending. Nil means the whole
	// sequence: event i is event i. A selection may leave Time empty: the
	// times are then kept for the whole sequence, in a column of its own.
	Index []uint32
}

// Len returns the number of events.
func (e *Events) Len() int { return len(e.Kind) }

// Pos returns the position of event i in its location's whole sequence:
// Index[i] in a selection, i otherwise.
func (e *Events) Pos(i int) uint32 {
	if e.Index != nil {
		return e.Index[i]
	}
	return uint32(i)
}

// Select returns the events of e for which keep returns true, with their
// payloads, as a selection (Index set to their positions in e; Time left
// empty: the times are e's). An enter
// that keep refuses is still selected when a collective end follows it
// without a collective begin in between: it then stands for the
// collective's logical send (replay.Match). Opaque records and
// attachments are not selected.
func (e *Events) Select(keep func(k Kind, ref uint32) bool) Events {
	out := Events{Index: []uint32{}}
	s := NewSelector(keep, &out)
	for i := range e.Kind {
		s.Add(e, i, e.Pos(i))
	}
	return out
}

// Selector builds a selection (see Select) event by event, for readers
// that decode a location in pieces.
type Selector struct {
	keep func(k Kind, ref uint32) bool
	out  *Events
	rule SelectRule
}

// NewSelector returns a Selector that appends the selected events to out.
func NewSelector(keep func(k Kind, ref uint32) bool, out *Events) *Selector {
	if out.Index == nil {
		out.Index = []uint32{}
	}
	return &Selector{keep: keep, out: out, rule: NewSelectRule()}
}

// Add considers event i of src, which is event pos of the location's whole
// sequence; events are added in order.
func (s *Selector) Add(src *Events, i int, pos uint32) {
	k, ref := src.Kind[i], src.Ref[i]
	if k == KindOther || !s.keep(k, ref) {
		s.rule.Skip(k, ref, pos)
		return
	}
	o := s.out
	if at, region, ok := s.rule.Take(k); ok {
		o.Kind, o.Ref, o.Index = InsertEnter(o.Kind, o.Ref, o.Index, at, region)
	}
	o.Kind = append(o.Kind, k)
	o.Ref = append(o.Ref, uint32(o.copyPayload(src, i)))
	o.Index = append(o.Index, pos)
}

// SelectRule is the part of the selection rule (see Select) that spans
// events: an enter that is not selected is remembered until a collective
// begin or a selected enter; a selected collective end takes the
// remembered enter into the selection, as the collective's logical send.
// Readers that select while they decode (Selector, the OTF2 reader) step
// it with every event in order.
type SelectRule struct {
	last   int64 // position of the remembered enter, −1: none
	region uint32
}

// NewSelectRule returns a rule with no enter remembered.
func NewSelectRule() SelectRule { return SelectRule{last: -1} }

// Skip steps the rule over event pos (kind k, reference ref), which is
// not selected.
func (r *SelectRule) Skip(k Kind, ref uint32, pos uint32) {
	switch k {
	case KindCollBegin:
		r.last = -1
	case KindEnter:
		r.last, r.region = int64(pos), ref
	}
}

// Take steps the rule over an event of kind k that is selected. If ok, the
// remembered enter (at position pos, of region) must be inserted into the
// selection before it (InsertEnter).
func (r *SelectRule) Take(k Kind) (pos, region uint32, ok bool) {
	switch k {
	case KindCollBegin, KindEnter:
		r.last = -1
	case KindCollEnd:
		if r.last >= 0 {
			pos, region, ok = uint32(r.last), r.region, true
		}
		r.last = -1
	}
	return pos, region, ok
}

// InsertEnter inserts an enter event at position pos of the whole sequence
// into the columns of a selection (kinds, refs and their positions idx),
// before the selected events that come after it, and returns them.
func InsertEnter(kinds []Kind, refs, idx []uint32, pos, region uint32) ([]Kind, []uint32, []uint32) {
	q := len(idx)
	for q > 0 && idx[q-1] > pos {
		q--
	}
	return slices.Insert(kinds, q, KindEnter), slices.Insert(refs, q, region), slices.Insert(idx, q, pos)
}

// MaxEvents is the largest number of events one location may hold (Ref and
// Attachment.Event are 32-bit).
const MaxEvents = math.MaxUint32

func (e *Events) push(k Kind, t int64, ref int) {
	e.Kind = append(e.Kind, k)
	e.Time = append(e.Time, t)
	e.Ref = append(e.Ref, uint32(ref))
}

// AppendRegion appends an enter or leave event of region r.
func (e *Events) AppendRegion(k Kind, t int64, r uint32) {
	if k != KindEnter && k != KindLeave {
		panic("trace: AppendRegion with kind " + k.String())
	}
	e.push(k, t, int(r))
}

// AppendMsg appends a point-to-point send or receive event.
func (e *Events) AppendMsg(k Kind, t int64, m Message) {
	if !k.HasMsg() {
		panic("trace: AppendMsg with kind " + k.String())
	}
	e.push(k, t, len(e.Msgs))
	e.Msgs = append(e.Msgs, m)
}

// AppendReq appends a request event (isend complete, irecv request, test,
// cancel, non-blocking collective request).
func (e *Events) AppendReq(k Kind, t int64, req uint64) {
	if !k.HasReq() {
		panic("trace: AppendReq with kind " + k.String())
	}
	e.push(k, t, len(e.Reqs))
	e.Reqs = append(e.Reqs, req)
}

// AppendCollBegin appends the begin of a blocking collective.
func (e *Events) AppendCollBegin(t int64) { e.push(KindCollBegin, t, 0) }

// AppendColl appends a collective end (blocking or non-blocking).
func (e *Events) AppendColl(k Kind, t int64, c Collective) {
	if !k.HasColl() {
		panic("trace: AppendColl with kind " + k.String())
	}
	e.push(k, t, len(e.Colls))
	e.Colls = append(e.Colls, c)
}

// AppendComm appends a communicator creation or destruction event.
func (e *Events) AppendComm(k Kind, t int64, comm uint32) {
	if k != KindCommCreate && k != KindCommDestroy {
		panic("trace: AppendComm with kind " + k.String())
	}
	e.push(k, t, int(comm))
}

// AppendThread appends a shared-memory (thread) event.
func (e *Events) AppendThread(k Kind, t int64, th Thread) {
	if !k.HasThread() {
		panic("trace: AppendThread with kind " + k.String())
	}
	e.push(k, t, len(e.Threads))
	e.Threads = append(e.Threads, th)
}

// AppendOpaque appends a record this package does not interpret.
func (e *Events) AppendOpaque(t int64, o Opaque) {
	e.push(KindOther, t, len(e.Opaque))
	e.Opaque = append(e.Opaque, o)
}

// AttachLast binds data to the most recently appended event.
func (e *Events) AttachLast(format uint8, data []byte) {
	if e.Len() == 0 {
		panic("trace: AttachLast on empty Events")
	}
	e.Attach = append(e.Attach, Attachment{Event: uint32(e.Len() - 1), Format: format, Data: data})
}

// Append copies event i of src to the end of e, with its payload and
// attachments (which must be looked up in src.Attach from index *att on;
// pass a pointer to 0 when copying a whole sequence in order).
func (e *Events) Append(src *Events, i int, att *int) {
	e.push(src.Kind[i], src.Time[i], e.copyPayload(src, i))
	if att != nil {
		for *att < len(src.Attach) && int(src.Attach[*att].Event) < i {
			*att++
		}
		for *att < len(src.Attach) && int(src.Attach[*att].Event) == i {
			a := src.Attach[*att]
			e.AttachLast(a.Format, a.Data)
			*att++
		}
	}
}

// copyPayload appends the payload of event i of src to e's tables and
// returns the event's Ref in e.
func (e *Events) copyPayload(src *Events, i int) int {
	k, r := src.Kind[i], src.Ref[i]
	switch {
	case k.HasMsg():
		e.Msgs = append(e.Msgs, src.Msgs[r])
		return len(e.Msgs) - 1
	case k.HasReq():
		e.Reqs = append(e.Reqs, src.Reqs[r])
		return len(e.Reqs) - 1
	case k.HasColl():
		e.Colls = append(e.Colls, src.Colls[r])
		return len(e.Colls) - 1
	case k.HasThread():
		e.Threads = append(e.Threads, src.Threads[r])
		return len(e.Threads) - 1
	case k == KindOther:
		e.Opaque = append(e.Opaque, src.Opaque[r])
		return len(e.Opaque) - 1
	}
	return int(r)
}

// Msg returns the message of event i, which must have a message kind.
func (e *Events) Msg(i int) *Message { return &e.Msgs[e.Ref[i]] }

// Coll returns the collective of event i, which must have a collective kind.
func (e *Events) Coll(i int) *Collective { return &e.Colls[e.Ref[i]] }

// Req returns the request id of event i, which must have a request kind.
func (e *Events) Req(i int) uint64 { return e.Reqs[e.Ref[i]] }

// Thread returns the payload of event i, which must have a thread kind.
func (e *Events) Thread(i int) *Thread { return &e.Threads[e.Ref[i]] }

// Reset empties e, keeping the allocated storage.
func (e *Events) Reset() {
	e.Kind = e.Kind[:0]
	e.Time = e.Time[:0]
	e.Ref = e.Ref[:0]
	e.Msgs = e.Msgs[:0]
	e.Colls = e.Colls[:0]
	e.Reqs = e.Reqs[:0]
	e.Threads = e.Threads[:0]
	e.Opaque = e.Opaque[:0]
	e.Attach = e.Attach[:0]
	if e.Index != nil {
		e.Index = e.Index[:0]
	}
}

// Grow makes room for n more events in the Kind, Time and Ref columns
// without further allocation (the payload tables grow as they are filled).
func (e *Events) Grow(n int) {
	e.Kind = grow(e.Kind, n)
	e.Time = grow(e.Time, n)
	e.Ref = grow(e.Ref, n)
}

func grow[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	out := make([]T, len(s), len(s)+n)
	copy(out, s)
	return out
}

// Bytes returns the memory the columns and tables occupy (their capacity),
// not counting opaque and attached data.
func (e *Events) Bytes() int64 {
	return int64(cap(e.Kind))*1 + int64(cap(e.Time))*8 + int64(cap(e.Ref))*4 +
		int64(cap(e.Msgs))*32 + int64(cap(e.Colls))*40 + int64(cap(e.Reqs))*8 +
		int64(cap(e.Threads))*40 + int64(cap(e.Opaque))*40 + int64(cap(e.Attach))*40 + int64(cap(e.Index))*4
}

// Check verifies that every event's Ref is within its table, that
// attachments are ordered and refer to existing events, and that the Index
// of a selection is strictly ascending.
func (e *Events) Check() error {
	n := len(e.Kind)
	if len(e.Time) != n && (e.Index == nil || len(e.Time) != 0) || len(e.Ref) != n {
		return fmt.Errorf("columns differ in length: kind %d, time %d, ref %d", n, len(e.Time), len(e.Ref))
	}
	if e.Index != nil {
		if len(e.Index) != n {
			return fmt.Errorf("selection index has %d entries for %d events", len(e.Index), n)
		}
		for i := 1; i < n; i++ {
			if e.Index[i] <= e.Index[i-1] {
				return fmt.Errorf("selection index not ascending at event %d (%d after %d)", i, e.Index[i], e.Index[i-1])
			}
		}
	}
	for i, k := range e.Kind {
		r := int(e.Ref[i])
		var limit int
		switch {
		case !k.Valid():
			return fmt.Errorf("event %d: invalid kind %d", i, uint8(k))
		case k.HasMsg():
			limit = len(e.Msgs)
		case k.HasReq():
			limit = len(e.Reqs)
		case k.HasColl():
			limit = len(e.Colls)
		case k.HasThread():
			limit = len(e.Threads)
		case k == KindOther:
			limit = len(e.Opaque)
		default:
			continue
		}
		if r >= limit {
			return fmt.Errorf("event %d (%s): payload index %d out of range [0,%d)", i, k, r, limit)
		}
	}
	prev := -1
	for j, a := range e.Attach {
		if int(a.Event) >= n || int(a.Event) < prev {
			return fmt.Errorf("attachment %d: event %d out of order or range", j, a.Event)
		}
		prev = int(a.Event)
	}
	return nil
}
