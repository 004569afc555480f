package par

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
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
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	if err := DoEach(context.Background(), 50, 1, func(i int) error { order = append(order, i); return nil }); err != nil {
		t.Fatal(err)
	}
	for i, v := range order {
		if v != i {
			t.Fatalf("with one goroutine index %d came at place %d", v, i)
		}
	}
	if len(order) != 50 {
		t.Fatalf("%d indices visited, want 50", len(order))
	}
	boom := errors.New("boom")
	var calls atomic.Int32
	err = DoEach(context.Background(), 100000, 3, func(i int) error {
		calls.Add(1)
		if i == 5 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || calls.Load() >= 100000 {
		t.Fatalf("got %v after %d calls, want boom and a stop", err, calls.Load())
	}
}
