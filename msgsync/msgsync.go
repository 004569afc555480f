// Package msgsync refines the clock synchronisation of a trace from its
// messages: per node and time window it estimates how far the node's clock
// is off the reference node's, from the minimum delays of the messages
// exchanged in both directions (the midpoint of the band the clock
// condition leaves, as in Duda's and Hofmann's error estimation), and
// shifts every event by a piecewise-linear correction through the window
// estimates.
//
// It is an optional step between the offset pre-synchronisation and the
// controlled logical clock. Unlike the CLC it moves events in both
// directions, and it moves every node but the reference one a little, so it
// is not the default: it pays off when clock errors are large compared with
// the message latencies (docs/algorithm.md, docs/parameters.md).
package msgsync

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Options configure Refine.
type Options struct {
	// Windows is the number of time windows the trace's span is cut into;
	// 0 means 64.
	Windows int
	// Prior is the typical clock error left by the pre-synchronisation:
	// each node's correction is drawn towards 0 as if it had a band of this
	// width to the reference (it only matters for nodes the bands barely
	// tie to the reference); 0 means 100 µs.
	Prior time.Duration
	// Floor is added to the width of every band when weighting it, the
	// uncertainty of even the tightest band (latency jitter); 0 means 1 µs.
	Floor time.Duration
	// MinMessages is the number of messages (or collective instances) a
	// window must have in each direction between two nodes for their band
	// to count; 0 means 2.
	MinMessages int
	// Parallel bounds the goroutines; 0 = 1.
	Parallel int
}

// Stats describe what Refine did.
type Stats struct {
	Windows int `json:"windows"`
	// Pairs counts (window, node pair) bands with messages both ways.
	Pairs int `json:"pairs"`
	// Nodes counts nodes that got a correction.
	Nodes int `json:"nodes_corrected"`
	// MaxCorrection is the largest |correction| in ticks.
	MaxCorrection int64 `json:"max_correction_ticks"`
	// SumBefore and SumAfter are the sums of the clock-condition
	// violations before and after the refinement, in ticks.
	SumBefore int64 `json:"sum_violation_before_ticks"`
	SumAfter  int64 `json:"sum_violation_after_ticks"`
	// Rejected: the refinement did not lower the sum, and the times were
	// restored.
	Rejected bool `json:"rejected,omitempty"`
}

// edgeKey is one window and ordered node pair (a→b).
type edgeKey struct {
	w    int32
	a, b int32
}

// edgeVal accumulates the smallest slack receive − send − μ of the
// messages from a to b in the window, and their number.
type edgeVal struct {
	min int64
	n   int32
}

func (e edgeVal) with(v int64, cnt int32) edgeVal {
	if e.n == 0 || v < e.min {
		e.min = v
	}
	e.n += cnt
	return e
}

// Refine shifts the times of t (pre-synchronised, matched into g) by the
// estimated clock corrections of their nodes. The reference node (location
// 0's) is not moved. Times per location stay non-decreasing.
//
// The refinement is kept only if it makes the clocks more consistent with
// the messages — a smaller sum of clock-condition violations (send + μ −
// receive over the violating messages, latencies lat). Otherwise (sparse or
// noisy message timing misled the estimate) the times are restored and
// Stats.Rejected is set.
func Refine(t *trace.Trace, g *replay.Graph, lat replay.Latency, opt Options) (Stats, error) {
	n := len(t.Locations)
	node := make([]int32, n)
	orig := make([][]int64, n)
	for i, l := range t.Locations {
		node[i] = l.Node
		orig[i] = l.Events.Time
		l.Events.Time = append([]int64(nil), orig[i]...)
	}
	np := max(opt.Parallel, 1)
	before := measure.ClockCondition(orig, g, node, lat, np)
	st, err := refine(t, g, lat, opt)
	if err != nil {
		for i, l := range t.Locations {
			l.Events.Time = orig[i]
		}
		return st, err
	}
	now := make([][]int64, n)
	for i, l := range t.Locations {
		now[i] = l.Events.Time
	}
	after := measure.ClockCondition(now, g, node, lat, np)
	st.SumBefore, st.SumAfter = before.Total().SumViolation, after.Total().SumViolation
	if st.SumAfter >= st.SumBefore {
		st.Rejected = true
		for i, l := range t.Locations {
			l.Events.Time = orig[i]
		}
	}
	return st, nil
}

