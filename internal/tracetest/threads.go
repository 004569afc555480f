package tracetest

import (
	"slices"

	"github.com/clc-tools/clc/trace"
)

// Regions of hybrid traces, after the MPI ones.
const (
	RegParallel = RegFinalize + 1 + iota
	RegOmpBarrier
	RegImplicitBarrier
	RegTaskwait
	RegCritical
	RegPthreadBarrier
	RegTask
)

// hybrid is the state of the thread operations: the locations of every
// process, its team and contingent communicators, lock and task counters.
type hybrid struct {
	members    [][]int // per rank: master, then workers
	metric     []int   // per rank: its metric location, or -1
	team       []uint32
	contingent []uint32
	order      map[[2]int]uint32 // (rank, lock) → next acquisition order
	free       map[[2]int]int64  // (rank, lock) → true time of the last release
	seq        []uint64          // per rank: next thread sequence count
	gen        []uint32          // per location: next task generation number
}

// addThreads adds the worker (and metric) locations, processes, team and
// contingent communicators and the thread regions.
func (g *gen) addThreads() *hybrid {
	tr, cfg := g.tr, g.cfg
	n, nt := cfg.Locations, cfg.Threads
	h := &hybrid{members: make([][]int, n), metric: make([]int, n), order: map[[2]int]uint32{}, free: map[[2]int]int64{},
		seq: make([]uint64, n), gen: make([]uint32, len(g.now))}
	tr.Regions = append(tr.Regions,
		trace.Region{Name: "!$omp parallel", Role: trace.RoleParallel, Paradigm: trace.ParadigmOpenMP},
		trace.Region{Name: "!$omp barrier", Role: trace.RoleBarrier, Paradigm: trace.ParadigmOpenMP},
		trace.Region{Name: "!$omp implicit barrier", Role: trace.RoleImplicitBarrier, Paradigm: trace.ParadigmOpenMP},
		trace.Region{Name: "!$omp taskwait", Role: trace.RoleTaskWait, Paradigm: trace.ParadigmOpenMP},
		trace.Region{Name: "!$omp critical", Role: trace.RoleCritical, Paradigm: trace.ParadigmOpenMP},
		trace.Region{Name: "pthread_barrier_wait", Role: trace.RoleBarrier, Paradigm: trace.ParadigmPthread},
		trace.Region{Name: "!$omp task", Role: trace.RoleTask, Paradigm: trace.ParadigmOpenMP})
	for r := range n {
		tr.Processes = append(tr.Processes, trace.Process{Name: "rank"})
		m := tr.Locations[r]
		m.Process, m.Kind = int32(r), trace.LocationCPUThread
		h.members[r] = []int{r}
		h.metric[r] = -1
	}
	for r := range n {
		for w := 1; w < nt; w++ {
			h.members[r] = append(h.members[r], len(tr.Locations))
			tr.Locations = append(tr.Locations, &trace.Location{ID: uint64(r) | uint64(w)<<32,
				Node: tr.Locations[r].Node, Process: int32(r), Kind: trace.LocationCPUThread})
		}
	}
	if cfg.Metrics {
		for r := range n {
			h.metric[r] = len(tr.Locations)
			tr.Locations = append(tr.Locations, &trace.Location{ID: uint64(r) | uint64(nt)<<32,
				Node: tr.Locations[r].Node, Process: int32(r), Kind: trace.LocationMetric})
		}
	}
	for r := range n {
		mem := make([]int32, len(h.members[r]))
		for i, l := range h.members[r] {
			mem[i] = int32(l)
		}
		h.team = append(h.team, uint32(len(tr.Comms)))
		tr.Comms = append(tr.Comms, trace.Comm{Name: "team", Paradigm: trace.ParadigmOpenMP, Members: mem})
		h.contingent = append(h.contingent, uint32(len(tr.Comms)))
		tr.Comms = append(tr.Comms, trace.Comm{Name: "contingent", Paradigm: trace.ParadigmPthread, Members: mem})
	}
	for loc := n; loc < len(g.now); loc++ {
		g.now[loc] = g.rng.Int64N(100)
	}
	return h
}

func (g *gen) thread(loc int, k trace.Kind, t int64, th trace.Thread) int64 {
	g.emit(loc, t, func(ev *trace.Events, t int64) { ev.AppendThread(k, t, th) })
	return g.now[loc]
}

// shm is the true delay of a shared-memory hand-over (0 or a few ticks).
func (g *gen) shm() int64 { return g.rng.Int64N(3) }

// threadOp runs one thread operation on a random rank.
func (g *gen) threadOp(x int) {
	r := g.rng.IntN(g.cfg.Locations)
	switch x {
	case 0, 1:
		g.parallel(r)
	case 2:
		g.pthreadLife(r)
	default:
		g.pthreadBarrier(r)
		if m := g.hy.metric[r]; m >= 0 {
			g.emit(m, g.now[r]-g.rng.Int64N(30), func(ev *trace.Events, t int64) {
				ev.AppendOpaque(t, trace.Opaque{Format: trace.FormatOTF2, Type: 11, Data: []byte{1}}) // MeasurementOnOff
			})
		}
	}
}

