package htmlreport

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/internal/tracelabel"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Groups are the rows and columns of the violation matrix: nodes, or
// locations when there is one node, aggregated into consecutive ranges
// when there are more than fit.
type Groups struct {
	// Unit says what a group is: "node", "nodes", "location", "locations".
	Unit string
	// Of[l] is the group of location l.
	Of []int32
	// Labels are short axis labels; Titles say exactly what each group is.
	Labels, Titles []string
}

// MakeGroups chooses at most maxGroups groups for the locations of t.
func MakeGroups(t *trace.Trace, maxGroups int) Groups {
	maxGroups = max(maxGroups, 1)
	n := len(t.Locations)
	var key []int32 // what is grouped: node or location index of each location
	var names []string
	unit := "node"
	if len(t.Nodes) >= 2 {
		key = make([]int32, n)
		for i, l := range t.Locations {
			key[i] = l.Node
		}
		names = tracelabel.Nodes(t)
	} else {
		unit = "location"
		key = make([]int32, n)
		for i := range key {
			key[i] = int32(i)
		}
		names = tracelabel.Locations(t)
	}
	g := Groups{Unit: unit, Of: make([]int32, n)}
	per := (len(names) + maxGroups - 1) / maxGroups
	if per <= 1 {
		copy(g.Of, key)
		for i, s := range names {
			g.Labels = append(g.Labels, shortLabel(s, i))
			g.Titles = append(g.Titles, s)
		}
		return g
	}
	g.Unit = unit + "s"
	for i, k := range key {
		g.Of[i] = k / int32(per)
	}
	for lo := 0; lo < len(names); lo += per {
		hi := min(lo+per, len(names)) - 1
		g.Labels = append(g.Labels, fmt.Sprintf("%d–%d", lo, hi))
		g.Titles = append(g.Titles, fmt.Sprintf("%ss %d–%d (%s … %s)", unit, lo, hi, names[lo], names[hi]))
	}
	return g
}

// shortLabel keeps an axis label short: "rank N" of "rank N (name)", a
// name of at most 10 characters, or the index.
func shortLabel(s string, i int) string {
	if rank, _, ok := strings.Cut(s, " ("); ok && strings.HasPrefix(rank, "rank ") {
		return rank
	}
	if len([]rune(s)) <= 10 {
		return s
	}
	return fmt.Sprint(i)
}

// PairCounts are the logical messages and the clock-condition violations
// of one set of times, by pair of groups: [from*G+to], from the sender's
// group to the receiver's. Collective instances count one logical message
// per (sender, receiver) pair of distinct members, as measure.ClockCondition
// does. ByTime counts the violations by time bin of the receive.
type PairCounts struct {
	G          int
	Messages   []int64
	Violations []int64
	ByTime     []int64
}

// Total returns the sum of Violations.
func (p *PairCounts) Total() int64 {
	var n int64
	for _, v := range p.Violations {
		n += v
	}
	return n
}

func newPairCounts(g, bins int) *PairCounts {
	return &PairCounts{G: g, Messages: make([]int64, g*g), Violations: make([]int64, g*g), ByTime: make([]int64, bins)}
}

func (p *PairCounts) add(o *PairCounts) {
	for i := range p.Messages {
		p.Messages[i] += o.Messages[i]
		p.Violations[i] += o.Violations[i]
	}
	for i := range p.ByTime {
		p.ByTime[i] += o.ByTime[i]
	}
}

// pairInput is what CountPairs reads.
type pairInput struct {
	cc    measure.ClockCondition
	times [][]int64 // the times whose clock condition is counted
	at    [][]int64 // the times that place a receive in a time bin
	group []int32
	bins  Bins
}

// CountPairs counts the messages of cc's graph and those that violate
// the clock condition cc in times, by pair of groups, on cc.Parallel
// goroutines; receives are placed in the bins by their time in at (the
// same times for a before and an after count, so that the bins match).
// The collective instances are counted by measure.GroupCounter.
func CountPairs(ctx context.Context, cc measure.ClockCondition, times, at [][]int64, groups *Groups, bins Bins) (*PairCounts, error) {
	return countPairs(ctx, cc, times, at, nil, groups, bins)
}

// countPairs is CountPairs of the messages that the locations own marks
// receive (nil: all) and of the instances cc.Counted marks (nil: all).
func countPairs(ctx context.Context, cc measure.ClockCondition, times, at [][]int64, own []bool, groups *Groups, bins Bins) (*PairCounts, error) {
	in := &pairInput{cc: cc, times: times, at: at, group: groups.Of, bins: bins}
	g := cc.Graph
	ng := len(groups.Labels)
	// The locations (point-to-point receives), then the instances, as one
	// range of indices; each worker counts into its own matrix (integer
	// counts: the sum does not depend on who counted what).
	nl := len(times)
	var mu sync.Mutex
	var parts []*PairCounts
	par.ForEachWith(nl+len(g.Instances), cc.Parallel, func() *pairWorker {
		w := &pairWorker{pc: newPairCounts(ng, bins.N)}
		w.violated = in.violated(w.pc)
		mu.Lock()
		parts = append(parts, w.pc)
		mu.Unlock()
		return w
	}, func(w *pairWorker, i int) {
		if i < nl {
			if own == nil || own[i] {
				in.p2p(w.pc, i)
			}
			return
		}
		if cc.Counted != nil && !cc.Counted[i-nl] {
			return
		}
		if w.stop {
			return
		}
		if w.n%64 == 0 && ctx.Err() != nil {
			w.stop = true
			return
		}
		w.n++
		in.instance(w, uint32(i-nl))
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	total := newPairCounts(ng, bins.N)
	for _, pc := range parts {
		total.add(pc)
	}
	return total, nil
}

// pairWorker is one worker's share of CountPairs: its counts, the counter
// of collective instances it reuses and the function that places their
// violations in time bins, and how many instances it has counted (it looks
// at the context every 64 and stops when it is cancelled).
type pairWorker struct {
	pc       *PairCounts
	gc       *measure.GroupCounter
	violated func(recv replay.Part, n int64)
	n        int
	stop     bool
}

func (in *pairInput) p2p(pc *PairCounts, l int) {
	node := in.cc.Node
	for _, d := range in.cc.Graph.Deps[l] {
		if d.Role != replay.RoleRecv {
			continue
		}
		s, r := in.times[d.Peer][d.Ref], in.times[l][d.Idx]
		k := int(in.group[d.Peer])*pc.G + int(in.group[l])
		pc.Messages[k]++
		if r < s+in.cc.Latency.Between(node[d.Peer], node[l]) {
			pc.Violations[k]++
			pc.ByTime[in.bins.Of(in.at[l][d.Idx])]++
		}
	}
}

// instance counts the logical messages of one collective instance; a
// shared-memory instance (threads of one process) has none.
func (in *pairInput) instance(w *pairWorker, i uint32) {
	if in.cc.Graph.Instances[i].Kind != 0 {
		return
	}
	if w.gc == nil {
		w.gc = measure.NewGroupCounter(in.cc.Node, in.group, w.pc.G)
	}
	w.gc.CountInstance(in.times, in.cc.Graph, i, in.cc.Latency, w.pc.Messages, w.pc.Violations, w.violated)
}

// violated returns the function that counts n violations into a receive
// in its time bin of pc.
func (in *pairInput) violated(pc *PairCounts) func(recv replay.Part, n int64) {
	return func(recv replay.Part, n int64) {
		pc.ByTime[in.bins.Of(in.at[recv.Loc][recv.Recv])] += n
	}
}
