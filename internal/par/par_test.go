package par

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestForEachVisitsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		for _, p := range []int{0, 1, 3, 64} {
			seen := make([]atomic.Int32, n)
			ForEach(n, p, func(i int) { seen[i].Add(1) })
			for i := range seen {
				require.Equal(t, int32(1), seen[i].Load(), "n=%d par=%d: visits of index %d", n, p, i)
			}
		}
	}
}

// Do stops starting indices after the first error and returns it; a
// cancelled context stops it too.
func TestDoStops(t *testing.T) {
	boom := errors.New("boom")
	var calls atomic.Int32
	err := Do(context.Background(), 100000, 4, func(i int) error {
		calls.Add(1)
		if i == 10 {
			return boom
		}
		return nil
	})
	require.ErrorIs(t, err, boom)
	require.Less(t, calls.Load(), int32(100000), "calls: Do went on after the error")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, Do(ctx, 10, 2, func(int) error { return nil }), context.Canceled)
	require.NoError(t, Do(context.Background(), 1000, 3, func(int) error { return nil }))
}

// DoEach hands out one index at a time: with two goroutines, index 1 is
// taken by the second while the first still works on index 0 (in chunks,
// one goroutine would take both and wait for itself). With one, the
// indices come in order. It stops after an error, as Do does.
func TestDoEachHandsOutOneAtATime(t *testing.T) {
	started := make(chan struct{})
	err := DoEach(context.Background(), 1000, 2, func(i int) error {
		switch i {
		case 0:
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				return errors.New("index 1 did not start while index 0 ran")
			}
		case 1:
			close(started)
		}
		return nil
	})
	require.NoError(t, err)
	var order []int
	require.NoError(t, DoEach(context.Background(), 50, 1, func(i int) error { order = append(order, i); return nil }))
	want := make([]int, 50)
	for i := range want {
		want[i] = i
	}
	require.Equal(t, want, order, "with one goroutine: the indices in the order visited")
	boom := errors.New("boom")
	var calls atomic.Int32
	err = DoEach(context.Background(), 100000, 3, func(i int) error {
		calls.Add(1)
		if i == 5 {
			return boom
		}
		return nil
	})
	require.ErrorIs(t, err, boom)
	require.Less(t, calls.Load(), int32(100000), "calls: DoEach went on after the error")
}
