// Package tracetest makes small random MPI traces — hybrid ones with
// threads too (threads.go) — for property tests: the program runs in true
// time with a minimum latency, so its happened-before relation is
// consistent, and is then recorded with per-location clock offsets and
// drifts (per process for threads, unless ThreadClocks), so it has
// clock-condition violations.
package tracetest

import (
	"math/rand/v2"

	"github.com/clc-tools/clc/trace"
)

// Config shapes a random trace.
type Config struct {
	Locations int
	Nodes     int
	Ops       int
	// Latency is the true minimum latency in ticks (resolution 1 GHz).
	Latency int64
	// Offset is the largest |clock offset| in ticks; Drift the largest
	// |drift| (e.g. 1e-5).
	Offset int64
	Drift  float64
	// Unmatched is the probability that a send has no receive.
	Unmatched float64
	// Init adds MPI_Init and MPI_Finalize around the program.
	Init bool
	// Threads > 1 makes the trace hybrid: every rank (location 0 …
	// Locations−1, its master thread) gets Threads−1 worker threads
	// (locations Locations + r·(Threads−1) + w−1), and the program runs
	// OpenMP parallel regions (fork, team, locks, tasks, barriers, join),
	// pthread creation and pthread barriers besides MPI (threads.go).
	Threads int
	// ThreadClocks gives every thread a clock error of its own; by
	// default the threads of a process share their master's.
	ThreadClocks bool
	// Metrics adds a metric location to every process of a hybrid trace.
	Metrics bool
}

// Region indices of the traces made here.
const (
	RegWork = iota
	RegSend
	RegRecv
	RegIrecv
	RegWait
	RegColl
	RegInit
	RegFinalize
)

var regionNames = []string{"work", "MPI_Send", "MPI_Recv", "MPI_Irecv", "MPI_Waitall", "MPI_Coll", "MPI_Init", "MPI_Finalize"}

type gen struct {
	rng   *rand.Rand
	cfg   Config
	tr    *trace.Trace
	truth [][]int64
	now   []int64 // true time of each location
	req   []uint64
	hy    *hybrid // nil unless cfg.Threads > 1
}

func (g *gen) emit(loc int, t int64, f func(ev *trace.Events, t int64)) {
	if t < g.now[loc] {
		t = g.now[loc]
	}
	g.now[loc] = t
	f(&g.tr.Locations[loc].Events, t)
	g.truth[loc] = append(g.truth[loc], t)
}

func (g *gen) region(loc int, k trace.Kind, r uint32, t int64) int64 {
	g.emit(loc, t, func(ev *trace.Events, t int64) { ev.AppendRegion(k, t, r) })
	return g.now[loc]
}

func (g *gen) step(loc int) int64 { return g.now[loc] + 1 + g.rng.Int64N(50) }

