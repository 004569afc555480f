package clockmodel

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/replay"
)

// Where a minimum latency μ came from.
const (
	SourceFlag      = "flag"
	SourceDefault   = "default"
	SourceSameClock = "same-clock messages"
	SourceRoundTrip = "round trips across clocks"
	SourceAnchored  = "one-way messages at offset measurements"
	// SourceConsistent: where the clocks stay and the messages' bounds
	// contradict each other at the μ chosen before, the largest μ at which
	// they are consistent (Result.consistent).
	SourceConsistent = "the largest at which the messages' bounds are consistent"
)

// Latency is one class's minimum latency μ and the evidence behind it.
type Latency struct {
	// Ticks is μ.
	Ticks int64
	// Source is SourceFlag, SourceDefault, SourceSameClock,
	// SourceRoundTrip, SourceAnchored or SourceConsistent.
	Source string
	// Default is the default μ (or the flag's) the trace could lower.
	Default int64
	// SameClock is the smallest latency of a logical message between two
	// locations of one clock domain (they show true latencies), −1 if
	// there is none; SameClockMessages counts those messages.
	SameClock         int64
	SameClockMessages int64
	// RoundTrip is half the round trip between two clock domains (a
	// message each way in one window of the clock model) that 95 % of the
	// windows of the pair exceed, of the pair where that is shortest: the
	// mean of that pair's two one-way minimum latencies is at most that;
	// −1 if there is none.
	RoundTrip int64
	// Anchored is the smallest latency a message between clock domains
	// can have taken where offset measurements pin both clocks
	// (Latencies.anchored), −1 if there is none or the class's bounds
	// are inconsistent.
	Anchored int64
}

// Latencies are μ within and across nodes.
type Latencies struct {
	Intra Latency
	Inter Latency
	// Shared is μ of the shared-memory relations between the threads of a
	// process, passed through unchanged (it is not a message latency).
	Shared int64
}

// Replay returns the latencies for the replay and the checks.
func (l *Latencies) Replay() replay.Latency {
	return replay.Latency{Intra: l.Intra.Ticks, Inter: l.Inter.Ticks, Shared: l.Shared}
}

// lower sets μ to v if that is smaller and the value was not given by a
// flag, naming the source.
func (l *Latency) lower(v int64, source string) {
	if l.Source == SourceFlag || v >= l.Ticks {
		return
	}
	l.Ticks, l.Source = max(v, 0), source
}

// newLatencies starts from the defaults (or the flags' values: fixed).
func newLatencies(def replay.Latency, fixed [2]bool) Latencies {
	mk := func(v int64, f bool) Latency {
		src := SourceDefault
		if f {
			src = SourceFlag
		}
		return Latency{Ticks: v, Source: src, Default: v, SameClock: -1, RoundTrip: -1, Anchored: -1}
	}
	return Latencies{Intra: mk(def.Intra, fixed[0]), Inter: mk(def.Inter, fixed[1]), Shared: def.Shared}
}

// sameClock measures the smallest latency of the logical messages within
// each clock domain, by class (the two locations on one node or not), and
// lowers μ to it: a default must never exceed what the trace's own
// same-clock messages show.
func (l *Latencies) sameClock(times [][]int64, g *replay.Graph, node []int32, dom *Domains, np int, dv *Division) {
	type minCount struct {
		min [2]int64
		n   [2]int64
	}
	merge := func(a *minCount, class int, v int64) {
		if a.n[class] == 0 || v < a.min[class] {
			a.min[class] = v
		}
		a.n[class]++
	}
	class := func(a, b int32) int {
		if node[a] == node[b] {
			return 0
		}
		return 1
	}
	n := len(times)
	perLoc := make([]minCount, n)
	par.ForEach(n, np, func(li int) {
		// A local count, stored once: neighbouring locations' counts
		// share cache lines that another worker writes.
		var mc minCount
		for _, d := range g.Deps[li] {
			if d.Role != replay.RoleRecv || dom.Of[d.Peer] != dom.Of[li] {
				continue
			}
			merge(&mc, class(d.Peer, int32(li)), times[li][d.Idx]-times[d.Peer][d.Ref])
		}
		perLoc[li] = mc
	})
	perInst := make([]minCount, len(g.Instances))
	par.ForEachWith(len(g.Instances), np, func() *sameClockScratch { return &sameClockScratch{} }, func(sc *sameClockScratch, ii int) {
		if !dv.counts(ii) {
			return
		}
		sc.instance(times, g, uint32(ii), node, dom, func(c int, v int64) { merge(&perInst[ii], c, v) })
	})
	var tot minCount
	for _, parts := range [][]minCount{perLoc, perInst} {
		for i := range parts {
			for c := range 2 {
				if parts[i].n[c] > 0 {
					merge(&tot, c, parts[i].min[c])
					tot.n[c] += parts[i].n[c] - 1
				}
			}
		}
	}
	if dv != nil {
		// Every process's: the smallest where any has one, the counts summed.
		mins := []int64{math.MaxInt64, math.MaxInt64}
		for c := range 2 {
			if tot.n[c] > 0 {
				mins[c] = tot.min[c]
			}
		}
		ns := tot.n[:]
		dv.Group.Int64("the same-clock latencies", comm.Min, mins)
		dv.Group.Int64("the same-clock messages", comm.Sum, ns)
		for c := range 2 {
			if tot.n[c] > 0 {
				tot.min[c] = mins[c]
			}
		}
	}
	for c, lat := range []*Latency{&l.Intra, &l.Inter} {
		if tot.n[c] == 0 {
			continue
		}
		lat.SameClock, lat.SameClockMessages = tot.min[c], tot.n[c]
		lat.lower(tot.min[c], SourceSameClock)
	}
}

