package clockmodel

import (
	"context"
	"math"
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
	for first < len(s.rows) && s.rows[first].n != 4 {
		first++
	}
	for lo := first; lo < len(s.rows); {
		hi := min(len(s.rows), lo+5+rng.IntN(40))
		for i := lo; i < hi; i++ {
			if s.rows[i].n != 4 {
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

// The batched solves (multiCG) reach, column by column, the solution the
// single solve reaches for the same right-hand side, with and without the
// coarse level, and noiseRHS builds the right-hand side that the rows'
// own y would give (solver.rhs with the noise set as the rows' y).
func TestMultiCGMatchesSingleSolves(t *testing.T) {
	for _, tc := range []struct {
		nd, k  int
		coarse bool
	}{{6, 16, false}, {24, 64, true}} {
		rng := rand.New(rand.NewPCG(11, uint64(tc.nd)))
		s := groupedSystem(rng, tc.nd, tc.k)
		s.coarseTried = !tc.coarse
		sv := s.prepare()
		require.Equal(t, tc.coarse, sv.cs != nil)
		require.NotEmpty(t, s.lr)
		wood := 0
		for _, b := range sv.blocks {
			wood += b.k
		}
		require.Positive(t, wood, "some block takes groups' terms")

		const cols = 3
		n := s.n
		b := make([]float64, n*cols)
		for k := range cols {
			sv.noiseRHS(rand.New(rand.NewPCG(1, uint64(k))), b, k, cols)
			// the oracle: the noise as the rows' y, then solver.rhs
			r := rand.New(rand.NewPCG(1, uint64(k)))
			ys := make([]float64, len(s.rows))
			for i := range s.rows {
				ys[i] = s.rows[i].y
				s.rows[i].y = 0
				if s.rows[i].w > 0 {
					s.rows[i].y = r.NormFloat64() / math.Sqrt(s.rows[i].w)
				}
			}
			for _, g := range s.groups {
				if g.wb > 0 {
					d := r.NormFloat64() / math.Sqrt(g.wb)
					for i := g.lo; i < g.hi; i++ {
						s.rows[i].y += d
					}
				}
			}
			want := sv.rhs()
			for i := range s.rows {
				s.rows[i].y = ys[i]
			}
			got := make([]float64, n)
			for j := range n {
				got[j] = b[j*cols+k]
			}
			requireClose(t, want, got, "right-hand side of column %d", k)
		}
		m := newMultiCG(sv, cols)
		x := make([]float64, n*cols)
		it, err := m.solve(context.Background(), x, b, 1e-12, 10*n)
		require.NoError(t, err)
		for k := range cols {
			col := make([]float64, n)
			for j := range n {
				col[j] = b[j*cols+k]
			}
			want := make([]float64, n)
			one, err := sv.solve(context.Background(), want, col, 1e-12, 10*n)
			require.NoError(t, err)
			got := make([]float64, n)
			for j := range n {
				got[j] = x[j*cols+k]
			}
			requireClose(t, want, got, "nd %d column %d (%d iterations batched, %d alone)", tc.nd, k, it, one)
		}
	}
}
