package par

import (
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