// Random returns a random trace (recorded with clock error) and the true
// times of its events.
func Random(rng *rand.Rand, cfg Config) (*trace.Trace, [][]int64) {
	n := cfg.Locations
	total := n
	if cfg.Threads > 1 {
		total = n * cfg.Threads
		if cfg.Metrics {
			total += n
		}
	}
	g := &gen{rng: rng, cfg: cfg, now: make([]int64, total), truth: make([][]int64, total), req: make([]uint64, n)}
	tr := &trace.Trace{Resolution: 1e9}
	for _, name := range regionNames {
		tr.Regions = append(tr.Regions, trace.Region{Name: name})
	}
	nodes := max(1, cfg.Nodes)
	for i := 0; i < nodes; i++ {
		tr.Nodes = append(tr.Nodes, trace.Node{Name: "node"})
	}
	world := trace.Comm{Name: "MPI_COMM_WORLD"}
	for i := 0; i < n; i++ {
		tr.Locations = append(tr.Locations, &trace.Location{ID: uint64(i), Node: int32(rng.IntN(nodes))})
		world.Members = append(world.Members, int32(i))
		g.now[i] = rng.Int64N(100)
	}
	tr.Comms = append(tr.Comms, world)
	if cfg.Threads > 1 {
		g.tr = tr
		g.hy = g.addThreads()
	}
	// A few sub-communicators with shuffled rank order.
	for c := 0; c < 3 && n >= 2; c++ {
		perm := rng.Perm(n)
		size := 2 + rng.IntN(n-1)
		var m []int32
		for _, p := range perm[:size] {
			m = append(m, int32(p))
		}
		tr.Comms = append(tr.Comms, trace.Comm{Name: "sub", Members: m})
	}
	g.tr = tr
	if cfg.Init {
		g.barrier(RegInit)
	}
	nops := 10
	if g.hy != nil {
		nops = 14
	}
	for op := 0; op < cfg.Ops; op++ {
		switch x := rng.IntN(nops); {
		case x >= 10:
			g.threadOp(x - 10)
		case x < 3:
			l := rng.IntN(n)
			g.region(l, trace.KindEnter, RegWork, g.step(l))
			g.region(l, trace.KindLeave, RegWork, g.step(l)+rng.Int64N(200))
		case x < 6 && n >= 2:
			g.p2p()
		case x < 8 && n >= 2:
			g.irecvs()
		case n >= 2:
			g.collective()
		}
	}
	if cfg.Init {
		g.barrier(RegFinalize)
	}
	// Record with clock error: C = t + offset + drift·t, monotone; the
	// threads of a process share its clock unless ThreadClocks. Every
	// clock starts at cfg.Offset or later, so no recorded time is
	// negative (clc-correct refuses negative times).
	offs, drifts := make([]int64, len(tr.Locations)), make([]float64, len(tr.Locations))
	for i, l := range tr.Locations {
		off := int64(0)
		if cfg.Offset > 0 {
			off = rng.Int64N(2*cfg.Offset + 1)
		}
		drift := (rng.Float64()*2 - 1) * cfg.Drift
		if g.hy != nil && i >= n && !cfg.ThreadClocks {
			off, drift = offs[l.Process], drifts[l.Process]
		}
		offs[i], drifts[i] = off, drift
		ts := l.Events.Time
		for j, t := range g.truth[i] {
			ts[j] = t + off + int64(drift*float64(t))
			if j > 0 && ts[j] < ts[j-1] {
				ts[j] = ts[j-1]
			}
		}
	}
	return tr, g.truth
}

// commWith returns a random communicator containing both a and b, and
// their ranks in it.
func (g *gen) commWith(a, b int) (uint32, uint32, uint32) {
	for {
		c := g.rng.IntN(len(g.tr.Comms))
		ra, rb := g.tr.Comms[c].CommRank(int32(a)), g.tr.Comms[c].CommRank(int32(b))
		if ra >= 0 && rb >= 0 {
			return uint32(c), uint32(ra), uint32(rb)
		}
	}
}

func (g *gen) latency() int64 { return g.cfg.Latency + g.rng.Int64N(g.cfg.Latency+5) }

// p2p: a blocking send and a blocking receive (or none).
func (g *gen) p2p() {
	n := g.cfg.Locations
	s := g.rng.IntN(n)
	d := (s + 1 + g.rng.IntN(n-1)) % n
	c, rs, rd := g.commWith(s, d)
	tag := uint32(g.rng.IntN(2))
	g.region(s, trace.KindEnter, RegSend, g.step(s))
	ts := g.step(s)
	g.emit(s, ts, func(ev *trace.Events, t int64) {
		ev.AppendMsg(trace.KindSend, t, trace.Message{Peer: rd, Comm: c, Tag: tag, Bytes: 8})
	})
	g.region(s, trace.KindLeave, RegSend, g.step(s))
	if g.rng.Float64() < g.cfg.Unmatched {
		return
	}
	g.region(d, trace.KindEnter, RegRecv, g.step(d))
	g.emit(d, max(g.step(d), ts+g.latency()), func(ev *trace.Events, t int64) {
		ev.AppendMsg(trace.KindRecv, t, trace.Message{Peer: rs, Comm: c, Tag: tag, Bytes: 8})
	})
	g.region(d, trace.KindLeave, RegRecv, g.step(d))
}

