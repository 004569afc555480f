package sim

// An independent checker of simulated traces, written from docs/algorithm.md
// (matching, the table of logical messages) and the MPI semantics the
// tracer records, not from the simulator's code: it matches messages by the
// non-overtaking rule with receives ordered by posting, groups collective
// instances by per-communicator sequence, and checks every happened-before
// relation plus latency.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/clc-tools/clc/trace"
)

const noBound = math.MinInt64

type latModel struct {
	intra, inter int64   // ticks
	tpb          float64 // ticks per byte (0: infinite bandwidth)
}

// latModelOf computes the latencies in ticks from the configuration with
// integer arithmetic (rounded up: no message is faster than the minimum).
func latModelOf(cfg Config) latModel {
	up := func(ns int64) int64 {
		return (ns*int64(cfg.Resolution) + 999_999_999) / 1_000_000_000
	}
	m := latModel{intra: up(cfg.LatencyIntra.Nanoseconds()), inter: up(cfg.LatencyInter.Nanoseconds())}
	if cfg.Bandwidth > 0 {
		m.tpb = float64(cfg.Resolution) / cfg.Bandwidth
	}
	return m
}

func (m latModel) lat(tr *trace.Trace, a, b int) int64 {
	if tr.SameNode(a, b) {
		return m.intra
	}
	return m.inter
}

type evRef struct{ loc, idx int }

type p2pMatch struct{ send, recv evRef }

// collInst is one collective instance: members' begin and end events.
type collInst struct {
	comm  int
	op    trace.CollOp
	root  uint32
	locs  []int // by communicator rank
	begin []evRef
	end   []evRef
}

// matching is what the checker found in a trace.
type matching struct {
	p2p   []p2pMatch
	colls []collInst
	// Enter and leave of MPI_Init and MPI_Finalize per location.
	initEnter, initLeave, finEnter, finLeave []int
	kinds                                    map[trace.Kind]int
	regions                                  map[string]int // enters per region name
}

