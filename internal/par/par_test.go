package par

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

func TestForEachVisitsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		for _, p := range []int{0, 1, 3, 64} {
			seen := make([]atomic.Int32, n)
			ForEach(n, p, func(i int) { seen[i].Add(1) })
			for i := range seen {
				if got := seen[i].Load(); got != 1 {
					t.Fatalf("n=%d par=%d: index %d visited %d times", n, p, i, got)
				}
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
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
	if n := calls.Load(); n >= 100000 {
		t.Fatalf("%d calls: Do went on after the error", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Do(ctx, 10, 2, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if err := Do(context.Background(), 1000, 3, func(int) error { return nil }); err != nil {
		t.Fatal(err)
	}
}
