package clockmodel

import (
	"slices"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/replay"
)

// rec is one bound between two clock domains: a logical message from
// domain a to domain b whose receive came d ticks after its send (in the
// pre-synchronised times), around time t. With true minimum latency μ it
// says x_b − x_a ≥ μ − d for the corrections x of the two domains.
type rec struct {
	a, b int32
	t    int64
	d    int64
}

// gatherer collects the cross-domain bounds of a trace.
type gatherer struct {
	times [][]int64
	g     *replay.Graph
	dom   *Domains
	np    int
	dv    *Division
	// bin is the width of the time bins in which only the tightest bound
	// of each ordered domain pair and receiving location is kept.
	lo, bin int64
}

func newGatherer(times [][]int64, g *replay.Graph, dom *Domains, np int, dv *Division) *gatherer {
	lo, hi := dv.span(times)
	return &gatherer{times: times, g: g, dom: dom, np: max(np, 1), dv: dv, lo: lo, bin: max(1, (hi-lo)/8192)}
}

// p2p returns the bounds of the point-to-point messages between domains,
// keeping per receiving location, sending domain and time bin only the
// message with the smallest delay.
func (ga *gatherer) p2p() []rec {
	n := len(ga.times)
	parts := make([][]rec, n)
	// last holds, per sending domain, the index in out of its latest
	// bound, valid where stamp is the location's epoch (one per worker).
	type scratch struct {
		last, stamp []int32
		epoch       int32
	}
	nd := ga.dom.Count()
	par.ForEachWith(n, ga.np, func() *scratch {
		return &scratch{last: make([]int32, nd), stamp: make([]int32, nd)}
	}, func(sc *scratch, li int) {
		sc.epoch++
		var out []rec
		b := ga.dom.Of[li]
		ts := ga.times[li]
		for _, dep := range ga.g.Deps[li] {
			if dep.Role != replay.RoleRecv {
				continue
			}
			a := ga.dom.Of[dep.Peer]
			if a == b {
				continue
			}
			s, r := ga.times[dep.Peer][dep.Ref], ts[dep.Idx]
			t := s + (r-s)/2
			if k := sc.last[a]; sc.stamp[a] == sc.epoch && (out[k].t-ga.lo)/ga.bin == (t-ga.lo)/ga.bin {
				if r-s < out[k].d {
					out[k].t, out[k].d = t, r-s
				}
				continue
			}
			sc.last[a], sc.stamp[a] = int32(len(out)), sc.epoch
			out = append(out, rec{a: a, b: b, t: t, d: r - s})
		}
		parts[li] = out
	})
	return ga.dv.gatherRecs("the messages' bounds", parts, n)
}

