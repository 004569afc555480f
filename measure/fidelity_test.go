package measure

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The shortcut for unchanged columns (one slice for before and after)
// gives what comparing two equal copies gives, and every location counts
// in the denominators of a mixed trace.
func TestIntervalFidelityUnchangedColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := 1 + rng.IntN(6)
		c := make([][]int64, n)
		lc := make([][]int64, n)
		for li := range c {
			t0 := rng.Int64N(1000) - 500
			for range rng.IntN(40) {
				t0 += rng.Int64N(50) - 5 // not sorted everywhere
				c[li] = append(c[li], t0)
			}
			lc[li] = slices.Clone(c[li])
			if rng.IntN(2) == 0 {
				for j := range lc[li] {
					lc[li][j] += rng.Int64N(3)
				}
			}
		}
		wantP, wantD := IntervalFidelity(c, lc, 2)
		gotP, gotD := IntervalFidelityOf(n, 2, func(li int) ([]int64, []int64) {
			if slices.Equal(c[li], lc[li]) {
				return c[li], c[li]
			}
			return c[li], lc[li]
		})
		require.Equal(t, wantP, gotP)
		require.Equal(t, wantD, gotD)
	}
}
