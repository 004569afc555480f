package clockmodel

import (
	"math"
	"sort"
)

// Curve is one clock domain's correction as a function of (pre-synchronised)
// time: linear between knots, held constant before the first and after the
// last. The zero Curve is 0 everywhere. S, when not nil, is the
// correction's posterior standard deviation at each knot.
type Curve struct {
	T []int64
	X []float64
	S []float64
}

// SD returns the correction's standard deviation at t (interpolated like
// the correction), or 0 without one.
func (c *Curve) SD(t int64) float64 {
	if len(c.S) == 0 {
		return 0
	}
	s := Curve{T: c.T, X: c.S}
	return s.At(t)
}

// At returns the correction at t.
func (c *Curve) At(t int64) float64 {
	n := len(c.T)
	switch {
	case n == 0:
		return 0
	case t <= c.T[0]:
		return c.X[0]
	case t >= c.T[n-1]:
		return c.X[n-1]
	}
	lo, hi := 0, n-1
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if c.T[m] <= t {
			lo = m
		} else {
			hi = m
		}
	}
	return c.X[lo] + c.slope(lo)*float64(t-c.T[lo])
}

// slope is the correction's rate on segment k (knots k and k+1). At and
// cursor.at compute every value from it alike, so they agree to the bit.
func (c *Curve) slope(k int) float64 {
	return (c.X[k+1] - c.X[k]) / float64(c.T[k+1]-c.T[k])
}

// cursor evaluates a Curve at mostly ascending times in O(1) amortized,
// keeping the slope of its segment.
type cursor struct {
	c *Curve
	k int
	// s is the slope of segment sk-1 (sk 0: none yet).
	s  float64
	sk int
}

func (u *cursor) at(t int64) float64 {
	c := u.c
	n := len(c.T)
	switch {
	case n == 0:
		return 0
	case t <= c.T[0]:
		u.k = 0
		return c.X[0]
	case t >= c.T[n-1]:
		u.k = n - 1
		return c.X[n-1]
	}
	if u.k >= n-1 || c.T[u.k] > t {
		// Back in time: find the segment anew.
		u.k = sort.Search(n, func(i int) bool { return c.T[i] > t }) - 1
	}
	// The segment with T[k] ≤ t < T[k+1], as At chooses it.
	for c.T[u.k+1] <= t {
		u.k++
	}
	if u.sk != u.k+1 {
		u.s, u.sk = c.slope(u.k), u.k+1
	}
	return c.X[u.k] + u.s*float64(t-c.T[u.k])
}

// MaxAbs returns the largest |correction|.
func (c *Curve) MaxAbs() float64 {
	var m float64
	for _, x := range c.X {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// Model is the estimated correction of every clock domain.
type Model struct {
	Curves []Curve
	// scale is the factor by which the curves' S were widened for the
	// error bars (the Birge ratio, setSD; 0 or 1: none): proven judges
	// the estimate by its posterior as fitted.
	scale float64
}

// at returns domain d's correction at t (0 for a domain without a curve).
func (m *Model) at(d int32, t int64) float64 {
	if m == nil || int(d) >= len(m.Curves) {
		return 0
	}
	return m.Curves[d].At(t)
}

// curve returns domain d's curve, or an empty one.
func (m *Model) curve(d int32) *Curve {
	if m == nil || int(d) >= len(m.Curves) {
		return &Curve{}
	}
	return &m.Curves[d]
}

// proven returns m with every knot's correction x shrunk toward 0 (the
// pre-synchronised clock) by the non-negative garrote with threshold z·s,
// s the knot's posterior standard deviation: x·max(0, 1 − (z·s/x)²). A
// correction whose interval of ±z·s holds 0 (the messages do not prove the
// pre-synchronised clock wrong there) becomes 0; one far beyond it keeps
// nearly all of itself (x − (z·s)²/x). The curves stay continuous, as x
// and s vary smoothly between knots.
//
// With at (per domain, the violations of the clock condition in the
// pre-synchronised times by messages between it and another domain), a
// knot is also held at 0 unless such a violation lies between its
// neighbouring knots, and keeps at most the largest of those violations:
// a violation of v proves the clocks wrong by v at least, which is what
// the messages' bounds prove; more would rest on their midpoints alone,
// which latencies unequal in the two directions shift, and no two-way
// measurement can tell that from a clock's error. It also returns how many
// knots it held at 0 and how many it has. Curves without S are kept as
// they are.
func (m *Model) proven(z float64, at []proofs) (*Model, int, int) {
	out := &Model{Curves: make([]Curve, len(m.Curves))}
	held, all := 0, 0
	for d, c := range m.Curves {
		out.Curves[d] = c
		if len(c.S) != len(c.X) {
			continue
		}
		x := make([]float64, len(c.X))
		for k, v := range c.X {
			all++
			t := z * c.S[k]
			if m.scale > 1 {
				t /= m.scale
			}
			near := int64(-1)
			if at != nil {
				near = at[d].largestNear(c.T, k)
			}
			if math.Abs(v) <= t || near == 0 {
				held++
				continue
			}
			x[k] = v * (1 - t*t/(v*v))
			if near > 0 {
				x[k] = math.Copysign(min(math.Abs(x[k]), float64(near)), x[k])
			}
		}
		out.Curves[d].X = x
	}
	return out, held, all
}