func refine(t *trace.Trace, g *replay.Graph, lat replay.Latency, opt Options) (Stats, error) {
	var st Stats
	n := len(t.Locations)
	if n == 0 {
		return st, nil
	}
	k := opt.Windows
	if k <= 0 {
		k = 64
	}
	st.Windows = k
	// The span of the trace.
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, l := range t.Locations {
		if ts := l.Events.Time; len(ts) > 0 {
			lo = min(lo, ts[0])
			hi = max(hi, ts[len(ts)-1])
		}
	}
	if lo >= hi {
		return st, nil
	}
	width := float64(hi-lo+1) / float64(k)
	win := func(ts int64) int32 { return int32(min(float64(k-1), float64(ts-lo)/width)) }
	node := func(li int32) int32 { return t.Locations[li].Node }
	nNodes := len(t.Nodes)
	ref := t.Locations[0].Node

	// Minimum slack per (window, ordered node pair), point to point and
	// collective; per location first, then merged.
	parts := make([]map[edgeKey]edgeVal, n)
	par.ForEach(n, max(opt.Parallel, 1), func(li int) {
		m := map[edgeKey]edgeVal{}
		ts := t.Locations[li].Events.Time
		for _, d := range g.Deps[li] {
			if d.Role != replay.RoleRecv {
				continue
			}
			a, b := node(d.Peer), node(int32(li))
			if a == b {
				continue
			}
			s, r := t.Locations[d.Peer].Events.Time[d.Ref], ts[d.Idx]
			key := edgeKey{win(s + (r-s)/2), a, b}
			m[key] = m[key].with(r-s-lat.Inter, 1)
		}
		parts[li] = m
	})
	edges := map[edgeKey]edgeVal{}
	merge := func(key edgeKey, v int64, cnt int32) {
		edges[key] = edges[key].with(v, cnt)
	}
	for _, m := range parts {
		for key, v := range m {
			merge(key, v.min, v.n)
		}
	}
	// Collectives: per instance, the latest logical send and the earliest
	// logical receive of each node; every receiver waits for every sender,
	// so (earliest receive of b) − (latest send of a) bounds a→b. To keep
	// the cost linear in the nodes, only pairs with the reference node and
	// between nodes adjacent in number are used.
	for ii := range g.Instances {
		in := &g.Instances[ii]
		if in.Class == replay.ClassScan || in.Class == 0 || in.Kind != 0 {
			continue // shared-memory instances relate the threads of one node
		}
		maxSend := map[int32]int64{}
		minRecv := map[int32]int64{}
		for _, p := range g.InstanceParts(uint32(ii)) {
			nd := node(p.Loc)
			ts := t.Locations[p.Loc].Events.Time
			if p.Send != replay.NoEvent {
				if v, ok := maxSend[nd]; !ok || ts[p.Send] > v {
					maxSend[nd] = ts[p.Send]
				}
			}
			if p.Recv != replay.NoEvent {
				if v, ok := minRecv[nd]; !ok || ts[p.Recv] < v {
					minRecv[nd] = ts[p.Recv]
				}
			}
		}
		if len(maxSend) == 0 || len(minRecv) == 0 {
			continue
		}
		nodes := make([]int32, 0, len(maxSend)+len(minRecv))
		seen := map[int32]bool{}
		for nd := range maxSend {
			nodes, seen[nd] = append(nodes, nd), true
		}
		for nd := range minRecv {
			if !seen[nd] {
				nodes = append(nodes, nd)
			}
		}
		sort.Slice(nodes, func(i, j int) bool { return nodes[i] < nodes[j] })
		pair := func(a, b int32) {
			if s, ok := maxSend[a]; ok {
				if r, ok := minRecv[b]; ok {
					merge(edgeKey{win(s + (r-s)/2), a, b}, r-s-lat.Inter, 1)
				}
			}
		}
		for i, a := range nodes {
			if a != ref {
				pair(a, ref)
				pair(ref, a)
			}
			if i+1 < len(nodes) {
				b := nodes[i+1]
				pair(a, b)
				pair(b, a)
			}
		}
	}

	// Per window: weighted least squares of the node corrections x with
	// x[ref] = 0, from the two-way bands: x_b − x_a ≈ (D_ba − D_ab)/2.
	prior := opt.Prior
	if prior <= 0 {
		prior = 100 * time.Microsecond
	}
	priorTicks := float64(prior) * float64(t.Resolution) / 1e9
	w0 := 1 / (priorTicks * priorTicks)
	floor := opt.Floor
	if floor <= 0 {
		floor = time.Microsecond
	}
	floorTicks := float64(floor) * float64(t.Resolution) / 1e9
	// The two-way bands: for x_b − x_a, [−dab, dba].
	type bandRec struct {
		w        int32
		a, b     int32
		dab, dba int64
	}
	minMsgs := int32(opt.MinMessages)
	if minMsgs <= 0 {
		minMsgs = 2
	}
	var bands []bandRec
	for key, ab := range edges {
		if key.a >= key.b || ab.n < minMsgs {
			continue
		}
		// A band needs enough messages both ways for their minimum delays
		// to come near the true minimum latency.
		if ba, ok := edges[edgeKey{key.w, key.b, key.a}]; ok && ba.n >= minMsgs {
			bands = append(bands, bandRec{key.w, key.a, key.b, ab.min, ba.min})
		}
	}
	// Only tight bands carry an estimate: a wide band means one direction
	// had no message received at once (the receiver came late), and its
	// midpoint is off by half the delay. Tight: no wider than twice the
	// 10th percentile of all widths, plus the floor.
	widths := make([]int64, len(bands))
	for i, b := range bands {
		widths[i] = max(b.dab+b.dba, 0)
	}
	sort.Slice(widths, func(i, j int) bool { return widths[i] < widths[j] })
	limit := math.Inf(1)
	if len(widths) > 0 {
		limit = 2*float64(widths[len(widths)/10]) + floorTicks
	}
	perWin := make([][]wedge, k)
	for _, b := range bands {
		width := float64(max(b.dab+b.dba, 0))
		if width > limit {
			continue
		}
		width += floorTicks
		perWin[b.w] = append(perWin[b.w], wedge{b.a, b.b, float64(b.dba-b.dab) / 2, 1 / (width * width)})
		st.Pairs++
	}
	// est[w][node], NaN where unknown.
	est := make([][]float64, k)
	par.ForEach(k, max(opt.Parallel, 1), func(w int) {
		bs := perWin[w]
		sort.Slice(bs, func(i, j int) bool {
			if bs[i].a != bs[j].a {
				return bs[i].a < bs[j].a
			}
			return bs[i].b < bs[j].b
		})
		est[w] = solve(nNodes, ref, bs, w0)
	})

	// Per node: the estimates through the window centres, filled across
	// windows without one, then applied by linear interpolation.
	corr := make([][]float64, nNodes)
	for nd := 0; nd < nNodes; nd++ {
		if int32(nd) == ref {
			continue
		}
		xs := make([]float64, k)
		known := false
		for w := 0; w < k; w++ {
			xs[w] = est[w][nd]
			known = known || !math.IsNaN(xs[w])
		}
		if !known {
			continue
		}
		fill(xs)
		corr[nd] = xs
		st.Nodes++
	}
	var maxCorr int64
	maxes := make([]int64, n)
	par.ForEach(n, max(opt.Parallel, 1), func(li int) {
		xs := corr[t.Locations[li].Node]
		if xs == nil {
			return
		}
		ts := t.Locations[li].Events.Time
		prev := int64(math.MinInt64)
		for j, v := range ts {
			f := (float64(v)-float64(lo))/width - 0.5
			var x float64
			switch {
			case f <= 0:
				x = xs[0]
			case f >= float64(k-1):
				x = xs[k-1]
			default:
				w := int(f)
				x = xs[w] + (f-float64(w))*(xs[w+1]-xs[w])
			}
			nv := v + int64(math.RoundToEven(x))
			if nv < prev {
				nv = prev
			}
			prev = nv
			ts[j] = nv
			if d := nv - v; d > maxes[li] || -d > maxes[li] {
				maxes[li] = max(d, -d)
			}
		}
	})
	for _, m := range maxes {
		maxCorr = max(maxCorr, m)
	}
	st.MaxCorrection = maxCorr
	return st, nil
}

