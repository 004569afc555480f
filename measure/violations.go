package measure

import (
	"cmp"
	"slices"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/replay"
)

// MessageStats counts the clock-condition problems of one class of
// messages (point-to-point, or logical collective pairs).
type MessageStats struct {
	// Messages is the number of (logical) messages.
	Messages int64
	// Reversed counts messages received before they were sent.
	Reversed int64
	// Violations counts messages received earlier than sent + μ.
	Violations int64
	// MaxDisplacement and SumDisplacement are over reversed messages:
	// send − receive, in ticks.
	MaxDisplacement int64
	SumDisplacement int64
	// MaxViolation is the largest send + μ − receive, in ticks;
	// SumViolation their sum over the violating messages.
	MaxViolation int64
	SumViolation int64
}

func (m *MessageStats) add(o MessageStats) {
	m.Messages += o.Messages
	m.Reversed += o.Reversed
	m.Violations += o.Violations
	m.MaxDisplacement = max(m.MaxDisplacement, o.MaxDisplacement)
	m.SumDisplacement += o.SumDisplacement
	m.MaxViolation = max(m.MaxViolation, o.MaxViolation)
	m.SumViolation += o.SumViolation
}

// pair accounts one message with send time s, receive time r and latency mu.
func (m *MessageStats) pair(s, r, mu int64) {
	m.Messages++
	if r < s {
		m.Reversed++
		m.SumDisplacement += s - r
		m.MaxDisplacement = max(m.MaxDisplacement, s-r)
	}
	if r < s+mu {
		m.Violations++
		m.MaxViolation = max(m.MaxViolation, s+mu-r)
		m.SumViolation += s + mu - r
	}
}

// Violations is the state of the clock condition in a set of times.
type Violations struct {
	P2P        MessageStats
	Collective MessageStats
	// Shared is the order of the shared-memory relations, by kind (index
	// replay.SyncKind; 0 unused), with the shared-memory latency: a
	// "message" is one relation between two locations' events.
	Shared [replay.NumSyncKinds]MessageStats
}

// SharedTotal returns the sum over the shared-memory relations.
func (v *Violations) SharedTotal() MessageStats {
	var t MessageStats
	for _, s := range v.Shared {
		t.add(s)
	}
	return t
}

// Total returns the sum of both message classes (point to point and
// collective; the shared-memory relations are in SharedTotal).
func (v *Violations) Total() MessageStats {
	t := v.P2P
	t.add(v.Collective)
	return t
}

// MaxViolation returns the largest violation of any class, shared-memory
// relations included, in ticks.
func (v *Violations) MaxViolation() int64 {
	return max(v.P2P.MaxViolation, v.Collective.MaxViolation, v.SharedTotal().MaxViolation)
}

// ClockCondition is the clock condition of a trace's messages: the
// happened-before relation, where each location runs and the latencies a
// message must take at least. Its methods measure it in a set of times
// given per location (index: location, as in Graph).
type ClockCondition struct {
	// Graph is the trace's happened-before relation (replay.Match).
	Graph *replay.Graph
	// Node is the node of each location.
	Node []int32
	// Latency is μ in ticks: Intra and Inter between MPI locations on one
	// node or on two, Shared for the shared-memory relations.
	Latency replay.Latency
	// Parallel bounds the goroutines counting (≤ 0: one per CPU, as
	// par.Workers).
	Parallel int
	// Group, when the trace is divided among processes, completes this
	// process's counts into the whole trace's (Sum); nil: one process.
	// Each process then counts the messages its locations receive and
	// the instances Counted marks.
	Group *comm.Group
	// Counted marks the collective instances this process counts (nil:
	// every one).
	Counted []bool
}

// counts reports whether this process counts instance i.
func (cc ClockCondition) counts(i int) bool { return cc.Counted == nil || cc.Counted[i] }

// Violations counts the messages whose times violate the clock
// condition. Collective instances count one logical message per (sender,
// receiver) pair of distinct members.
func (cc ClockCondition) Violations(times [][]int64) Violations {
	return cc.Sum(cc.Counts(times, nil))
}

