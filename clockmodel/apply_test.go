package clockmodel

import (
	"math"
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
	times, orig := randomColumns(rng, locs, 2000, 10000)
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

// Reapplying another model that differs only within a span of times gives
// what applying it from scratch gives, with Original still exact: from a
// model with small, large (beyond int32) or no corrections, with the change
// inside, at the start or at the end of the run, and back again.
func TestReapplyChangesOnlyTheSpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := range 200 {
		const locs = 4
		dom := &Domains{Of: []int32{0, 1, 1, 2}, Size: []int32{1, 2, 1}}
		knots := []int64{0, 2e6, 4e6, 6e6, 8e6, 1e7}
		curve := func(scale float64) Curve {
			x := make([]float64, len(knots))
			for i := range x {
				x[i] = rng.NormFloat64() * scale
			}
			return Curve{T: knots, X: x}
		}
		scales := []float64{300, 3e9, 0}
		from := &Model{Curves: []Curve{{}, curve(scales[it%3]), curve(scales[(it/3)%3])}}
		if scales[it%3] == 0 {
			from.Curves[1] = Curve{}
		}
		if scales[(it/3)%3] == 0 {
			from.Curves[2] = Curve{}
		}
		// to: from with knots i0..i1 of domain d moved.
		to := &Model{Curves: slices.Clone(from.Curves)}
		changed := make([]span64, 3)
		for d := range changed {
			changed[d] = span64{1, 0}
		}
		d := 1 + rng.IntN(2)
		i0 := rng.IntN(len(knots))
		i1 := i0 + rng.IntN(len(knots)-i0)
		x := make([]float64, len(knots))
		for i, tk := range knots {
			x[i] = from.at(int32(d), tk)
			if i >= i0 && i <= i1 {
				x[i] += rng.NormFloat64() * 5000
			}
		}
		to.Curves[d] = Curve{T: knots, X: x}
		changed[d] = span64{math.MinInt64, math.MaxInt64}
		if i0 > 0 {
			changed[d].lo = knots[i0-1]
		}
		if i1 < len(knots)-1 {
			changed[d].hi = knots[i1+1]
		}
		times, orig := randomColumns(rng, locs, 500, 40000)
		a := from.applyInPlace(times, dom, 2)
		prev := make([][]int64, locs)
		for li := range times {
			prev[li] = slices.Clone(times[li])
		}
		moved := a.reapply(times, dom, to, changed, 2)
		want := to.Apply(orig, dom, 2)
		for li := range times {
			require.Equal(t, want[li], times[li], "case %d: location %d", it, li)
			require.Equal(t, orig[li], a.undo[li].original(times[li]), "case %d: original of location %d", it, li)
			// Every event that moved is in the range reapply returns.
			for j := range times[li] {
				if times[li][j] != prev[li][j] {
					require.True(t, moved[li][0] <= j && j < moved[li][1], "case %d: location %d event %d moved outside %v", it, li, j, moved[li])
				}
			}
		}
		a.reapply(times, dom, from, changed, 2)
		back := from.Apply(orig, dom, 2)
		for li := range times {
			require.Equal(t, back[li], times[li], "case %d: back at location %d", it, li)
		}
	}
}

// randomColumns returns locs ascending time columns of n to 2n events,
// steps below step, and a copy of them.
func randomColumns(rng *rand.Rand, locs, n int, step int) (times, orig [][]int64) {
	times = make([][]int64, locs)
	orig = make([][]int64, locs)
	for li := range times {
		t := int64(rng.IntN(1000))
		for range n + rng.IntN(n) {
			t += int64(rng.IntN(step))
			times[li] = append(times[li], t)
		}
		orig[li] = slices.Clone(times[li])
	}
	return times, orig
}
