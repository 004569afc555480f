package clockmodel

import (
	"cmp"
	"math"
	"slices"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/replay"
)

// BoundRate is the slowest rate, in seconds per second, at which a clock's
// error is taken to depart from the estimate's curve (or from the
// pre-synchronised clock) between two of its messages with the reference:
// 10 µs per second, 10 ppm. It widens a message's bound with the time from
// it. Where the bounds disagree at that rate (the estimate misses a faster
// wander), each domain's envelope takes 1.25 times the slowest rate at
// which they agree (consistentRate).
const BoundRate = 10e-6

// envelope is what the messages exchanged with the reference domain bound
// of one domain's correction x(t) against the reference clock, when μ is
// at most the true latency: a message from the reference received d ticks
// after its send says x ≥ μ − d, one to the reference x ≤ d − μ, around
// its time t_i. Read relative to the estimate x̂ (the bounds hold x − x̂)
// and widened between messages by BoundRate: x(t) − x̂(t) ≥ max_i (L_i −
// x̂(t_i) − ρ|t − t_i|) and ≤ min_i (U_i − x̂(t_i) + ρ|t − t_i|), which one
// binary search and two prefix and suffix extremes give at any t.
type envelope struct {
	lower, upper side
	// rho is the rate the envelope widens by: BoundRate, or 1.25 times the
	// smallest rate at which its bounds agree with each other where that is
	// more (consistentRate).
	rho float64
	// onEstimate tells whether the bounds hold x − x̂ (relative to the
	// estimate) or x itself (relative to the pre-synchronised clock):
	// whichever agrees at the slower rate.
	onEstimate bool
}

// side is one direction's bounds: their times, ascending, and the prefix
// and suffix extremes of v_i ± ρ·t_i (maxima for the lower bounds, minima
// for the upper, which it holds negated).
type side struct {
	t        []int64
	pre, suf []float64
}

// newSide builds a side from bounds (t_i, v_i) sorted by time, v the
// lower bounds (or the upper ones negated).
func newSide(ts []int64, vs []float64, rho float64) side {
	n := len(ts)
	s := side{t: ts, pre: make([]float64, n), suf: make([]float64, n)}
	for i := range n {
		s.pre[i] = vs[i] + rho*float64(ts[i])
		if i > 0 {
			s.pre[i] = math.Max(s.pre[i], s.pre[i-1])
		}
	}
	for i := n - 1; i >= 0; i-- {
		s.suf[i] = vs[i] - rho*float64(ts[i])
		if i+1 < n {
			s.suf[i] = math.Max(s.suf[i], s.suf[i+1])
		}
	}
	return s
}

// at returns max_i (v_i − ρ|t − t_i|), −Inf without bounds.
func (s *side) at(t int64, rho float64) float64 {
	i, _ := slices.BinarySearch(s.t, t)
	return s.value(i, t, rho)
}

// value is at(t, rho) given i, the number of bounds before t (t_j < t for
// j < i): the prefix's extreme for those, the suffix's for the others.
func (s *side) value(i int, t int64, rho float64) float64 {
	v := math.Inf(-1)
	if i > 0 {
		v = s.pre[i-1] - rho*float64(t)
	}
	if i < len(s.t) {
		v = math.Max(v, s.suf[i]+rho*float64(t))
	}
	return v
}

// bounds returns the interval [lo, hi] that the messages allow for the
// correction's departure from the estimate at t, infinite on a side
// without messages.
func (e *envelope) bounds(t int64) (lo, hi float64) {
	return e.lower.at(t, e.rho), -e.upper.at(t, e.rho)
}

// maxRate is the fastest rate consistentRate tries: 1 ms per second.
const maxRate = 1e-3

