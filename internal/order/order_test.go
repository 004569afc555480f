package order

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// Nth is the k-th smallest value, as sorting finds it, on random inputs
// with many and with few distinct values.
func TestNthMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for it := range 2000 {
		n := 1 + rng.IntN(300)
		spread := int64(1 + rng.IntN(1000))
		if it%3 == 0 {
			spread = 3 // many equal values
		}
		xs := make([]int64, n)
		for i := range xs {
			xs[i] = rng.Int64N(spread)
		}
		sorted := slices.Sorted(slices.Values(xs))
		k := rng.IntN(n)
		require.Equal(t, sorted[k], Nth(slices.Clone(xs), k), "iteration %d: n %d k %d", it, n, k)
	}
}

// Nth on floats, as the clock model's prior uses it.
func TestNthFloats(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for it := range 500 {
		n := 1 + rng.IntN(200)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = rng.NormFloat64()
		}
		sorted := slices.Sorted(slices.Values(xs))
		k := rng.IntN(n)
		require.Equal(t, sorted[k], Nth(slices.Clone(xs), k), "iteration %d", it)
	}
}
