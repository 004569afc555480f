package clockmodel

import (
	"cmp"
	"math"
	"slices"

	"github.com/clc-tools/clc/replay"
)

// span is a range of a sorted []rec.
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
func pairsOf(lists [2][]rec, dom *Domains) []pair {
	idx := map[uint64]int{}
	var out []pair
	for src, rs := range lists {
		for lo := 0; lo < len(rs); {
			hi := lo + 1
			for hi < len(rs) && rs[hi].a == rs[lo].a && rs[hi].b == rs[lo].b {
				hi++
			}
			a, b := rs[lo].a, rs[lo].b
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
			lo = hi
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
	// sigma is the uncertainty of the band's midpoint and excess its
	// width beyond the pair's narrowest band (set by weigh).
	sigma, excess float64
}

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

// bands cuts the bounds of pair pr into windows, each closing once it has
// opt.perSide bounds in each direction (or reaches opt.maxSpan), and
// returns per window the tightest lower and upper bound on δ, read
// relative to the model m: the window's band for δ − δ_m shifted by δ_m
// at the band's time.
func bands(pr *pair, lists [2][]rec, lat replay.Latency, m *Model, opt windowOptions, out []band) []band {
	mu := float64(lat.Inter)
	if pr.intra {
		mu = float64(lat.Intra)
	}
	// Merge the four time-ordered streams.
	var pos [2][2]int32
	for s := range 2 {
		for d := range 2 {
			pos[s][d] = pr.seg[s][d].lo
		}
	}
	next := func() (r *rec, dir int, ok bool) {
		bs, bd := -1, -1
		var bt int64
		for s := range 2 {
			for d := range 2 {
				if pos[s][d] < pr.seg[s][d].hi {
					t := lists[s][pos[s][d]].t
					if bs < 0 || t < bt {
						bs, bd, bt = s, d, t
					}
				}
			}
		}
		if bs < 0 {
			return nil, 0, false
		}
		r = &lists[bs][pos[bs][bd]]
		pos[bs][bd]++
		return r, bd, true
	}
	cp, cq := cursor{c: m.curve(pr.p)}, cursor{c: m.curve(pr.q)}
	var w band
	var wstart int64
	var tlo, thi int64
	reset := func() {
		w = band{p: pr.p, q: pr.q, lo: math.Inf(-1), hi: math.Inf(1)}
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

// weigh sets the uncertainty of each two-sided band of one pair: half its
// width beyond the pair's narrowest band, plus floor and half the narrowest
// width. The narrowest band measures the pair's round trip at its fastest
// (2μ plus whatever μ underestimates the true minimum latencies); the
// width beyond it is what the window's fastest messages were slower than
// the pair's fastest, which bounds the error of the window's midpoint.
func weigh(bs []band, floor float64) {
	w0 := math.Inf(1)
	for i := range bs {
		if bs[i].twoSided() {
			w0 = math.Min(w0, bs[i].hi-bs[i].lo)
		}
	}
	for i := range bs {
		b := &bs[i]
		if !b.twoSided() {
			continue
		}
		b.excess = math.Abs(b.hi - b.lo - w0)
		b.sigma = b.excess/2 + floor + math.Abs(w0)/4
	}
}