// consistentRate returns the smallest rate, to 5 %, between BoundRate and
// maxRate at which the lower and upper bounds (times and values, the
// upper ones negated) agree everywhere: at no bound's time does the lower
// envelope pass the upper one. A bound that only a faster departure from
// the estimate can reconcile with another says the estimate misses the
// clock's error there by more than BoundRate allows, and the envelope
// must then be wider. It returns +Inf if even maxRate does not reconcile
// them (μ above a true latency: the bounds are not all true).
func consistentRate(lt []int64, lv []float64, ut []int64, uv []float64) float64 {
	ok := func(rho float64) bool {
		lo, up := newSide(lt, lv, rho), newSide(ut, uv, rho)
		lc, uc := sideCursor{s: &lo}, sideCursor{s: &up}
		i, j := 0, 0
		for i < len(lt) || j < len(ut) {
			var t int64
			if j >= len(ut) || i < len(lt) && lt[i] <= ut[j] {
				t = lt[i]
				i++
			} else {
				t = ut[j]
				j++
			}
			if lc.at(t, rho) > -uc.at(t, rho) {
				return false
			}
		}
		return true
	}
	if len(lt) == 0 || len(ut) == 0 || ok(BoundRate) {
		return BoundRate
	}
	if !ok(maxRate) {
		return math.Inf(1)
	}
	lo, hi := BoundRate, maxRate
	for hi > lo*1.05 {
		mid := math.Sqrt(lo * hi)
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// envelopes builds each domain's envelope from the bounds (point to point
// and collective, in the pre-synchronised times) between it and the
// reference domain ref, relative to the estimate m (nil for the other
// domains, and for every domain when ref < 0).
func envelopes(lists [2]*recList, dom *Domains, lat replay.Latency, ref int32, m *Model, np int) []*envelope {
	out := make([]*envelope, dom.Count())
	if ref < 0 {
		return out
	}
	type pts struct {
		t []int64
		v []float64
	}
	lower, upper := map[int32]*pts{}, map[int32]*pts{}
	lower0, upper0 := map[int32]*pts{}, map[int32]*pts{}
	add := func(m map[int32]*pts, d int32, t int64, v float64) {
		p := m[d]
		if p == nil {
			p = &pts{}
			m[d] = p
		}
		p.t = append(p.t, t)
		p.v = append(p.v, v)
	}
	// Each bound twice: relative to the estimate, and as it is; the lists
	// one after the other.
	for _, list := range lists {
		for r := range list.all() {
			var d int32
			switch {
			case r.a == ref && r.b != ref:
				d = r.b
			case r.b == ref && r.a != ref:
				d = r.a
			default:
				continue
			}
			mu := float64(lat.Inter)
			if n := dom.Node[d]; n >= 0 && n == dom.Node[ref] {
				mu = float64(lat.Intra)
			}
			x := m.at(d, r.t)
			if r.a == ref {
				add(lower, d, r.t, mu-float64(r.d)-x)
				add(lower0, d, r.t, mu-float64(r.d))
			} else {
				add(upper, d, r.t, -(float64(r.d) - mu - x)) // negated
				add(upper0, d, r.t, -(float64(r.d) - mu))
			}
		}
	}
	sorted := func(p *pts) ([]int64, []float64) {
		if p == nil {
			return nil, nil
		}
		idx := make([]int, len(p.t))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(p.t[a], p.t[b]) })
		ts, vs := make([]int64, len(idx)), make([]float64, len(idx))
		for i, j := range idx {
			ts[i], vs[i] = p.t[j], p.v[j]
		}
		return ts, vs
	}
	build := func(l, u *pts, onEstimate bool) *envelope {
		lt, lv := sorted(l)
		ut, uv := sorted(u)
		rho := consistentRate(lt, lv, ut, uv)
		if math.IsInf(rho, 1) {
			return nil // the bounds contradict each other: they bound nothing
		}
		if rho > BoundRate {
			rho *= 1.25
		}
		return &envelope{lower: newSide(lt, lv, rho), upper: newSide(ut, uv, rho), rho: rho, onEstimate: onEstimate}
	}
	// The domains' envelopes, each of its own bounds, side by side.
	par.ForEach(len(out), max(np, 1), func(d int) {
		l, u := lower[int32(d)], upper[int32(d)]
		if l == nil && u == nil {
			return
		}
		e := build(l, u, true)
		if e == nil || e.rho > BoundRate {
			if e0 := build(lower0[int32(d)], upper0[int32(d)], false); e0 != nil && (e == nil || e0.rho < e.rho) {
				e = e0
			}
		}
		out[d] = e
	})
	return out
}

// sideCursor evaluates a side at mostly ascending times: the index of the
// first bound at or after t moves forward, and is found anew by binary
// search when t goes back.
type sideCursor struct {
	s *side
	i int
	t int64
}

// at returns s.at(t, rho).
func (u *sideCursor) at(t int64, rho float64) float64 {
	s := u.s
	if t < u.t {
		u.i, _ = slices.BinarySearch(s.t, t)
	}
	u.t = t
	for u.i < len(s.t) && s.t[u.i] < t {
		u.i++
	}
	return s.value(u.i, t, rho)
}