// match checks the structure of tr (region nesting, events inside the MPI
// calls that record them, request life cycles, communicator use) and
// matches its messages and collectives. It does not look at times.
func match(tr *trace.Trace) (*matching, error) {
	if err := tr.Validate(); err != nil {
		return nil, err
	}
	nl := len(tr.Locations)
	m := &matching{
		initEnter: make([]int, nl), initLeave: make([]int, nl), finEnter: make([]int, nl), finLeave: make([]int, nl),
		kinds: map[trace.Kind]int{}, regions: map[string]int{},
	}
	type key struct {
		comm     uint32
		src, dst int
		tag      uint32
	}
	sends := map[key][]evRef{}
	type postedRecv struct {
		post int
		ev   int
	}
	recvs := make([][]postedRecv, nl)
	// Per location: its collective (begin, end) pairs in order.
	collsAt := make([][][2]int, nl)
	// Rank of each location in each communicator.
	rankIn := make([]map[int]int, len(tr.Comms))
	for c := range tr.Comms {
		rankIn[c] = map[int]int{}
		for r, l := range tr.Comms[c].Members {
			rankIn[c][int(l)] = r
		}
	}
	created := make([]map[int]bool, nl) // communicators created by each location
	for li, loc := range tr.Locations {
		ev := &loc.Events
		fail := func(i int, format string, args ...any) error {
			return fmt.Errorf("location %d event %d (%s): %s", li, i, ev.Kind[i], fmt.Sprintf(format, args...))
		}
		var stack []string
		posted := map[uint64]int{}   // irecv request → posting event
		isends := map[uint64]bool{}  // isend requests outstanding
		seenReq := map[uint64]bool{} // every request id used
		m.initEnter[li], m.initLeave[li], m.finEnter[li], m.finLeave[li] = -1, -1, -1, -1
		openBegin := -1
		created[li] = map[int]bool{}
		for i, k := range ev.Kind {
			m.kinds[k]++
			top := ""
			if len(stack) > 0 {
				top = stack[len(stack)-1]
			}
			in := func(names ...string) error {
				if !slices.Contains(names, top) {
					return fail(i, "recorded inside %q, want one of %v", top, names)
				}
				return nil
			}
			var err error
			switch k {
			case trace.KindEnter:
				name := tr.Regions[ev.Ref[i]].Name
				m.regions[name]++
				if len(stack) == 0 && (i != 0 || name != "main") {
					err = fail(i, "enters %q outside main", name)
				}
				if len(stack) > 0 && top != "main" {
					err = fail(i, "enters %q inside %q (MPI calls and compute do not nest)", name, top)
				}
				switch name {
				case trace.RegionMPIInit:
					if m.initEnter[li] >= 0 {
						err = fail(i, "second MPI_Init")
					}
					m.initEnter[li] = i
				case trace.RegionMPIFinalize:
					if m.finEnter[li] >= 0 {
						err = fail(i, "second MPI_Finalize")
					}
					m.finEnter[li] = i
				}
				stack = append(stack, name)
			case trace.KindLeave:
				name := tr.Regions[ev.Ref[i]].Name
				if name != top {
					err = fail(i, "leaves %q while in %q", name, top)
					break
				}
				if openBegin >= 0 {
					err = fail(i, "leaves %q with a collective begun but not ended", name)
				}
				switch name {
				case trace.RegionMPIInit:
					m.initLeave[li] = i
				case trace.RegionMPIFinalize:
					m.finLeave[li] = i
				}
				stack = stack[:len(stack)-1]
			case trace.KindSend, trace.KindIsend:
				msg := ev.Msg(i)
				if k == trace.KindSend {
					err = in("MPI_Send", "MPI_Sendrecv")
				} else {
					err = in("MPI_Isend")
					if seenReq[msg.Request] || msg.Request == 0 {
						err = fail(i, "request %d reused or zero", msg.Request)
					}
					seenReq[msg.Request], isends[msg.Request] = true, true
				}
				if err == nil {
					err = checkCommUse(tr, created[li], li, int(msg.Comm), rankIn)
				}
				if err == nil {
					kk := key{msg.Comm, li, int(tr.Comms[msg.Comm].Members[msg.Peer]), msg.Tag}
					sends[kk] = append(sends[kk], evRef{li, i})
				}
			case trace.KindIsendComplete:
				err = in("MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test")
				if q := ev.Req(i); !isends[q] {
					err = fail(i, "completes request %d, which is not an outstanding isend", q)
				} else {
					delete(isends, q)
				}
			case trace.KindIrecvRequest:
				err = in("MPI_Irecv")
				q := ev.Req(i)
				if seenReq[q] || q == 0 {
					err = fail(i, "request %d reused or zero", q)
				}
				seenReq[q], posted[q] = true, i
			case trace.KindRequestTest:
				err = in("MPI_Test")
				if _, ok := posted[ev.Req(i)]; !ok && !isends[ev.Req(i)] {
					err = fail(i, "tests request %d, which is not outstanding", ev.Req(i))
				}
			case trace.KindRecv, trace.KindIrecv:
				msg := ev.Msg(i)
				post := i
				if k == trace.KindRecv {
					err = in("MPI_Recv", "MPI_Sendrecv")
				} else {
					err = in("MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test")
					p, ok := posted[msg.Request]
					if !ok {
						err = fail(i, "completes request %d, which is not an outstanding irecv", msg.Request)
					}
					delete(posted, msg.Request)
					post = p
				}
				if err == nil {
					err = checkCommUse(tr, created[li], li, int(msg.Comm), rankIn)
				}
				recvs[li] = append(recvs[li], postedRecv{post, i})
			case trace.KindCollBegin:
				if !strings.HasPrefix(top, "MPI_") || openBegin >= 0 {
					err = fail(i, "collective begin inside %q (open begin %d)", top, openBegin)
				}
				openBegin = i
			case trace.KindCollEnd:
				c := ev.Coll(i)
				if want := "MPI_" + collFuncName(c.Op); !strings.EqualFold(top, want) {
					err = fail(i, "%s ends inside %q", c.Op, top)
				}
				if openBegin < 0 {
					err = fail(i, "collective end without begin")
				}
				if err == nil {
					err = checkCommUse(tr, created[li], li, int(c.Comm), rankIn)
				}
				collsAt[li] = append(collsAt[li], [2]int{openBegin, i})
				openBegin = -1
			case trace.KindCommCreate:
				err = in("MPI_Comm_split")
				c := int(ev.Ref[i])
				if _, ok := rankIn[c][li]; !ok {
					err = fail(i, "creates communicator %d, of which it is no member", c)
				}
				created[li][c] = true
			default:
				err = fail(i, "unexpected kind")
			}
			if err != nil {
				return nil, err
			}
		}
		if len(stack) != 0 {
			return nil, fmt.Errorf("location %d: regions %v never left", li, stack)
		}
		if len(posted) != 0 || len(isends) != 0 {
			return nil, fmt.Errorf("location %d: %d irecv and %d isend requests never completed", li, len(posted), len(isends))
		}
		if m.initEnter[li] < 0 || m.finEnter[li] < 0 {
			return nil, fmt.Errorf("location %d: no MPI_Init or no MPI_Finalize", li)
		}
	}

	// Point to point: the k-th receive (in posting order) at d with source
	// s, tag t on communicator c matches the k-th send from s to d with t on c.
	next := map[key]int{}
	for d := range recvs {
		slices.SortFunc(recvs[d], func(a, b postedRecv) int { return a.post - b.post })
		ev := &tr.Locations[d].Events
		for _, r := range recvs[d] {
			msg := ev.Msg(r.ev)
			kk := key{msg.Comm, int(tr.Comms[msg.Comm].Members[msg.Peer]), d, msg.Tag}
			q := sends[kk]
			j := next[kk]
			if j >= len(q) {
				return nil, fmt.Errorf("location %d event %d: receive from %d tag %d on comm %d has no matching send", d, r.ev, kk.src, kk.tag, kk.comm)
			}
			next[kk] = j + 1
			s := q[j]
			if sb := tr.Locations[s.loc].Events.Msg(s.idx).Bytes; sb != msg.Bytes {
				return nil, fmt.Errorf("location %d event %d: receives %d bytes, its send (location %d event %d) sent %d", d, r.ev, msg.Bytes, s.loc, s.idx, sb)
			}
			m.p2p = append(m.p2p, p2pMatch{send: s, recv: evRef{d, r.ev}})
		}
	}
	for kk, q := range sends {
		if next[kk] != len(q) {
			return nil, fmt.Errorf("%d sends from %d to %d tag %d on comm %d have no receive", len(q)-next[kk], kk.src, kk.dst, kk.tag, kk.comm)
		}
	}

	// Collectives: the k-th collective on a communicator at one member
	// matches the k-th on every other member.
	perComm := make([][][][2]int, len(tr.Comms)) // comm → member rank → its (begin, end) list
	for c := range perComm {
		perComm[c] = make([][][2]int, tr.Comms[c].Size())
	}
	for li := range collsAt {
		for _, be := range collsAt[li] {
			c := int(tr.Locations[li].Events.Coll(be[1]).Comm)
			r := rankIn[c][li]
			perComm[c][r] = append(perComm[c][r], be)
		}
	}
	for c, members := range perComm {
		count := len(members[0])
		for r := range members {
			if len(members[r]) != count {
				return nil, fmt.Errorf("communicator %d: member %d has %d collectives, member 0 has %d", c, r, len(members[r]), count)
			}
		}
		for k := range count {
			inst := collInst{comm: c}
			for r, lst := range members {
				loc := int(tr.Comms[c].Members[r])
				ce := tr.Locations[loc].Events.Coll(lst[k][1])
				if r == 0 {
					inst.op, inst.root = ce.Op, ce.Root
				} else if ce.Op != inst.op || ce.Root != inst.root {
					return nil, fmt.Errorf("communicator %d collective %d: member %d does %s root %d, member 0 %s root %d", c, k, r, ce.Op, ce.Root, inst.op, inst.root)
				}
				inst.locs = append(inst.locs, loc)
				inst.begin = append(inst.begin, evRef{loc, lst[k][0]})
				inst.end = append(inst.end, evRef{loc, lst[k][1]})
			}
			m.colls = append(m.colls, inst)
		}
	}
	return m, nil
}

