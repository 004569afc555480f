package clockmodel

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// Applying a model in place gives Apply's times, Original gives back the
// times it started from, and restoring leaves every column bit-identical:
// with corrections that fit the int32 differences and with ones that do
// not (a location then keeps a copy), on locations without a curve too.
func TestApplyInPlaceUndo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const locs = 6
	dom := &Domains{Of: []int32{0, 1, 1, 2, 3, 3}, Size: []int32{1, 2, 1, 2}}
	m := &Model{Curves: []Curve{
		{}, // reference: no curve
		{T: []int64{0, 5e6, 1e7}, X: []float64{-1500.4, 2200.6, -300}},            // small, crossing zero
		{T: []int64{0, 1e7}, X: []float64{3e9, -3e9}},                             // beyond int32 from the start
		{T: []int64{0, 4e6, 4e6 + 1, 1e7}, X: []float64{-700, 900, 2.5e9, 2.5e9}}, // small, then beyond int32
	}}
	times := make([][]int64, locs)
	for li := range times {
		t := int64(rng.IntN(1000))
		for range 2000 + rng.IntN(2000) {
			t += int64(rng.IntN(10000))
			times[li] = append(times[li], t)
		}
	}
	orig := make([][]int64, locs)
	for li, ts := range times {
		orig[li] = slices.Clone(ts)
	}
	want := m.Apply(times, dom, 2)
	for li := range times {
		require.Equal(t, orig[li], times[li], "Apply changed its input at location %d", li)
	}
	a := m.applyInPlace(times, dom, 2)
	for li := range times {
		require.Equal(t, want[li], times[li], "location %d", li)
		require.Equal(t, orig[li], a.undo[li].original(times[li]), "original of location %d", li)
	}
	require.NotNil(t, a.undo[4].orig, "a correction beyond int32 keeps a copy")
	require.NotNil(t, a.undo[1].delta, "a small correction keeps differences")
	a.restore(times, 2, func(li int) bool { return li%2 == 1 })
	for li := range times {
		if li%2 == 1 {
			require.Equal(t, orig[li], times[li], "restored location %d", li)
		} else {
			require.Equal(t, want[li], times[li], "location %d not restored", li)
		}
	}
	a.restore(times, 2, func(int) bool { return true })
	require.Equal(t, orig, times)
}
