package clockmodel

import (
	"cmp"
	"math"
	"slices"

	"github.com/clc-tools/clc/replay"
)

// BoundRate is the fastest rate, in seconds per second, at which a clock's
// error is taken to depart from the estimate's curve between two of its
// messages with the reference: 10 µs per second, 10 ppm. (Relative to the
// pre-synchronised line the rate would be the wander's own, 63 ppm at most
// in the recordings' emulated wander of 2 µs over 200 ms; the estimate
// follows most of it.) It widens a message's bound with the time from it.
// On the MPICH recording whose bars were 33 times its largest error, 10
// ppm gives bars of 1.65 times it covering 97.6 % of events; 30 ppm 2.6
// times, 100 ppm 4.5 times.
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
	i, _ := slices.BinarySearch(s.t, t) // t_j < t for j < i
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
func (e *envelope) bounds(t int64, rho float64) (lo, hi float64) {
	return e.lower.at(t, rho), -e.upper.at(t, rho)
}

// envelopes builds each domain's envelope from the bounds (point to point
// and collective, in the pre-synchronised times) between it and the
// reference domain ref, relative to the estimate m (nil for the other
// domains, and for every domain when ref < 0).
func envelopes(lists [2][]rec, dom *Domains, lat replay.Latency, ref int32, m *Model) []*envelope {
	out := make([]*envelope, dom.Count())
	if ref < 0 {
		return out
	}
	rho := BoundRate
	type pts struct {
		t []int64
		v []float64
	}
	lower, upper := map[int32]*pts{}, map[int32]*pts{}
	add := func(m map[int32]*pts, d int32, t int64, v float64) {
		p := m[d]
		if p == nil {
			p = &pts{}
			m[d] = p
		}
		p.t = append(p.t, t)
		p.v = append(p.v, v)
	}
	for _, r := range slices.Concat(lists[0], lists[1]) {
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
		} else {
			add(upper, d, r.t, -(float64(r.d) - mu - x)) // negated
		}
	}
	build := func(p *pts) side {
		if p == nil {
			return side{}
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
		return newSide(ts, vs, rho)
	}
	for d := range out {
		l, u := lower[int32(d)], upper[int32(d)]
		if l == nil && u == nil {
			continue
		}
		out[d] = &envelope{lower: build(l), upper: build(u)}
	}
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
	v := math.Inf(-1)
	if u.i > 0 {
		v = s.pre[u.i-1] - rho*float64(t)
	}
	if u.i < len(s.t) {
		v = math.Max(v, s.suf[u.i]+rho*float64(t))
	}
	return v
}