// checkCommUse: a location may use the world communicator, and any other
// communicator only after creating it.
func checkCommUse(tr *trace.Trace, created map[int]bool, loc, comm int, rankIn []map[int]int) error {
	if _, ok := rankIn[comm][loc]; !ok {
		return fmt.Errorf("location %d uses communicator %d, of which it is no member", loc, comm)
	}
	if comm != 0 && !created[comm] {
		return fmt.Errorf("location %d uses communicator %d before creating it", loc, comm)
	}
	return nil
}

func collFuncName(op trace.CollOp) string {
	name := op.String()
	return strings.ToUpper(name[:1]) + name[1:]
}

// roles returns, for a collective instance, which members are logical
// senders and receivers (docs/algorithm.md, "Logical messages") and whether the relation is a
// prefix (SCAN, EXSCAN: sender k → receivers i > k).
func roles(tr *trace.Trace, inst *collInst) (send, recv []bool, prefix bool) {
	n := len(inst.locs)
	send, recv = make([]bool, n), make([]bool, n)
	sent := func(i int) uint64 { return tr.Locations[inst.locs[i]].Events.Coll(inst.end[i].idx).Sent }
	got := func(i int) uint64 { return tr.Locations[inst.locs[i]].Events.Coll(inst.end[i].idx).Received }
	root := int(inst.root)
	for i := range n {
		switch inst.op {
		case trace.OpBarrier:
			send[i], recv[i] = true, true
		case trace.OpBcast, trace.OpScatter, trace.OpScatterv:
			send[i] = i == root && sent(i) > 0
			recv[i] = i != root && got(i) > 0
		case trace.OpGather, trace.OpGatherv, trace.OpReduce:
			send[i] = sent(i) > 0
			recv[i] = i == root && got(i) > 0
		case trace.OpScan, trace.OpExscan:
			send[i], recv[i], prefix = true, true, true
		default:
			send[i], recv[i] = sent(i) > 0, got(i) > 0
		}
	}
	return send, recv, prefix
}

