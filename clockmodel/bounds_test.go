package clockmodel

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSortRecsMatchesComparatorSort checks the counting sort of bounds
// against a comparison sort on the full key, on random lists with many
// repeated pairs and times.
func TestSortRecsMatchesComparatorSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 17, 1000, 5000} {
		for _, nd := range []int32{1, 3, 50} {
			rs := make([]rec, n)
			for i := range rs {
				rs[i] = rec{a: rng.Int32N(nd), b: rng.Int32N(nd), t: rng.Int64N(40), d: rng.Int64N(5)}
			}
			if runs := n / 100; runs > 0 {
				// Ascending runs (per receiving location) with ties
				// and a few inversions: the merge.
				for i := range rs {
					rs[i].t = int64(i%(n/runs)) * 3
					if rng.IntN(50) == 0 {
						rs[i].t -= 4
					}
				}
			}
			want := slices.Clone(rs)
			slices.SortFunc(want, func(x, y rec) int {
				return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b), cmp.Compare(x.t, y.t), cmp.Compare(x.d, y.d))
			})
			sortRecs(rs)
			require.Equal(t, want, rs, "n=%d domains=%d", n, nd)
		}
	}
}
