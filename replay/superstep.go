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
// all-to-all), and the next superstep begins. Whether any process made
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
	// contributions (one per receiving process); Bytes what it sent in
	// all.
	Times, Contributions, Bytes int64
}

// Record tags of a superstep's exchange.
const (
	recSend  = 1 // location, event, time
	recContr = 2 // location, instance, time
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
		instTo: make([][]int32, len(g.Instances)), out: make([][]byte, c.Size())}
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
		for _, p := range g.InstanceParts(uint32(in)) {
			if q := part[p.Loc]; q != d.me && !slices.Contains(to, q) {
				to = append(to, q)
			}
		}
		slices.Sort(to)
		d.instTo[in] = to
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
// amortization (the other end of every crossing point-to-point message,
// the receivers of every instance with members here), in one all-to-all,
// written into their columns.
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
	for in, to := range d.instTo {
		for _, p := range g.InstanceParts(uint32(in)) {
			if d.part[p.Loc] == d.me && p.Recv != NoEvent {
				for _, q := range to {
					put(q, int(p.Loc), p.Recv)
				}
			}
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
		if len(b)%17 != 0 {
			return fmt.Errorf("divided replay: process %d sent %d bytes of receive times", q, len(b))
		}
		for ; len(b) > 0; b = b[17:] {
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
		}
	}
	return nil
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
// members' processes too.
func (d *Divided) Contribute(loc int, in uint32, t int64) {
	d.post(d.instTo[in], recContr, loc, in, t, &d.Stats.Contributions)
	d.Shared.Contribute(loc, in, t)
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
// into its column and published, a contribution written as its member's
// send time and counted; the locations waiting for them are queued.
func (d *Divided) apply(recv [][]byte) error {
	x, g := d.Shared, d.Shared.g
	for q, b := range recv {
		if len(b)%17 != 0 {
			return fmt.Errorf("divided replay: process %d sent %d bytes", q, len(b))
		}
		for ; len(b) > 0; b = b[17:] {
			loc := int32(binary.LittleEndian.Uint32(b[1:]))
			ref := binary.LittleEndian.Uint32(b[5:])
			t := int64(binary.LittleEndian.Uint64(b[9:]))
			if loc < 0 || int(loc) >= len(d.part) || d.part[loc] != int32(q) {
				return fmt.Errorf("divided replay: process %d sent a time of location %d", q, loc)
			}
			switch b[0] {
			case recSend:
				at, ok := d.at(loc, ref)
				if !ok || int(at) >= len(x.times[loc]) {
					return fmt.Errorf("divided replay: process %d sent event %d of location %d", q, ref, loc)
				}
				ref = at
				x.times[loc][ref] = t
				x.Sent(int(loc), ref, t)
			case recContr:
				if int(ref) >= len(g.Instances) {
					return fmt.Errorf("divided replay: process %d sent instance %d", q, ref)
				}
				at := NoEvent
				for _, p := range g.InstanceParts(ref) {
					if p.Loc == loc {
						at = p.Send
					}
				}
				if at == NoEvent || int(at) >= len(x.times[loc]) {
					return fmt.Errorf("divided replay: process %d sent a contribution of location %d, no sender of instance %d", q, loc, ref)
				}
				x.times[loc][at] = t
				x.Contribute(int(loc), ref, t)
			default:
				return fmt.Errorf("divided replay: process %d sent a record of kind %d", q, b[0])
			}
		}
	}
	return nil
}

// at returns the position of event idx of another process's location loc
// in its column (Pos).
func (d *Divided) at(loc int32, idx uint32) (uint32, bool) {
	if d.Pos == nil {
		return idx, true
	}
	return d.Pos(loc, idx)
}
