package sim

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/clc-tools/clc/trace"
)

// This file is the simulator's hybrid mode (Config.Threads > 1): every
// rank is a process of Threads threads, and every compute phase is an
// OpenMP parallel region of them, recorded as Score-P records it — a fork
// on the master, a team begin and end on every thread, critical sections
// as lock acquisitions with their order, tasks (created by the master,
// run by any thread, some waited for by a taskwait, the others run in the
// closing barrier), explicit and implicit barriers, the join. Locations:
// rank r is location r (its master thread), its thread w ≥ 1 is location
// Ranks + r·(Threads−1) + w − 1, with id r | w<<32 as Score-P numbers them.

// MaxThreads bounds Config.Threads.
const MaxThreads = 1024

// Regions of the hybrid mode, after the MPI ones (their names follow
// Score-P's OpenMP regions).
var threadRegions = []trace.Region{
	{Name: "!$omp parallel @sim.c:10", Role: trace.RoleParallel, Paradigm: trace.ParadigmOpenMP},
	{Name: "!$omp barrier @sim.c:20", Role: trace.RoleBarrier, Paradigm: trace.ParadigmOpenMP},
	{Name: "!$omp implicit barrier @sim.c:30", Role: trace.RoleImplicitBarrier, Paradigm: trace.ParadigmOpenMP},
	{Name: "!$omp critical @sim.c:40", Role: trace.RoleCritical, Paradigm: trace.ParadigmOpenMP},
	{Name: "!$omp create task @sim.c:50", Role: trace.RoleTaskCreate, Paradigm: trace.ParadigmOpenMP},
	{Name: "!$omp task @sim.c:50", Role: trace.RoleTask, Paradigm: trace.ParadigmOpenMP},
	{Name: "!$omp taskwait @sim.c:60", Role: trace.RoleTaskWait, Paradigm: trace.ParadigmOpenMP},
}

// Indices of the thread regions.
const (
	regParallel = regCollBase + 17 + iota // after the 17 collective regions
	regOmpBarrier
	regImplicitBarrier
	regCritical
	regTaskCreate
	regTask
	regTaskwait
)

// Locations returns the number of locations of a run: Ranks × Threads.
func (c *Config) Locations() int { return c.Ranks * max(c.Threads, 1) }

// addThreadDefs adds the hybrid mode's definitions to t: a process per
// rank, the thread locations, a thread team per rank, the regions.
func addThreadDefs(t *trace.Trace, cfg *Config) {
	n, nt := cfg.Ranks, cfg.Threads
	t.Processes = make([]trace.Process, n)
	for r := range n {
		t.Processes[r].Name = "MPI Rank " + strconv.Itoa(r)
		l := t.Locations[r]
		l.Process, l.Kind = int32(r), trace.LocationCPUThread
	}
	locs := make([]trace.Location, n*(nt-1))
	for r := range n {
		team := trace.Comm{Name: "thread team of rank " + strconv.Itoa(r), Paradigm: trace.ParadigmOpenMP, Members: []int32{int32(r)}}
		for w := 1; w < nt; w++ {
			loc := n + r*(nt-1) + w - 1
			locs[loc-n] = trace.Location{ID: uint64(r) | uint64(w)<<32, Name: "rank " + strconv.Itoa(r) + " thread " + strconv.Itoa(w),
				Node: t.Locations[r].Node, Process: int32(r), Kind: trace.LocationCPUThread}
			team.Members = append(team.Members, int32(loc))
		}
		t.Comms = append(t.Comms, team)
	}
	for i := range locs {
		t.Locations = append(t.Locations, &locs[i])
	}
	t.Regions = append(t.Regions, threadRegions...)
}

// hybridSim is the state of the hybrid mode.
type hybridSim struct {
	threads  int
	lat      int64    // ThreadLatency in ticks (rounded up)
	teamBase uint32   // the team of rank r is communicator teamBase + r
	order    []uint32 // per rank: next acquisition order of its critical lock
	free     []int64  // per rank: the last release of its critical lock
	gen      []uint32 // per location: next task generation number
	members  []int    // scratch: a rank's locations
}

// newHybridSim returns the hybrid mode's state, nil without threads;
// ncomms is the number of MPI communicators (buildComms), after which the
// thread teams come.
func newHybridSim(cfg *Config, ncomms int) *hybridSim {
	if cfg.Threads <= 1 {
		return nil
	}
	return &hybridSim{
		threads:  cfg.Threads,
		lat:      ticksCeil(cfg.ThreadLatency, cfg.Resolution),
		teamBase: uint32(ncomms),
		order:    make([]uint32, cfg.Ranks),
		free:     make([]int64, cfg.Ranks),
		gen:      make([]uint32, cfg.Locations()),
	}
}

// rankOf returns the rank of location loc.
func (e *engine) rankOf(loc int) int {
	if loc < e.n {
		return loc
	}
	return (loc - e.n) / (e.hy.threads - 1)
}

