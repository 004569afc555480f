package clockmodel

import (
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/replay"
)

// domainViolations returns, per clock domain, the sum of the
// clock-condition violations (send + μ − receive, where positive, ticks) of
// the logical messages the domain sends or receives: a point-to-point
// message counts for both ends' domains; a collective receive for its
// domain and for its latest other sender's (the one that decides whether it
// is violated). It also returns cc's violations in the times, from the
// same pass over the point-to-point messages, and its counts by part.
func domainViolations(cc measure.ClockCondition, dom *Domains, times [][]int64) ([]int64, measure.Violations, *measure.Counts) {
	g := cc.Graph
	sum := make([]int64, dom.Count())
	type hit struct {
		d int32
		v int64
	}
	parts := make([][]hit, len(times))
	counts := cc.Counts(times, func(li int, d *replay.Dep, v int64) {
		parts[li] = append(parts[li], hit{dom.Of[d.Peer], v}, hit{dom.Of[li], v})
	})
	for _, p := range parts {
		for _, h := range p {
			sum[h.d] += h.v
		}
	}
	// Collective receives, by instance in parallel, each worker into sums
	// of its own (integers: the total does not depend on the order).
	var mu sync.Mutex
	var sums [][]int64
	par.ForEachWith(len(g.Instances), cc.Parallel, func() []int64 {
		s := make([]int64, len(sum))
		mu.Lock()
		sums = append(sums, s)
		mu.Unlock()
		return s
	}, func(s []int64, ii int) { instanceDomainViolations(cc, dom, uint32(ii), times, s) })
	for _, s := range sums {
		for d, v := range s {
			sum[d] += v
		}
	}
	return sum, counts.Violations(g), counts
}

// instanceDomainViolations adds to sum, per domain, the violations of the
// receives of collective instance ii (see domainViolations).
func instanceDomainViolations(cc measure.ClockCondition, dom *Domains, ii uint32, times [][]int64, sum []int64) {
	visitInstanceViolations(cc, ii, times, func(recv, sender int32, _, x int64) {
		sum[dom.Of[recv]] += x
		if sender >= 0 {
			sum[dom.Of[sender]] += x
		}
	})
}

// visitInstanceViolations calls f for every receive of collective instance
// ii (an MPI collective) that violates the clock condition: the receiving
// location, the latest other sender (−1 if none), the receive's time and
// the violation (ticks).
func visitInstanceViolations(cc measure.ClockCondition, ii uint32, times [][]int64, f func(recv, sender int32, t, x int64)) {
	g, node, lat := cc.Graph, cc.Node, cc.Latency
	in := &g.Instances[ii]
	if !mpiMessages(in) {
		return
	}
	ps := g.InstanceParts(ii)
	agg := replay.NewAgg()
	check := func(p replay.Part) {
		v, ok := agg.For(p.Loc, node[p.Loc], lat)
		if !ok {
			return
		}
		t := times[p.Loc][p.Recv]
		if x := v - t; x > 0 {
			f(p.Loc, agg.Latest(p.Loc), t, x)
		}
	}
	if in.Class == replay.ClassScan {
		// Rank order: receivers see the senders before them.
		for _, p := range ps {
			if p.Recv != replay.NoEvent {
				check(p)
			}
			if p.Send != replay.NoEvent {
				agg.Add(times[p.Loc][p.Send], p.Loc, node[p.Loc])
			}
		}
		return
	}
	for _, p := range ps {
		if p.Send != replay.NoEvent {
			agg.Add(times[p.Loc][p.Send], p.Loc, node[p.Loc])
		}
	}
	for _, p := range ps {
		if p.Recv != replay.NoEvent {
			check(p)
		}
	}
}

// mpiMessages reports whether instance in carries MPI's logical messages
// between clocks: an MPI collective of two or more members. The
// shared-memory instances (fork, join, barrier, taskwait) are among the
// threads of one process, one clock: they bound nothing between clocks and
// their latencies are not messages'.
func mpiMessages(in *replay.Instance) bool {
	return in.Kind == 0 && in.Class != 0 && in.N >= 2
}

// proofs are the violations of the clock condition between one clock
// domain and others: their times T, sorted, and their amounts V (ticks).
type proofs struct {
	T, V []int64
}

// Len, Less and Swap sort the proofs by time.
func (p *proofs) Len() int           { return len(p.T) }
func (p *proofs) Less(i, j int) bool { return p.T[i] < p.T[j] }
func (p *proofs) Swap(i, j int) {
	p.T[i], p.T[j] = p.T[j], p.T[i]
	p.V[i], p.V[j] = p.V[j], p.V[i]
}

// largestNear returns the largest violation strictly between knot k's
// neighbours in the knot times ts (the knot's support; unbounded beyond
// the first and the last knot), 0 if there is none.
func (p *proofs) largestNear(ts []int64, k int) int64 {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if k > 0 {
		lo = ts[k-1]
	}
	if k+1 < len(ts) {
		hi = ts[k+1]
	}
	var v int64
	for i, _ := slices.BinarySearch(p.T, lo+1); i < len(p.T) && p.T[i] < hi; i++ {
		v = max(v, p.V[i])
	}
	return v
}

// contradicted returns, per clock domain, the violations of the clock
// condition with times and cc's μ by messages between it and another
// domain: where the messages prove the clocks of times wrong, and by how
// much at least (μ holds for every message, so each violation is a proof).
// A message's time is its receive's; a collective's logical messages count
// at the receiving member's end, for the receiver's domain and the latest
// sender's.
func contradicted(cc measure.ClockCondition, dom *Domains, times [][]int64) []proofs {
	g := cc.Graph
	type hit struct {
		d    int32
		t, v int64
	}
	parts := make([][]hit, len(times))
	cc.Counts(times, func(li int, d *replay.Dep, v int64) {
		if p, q := dom.Of[d.Peer], dom.Of[li]; p != q {
			t := times[li][d.Idx]
			parts[li] = append(parts[li], hit{p, t, v}, hit{q, t, v})
		}
	})
	var mu sync.Mutex
	par.ForEach(len(g.Instances), cc.Parallel, func(ii int) {
		var hs []hit
		visitInstanceViolations(cc, uint32(ii), times, func(recv, sender int32, t, x int64) {
			if sender >= 0 && dom.Of[sender] != dom.Of[recv] {
				hs = append(hs, hit{dom.Of[recv], t, x}, hit{dom.Of[sender], t, x})
			}
		})
		if len(hs) > 0 {
			mu.Lock()
			parts = append(parts, hs)
			mu.Unlock()
		}
	})
	at := make([]proofs, dom.Count())
	for _, p := range parts {
		for _, h := range p {
			at[h.d].T = append(at[h.d].T, h.t)
			at[h.d].V = append(at[h.d].V, h.v)
		}
	}
	for i := range at {
		sort.Stable(&at[i])
	}
	return at
}
