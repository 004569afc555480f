package replay

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/clc-tools/clc/internal/par"
)

// Status is the outcome of a wait for a logical send.
type Status uint8

const (
	// Ready: the value is there.
	Ready Status = iota
	// Blocked: not yet. The location is registered as waiting; its step
	// must return and is run again once the value is there.
	Blocked
	// GaveUp: the replay was stuck (a happened-before cycle) and this wait
	// was given up: the event is to be treated as internal.
	GaveUp
)

// Exchange carries the corrected times of logical sends to the logical
// receives that need them during a forward replay. A location calls it from
// its step only. The shared-memory implementation is Shared; a distributed
// one (one process per node group exchanging times over MPI, as Scalasca's
// PEARL does) would implement the same methods.
type Exchange interface {
	// Sent announces that loc's times are final up to and including its
	// point-to-point send at event idx, whose time is t.
	Sent(loc int, idx uint32, t int64)
	// Contribute announces loc's logical send in collective instance in,
	// at time t (final, as are all of loc's earlier events).
	Contribute(loc int, in uint32, t int64)
	// AwaitSend returns the time of event idx of location from plus the
	// minimum latency from there to loc — the shared-memory latency when
	// shared is set (a RoleSyncRecv) — once it is final.
	AwaitSend(loc int, from int32, idx uint32, shared bool) (int64, Status)
	// AwaitInstance returns, for receiver loc (rank within the instance)
	// of instance in, the largest send time plus latency over the logical
	// senders that precede it (for a scan: of lower rank; otherwise: every
	// other member), has being false when there is none, once every sender
	// has contributed. fromRef says whether a sender on a reference
	// location attains that largest value.
	AwaitInstance(loc int, in uint32, rank int32) (t int64, fromRef, has bool, st Status)
}

// Step advances location loc of a replay as far as it can. It returns done
// when the location has finished. Otherwise it has been told Blocked by the
// exchange, and it is called again once what it waits for is there or the
// wait was given up; it must keep its own state between calls.
type Step func(loc int) (done bool, err error)

// Shared is the shared-memory Exchange and the scheduler of a replay.
// Locations are tasks run by a pool of workers (one per CPU): a step runs
// until it needs a send that is not final yet, registers itself with the
// sender (or the collective instance) and returns; the sender puts it back
// into the run queue when it publishes. Senders' times are read straight
// from their time columns once published; a check is an atomic load.
//
// A task costs a queue push per wait and about 100 bytes per location; a
// goroutine per location would cost a scheduler round trip per wait and
// 8 KiB of stack per location.
//
// Shared detects a stuck replay exactly: when the run queue is empty and no
// worker runs a step while locations have not finished, every one of them
// waits for a send that can never come — in or behind a happened-before
// cycle. Shared gives up all those waits (the set is the same whatever the
// schedule, so the result stays deterministic) and puts the locations back
// into the queue.
type Shared struct {
	g     *Graph
	times [][]int64
	node  []int32
	ref   []bool
	lat   Latency

	locs []locSync
	inst []instSync

	// part and me, when part is not nil, divide the locations among the
	// processes of a divided replay (Divided): the send times of another
	// process's members of an instance are not in the columns, but in the
	// instance's far candidates.
	part []int32
	me   int32

	mu      sync.Mutex
	cond    sync.Cond
	queue   []int32
	head    int
	running int
	done    int
	err     error
}

type locSync struct {
	// progress is the number of leading events whose times are final,
	// updated at logical sends.
	progress atomic.Int64
	nwait    atomic.Int32
	mu       sync.Mutex
	// waiters maps a send's event index to the location waiting for it;
	// more holds further waiters of the same send (a task creation whose
	// task runs on several locations), rare enough for a second map.
	waiters map[uint32]int32
	more    map[uint32][]int32

	// The location's own wait: set by it under the lock of the list it
	// registers with; blocked is cleared by whoever requeues it.
	blocked bool
	target  int64 // ≥ 0: a location; < 0: instance −1−target
	waitIdx uint32
	// gaveUp is set by the sweeper; the next Await returns GaveUp.
	gaveUp bool
}

type instSync struct {
	pending atomic.Int32
	done    atomic.Bool
	mu      sync.Mutex
	waiters []int32
	// the senders on reference locations and the others
	aggRef, aggOther Agg
	// scan holds, per rank, the receive constraint of a scan instance and
	// whether a reference sender attains it.
	scan    []int64
	scanRef []bool
	// A scan's rank r goes on once the ranks below it have contributed
	// (under mu): rankOf maps a member to its rank, have says which ranks
	// contributed, settled is how many leading ranks did (or send
	// nothing), added how many of them the prefix aggregates pref and
	// pother hold, and scan[r] is set for r < nscan.
	rankOf                map[int32]int32
	have                  []bool
	settled, added, nscan int
	pref, pother          Agg
	// far are the candidates of the other processes' members (Divided),
	// each process's aggregates of its members' send times.
	far []farCand
}