// wedge is a two-way band between nodes a < b: x_b − x_a ≈ d, with weight w.
type wedge struct {
	a, b int32
	d, w float64
}

// solve returns per node the weighted least-squares x with x[ref] = 0,
// x[b] − x[a] ≈ d for every edge and x ≈ 0 with weight w0 for every node,
// by Gauss–Seidel iteration over the nodes connected to ref; NaN for the
// others.
func solve(nNodes int, ref int32, es []wedge, w0 float64) []float64 {
	x := make([]float64, nNodes)
	for i := range x {
		x[i] = math.NaN()
	}
	x[ref] = 0
	if len(es) == 0 {
		return x
	}
	adj := make([][]int, nNodes) // edge indices per node
	for i, e := range es {
		adj[e.a] = append(adj[e.a], i)
		adj[e.b] = append(adj[e.b], i)
	}
	// The component of ref, in breadth-first order (a good sweep order),
	// with an initial guess along the tree.
	order := []int32{ref}
	inComp := make([]bool, nNodes)
	inComp[ref] = true
	for q := 0; q < len(order); q++ {
		u := order[q]
		for _, i := range adj[u] {
			e := es[i]
			v, guess := e.b, x[u]+e.d
			if v == u {
				v, guess = e.a, x[u]-e.d
			}
			if !inComp[v] {
				inComp[v] = true
				x[v] = guess
				order = append(order, v)
			}
		}
	}
	for it := 0; it < 500; it++ {
		var change float64
		for _, u := range order[1:] {
			var sum, wsum float64
			for _, i := range adj[u] {
				e := es[i]
				if e.b == u {
					sum += e.w * (x[e.a] + e.d)
				} else {
					sum += e.w * (x[e.b] - e.d)
				}
				wsum += e.w
			}
			nx := sum / (wsum + w0)
			change = math.Max(change, math.Abs(nx-x[u]))
			x[u] = nx
		}
		if change < 0.5 {
			break
		}
	}
	return x
}

// fill replaces NaNs by linear interpolation between the nearest known
// values, holding the first and last known values outward.
func fill(xs []float64) {
	last := -1
	for i, v := range xs {
		if math.IsNaN(v) {
			continue
		}
		if last < 0 {
			for j := 0; j < i; j++ {
				xs[j] = v
			}
		} else {
			for j := last + 1; j < i; j++ {
				xs[j] = xs[last] + (v-xs[last])*float64(j-last)/float64(i-last)
			}
		}
		last = i
	}
	for j := last + 1; j < len(xs); j++ {
		xs[j] = xs[last]
	}
}

// String describes the stats.
func (s Stats) String() string {
	r := ""
	if s.Rejected {
		r = " (rejected)"
	}
	return fmt.Sprintf("%d windows, %d two-way node pairs, %d nodes corrected, max %d ticks%s", s.Windows, s.Pairs, s.Nodes, s.MaxCorrection, r)
}