// members returns the locations of rank r: its master, then its threads.
func (e *engine) members(r int) []int {
	h := e.hy
	h.members = append(h.members[:0], r)
	for w := 1; w < h.threads; w++ {
		h.members = append(h.members, e.n+r*(h.threads-1)+w-1)
	}
	return h.members
}

func (e *engine) threadEvent(loc int, k trace.Kind, dep int64, th trace.Thread) int64 {
	t := e.at(loc, dep)
	e.cur[loc].AppendThread(k, t, th)
	return t
}

// task is a created task, the location that runs it and its completion.
type task struct {
	th      trace.Thread
	created int64
	loc     int
	done    int64
}

// parallelRegion runs a compute phase of rank r as an OpenMP parallel
// region of its threads.
func (e *engine) parallelRegion(r int) {
	h := e.hy
	mem := e.members(r) // scratch h.members: nothing below calls members, changes or keeps mem (critical sorts a copy)
	team := trace.Thread{Team: h.teamBase + uint32(r)}
	fork := e.threadEvent(r, trace.KindThreadFork, none, trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm, Threads: uint32(h.threads)})
	for _, l := range mem {
		e.threadEvent(l, trace.KindThreadTeamBegin, fork+h.lat, team)
		e.enter(l, regParallel)
		e.enter(l, regCompute)
		e.now[l] += e.computeTime() / int64(h.threads) // the phase's work, shared
		e.leave(l, regCompute)
	}
	if e.rng.IntN(2) == 0 {
		e.critical(r, mem)
	}
	var tasks []task
	if e.rng.IntN(3) == 0 {
		tasks = e.createTasks(r, mem, team)
		if e.rng.IntN(2) == 0 { // wait for them now; else they run in the barrier
			e.enter(r, regTaskwait)
			var done int64
			for i := range tasks {
				done = max(done, e.runTask(&tasks[i]))
			}
			e.at(r, done+h.lat)
			e.cur[r].AppendRegion(trace.KindLeave, e.now[r], regTaskwait)
			tasks = nil
		}
	}
	if e.rng.IntN(3) == 0 {
		e.threadBarrier(mem, regOmpBarrier, nil)
	}
	e.threadBarrier(mem, regImplicitBarrier, tasks)
	var ends int64
	for _, l := range mem {
		e.leave(l, regParallel)
		ends = max(ends, e.threadEvent(l, trace.KindThreadTeamEnd, none, team))
	}
	e.threadEvent(r, trace.KindThreadJoin, ends+h.lat, trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm})
}

// critical: the threads take rank r's critical section in the order they
// reach it, each acquisition after the previous release.
func (e *engine) critical(r int, mem []int) {
	h := e.hy
	order := slices.Clone(mem)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(e.now[a], e.now[b]) })
	for _, l := range order {
		th := trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm, Lock: 1, Order: h.order[r]}
		h.order[r]++
		e.enter(l, regCritical)
		e.threadEvent(l, trace.KindThreadAcquireLock, h.free[r]+h.lat, th)
		e.now[l] += 4 * e.call // the protected update
		h.free[r] = e.threadEvent(l, trace.KindThreadReleaseLock, none, th)
		e.leave(l, regCritical)
	}
}

// createTasks: the master creates 1–4 tasks, each to be run by a random
// thread.
func (e *engine) createTasks(r int, mem []int, team trace.Thread) []task {
	h := e.hy
	tasks := make([]task, 1+e.rng.IntN(4))
	for i := range tasks {
		h.gen[r]++
		th := team
		th.Creator, th.Generation = 0, h.gen[r]
		e.enter(r, regTaskCreate)
		created := e.threadEvent(r, trace.KindThreadTaskCreate, none, th)
		e.leave(r, regTaskCreate)
		tasks[i] = task{th: th, created: created, loc: mem[e.rng.IntN(len(mem))]}
	}
	return tasks
}

// runTask runs t on its location (begin after its creation) and returns
// its completion time.
func (e *engine) runTask(t *task) int64 {
	e.threadEvent(t.loc, trace.KindThreadTaskSwitch, t.created+e.hy.lat, t.th)
	e.enter(t.loc, regTask)
	e.now[t.loc] += e.computeTime() / 8
	e.leave(t.loc, regTask)
	t.done = e.threadEvent(t.loc, trace.KindThreadTaskComplete, none, t.th)
	return t.done
}

// threadBarrier: every thread enters region reg, the tasks run inside it,
// and no thread leaves before every entry and completion plus the
// hand-over latency.
func (e *engine) threadBarrier(mem []int, reg uint32, tasks []task) {
	var last int64
	for _, l := range mem {
		e.enter(l, reg)
		last = max(last, e.now[l])
	}
	for i := range tasks {
		last = max(last, e.runTask(&tasks[i]))
	}
	for _, l := range mem {
		e.at(l, last+e.hy.lat)
		e.cur[l].AppendRegion(trace.KindLeave, e.now[l], reg)
	}
}