// farCand is a candidate of another process's aggregate of its members'
// send times in an instance: the member's position among the instance's
// parts, its send time, and whether it is a reference location.
type farCand struct {
	pos int32
	v   int64
	ref bool
}

// NewShared returns an exchange over the time columns times (one per
// location, written by its own steps; an entry may be read by others once
// published), the locations' nodes, which locations are reference
// locations (nil: none) and the latencies.
func NewShared(g *Graph, times [][]int64, node []int32, ref []bool, lat Latency) *Shared {
	if ref == nil {
		ref = make([]bool, len(times))
	}
	x := &Shared{g: g, times: times, node: node, ref: ref, lat: lat}
	x.cond.L = &x.mu
	x.locs = make([]locSync, len(times))
	x.inst = make([]instSync, len(g.Instances))
	for i := range x.inst {
		if g.Instances[i].Class == ClassScan {
			x.startScan(uint32(i))
			continue
		}
		x.inst[i].pending.Store(int32(g.Instances[i].Senders))
		if g.Instances[i].Senders == 0 {
			x.complete(uint32(i))
		}
	}
	return x
}

// startScan prepares scan instance in: its ranks that send nothing are
// settled from the start.
func (x *Shared) startScan(in uint32) {
	s := &x.inst[in]
	parts := x.g.InstanceParts(in)
	s.scan, s.scanRef = make([]int64, len(parts)), make([]bool, len(parts))
	s.have = make([]bool, len(parts))
	s.rankOf = make(map[int32]int32, len(parts))
	for r, p := range parts {
		s.rankOf[p.Loc] = int32(r)
	}
	s.pref, s.pother = NewAgg(), NewAgg()
	x.advanceScan(in)
}

// advanceScan settles the ranks of scan instance in that can be, computes
// the receive constraints that they make known, and returns the waiting
// locations that can now go on (removed from the waiters). The caller
// holds the instance's lock, or has the instance to itself.
func (x *Shared) advanceScan(in uint32) []int32 {
	s := &x.inst[in]
	parts := x.g.InstanceParts(in)
	lat := x.lat.ForSync(x.g.Instances[in].Kind)
	for s.settled < len(parts) && (parts[s.settled].Send == NoEvent || s.have[s.settled]) {
		s.settled++
	}
	for {
		switch {
		case s.nscan < len(parts) && s.nscan <= s.added:
			// Rank nscan's constraint: the ranks below it, all added.
			p := parts[s.nscan]
			s.scan[s.nscan], s.scanRef[s.nscan], _ = combine(&s.pref, &s.pother, p.Loc, x.node[p.Loc], lat)
			s.nscan++
			continue
		case s.added < s.settled:
			if p := parts[s.added]; p.Send != NoEvent {
				if x.ref[p.Loc] {
					s.pref.Add(x.times[p.Loc][p.Send], p.Loc, x.node[p.Loc])
				} else {
					s.pother.Add(x.times[p.Loc][p.Send], p.Loc, x.node[p.Loc])
				}
			}
			s.added++
			continue
		}
		break
	}
	if s.nscan == len(parts) {
		s.done.Store(true)
	}
	var wake []int32
	kept := s.waiters[:0]
	for _, w := range s.waiters {
		if int(s.rankOf[w]) < s.nscan {
			x.locs[w].blocked = false
			wake = append(wake, w)
		} else {
			kept = append(kept, w)
		}
	}
	s.waiters = kept
	return wake
}

// push puts location loc into the run queue.
func (x *Shared) push(loc int32) {
	x.mu.Lock()
	x.queue = append(x.queue, loc)
	x.cond.Signal()
	x.mu.Unlock()
}

// Sent implements Exchange.
func (x *Shared) Sent(loc int, idx uint32, _ int64) {
	s := &x.locs[loc]
	s.progress.Store(int64(idx) + 1)
	if s.nwait.Load() == 0 {
		return
	}
	s.mu.Lock()
	w, ok := s.waiters[idx]
	var ws []int32
	if ok {
		delete(s.waiters, idx)
		ws = append(s.more[idx], w)
		delete(s.more, idx)
		for _, w := range ws {
			s.nwait.Add(-1)
			x.locs[w].blocked = false
		}
	}
	s.mu.Unlock()
	for _, w := range ws {
		x.push(w)
	}
}

