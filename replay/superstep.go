package replay

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/clc-tools/clc/comm"
)

// Divided is the Exchange of a forward replay divided among the processes
// of a group (docs/scale.md, section 3): each process replays its own
// locations with a Shared exchange until none can go on without a time
// from another process (a superstep), then the processes exchange the
// times of the logical sends whose receivers are elsewhere and the
// contributions to the collective instances with members elsewhere (one
// all-to-all), and the next superstep begins. A process contributes to
// an instance once, when its last member has: its members' aggregates
// (Agg's three candidates, for reference senders and the others), which
// the receiving processes merge with their own members' exactly — a
// world collective costs each process a record per other process, not
// one per member. A scan's members go one by one (each rank waits for a
// prefix). Whether any process made
// progress, and how many locations are left, ride on one allreduce per
// superstep: a superstep in which no process ran a step and nothing was
// sent means every waiting location waits for good (a happened-before
// cycle), and every process gives up its waiting locations' waits, as
// Shared does on one process.
//
// The time columns hold every location (those of other processes are
// written with the times received). A location's steps call the
// Divided's Sent and Contribute, which Shared's would be otherwise.
type Divided struct {
	*Shared
	c    comm.Comm
	part []int32
	me   int32
	// sendTo lists, per own location, the processes each crossing
	// point-to-point (or one-to-one shared-memory) send goes to.
	sendTo []map[uint32][]int32
	// recvTo lists, per own location, the processes each receive of a
	// crossing point-to-point (or one-to-one) message comes from.
	recvTo []map[uint32][]int32
	// instTo lists, per instance, the other processes with members.
	instTo [][]int32
	// ownLeft counts, per instance whose contributions go as aggregates
	// (not a scan, members elsewhere), the own members that have still to
	// contribute.
	ownLeft []atomic.Int32
	// farRecvs are, per instance (not a scan), the candidates of the other
	// processes' aggregates of their members' negated receive times
	// (ShareReceives).
	farRecvs [][]farCand
	// Pos, if not nil, gives the position of event idx of another
	// process's location in its column, false if the column does not
	// hold it: the columns of other processes' locations then hold only
	// the events this process's messages and instances reach, and the
	// graph refers to them by position. Nil: every column is whole.
	Pos func(loc int32, idx uint32) (uint32, bool)

	mu   sync.Mutex
	out  [][]byte // per process, this superstep's records
	sent int64
	ran  atomic.Int64

	// Stats counts what the replay exchanged.
	Stats SuperstepStats
}

// SuperstepStats is what a divided replay exchanged, on one process.
type SuperstepStats struct {
	// Supersteps is the number of supersteps, the same on every process.
	Supersteps int
	// Times is the number of point-to-point (and one-to-one shared-memory)
	// send times this process sent; Contributions the collective
	// contributions (one per instance and receiving process; for a scan
	// one per member and receiving process); Bytes what it sent in all.
	Times, Contributions, Bytes int64
}

// Record tags of a superstep's exchange.
const (
	recSend  = 1 // location, event, time
	recContr = 2 // location, instance, time (a scan's member)
	recAgg   = 3 // instance, senders, the aggregates' candidates
	recRecvs = 4 // instance, the receivers' aggregate's candidates
)

// NewDivided returns the exchange of this process of c over x, which
// holds every location's time column; part[li] is location li's process.
func NewDivided(x *Shared, c comm.Comm, part []int32) (*Divided, error) {
	g := x.g
	if len(part) != len(g.Deps) {
		return nil, fmt.Errorf("divided replay: %d locations' parts for %d locations", len(part), len(g.Deps))
	}
	d := &Divided{Shared: x, c: c, part: part, me: int32(c.Rank()),
		sendTo: make([]map[uint32][]int32, len(part)), recvTo: make([]map[uint32][]int32, len(part)),
		instTo: make([][]int32, len(g.Instances)), ownLeft: make([]atomic.Int32, len(g.Instances)), out: make([][]byte, c.Size())}
	x.part, x.me = part, d.me
	for li, deps := range g.Deps {
		if part[li] != d.me {
			continue
		}
		for _, dep := range deps {
			// A point-to-point (or one-to-one shared-memory) event's Peer
			// is the other end: a send's time goes to the receiver's
			// process, a receive's (for the backward amortization) to the
			// sender's.
			q := part[dep.Peer]
			switch {
			case q == d.me:
			case dep.Role == RoleSend || dep.Role == RoleSyncSend:
				addTo(&d.sendTo[li], dep.Idx, q)
			case dep.Role == RoleRecv || dep.Role == RoleSyncRecv:
				addTo(&d.recvTo[li], dep.Idx, q)
			}
		}
	}
	for in := range g.Instances {
		var to []int32
		own := int32(0)
		for _, p := range g.InstanceParts(uint32(in)) {
			if q := part[p.Loc]; q != d.me && !slices.Contains(to, q) {
				to = append(to, q)
			} else if q == d.me && p.Send != NoEvent {
				own++
			}
		}
		slices.Sort(to)
		d.instTo[in] = to
		if len(to) > 0 && g.Instances[in].Class != ClassScan {
			d.ownLeft[in].Store(own)
		}
	}
	return d, nil
}

