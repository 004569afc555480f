package clockmodel

import (
	"cmp"
	"math"
	"slices"

	"github.com/clc-tools/clc/replay"
)

// span is a range of indices: of a recList's bounds, or of unknowns.
type span struct{ lo, hi int32 }

// pair holds the bounds between two domains p < q: from p to q (lower
// bounds on x_q − x_p) and from q to p (upper bounds), point to point and
// collective, each a time-ordered range of its list.
type pair struct {
	p, q  int32
	intra bool       // both domains on one node: the intra-node μ applies
	seg   [2][2]span // [source: p2p, collective][direction: p→q, q→p]
}

// pairsOf groups the sorted bound lists by unordered domain pair.
func pairsOf(lists [2]*recList, dom *Domains) []pair {
	idx := map[uint64]int{}
	var out []pair
	for src, rs := range lists {
		if rs == nil {
			continue
		}
		for ri := range rs.runs {
			lo, hi := rs.runs[ri].lo, rs.runEnd(ri)
			a, b := rs.runs[ri].a, rs.runs[ri].b
			p, q, dir := a, b, 0
			if b < a {
				p, q, dir = b, a, 1
			}
			key := uint64(uint32(p))<<32 | uint64(uint32(q))
			k, ok := idx[key]
			if !ok {
				k = len(out)
				idx[key] = k
				np, nq := dom.Node[p], dom.Node[q]
				out = append(out, pair{p: p, q: q, intra: np >= 0 && np == nq})
			}
			out[k].seg[src][dir] = span{int32(lo), int32(hi)}
		}
	}
	slices.SortFunc(out, func(x, y pair) int {
		if c := cmp.Compare(x.p, y.p); c != 0 {
			return c
		}
		return cmp.Compare(x.q, y.q)
	})
	return out
}

// band is what one window of a domain pair says about δ = x_q − x_p: it
// lies in [lo, hi] around time t, if the clocks' difference is the one
// the current model gives within the window plus a constant (the window's
// bounds are read relative to the model). lo > hi means the bounds
// contradict each other (the latency is asymmetric, μ too large, or the
// model's shape wrong). A band with only one side has the other infinite.
type band struct {
	p, q   int32
	t      int64
	lo, hi float64
	nlo    int32
	nhi    int32
	// class is the source of its bounds (srcP2P, srcColl); group the
	// index of its pair and class in estimator.groups (set by windows).
	class uint8
	group int32
	// sigma is the random uncertainty of the band's midpoint (set by
	// weigh).
	sigma float64
}

// excess is the band's width beyond its group's narrowest band, w0 wide.
func (b *band) excess(w0 float64) float64 { return math.Abs(b.hi - b.lo - w0) }

// The sources of bounds, the indices of the lists of a pair's bounds.
const (
	srcP2P  = 0
	srcColl = 1
)

func (b *band) twoSided() bool { return b.nlo > 0 && b.nhi > 0 }

// mid is the band's estimate of δ.
func (b *band) mid() float64 { return (b.lo + b.hi) / 2 }

// windowOptions say how bounds are grouped into windows.
type windowOptions struct {
	// perSide is the number of bounds each direction needs before a
	// window closes.
	perSide int
	// maxSpan is the longest window, ticks: a window that reaches it
	// closes with what it has.
	maxSpan int64
}

