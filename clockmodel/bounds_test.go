package clockmodel

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSortedRecListMatchesComparatorSort checks the sort of bounds into a
// recList against a comparison sort on the full key, on random lists with
// many repeated pairs and times.
func TestSortedRecListMatchesComparatorSort(t *testing.T) {
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
			before := slices.Clone(rs)
			l := sortedRecList(rs)
			require.Equal(t, want, append([]rec{}, slices.Collect(l.all())...), "n=%d domains=%d", n, nd)
			require.Equal(t, before, rs, "the bounds left as they were")
		}
	}
}

// A recList gives back the sorted bounds it was made of, whole and from
// any position to any other (across runs and marks), on random lists with
// times of any sign and size, delays of any sign and runs of any length.
func TestRecListIsItsBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, recMarkEvery - 1, recMarkEvery, recMarkEvery + 1, 3000} {
		for _, nd := range []int32{1, 2, 40} {
			rs := make([]rec, n)
			for i := range rs {
				rs[i] = rec{a: rng.Int32N(nd), b: rng.Int32N(nd), t: rng.Int64() >> rng.UintN(63), d: rng.Int64() >> rng.UintN(63)}
				if rng.IntN(2) == 0 {
					rs[i].t, rs[i].d = -rs[i].t, -rs[i].d
				}
			}
			l := sortedRecList(rs)
			slices.SortFunc(rs, func(x, y rec) int {
				return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b), cmp.Compare(x.t, y.t), cmp.Compare(x.d, y.d))
			})
			require.Equal(t, n, l.len())
			require.Equal(t, rs, append([]rec{}, slices.Collect(l.all())...), "n=%d domains=%d", n, nd)
			for range 50 {
				lo := rng.IntN(n + 1)
				hi := lo + rng.IntN(n-lo+1)
				require.Equal(t, rs[lo:hi], append([]rec{}, slices.Collect(l.between(lo, hi))...), "n=%d domains=%d [%d, %d)", n, nd, lo, hi)
			}
		}
	}
	var none *recList
	require.Zero(t, none.len())
	require.Empty(t, slices.Collect(none.all()))
}