// Sum returns the sums of c's parts over the whole trace: with a Group,
// every process's sums added.
func (cc ClockCondition) Sum(c *Counts) Violations {
	v := c.Violations(cc.Graph)
	if cc.Group != nil {
		v.reduce(cc.Group)
	}
	return v
}

// reduce replaces v by the sum of every process's v (the maxima by their
// largest).
func (v *Violations) reduce(g *comm.Group) {
	all := []*MessageStats{&v.P2P, &v.Collective}
	for k := range v.Shared {
		all = append(all, &v.Shared[k])
	}
	sums := make([]int64, 0, 5*len(all))
	maxs := make([]int64, 0, 2*len(all))
	for _, m := range all {
		sums = append(sums, m.Messages, m.Reversed, m.Violations, m.SumDisplacement, m.SumViolation)
		maxs = append(maxs, m.MaxDisplacement, m.MaxViolation)
	}
	g.Int64("the clock condition's counts", comm.Sum, sums)
	g.Int64("the clock condition's largest violations", comm.Max, maxs)
	for i, m := range all {
		m.Messages, m.Reversed, m.Violations, m.SumDisplacement, m.SumViolation = sums[5*i], sums[5*i+1], sums[5*i+2], sums[5*i+3], sums[5*i+4]
		m.MaxDisplacement, m.MaxViolation = maxs[2*i], maxs[2*i+1]
	}
}

// Counts is the clock condition of a set of times by part: the
// point-to-point and shared-memory messages by receiving location, the
// collectives by instance, so that after a change of some events' times
// only the parts with messages among them are counted again
// (ClockCondition.Recount).
type Counts struct {
	p2p    []MessageStats
	shared [][replay.NumSyncKinds]MessageStats // nil: no shared-memory relations
	coll   []MessageStats
}

// Counts is Violations by part. It also calls visit (if not nil) for
// every point-to-point message that violates the clock condition: li is
// the receiving location, d its receive dependency and v the violation
// (send + μ − receive > 0, ticks). visit is called concurrently for
// different receiving locations, in event order for one. A caller that
// needs the violations by sender or receiver gets them from the same pass
// over the messages.
func (cc ClockCondition) Counts(times [][]int64, visit func(li int, d *replay.Dep, v int64)) *Counts {
	g := cc.Graph
	c := &Counts{p2p: make([]MessageStats, len(times)), coll: make([]MessageStats, len(g.Instances))}
	if g.SyncTotal() > 0 {
		c.shared = make([][replay.NumSyncKinds]MessageStats, len(times))
	}
	par.ForEach(len(times), cc.Parallel, func(li int) { cc.countLocation(c, li, times, visit) })
	par.ForEachWith(len(g.Instances), cc.Parallel, func() *instanceScratch { return &instanceScratch{} }, func(sc *instanceScratch, i int) {
		if cc.counts(i) {
			c.coll[i] = cc.instanceViolations(uint32(i), times, sc)
		}
	})
	return c
}

// countLocation counts into c the point-to-point and shared-memory
// messages that location li receives.
func (cc ClockCondition) countLocation(c *Counts, li int, times [][]int64, visit func(li int, d *replay.Dep, v int64)) {
	// Counted in locals and stored once: neighbouring locations' counts
	// share cache lines, and another worker writes those.
	var own MessageStats
	var sh [replay.NumSyncKinds]MessageStats
	node, lat := cc.Node, cc.Latency
	deps, at, nd := cc.Graph.Deps[li], times[li], node[li]
	for i := range deps {
		d := &deps[i]
		switch d.Role {
		case replay.RoleRecv:
			s, r, mu := times[d.Peer][d.Ref], at[d.Idx], lat.Between(node[d.Peer], nd)
			own.pair(s, r, mu)
			if visit != nil && r < s+mu {
				visit(li, d, s+mu-r)
			}
		case replay.RoleSyncRecv:
			sh[d.Sync].pair(times[d.Peer][d.Ref], at[d.Idx], lat.Shared)
		}
	}
	c.p2p[li] = own
	if c.shared != nil {
		c.shared[li] = sh
	}
}

