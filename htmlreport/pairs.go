package htmlreport

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/internal/tracelabel"
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
	times [][]int64 // the times whose clock condition is counted
	at    [][]int64 // the times that place a receive in a time bin
	g     *replay.Graph
	node  []int32
	group []int32
	lat   replay.Latency
	bins  Bins
}

// CountPairs counts the messages of g and those that violate the clock
// condition with latencies lat in times, by pair of groups; receives are
// placed in the bins by their time in at (the same times for a before and
// an after count, so that the bins match).
func CountPairs(ctx context.Context, times, at [][]int64, g *replay.Graph, node []int32, groups *Groups, lat replay.Latency, bins Bins, np int) (*PairCounts, error) {
	ng := len(groups.Labels)
	nodes := 0
	for _, n := range node {
		nodes = max(nodes, int(n)+1)
	}
	if nodes <= 1 {
		// The groups are locations, which instance takes for whole nodes:
		// with every message within the node, μ inter must be μ intra.
		lat.Inter = lat.Intra
	}
	in := &pairInput{times: times, at: at, g: g, node: node, group: groups.Of, lat: lat, bins: bins}
	// The locations (point-to-point receives), then the instances, as one
	// range of indices; each worker counts into its own matrix (integer
	// counts: the sum does not depend on who counted what).
	nl := len(times)
	var mu sync.Mutex
	var parts []*PairCounts
	par.ForEachWith(nl+len(g.Instances), np, func() *pairWorker {
		w := &pairWorker{pc: newPairCounts(ng, bins.N)}
		mu.Lock()
		parts = append(parts, w.pc)
		mu.Unlock()
		return w
	}, func(w *pairWorker, i int) {
		if i < nl {
			in.p2p(w.pc, i)
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
		if w.sc == nil {
			w.sc = newSenders(ng, nodes)
		}
		in.instance(w.pc, w.sc, uint32(i-nl))
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

// pairWorker is one worker's share of CountPairs: its counts, the senders
// it reuses for its instances, and how many instances it has counted (it
// looks at the context every 64 and stops when it is cancelled).
type pairWorker struct {
	pc   *PairCounts
	sc   *senders
	n    int
	stop bool
}

func (in *pairInput) p2p(pc *PairCounts, l int) {
	for _, d := range in.g.Deps[l] {
		if d.Role != replay.RoleRecv {
			continue
		}
		s, r := in.times[d.Peer][d.Ref], in.times[l][d.Idx]
		k := int(in.group[d.Peer])*pc.G + int(in.group[l])
		pc.Messages[k]++
		if r < s+in.lat.Between(in.node[d.Peer], in.node[l]) {
			pc.Violations[k]++
			pc.ByTime[in.bins.Of(in.at[l][d.Idx])]++
		}
	}
}

// counter counts the values of a set of senders above a threshold. A
// static counter holds all its values, sorted; a growing one (for scans,
// where a receive sees only the earlier members' sends) is a Fenwick tree
// over the distinct values, filled by insert.
type counter struct {
	keys []int64
	cnt  []int32 // nil when static
	n    int64
	max  int64 // the largest value counted (when n > 0)
}

// reset makes c a counter of vals (which it sorts and keeps), static or
// growing from empty.
func (c *counter) reset(vals []int64, growing bool) {
	slices.Sort(vals)
	if !growing {
		c.keys, c.cnt, c.n = vals, nil, int64(len(vals))
		if len(vals) > 0 {
			c.max = vals[len(vals)-1]
		}
		return
	}
	c.keys = append(c.keys[:0], vals...)
	c.keys = slices.Compact(c.keys)
	c.cnt = append(c.cnt[:0], make([]int32, len(c.keys)+1)...)
	c.n = 0
}

func (c *counter) insert(v int64) {
	i, _ := slices.BinarySearch(c.keys, v)
	if c.n == 0 || v > c.max {
		c.max = v
	}
	c.n++
	for i++; i < len(c.cnt); i += i & -i {
		c.cnt[i]++
	}
}

// above returns the number of values > x.
func (c *counter) above(x int64) int64 {
	if c.n == 0 || c.max <= x {
		return 0 // most receives: no search
	}
	i, _ := slices.BinarySearch(c.keys, x+1) // keys[:i] ≤ x
	if c.cnt == nil {
		return c.n - int64(i)
	}
	var s int64
	for ; i > 0; i -= i & -i {
		s += int64(c.cnt[i])
	}
	return c.n - s
}

// senders are the sends of one instance by group and by node; one worker
// reuses them for all its instances.
type senders struct {
	gVals, nVals  [][]int64
	gCnt, nCnt    []counter
	groups, nodes []int32 // those with senders in this instance
}

func newSenders(groups, nodes int) *senders {
	return &senders{gVals: make([][]int64, groups), nVals: make([][]int64, nodes),
		gCnt: make([]counter, groups), nCnt: make([]counter, nodes)}
}

// fill collects the senders of parts; with growing counters they start
// empty.
func (s *senders) fill(in *pairInput, parts []replay.Part, growing bool) {
	for _, g := range s.groups {
		s.gVals[g] = s.gVals[g][:0]
	}
	for _, n := range s.nodes {
		s.nVals[n] = s.nVals[n][:0]
	}
	s.groups, s.nodes = s.groups[:0], s.nodes[:0]
	for _, p := range parts {
		if p.Send == replay.NoEvent {
			continue
		}
		v := in.times[p.Loc][p.Send]
		g, n := in.group[p.Loc], in.node[p.Loc]
		if len(s.gVals[g]) == 0 {
			s.groups = append(s.groups, g)
		}
		if len(s.nVals[n]) == 0 {
			s.nodes = append(s.nodes, n)
		}
		s.gVals[g] = append(s.gVals[g], v)
		s.nVals[n] = append(s.nVals[n], v)
	}
	for _, g := range s.groups {
		s.gCnt[g].reset(s.gVals[g], growing)
	}
	for _, n := range s.nodes {
		s.nCnt[n].reset(s.nVals[n], growing)
	}
}

// instance counts the logical messages of one collective instance: every
// sender to every other receiving member, or for a scan every earlier
// member to every later one. The senders are counted per group and per node;
// a receive at r on node m in group h is violated by the senders of another
// group above r − inter, and by those of its own group that are on another
// node above r − inter or on node m above r − intra. That takes a group for
// a set of whole nodes; with one node, whose groups are locations,
// CountPairs makes inter = intra.
func (in *pairInput) instance(pc *PairCounts, s *senders, i uint32) {
	if in.g.Instances[i].Kind != 0 {
		return // a shared-memory instance: threads of one process, no message
	}
	parts := in.g.InstanceParts(i)
	scan := in.g.Instances[i].Class == replay.ClassScan
	s.fill(in, parts, scan)
	if len(s.groups) == 0 {
		return
	}
	for _, p := range parts {
		if p.Recv != replay.NoEvent {
			in.receive(pc, s, p, !scan && p.Send != replay.NoEvent)
		}
		if scan && p.Send != replay.NoEvent {
			v := in.times[p.Loc][p.Send]
			s.gCnt[in.group[p.Loc]].insert(v)
			s.nCnt[in.node[p.Loc]].insert(v)
		}
	}
}

// receive counts the logical messages into one member's receive from the
// senders counted so far; self says that the member's own send is among
// them (and is no message).
func (in *pairInput) receive(pc *PairCounts, s *senders, p replay.Part, self bool) {
	r := in.times[p.Loc][p.Recv]
	m, h := in.node[p.Loc], in.group[p.Loc]
	var selfV int64
	if self {
		selfV = in.times[p.Loc][p.Send]
	}
	var total int64
	for _, g := range s.groups {
		c := &s.gCnt[g]
		k := int(g)*pc.G + int(h)
		pc.Messages[k] += c.n
		if g == h && self {
			pc.Messages[k]--
		}
		v := c.above(r - in.lat.Inter)
		if g == h && len(s.nVals[m]) > 0 {
			own := &s.nCnt[m]
			v += own.above(r-in.lat.Intra) - own.above(r-in.lat.Inter)
			if self && selfV > r-in.lat.Intra {
				v--
			}
		}
		pc.Violations[k] += v
		total += v
	}
	if total > 0 {
		pc.ByTime[in.bins.Of(in.at[p.Loc][p.Recv])] += total
	}
}