// bounds returns, for each receiver i, the latest max over its senders
// j ≠ i of begin[j] + lat(j, i) (prefix: over j < i only), or noBound.
// Small instances are checked pair by pair; large ones through per-node
// maxima (two per node, two nodes overall), a separate implementation that
// the tests compare with the pairwise one.
func bounds(tr *trace.Trace, lm latModel, locs []int, begin []int64, send, recv []bool, prefix bool, pairwise bool) []int64 {
	n := len(locs)
	out := make([]int64, n)
	for i := range out {
		out[i] = noBound
	}
	if pairwise {
		for i := range n {
			if !recv[i] {
				continue
			}
			for j := range n {
				if j == i || !send[j] || (prefix && j > i) {
					continue
				}
				out[i] = max(out[i], begin[j]+lm.lat(tr, locs[j], locs[i]))
			}
		}
		return out
	}
	type top2 struct {
		v1, v2 int64
		who1   int
	}
	perNode := map[int32]*top2{}
	add := func(j int) {
		nd := tr.Locations[locs[j]].Node
		t := perNode[nd]
		if t == nil {
			t = &top2{v1: noBound, v2: noBound, who1: -1}
			perNode[nd] = t
		}
		switch {
		case begin[j] > t.v1:
			t.v2, t.v1, t.who1 = t.v1, begin[j], j
		case begin[j] > t.v2:
			t.v2 = begin[j]
		}
	}
	if prefix {
		// Sweep in rank order: a receiver sees the senders before it, through
		// its own node's maximum and the best two nodes' maxima.
		var best1, best2 int64 = noBound, noBound
		var best1Node int32 = -1
		for i := range n {
			nd := tr.Locations[locs[i]].Node
			if recv[i] {
				b := int64(noBound)
				if t := perNode[nd]; t != nil && t.v1 != noBound {
					b = t.v1 + lm.intra
				}
				o := best1
				if best1Node == nd {
					o = best2
				}
				if o != noBound {
					b = max(b, o+lm.inter)
				}
				out[i] = b
			}
			if send[i] {
				add(i)
				v := perNode[nd].v1
				switch {
				case nd == best1Node:
					best1 = v
				case v > best1:
					best2, best1, best1Node = best1, v, nd
				case v > best2:
					best2 = v
				}
			}
		}
		return out
	}
	for j := range n {
		if send[j] {
			add(j)
		}
	}
	// Rank the nodes by their maximum to answer "best on another node".
	type nm struct {
		node int32
		v    int64
	}
	var ranked []nm
	for node, t := range perNode {
		ranked = append(ranked, nm{node, t.v1})
	}
	slices.SortFunc(ranked, func(a, b nm) int {
		if a.v != b.v {
			if a.v > b.v {
				return -1
			}
			return 1
		}
		return int(a.node - b.node)
	})
	for i := range n {
		if !recv[i] {
			continue
		}
		nd := tr.Locations[locs[i]].Node
		b := int64(noBound)
		if t := perNode[nd]; t != nil {
			v := t.v1
			if t.who1 == i {
				v = t.v2
			}
			if v != noBound {
				b = v + lm.intra
			}
		}
		for _, r := range ranked {
			if r.node != nd {
				b = max(b, r.v+lm.inter)
				break
			}
		}
		out[i] = b
	}
	return out
}