// Violations returns the sums of the parts; g is the relation they were
// counted over.
func (c *Counts) Violations(g *replay.Graph) Violations {
	var v Violations
	for i := range c.p2p {
		v.P2P.add(c.p2p[i])
	}
	for i := range c.shared {
		for k := range c.shared[i] {
			v.Shared[k].add(c.shared[i][k])
		}
	}
	for i := range c.coll {
		if k := g.Instances[i].Kind; k != 0 {
			v.Shared[k].add(c.coll[i])
		} else {
			v.Collective.add(c.coll[i])
		}
	}
	return v
}

// Recount returns the counts of times after the events moved[li] =
// [lo, hi) of each location li (lo ≥ hi: none) changed since c was
// counted (c stays as it was): the locations that receive a message one
// of whose ends moved, and the instances with a member among them, are
// counted again; the other parts are c's.
func (cc ClockCondition) Recount(c *Counts, times [][]int64, moved [][2]int) *Counts {
	g := cc.Graph
	out := &Counts{p2p: slices.Clone(c.p2p), shared: slices.Clone(c.shared), coll: slices.Clone(c.coll)}
	recv := make([]bool, len(times))
	inst := make([]bool, len(g.Instances))
	for li, m := range moved {
		if m[0] >= m[1] {
			continue
		}
		recv[li] = true
		deps := g.Deps[li]
		first, _ := slices.BinarySearchFunc(deps, uint32(m[0]), func(d replay.Dep, idx uint32) int { return cmp.Compare(d.Idx, idx) })
		for _, d := range deps[first:] {
			if int(d.Idx) >= m[1] {
				break
			}
			switch d.Role {
			case replay.RoleSend, replay.RoleSyncSend:
				recv[d.Peer] = true
			case replay.RoleCollSend, replay.RoleCollRecv:
				if cc.counts(int(d.Ref)) {
					inst[d.Ref] = true
				}
			}
		}
	}
	var locs, insts []int
	for li, r := range recv {
		if r {
			locs = append(locs, li)
		}
	}
	for ii, r := range inst {
		if r {
			insts = append(insts, ii)
		}
	}
	par.ForEach(len(locs), cc.Parallel, func(k int) { cc.countLocation(out, locs[k], times, nil) })
	par.ForEachWith(len(insts), cc.Parallel, func() *instanceScratch { return &instanceScratch{} }, func(sc *instanceScratch, k int) {
		out.coll[insts[k]] = cc.instanceViolations(uint32(insts[k]), times, sc)
	})
	return out
}

// sortedVals is an ascending list of values with suffix sums, answering
// "how many values exceed x, and what is their sum" in O(log n).
type sortedVals struct {
	v   []int64
	suf []int64 // suf[i] = sum of v[i:]
}

// newSortedVals sorts v and keeps it.
func newSortedVals(v []int64) sortedVals {
	slices.Sort(v)
	return sortedVals{v: v, suf: suffixSums(v, nil)}
}

// reset makes s the sorted values of v (which it sorts and keeps), reusing
// the memory of its sums.
func (s *sortedVals) reset(v []int64) {
	slices.Sort(v)
	s.v, s.suf = v, suffixSums(v, s.suf)
}

// suffixSums returns the sums of v[i:] for i = 0 … len(v), in the memory
// of buf if it has room.
func suffixSums(v, buf []int64) []int64 {
	suf := zeroed(buf, len(v)+1)
	for i := len(v) - 1; i >= 0; i-- {
		suf[i] = suf[i+1] + v[i]
	}
	return suf
}

// above returns the count and sum of values > x.
func (s *sortedVals) above(x int64) (int64, int64) {
	if len(s.v) == 0 {
		return 0, 0
	}
	i, _ := slices.BinarySearch(s.v, x+1)
	return int64(len(s.v) - i), s.suf[i]
}

// instanceScratch is the memory instanceViolations reuses from one
// instance to the next (one per worker): the senders' values, overall and
// grouped by node, with their suffix sums, and per node (indexed by node,
// valid where stamp is the current epoch) where its group lies.
type instanceScratch struct {
	all     sortedVals
	vals    []int64 // the senders' values, in part order, then grouped
	grouped []int64
	sufs    []int64 // each group's suffix sums, one longer than the group
	stamp   []uint32
	epoch   uint32
	at, n   []int32 // by node: the group's start in grouped, its size
	sufAt   []int32 // by node: the start of its sums in sufs
	touched []int32 // the nodes with senders, in order of appearance
}

