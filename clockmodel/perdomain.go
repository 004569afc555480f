package clockmodel

import (
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/clc-tools/clc/comm"
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
// same pass over the point-to-point messages, and its counts by part; with
// keep, from the same pass, the violations between domains as proofs
// (contradicted), else nil.
//
// Divided (dv), each process counts what its view's graph holds (the
// messages its locations receive, the instances it counts) and the sums
// and proofs are completed with every process's.
func domainViolations(cc measure.ClockCondition, dom *Domains, times [][]int64, keep bool, dv *Division) ([]int64, measure.Violations, *measure.Counts, []proofs) {
	g := cc.Graph
	// hit is a violation v of a message of domain d at time t, cross when
	// the message runs between two domains.
	type hit struct {
		d     int32
		t, v  int64
		cross bool
	}
	parts := make([][]hit, len(times))
	counts := cc.Counts(times, func(li int, d *replay.Dep, v int64) {
		p, q := dom.Of[d.Peer], dom.Of[li]
		t := times[li][d.Idx]
		parts[li] = append(parts[li], hit{p, t, v, p != q}, hit{q, t, v, p != q})
	})
	// Collective receives, by instance in parallel, each worker into hits
	// of its own (the sums are integers and the proofs are sorted: the
	// result does not depend on the order).
	var mu sync.Mutex
	var workers []*[]hit
	par.ForEachWith(len(g.Instances), cc.Parallel, func() *[]hit {
		hs := new([]hit)
		mu.Lock()
		workers = append(workers, hs)
		mu.Unlock()
		return hs
	}, func(hs *[]hit, ii int) {
		if !dv.counts(ii) {
			return
		}
		visitInstanceViolations(cc, uint32(ii), times, func(recv, sender int32, t, x int64) {
			r := dom.Of[recv]
			if sender < 0 {
				*hs = append(*hs, hit{r, t, x, false})
				return
			}
			s := dom.Of[sender]
			*hs = append(*hs, hit{r, t, x, r != s}, hit{s, t, x, r != s})
		})
	})
	for _, hs := range workers {
		parts = append(parts, *hs)
	}
	sum := make([]int64, dom.Count())
	var at []proofs
	if keep {
		at = make([]proofs, dom.Count())
	}
	for _, p := range parts {
		for _, h := range p {
			sum[h.d] += h.v
			if keep && h.cross {
				at[h.d].T = append(at[h.d].T, h.t)
				at[h.d].V = append(at[h.d].V, h.v)
			}
		}
	}
	if dv != nil {
		dv.Group.Int64("the violations per clock domain", comm.Sum, sum)
		dv.gatherProofs(at)
	}
	for i := range at {
		sort.Stable(&at[i])
	}
	return sum, cc.Sum(counts), counts, at
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
