package htmlreport

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// errSums hold their sums exactly: added in any order, or in parts merged
// (as the processes of a divided page send them, encode),
// they give the same bits, and each sum is the exact sum (math/big)
// rounded once — past 2⁵³, where float64 sums round, and past 2⁶³.
func TestErrSumsAreExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	const entries = 6
	var vals [entries][]int64
	for k := range vals {
		for range 2000 {
			var v int64
			switch k {
			case 0: // small, either sign
				v = rng.Int64N(2001) - 1000
			case 1: // large positive: the sum passes 2⁶³
				v = math.MaxInt64 - rng.Int64N(1000)
			case 2: // large negative
				v = math.MinInt64 + rng.Int64N(1000)
			default: // ±2⁵⁰: float64 sums round
				v = rng.Int64N(1<<51) - 1<<50
			}
			vals[k] = append(vals[k], v)
		}
	}
	whole := newErrSums(entries, Bins{N: 1})
	for k := range vals {
		for _, v := range vals[k] {
			whole.add(k, v)
		}
	}
	// Three parts in shuffled order, merged through the encoding.
	parts := []*errSums{newErrSums(entries, Bins{N: 1}), newErrSums(entries, Bins{N: 1}), newErrSums(entries, Bins{N: 1})}
	for k := range vals {
		for _, i := range rng.Perm(len(vals[k])) {
			parts[i%3].add(k, vals[k][i])
		}
	}
	merged := parts[0]
	for _, p := range parts[1:] {
		require.NoError(t, merged.mergeFrom(p.encode()))
	}
	for k := range vals {
		exact := new(big.Int)
		for _, v := range vals[k] {
			exact.Add(exact, big.NewInt(v))
		}
		want, _ := new(big.Float).SetInt(exact).Float64()
		assert.Equal(t, want, whole.sum(k), "entry %d: the exact sum rounded once", k)
		assert.Equal(t, whole.sum(k), merged.sum(k), "entry %d: merged parts", k)
		assert.Equal(t, whole.cnt[k], merged.cnt[k], "entry %d: events", k)
	}
	assert.Error(t, merged.mergeFrom([]byte{200}), "a truncated entry")
	assert.Error(t, merged.mergeFrom(newErrSumsWith(entries+1).encode()), "an entry past the sums")
}

// newErrSumsWith returns sums of n entries with an event in the last.
func newErrSumsWith(n int) *errSums {
	s := newErrSums(n, Bins{N: 1})
	s.add(n-1, 1)
	return s
}
