package replay

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/trace"
)

// AlltoallvPolicy says how ALLTOALLV and ALLTOALLW instances are treated:
// the trace records only each member's byte totals, not the pairs.
type AlltoallvPolicy uint8

const (
	// AlltoallvIgnore keeps them internal (Scalasca's choice): it never
	// moves an event for a pair that may not have exchanged data.
	AlltoallvIgnore AlltoallvPolicy = iota
	// AlltoallvNToN treats them as N-to-N among the members that sent and
	// received bytes, which can over-constrain.
	AlltoallvNToN
)

// String returns the policy's flag name.
func (p AlltoallvPolicy) String() string {
	if p == AlltoallvNToN {
		return "nton"
	}
	return "ignore"
}

// ParseAlltoallvPolicy parses a policy's flag name.
func ParseAlltoallvPolicy(s string) (AlltoallvPolicy, error) {
	switch s {
	case "ignore":
		return AlltoallvIgnore, nil
	case "nton", "n-to-n":
		return AlltoallvNToN, nil
	}
	return 0, fmt.Errorf("unknown ALLTOALLV policy %q (want ignore or nton)", s)
}

// MatchOptions configures Match.
type MatchOptions struct {
	Alltoallv AlltoallvPolicy
	// Parallel is the number of goroutines; 0 = GOMAXPROCS.
	Parallel int
}

type sendRec struct {
	dst  int32
	comm uint32
	tag  uint32
	idx  uint32
	// matched receive, filled in by the receiver's matcher; rloc < 0: none.
	rloc int32
	ridx uint32
}

type recvRec struct {
	src  int32
	comm uint32
	tag  uint32
	post uint32
	idx  uint32
	// matched send event, valid when ok
	sidx uint32
	ok   bool
}

type collRec struct {
	comm       uint32
	post       uint32
	send, recv uint32
	op         trace.CollOp
	root       uint32
	sent, rcvd uint64
	inst       uint32 // instance index, NoEvent when none
	part       uint32 // index into Graph.Parts, NoEvent when none
}

type locScan struct {
	// sends in event order, and byDst: their indices grouped by
	// destination (event order within one destination)
	sends []sendRec
	byDst []int32
	recvs []recvRec
	colls []collRec
	// MPI_Init and MPI_Finalize enter/leave events (NoEvent if absent), and
	// how many of each were seen.
	initEnter, initLeave, finEnter, finLeave uint32
	initN, finN                              int
	issues                                   Issues
}

// Match derives the happened-before relation of t: point-to-point messages
// by MPI's non-overtaking rule (the k-th send from s to d on a communicator
// and tag matches the k-th receive at d from s with that tag, receives
// ordered by when they were posted), collective instances by their order
// on each communicator, and the shared-memory relations among the threads
// of each process (forks, joins, barriers, locks, tasks, thread creation;
// docs/algorithm.md). What cannot be matched is listed in Graph.Issues and
// treated as internal. t must be valid (Trace.Validate).
func Match(t *trace.Trace, opt *MatchOptions) (*Graph, error) {
	m := NewMatcher(t, opt)
	par.ForEach(len(t.Locations), m.o.Parallel, func(li int) { m.Scan(li, &t.Locations[li].Events) })
	return m.Finish(context.Background())
}

// Matcher finds the happened-before relation of a trace location by
// location, so that a reader can hand it each location's events as soon as
// they are read and drop them: NewMatcher with the definitions, Scan for
// every location (concurrently for different ones), then Finish. Match
// does all three.
type Matcher struct {
	t             *trace.Trace
	o             MatchOptions
	isInit, isFin []bool
	rc            []regionClass
	scans         []locScan
	threads       []*locThreads // per location; nil where it has no thread events
}