// AwaitSend implements Exchange.
func (x *Shared) AwaitSend(loc int, from int32, idx uint32, shared bool) (int64, Status) {
	me := &x.locs[loc]
	if me.gaveUp {
		me.gaveUp = false
		return 0, GaveUp
	}
	s := &x.locs[from]
	if s.progress.Load() <= int64(idx) {
		s.mu.Lock()
		s.nwait.Add(1)
		if s.progress.Load() <= int64(idx) {
			me.blocked, me.target, me.waitIdx = true, int64(from), idx
			if s.waiters == nil {
				s.waiters = make(map[uint32]int32)
			}
			if _, taken := s.waiters[idx]; taken {
				if s.more == nil {
					s.more = make(map[uint32][]int32)
				}
				s.more[idx] = append(s.more[idx], int32(loc))
			} else {
				s.waiters[idx] = int32(loc)
			}
			s.mu.Unlock()
			return 0, Blocked
		}
		s.nwait.Add(-1)
		s.mu.Unlock()
	}
	if shared {
		return x.times[from][idx] + x.lat.Shared, Ready
	}
	return x.times[from][idx] + x.lat.Between(x.node[from], x.node[loc]), Ready
}

// Contribute implements Exchange.
func (x *Shared) Contribute(loc int, in uint32, _ int64) {
	s := &x.inst[in]
	if s.rankOf != nil { // a scan
		s.mu.Lock()
		s.have[s.rankOf[int32(loc)]] = true
		wake := x.advanceScan(in)
		s.mu.Unlock()
		x.requeue(wake)
		return
	}
	if s.pending.Add(-1) == 0 {
		x.complete(in)
	}
}

// requeue puts the locations ws into the run queue.
func (x *Shared) requeue(ws []int32) {
	if len(ws) > 0 {
		x.mu.Lock()
		x.queue = append(x.queue, ws...)
		x.cond.Broadcast()
		x.mu.Unlock()
	}
}

// complete computes the aggregate of instance in, whose senders have all
// contributed, and requeues its waiting receivers.
func (x *Shared) complete(in uint32) {
	s := &x.inst[in]
	parts := x.g.InstanceParts(in)
	s.aggRef, s.aggOther = NewAgg(), NewAgg()
	add := func(ref bool, v int64, loc int32) {
		if ref {
			s.aggRef.Add(v, loc, x.node[loc])
		} else {
			s.aggOther.Add(v, loc, x.node[loc])
		}
	}
	x.members(parts, s.far, func(p Part) bool { return p.Send != NoEvent }, func(p Part) {
		add(x.ref[p.Loc], x.times[p.Loc][p.Send], p.Loc)
	}, add)
	s.done.Store(true)
	s.mu.Lock()
	ws := s.waiters
	s.waiters = nil
	for _, w := range ws {
		x.locs[w].blocked = false
	}
	s.mu.Unlock()
	x.requeue(ws)
}

// members calls own for each own member of an instance (parts; every
// member when the replay is not divided) that has selects, and add for
// each candidate of another process's aggregates (far, as Divided
// received them), all in the members' order: the aggregate of a stream
// that holds every winner of the whole stream in its order is the whole
// stream's (Agg.Add keeps the earlier of equal values), so adding the own
// members and the far candidates so gives the aggregate of every member.
// It sorts far.
func (x *Shared) members(parts []Part, far []farCand, has func(Part) bool, own func(Part), add func(ref bool, v int64, loc int32)) {
	slices.SortFunc(far, func(a, b farCand) int { return int(a.pos - b.pos) })
	k := 0
	for r, p := range parts {
		switch {
		case !has(p):
		case x.part == nil || x.part[p.Loc] == x.me:
			own(p)
		default:
			for ; k < len(far) && int(far[k].pos) == r; k++ {
				add(far[k].ref, far[k].v, p.Loc)
			}
		}
	}
}

// combine answers a receiver from the aggregates of reference and other
// senders: the largest value, whether a reference sender attains it, and
// whether there is any.
func combine(ref, other *Agg, loc, node int32, lat Latency) (int64, bool, bool) {
	tr, okr := ref.For(loc, node, lat)
	to, oko := other.For(loc, node, lat)
	switch {
	case okr && (!oko || tr >= to):
		return tr, true, true
	case oko:
		return to, false, true
	}
	return NoTime, false, false
}

