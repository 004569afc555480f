package htmlreport

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/internal/tracelabel"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/trace"
)

// Bins divides a span of time into N equal bins: bin i covers
// [Start + i·Width, Start + (i+1)·Width), in ticks.
type Bins struct {
	Start, Width int64
	N            int
}

// NewBins returns n bins (at least one) that cover [lo, hi].
func NewBins(lo, hi int64, n int) Bins {
	n = max(n, 1)
	if hi < lo {
		hi = lo
	}
	span := uint64(hi-lo) + 1 // hi − lo may exceed MaxInt64 only by wrapping; uint64 holds it
	w := span / uint64(n)
	if span%uint64(n) != 0 {
		w++
	}
	return Bins{Start: lo, Width: int64(max(w, 1)), N: n}
}

// Of returns the bin of time t; times outside the span go to the first or
// last bin.
func (b Bins) Of(t int64) int {
	if t < b.Start {
		return 0
	}
	i := uint64(t-b.Start) / uint64(b.Width)
	if i >= uint64(b.N) {
		return b.N - 1
	}
	return int(i)
}

// Mid returns the time in the middle of bin i.
func (b Bins) Mid(i int) int64 { return b.Start + int64(i)*b.Width + b.Width/2 }

// Domains says which locations share a clock: Of[l] is the domain of
// location l, Names[d] the name of domain d.
type Domains struct {
	Of    []int32
	Names []string
	// Unit names what a domain is ("node", "location").
	Unit string
}

// NodeDomains makes one clock domain per node of t: the locations of a
// node share its clock.
func NodeDomains(t *trace.Trace) Domains {
	d := Domains{Of: make([]int32, len(t.Locations)), Names: tracelabel.Nodes(t), Unit: "node"}
	for i, l := range t.Locations {
		d.Of[i] = l.Node
	}
	return d
}

// LocationDomains makes one clock domain per location of t.
func LocationDomains(t *trace.Trace) Domains {
	d := Domains{Of: make([]int32, len(t.Locations)), Names: tracelabel.Locations(t), Unit: "location"}
	for i := range t.Locations {
		d.Of[i] = int32(i)
	}
	return d
}

// members returns the locations of each domain, in ascending order.
func (d *Domains) members() [][]int32 {
	m := make([][]int32, len(d.Names))
	for l, dom := range d.Of {
		m[dom] = append(m[dom], int32(l))
	}
	return m
}

func (d *Domains) check(locations int) error {
	if len(d.Of) != locations {
		return fmt.Errorf("clock domains: %d locations, the trace has %d", len(d.Of), locations)
	}
	for l, dom := range d.Of {
		if dom < 0 || int(dom) >= len(d.Names) {
			return fmt.Errorf("clock domains: location %d is in domain %d of %d", l, dom, len(d.Names))
		}
	}
	return nil
}

// ClockError is one estimate of every clock domain's error over time, on
// common time bins. Err[d*Bins.N+b] is the error of domain d in time bin b,
// in seconds, NaN where the estimate has no value.
//
// What the error is depends on its use: Input.Assumed holds the clock error
// the pre-synchronisation assumed (local clock − reference clock); the
// estimates in Input.Estimates hold the error left in the pre-synchronised
// times (pre-synchronised time − true time), so that the truth, the shift
// the correction applied and a clock model's estimate can be compared.
type ClockError struct {
	// Source names the estimate ("truth", "correction", "clock model").
	Source string
	Bins   Bins
	Err    []float64
	// Band, when not nil, is the estimate's error bar per domain and bin
	// (like Err): the half-width, in seconds, of its interval (NaN: none,
	// +Inf: unbounded); the page shades it around the domains it draws.
	Band []float64
}

// NewClockError returns an estimate for domains clock domains with no
// value yet.
func NewClockError(source string, bins Bins, domains int) *ClockError {
	e := &ClockError{Source: source, Bins: bins, Err: make([]float64, domains*bins.N)}
	for i := range e.Err {
		e.Err[i] = math.NaN()
	}
	return e
}