// addTo adds process q to the processes of event idx in m.
func addTo(m *map[uint32][]int32, idx uint32, q int32) {
	if *m == nil {
		*m = map[uint32][]int32{}
	}
	if to := (*m)[idx]; !slices.Contains(to, q) {
		(*m)[idx] = append(to, q)
	}
}

// ShareReceives gives every process, after the forward pass, the times
// of the receives that its locations' sends need for the backward
// amortization, in one all-to-all: the other end of every crossing
// point-to-point message and the receivers of every scan with members
// here, written into their columns, and of every other instance with
// members here the aggregate of the other processes' receivers
// (ReceiversAgg).
func (d *Divided) ShareReceives(ctx context.Context) error {
	x, g := d.Shared, d.Shared.g
	out := make([][]byte, d.c.Size())
	put := func(q int32, loc int, idx uint32) {
		out[q] = appendRecord(out[q], recSend, loc, idx, x.times[loc][idx])
	}
	for li, m := range d.recvTo {
		for idx, to := range m {
			for _, q := range to {
				put(q, li, idx)
			}
		}
	}
	d.farRecvs = make([][]farCand, len(g.Instances))
	for in, to := range d.instTo {
		if len(to) == 0 {
			continue
		}
		parts := g.InstanceParts(uint32(in))
		if g.Instances[in].Class == ClassScan {
			for _, p := range parts {
				if d.part[p.Loc] == d.me && p.Recv != NoEvent {
					for _, q := range to {
						put(q, int(p.Loc), p.Recv)
					}
				}
			}
			continue
		}
		a, has := NewAgg(), false
		for _, p := range parts {
			if d.part[p.Loc] == d.me && p.Recv != NoEvent {
				a.Add(-x.times[p.Loc][p.Recv], p.Loc, x.node[p.Loc])
				has = true
			}
		}
		if !has {
			continue
		}
		rec := binary.LittleEndian.AppendUint32([]byte{recRecvs}, uint32(in))
		rec = appendCands(rec, &a, parts)
		for _, q := range to {
			out[q] = append(out[q], rec...)
		}
	}
	for _, b := range out {
		d.Stats.Bytes += int64(len(b))
	}
	recv, err := d.c.Alltoall(ctx, out)
	if err != nil {
		return fmt.Errorf("divided replay: receive times: %w", err)
	}
	for q, b := range recv {
		for len(b) > 0 {
			if b[0] == recRecvs {
				n, err := d.applyRecvs(int32(q), b)
				if err != nil {
					return fmt.Errorf("divided replay: process %d %w", q, err)
				}
				b = b[n:]
				continue
			}
			if b[0] != recSend || len(b) < 17 {
				return fmt.Errorf("divided replay: process %d sent %d bytes of receive times", q, len(b))
			}
			loc := int32(binary.LittleEndian.Uint32(b[1:]))
			idx := binary.LittleEndian.Uint32(b[5:])
			ok := loc >= 0 && int(loc) < len(d.part) && d.part[loc] == int32(q)
			if ok {
				idx, ok = d.at(loc, idx)
			}
			if !ok || int(idx) >= len(x.times[loc]) {
				return fmt.Errorf("divided replay: process %d sent the time of location %d event %d", q, loc, idx)
			}
			x.times[loc][idx] = int64(binary.LittleEndian.Uint64(b[9:]))
			b = b[17:]
		}
	}
	return nil
}

