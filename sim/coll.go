package sim

import (
	"github.com/clc-tools/clc/trace"
)

func rooted(op trace.CollOp) bool {
	switch op {
	case trace.OpBcast, trace.OpScatter, trace.OpScatterv, trace.OpGather, trace.OpGatherv, trace.OpReduce:
		return true
	}
	return false
}

// collBytes draws the bytes each member of an n-member instance of op
// sends and receives (sent and recv must be zero on entry). The v-variants
// (SCATTERV, GATHERV, ALLGATHERV, ALLTOALLV/W, REDUCE_SCATTER) give about a
// quarter of the members zero bytes; BCAST is empty one time in twenty.
func (e *engine) collBytes(op trace.CollOp, root int, sent, recv []uint64) {
	n := len(sent)
	sz := uint64(8 << e.rng.IntN(8)) // 8 B … 1 KiB per member and peer
	vc := func() uint64 {
		if e.rng.IntN(4) == 0 {
			return 0
		}
		return sz * uint64(1+e.rng.IntN(4))
	}
	all := func(s, r uint64) {
		for i := range sent {
			sent[i], recv[i] = s, r
		}
	}
	m := uint64(n - 1)
	switch op {
	case trace.OpBarrier:
	case trace.OpBcast:
		if e.rng.IntN(20) == 0 {
			sz = 0
		}
		all(0, sz)
		sent[root], recv[root] = sz*m, 0
	case trace.OpScatter:
		all(0, sz)
		sent[root] = sz * m
	case trace.OpScatterv:
		var total uint64
		for i := range recv {
			recv[i] = vc()
			if i != root {
				total += recv[i]
			}
		}
		sent[root] = total
	case trace.OpGather:
		all(sz, 0)
		recv[root] = sz * m
	case trace.OpGatherv:
		var total uint64
		for i := range sent {
			sent[i] = vc()
			if i != root {
				total += sent[i]
			}
		}
		recv[root] = total
	case trace.OpReduce:
		all(sz, 0)
		recv[root] = sz
	case trace.OpAllgather:
		all(sz, sz*m)
	case trace.OpAllgatherv:
		var total uint64
		for i := range sent {
			sent[i] = vc()
			total += sent[i]
		}
		for i := range recv {
			recv[i] = total - sent[i]
		}
	case trace.OpAlltoall:
		all(sz*m, sz*m)
	case trace.OpAlltoallv, trace.OpAlltoallw:
		// A random set S of members sends sz bytes to each member of a
		// random set R (itself included, so a member of S sends bytes
		// whenever R is not empty).
		var ns, nr uint64
		for i := range sent {
			if e.rng.IntN(4) != 0 {
				sent[i] = 1
				ns++
			}
			if e.rng.IntN(4) != 0 {
				recv[i] = 1
				nr++
			}
		}
		for i := range sent {
			sent[i] *= sz * nr
			recv[i] *= sz * ns
		}
	case trace.OpAllreduce, trace.OpScan, trace.OpExscan:
		all(sz, sz)
	case trace.OpReduceScatter:
		var total uint64
		for i := range recv {
			recv[i] = vc()
			total += recv[i]
		}
		for i := range sent {
			sent[i] = total
		}
	case trace.OpReduceScatterBlock:
		all(sz*uint64(n), sz)
	}
}

