package measure

import (
	"math"

	"github.com/clc-tools/clc/internal/order"
	"github.com/clc-tools/clc/internal/par"
)

// Thresholds are the relative deviations the fidelity statistics count
// intervals above (the paper's Table 4): 0, 0.01 %, 0.1 %, 1 %, 10 %, 100 %.
var Thresholds = [6]float64{0, 1e-4, 1e-3, 1e-2, 1e-1, 1}

// Fidelity describes how well a correction kept the lengths of local
// intervals (paper, section 6.2 and Table 4).
type Fidelity struct {
	Intervals int64
	// MaxRel is the largest relative deviation |t′−t|/t (a fraction; +Inf
	// for an interval of length 0 that got a length).
	MaxRel float64
	// MaxAbs is the largest absolute deviation |t′−t| in ticks.
	MaxAbs int64
	// MaxRelFinite is the largest relative deviation over the intervals
	// of a length other than 0, and MaxRelLen the lengths before and after
	// of the interval where it occurred (ticks): what "the largest relative
	// change" means for the reader (an interval of 10 ns that became 19 ns
	// is a change of 90 %).
	MaxRelFinite float64
	MaxRelLen    [2]int64
	// Opened counts the intervals of length 0 that got a length (two
	// events at one time that the correction moved apart; each makes
	// MaxRel infinite), and OpenedMax the largest length one got (ticks).
	Opened    int64
	OpenedMax int64
	// WeightedAvg is Σ|t′−t| / Σ|t|.
	WeightedAvg float64
	// Above[k] is the share of intervals whose relative deviation exceeds
	// Thresholds[k]; AboveTime[k] the share of the total interval length
	// they take.
	Above     [6]float64
	AboveTime [6]float64
}

type fidAcc struct {
	n         int64
	maxRel    float64
	maxAbs    int64
	finRel    float64
	finLen    [2]int64
	opened    int64
	openedMax int64
	sumDev    float64
	sumLen    float64
	above     [6]int64
	aboveTime [6]float64
}

func (a *fidAcc) add(t, t2 int64) {
	a.n++
	dev := t2 - t
	if dev < 0 {
		dev = -dev
	}
	a.maxAbs = max(a.maxAbs, dev)
	lt := math.Abs(float64(t))
	a.sumDev += float64(dev)
	a.sumLen += lt
	if dev == 0 {
		return
	}
	rel := math.Inf(1)
	if t != 0 {
		rel = float64(dev) / lt
		if rel > a.finRel {
			a.finRel, a.finLen = rel, [2]int64{t, t2}
		}
	} else {
		a.opened++
		a.openedMax = max(a.openedMax, dev)
	}
	a.maxRel = math.Max(a.maxRel, rel)
	for k, th := range Thresholds {
		if rel > th {
			a.above[k]++
			a.aboveTime[k] += lt
		}
	}
}

// same adds the intervals from t0 to each of ts[1:], unchanged.
func (a *fidAcc) same(ts []int64, t0 int64) {
	for _, t := range ts[1:] {
		a.sumLen += math.Abs(float64(t - t0))
	}
	a.n += int64(len(ts) - 1)
}

// sameSteps adds the intervals between successive ts, unchanged.
func (a *fidAcc) sameSteps(ts []int64) {
	for j := 1; j < len(ts); j++ {
		a.sumLen += math.Abs(float64(ts[j] - ts[j-1]))
	}
	a.n += int64(len(ts) - 1)
}

func (a *fidAcc) merge(o *fidAcc) {
	a.n += o.n
	a.maxRel = math.Max(a.maxRel, o.maxRel)
	a.maxAbs = max(a.maxAbs, o.maxAbs)
	if o.finRel > a.finRel {
		a.finRel, a.finLen = o.finRel, o.finLen
	}
	a.opened += o.opened
	a.openedMax = max(a.openedMax, o.openedMax)
	a.sumDev += o.sumDev
	a.sumLen += o.sumLen
	for k := range a.above {
		a.above[k] += o.above[k]
		a.aboveTime[k] += o.aboveTime[k]
	}
}

func (a *fidAcc) result() Fidelity {
	f := Fidelity{Intervals: a.n, MaxRel: a.maxRel, MaxAbs: a.maxAbs, MaxRelFinite: a.finRel, MaxRelLen: a.finLen,
		Opened: a.opened, OpenedMax: a.openedMax}
	if a.sumLen > 0 {
		f.WeightedAvg = a.sumDev / a.sumLen
	}
	for k := range a.above {
		if a.n > 0 {
			f.Above[k] = float64(a.above[k]) / float64(a.n)
		}
		if a.sumLen > 0 {
			f.AboveTime[k] = a.aboveTime[k] / a.sumLen
		}
	}
	return f
}

// IntervalFidelity compares the local intervals of the original times c and
// the corrected times lc: the event position (from the first event of the
// location to each event) and the event distance (between successive events).
func IntervalFidelity(c, lc [][]int64, np int) (position, distance Fidelity) {
	return IntervalFidelityOf(len(c), np, func(li int) ([]int64, []int64) { return c[li], lc[li] })
}

// IntervalFidelityOf is IntervalFidelity with the columns of n locations
// given by cols, which is called once per location (concurrently for
// different ones) and may build them on demand. Where both columns are one
// slice (nothing moved), only the intervals' lengths are summed.
func IntervalFidelityOf(n, np int, cols func(li int) (c, lc []int64)) (position, distance Fidelity) {
	pos := make([]fidAcc, n)
	dis := make([]fidAcc, n)
	par.ForEach(n, np, func(li int) {
		// Accumulated in locals and stored once: neighbouring locations'
		// accumulators share cache lines that another worker writes.
		var p, d fidAcc
		a, b := cols(li)
		if len(a) > 0 && len(b) == len(a) && &a[0] == &b[0] {
			p.same(a, a[0])
			d.sameSteps(a)
		} else {
			for j := 1; j < len(a); j++ {
				p.add(a[j]-a[0], b[j]-b[0])
				d.add(a[j]-a[j-1], b[j]-b[j-1])
			}
		}
		pos[li], dis[li] = p, d
	})
	var p, d fidAcc
	for i := range pos {
		p.merge(&pos[i])
		d.merge(&dis[i])
	}
	return p.result(), d.result()
}

// Accuracy compares times with the true times of the same events, both in
// the reference clock.
type Accuracy struct {
	Events int64
	// MeanAbs, P99Abs and MaxAbs are the mean, the 99th percentile and the
	// largest |time − truth| in ticks.
	MeanAbs float64
	P99Abs  int64
	MaxAbs  int64
	// MeanSigned is the mean time − truth in ticks.
	MeanSigned float64
}

// AccuracyOf returns the accuracy of times against truth. The percentile
// takes a copy of the distances (8 bytes per event, while it runs).
func AccuracyOf(times, truth [][]int64) Accuracy {
	var a Accuracy
	var abs, signed float64
	n := 0
	for li := range times {
		n += len(times[li])
	}
	dist := make([]int64, 0, n)
	for li := range times {
		for j, v := range times[li] {
			e := v - truth[li][j]
			signed += float64(e)
			if e < 0 {
				e = -e
			}
			abs += float64(e)
			a.MaxAbs = max(a.MaxAbs, e)
			dist = append(dist, e)
		}
	}
	a.Events = int64(n)
	if n > 0 {
		a.MeanAbs = abs / float64(n)
		a.MeanSigned = signed / float64(n)
		a.P99Abs = order.Nth(dist, n*99/100)
	}
	return a
}
