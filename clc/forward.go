package clc

import (
	"context"
	"fmt"
	"math"

	"github.com/clc-tools/clc/replay"
)

// Jump is a receive that the forward pass moved later than its local
// clock value because of its send(s): a corrected clock-condition
// violation.
type Jump struct {
	// Idx is the receive's event index.
	Idx uint32
	// Delta is how far the send term moved it beyond the value the other
	// terms of Eq. 4 gave (its "base").
	Delta int64
	// Slope is the slope of its backward amortization ramp.
	Slope float64
	// Shared says that a shared-memory relation (a fork, barrier, lock …)
	// attains the send term: the receive moved with another thread of
	// its process.
	Shared bool
}

// locKnobs are the per-location choices of the forward pass.
type locKnobs struct {
	// k holds the location's default γ and slope (the reference γ on a
	// reference location).
	k Ticks
	// informed: jumps whose send term a reference sender attains get
	// k.Informed's γ and slope; ref says which locations are reference
	// locations.
	informed bool
	ref      []bool
}

// locForward is the forward result of one location.
type locForward struct {
	jumps    []Jump
	maxShift int64
	dropped  []replay.Issue
}

// Step computes the local terms of Eq. 4 for one event: the largest of the
// original time c, the previous corrected time advanced by γ times the
// original step, and the previous corrected time advanced by the minimal
// step δ (never more than the original step). The γ term is computed from
// an anchor — the last event whose corrected time some other term decided —
// rather than step by step, so rounding does not accumulate.
//
// The state lives in a Clock, one per location.
type Clock struct {
	k       Ticks
	started bool
	prevC   int64 // original time of the previous event
	prevL   int64 // corrected time of the previous event
	anchorC int64 // original and corrected time of the anchor
	anchorL int64
}

// NewClock returns the clock of one location.
func NewClock(k Ticks) Clock { return Clock{k: k} }

// Base returns the corrected time of an event with original time c from the
// local terms alone (without any send term), and whether the γ term
// decided it.
func (cl *Clock) Base(c int64) (l int64, byGamma bool) {
	if !cl.started {
		return c, false
	}
	l = c
	step := c - cl.prevC
	if step < 0 {
		step = 0
	}
	if d := cl.prevL + min(cl.k.Delta, step); d > l {
		l = d
	}
	if since := c - cl.anchorC; since >= 0 {
		g := cl.anchorL + since - int64(math.Floor(float64(since)*cl.k.OneMinusGamma))
		if g > l {
			return g, true
		}
	}
	return l, false
}

// Set records the corrected time l of the event with original time c;
// byGamma says whether the γ term decided it (the anchor then stays).
func (cl *Clock) Set(c, l int64, byGamma bool) {
	cl.started = true
	cl.prevC, cl.prevL = c, l
	if !byGamma {
		cl.anchorC, cl.anchorL = c, l
	}
}

// CaughtUp reports whether the corrected clock has met the original one:
// the last event kept its time and no jump is being amortized. Until the
// next send term, every event with a time not below its predecessor's then
// keeps its time.
func (cl *Clock) CaughtUp() bool { return cl.prevL == cl.prevC && cl.anchorL == cl.anchorC }

// fwdState is the forward amortization of one location as a resumable
// step of the replay: it replaces the location's times t (the original,
// pre-synchronised ones) by the corrected ones in place, recording in moved
// the events it changes, and when a receive's send is not final yet it
// returns, to be called again when it is.
type fwdState struct {
	li     int
	t      []int64
	sorted bool // t never decreases: caught-up stretches can be skipped
	deps   []replay.Dep
	inst   []replay.Instance // the graph's instances (their shared-memory kinds)
	kn     locKnobs
	cl     Clock
	j, di  int
	moved  *Moved
	out    locForward
	// The receives of event j awaited so far (an event may wait for
	// several relations: deps[di:pend] are done): the largest send term,
	// the largest attained by a reference sender, and whether any.
	pend                       int
	best, bestRef              int64
	hasBest, started, byShared bool
	// ctx cancels the pass: step looks at it every checkEvery events.
	ctx       context.Context
	unchecked int
}

// checkEvery is the number of events a forward step handles between two
// looks at its context (tens of microseconds).
const checkEvery = 1 << 14

func newForward(li int, t []int64, sorted bool, deps []replay.Dep, inst []replay.Instance, kn locKnobs, moved *Moved) *fwdState {
	return &fwdState{li: li, t: t, sorted: sorted, deps: deps, inst: inst, kn: kn, cl: NewClock(kn.k), moved: moved}
}

// skip moves to the next logical send or receive when the clock has
// caught up: the events in between keep their times.
func (f *fwdState) skip() {
	if !f.sorted || !f.cl.started || !f.cl.CaughtUp() {
		return
	}
	next := len(f.t)
	if f.di < len(f.deps) {
		next = int(f.deps[f.di].Idx)
	}
	if next > f.j+1 {
		c := f.t[next-1]
		f.cl.Set(c, c, false)
		f.j = next
	}
}