// AwaitInstance implements Exchange.
func (x *Shared) AwaitInstance(loc int, in uint32, rank int32) (int64, bool, bool, Status) {
	me := &x.locs[loc]
	if me.gaveUp {
		me.gaveUp = false
		return 0, false, false, GaveUp
	}
	s := &x.inst[in]
	if !s.done.Load() {
		s.mu.Lock()
		// A scan's rank goes on once the ranks below it contributed.
		if !s.done.Load() && (s.rankOf == nil || int(rank) >= s.nscan) {
			me.blocked, me.target = true, -1-int64(in)
			s.waiters = append(s.waiters, int32(loc))
			s.mu.Unlock()
			return 0, false, false, Blocked
		}
		s.mu.Unlock()
	}
	if s.scan != nil {
		return s.scan[rank], s.scanRef[rank], s.scan[rank] != NoTime, Ready
	}
	t, fromRef, has := combine(&s.aggRef, &s.aggOther, int32(loc), x.node[loc], x.lat.ForSync(x.g.Instances[in].Kind))
	return t, fromRef, has, Ready
}

// sweep gives up the wait of every blocked location and queues them all,
// returning how many. The caller holds x.mu, and no step is running.
func (x *Shared) sweep() int {
	n := 0
	for li := range x.locs {
		me := &x.locs[li]
		var mu *sync.Mutex
		if me.target >= 0 {
			mu = &x.locs[me.target].mu
		} else {
			mu = &x.inst[-1-me.target].mu
		}
		mu.Lock()
		if me.blocked {
			if me.target >= 0 {
				s := &x.locs[me.target]
				if s.waiters[me.waitIdx] == int32(li) {
					delete(s.waiters, me.waitIdx)
					if more := s.more[me.waitIdx]; len(more) > 0 {
						s.waiters[me.waitIdx] = more[0]
						s.more[me.waitIdx] = more[1:]
					}
				} else {
					s.more[me.waitIdx] = slices.DeleteFunc(s.more[me.waitIdx], func(w int32) bool { return int(w) == li })
				}
				s.nwait.Add(-1)
			} else {
				s := &x.inst[-1-me.target]
				kept := s.waiters[:0]
				for _, w := range s.waiters {
					if int(w) != li {
						kept = append(kept, w)
					}
				}
				s.waiters = kept
			}
			me.blocked, me.gaveUp = false, true
			x.queue = append(x.queue, int32(li))
			n++
		}
		mu.Unlock()
	}
	return n
}

// ErrAborted is returned by Run when the replay was aborted by an error.
var ErrAborted = errors.New("replay aborted")

// Run runs step for every location on workers goroutines (0: GOMAXPROCS)
// until every location is done, and returns the first error; a failing
// step stops the replay.
func Run(x *Shared, n, workers int, step Step) error {
	workers = par.Workers(workers)
	x.mu.Lock()
	x.queue = make([]int32, 0, n)
	for li := 0; li < n; li++ {
		x.queue = append(x.queue, int32(li))
	}
	x.head, x.running, x.done, x.err = 0, 0, 0, nil
	x.mu.Unlock()
	return x.run(n, workers, step, false)
}

// run runs the queued steps on workers goroutines until n locations are
// done (or a step failed); with idle, also when nothing is queued and
// nothing runs (a superstep's end), else it gives up the waits then
// (sweep) and goes on.
func (x *Shared) run(n, workers int, step Step, idle bool) error {
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			x.work(n, step, idle)
		}()
	}
	wg.Wait()
	return x.err
}

// work is one worker of run.
func (x *Shared) work(n int, step Step, idle bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for {
		switch {
		case x.err != nil || x.done == n:
			x.cond.Broadcast()
			return
		case x.head < len(x.queue):
			loc := x.queue[x.head]
			x.head++
			if x.head == len(x.queue) {
				x.queue, x.head = x.queue[:0], 0
			} else if x.head > 4096 && x.head > len(x.queue)/2 {
				x.queue = x.queue[:copy(x.queue, x.queue[x.head:])]
				x.head = 0
			}
			x.running++
			x.mu.Unlock()
			done, err := step(int(loc))
			x.mu.Lock()
			x.running--
			if err != nil && x.err == nil {
				x.err = fmt.Errorf("location %d: %w", loc, err)
			}
			if done {
				x.done++
			}
		case x.running == 0 && idle:
			x.cond.Broadcast()
			return
		case x.running == 0:
			// Nothing queued, nothing running, not all done: stuck.
			if x.sweep() == 0 {
				x.err = fmt.Errorf("internal error: %d locations neither finished nor waiting", n-x.done)
			}
			x.cond.Broadcast()
		default:
			x.cond.Wait()
		}
	}
}
