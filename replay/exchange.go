package replay

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Exchange carries the corrected times of logical sends to the logical
// receives that need them during a forward replay. Each location calls it
// from its own goroutine only. The shared-memory implementation is Shared;
// a distributed one (one process per node group exchanging times over MPI,
// as Scalasca's PEARL does) would implement the same methods.
type Exchange interface {
	// Sent announces that loc's times are final up to and including its
	// point-to-point send at event idx, whose time is t.
	Sent(loc int, idx uint32, t int64)
	// AwaitSend returns the time of event idx of location from plus the
	// minimum latency from there to loc, waiting until it is final. ok is
	// false when the wait was given up: see Err.
	AwaitSend(loc int, from int32, idx uint32) (t int64, ok bool)
	// Contribute announces loc's logical send in collective instance in,
	// at time t (final, as are all of loc's earlier events).
	Contribute(loc int, in uint32, t int64)
	// AwaitInstance returns, for receiver loc (rank within the instance)
	// of instance in, the largest send time plus latency over the logical
	// senders that precede it (for a scan: of lower rank; otherwise: every
	// other member), has being false when there is none, waiting until
	// every sender has contributed. fromRef says whether a sender on a
	// reference location attains that largest value. ok is false when the
	// wait was given up: see Err.
	AwaitInstance(loc int, in uint32, rank int32) (t int64, fromRef, has, ok bool)
	// Done announces that loc has finished (successfully or not).
	Done(loc int)
	// Err returns the error that aborted the replay, or nil. When a wait
	// is given up and Err is nil, the dependency was dropped to break a
	// happened-before cycle and the event is to be treated as internal.
	Err() error
}

// Shared is the shared-memory Exchange: senders' times are read straight
// from their time columns once published; waiting is a load of the sender's
// progress in the common case and a park on a channel only when the sender
// is behind.
//
// Shared detects a stuck replay exactly: it counts the locations that can
// run (not parked, not finished), and a waker counts the location it wakes
// before waking it. When the count reaches zero while locations are still
// parked, no event can ever be published again: every parked receive is then
// in or behind a happened-before cycle. Shared gives up those waits (the
// parked locations are the same whatever the schedule, so the result stays
// deterministic) and lets the locations go on; the caller records the
// dropped dependencies.
type Shared struct {
	g     *Graph
	times [][]int64
	node  []int32
	ref   []bool
	lat   Latency

	locs []locSync
	inst []instSync

	active   atomic.Int64
	finished atomic.Int64
	n        int64

	errMu     sync.Mutex
	err       error
	abortFlag atomic.Bool
}

type locSync struct {
	// progress is the number of leading events whose times are final,
	// updated at logical sends.
	progress atomic.Int64
	nwait    atomic.Int32
	mu       sync.Mutex
	// waiters maps a send's event index to the location waiting for it
	// (a point-to-point send has one receiver, so one waiter at most).
	waiters map[uint32]int32
	wake    chan struct{}
	// parked and target are set by the location itself under the lock of
	// the list it parks on; parked is cleared by its waker under that lock.
	parked atomic.Bool
	target atomic.Int64 // ≥ 0: a location; < 0: instance −1−target
	// waitIdx is the send a location parked on a location waits for.
	waitIdx uint32
	// gaveUp is set by the sweeper before waking the location.
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
}

// NewShared returns an exchange over the time columns times (one per
// location, written by each location's goroutine; an entry may be read by
// others once published), the locations' nodes, which locations are
// reference locations (nil: none) and the latencies.
func NewShared(g *Graph, times [][]int64, node []int32, ref []bool, lat Latency) *Shared {
	if ref == nil {
		ref = make([]bool, len(times))
	}
	x := &Shared{g: g, times: times, node: node, ref: ref, lat: lat, n: int64(len(times))}
	x.locs = make([]locSync, len(times))
	for i := range x.locs {
		x.locs[i].wake = make(chan struct{}, 1)
	}
	x.inst = make([]instSync, len(g.Instances))
	for i := range x.inst {
		x.inst[i].pending.Store(int32(g.Instances[i].Senders))
		if g.Instances[i].Senders == 0 {
			x.complete(uint32(i))
		}
	}
	x.active.Store(x.n)
	return x
}

// Err implements Exchange.
func (x *Shared) Err() error {
	x.errMu.Lock()
	defer x.errMu.Unlock()
	return x.err
}

// Abort stops the replay with err: every wait, now or later, gives up.
func (x *Shared) Abort(err error) {
	x.errMu.Lock()
	if x.err == nil {
		x.err = err
	}
	x.errMu.Unlock()
	x.abortFlag.Store(true)
	x.sweep()
}

// Sent implements Exchange.
func (x *Shared) Sent(loc int, idx uint32, _ int64) {
	s := &x.locs[loc]
	s.progress.Store(int64(idx) + 1)
	if s.nwait.Load() == 0 {
		return
	}
	s.mu.Lock()
	if w, ok := s.waiters[idx]; ok {
		delete(s.waiters, idx)
		x.wakeLocked(int(w))
		s.nwait.Add(-1)
	}
	s.mu.Unlock()
}

// wakeLocked wakes parked location loc; the caller holds the lock of the
// list loc was parked on.
func (x *Shared) wakeLocked(loc int) {
	w := &x.locs[loc]
	w.parked.Store(false)
	x.active.Add(1)
	w.wake <- struct{}{}
}