// violations counts, with the times of tr, the point-to-point messages
// received before they were sent plus latency (plus transfer time when
// withXfer), the reversed ones (received before sent), and the collective
// receivers and MPI_Init/Finalize leaves earlier than their bound.
type violations struct {
	p2pLate, p2pReversed, collLate, initLate int
	first                                    string
}

func (v *violations) total() int { return v.p2pLate + v.collLate + v.initLate }

func countViolations(tr *trace.Trace, m *matching, lm latModel, withXfer bool) violations {
	var v violations
	note := func(s string) {
		if v.first == "" {
			v.first = s
		}
	}
	tm := func(r evRef) int64 { return tr.Locations[r.loc].Events.Time[r.idx] }
	for _, p := range m.p2p {
		need := tm(p.send) + lm.lat(tr, p.send.loc, p.recv.loc)
		if withXfer {
			need += int64(float64(tr.Locations[p.send.loc].Events.Msg(p.send.idx).Bytes) * lm.tpb)
		}
		if tm(p.recv) < need {
			v.p2pLate++
			note(fmt.Sprintf("receive %v at %d < send %v at %d + latency and transfer = %d", p.recv, tm(p.recv), p.send, tm(p.send), need))
		}
		if tm(p.recv) < tm(p.send) {
			v.p2pReversed++
		}
	}
	for ci := range m.colls {
		inst := &m.colls[ci]
		n := len(inst.locs)
		send, recv, prefix := roles(tr, inst)
		begin := make([]int64, n)
		for i := range begin {
			begin[i] = tm(inst.begin[i])
		}
		b := bounds(tr, lm, inst.locs, begin, send, recv, prefix, n <= 64)
		for i := range n {
			if b[i] != noBound && tm(inst.end[i]) < b[i] {
				v.collLate++
				note(fmt.Sprintf("%s on comm %d: member %d (location %d) ends at %d < bound %d", inst.op, inst.comm, i, inst.locs[i], tm(inst.end[i]), b[i]))
			}
		}
	}
	nl := len(tr.Locations)
	locs := make([]int, nl)
	all := make([]bool, nl)
	for i := range locs {
		locs[i], all[i] = i, true
	}
	for _, pair := range [][2][]int{{m.initEnter, m.initLeave}, {m.finEnter, m.finLeave}} {
		begin := make([]int64, nl)
		for i := range begin {
			begin[i] = tr.Locations[i].Events.Time[pair[0][i]]
		}
		b := bounds(tr, lm, locs, begin, all, all, false, nl <= 64)
		for i := range nl {
			if t := tr.Locations[i].Events.Time[pair[1][i]]; b[i] != noBound && t < b[i] {
				v.initLate++
				note(fmt.Sprintf("location %d leaves MPI_Init/Finalize at %d < bound %d", i, t, b[i]))
			}
		}
	}
	return v
}

// sameEvents reports the first difference between two traces other than
// their times: the truth must hold exactly the recorded trace's events.
func sameEvents(a, b *trace.Trace) error {
	if len(a.Locations) != len(b.Locations) {
		return fmt.Errorf("%d vs %d locations", len(a.Locations), len(b.Locations))
	}
	for li := range a.Locations {
		x, y := &a.Locations[li].Events, &b.Locations[li].Events
		if x.Len() != y.Len() {
			return fmt.Errorf("location %d: %d vs %d events", li, x.Len(), y.Len())
		}
		for i, k := range x.Kind {
			if y.Kind[i] != k {
				return fmt.Errorf("location %d event %d: kind %s vs %s", li, i, k, y.Kind[i])
			}
			switch {
			case k.HasMsg():
				if *x.Msg(i) != *y.Msg(i) {
					return fmt.Errorf("location %d event %d: message %+v vs %+v", li, i, *x.Msg(i), *y.Msg(i))
				}
			case k.HasColl():
				if *x.Coll(i) != *y.Coll(i) {
					return fmt.Errorf("location %d event %d: collective %+v vs %+v", li, i, *x.Coll(i), *y.Coll(i))
				}
			case k.HasReq():
				if x.Req(i) != y.Req(i) {
					return fmt.Errorf("location %d event %d: request %d vs %d", li, i, x.Req(i), y.Req(i))
				}
			default:
				if x.Ref[i] != y.Ref[i] {
					return fmt.Errorf("location %d event %d: ref %d vs %d", li, i, x.Ref[i], y.Ref[i])
				}
			}
		}
	}
	return nil
}