// applyRecvs takes the receivers' aggregate record at the start of b,
// from process q (ShareReceives), and returns its length.
func (d *Divided) applyRecvs(q int32, b []byte) (int, error) {
	g := d.Shared.g
	if len(b) < 6 {
		return 0, fmt.Errorf("sent %d bytes of a receivers' record", len(b))
	}
	in := binary.LittleEndian.Uint32(b[1:])
	if int(in) >= len(g.Instances) || g.Instances[in].Class == ClassScan {
		return 0, fmt.Errorf("sent the receivers of instance %d", in)
	}
	far := &d.farRecvs[in]
	return d.readFar(q, b, 5, in, far, len(*far), false, func(p Part) bool { return p.Recv != NoEvent })
}

// readFar reads a list of candidates (appendCands) at b[n:], of members
// of instance in that process q sent, onto far — each a member of q's
// that has selects, none twice since far[first] — and returns the offset
// after it.
func (d *Divided) readFar(q int32, b []byte, n int, in uint32, far *[]farCand, first int, ref bool, has func(Part) bool) (int, error) {
	parts := d.g.InstanceParts(in)
	return readCands(b, n, func(pos int32, v int64) error {
		if pos < 0 || int(pos) >= len(parts) || d.part[parts[pos].Loc] != q || !has(parts[pos]) ||
			slices.ContainsFunc((*far)[first:], func(c farCand) bool { return c.pos == pos }) {
			return fmt.Errorf("sent a candidate at member %d of instance %d", pos, in)
		}
		*far = append(*far, farCand{pos: pos, v: v, ref: ref})
		return nil
	})
}

// ReceiversAgg returns, after ShareReceives, the aggregate of the negated
// receive times of every member of instance in (not a scan) with a
// receive, the own ones from their columns, as one process adds them.
func (d *Divided) ReceiversAgg(in uint32) Agg {
	x := d.Shared
	a := NewAgg()
	var far []farCand
	if d.farRecvs != nil {
		far = d.farRecvs[in]
	}
	add := func(_ bool, v int64, loc int32) { a.Add(v, loc, x.node[loc]) }
	x.members(x.g.InstanceParts(in), far, func(p Part) bool { return p.Recv != NoEvent }, func(p Part) {
		add(false, -x.times[p.Loc][p.Recv], p.Loc)
	}, add)
	return a
}

// appendCands appends to rec the count of a's candidates, members of
// the instance whose members are parts, and each one's position among
// them and value.
func appendCands(rec []byte, a *Agg, parts []Part) []byte {
	cs := a.candidates()
	var pos [3]int32
	for r, p := range parts {
		for i, c := range cs {
			if c.loc == p.Loc {
				pos[i] = int32(r)
			}
		}
	}
	rec = append(rec, byte(len(cs)))
	for i, c := range cs {
		rec = binary.LittleEndian.AppendUint32(rec, uint32(pos[i]))
		rec = binary.LittleEndian.AppendUint64(rec, uint64(c.v))
	}
	return rec
}

// readCands reads the candidates appendCands wrote at b[n:], calling take
// with each, and returns the offset after them.
func readCands(b []byte, n int, take func(pos int32, v int64) error) (int, error) {
	if len(b) < n+1 {
		return 0, fmt.Errorf("sent a short record")
	}
	m := int(b[n])
	n++
	if m > 3 || len(b) < n+12*m {
		return 0, fmt.Errorf("sent a short record")
	}
	for range m {
		if err := take(int32(binary.LittleEndian.Uint32(b[n:])), int64(binary.LittleEndian.Uint64(b[n+4:]))); err != nil {
			return 0, err
		}
		n += 12
	}
	return n, nil
}

// appendRecord appends a record of a superstep's exchange to b: its tag,
// location, event or instance and time, 17 bytes.
func appendRecord(b []byte, tag byte, loc int, ref uint32, t int64) []byte {
	b = append(b, tag)
	b = binary.LittleEndian.AppendUint32(b, uint32(loc))
	b = binary.LittleEndian.AppendUint32(b, ref)
	return binary.LittleEndian.AppendUint64(b, uint64(t))
}

// Sent implements Exchange: the time goes to the receivers' processes
// too.
func (d *Divided) Sent(loc int, idx uint32, t int64) {
	d.post(d.sendTo[loc][idx], recSend, loc, idx, t, &d.Stats.Times)
	d.Shared.Sent(loc, idx, t)
}