// collectives returns bounds from the collective instances (scans left
// out): per instance, the latest logical send and the earliest logical
// receive of each domain, in the times corrected by m (nil: none); then
// from the domain(s) with the latest send to every receiving domain, and
// from every sending domain to the domain(s) with the earliest receive.
// Those are the instance's tightest bounds; the others follow from them.
// The bounds themselves are in pre-synchronised times.
func (ga *gatherer) collectives(m *Model) []rec {
	nd := ga.dom.Count()
	insts := ga.g.Instances
	parts := make([][]rec, len(insts))
	type scratch struct {
		stamp            []uint32
		epoch            uint32
		send, recv       []int64 // pre-synchronised
		csend, crecv     []float64
		doms             []int32
		hasSend, hasRecv []bool
	}
	newScratch := func() *scratch {
		return &scratch{stamp: make([]uint32, nd), send: make([]int64, nd), recv: make([]int64, nd),
			csend: make([]float64, nd), crecv: make([]float64, nd), hasSend: make([]bool, nd), hasRecv: make([]bool, nd)}
	}
	par.ForEachWith(len(insts), ga.np, newScratch, func(s *scratch, ii int) {
		in := &insts[ii]
		if in.Class == replay.ClassScan || !mpiMessages(in) || !ga.dv.counts(ii) {
			return
		}
		s.epoch++
		s.doms = s.doms[:0]
		for _, p := range ga.g.InstanceParts(uint32(ii)) {
			d := ga.dom.Of[p.Loc]
			if s.stamp[d] != s.epoch {
				s.stamp[d] = s.epoch
				s.hasSend[d], s.hasRecv[d] = false, false
				s.doms = append(s.doms, d)
			}
			ts := ga.times[p.Loc]
			if p.Send != replay.NoEvent {
				t := ts[p.Send]
				c := float64(t) + m.at(d, t)
				if !s.hasSend[d] || c > s.csend[d] {
					s.send[d], s.csend[d], s.hasSend[d] = t, c, true
				}
			}
			if p.Recv != replay.NoEvent {
				t := ts[p.Recv]
				c := float64(t) + m.at(d, t)
				if !s.hasRecv[d] || c < s.crecv[d] {
					s.recv[d], s.crecv[d], s.hasRecv[d] = t, c, true
				}
			}
		}
		if len(s.doms) < 2 {
			return
		}
		top := 2
		if len(s.doms) > 64 {
			top = 1
		}
		// The latest senders and the earliest receivers.
		var late, early [2]int32
		nl, ne := 0, 0
		for _, d := range s.doms {
			if s.hasSend[d] {
				nl = insertTop(late[:], nl, top, d, func(a, b int32) bool { return s.csend[a] > s.csend[b] })
			}
			if s.hasRecv[d] {
				ne = insertTop(early[:], ne, top, d, func(a, b int32) bool { return s.crecv[a] < s.crecv[b] })
			}
		}
		var out []rec
		add := func(a, b int32) {
			if a == b {
				return
			}
			snd, rcv := s.send[a], s.recv[b]
			out = append(out, rec{a: a, b: b, t: snd + (rcv-snd)/2, d: rcv - snd})
		}
		for _, l := range late[:nl] {
			for _, b := range s.doms {
				if s.hasRecv[b] {
					add(l, b)
				}
			}
		}
		for _, e := range early[:ne] {
			for _, a := range s.doms {
				if s.hasSend[a] && !contains(late[:nl], a) {
					add(a, e)
				}
			}
		}
		parts[ii] = out
	})
	return ga.dv.gatherRecs("the collectives' bounds", parts, len(insts))
}

// insertTop keeps the top k of a list ordered by better, returning its new
// length.
func insertTop(top []int32, n, k int, d int32, better func(a, b int32) bool) int {
	i := n
	for i > 0 && better(d, top[i-1]) {
		i--
	}
	if i >= k {
		return n
	}
	if n < k {
		n++
	}
	copy(top[i+1:n], top[i:n-1])
	top[i] = d
	return n
}

func contains(xs []int32, x int32) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func concat(parts [][]rec) []rec {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]rec, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// recBefore orders bounds by time, then delay.
func recBefore(x, y *rec) bool { return x.t < y.t || x.t == y.t && x.d < y.d }

// sortByTime orders g by time and delay: a merge of its ascending runs
// (a pair's bounds are a few runs, one per receiving location or stretch
// of collective instances) through buf, of g's length; a comparison sort
// when the runs are short. runs is scratch, returned for reuse.
func sortByTime(g, buf []rec, runs []int) []int {
	runs = append(runs[:0], 0)
	for i := 1; i < len(g); i++ {
		if recBefore(&g[i], &g[i-1]) {
			runs = append(runs, i)
		}
	}
	switch {
	case len(runs) == 1:
		return runs
	case len(runs) > len(g)/16:
		slices.SortFunc(g, func(x, y rec) int {
			if recBefore(&x, &y) {
				return -1
			}
			if recBefore(&y, &x) {
				return 1
			}
			return 0
		})
		return runs
	}
	runs = append(runs, len(g))
	src, dst := g, buf
	for len(runs) > 2 {
		k := 0
		for i := 0; i+1 < len(runs); i += 2 {
			lo := runs[i]
			if i+2 < len(runs) {
				mergeRecs(dst[lo:runs[i+2]], src[lo:runs[i+1]], src[runs[i+1]:runs[i+2]])
			} else {
				copy(dst[lo:], src[lo:runs[i+1]])
			}
			runs[k] = lo
			k++
		}
		runs[k] = len(g)
		runs = runs[:k+1]
		src, dst = dst, src
	}
	if &src[0] != &g[0] {
		copy(g, src)
	}
	return runs
}

// mergeRecs merges the ordered x and y into out (len(x)+len(y)); on ties
// x's come first.
func mergeRecs(out, x, y []rec) {
	i, j := 0, 0
	for k := range out {
		if j == len(y) || i < len(x) && !recBefore(&y[j], &x[i]) {
			out[k] = x[i]
			i++
		} else {
			out[k] = y[j]
			j++
		}
	}
}