// group returns the sorted values of node nd's senders (empty if none).
func (sc *instanceScratch) group(nd int32) sortedVals {
	if int(nd) >= len(sc.stamp) || sc.stamp[nd] != sc.epoch {
		return sortedVals{}
	}
	a, n, f := sc.at[nd], sc.n[nd], sc.sufAt[nd]
	return sortedVals{v: sc.grouped[a : a+n], suf: sc.sufs[f : f+n+1]}
}

// split groups the senders of parts by node (counting sort), sorts each
// group and sums its suffixes, and sorts all of them (sc.all).
func (sc *instanceScratch) split(parts []replay.Part, times [][]int64, node []int32) {
	sc.epoch++
	sc.touched, sc.vals = sc.touched[:0], sc.vals[:0]
	for _, p := range parts {
		if p.Send == replay.NoEvent {
			continue
		}
		nd := node[p.Loc]
		if int(nd) >= len(sc.stamp) {
			sc.stamp = lengthen(sc.stamp, int(nd)+1)
			sc.at, sc.n, sc.sufAt = lengthen(sc.at, int(nd)+1), lengthen(sc.n, int(nd)+1), lengthen(sc.sufAt, int(nd)+1)
		}
		if sc.stamp[nd] != sc.epoch {
			sc.stamp[nd], sc.n[nd] = sc.epoch, 0
			sc.touched = append(sc.touched, nd)
		}
		sc.n[nd]++
		sc.vals = append(sc.vals, times[p.Loc][p.Send])
	}
	var off int32
	for gi, nd := range sc.touched {
		sc.at[nd], sc.sufAt[nd] = off, off+int32(gi)
		off += sc.n[nd]
	}
	sc.grouped = zeroed(sc.grouped, len(sc.vals))
	// Scatter, with at as each group's cursor (set back below).
	i := 0
	for _, p := range parts {
		if p.Send == replay.NoEvent {
			continue
		}
		nd := node[p.Loc]
		sc.grouped[sc.at[nd]] = sc.vals[i]
		sc.at[nd]++
		i++
	}
	sc.sufs = zeroed(sc.sufs, len(sc.vals)+len(sc.touched))
	for _, nd := range sc.touched {
		sc.at[nd] -= sc.n[nd] // back to the group's start
		g := sc.grouped[sc.at[nd] : sc.at[nd]+sc.n[nd]]
		slices.Sort(g)
		suffixSums(g, sc.sufs[sc.sufAt[nd]:sc.sufAt[nd]:sc.sufAt[nd]+sc.n[nd]+1])
	}
	sc.all.reset(sc.vals)
}

// lengthen returns s with zeros appended up to length n.
func lengthen[T any](s []T, n int) []T {
	return append(s, make([]T, n-len(s))...)
}