// NewMatcher returns a matcher for a trace with the definitions of t (its
// events are not looked at).
func NewMatcher(t *trace.Trace, opt *MatchOptions) *Matcher {
	m := &Matcher{t: t}
	if opt != nil {
		m.o = *opt
	}
	m.o.Parallel = par.Workers(m.o.Parallel)
	m.isInit = make([]bool, len(t.Regions))
	m.isFin = make([]bool, len(t.Regions))
	for i := range t.Regions {
		m.isInit[i] = t.Regions[i].IsMPIInit()
		m.isFin[i] = t.Regions[i].IsMPIFinalize()
	}
	m.rc = classifyRegions(t)
	m.scans = make([]locScan, len(t.Locations))
	m.threads = make([]*locThreads, len(t.Locations))
	return m
}

// Scan reads what the relation needs of location li's events ev (the whole
// sequence or a selection); ev is not used afterwards.
func (m *Matcher) Scan(li int, ev *trace.Events) {
	var shared bool
	m.scans[li], shared = scanLocation(m.t, li, ev, m.isInit, m.isFin, m.rc)
	if shared {
		m.threads[li] = scanThreads(li, ev, m.rc)
	}
}

// Finish matches what Scan found and returns the relation. It stops,
// returning the context's error, when ctx is cancelled.
func (m *Matcher) Finish(ctx context.Context) (*Graph, error) {
	t, o, scans := m.t, &m.o, m.scans
	n := len(t.Locations)
	// Point to point: sort each sender's sends by destination (stably, so
	// event order is kept within one destination), then let each receiver
	// match its receives against the sends addressed to it.
	maxLoc := uint32(max(n-1, 0))
	err := par.Do(ctx, n, o.Parallel, func(li int) error {
		ss := scans[li].sends
		scans[li].byDst = groupBy(len(ss), func(i int) uint32 { return uint32(ss[i].dst) }, maxLoc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = par.Do(ctx, n, o.Parallel, func(li int) error {
		matchReceiver(scans, li, maxLoc)
		return nil
	})
	if err != nil {
		return nil, err
	}

	g, msgs, err := assemble(ctx, t, scans, o, nil)
	if err != nil {
		return nil, err
	}
	for li := range scans {
		g.Messages += msgs[li]
		g.Issues.Merge(&scans[li].issues)
	}
	for li := range g.Deps {
		if err := checkDeps(g.Deps[li]); err != nil {
			return nil, fmt.Errorf("location %d: %w", li, err)
		}
	}
	m.scans = nil
	// The shared-memory relations: an event may take part in several
	// (a task completion in a barrier and in a taskwait), so they come
	// after the check.
	matchShared(t, g, m.threads, o.Parallel)
	m.threads = nil
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

// assemble forms the graph of the matched scans: the collective
// instances, the MPI_Init/MPI_Finalize barriers, and the dependency lists
// of every location (own: of those own says); it returns each location's
// matched sends.
func assemble(ctx context.Context, t *trace.Trace, scans []locScan, o *MatchOptions, own func(li int) bool) (*Graph, []int64, error) {
	g := &Graph{Deps: make([][]Dep, len(scans))}
	if err := buildInstances(t, scans, g, o); err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	procs := make([]int32, len(scans))
	for li := range procs {
		procs[li] = t.ProcessOf(li)
	}
	addRegionBarrier(scans, procs, g, true)
	addRegionBarrier(scans, procs, g, false)
	msgs, err := locationDeps(ctx, g, scans, o.Parallel, own)
	if err != nil {
		return nil, nil, err
	}
	initFinDeps(g, own)
	return g, msgs, nil
}

// locationDeps sets the dependency list of every location (own: of those
// own says) in event order, from the matched sends and receives and the
// collective participations of scans, and returns each location's
// matched sends; a send left unmatched is an issue of its location.
func locationDeps(ctx context.Context, g *Graph, scans []locScan, parallel int, own func(li int) bool) ([]int64, error) {
	msgs := make([]int64, len(scans))
	err := par.Do(ctx, len(scans), parallel, func(li int) error {
		if own != nil && !own(li) {
			return nil
		}
		s := &scans[li]
		// Three lists in event order — sends, receives, collective roles —
		// merged into one.
		p2p := make([]Dep, 0, len(s.sends)+len(s.recvs))
		ri := 0
		for i := range s.sends {
			sr := &s.sends[i]
			for ; ri < len(s.recvs) && s.recvs[ri].idx < sr.idx; ri++ {
				if rr := &s.recvs[ri]; rr.ok {
					p2p = append(p2p, Dep{Idx: rr.idx, Role: RoleRecv, Peer: rr.src, Ref: rr.sidx})
				}
			}
			if sr.rloc < 0 {
				s.issues.Add(Issue{Kind: UnmatchedSend, Location: int32(li), Event: sr.idx,
					Detail: fmt.Sprintf("to location %d, communicator %d, tag %d", sr.dst, sr.comm, sr.tag)})
				continue
			}
			p2p = append(p2p, Dep{Idx: sr.idx, Role: RoleSend, Peer: sr.rloc, Ref: sr.ridx})
			msgs[li]++
		}
		for ; ri < len(s.recvs); ri++ {
			if rr := &s.recvs[ri]; rr.ok {
				p2p = append(p2p, Dep{Idx: rr.idx, Role: RoleRecv, Peer: rr.src, Ref: rr.sidx})
			}
		}
		var coll []Dep
		for i := range s.colls {
			c := &s.colls[i]
			if c.part == NoEvent {
				continue
			}
			p := &g.Parts[c.part]
			rank := int32(c.part - g.Instances[c.inst].First)
			if p.Send != NoEvent {
				coll = append(coll, Dep{Idx: p.Send, Role: RoleCollSend, Peer: rank, Ref: c.inst})
			}
			if p.Recv != NoEvent {
				coll = append(coll, Dep{Idx: p.Recv, Role: RoleCollRecv, Peer: rank, Ref: c.inst})
			}
		}
		byIdx := func(a, b Dep) int { return cmp.Compare(a.Idx, b.Idx) }
		if !slices.IsSortedFunc(coll, byIdx) {
			slices.SortFunc(coll, byIdx) // non-blocking collectives completed out of order
		}
		g.Deps[li] = mergeDeps(p2p, coll)
		return nil
	})
	return msgs, err
}

// initFinDeps adds the MPI_Init/MPI_Finalize barriers' two dependencies
// to each member location (own: of those own says).
func initFinDeps(g *Graph, own func(li int) bool) {
	// MPI_Init/MPI_Finalize barriers (two dependencies per location).
	for ii := range g.Instances {
		in := &g.Instances[ii]
		if in.Comm != NoEvent {
			continue
		}
		for r, p := range g.InstanceParts(uint32(ii)) {
			if own != nil && !own(int(p.Loc)) {
				continue
			}
			if d := g.Deps[p.Loc]; cap(d)-len(d) < 2 {
				// Room for the two exactly: the lists are held for the
				// run, and an insert's growth would add a quarter.
				g.Deps[p.Loc] = append(make([]Dep, 0, len(d)+2), d...)
			}
			g.Deps[p.Loc] = insertDep(g.Deps[p.Loc], Dep{Idx: p.Send, Role: RoleCollSend, Peer: int32(r), Ref: uint32(ii)})
			g.Deps[p.Loc] = insertDep(g.Deps[p.Loc], Dep{Idx: p.Recv, Role: RoleCollRecv, Peer: int32(r), Ref: uint32(ii)})
		}
	}
}

// mergeDeps merges two lists sorted by event index.
func mergeDeps(a, b []Dep) []Dep {
	if len(b) == 0 {
		return a
	}
	out := make([]Dep, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i].Idx <= b[j].Idx {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// groupBy returns the indices 0..n−1 ordered by key, ascending, keeping
// index order among equal keys: a stable LSD radix sort on 8-bit digits,
// as many passes as maxKey needs.
func groupBy(n int, key func(i int) uint32, maxKey uint32) []int32 {
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	if n < 2 {
		return perm
	}
	if n <= 32 { // insertion sort, stable
		for i := 1; i < n; i++ {
			for j := i; j > 0 && key(int(perm[j-1])) > key(int(perm[j])); j-- {
				perm[j-1], perm[j] = perm[j], perm[j-1]
			}
		}
		return perm
	}
	tmp := make([]int32, n)
	for shift := uint(0); shift < 32 && maxKey>>shift != 0; shift += 8 {
		var count [257]int
		for _, p := range perm {
			count[(key(int(p))>>shift)&0xff+1]++
		}
		for d := 1; d < 257; d++ {
			count[d] += count[d-1]
		}
		for _, p := range perm {
			d := (key(int(p)) >> shift) & 0xff
			tmp[count[d]] = p
			count[d]++
		}
		perm, tmp = tmp, perm
	}
	return perm
}

// checkDeps verifies that no event has two roles.
func checkDeps(deps []Dep) error {
	for i := 1; i < len(deps); i++ {
		if deps[i].Idx == deps[i-1].Idx {
			return fmt.Errorf("event %d is both a %v and a %v in the happened-before relation", deps[i].Idx, deps[i-1].Role, deps[i].Role)
		}
	}
	return nil
}

func insertDep(deps []Dep, d Dep) []Dep {
	i := sort.Search(len(deps), func(i int) bool { return deps[i].Idx >= d.Idx })
	return slices.Insert(deps, i, d)
}

func (r Role) String() string {
	switch r {
	case RoleSend:
		return "send"
	case RoleRecv:
		return "receive"
	case RoleCollSend:
		return "collective send"
	case RoleCollRecv:
		return "collective receive"
	case RoleSyncSend:
		return "shared-memory send"
	case RoleSyncRecv:
		return "shared-memory receive"
	}
	return fmt.Sprintf("role(%d)", uint8(r))
}

// scanLocation extracts the sends, receives and collective participations
// of one location, and reports whether its events hold anything the
// shared-memory matching looks at: a thread event, or an enter or leave of
// a barrier or taskwait region (rc classifies the regions).
func scanLocation(t *trace.Trace, li int, ev *trace.Events, isInit, isFin []bool, rc []regionClass) (locScan, bool) {
	s := locScan{initEnter: NoEvent, initLeave: NoEvent, finEnter: NoEvent, finLeave: NoEvent}
	// Sized once: the lists grow by copying otherwise. The same pass looks
	// for shared-memory events, so a location without them (any pure MPI
	// trace) is not read again.
	var ns, nr, nc int
	shared := false
	for i, k := range ev.Kind {
		switch {
		case k.IsSend():
			ns++
		case k.IsRecv():
			nr++
		case k.HasColl():
			nc++
		case shared:
		case k.HasThread(), (k == trace.KindEnter || k == trace.KindLeave) && rc[ev.Ref[i]] != regionOther:
			shared = true
		}
	}
	s.sends, s.recvs, s.colls = make([]sendRec, 0, ns), make([]recvRec, 0, nr), make([]collRec, 0, nc)
	var posted map[uint64]uint32 // request id → posting event (irecv, nb collective), made on first use
	lastBegin, lastEnter := NoEvent, NoEvent
	for i, k := range ev.Kind {
		idx := ev.Pos(i)
		switch k {
		case trace.KindEnter:
			lastEnter = idx
			r := ev.Ref[i]
			if isInit[r] {
				s.initN++
				s.initEnter = idx
			} else if isFin[r] {
				s.finN++
				s.finEnter = idx
			}
		case trace.KindLeave:
			r := ev.Ref[i]
			if isInit[r] && s.initEnter != NoEvent && s.initLeave == NoEvent {
				s.initLeave = idx
			} else if isFin[r] && s.finEnter != NoEvent && s.finLeave == NoEvent {
				s.finLeave = idx
			}
		case trace.KindSend, trace.KindIsend:
			m := ev.Msg(i)
			s.sends = append(s.sends, sendRec{dst: t.Comms[m.Comm].Members[m.Peer], comm: m.Comm, tag: m.Tag, idx: idx, rloc: -1})
		case trace.KindRecv:
			m := ev.Msg(i)
			s.recvs = append(s.recvs, recvRec{src: t.Comms[m.Comm].Members[m.Peer], comm: m.Comm, tag: m.Tag, post: idx, idx: idx})
		case trace.KindIrecv:
			m := ev.Msg(i)
			post, ok := posted[m.Request]
			if ok {
				delete(posted, m.Request)
			} else {
				post = idx
			}
			s.recvs = append(s.recvs, recvRec{src: t.Comms[m.Comm].Members[m.Peer], comm: m.Comm, tag: m.Tag, post: post, idx: idx})
		case trace.KindIrecvRequest, trace.KindNBCollRequest:
			if posted == nil {
				posted = make(map[uint64]uint32)
			}
			posted[ev.Req(i)] = idx
		case trace.KindRequestCancelled:
			delete(posted, ev.Req(i))
		case trace.KindCollBegin:
			lastBegin = idx
		case trace.KindCollEnd:
			c := ev.Coll(i)
			send := lastBegin
			if send == NoEvent {
				send = lastEnter
			}
			if send == NoEvent {
				send = idx
			}
			s.colls = append(s.colls, collRec{comm: c.Comm, post: send, send: send, recv: idx,
				op: c.Op, root: c.Root, sent: c.Sent, rcvd: c.Received, inst: NoEvent, part: NoEvent})
			lastBegin, lastEnter = NoEvent, NoEvent
		case trace.KindNBCollComplete:
			c := ev.Coll(i)
			post, ok := posted[c.Request]
			if ok {
				delete(posted, c.Request)
			} else {
				post = idx
			}
			s.colls = append(s.colls, collRec{comm: c.Comm, post: post, send: post, recv: idx,
				op: c.Op, root: c.Root, sent: c.Sent, rcvd: c.Received, inst: NoEvent, part: NoEvent})
		}
	}
	// posts are distinct events
	slices.SortFunc(s.colls, func(a, b collRec) int { return cmp.Compare(a.post, b.post) })
	return s, shared
}

// matchReceiver matches the receives of location d with the sends
// addressed to it. It writes the match into the senders' records (each
// send record belongs to exactly one receiver, so no two goroutines write
// the same record) and into its own receive records.
func matchReceiver(scans []locScan, d int, maxLoc uint32) {
	rs := scans[d].recvs
	// Receives grouped by source, in posting order within a source.
	order := groupBy(len(rs), func(i int) uint32 { return uint32(rs[i].src) }, maxLoc)
	var sends []*sendRec
	var sendIdx, recvIdx []int32 // scratch
	for lo := 0; lo < len(order); {
		src := rs[order[lo]].src
		hi := lo
		for hi < len(order) && rs[order[hi]].src == src {
			hi++
		}
		group := order[lo:hi]
		lo = hi
		byPost := func(a, b int32) int { return cmp.Compare(rs[a].post, rs[b].post) }
		if !slices.IsSortedFunc(group, byPost) {
			slices.SortFunc(group, byPost) // irecvs posted before an earlier-completed receive
		}
		// The sends of src addressed to d, in event order.
		ss, perm := scans[src].sends, scans[src].byDst
		a := sort.Search(len(perm), func(i int) bool { return ss[perm[i]].dst >= int32(d) })
		b := a + sort.Search(len(perm)-a, func(i int) bool { return ss[perm[a+i]].dst > int32(d) })
		sends = sends[:0]
		for _, k := range perm[a:b] {
			sends = append(sends, &ss[k])
		}
		// Fast path: the sends and the receives agree on (comm, tag) in order.
		fast := len(sends) == len(group)
		for i := 0; fast && i < len(group); i++ {
			r := &rs[group[i]]
			fast = sends[i].comm == r.comm && sends[i].tag == r.tag
		}
		if fast {
			for i, ri := range group {
				pair(sends[i], &rs[ri], d)
			}
			continue
		}
		// General case: match within each (comm, tag) channel in order.
		sendIdx = sendIdx[:0]
		for i := range sends {
			sendIdx = append(sendIdx, int32(i))
		}
		recvIdx = append(recvIdx[:0], group...)
		key := func(comm, tag uint32) uint64 { return uint64(comm)<<32 | uint64(tag) }
		slices.SortStableFunc(sendIdx, func(x, y int32) int {
			return cmp.Compare(key(sends[x].comm, sends[x].tag), key(sends[y].comm, sends[y].tag))
		})
		slices.SortStableFunc(recvIdx, func(x, y int32) int {
			return cmp.Compare(key(rs[x].comm, rs[x].tag), key(rs[y].comm, rs[y].tag))
		})
		i, j := 0, 0
		for i < len(sendIdx) && j < len(recvIdx) {
			sr, rr := sends[sendIdx[i]], &rs[recvIdx[j]]
			ks, kr := key(sr.comm, sr.tag), key(rr.comm, rr.tag)
			switch {
			case ks == kr:
				pair(sr, rr, d)
				i++
				j++
			case ks < kr:
				i++
			default:
				unmatchedRecv(scans, d, rr)
				j++
			}
		}
		for ; j < len(recvIdx); j++ {
			unmatchedRecv(scans, d, &rs[recvIdx[j]])
		}
	}
}

func pair(s *sendRec, r *recvRec, d int) {
	s.rloc = int32(d)
	s.ridx = r.idx
	r.sidx = s.idx
	r.ok = true
}

func unmatchedRecv(scans []locScan, d int, r *recvRec) {
	scans[d].issues.Add(Issue{Kind: UnmatchedRecv, Location: int32(d), Event: r.idx,
		Detail: fmt.Sprintf("from location %d, communicator %d, tag %d", r.src, r.comm, r.tag)})
}

// classify returns the class of a collective operation, or 0 for
// operations without message semantics.
func classify(op trace.CollOp, p AlltoallvPolicy) Class {
	switch op {
	case trace.OpBarrier:
		return ClassBarrier
	case trace.OpBcast, trace.OpScatter, trace.OpScatterv:
		return ClassOneToN
	case trace.OpGather, trace.OpGatherv, trace.OpReduce:
		return ClassNToOne
	case trace.OpAllgather, trace.OpAllgatherv, trace.OpAlltoall, trace.OpAllreduce,
		trace.OpReduceScatter, trace.OpReduceScatterBlock:
		return ClassNToN
	case trace.OpAlltoallv, trace.OpAlltoallw:
		if p == AlltoallvNToN {
			return ClassNToN
		}
	case trace.OpScan, trace.OpExscan:
		return ClassScan
	}
	return 0
}

// roles returns the logical send and receive of member rank of an instance.
func roles(class Class, rank int, c *collRec) (send, recv uint32) {
	send, recv = NoEvent, NoEvent
	isRoot := c.root != trace.NoRoot && int(c.root) == rank
	switch class {
	case ClassBarrier, ClassScan:
		return c.send, c.recv
	case ClassOneToN:
		if isRoot && c.sent > 0 {
			send = c.send
		}
		if !isRoot && c.rcvd > 0 {
			recv = c.recv
		}
	case ClassNToOne:
		if !isRoot && c.sent > 0 {
			send = c.send
		}
		if isRoot && c.rcvd > 0 {
			recv = c.recv
		}
	case ClassNToN:
		if c.sent > 0 {
			send = c.send
		}
		if c.rcvd > 0 {
			recv = c.recv
		}
	}
	return send, recv
}

// foreignCollectives lists as issues the collectives that a location
// posted on a communicator that does not have it as a member (or has no
// members): no instance can hold them, and they stay internal. byComm are
// the locations' collectives grouped by communicator (buildInstances).
func foreignCollectives(t *trace.Trace, scans []locScan, byComm [][]int32, g *Graph) {
	sorted := make([][]int32, len(t.Comms)) // members, sorted, when needed
	for li := range scans {
		cs, perm := scans[li].colls, byComm[li]
		for i := 0; i < len(perm); {
			ci := cs[perm[i]].comm
			j := i
			for j < len(perm) && cs[perm[j]].comm == ci {
				j++
			}
			if sorted[ci] == nil {
				sorted[ci] = slices.Clone(t.Comms[ci].Members)
				slices.Sort(sorted[ci])
			}
			if _, member := slices.BinarySearch(sorted[ci], int32(li)); !member {
				comm := &t.Comms[ci]
				why := "location %d is not a member of communicator %d (%q)"
				if len(comm.Members) == 0 {
					why = "location %d posted it on communicator %d (%q), which has no members"
				}
				for _, k := range perm[i:j] {
					c := &cs[k]
					g.Issues.Add(Issue{Kind: ForeignCollective, Location: int32(li), Event: c.recv,
						Detail: fmt.Sprintf("%s: "+why, c.op, li, ci, comm.Name)})
				}
			}
			i = j
		}
	}
}

// buildInstances forms the collective instances of every communicator and
// the MPI_Init/MPI_Finalize barriers.
func buildInstances(t *trace.Trace, scans []locScan, g *Graph, o *MatchOptions) error {
	// Per location, the participations grouped by communicator, in
	// sequence order within one (colls are sorted by posting, and the
	// grouping is stable).
	maxComm := uint32(max(len(t.Comms)-1, 0))
	byComm := make([][]int32, len(scans))
	par.ForEach(len(scans), o.Parallel, func(li int) {
		cs := scans[li].colls
		byComm[li] = groupBy(len(cs), func(i int) uint32 { return cs[i].comm }, maxComm)
	})
	seq := func(loc int32, ci uint32) []int32 {
		cs, perm := scans[loc].colls, byComm[loc]
		a := sort.Search(len(perm), func(i int) bool { return cs[perm[i]].comm >= ci })
		b := a + sort.Search(len(perm)-a, func(i int) bool { return cs[perm[a+i]].comm > ci })
		return perm[a:b]
	}
	foreignCollectives(t, scans, byComm, g)
	type commOut struct {
		inst    []Instance
		parts   []Part
		issues  Issues
		ignored int64
		single  int64
		// (location, coll record, local instance, local part) to patch
		// after numbering
		refs [][4]int32
	}
	outs := make([]commOut, len(t.Comms))
	par.ForEach(len(t.Comms), o.Parallel, func(ci int) {
		out := &outs[ci]
		comm := &t.Comms[ci]
		members := comm.Members
		if len(members) == 0 {
			return
		}
		lists := make([][]int32, len(members))
		minN, maxN := -1, 0
		for r, loc := range members {
			lists[r] = seq(loc, uint32(ci))
			n := len(lists[r])
			if minN < 0 || n < minN {
				minN = n
			}
			maxN = max(maxN, n)
		}
		for k := 0; k < maxN; k++ {
			if k >= minN {
				var missing []int32
				for r, loc := range members {
					if k >= len(lists[r]) {
						missing = append(missing, loc)
					}
				}
				out.issues.Add(Issue{Kind: IncompleteCollective, Location: missing[0], Event: NoEvent,
					Detail: fmt.Sprintf("communicator %d (%q) instance %d: %d of %d members lack it (first: location %d)", ci, comm.Name, k, len(missing), len(members), missing[0])})
				continue
			}
			first := &scans[members[0]].colls[lists[0][k]]
			consistent := true
			for r := 1; r < len(members) && consistent; r++ {
				c := &scans[members[r]].colls[lists[r][k]]
				if c.op != first.op || c.root != first.root {
					out.issues.Add(Issue{Kind: InconsistentCollective, Location: members[r], Event: c.recv,
						Detail: fmt.Sprintf("communicator %d (%q) instance %d: %s root %d here, %s root %d at rank 0 (location %d, event %d)",
							ci, comm.Name, k, c.op, int32(c.root), first.op, int32(first.root), members[0], first.recv)})
					consistent = false
				}
			}
			if !consistent {
				continue
			}
			if len(members) < 2 {
				out.single++
				continue
			}
			class := classify(first.op, o.Alltoallv)
			if class == 0 {
				if first.op == trace.OpAlltoallv || first.op == trace.OpAlltoallw {
					out.ignored++
				}
				continue
			}
			in := Instance{Comm: uint32(ci), Seq: uint32(k), Op: first.op, Class: class, First: uint32(len(out.parts)), N: uint32(len(members))}
			local := int32(len(out.inst))
			for r, loc := range members {
				c := &scans[loc].colls[lists[r][k]]
				s, rv := roles(class, r, c)
				if s != NoEvent {
					in.Senders++
				}
				out.refs = append(out.refs, [4]int32{loc, lists[r][k], local, int32(len(out.parts))})
				out.parts = append(out.parts, Part{Loc: loc, Send: s, Recv: rv})
			}
			out.inst = append(out.inst, in)
		}
	})
	for ci := range outs {
		out := &outs[ci]
		base := uint32(len(g.Instances))
		pbase := uint32(len(g.Parts))
		for _, in := range out.inst {
			in.First += pbase
			g.Instances = append(g.Instances, in)
		}
		g.Parts = append(g.Parts, out.parts...)
		for _, ref := range out.refs {
			c := &scans[ref[0]].colls[ref[1]]
			c.inst = base + uint32(ref[2])
			c.part = pbase + uint32(ref[3])
		}
		g.Issues.Merge(&out.issues)
		g.Ignored += out.ignored
		g.Single += out.single
	}
	for ii := range g.Instances {
		in := &g.Instances[ii]
		var snd, rcv int64
		for _, p := range g.InstanceParts(uint32(ii)) {
			if p.Send != NoEvent {
				snd++
			}
			if p.Recv != NoEvent {
				rcv++
			}
		}
		switch in.Class {
		case ClassScan:
			// pairs k < i among all members
			g.LogicalMessages += int64(in.N) * int64(in.N-1) / 2
		default:
			pairs := snd * rcv
			for _, p := range g.InstanceParts(uint32(ii)) {
				if p.Send != NoEvent && p.Recv != NoEvent {
					pairs--
				}
			}
			g.LogicalMessages += pairs
		}
	}
	return nil
}

// addRegionBarrier adds MPI_Init (init) or MPI_Finalize as a barrier over
// the processes when every process has exactly one location that entered
// and left it exactly once and no other location of the process entered
// it (a trace without processes: every location). procs gives each
// location's process.
func addRegionBarrier(scans []locScan, procs []int32, g *Graph, init bool) {
	name := "MPI_Finalize"
	if init {
		name = "MPI_Init"
	}
	nproc := int32(0)
	for _, p := range procs {
		nproc = max(nproc, p+1)
	}
	owner := make([]int32, nproc) // the process's location with the region; -1 none, -2 more than one or a bad one
	for i := range owner {
		owner[i] = -1
	}
	for li := range scans {
		s := &scans[li]
		n, enter, leave := s.finN, s.finEnter, s.finLeave
		if init {
			n, enter, leave = s.initN, s.initEnter, s.initLeave
		}
		p := procs[li]
		switch {
		case n == 0:
		case n == 1 && enter != NoEvent && leave != NoEvent && owner[p] == -1:
			owner[p] = int32(li)
		default:
			owner[p] = -2
		}
	}
	have, used := 0, 0
	for _, o := range owner {
		if o >= 0 {
			have++
		}
		if o != -1 {
			used++
		}
	}
	if used == 0 {
		return
	}
	if have < int(nproc) || nproc < 2 {
		if nproc >= 2 {
			g.Issues.Add(Issue{Kind: UnpairedRegion, Location: -1, Event: NoEvent,
				Detail: fmt.Sprintf("%s entered and left once by one location of %d of %d processes; not used as a barrier", name, have, nproc)})
		}
		return
	}
	in := Instance{Comm: NoEvent, Op: trace.OpBarrier, Class: ClassBarrier, First: uint32(len(g.Parts)), N: uint32(nproc), Senders: uint32(nproc)}
	for _, li := range owner {
		s := &scans[li]
		enter, leave := s.finEnter, s.finLeave
		if init {
			enter, leave = s.initEnter, s.initLeave
		}
		g.Parts = append(g.Parts, Part{Loc: li, Send: enter, Recv: leave})
	}
	g.Instances = append(g.Instances, in)
	pairs := int64(nproc) * int64(nproc-1)
	g.LogicalMessages += pairs
}
