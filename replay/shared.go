package replay

import (
	"fmt"
	"slices"
	"sort"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/trace"
)

// This file derives the shared-memory happened-before relations among the
// threads of each process (docs/algorithm.md, "Shared memory"), from the
// thread records as Score-P writes them. Instances (fork, join, barrier,
// taskwait) use the collective machinery: one instance per team instance,
// aggregated like a collective, never one message per pair of threads.
// One-to-one relations (locks, task creation, thread creation and end) are
// point-to-point dependencies with role RoleSyncSend/RoleSyncRecv.

// evRef is an event of a location.
type evRef struct {
	loc int32
	idx uint32
}

// locDep is a dependency of a location.
type locDep struct {
	loc int32
	dep Dep
}

// syncOut collects the relations of one process.
type syncOut struct {
	deps   []locDep // instance roles refer to indices into inst
	inst   []Instance
	parts  []Part
	issues Issues
	counts [NumSyncKinds]int64
}

func (o *syncOut) addDep(loc int32, d Dep) {
	o.deps = append(o.deps, locDep{loc, d})
}

func (o *syncOut) issue(kind IssueKind, loc int32, idx uint32, format string, args ...any) {
	o.issues.Add(Issue{Kind: kind, Location: loc, Event: idx, Detail: fmt.Sprintf(format, args...)})
}

// p2p adds a one-to-one relation from event (from, fidx) to (to, tidx);
// within one location the local order already holds it.
func (o *syncOut) p2p(kind SyncKind, from evRef, to evRef) {
	if from.loc == to.loc {
		return
	}
	o.addDep(from.loc, Dep{Idx: from.idx, Role: RoleSyncSend, Sync: kind, Peer: to.loc, Ref: to.idx})
	o.addDep(to.loc, Dep{Idx: to.idx, Role: RoleSyncRecv, Sync: kind, Peer: from.loc, Ref: from.idx})
	o.counts[kind]++
}

// instance adds an instance of a shared-memory relation whose members are
// parts (each location at most once), unless it relates no two locations.
func (o *syncOut) instance(kind SyncKind, class Class, comm, seq uint32, parts []Part) {
	var snd, rcv, self int64
	for _, p := range parts {
		if p.Send != NoEvent {
			snd++
		}
		if p.Recv != NoEvent {
			rcv++
		}
		if p.Send != NoEvent && p.Recv != NoEvent {
			self++
		}
	}
	pairs := snd*rcv - self
	if pairs <= 0 {
		return
	}
	ii := uint32(len(o.inst))
	o.inst = append(o.inst, Instance{Comm: comm, Seq: seq, Class: class, Kind: kind,
		First: uint32(len(o.parts)), N: uint32(len(parts)), Senders: uint32(snd)})
	for r, p := range parts {
		if p.Send != NoEvent {
			o.addDep(p.Loc, Dep{Idx: p.Send, Role: RoleCollSend, Peer: int32(r), Ref: ii})
		}
		if p.Recv != NoEvent {
			o.addDep(p.Loc, Dep{Idx: p.Recv, Role: RoleCollRecv, Peer: int32(r), Ref: ii})
		}
	}
	o.parts = append(o.parts, parts...)
	o.counts[kind] += pairs
}

// matchShared adds the shared-memory relations of t to g: per process (in
// parallel), then merged into g's instances and dependency lists.
func matchShared(t *trace.Trace, g *Graph, threads []*locThreads, parallel int) {
	_ = matchSharedWith(t, g, threads, parallel, nil, nil)
}