// collective runs one instance of op on communicator ci. Every member
// enters MPI_<Op>, records coll-begin (its logical send), and records
// coll-end (its logical receive) no earlier than, for each logical sender j
// of the table of logical messages (docs/algorithm.md), j's begin plus the latency between them;
// a receiver also waits for its received bytes to transfer and a jitter.
// Members that receive nothing leave after their own begin.
func (e *engine) collective(ci int, op trace.CollOp) {
	mem := e.comms[ci].Members
	n := len(mem)
	root := trace.NoRoot
	rootIdx := -1
	if rooted(op) {
		rootIdx = e.rng.IntN(n)
		root = uint32(rootIdx)
	}
	begin, dep := e.cb[:n], e.cd[:n]
	sent, recv := e.cs[:n], e.cr[:n]
	clear(sent)
	clear(recv)
	reg := collRegion(op)
	for i, loc := range mem {
		r := int(loc)
		e.enter(r, reg)
		begin[i] = e.at(r, none)
		e.cur[r].AppendCollBegin(begin[i])
	}
	e.collBytes(op, rootIdx, sent, recv)

	tr := &e.tr
	tr.reset()
	for i := range dep {
		dep[i] = none
	}
	query := func(i int) int64 { return tr.dep(e.node(int(mem[i])), e.latIntra, e.latInter) }
	switch op {
	case trace.OpBarrier:
		for i, loc := range mem {
			tr.add(e.node(int(loc)), begin[i])
		}
		for i := range mem {
			dep[i] = query(i)
		}
	case trace.OpBcast, trace.OpScatter, trace.OpScatterv: // 1-to-N
		if sent[rootIdx] > 0 {
			tr.add(e.node(int(mem[rootIdx])), begin[rootIdx])
			for i := range mem {
				if i != rootIdx && recv[i] > 0 {
					dep[i] = query(i)
				}
			}
		}
	case trace.OpGather, trace.OpGatherv, trace.OpReduce: // N-to-1
		for i, loc := range mem {
			if sent[i] > 0 {
				tr.add(e.node(int(loc)), begin[i])
			}
		}
		if recv[rootIdx] > 0 {
			dep[rootIdx] = query(rootIdx)
		}
	case trace.OpScan: // rank k's begin → ranks i ≥ k
		for i, loc := range mem {
			tr.add(e.node(int(loc)), begin[i])
			dep[i] = query(i)
		}
	case trace.OpExscan: // rank k's begin → ranks i > k
		for i, loc := range mem {
			dep[i] = query(i)
			tr.add(e.node(int(loc)), begin[i])
		}
	default: // N-to-N: members that sent bytes → members that received bytes
		for i, loc := range mem {
			if sent[i] > 0 {
				tr.add(e.node(int(loc)), begin[i])
			}
		}
		for i := range mem {
			if recv[i] > 0 {
				dep[i] = query(i)
			}
		}
	}
	multi := e.node(int(mem[0])) != e.node(int(mem[len(mem)-1]))
	for i, loc := range mem {
		r := int(loc)
		d := dep[i]
		if d != none {
			d += e.xfer(recv[i]) + e.expJitter()
			if multi {
				d += e.congestion(d)
			}
		}
		t := e.at(r, d)
		e.cur[r].AppendColl(trace.KindCollEnd, t, trace.Collective{
			Op: op, Comm: uint32(ci), Root: root, Sent: sent[i], Received: recv[i],
		})
		e.leave(r, reg)
	}
}

// worldSync makes every rank enter region reg and leave it only after
// every rank's enter plus the latency (barrier semantics in true time,
// without collective events: MPI_Init, MPI_Finalize, MPI_Comm_split). inner
// records what happens between the release and the leave.
func (e *engine) worldSync(reg uint32, inner func(r int, release int64)) {
	tr := &e.tr
	tr.reset()
	for r := range e.n {
		e.enter(r, reg)
		tr.add(e.node(r), e.now[r])
	}
	for r := range e.n {
		inner(r, tr.dep(e.node(r), e.latIntra, e.latInter))
		e.leave(r, reg)
	}
}

// initPhase: each rank starts (main) within the launch skew, enters
// MPI_Init, waits for every rank (barrier semantics), measures its clock
// offset against rank 0 and leaves MPI_Init. 4 events per rank.
func (e *engine) initPhase() {
	skew := ticks(e.cfg.LaunchSkew, e.cfg.Resolution)
	for r := range e.n {
		e.now[r] += e.rng.Int64N(skew + 1)
		e.cur[r].AppendRegion(trace.KindEnter, e.now[r], regMain)
		e.pending++
		e.now[r] += e.compute / 10 // start-up work before MPI_Init
	}
	e.worldSync(regInit, e.measureOffset(0))
}

// finalizePhase: MPI_Finalize with barrier semantics and the second offset
// measurement, then the end of main. 3 events per rank.
func (e *engine) finalizePhase() {
	e.worldSync(regFinalize, e.measureOffset(1))
	for r := range e.n {
		e.leave(r, regMain)
	}
}

func (e *engine) measureOffset(which int) func(r int, release int64) {
	return func(r int, release int64) {
		t := max(e.now[r]+e.gap(), release)
		n := e.node(r)
		var o trace.ClockOffset
		if r == 0 {
			o = trace.ClockOffset{Time: t} // the reference against itself
		} else {
			o, t = e.clk.measure(e.crng, n, t, e.lat(r, 0), e.lat(0, r), e.turn, e.noise, e.cfg.OffsetRounds)
		}
		e.offsets[2*r+which] = o
		e.now[r] = t
	}
}

// commSplit: MPI_Comm_split on the world communicator creating the
// communicators first … (the rows or the columns of the grid): every rank
// enters, waits for all (the split's internal allgather), records the
// creation of its new communicator and leaves. 3 events per rank.
func (e *engine) commSplit(first int) {
	rows := first == 1
	e.worldSync(regCommSplit, func(r int, release int64) {
		c := first + r/e.grid.px // row y = r / px
		if !rows {
			c = first + r%e.grid.px // column x = r mod px
		}
		e.cur[r].AppendComm(trace.KindCommCreate, e.at(r, release), uint32(c))
	})
}