// sameClockScratch finds the smallest same-clock latency of the logical
// messages of collective instances: per (domain, node) and per domain, an
// aggregate of the senders (replay.Agg), so that a receive finds the
// latest other sender of its domain on its node and on another node.
type sameClockScratch struct {
	keys map[[2]int32]*replay.Agg
	doms map[int32]*replay.Agg
}

// aggOf returns m's aggregate for k, an empty one added if there is none.
func aggOf[K comparable](m map[K]*replay.Agg, k K) *replay.Agg {
	a := m[k]
	if a == nil {
		a = new(replay.Agg)
		*a = replay.NewAgg()
		m[k] = a
	}
	return a
}

func (s *sameClockScratch) instance(times [][]int64, g *replay.Graph, ii uint32, node []int32, dom *Domains, emit func(class int, v int64)) {
	in := &g.Instances[ii]
	if !mpiMessages(in) {
		return
	}
	if s.keys == nil {
		s.keys = map[[2]int32]*replay.Agg{}
		s.doms = map[int32]*replay.Agg{}
	}
	clear(s.keys)
	clear(s.doms)
	addSend := func(p replay.Part) {
		d, nd := dom.Of[p.Loc], node[p.Loc]
		v := times[p.Loc][p.Send]
		aggOf(s.keys, [2]int32{d, nd}).Add(v, p.Loc, nd)
		aggOf(s.doms, d).Add(v, p.Loc, nd)
	}
	query := func(p replay.Part) {
		d, nd := dom.Of[p.Loc], node[p.Loc]
		r := times[p.Loc][p.Recv]
		if a := s.keys[[2]int32{d, nd}]; a != nil {
			if v, ok := a.LatestTime(p.Loc); ok {
				emit(0, r-v)
			}
		}
		if a := s.doms[d]; a != nil {
			if v, ok := a.LatestOff(nd); ok {
				emit(1, r-v)
			}
		}
	}
	parts := g.InstanceParts(ii)
	if in.Class == replay.ClassScan {
		// Rank k's send reaches the ranks after it: query before adding.
		for _, p := range parts {
			if p.Recv != replay.NoEvent {
				query(p)
			}
			if p.Send != replay.NoEvent {
				addSend(p)
			}
		}
		return
	}
	for _, p := range parts {
		if p.Send != replay.NoEvent {
			addSend(p)
		}
	}
	for _, p := range parts {
		if p.Recv != replay.NoEvent {
			query(p)
		}
	}
}

