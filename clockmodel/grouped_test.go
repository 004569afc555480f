package clockmodel

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// groupedSystem is randomSystem with its two-block rows cut into groups of
// consecutive rows that share an eliminated bias, half of them with a
// prior: the normal matrix then has the groups' low-rank terms, which the
// blocks' preconditioner takes by Woodbury's identity.
func groupedSystem(rng *rand.Rand, nd, k int) *system {
	s := randomSystem(rng, nd, k, 1e3, nil)
	first := 0
	for first < len(s.rows) && s.rows[first].len() != 4 {
		first++
	}
	for lo := first; lo < len(s.rows); {
		hi := min(len(s.rows), lo+5+rng.IntN(40))
		for i := lo; i < hi; i++ {
			if s.rows[i].len() != 4 {
				hi = i
				break
			}
		}
		if hi == lo {
			break
		}
		wb := 0.0
		if rng.IntN(2) == 0 {
			wb = 1 / (1 + rng.Float64())
		}
		s.groups = append(s.groups, rowGroup{lo: int32(lo), hi: int32(hi), wb: wb})
		lo = hi
	}
	return s
}

// denseGroupedSolve solves s's least-squares problem with each group's
// bias as an unknown of its own (row·x + b − y; the bias's prior weight
// wb), by Gaussian elimination on the normal equations of the augmented
// problem, and returns the knots' part: what the solver reaches by
// eliminating the biases, found without eliminating them.
func denseGroupedSolve(s *system) []float64 {
	n, ng := s.n, len(s.groups)
	m := n + ng
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, m+1)
	}
	groupOf := make([]int, len(s.rows))
	for i := range groupOf {
		groupOf[i] = -1
	}
	for gi, g := range s.groups {
		for i := g.lo; i < g.hi; i++ {
			groupOf[i] = gi
		}
		a[n+gi][n+gi] += g.wb
	}
	for i := range s.rows {
		r := &s.rows[i]
		js, cs := make([]int, 0, 5), make([]float64, 0, 5)
		for k := range r.len() {
			js, cs = append(js, int(r.j[k])), append(cs, r.c[k])
		}
		if g := groupOf[i]; g >= 0 {
			js, cs = append(js, n+g), append(cs, 1)
		}
		for x := range js {
			for y := range js {
				a[js[x]][js[y]] += s.w[i] * cs[x] * cs[y]
			}
			a[js[x]][m] += s.w[i] * cs[x] * r.y
		}
	}
	for gi := range s.groups {
		if a[n+gi][n+gi] == 0 {
			a[n+gi][n+gi] = 1 // a bias without weight or prior: 0, no pull
		}
	}
	return gaussSolve(a)[:n]
}

// The solver, which eliminates the groups' biases (their terms summed
// within the part of the rows that holds each group), reaches the
// solution of the problem with the biases as unknowns of their own, in
// parts of any size (groups cut by the parts' equal shares move the
// boundaries) and on any number of goroutines; some groups lose all their
// weight, as a cross-validation's held-out windows do.
func TestGroupedSolveMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, nd := range []int{3, 6} {
		s := groupedSystem(rng, nd, 16)
		require.Greater(t, len(s.groups), 4)
		for _, g := range s.groups[:2] {
			for i := g.lo; i < g.hi; i++ {
				s.w[i] = 0
			}
		}
		want := denseGroupedSolve(s)
		for _, partRows := range []int{0, 13, 41} {
			for _, np := range []int{1, 3} {
				s.partRows, s.np = partRows, np
				s.coarse, s.coarseTried, s.lr = nil, false, nil
				got := make([]float64, s.n)
				it, err := s.solve(context.Background(), got, 1e-12, 20*s.n, nil)
				require.NoError(t, err)
				requireClose(t, want, got, "%d domains, parts of %d rows, %d goroutines (%d iterations)", nd, partRows, np, it)
			}
		}
	}
}

// Parts end where groups end: each boundary of partBounds lies outside
// every group, the boundaries ascend and cover the rows.
func TestPartBoundsKeepGroupsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	s := groupedSystem(rng, 5, 20)
	nr := s.rowCount()
	for _, np := range []int{1, 2, 3, 7, 16} {
		b := s.partBounds(np, nr)
		require.Len(t, b, np+1)
		require.Zero(t, b[0])
		require.Equal(t, nr, b[np])
		for w := 1; w < np; w++ {
			require.LessOrEqual(t, b[w-1], b[w], "%d parts", np)
			for _, g := range s.groups {
				require.False(t, int(g.lo) < b[w] && b[w] < int(g.hi), "%d parts: boundary %d inside group [%d, %d)", np, b[w], g.lo, g.hi)
			}
		}
	}
}

// BenchmarkMul measures one product by the normal matrix (the groups'
// terms included) of a system shaped like the estimator's at 64 domains
// of 256 knots, on one goroutine.
func BenchmarkMul(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := groupedSystem(rng, 64, 256)
	s.np = 1
	s.lowRanks()
	v, y := make([]float64, s.n), make([]float64, s.n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	b.ReportMetric(float64(len(s.rows)), "rows")
	for b.Loop() {
		s.mul(v, y)
	}
}