// AwaitSend implements Exchange.
func (x *Shared) AwaitSend(loc int, from int32, idx uint32) (int64, bool) {
	s := &x.locs[from]
	if s.progress.Load() <= int64(idx) {
		s.mu.Lock()
		s.nwait.Add(1)
		switch {
		case s.progress.Load() > int64(idx):
			s.nwait.Add(-1)
			s.mu.Unlock()
		case x.abortFlag.Load():
			s.nwait.Add(-1)
			s.mu.Unlock()
			return 0, false
		default:
			me := &x.locs[loc]
			me.gaveUp = false
			me.target.Store(int64(from))
			me.waitIdx = idx
			me.parked.Store(true)
			if s.waiters == nil {
				s.waiters = make(map[uint32]int32)
			}
			s.waiters[idx] = int32(loc)
			s.mu.Unlock()
			if x.park(loc) {
				return 0, false
			}
		}
	}
	return x.times[from][idx] + x.lat.Between(x.node[from], x.node[loc]), true
}

// park blocks loc until it is woken; it reports whether the wait was given up.
func (x *Shared) park(loc int) bool {
	if x.active.Add(-1) == 0 {
		x.stuck()
	}
	me := &x.locs[loc]
	<-me.wake
	return me.gaveUp
}

// Contribute implements Exchange.
func (x *Shared) Contribute(_ int, in uint32, _ int64) {
	if x.inst[in].pending.Add(-1) == 0 {
		x.complete(in)
	}
}

// complete computes the aggregate of instance in, whose senders have all
// contributed, and wakes its parked receivers.
func (x *Shared) complete(in uint32) {
	s := &x.inst[in]
	parts := x.g.InstanceParts(in)
	if x.g.Instances[in].Class == ClassScan {
		s.scan = make([]int64, len(parts))
		s.scanRef = make([]bool, len(parts))
		pref, pother := NewAgg(), NewAgg()
		for r, p := range parts {
			node := x.node[p.Loc]
			s.scan[r], s.scanRef[r], _ = combine(&pref, &pother, p.Loc, node, x.lat)
			if p.Send != NoEvent {
				if x.ref[p.Loc] {
					pref.Add(x.times[p.Loc][p.Send], p.Loc, node)
				} else {
					pother.Add(x.times[p.Loc][p.Send], p.Loc, node)
				}
			}
		}
	} else {
		s.aggRef, s.aggOther = NewAgg(), NewAgg()
		for _, p := range parts {
			if p.Send != NoEvent {
				if x.ref[p.Loc] {
					s.aggRef.Add(x.times[p.Loc][p.Send], p.Loc, x.node[p.Loc])
				} else {
					s.aggOther.Add(x.times[p.Loc][p.Send], p.Loc, x.node[p.Loc])
				}
			}
		}
	}
	s.done.Store(true)
	s.mu.Lock()
	for _, w := range s.waiters {
		x.wakeLocked(int(w))
	}
	s.waiters = nil
	s.mu.Unlock()
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
func (x *Shared) AwaitInstance(loc int, in uint32, rank int32) (int64, bool, bool, bool) {
	s := &x.inst[in]
	if !s.done.Load() {
		s.mu.Lock()
		switch {
		case s.done.Load():
			s.mu.Unlock()
		case x.abortFlag.Load():
			s.mu.Unlock()
			return 0, false, false, false
		default:
			me := &x.locs[loc]
			me.gaveUp = false
			me.target.Store(-1 - int64(in))
			me.parked.Store(true)
			s.waiters = append(s.waiters, int32(loc))
			s.mu.Unlock()
			if x.park(loc) {
				return 0, false, false, false
			}
		}
	}
	if s.scan != nil {
		return s.scan[rank], s.scanRef[rank], s.scan[rank] != NoTime, true
	}
	t, fromRef, has := combine(&s.aggRef, &s.aggOther, int32(loc), x.node[loc], x.lat)
	return t, fromRef, has, true
}

// Done implements Exchange.
func (x *Shared) Done(loc int) {
	x.locs[loc].progress.Store(int64(len(x.times[loc])))
	x.finished.Add(1)
	if x.active.Add(-1) == 0 && x.finished.Load() < x.n {
		x.stuck()
	}
}

// stuck is called by the goroutine that brought the count of runnable
// locations to zero while some are parked: it gives up every parked wait.
func (x *Shared) stuck() { x.sweep() }

// sweep wakes every parked location with its wait given up.
func (x *Shared) sweep() {
	for li := range x.locs {
		me := &x.locs[li]
		if !me.parked.Load() {
			continue
		}
		// Lock the list li is parked on, then check again under the lock.
		tgt := me.target.Load()
		var mu *sync.Mutex
		if tgt >= 0 {
			mu = &x.locs[tgt].mu
		} else {
			mu = &x.inst[-1-tgt].mu
		}
		mu.Lock()
		if me.parked.Load() && me.target.Load() == tgt {
			if tgt >= 0 {
				s := &x.locs[tgt]
				delete(s.waiters, me.waitIdx)
				s.nwait.Add(-1)
			} else {
				s := &x.inst[-1-tgt]
				kept := s.waiters[:0]
				for _, w := range s.waiters {
					if int(w) != li {
						kept = append(kept, w)
					}
				}
				s.waiters = kept
			}
			me.gaveUp = true
			x.wakeLocked(li)
		}
		mu.Unlock()
	}
}

// ErrAborted is returned by Run when the replay was aborted by an error.
var ErrAborted = errors.New("replay aborted")

// Run calls body for every location on a goroutine of its own, announces
// each location's end to x, and returns the first error. When a body fails,
// the exchange is aborted so that no other location waits for it forever.
func Run(x *Shared, n int, body func(loc int) error) error {
	var wg sync.WaitGroup
	wg.Add(n)
	for li := 0; li < n; li++ {
		go func() {
			defer wg.Done()
			defer x.Done(li)
			if err := body(li); err != nil {
				x.Abort(fmt.Errorf("location %d: %w", li, err))
			}
		}()
	}
	wg.Wait()
	return x.Err()
}