// bands cuts the bounds of pair pr from source src (srcP2P, srcColl) into
// windows, each closing once it has opt.perSide bounds in each direction
// (or reaches opt.maxSpan), and returns per window the tightest lower and
// upper bound on δ, read relative to the model m: the window's band for
// δ − δ_m shifted by δ_m at the band's time. The two sources are windowed
// apart: their fastest messages need not be equally fast (a collective's
// logical messages run through its algorithm's tree), so each source's
// midpoints may be off by an amount of their own (estimator.groups).
func bands(pr *pair, src uint8, lists [2]*recList, lat replay.Latency, m *Model, opt windowOptions, out []band) []band {
	mu := float64(lat.Inter)
	if pr.intra {
		mu = float64(lat.Intra)
	}
	// Merge the two directions' time-ordered streams: per direction a
	// cursor, and the bound at its head (has: one is left).
	seg, list := pr.seg[src], lists[src]
	var cur [2]recCursor
	var head [2]rec
	var has [2]bool
	take := func(d int) {
		has[d] = cur[d].i < int(seg[d].hi)
		if has[d] {
			head[d], _ = cur[d].next()
		}
	}
	for d := range 2 {
		cur[d] = list.cursor(int(seg[d].lo))
		take(d)
	}
	next := func() (r rec, dir int, ok bool) {
		bd := -1
		var bt int64
		for d := range 2 {
			if has[d] {
				t := head[d].t
				if bd < 0 || t < bt {
					bd, bt = d, t
				}
			}
		}
		if bd < 0 {
			return rec{}, 0, false
		}
		r = head[bd]
		take(bd)
		return r, bd, true
	}
	cp, cq := cursor{c: m.curve(pr.p)}, cursor{c: m.curve(pr.q)}
	var w band
	var wstart int64
	var tlo, thi int64
	reset := func() {
		w = band{p: pr.p, q: pr.q, class: src, lo: math.Inf(-1), hi: math.Inf(1)}
	}
	flush := func() {
		if w.nlo == 0 && w.nhi == 0 {
			return
		}
		switch {
		case w.twoSided():
			w.t = tlo + (thi-tlo)/2
		case w.nlo > 0:
			w.t = tlo
		default:
			w.t = thi
		}
		dm := cq.at(w.t) - cp.at(w.t)
		w.lo += dm
		w.hi += dm
		out = append(out, w)
		reset()
	}
	reset()
	for {
		r, dir, ok := next()
		if !ok {
			break
		}
		if (w.nlo > 0 || w.nhi > 0) && r.t-wstart > opt.maxSpan {
			flush()
		}
		if w.nlo == 0 && w.nhi == 0 {
			wstart = r.t
		}
		dm := cq.at(r.t) - cp.at(r.t)
		if dir == 0 { // p → q: δ ≥ μ − d
			v := mu - float64(r.d) - dm
			if v > w.lo {
				w.lo, tlo = v, r.t
			}
			w.nlo++
		} else { // q → p: δ ≤ d − μ
			v := float64(r.d) - mu - dm
			if v < w.hi {
				w.hi, thi = v, r.t
			}
			w.nhi++
		}
		if int(w.nlo) >= opt.perSide && int(w.nhi) >= opt.perSide {
			flush()
		}
	}
	flush()
	return out
}

// weigh sets the uncertainty of each two-sided band of one group (a pair
// and a source) and returns the uncertainty of the group's bias, the
// group's noise floor and its narrowest two-sided band's width w0.
//
// A band's midpoint is off δ by half the difference of the excess delays
// of its fastest messages each way, plus half the difference of the two
// directions' minimum latencies (the asymmetry). The narrowest band of the
// group measures the pair's round trip at its fastest; the width a band
// has beyond it is what its fastest messages were slower than the pair's
// fastest, which bounds the first part, and the fastest messages
// themselves were slower than the minimum by an amount of the order of
// the network's jitter (noise, the group's floor): σ = √((excess/2)² +
// noise²). noise ≤ 0 means a first guess, half the first quartile's excess
// (at least floor): estimator.calibrate refines it from the residuals.
// The asymmetry is the same in every band of the group — averaging many
// bands does not remove it — so it is one unknown per group (the bias),
// of which the messages only say that it lies within half the narrowest
// width on either side: uniform there, σ = w0/(2√3).
func weigh(bs []band, floor, noise float64) (sigmaBias, noiseUsed, w0 float64) {
	w0 = math.Inf(1)
	var ex []float64
	for i := range bs {
		if bs[i].twoSided() {
			w0 = math.Min(w0, bs[i].hi-bs[i].lo)
		}
	}
	if math.IsInf(w0, 1) {
		return 0, 0, 0
	}
	for i := range bs {
		if b := &bs[i]; b.twoSided() {
			ex = append(ex, b.excess(w0))
		}
	}
	if noise <= 0 {
		slices.Sort(ex)
		noise = ex[len(ex)/4] / 2
	}
	noise = math.Max(noise, floor)
	for i := range bs {
		if b := &bs[i]; b.twoSided() {
			b.sigma = math.Hypot(b.excess(w0)/2, noise)
		}
	}
	return math.Max(math.Abs(w0)/(2*math.Sqrt(3)), floor), noise, w0
}