// irecvs: d posts k irecvs from s (same tag), s sends k messages, d waits
// for them completing in a random order (non-overtaking: the i-th posted
// receives the i-th sent).
func (g *gen) irecvs() {
	n := g.cfg.Locations
	s := g.rng.IntN(n)
	d := (s + 1 + g.rng.IntN(n-1)) % n
	c, rs, rd := g.commWith(s, d)
	k := 1 + g.rng.IntN(3)
	reqs := make([]uint64, k)
	for i := range reqs {
		g.req[d]++
		reqs[i] = g.req[d]
		g.region(d, trace.KindEnter, RegIrecv, g.step(d))
		g.emit(d, g.step(d), func(ev *trace.Events, t int64) { ev.AppendReq(trace.KindIrecvRequest, t, reqs[i]) })
		g.region(d, trace.KindLeave, RegIrecv, g.step(d))
	}
	sent := make([]int64, k)
	for i := range sent {
		g.region(s, trace.KindEnter, RegSend, g.step(s))
		sent[i] = g.step(s)
		g.emit(s, sent[i], func(ev *trace.Events, t int64) {
			ev.AppendMsg(trace.KindSend, t, trace.Message{Peer: rd, Comm: c, Tag: 7, Bytes: 64})
		})
		g.region(s, trace.KindLeave, RegSend, g.step(s))
	}
	g.region(d, trace.KindEnter, RegWait, g.step(d))
	for _, i := range g.rng.Perm(k) {
		g.emit(d, max(g.step(d), sent[i]+g.latency()), func(ev *trace.Events, t int64) {
			ev.AppendMsg(trace.KindIrecv, t, trace.Message{Peer: rs, Comm: c, Tag: 7, Bytes: 64, Request: reqs[i]})
		})
	}
	g.region(d, trace.KindLeave, RegWait, g.step(d))
}

var ops = []trace.CollOp{trace.OpBarrier, trace.OpBcast, trace.OpScatter, trace.OpScatterv,
	trace.OpGather, trace.OpGatherv, trace.OpReduce, trace.OpAllgather, trace.OpAllgatherv,
	trace.OpAlltoall, trace.OpAlltoallv, trace.OpAllreduce, trace.OpReduceScatter,
	trace.OpReduceScatterBlock, trace.OpScan, trace.OpExscan}

// collective: every member of a random communicator; the end of every
// member is after the latest begin + latency (a safe superset of every
// class's relation).
func (g *gen) collective() {
	c := g.rng.IntN(len(g.tr.Comms))
	m := g.tr.Comms[c].Members
	op := ops[g.rng.IntN(len(ops))]
	root := trace.NoRoot
	switch op {
	case trace.OpBcast, trace.OpScatter, trace.OpScatterv, trace.OpGather, trace.OpGatherv, trace.OpReduce:
		root = uint32(g.rng.IntN(len(m)))
	}
	begins := make([]int64, len(m))
	var latest int64
	for r, loc := range m {
		g.region(int(loc), trace.KindEnter, RegColl, g.step(int(loc)))
		begins[r] = g.step(int(loc))
		g.emit(int(loc), begins[r], func(ev *trace.Events, t int64) { ev.AppendCollBegin(t) })
		latest = max(latest, begins[r])
	}
	for r, loc := range m {
		sent, rcvd := uint64(8), uint64(8)
		if g.rng.IntN(5) == 0 { // v-variants and friends with zero-byte members
			sent = 0
		}
		if g.rng.IntN(5) == 0 {
			rcvd = 0
		}
		g.emit(int(loc), max(g.step(int(loc)), latest+g.latency()), func(ev *trace.Events, t int64) {
			ev.AppendColl(trace.KindCollEnd, t, trace.Collective{Op: op, Comm: uint32(c), Root: root, Sent: sent, Received: rcvd})
		})
		_ = r
		g.region(int(loc), trace.KindLeave, RegColl, g.step(int(loc)))
	}
}

// barrier wraps region r (MPI_Init or MPI_Finalize) around a barrier of
// the ranks.
func (g *gen) barrier(r uint32) {
	var latest int64
	for loc := range g.cfg.Locations {
		t := g.step(loc)
		g.region(loc, trace.KindEnter, r, t)
		latest = max(latest, t)
	}
	for loc := range g.cfg.Locations {
		g.region(loc, trace.KindLeave, r, max(g.step(loc), latest+g.latency()))
	}
}

// Times returns the event times of every location of t.
func Times(t *trace.Trace) [][]int64 {
	out := make([][]int64, len(t.Locations))
	for i, l := range t.Locations {
		out[i] = l.Events.Time
	}
	return out
}

// WithoutCollBegins returns a copy of t with every collective begin
// removed, as a writer that records none leaves it: the enter of each
// collective call then stands for its logical send.
func WithoutCollBegins(t *trace.Trace) *trace.Trace {
	out := *t
	out.Locations = make([]*trace.Location, len(t.Locations))
	for li, l := range t.Locations {
		nl := *l
		nl.Events = trace.Events{}
		att := 0
		for i, k := range l.Events.Kind {
			if k != trace.KindCollBegin {
				nl.Events.Append(&l.Events, i, &att)
			}
		}
		out.Locations[li] = &nl
	}
	return &out
}