// instanceViolations counts the violating logical pairs of instance in,
// with the latency of its kind.
func (cc ClockCondition) instanceViolations(in uint32, times [][]int64, sc *instanceScratch) MessageStats {
	var m MessageStats
	g, node := cc.Graph, cc.Node
	lat := cc.Latency.ForSync(g.Instances[in].Kind)
	parts := g.InstanceParts(in)
	if g.Instances[in].Class == replay.ClassScan {
		return scanViolations(parts, times, node, lat)
	}
	if lat.Intra == lat.Inter {
		return flatViolations(parts, times, lat.Intra)
	}
	sc.split(parts, times, node)
	allS := &sc.all
	all := allS.v
	if len(all) == 0 {
		return m
	}
	for _, p := range parts {
		if p.Recv == replay.NoEvent {
			continue
		}
		r := times[p.Loc][p.Recv]
		ns := sc.group(node[p.Loc])
		self := int64(0)
		var selfV int64
		if p.Send != replay.NoEvent {
			self, selfV = 1, times[p.Loc][p.Send]
		}
		m.Messages += int64(len(all)) - self
		// reversed: senders (not self) with s > r
		cnt, sum := allS.above(r)
		if self == 1 && selfV > r {
			cnt, sum = cnt-1, sum-selfV
		}
		m.Reversed += cnt
		m.SumDisplacement += sum - cnt*r
		// largest other sender
		if mx, ok := maxOther(allS, self == 1, selfV); ok && mx > r {
			m.MaxDisplacement = max(m.MaxDisplacement, mx-r)
		}
		// violations: other-node senders with s > r − inter, same-node
		// senders (not self) with s > r − intra.
		ca, sa := allS.above(r - lat.Inter)
		cn, sn := ns.above(r - lat.Inter)
		cs, ss := ns.above(r - lat.Intra)
		if self == 1 && selfV > r-lat.Intra {
			cs, ss = cs-1, ss-selfV
		}
		m.Violations += ca - cn + cs
		m.SumViolation += (sa - sn) + (ca-cn)*(lat.Inter-r) + ss + cs*(lat.Intra-r)
		// largest violation: best other-node and same-node candidates.
		if mo, ok := maxNotIn(allS, &ns); ok && mo+lat.Inter > r {
			m.MaxViolation = max(m.MaxViolation, mo+lat.Inter-r)
		}
		if ms, ok := maxOther(&ns, self == 1, selfV); ok && ms+lat.Intra > r {
			m.MaxViolation = max(m.MaxViolation, ms+lat.Intra-r)
		}
	}
	return m
}

// flatViolations counts the violating logical pairs of an instance whose
// members are all mu apart (a shared-memory instance, or equal
// latencies): the per-node bookkeeping of instanceViolations is not needed.
// It gives what instanceViolations would with every member on the
// receiver's node, but is kept apart for speed: folded into it, even with
// the per-node values skipped, the same counts take about a tenth more
// instructions.
func flatViolations(parts []replay.Part, times [][]int64, mu int64) MessageStats {
	var m MessageStats
	var all []int64
	for _, p := range parts {
		if p.Send != replay.NoEvent {
			all = append(all, times[p.Loc][p.Send])
		}
	}
	if len(all) == 0 {
		return m
	}
	allS := newSortedVals(all)
	for _, p := range parts {
		if p.Recv == replay.NoEvent {
			continue
		}
		r := times[p.Loc][p.Recv]
		self := int64(0)
		var selfV int64
		if p.Send != replay.NoEvent {
			self, selfV = 1, times[p.Loc][p.Send]
		}
		m.Messages += int64(len(all)) - self
		cnt, sum := allS.above(r)
		vc, vs := allS.above(r - mu)
		if self == 1 {
			if selfV > r {
				cnt, sum = cnt-1, sum-selfV
			}
			if selfV > r-mu {
				vc, vs = vc-1, vs-selfV
			}
		}
		m.Reversed += cnt
		m.SumDisplacement += sum - cnt*r
		m.Violations += vc
		m.SumViolation += vs + vc*(mu-r)
		if mx, ok := maxOther(&allS, self == 1, selfV); ok {
			if mx > r {
				m.MaxDisplacement = max(m.MaxDisplacement, mx-r)
			}
			if mx+mu > r {
				m.MaxViolation = max(m.MaxViolation, mx+mu-r)
			}
		}
	}
	return m
}

// maxOther returns the largest value, leaving out one occurrence of selfV
// when skipSelf.
func maxOther(s *sortedVals, skipSelf bool, selfV int64) (int64, bool) {
	n := len(s.v)
	if n == 0 {
		return 0, false
	}
	if skipSelf && s.v[n-1] == selfV {
		if n == 1 {
			return 0, false
		}
		return s.v[n-2], true
	}
	return s.v[n-1], true
}

// maxNotIn returns the largest value of all that is not among the values
// of sub (a sub-multiset of all): the largest value on another node.
func maxNotIn(all, sub *sortedVals) (int64, bool) {
	i, j := len(all.v)-1, len(sub.v)-1
	for i >= 0 && j >= 0 && all.v[i] == sub.v[j] {
		i--
		j--
	}
	if i < 0 {
		return 0, false
	}
	return all.v[i], true
}

