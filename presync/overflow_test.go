package presync

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/trace"
)

// Offsets whose interpolation leaves the 64-bit range: events at local
// time 2^62 came out at a few thousand ticks, silently (issue 26).
func TestOverflowIsAnError(t *testing.T) {
	steep, err := New([]trace.ClockOffset{{Time: 0, Offset: 0}, {Time: 1000, Offset: 2000}}, Interpolate)
	require.NoError(t, err)
	huge, err := New([]trace.ClockOffset{{Time: 0, Offset: math.MaxInt64 - 10}, {Time: 10, Offset: math.MaxInt64 - 10}}, Interpolate)
	require.NoError(t, err)
	low, err := New([]trace.ClockOffset{{Time: 0, Offset: math.MinInt64 + 5}, {Time: 10, Offset: math.MinInt64 + 5}}, Interpolate)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		f    *Func
		t    int64
	}{
		{"slope", steep, 1 << 62},
		{"offset", huge, 11},
		{"below", low, -6},
		{"float", steep, math.MaxInt64},
	} {
		times := [][]int64{{1, 2}, {5, 6, c.t, 7}}
		_, err := ApplyColumns(context.Background(), []*Func{steep, c.f}, times, 1)
		require.ErrorIs(t, err, ErrOverflow, c.name)
		var ee *trace.EventError
		require.True(t, errors.As(err, &ee), c.name)
		assert.Equal(t, 1, ee.Location, c.name)
		assert.Equal(t, 2, ee.Event, c.name)
	}
	// In range, even when the sum passes through a wrap: the exact value.
	times := [][]int64{{math.MaxInt64 - 20, 9}}
	_, err = ApplyColumns(context.Background(), []*Func{huge}, [][]int64{{-20}}, 1)
	require.NoError(t, err)
	n, err := ApplyColumns(context.Background(), []*Func{low}, times, 1)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, []int64{math.MaxInt64 - 20 + math.MinInt64 + 5, 9 + math.MinInt64 + 5}, times[0])
}

// A cancelled context stops ApplyColumns.
func TestApplyColumnsIsCancelled(t *testing.T) {
	f, err := New([]trace.ClockOffset{{Time: 0, Offset: 0}, {Time: 1000, Offset: 1}}, Interpolate)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = ApplyColumns(ctx, []*Func{f}, [][]int64{make([]int64, 1<<17)}, 1)
	require.ErrorIs(t, err, context.Canceled)
}