// Domains returns the number of domains.
func (e *ClockError) Domains() int { return len(e.Err) / max(e.Bins.N, 1) }

// At returns the error of domain d in bin b.
func (e *ClockError) At(d, b int) float64 { return e.Err[d*e.Bins.N+b] }

// Set sets the error of domain d in bin b.
func (e *ClockError) Set(d, b int, seconds float64) { e.Err[d*e.Bins.N+b] = seconds }

// bandRow returns domain d's error bar per bin, or nil without one.
func (e *ClockError) bandRow(d int) []float64 {
	if e.Band == nil {
		return nil
	}
	return e.Band[d*e.Bins.N : (d+1)*e.Bins.N]
}

// row returns the values of domain d.
func (e *ClockError) row(d int) []float64 { return e.Err[d*e.Bins.N : (d+1)*e.Bins.N] }

// SampleError fills an estimate from a function: f(d, t) is the error of
// domain d at time t (ticks) in seconds, or false where it has none. It
// is evaluated at the middle of every bin; this is how a clock model's
// per-domain error functions enter the page.
func SampleError(source string, bins Bins, domains int, f func(d int, t int64) (float64, bool)) *ClockError {
	e := NewClockError(source, bins, domains)
	for d := 0; d < domains; d++ {
		for b := 0; b < bins.N; b++ {
			if v, ok := f(d, bins.Mid(b)); ok {
				e.Set(d, b, v)
			}
		}
	}
	return e
}

// AssumedError is the clock error pre-synchronisation assumed: for each
// domain (represented by its first location's correction funcs[l], which
// maps local to reference time), local clock − reference clock at the
// middle of each bin, in seconds; res is the timer resolution. The bins
// are in reference time; the local time of a reference time is found by
// one fixed-point step, exact to the square of the drift.
func AssumedError(funcs []*presync.Func, dom Domains, bins Bins, res uint64) *ClockError {
	members := dom.members()
	return SampleError("pre-synchronisation", bins, len(dom.Names), func(d int, t int64) (float64, bool) {
		if len(members[d]) == 0 {
			return 0, false
		}
		f := funcs[members[d][0]]
		if f == nil || f.Identity() {
			return 0, true
		}
		local := t - (f.At(t) - t)
		return float64(local-f.At(local)) / float64(res), true
	})
}

// eventMean averages x − y (ticks) over the events of each domain and bin,
// binned by times, into seconds.
func eventMean(source string, times, x, y [][]int64, dom Domains, bins Bins, res uint64, np int) *ClockError {
	return eventSums(times, x, y, nil, dom, bins, np).clockError(source, res)
}

// errSums are the sums of x − y over the events of each domain and bin
// ([domain·bins + bin]) and the events counted: exact (128 bits, hi·2⁶⁴ +
// lo), so that they do not depend on the order of the additions, and the
// sums of the parts of a divided trace are the whole trace's, bit for bit.
type errSums struct {
	bins    Bins
	domains int
	cnt     []int64
	hi      []int64
	lo      []uint64
}

func newErrSums(domains int, bins Bins) *errSums {
	n := domains * bins.N
	return &errSums{bins: bins, domains: domains, cnt: make([]int64, n), hi: make([]int64, n), lo: make([]uint64, n)}
}

// add adds d to entry k.
func (s *errSums) add(k int, d int64) {
	var c uint64
	s.lo[k], c = bits.Add64(s.lo[k], uint64(d), 0)
	s.hi[k] += d>>63 + int64(c)
	s.cnt[k]++
}

// merge adds o's entry k (cnt events summing to hi·2⁶⁴ + lo) to entry k.
func (s *errSums) merge(k int, cnt, hi int64, lo uint64) {
	var c uint64
	s.lo[k], c = bits.Add64(s.lo[k], lo, 0)
	s.hi[k] += hi + int64(c)
	s.cnt[k] += cnt
}