// Contribute implements Exchange: the contribution goes to the other
// members' processes too — a scan member's at once, else the own
// members' aggregates once the last of them has contributed.
func (d *Divided) Contribute(loc int, in uint32, t int64) {
	switch to := d.instTo[in]; {
	case len(to) == 0:
	case d.g.Instances[in].Class == ClassScan:
		d.post(to, recContr, loc, in, t, &d.Stats.Contributions)
	case d.ownLeft[in].Add(-1) == 0:
		d.postAgg(in, to)
	}
	d.Shared.Contribute(loc, in, t)
}

// postAgg sends the aggregates of the own members' send times in
// instance in, all final, to the processes to: the members' positions
// and times of the candidates of reference senders and of the others
// (each candidate once), and the own senders' count.
func (d *Divided) postAgg(in uint32, to []int32) {
	x := d.Shared
	parts := x.g.InstanceParts(in)
	var aggs [2]Agg
	aggs[0], aggs[1] = NewAgg(), NewAgg()
	senders := uint32(0)
	for _, p := range parts {
		if p.Send == NoEvent || d.part[p.Loc] != d.me {
			continue
		}
		k := 1
		if x.ref[p.Loc] {
			k = 0
		}
		aggs[k].Add(x.times[p.Loc][p.Send], p.Loc, x.node[p.Loc])
		senders++
	}
	rec := []byte{recAgg}
	rec = binary.LittleEndian.AppendUint32(rec, in)
	rec = binary.LittleEndian.AppendUint32(rec, senders)
	for k := range aggs {
		rec = appendCands(rec, &aggs[k], parts)
	}
	d.mu.Lock()
	for _, q := range to {
		d.out[q] = append(d.out[q], rec...)
		d.Stats.Contributions++
	}
	d.mu.Unlock()
}

// post records one record for each process of to, counting them.
func (d *Divided) post(to []int32, tag byte, loc int, ref uint32, t int64, count *int64) {
	if len(to) == 0 {
		return
	}
	d.mu.Lock()
	for _, q := range to {
		d.out[q] = appendRecord(d.out[q], tag, loc, ref, t)
		*count++
	}
	d.mu.Unlock()
}

// errElsewhere is what a process returns whose replay stopped because
// another's failed.
var errElsewhere = errors.New("the replay failed on another process")

// Run replays this process's locations, step (which must call d's Sent
// and Contribute) advancing each, superstep by superstep on workers
// goroutines, until every process's locations are done. It returns the
// first error of this process's steps, or an error saying another
// process's failed.
func (d *Divided) Run(ctx context.Context, workers int, step Step) error {
	workers = max(workers, 1)
	x := d.Shared
	var own []int32
	for li, p := range d.part {
		if p == d.me {
			own = append(own, int32(li))
		}
	}
	x.mu.Lock()
	x.queue = append(make([]int32, 0, len(own)), own...)
	x.head, x.running, x.done, x.err = 0, 0, 0, nil
	x.mu.Unlock()
	counted := func(loc int) (bool, error) {
		d.ran.Add(1)
		return step(loc)
	}
	idle := false // the last superstep ran nothing and sent nothing
	for {
		d.Stats.Supersteps++
		err := x.run(len(own), workers, counted, true)
		// The exchange: every process's outboxes, then the flags.
		recv, cerr := d.c.Alltoall(ctx, d.out)
		if cerr != nil {
			return fmt.Errorf("divided replay: superstep %d: %w", d.Stats.Supersteps, cerr)
		}
		var sent int64
		for _, b := range d.out {
			sent += int64(len(b))
		}
		// Fresh outboxes for the next superstep.
		d.out = make([][]byte, d.c.Size())
		d.Stats.Bytes += sent
		if err == nil {
			err = d.apply(recv)
		}
		failed := int64(0)
		if err != nil {
			failed = 1
		}
		x.mu.Lock()
		left := int64(len(own) - x.done)
		x.mu.Unlock()
		flags, cerr := d.c.AllreduceInt64(ctx, comm.Sum, []int64{d.ran.Swap(0) + sent, left, failed})
		if cerr != nil {
			return fmt.Errorf("divided replay: superstep %d: %w", d.Stats.Supersteps, cerr)
		}
		switch {
		case err != nil:
			return err
		case flags[2] > 0:
			return errElsewhere
		case flags[1] == 0:
			return nil
		case flags[0] == 0 && idle:
			return fmt.Errorf("internal error: %d locations neither finished nor waiting", flags[1])
		case flags[0] == 0:
			// No process ran a step or sent a time: every waiting
			// location waits for good.
			x.mu.Lock()
			x.sweep()
			x.mu.Unlock()
		}
		idle = flags[0] == 0
	}
}

