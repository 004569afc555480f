package measure

import (
	"math"
	"slices"
	"sort"

	"github.com/clc-tools/clc/comm"
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

// fidWords is the number of 64-bit words of a fidAcc (words).
const fidWords = 22

// words writes a into w (fidWords words), fromWords reads it back.
func (a *fidAcc) words(w []uint64) {
	f := math.Float64bits
	copy(w, []uint64{uint64(a.n), f(a.maxRel), uint64(a.maxAbs), f(a.finRel), uint64(a.finLen[0]), uint64(a.finLen[1]),
		uint64(a.opened), uint64(a.openedMax), f(a.sumDev), f(a.sumLen)})
	for k := range a.above {
		w[10+k], w[16+k] = uint64(a.above[k]), f(a.aboveTime[k])
	}
}

func (a *fidAcc) fromWords(w []uint64) {
	f := math.Float64frombits
	*a = fidAcc{n: int64(w[0]), maxRel: f(w[1]), maxAbs: int64(w[2]), finRel: f(w[3]), finLen: [2]int64{int64(w[4]), int64(w[5])},
		opened: int64(w[6]), openedMax: int64(w[7]), sumDev: f(w[8]), sumLen: f(w[9])}
	for k := range a.above {
		a.above[k], a.aboveTime[k] = int64(w[10+k]), f(w[16+k])
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
	return IntervalFidelityDivided(n, np, nil, nil, cols)
}

// IntervalFidelityDivided is IntervalFidelityOf for a trace divided among
// the processes of g (nil: one process): cols is called for the own
// locations only, and every process's per-location sums are gathered and
// merged in the locations' order, as one process merges them, so that
// every process gets the one process's result bit for bit.
func IntervalFidelityDivided(n, np int, own []bool, g *comm.Group, cols func(li int) (c, lc []int64)) (position, distance Fidelity) {
	pos := make([]fidAcc, n)
	dis := make([]fidAcc, n)
	par.ForEach(n, np, func(li int) {
		if own != nil && !own[li] {
			return
		}
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
	if g != nil {
		type both struct{ p, d fidAcc }
		rows := make([]both, n)
		for li := range rows {
			rows[li] = both{pos[li], dis[li]}
		}
		GatherRows(g, "the fidelity of the local intervals", own, rows, 2*fidWords,
			func(b *both, w []uint64) { b.p.words(w[:fidWords]); b.d.words(w[fidWords:]) },
			func(w []uint64, b *both) { b.p.fromWords(w[:fidWords]); b.d.fromWords(w[fidWords:]) })
		for li := range rows {
			pos[li], dis[li] = rows[li].p, rows[li].d
		}
	}
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
	return AccuracyDivided(times, truth, nil, nil)
}

// AccuracyDivided is AccuracyOf for a trace divided among the processes of
// g (nil: one process), of which this process holds the own locations'
// times and true times: the sums are made per location and added in the
// locations' order on every process, and the percentile is found by a
// search over the distances' values with one allreduce per step (at most
// 64), so that every process gets the one process's result bit for bit.
func AccuracyDivided(times, truth [][]int64, own []bool, g *comm.Group) Accuracy {
	type locAcc struct {
		n           int64
		abs, signed float64
		max         int64
	}
	rows := make([]locAcc, len(times))
	n := 0
	for li := range times {
		if own == nil || own[li] {
			n += len(times[li])
		}
	}
	dist := make([]int64, 0, n)
	for li := range times {
		if own != nil && !own[li] {
			continue
		}
		r := &rows[li]
		for j, v := range times[li] {
			e := v - truth[li][j]
			r.signed += float64(e)
			if e < 0 {
				e = -e
			}
			r.abs += float64(e)
			r.max = max(r.max, e)
			dist = append(dist, e)
		}
		r.n = int64(len(times[li]))
	}
	GatherRows(g, "the distances to the true times", own, rows, 4,
		func(r *locAcc, w []uint64) {
			w[0], w[1], w[2], w[3] = uint64(r.n), math.Float64bits(r.abs), math.Float64bits(r.signed), uint64(r.max)
		},
		func(w []uint64, r *locAcc) {
			*r = locAcc{int64(w[0]), math.Float64frombits(w[1]), math.Float64frombits(w[2]), int64(w[3])}
		})
	var a Accuracy
	var abs, signed float64
	for _, r := range rows {
		a.Events += r.n
		abs += r.abs
		signed += r.signed
		a.MaxAbs = max(a.MaxAbs, r.max)
	}
	if a.Events > 0 {
		a.MeanAbs = abs / float64(a.Events)
		a.MeanSigned = signed / float64(a.Events)
		a.P99Abs = nth(dist, a.Events*99/100, a.MaxAbs, g)
	}
	return a
}

// nth returns the k-th smallest (from 0) of the distances of every
// process (this one's: dist, which it may reorder; hi: the largest of all).
func nth(dist []int64, k, hi int64, g *comm.Group) int64 {
	if g == nil {
		return order.Nth(dist, int(k))
	}
	slices.Sort(dist)
	lo := int64(0)
	// The smallest x with more than k distances ≤ x, in [lo, hi].
	for lo < hi && g.Err() == nil {
		mid := lo + (hi-lo)/2
		c := []int64{int64(sort.Search(len(dist), func(i int) bool { return dist[i] > mid }))}
		g.Int64("the percentile of the distances to the true times", comm.Sum, c)
		if c[0] > k {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