// sum returns entry k's sum, rounded to the nearest float64.
func (s *errSums) sum(k int) float64 {
	hi, lo := s.hi[k], s.lo[k]
	if hi == int64(lo)>>63 { // fits in an int64
		return float64(int64(lo))
	}
	v := new(big.Int).Lsh(big.NewInt(hi), 64)
	v.Add(v, new(big.Int).SetUint64(lo))
	f, _ := new(big.Float).SetInt(v).Float64()
	return f
}

// eventSums sums x − y (ticks) over the events of each domain and bin,
// binned by times, of the locations own marks (nil: all).
func eventSums(times, x, y [][]int64, own []bool, dom Domains, bins Bins, np int) *errSums {
	members := dom.members()
	s := newErrSums(len(dom.Names), bins)
	par.ForEach(len(members), np, func(d int) {
		row := d * bins.N
		for _, l := range members[d] {
			if own != nil && !own[l] {
				continue
			}
			xl, yl := x[l], y[l]
			for j, t := range times[l] {
				s.add(row+bins.Of(t), xl[j]-yl[j])
			}
		}
	})
	return s
}

// clockError returns the means of the sums, in seconds (res ticks each).
func (s *errSums) clockError(source string, res uint64) *ClockError {
	e := NewClockError(source, s.bins, s.domains)
	for k, n := range s.cnt {
		if n > 0 {
			e.Err[k] = s.sum(k) / float64(n) / float64(res)
		}
	}
	return e
}

// ShiftError is the error of the pre-synchronised times c that the
// correction lc implies: pre-synchronised − corrected time, averaged per
// domain and bin of c. The CLC alone moves events only later, which makes
// it ≤ 0; with the clock model, which moves them both ways, it has either
// sign.
func ShiftError(c, lc [][]int64, dom Domains, bins Bins, res uint64, np int) *ClockError {
	return eventMean("correction", c, c, lc, dom, bins, res, np)
}

// TruthError is the true error of the pre-synchronised times c:
// pre-synchronised − true time, averaged per domain and bin of c.
func TruthError(c, truth [][]int64, dom Domains, bins Bins, res uint64, np int) *ClockError {
	return eventMean("truth", c, c, truth, dom, bins, res, np)
}

// band is the spread over domains of an estimate, per bin: quantiles 0,
// 0.1, 0.5, 0.9 and 1 of the domains that have a value (NaN where none).
type band struct {
	Q [5][]float64
}

var bandQuantiles = [5]float64{0, 0.1, 0.5, 0.9, 1}

func bandOf(e *ClockError, np int) band {
	var bd band
	for k := range bd.Q {
		bd.Q[k] = make([]float64, e.Bins.N)
	}
	nd := e.Domains()
	par.ForEach(e.Bins.N, np, func(b int) {
		vals := make([]float64, 0, nd)
		for d := 0; d < nd; d++ {
			if v := e.At(d, b); !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		slices.Sort(vals)
		for k, q := range bandQuantiles {
			if len(vals) == 0 {
				bd.Q[k][b] = math.NaN()
				continue
			}
			bd.Q[k][b] = vals[int(math.Round(q*float64(len(vals)-1)))]
		}
	})
	return bd
}

// worst returns up to k domains with the largest |error| in any bin, in
// descending order of it; domains with no error above zero are left out.
func worst(e *ClockError, k int) []int {
	nd := e.Domains()
	score := make([]float64, nd)
	var idx []int
	for d := 0; d < nd; d++ {
		for _, v := range e.row(d) {
			if !math.IsNaN(v) {
				score[d] = math.Max(score[d], math.Abs(v))
			}
		}
		if score[d] > 0 {
			idx = append(idx, d)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		}
		return 0
	})
	return idx[:min(k, len(idx))]
}