// apply takes the records other processes sent: a send's time is written
// into its column and published, a scan member's contribution written as
// its send time and counted, another process's aggregates of an instance
// kept as its far candidates and its senders counted; the locations
// waiting for them are queued.
func (d *Divided) apply(recv [][]byte) error {
	for q, b := range recv {
		for len(b) > 0 {
			n, err := d.applyRecord(int32(q), b)
			if err != nil {
				return fmt.Errorf("divided replay: process %d %w", q, err)
			}
			b = b[n:]
		}
	}
	return nil
}

// applyRecord takes the record at the start of b, from process q, and
// returns its length.
func (d *Divided) applyRecord(q int32, b []byte) (int, error) {
	x, g := d.Shared, d.Shared.g
	if b[0] == recAgg {
		return d.applyAgg(q, b)
	}
	if len(b) < 17 {
		return 0, fmt.Errorf("sent %d bytes of a record", len(b))
	}
	loc := int32(binary.LittleEndian.Uint32(b[1:]))
	ref := binary.LittleEndian.Uint32(b[5:])
	t := int64(binary.LittleEndian.Uint64(b[9:]))
	if loc < 0 || int(loc) >= len(d.part) || d.part[loc] != q {
		return 0, fmt.Errorf("sent a time of location %d", loc)
	}
	switch b[0] {
	case recSend:
		at, ok := d.at(loc, ref)
		if !ok || int(at) >= len(x.times[loc]) {
			return 0, fmt.Errorf("sent event %d of location %d", ref, loc)
		}
		x.times[loc][at] = t
		x.Sent(int(loc), at, t)
	case recContr:
		if int(ref) >= len(g.Instances) || g.Instances[ref].Class != ClassScan {
			return 0, fmt.Errorf("sent a member's contribution to instance %d, not a scan", ref)
		}
		at := NoEvent
		for _, p := range g.InstanceParts(ref) {
			if p.Loc == loc {
				at = p.Send
			}
		}
		if at == NoEvent || int(at) >= len(x.times[loc]) {
			return 0, fmt.Errorf("sent a contribution of location %d, no sender of instance %d", loc, ref)
		}
		x.times[loc][at] = t
		x.Contribute(int(loc), ref, t)
	default:
		return 0, fmt.Errorf("sent a record of kind %d", b[0])
	}
	return 17, nil
}

// applyAgg takes the aggregates record at the start of b, from process
// q (postAgg), and returns its length.
func (d *Divided) applyAgg(q int32, b []byte) (int, error) {
	x, g := d.Shared, d.Shared.g
	if len(b) < 10 {
		return 0, fmt.Errorf("sent %d bytes of an aggregates record", len(b))
	}
	in := binary.LittleEndian.Uint32(b[1:])
	senders := int32(binary.LittleEndian.Uint32(b[5:]))
	if int(in) >= len(g.Instances) || g.Instances[in].Class == ClassScan {
		return 0, fmt.Errorf("sent aggregates of instance %d", in)
	}
	s := &x.inst[in]
	first := len(s.far) // this record's candidates are s.far[first:]
	n := 9
	for _, ref := range []bool{true, false} { // postAgg's order
		var err error
		n, err = d.readFar(q, b, n, in, &s.far, first, ref, func(p Part) bool { return p.Send != NoEvent && x.ref[p.Loc] == ref })
		if err != nil {
			return 0, err
		}
	}
	if senders <= 0 {
		return 0, fmt.Errorf("sent aggregates of %d senders of instance %d", senders, in)
	}
	switch left := s.pending.Add(-senders); {
	case left < 0:
		return 0, fmt.Errorf("sent aggregates of %d senders of instance %d, more than it waits for", senders, in)
	case left == 0:
		x.complete(in)
	}
	return n, nil
}

// at returns the position of event idx of another process's location loc
// in its column (Pos).
func (d *Divided) at(loc int32, idx uint32) (uint32, bool) {
	if d.Pos == nil {
		return idx, true
	}
	return d.Pos(loc, idx)
}