// roundTrips lowers μ to a quarter of the round trip of each class that
// the estimation's windows (two-sided bands, read with latencies lat)
// show: no message is faster than μ, so a round trip takes at least 2μ if
// the two directions' minimum latencies are equal, 4μ if one is three
// times the other. μ must hold for every pair of clock domains of its
// class, so the round trip is the shortest of the pairs': a pair fast in
// both directions bounds μ, however slow the others are. The windows are
// read relative to the model, which can miss a clock's fastest changes (a
// window then looks narrower than the round trip was), so of each pair
// the 5th percentile of the widths counts, not the narrowest; of a pair
// with fewer than 20 windows, the narrowest: a μ somewhat too low corrects
// a little less, a μ too high "corrects" right messages.
func (l *Latencies) roundTrips(bs []band, dom *Domains, lat replay.Latency) {
	type pair struct{ p, q int32 }
	var widths [2]map[pair][]float64
	for i := range bs {
		b := &bs[i]
		if !b.twoSided() {
			continue
		}
		c := 1
		if np, nq := dom.Node[b.p], dom.Node[b.q]; np >= 0 && np == nq {
			c = 0
		}
		if widths[c] == nil {
			widths[c] = make(map[pair][]float64)
		}
		k := pair{min(b.p, b.q), max(b.p, b.q)}
		widths[c][k] = append(widths[c][k], b.hi-b.lo)
	}
	for c, x := range []*Latency{&l.Intra, &l.Inter} {
		if len(widths[c]) == 0 {
			continue
		}
		w := math.Inf(1)
		for _, ws := range widths[c] {
			slices.Sort(ws)
			w = min(w, ws[len(ws)/20])
		}
		mu := lat.Inter
		if c == 0 {
			mu = lat.Intra
		}
		// width = d_pq + d_qp − 2μ: half the round trip is μ + width/2.
		// Half bounds the faster direction only when both are equally
		// fast; μ is lowered to a quarter of the round trip, which holds
		// while the directions' fastest latencies differ by at most 3:1
		// (on one machine, 4 ranks on 2 cores, the truth showed 1.7:1, and
		// 25 true messages faster than half the round trip).
		half := int64(math.Floor(float64(mu) + w/2))
		x.RoundTrip = half
		x.lower(half/2, SourceRoundTrip)
	}
}

