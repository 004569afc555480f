package clockmodel

import (
	"math"
	"sort"
)

// Curve is one clock domain's correction as a function of (pre-synchronised)
// time: linear between knots, held constant before the first and after the
// last. The zero Curve is 0 everywhere.
type Curve struct {
	T []int64
	X []float64
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
	return c.X[lo] + (c.X[hi]-c.X[lo])*float64(t-c.T[lo])/float64(c.T[hi]-c.T[lo])
}

// cursor evaluates a Curve at mostly ascending times in O(1) amortized.
type cursor struct {
	c *Curve
	k int
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
		u.k = sort.Search(n, func(i int) bool { return c.T[i] >= t }) - 1
	}
	for c.T[u.k+1] < t {
		u.k++
	}
	lo, hi := u.k, u.k+1
	return c.X[lo] + (c.X[hi]-c.X[lo])*float64(t-c.T[lo])/float64(c.T[hi]-c.T[lo])
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
