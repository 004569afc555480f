package presync

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ApplyComparing maps the times as ApplyColumns does, and its runs give, for
// every event, the applied correction's time minus the reader's, as mapping
// each time through both does; a location whose corrections are equal gets
// no runs; the sums count the events that differ and the largest
// differences.
func TestDepartures(t *testing.T) {
	a0, err := New(offs(0, 0, 1_000_000, 0), Interpolate)
	require.NoError(t, err)
	r1, err := New(offs(400_000, -30, 1_000_000, -19), Interpolate)
	require.NoError(t, err)
	a0copy, err := New(offs(0, 0, 1_000_000, 0), Interpolate)
	require.NoError(t, err)
	times := make([][]int64, 3)
	for j := int64(0); j < 1200; j++ {
		times[0] = append(times[0], j*1000)
		times[1] = append(times[1], j*1000+7)
		times[2] = append(times[2], j*900)
	}
	applied := []*Func{a0, a0, a0}
	reader := []*Func{a0copy, r1, {}}
	want := make([][]int64, len(times))
	mapped := make([][]int64, len(times))
	var n, later, earlier int64
	for li, ts := range times {
		ca, cr := applied[li].Cursor(), reader[li].Cursor()
		for _, v := range ts {
			a := ca.At(v)
			x := a - cr.At(v)
			want[li], mapped[li] = append(want[li], x), append(mapped[li], a)
			if x != 0 {
				n++
				later, earlier = max(later, x), max(earlier, -x)
			}
		}
	}
	_, deps, sum, err := ApplyComparing(context.Background(), applied, reader, times, 2)
	require.NoError(t, err)
	require.Len(t, deps, 3)
	assert.Empty(t, deps[0].From, "location 0: equal corrections, no runs")
	assert.Empty(t, deps[2].From, "location 2: both the identity")
	for li, ts := range times {
		assert.Equal(t, mapped[li], ts, "location %d: the applied correction's times", li)
		for j := range ts {
			assert.Equal(t, want[li][j], deps[li].At(j), "location %d event %d", li, j)
		}
	}
	assert.Positive(t, n, "location 1's reader times differ")
	assert.Less(t, len(deps[1].From), 100, "location 1: runs, not one entry per event")
	assert.Equal(t, DepartureStats{Events: n, MaxLater: later, MaxEarlier: earlier}, sum)
}