// anchored lowers μ to what one-way messages between clock domains show
// where the offset measurements pin both clocks. A message sent at s by
// domain p and received at r by domain q, d = r − s in the
// pre-synchronised times, took d + x_q(r) − x_p(s), x a clock's remaining
// correction (the reference clock's is 0); an anchor of the domain at t_a,
// its value v_a and uncertainty σ_a, holds x(t) within v_a ± (σ_a +
// ρ|t − t_a|), ρ = BoundRate, the rate the garrote's proofs take. So the
// message took at most d + max x_q(r) − min x_p(s), and no message of its
// class is faster than μ. Where pre-synchronisation already holds the
// clocks within tens of nanoseconds a default μ above the true latency
// "corrects" right messages: a recording of Open MPI over shared memory
// between two emulated nodes (testdata/emulated/r-persist-ompi-node2),
// whose messages took 0.54 µs against the default 1 µs, came out 5.7
// times farther from the truth than pre-synchronisation.
//
// A bound is only as right as its anchors and ρ. The bounds are grouped
// by the anchor they lean on (per ordered domain pair and class, the
// receiving domain's anchor nearest the receive, the sending domain's
// when the receiver is the reference); a pair's bound is the second
// smallest of its groups', one that two measurements support, and μ is
// lowered to the smallest pair's. A class with any negative group bound
// is left alone: a message that arrived before it was sent even with the
// clocks at their anchors' values shows the clocks departing from their
// anchors faster than ρ, and then no bound of the class is trusted
// (clc-sim's wandering clocks give bounds down to −5 µs; taken, they would
// set μ to 0 and leave the clock condition blind). Divided (dv not nil),
// each process reads the messages its locations receive and the groups
// are merged over all.
func (l *Latencies) anchored(times [][]int64, g *replay.Graph, node []int32, dom *Domains, anchors []anchorObs, np int, dv *Division) {
	nd := dom.Count()
	// Each domain's anchors, in time order (anchorObs sorts them by domain
	// and time).
	lo, hi := make([]int32, nd), make([]int32, nd)
	for i := len(anchors) - 1; i >= 0; i-- {
		d := anchors[i].d
		if hi[d] == 0 {
			hi[d] = int32(i + 1)
		}
		lo[d] = int32(i)
	}
	// bound returns the range of domain d's correction at t that its
	// anchors allow, and the nearest anchor's index among them; ok false
	// without anchors.
	bound := func(d int32, t int64) (lower, upper float64, near int, ok bool) {
		if d == dom.Ref {
			return 0, 0, -1, true
		}
		as := anchors[lo[d]:hi[d]]
		if len(as) == 0 {
			return 0, 0, 0, false
		}
		k, _ := slices.BinarySearchFunc(as, t, func(a anchorObs, t int64) int { return cmp.Compare(a.t, t) })
		lower, upper = math.Inf(-1), math.Inf(1)
		best := math.Inf(1)
		for i := max(0, k-anchorReach); i < min(len(as), k+anchorReach); i++ {
			dt := math.Abs(float64(t - as[i].t))
			e := as[i].sigma + BoundRate*dt
			lower, upper = math.Max(lower, as[i].v-e), math.Min(upper, as[i].v+e)
			if dt < best {
				best, near = dt, i
			}
		}
		return lower, upper, near, true
	}
	type key struct {
		p, q int32
		near int32
		c    uint8
	}
	perLoc := make([]map[key]int64, len(times))
	par.ForEach(len(times), np, func(li int) {
		var m map[key]int64
		q := dom.Of[li]
		for _, d := range g.Deps[li] {
			p := dom.Of[d.Peer]
			if d.Role != replay.RoleRecv || p == q {
				continue
			}
			s, r := times[d.Peer][d.Ref], times[li][d.Idx]
			_, uq, nq, okq := bound(q, r)
			lp, _, npp, okp := bound(p, s)
			if !okq || !okp || nq < 0 && npp < 0 {
				continue
			}
			k := key{p: p, q: q, near: int32(nq)}
			if nq < 0 {
				k.near = int32(npp)
			}
			if node[d.Peer] != node[li] {
				k.c = 1
			}
			b := int64(math.Floor(float64(r-s) + uq - lp))
			if m == nil {
				m = map[key]int64{}
			}
			if v, ok := m[k]; !ok || b < v {
				m[k] = b
			}
		}
		perLoc[li] = m
	})
	groups := map[key]int64{}
	for _, m := range perLoc {
		for k, b := range m {
			if v, ok := groups[k]; !ok || b < v {
				groups[k] = b
			}
		}
	}
	if dv != nil {
		// Every process's groups, one fixed-size record each (p, q, near,
		// class, bound), merged by their minimum.
		const recBytes = 4 + 4 + 4 + 1 + 8
		le := binary.LittleEndian
		buf := make([]byte, 0, recBytes*len(groups))
		for k, b := range groups {
			buf = le.AppendUint32(buf, uint32(k.p))
			buf = le.AppendUint32(buf, uint32(k.q))
			buf = le.AppendUint32(buf, uint32(k.near))
			buf = append(buf, k.c)
			buf = le.AppendUint64(buf, uint64(b))
		}
		all := dv.Group.Allgather("the anchored latencies", buf)
		for q, part := range all {
			if len(part)%recBytes != 0 {
				dv.Group.Fail(fmt.Errorf("the anchored latencies: process %d sent %d bytes, not whole records", q, len(part)))
				return
			}
			for ; len(part) > 0; part = part[recBytes:] {
				k := key{p: int32(le.Uint32(part)), q: int32(le.Uint32(part[4:])), near: int32(le.Uint32(part[8:])), c: part[12]}
				b := int64(le.Uint64(part[13:]))
				if v, ok := groups[k]; !ok || b < v {
					groups[k] = b
				}
			}
		}
	}
	// Per ordered domain pair and class, the second smallest of its
	// groups' bounds (the smallest that two anchors support); μ is lowered
	// to the smallest of those.
	type pairKey struct {
		p, q int32
		c    uint8
	}
	two := map[pairKey][2]int64{}
	for k, b := range groups {
		pk := pairKey{k.p, k.q, k.c}
		v, ok := two[pk]
		if !ok {
			v = [2]int64{math.MaxInt64, math.MaxInt64}
		}
		switch {
		case b < v[0]:
			v[0], v[1] = b, v[0]
		case b < v[1]:
			v[1] = b
		}
		two[pk] = v
	}
	mins := [2]int64{math.MaxInt64, math.MaxInt64}
	var negative [2]bool
	for k, b := range groups {
		if b < 0 {
			negative[k.c] = true
		}
	}
	for pk, v := range two {
		if !negative[pk.c] {
			mins[pk.c] = min(mins[pk.c], v[1])
		}
	}
	for c, lat := range []*Latency{&l.Intra, &l.Inter} {
		if mins[c] == math.MaxInt64 {
			continue
		}
		lat.Anchored = mins[c]
		lat.lower(mins[c], SourceAnchored)
	}
}

// anchorReach is how many of a domain's anchors on each side of a time
// anchored weighs: the nearest bound best, and a clock measured every few
// milliseconds would otherwise cost a pass over all its measurements per
// message.
const anchorReach = 4
