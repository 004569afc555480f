package htmlreport

import (
	"math"
	"math/bits"
	"sync"

	"github.com/clc-tools/clc/internal/par"
)

// shiftBinsPerDecade is the resolution of the shift histogram.
const shiftBinsPerDecade = 5

// shiftBins covers shifts up to 10^19 ticks (more than 2^63).
const shiftBins = 19*shiftBinsPerDecade + 1

// Shifts is the distribution of the corrected − pre-synchronised time of
// every event, on a logarithmic scale: bin k counts the shifts d with
// 10^(k/5) ≤ |d| < 10^((k+1)/5) ticks, separately for events moved later
// (d > 0) and earlier (d < 0).
type Shifts struct {
	Events  int64
	Unmoved int64
	Later   []int64
	Earlier []int64
	// MaxLater and MaxEarlier are the largest |d| of each sign, in ticks.
	MaxLater, MaxEarlier int64
}

// shiftEdges[k] = 10^(k/5) ticks, the lower edge of bin k.
var shiftEdges = func() []float64 {
	e := make([]float64, shiftBins+1)
	for k := range e {
		e[k] = math.Pow(10, float64(k)/shiftBinsPerDecade)
	}
	return e
}()

// shiftBin returns the bin of |d| ≥ 1 tick.
func shiftBin(d int64) int {
	// log10(d) ≈ (bit length − 1) · log10(2), within one bin or two of
	// the answer; the loops below settle it.
	k := min(int(float64(bits.Len64(uint64(d))-1)*math.Log10(2)*shiftBinsPerDecade), shiftBins-1)
	// correct rounding at the edges
	for k > 0 && float64(d) < shiftEdges[k] {
		k--
	}
	for k+1 < shiftBins && float64(d) >= shiftEdges[k+1] {
		k++
	}
	return k
}

// CountShifts returns the distribution of lc − c over all events.
func CountShifts(c, lc [][]int64, np int) Shifts { return countShifts(c, lc, nil, np) }

// countShifts is CountShifts over the events of the locations own marks
// (nil: all).
func countShifts(c, lc [][]int64, own []bool, np int) Shifts {
	newShifts := func() *Shifts {
		return &Shifts{Later: make([]int64, shiftBins), Earlier: make([]int64, shiftBins)}
	}
	// Each worker counts into its own histogram (integer counts and
	// maxima: the merge does not depend on who counted what).
	var mu sync.Mutex
	var parts []*Shifts
	par.ForEachWith(len(c), np, func() *Shifts {
		s := newShifts()
		mu.Lock()
		parts = append(parts, s)
		mu.Unlock()
		return s
	}, func(s *Shifts, l int) {
		if own != nil && !own[l] {
			return
		}
		for j, v := range c[l] {
			d := lc[l][j] - v
			switch {
			case d > 0:
				s.Later[shiftBin(d)]++
				s.MaxLater = max(s.MaxLater, d)
			case d < 0:
				s.Earlier[shiftBin(-d)]++
				s.MaxEarlier = max(s.MaxEarlier, -d)
			default:
				s.Unmoved++
			}
		}
		s.Events += int64(len(c[l]))
	})
	total := newShifts()
	for _, s := range parts {
		total.Events += s.Events
		total.Unmoved += s.Unmoved
		total.MaxLater = max(total.MaxLater, s.MaxLater)
		total.MaxEarlier = max(total.MaxEarlier, s.MaxEarlier)
		for k := range s.Later {
			total.Later[k] += s.Later[k]
			total.Earlier[k] += s.Earlier[k]
		}
	}
	return *total
}
