package clockmodel

import (
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
// is violated). It also returns measure.ClockCondition of the times, from
// the same pass over the point-to-point messages, and its counts by part.
func domainViolations(times [][]int64, g *replay.Graph, node []int32, dom *Domains, lat replay.Latency, np int) ([]int64, measure.Violations, *measure.Counts) {
	sum := make([]int64, dom.Count())
	type hit struct {
		d int32
		v int64
	}
	parts := make([][]hit, len(times))
	cc := measure.ClockConditionCounts(times, g, node, lat, np, func(li int, d *replay.Dep, v int64) {
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
	par.ForEachWith(len(g.Instances), np, func() []int64 {
		s := make([]int64, len(sum))
		mu.Lock()
		sums = append(sums, s)
		mu.Unlock()
		return s
	}, func(s []int64, ii int) { instanceDomainViolations(g, uint32(ii), times, node, dom, lat, s) })
	for _, s := range sums {
		for d, v := range s {
			sum[d] += v
		}
	}
	return sum, cc.Violations(g), cc
}

// instanceDomainViolations adds to sum, per domain, the violations of the
// receives of collective instance ii (see domainViolations).
func instanceDomainViolations(g *replay.Graph, ii uint32, times [][]int64, node []int32, dom *Domains, lat replay.Latency, sum []int64) {
	in := &g.Instances[ii]
	if !mpiMessages(in) {
		return
	}
	ps := g.InstanceParts(ii)
	agg := replay.NewAgg()
	add := func(loc int32, v int64) { sum[dom.Of[loc]] += v }
	if in.Class == replay.ClassScan {
		// Rank order: receivers see the senders before them.
		for _, p := range ps {
			if p.Recv != replay.NoEvent {
				if v, ok := agg.For(p.Loc, node[p.Loc], lat); ok {
					if x := v - times[p.Loc][p.Recv]; x > 0 {
						add(p.Loc, x)
						add(agg.Latest(p.Loc), x)
					}
				}
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
		if p.Recv == replay.NoEvent {
			continue
		}
		v, ok := agg.For(p.Loc, node[p.Loc], lat)
		if !ok {
			continue
		}
		if x := v - times[p.Loc][p.Recv]; x > 0 {
			add(p.Loc, x)
			if sender := agg.Latest(p.Loc); sender >= 0 {
				add(sender, x)
			}
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
