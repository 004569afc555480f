package clockmodel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// denseSolve solves the normal equations of s by Gaussian elimination: the
// oracle for the conjugate gradients.
func denseSolve(s *system) []float64 {
	n := s.n
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
	}
	for _, r := range s.rows {
		for x := range r.n {
			for y := range r.n {
				a[r.j[x]][r.j[y]] += r.w * r.c[x] * r.c[y]
			}
			a[r.j[x]][n] += r.w * r.c[x] * r.y
		}
	}
	for c := range n {
		p := c
		for i := c + 1; i < n; i++ {
			if math.Abs(a[i][c]) > math.Abs(a[p][c]) {
				p = i
			}
		}
		a[c], a[p] = a[p], a[c]
		for i := c + 1; i < n; i++ {
			f := a[i][c] / a[c][c]
			for j := c; j <= n; j++ {
				a[i][j] -= f * a[c][j]
			}
		}
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		v := a[i][n]
		for j := i + 1; j < n; j++ {
			v -= a[i][j] * x[j]
		}
		x[i] = v / a[i][i]
	}
	return x
}

// randomSystem builds a problem shaped like the estimator's: nd blocks of
// k knots with second-difference rows of weight smooth, a ridge, and
// random two-block rows between consecutive knots of two blocks.
func randomSystem(rng *rand.Rand, nd, k int, smooth float64) *system {
	s := &system{n: nd * k, np: 2}
	for d := range nd {
		lo := int32(d * k)
		s.blocks = append(s.blocks, span{lo, lo + int32(k)})
		for i := 1; i+1 < k; i++ {
			s.rows = append(s.rows, row{n: 3, j: [4]int32{lo + int32(i) - 1, lo + int32(i), lo + int32(i) + 1}, c: [4]float64{-1, 2, -1}, w: smooth})
		}
		for i := range k {
			s.rows = append(s.rows, row{n: 1, j: [4]int32{lo + int32(i)}, c: [4]float64{1}, w: 1e-9})
		}
	}
	for range 6 * nd * k {
		a, b := rng.IntN(nd), rng.IntN(nd)
		if a == b {
			continue
		}
		i, u := rng.IntN(k-1), rng.Float64()
		r := row{n: 4, w: 1 / (0.01 + rng.Float64()), y: 100 * rng.NormFloat64()}
		r.j = [4]int32{int32(a*k + i), int32(a*k + i + 1), int32(b*k + i), int32(b*k + i + 1)}
		r.c = [4]float64{1 - u, u, u - 1, -u}
		s.rows = append(s.rows, r)
	}
	// One block tied to 0 (the reference's role).
	for i := range k {
		s.rows = append(s.rows, row{n: 1, j: [4]int32{int32(i)}, c: [4]float64{1}, w: 10})
	}
	return s
}

func TestSolveMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		nd, k  int
		smooth float64
	}{{2, 5, 1}, {6, 8, 100}, {12, 6, 1e6}, {20, 4, 0.01}} {
		{
			s := randomSystem(rng, tc.nd, tc.k, tc.smooth)
			want := denseSolve(s)
			got := make([]float64, s.n)
			it, err := s.solve(context.Background(), got, 1e-12, 10*s.n)
			require.NoError(t, err)
			var scale float64
			for _, v := range want {
				scale = math.Max(scale, math.Abs(v))
			}
			for i := range want {
				require.InDelta(t, want[i], got[i], 1e-6*scale+1e-9, "nd %d k %d smooth %g: unknown %d (%d iterations)", tc.nd, tc.k, tc.smooth, i, it)
			}
			t.Logf("nd %d k %d smooth %g: %d iterations", tc.nd, tc.k, tc.smooth, it)
		}
	}
}