// scanViolations counts the violating pairs k < i of a scan instance.
func scanViolations(parts []replay.Part, times [][]int64, node []int32, lat replay.Latency) MessageStats {
	var m MessageStats
	if len(parts) <= 4096 {
		for i, pi := range parts {
			if pi.Recv == replay.NoEvent {
				continue
			}
			r := times[pi.Loc][pi.Recv]
			for _, pk := range parts[:i] {
				if pk.Send != replay.NoEvent {
					m.pair(times[pk.Loc][pk.Send], r, lat.Between(node[pk.Loc], node[pi.Loc]))
				}
			}
		}
		return m
	}
	// Large scans: Fenwick trees over the sender values, overall and per node.
	vals := make([]int64, 0, len(parts))
	for _, p := range parts {
		if p.Send != replay.NoEvent {
			vals = append(vals, times[p.Loc][p.Send])
		}
	}
	all := newFenwick(vals)
	perNode := map[int32]*fenwick{}
	{
		byNode := map[int32][]int64{}
		for _, p := range parts {
			if p.Send != replay.NoEvent {
				byNode[node[p.Loc]] = append(byNode[node[p.Loc]], times[p.Loc][p.Send])
			}
		}
		for n, v := range byNode {
			perNode[n] = newFenwick(v)
		}
	}
	for _, p := range parts {
		if p.Recv != replay.NoEvent {
			r := times[p.Loc][p.Recv]
			nf := perNode[node[p.Loc]]
			m.Messages += all.count
			cnt, sum := all.above(r)
			m.Reversed += cnt
			m.SumDisplacement += sum - cnt*r
			if mx, ok := all.maxInserted(); ok && mx > r {
				m.MaxDisplacement = max(m.MaxDisplacement, mx-r)
			}
			ca, sa := all.above(r - lat.Inter)
			var cn, cs, sn, ss int64
			if nf != nil {
				cn, sn = nf.above(r - lat.Inter)
				cs, ss = nf.above(r - lat.Intra)
			}
			m.Violations += ca - cn + cs
			m.SumViolation += (sa - sn) + (ca-cn)*(lat.Inter-r) + ss + cs*(lat.Intra-r)
			if mx, ok := all.maxInserted(); ok && ca-cn+cs > 0 {
				// For scans this large, an upper bound: the largest
				// sender as if it were on another node.
				m.MaxViolation = max(m.MaxViolation, mx+lat.Inter-r)
			}
		}
		if p.Send != replay.NoEvent {
			s := times[p.Loc][p.Send]
			all.insert(s)
			perNode[node[p.Loc]].insert(s)
		}
	}
	return m
}

// fenwick counts and sums inserted values from a fixed universe.
type fenwick struct {
	keys  []int64 // sorted distinct universe
	cnt   []int64
	sum   []int64
	count int64
	total int64
	max   int64
}

func newFenwick(universe []int64) *fenwick {
	f := &fenwick{}
	f.reset(universe)
	return f
}

// reset empties f and makes universe (which it does not change) its
// universe, reusing its memory.
func (f *fenwick) reset(universe []int64) {
	f.keys = append(f.keys[:0], universe...)
	slices.Sort(f.keys)
	f.keys = slices.Compact(f.keys)
	n := len(f.keys) + 1
	f.cnt, f.sum = zeroed(f.cnt, n), zeroed(f.sum, n)
	f.count, f.total, f.max = 0, 0, 0
}

// zeroed returns n zeros in the memory of buf if it has room.
func zeroed(buf []int64, n int) []int64 {
	if cap(buf) < n {
		return make([]int64, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

func (f *fenwick) insert(v int64) {
	i, _ := slices.BinarySearch(f.keys, v)
	if f.count == 0 || v > f.max {
		f.max = v
	}
	f.count++
	f.total += v
	for i++; i < len(f.cnt); i += i & -i {
		f.cnt[i]++
		f.sum[i] += v
	}
}

func (f *fenwick) maxInserted() (int64, bool) { return f.max, f.count > 0 }

// above returns the count and sum of inserted values > x.
func (f *fenwick) above(x int64) (int64, int64) {
	i, _ := slices.BinarySearch(f.keys, x+1) // keys[:i] ≤ x
	var c, s int64
	for ; i > 0; i -= i & -i {
		c += f.cnt[i]
		s += f.sum[i]
	}
	return f.count - c, f.total - s
}