// parallel runs an OpenMP parallel region on rank r: fork, team begins,
// locked sections, tasks created by the master and run by random members
// (some inside the closing barrier), explicit barriers, a taskwait, the
// implicit barrier, team ends and the join.
func (g *gen) parallel(r int) {
	h := g.hy
	mem := h.members[r]
	team := h.team[r]
	master := mem[0]
	fork := g.thread(master, trace.KindThreadFork, g.step(master), trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm, Threads: uint32(len(mem))})
	for _, l := range mem {
		g.thread(l, trace.KindThreadTeamBegin, max(g.step(l), fork+g.shm()), trace.Thread{Team: team})
		g.region(l, trace.KindEnter, RegParallel, g.step(l))
	}
	for range g.rng.IntN(3) {
		g.lockSection(r, mem)
	}
	// Tasks: created by the master, some run now, the rest in the
	// implicit barrier.
	var late []taskRun
	nt := g.rng.IntN(4)
	if nt > 0 {
		var runs []taskRun
		for range nt {
			h.gen[master]++
			key := trace.Thread{Team: team, Creator: 0, Generation: h.gen[master]}
			g.region(master, trace.KindEnter, RegTask, g.step(master))
			created := g.thread(master, trace.KindThreadTaskCreate, g.step(master), key)
			g.region(master, trace.KindLeave, RegTask, g.step(master))
			runs = append(runs, taskRun{key, created, mem[g.rng.IntN(len(mem))]})
		}
		if g.rng.IntN(2) == 0 {
			g.taskwait(master, runs)
		} else {
			late = runs
		}
	}
	if g.rng.IntN(2) == 0 {
		g.ompBarrier(mem, RegOmpBarrier, nil)
	}
	g.ompBarrier(mem, RegImplicitBarrier, late)
	var ends int64
	for _, l := range mem {
		g.region(l, trace.KindLeave, RegParallel, g.step(l))
		ends = max(ends, g.thread(l, trace.KindThreadTeamEnd, g.step(l), trace.Thread{Team: team}))
	}
	g.thread(master, trace.KindThreadJoin, max(g.step(master), ends+g.shm()), trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm})
}

// taskRun is a created task and the location that runs it.
type taskRun struct {
	key     trace.Thread
	created int64
	loc     int
}

// run runs task t on its location: switch, work, complete; it returns the
// completion time.
func (g *gen) run(t taskRun) int64 {
	g.thread(t.loc, trace.KindThreadTaskSwitch, max(g.step(t.loc), t.created+g.shm()), t.key)
	g.region(t.loc, trace.KindEnter, RegWork, g.step(t.loc))
	g.region(t.loc, trace.KindLeave, RegWork, g.step(t.loc)+g.rng.Int64N(100))
	return g.thread(t.loc, trace.KindThreadTaskComplete, g.step(t.loc), t.key)
}

// taskwait: the tasks run, then the master's taskwait ends after their
// completions.
func (g *gen) taskwait(master int, runs []taskRun) {
	g.region(master, trace.KindEnter, RegTaskwait, g.step(master))
	var done int64
	for _, t := range runs {
		done = max(done, g.run(t))
	}
	g.region(master, trace.KindLeave, RegTaskwait, max(g.step(master), done+g.shm()))
}

// ompBarrier: every member enters, the tasks in late run inside the
// barrier, every member leaves after every entry and completion.
func (g *gen) ompBarrier(mem []int, reg uint32, late []taskRun) {
	var last int64
	for _, l := range mem {
		last = max(last, g.region(l, trace.KindEnter, reg, g.step(l)))
	}
	for _, t := range late {
		last = max(last, g.run(t))
	}
	for _, l := range mem {
		g.region(l, trace.KindLeave, reg, max(g.step(l), last+g.shm()))
	}
}

// lockSection: the members take a critical section's lock in a random
// order, each acquisition after the previous release.
func (g *gen) lockSection(r int, mem []int) {
	lock := g.rng.IntN(2)
	order := slices.Clone(mem)
	g.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	k := [2]int{r, lock}
	for _, l := range order {
		if g.rng.IntN(4) == 0 {
			continue // this member skips it
		}
		o := g.hy.order[k]
		g.hy.order[k]++
		th := trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm, Lock: uint32(lock), Order: o}
		g.region(l, trace.KindEnter, RegCritical, g.step(l))
		g.thread(l, trace.KindThreadAcquireLock, max(g.step(l), g.hy.free[k]+g.shm()), th)
		g.hy.free[k] = g.thread(l, trace.KindThreadReleaseLock, g.step(l)+g.rng.Int64N(40), th)
		g.region(l, trace.KindLeave, RegCritical, g.step(l))
	}
}

// pthreadLife: the master creates a thread on a worker location, which
// begins after the creation and ends; the master waits for it.
func (g *gen) pthreadLife(r int) {
	h := g.hy
	mem := h.members[r]
	master, w := mem[0], mem[1+g.rng.IntN(len(mem)-1)]
	h.seq[r]++
	th := trace.Thread{Team: h.contingent[r], Sequence: h.seq[r]}
	created := g.thread(master, trace.KindThreadCreate, g.step(master), th)
	g.thread(w, trace.KindThreadBegin, max(g.step(w), created+g.shm()), th)
	g.region(w, trace.KindEnter, RegWork, g.step(w))
	g.region(w, trace.KindLeave, RegWork, g.step(w)+g.rng.Int64N(100))
	end := g.thread(w, trace.KindThreadEnd, g.step(w), th)
	g.thread(master, trace.KindThreadWait, max(g.step(master), end+g.shm()), th)
}

// pthreadBarrier: every thread of rank r waits in the pthread barrier.
func (g *gen) pthreadBarrier(r int) {
	g.ompBarrier(g.hy.members[r], RegPthreadBarrier, nil)
}