// await waits for the sends of the receives of event j, deps[f.pend:end],
// folding each into f.best; it returns false when one is not final yet.
func (f *fwdState) await(x replay.Exchange, j, end int) bool {
	for ; f.pend < end; f.pend++ {
		d := &f.deps[f.pend]
		if !d.Role.IsRecv() {
			continue
		}
		var s int64
		var fromRef, has bool
		var st replay.Status
		if d.Role == replay.RoleCollRecv {
			s, fromRef, has, st = x.AwaitInstance(f.li, d.Ref, d.Peer)
		} else {
			s, st = x.AwaitSend(f.li, d.Peer, d.Ref, d.Role == replay.RoleSyncRecv)
			has, fromRef = st == replay.Ready, f.kn.ref != nil && f.kn.ref[d.Peer]
		}
		switch st {
		case replay.Blocked:
			return false // called again when the send is final
		case replay.GaveUp:
			f.out.dropped = append(f.out.dropped, dropIssue(f.li, uint32(j), d))
			continue
		}
		if !has {
			continue
		}
		shared := d.Role == replay.RoleSyncRecv || d.Role == replay.RoleCollRecv && f.inst[d.Ref].Kind != 0
		switch {
		case !f.hasBest || s > f.best:
			f.best, f.hasBest, f.byShared = s, true, shared
		case s == f.best:
			f.byShared = f.byShared || shared
		}
		if fromRef && s > f.bestRef {
			f.bestRef = s
		}
	}
	return true
}

// step advances the location as far as it can; see replay.Step.
func (f *fwdState) step(x replay.Exchange) (bool, error) {
	for {
		f.skip()
		if f.j >= len(f.t) {
			break
		}
		if f.unchecked++; f.unchecked >= checkEvery && f.ctx != nil {
			f.unchecked = 0
			if err := f.ctx.Err(); err != nil {
				return false, err
			}
		}
		j := f.j
		cj := f.t[j]
		// deps[di:end] are the roles of event j (an event may have
		// several, receives and sends).
		end := f.di
		for end < len(f.deps) && f.deps[end].Idx == uint32(j) {
			end++
		}
		var l int64
		var byGamma bool
		if end == f.di { // an internal event: the local terms alone
			l, byGamma = f.cl.Base(cj)
			f.store(j, cj, l)
		} else {
			if !f.started {
				f.started, f.pend, f.hasBest, f.bestRef = true, f.di, false, math.MinInt64
			}
			if !f.await(x, j, end) {
				return false, nil
			}
			l, byGamma = f.roles(x, j, cj, end)
		}
		f.cl.Set(cj, l, byGamma)
		if sh := l - cj; sh > f.out.maxShift {
			f.out.maxShift = sh
		}
		f.j++
	}
	if f.di != len(f.deps) {
		return true, fmt.Errorf("internal error: %d dependencies beyond the last event", len(f.deps)-f.di)
	}
	return true, nil
}

// store gives event j (original time cj) its corrected time l.
func (f *fwdState) store(j int, cj, l int64) {
	if l != cj {
		f.moved.add(j, cj, f.t)
		f.t[j] = l
	}
}

// roles finishes event j, whose receives have all been awaited: the jump
// if a send term wins, the time stored and published for each send role.
func (f *fwdState) roles(x replay.Exchange, j int, cj int64, end int) (int64, bool) {
	k := &f.kn.k
	l, byGamma := f.cl.Base(cj)
	if f.hasBest && f.best > l {
		jp := Jump{Idx: uint32(j), Delta: f.best - l, Slope: k.Slope, Shared: f.byShared}
		// The γ of the amortization that follows.
		f.cl.k.OneMinusGamma = k.OneMinusGamma
		if f.kn.informed && f.bestRef == f.best {
			f.cl.k.OneMinusGamma, jp.Slope = k.Informed.OneMinusGamma, k.Informed.Slope
		}
		f.out.jumps = append(f.out.jumps, jp)
		l, byGamma = f.best, false
	}
	// The time is final: store it, then publish it (nothing writes it
	// afterwards).
	f.store(j, cj, l)
	for ; f.di < end; f.di++ {
		switch d := &f.deps[f.di]; d.Role {
		case replay.RoleSend, replay.RoleSyncSend:
			x.Sent(f.li, uint32(j), l)
		case replay.RoleCollSend:
			x.Contribute(f.li, d.Ref, l)
		}
	}
	f.started = false
	return l, byGamma
}

func dropIssue(li int, idx uint32, d *replay.Dep) replay.Issue {
	detail := fmt.Sprintf("receive of the send at location %d, event %d", d.Peer, d.Ref)
	switch d.Role {
	case replay.RoleCollRecv:
		detail = fmt.Sprintf("collective receive of instance %d", d.Ref)
	case replay.RoleSyncRecv:
		detail = fmt.Sprintf("%s relation from location %d, event %d", d.Sync, d.Peer, d.Ref)
	}
	return replay.Issue{Kind: replay.DroppedDependency, Location: int32(li), Event: idx,
		Detail: detail + ": part of a happened-before cycle, treated as internal"}
}