// matchSharedWith is matchShared of the processes own says (nil: all),
// whose locations' threads were scanned; share then completes the other
// processes' instances, parts, issues and counts (not their
// dependencies), so that the graph's instances are every process's and
// its dependencies own's.
func matchSharedWith(t *trace.Trace, g *Graph, threads []*locThreads, parallel int, own func(proc int, locs []int32) bool, share func(outs []syncOut) error) error {
	procs := make([][]int32, t.NumProcesses())
	for li := range t.Locations {
		p := t.ProcessOf(li)
		procs[p] = append(procs[p], int32(li))
	}
	outs := make([]syncOut, len(procs))
	par.ForEach(len(procs), parallel, func(pi int) {
		if len(procs[pi]) >= 2 && (own == nil || own(pi, procs[pi])) { // one location: local order is all
			outs[pi] = matchProcess(t, procs[pi], threads)
		}
	})
	if share != nil {
		if err := share(outs); err != nil {
			return err
		}
	}
	// The dependencies by location: counted first, then placed.
	count := make([]int, len(t.Locations)+1)
	for pi := range outs {
		for _, ld := range outs[pi].deps {
			count[ld.loc+1]++
		}
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	all := make([]Dep, count[len(count)-1])
	next := slices.Clone(count[:len(count)-1])
	for pi := range outs {
		o := &outs[pi]
		base, pbase := uint32(len(g.Instances)), uint32(len(g.Parts))
		for _, in := range o.inst {
			in.First += pbase
			g.Instances = append(g.Instances, in)
		}
		g.Parts = append(g.Parts, o.parts...)
		for _, ld := range o.deps {
			d := ld.dep
			if d.Role == RoleCollSend || d.Role == RoleCollRecv {
				d.Ref += base
			}
			all[next[ld.loc]] = d
			next[ld.loc]++
		}
		g.Issues.Merge(&o.issues)
		for k, n := range o.counts {
			g.Sync[k] += n
		}
	}
	par.ForEach(len(t.Locations), parallel, func(li int) {
		extra := all[count[li]:count[li+1]:count[li+1]]
		if len(extra) == 0 {
			return
		}
		// By event, an event's roles in the (deterministic) order they
		// were found: a stable radix pass.
		maxIdx := uint32(0)
		for _, d := range extra {
			maxIdx = max(maxIdx, d.Idx)
		}
		perm := groupBy(len(extra), func(i int) uint32 { return extra[i].Idx }, maxIdx)
		sorted := make([]Dep, len(extra))
		for i, p := range perm {
			sorted[i] = extra[p]
		}
		g.Deps[li] = mergeDeps(g.Deps[li], sorted)
	})
	return nil
}

// procMatch matches the thread events of the locations of one process.
type procMatch struct {
	t        *trace.Trace
	scans    []*locThreads
	out      *syncOut
	switched map[switchKey]bool
}

// matchProcess finds the shared-memory relations among locs, the
// locations of one process.
func matchProcess(t *trace.Trace, locs []int32, threads []*locThreads) syncOut {
	var out syncOut
	m := &procMatch{t: t, out: &out, scans: make([]*locThreads, len(locs))}
	for i, li := range locs {
		s := threads[li]
		if s == nil {
			s = &locThreads{loc: li}
		}
		m.scans[i] = s
		out.issues.Merge(&s.issues)
	}
	m.teams()
	m.pthreadBarriers()
	m.locks()
	m.tasks()
	m.threadLife()
	return out
}

// teamMembers returns the scans of the locations that take part in team,
// in the order of their rank in the team's communicator (then location).
func (m *procMatch) teamMembers(team uint32) []*locThreads {
	var mem []*locThreads
	for _, s := range m.scans {
		if s.teams[team] != nil {
			mem = append(mem, s)
		}
	}
	rank := func(s *locThreads) int {
		if int(team) < len(m.t.Comms) {
			if r := m.t.Comms[team].CommRank(s.loc); r >= 0 {
				return r
			}
		}
		return len(m.t.Locations) + int(s.loc)
	}
	sort.SliceStable(mem, func(a, b int) bool { return rank(mem[a]) < rank(mem[b]) })
	return mem
}

// keysOf returns the keys of the maps of the scans, sorted, each once.
func keysOf[V any](scans []*locThreads, of func(*locThreads) map[uint32]V) []uint32 {
	seen := map[uint32]bool{}
	var keys []uint32
	for _, s := range scans {
		for k := range of(s) {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	return keys
}

// teams matches the instances of every thread team: forks, joins and the
// barriers within each instance.
func (m *procMatch) teams() {
	for _, team := range keysOf(m.scans, func(s *locThreads) map[uint32]*teamSeq { return s.teams }) {
		mem := m.teamMembers(team)
		minK, maxK := -1, 0
		for _, s := range mem {
			n := len(s.teams[team].begins)
			if minK < 0 || n < minK {
				minK = n
			}
			maxK = max(maxK, n)
		}
		for k := minK; k < maxK; k++ {
			var lack []int32
			for _, s := range mem {
				if len(s.teams[team].begins) <= k {
					lack = append(lack, s.loc)
				}
			}
			m.out.issue(IncompleteThread, lack[0], NoEvent, "team %d instance %d: %d of %d members lack it", team, k, len(lack), len(mem))
		}
		m.forksJoins(team, mem, minK)
		for k := range minK {
			m.barriers(team, int32(k), mem)
		}
	}
}

// forksJoins adds the fork and join instances of team's complete
// instances (k < complete).
func (m *procMatch) forksJoins(team uint32, mem []*locThreads, complete int) {
	type bound struct {
		s *locThreads
		f forkRec
	}
	forks, joins := map[int32]bound{}, map[int32]bound{}
	collect := func(dst map[int32]bound, s *locThreads, f forkRec, what string) {
		if f.team != team {
			return
		}
		if o, dup := dst[f.k]; dup {
			m.out.issue(InconsistentThread, s.loc, f.idx, "a second %s of team %d instance %d (the first at location %d, event %d)", what, team, f.k, o.s.loc, o.f.idx)
			return
		}
		dst[f.k] = bound{s, f}
	}
	for _, s := range m.scans {
		for _, f := range s.forks {
			collect(forks, s, f, "fork")
		}
		for _, j := range s.joins {
			collect(joins, s, j, "join")
		}
	}
	for k := int32(0); k < int32(complete); k++ {
		if b, ok := forks[k]; ok {
			parts := make([]Part, len(mem))
			for r, s := range mem {
				parts[r] = Part{Loc: s.loc, Send: NoEvent, Recv: s.teams[team].begins[k]}
				if s == b.s {
					parts[r] = Part{Loc: s.loc, Send: b.f.idx, Recv: NoEvent}
				}
			}
			m.out.instance(SyncFork, ClassOneToN, team, uint32(k), parts)
		}
		b, ok := joins[k]
		if !ok {
			continue
		}
		parts := make([]Part, len(mem))
		for r, s := range mem {
			ends := s.teams[team].ends
			if int(k) >= len(ends) {
				m.out.issue(IncompleteThread, s.loc, NoEvent, "team %d instance %d: no team end before the join at location %d, event %d", team, k, b.s.loc, b.f.idx)
				parts = nil
				break
			}
			parts[r] = Part{Loc: s.loc, Send: ends[k], Recv: NoEvent}
			if s == b.s {
				parts[r].Recv = b.f.idx
			}
		}
		if parts != nil {
			m.out.instance(SyncJoin, ClassNToOne, team, uint32(k), parts)
		}
	}
}

// barriers matches the barriers of instance k of team: the b-th barrier
// of every member is one instance, whose members must agree on the region.
func (m *procMatch) barriers(team uint32, k int32, mem []*locThreads) {
	minB, maxB := -1, 0
	for _, s := range mem {
		n := len(s.teams[team].barriers[k])
		if minB < 0 || n < minB {
			minB = n
		}
		maxB = max(maxB, n)
	}
	if maxB > minB {
		m.out.issue(IncompleteThread, mem[0].loc, NoEvent, "team %d instance %d: members passed %d to %d barriers; barriers %d and later not matched", team, k, minB, maxB, minB)
	}
	m.barrierInstances(team, uint32(k), mem, minB, func(s *locThreads) []barrierRec { return s.teams[team].barriers[k] })
}

// barrierInstances adds the first n barriers of the members, where list
// gives a member's barriers.
func (m *procMatch) barrierInstances(comm, seq uint32, mem []*locThreads, n int, list func(*locThreads) []barrierRec) {
	for b := range n {
		first := list(mem[0])[b]
		parts := make([]Part, len(mem))
		for r, s := range mem {
			br := list(s)[b]
			if br.region != first.region {
				m.out.issue(InconsistentThread, s.loc, br.enter, "barrier %d of team %d instance %d: region %d here, region %d at location %d", b, comm, seq, br.region, first.region, mem[0].loc)
				parts = nil
				break
			}
			parts[r] = Part{Loc: s.loc, Send: br.send, Recv: br.leave}
		}
		if parts != nil {
			m.out.instance(SyncBarrier, ClassBarrier, comm, seq, parts)
		}
	}
}

// pthreadBarriers matches the pthread barriers of the process: the n-th
// wait in a barrier region on every location that waits in it, provided
// they all wait equally often (the trace does not say which barrier object
// a wait was for, so nothing is matched otherwise).
func (m *procMatch) pthreadBarriers() {
	for _, r := range keysOf(m.scans, func(s *locThreads) map[uint32][]barrierRec { return s.pbarriers }) {
		var mem []*locThreads
		for _, s := range m.scans {
			if len(s.pbarriers[r]) > 0 {
				mem = append(mem, s)
			}
		}
		n := len(mem[0].pbarriers[r])
		for _, s := range mem[1:] {
			if len(s.pbarriers[r]) != n {
				m.out.issue(InconsistentThread, s.loc, NoEvent, "pthread barrier region %d: %d waits here, %d at location %d; not matched", r, len(s.pbarriers[r]), n, mem[0].loc)
				n = -1
				break
			}
		}
		if n > 0 {
			m.barrierInstances(NoEvent, r, mem, n, func(s *locThreads) []barrierRec { return s.pbarriers[r] })
		}
	}
}
