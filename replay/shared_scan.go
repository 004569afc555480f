package replay

import (
	"fmt"

	"github.com/clc-tools/clc/trace"
)

// This file scans one location for the shared-memory relations: its
// thread teams, forks and joins, barriers, lock, task and thread events.
// shared.go and shared_sync.go match what the locations of a process found.

// regionClass says what a region is to the shared-memory matching.
type regionClass uint8

const (
	regionOther          regionClass = iota
	regionBarrier                    // an OpenMP barrier, explicit or implicit
	regionPthreadBarrier             // a pthread barrier
	regionTaskwait                   // an OpenMP taskwait
	numRegionClasses
)

// classifyRegions returns the class of every region of t.
func classifyRegions(t *trace.Trace) []regionClass {
	out := make([]regionClass, len(t.Regions))
	for i := range t.Regions {
		r := &t.Regions[i]
		switch {
		case r.IsThreadBarrier() && r.Paradigm == trace.ParadigmPthread:
			out[i] = regionPthreadBarrier
		case r.IsThreadBarrier():
			out[i] = regionBarrier
		case r.Role == trace.RoleTaskWait:
			out[i] = regionTaskwait
		}
	}
	return out
}

// barrierRec is one barrier region of one location: its enter and leave,
// and its logical send — the last task completion inside it, or the enter.
type barrierRec struct {
	region             uint32
	enter, leave, send uint32
}

// teamSeq is one location's participation in one thread team: the begin
// and end of each instance, and the barriers within each.
type teamSeq struct {
	begins, ends []uint32
	barriers     [][]barrierRec
}

// forkRec is a fork, bound to the team instance whose begin follows it on
// the same location (team trace.NoComm when none did).
type forkRec struct {
	idx  uint32
	team uint32
	k    int32
}

// joinRec is a join and the team instance of the fork it closes.
type joinRec = forkRec

// lockEv is a lock acquisition or release.
type lockEv struct {
	acquire bool
	model   trace.Paradigm
	lock    uint32
	order   uint32
	idx     uint32
}

// taskKey identifies a task within a process: the team and team instance
// it was created in, the creating thread and the generation number; for a
// legacy OpenMP task its id. implicit > 0 names the implicit task of
// location implicit−1 in the team instance (team, inst).
type taskKey struct {
	team     uint32
	inst     int32
	creator  uint32
	gen      uint32
	id       uint64
	legacy   bool
	implicit int32
}

// taskEvKind is what a task event in a location's sequence is.
type taskEvKind uint8

const (
	taskCreate taskEvKind = iota
	taskSwitch
	taskComplete
	taskwaitEnter
	taskwaitLeave
)

// taskEv is one event of a location's task sequence: key is the task it
// names (none for taskwait enters and leaves), impl the location's
// implicit task in its innermost team instance at that point.
type taskEv struct {
	kind taskEvKind
	key  taskKey
	impl taskKey
	idx  uint32
}

// threadEv is a thread create, begin, wait or end.
type threadEv struct {
	kind trace.Kind
	team uint32
	seq  uint64
	idx  uint32
}

// locThreads is what the scan of one location finds.
type locThreads struct {
	loc       int32
	teams     map[uint32]*teamSeq
	forks     []forkRec
	joins     []joinRec
	locks     []lockEv
	tasks     []taskEv
	threads   []threadEv
	pbarriers map[uint32][]barrierRec // pthread barriers by region
	issues    Issues
}

// teamFrame is an open team instance on a location's stack.
type teamFrame struct {
	team uint32
	k    int32
	open *barrierRec // the barrier entered and not yet left, if any
}

// scanThreads scans the events ev of location li.
func scanThreads(li int, ev *trace.Events, rc []regionClass) *locThreads {
	s := &locThreads{loc: int32(li)}
	var stack []teamFrame
	var forks []int // indices into s.forks of forks waiting for their team begin or join
	var popen *barrierRec
	// issue reports a problem at event position at (NoEvent: none).
	issue := func(kind IssueKind, at uint32, format string, args ...any) {
		s.issues.Add(Issue{Kind: kind, Location: int32(li), Event: at, Detail: fmt.Sprintf(format, args...)})
	}
	for i, k := range ev.Kind {
		if k == trace.KindEnter || k == trace.KindLeave {
			popen = s.region(ev, i, k, rc, stack, popen, issue)
			continue
		}
		if !k.HasThread() {
			continue
		}
		th := ev.Thread(i)
		idx := ev.Pos(i)
		switch k {
		case trace.KindThreadFork:
			s.forks = append(s.forks, forkRec{idx: idx, team: trace.NoComm, k: -1})
			forks = append(forks, len(s.forks)-1)
		case trace.KindThreadTeamBegin:
			ts := s.team(th.Team)
			kk := int32(len(ts.begins))
			ts.begins = append(ts.begins, idx)
			ts.barriers = append(ts.barriers, nil)
			stack = append(stack, teamFrame{team: th.Team, k: kk})
			if n := len(forks); n > 0 && s.forks[forks[n-1]].team == trace.NoComm {
				f := &s.forks[forks[n-1]]
				f.team, f.k = th.Team, kk
			}
		case trace.KindThreadTeamEnd:
			stack = s.teamEnd(stack, th.Team, idx, issue)
		case trace.KindThreadJoin:
			n := len(forks)
			if n == 0 || s.forks[forks[n-1]].team == trace.NoComm {
				issue(UnmatchedThread, idx, "join without a fork whose team began on this location")
				continue
			}
			f := s.forks[forks[n-1]]
			forks = forks[:n-1]
			s.joins = append(s.joins, joinRec{idx: idx, team: f.team, k: f.k})
		case trace.KindThreadAcquireLock, trace.KindThreadReleaseLock:
			s.locks = append(s.locks, lockEv{acquire: k == trace.KindThreadAcquireLock, model: th.Model, lock: th.Lock, order: th.Order, idx: idx})
		case trace.KindThreadTaskCreate, trace.KindThreadTaskSwitch, trace.KindThreadTaskComplete:
			kind := map[trace.Kind]taskEvKind{trace.KindThreadTaskCreate: taskCreate,
				trace.KindThreadTaskSwitch: taskSwitch, trace.KindThreadTaskComplete: taskComplete}[k]
			s.tasks = append(s.tasks, taskEv{kind: kind, key: keyOf(th, stack), impl: implicitKey(s.loc, stack), idx: idx})
			if k == trace.KindThreadTaskComplete {
				if n := len(stack); n > 0 && stack[n-1].open != nil {
					stack[n-1].open.send = idx
				} else if popen != nil {
					popen.send = idx
				}
			}
		default: // thread create, begin, wait, end
			s.threads = append(s.threads, threadEv{kind: k, team: th.Team, seq: th.Sequence, idx: idx})
		}
	}
	for _, f := range stack {
		issue(IncompleteThread, NoEvent, "team %d instance %d begun and never ended", f.team, f.k)
	}
	for _, fi := range forks {
		if s.forks[fi].team == trace.NoComm {
			issue(UnmatchedThread, s.forks[fi].idx, "fork without a team begin after it")
		}
	}
	return s
}

func (s *locThreads) team(team uint32) *teamSeq {
	if s.teams == nil {
		s.teams = map[uint32]*teamSeq{}
	}
	ts := s.teams[team]
	if ts == nil {
		ts = &teamSeq{}
		s.teams[team] = ts
	}
	return ts
}

// teamEnd closes the innermost open instance of team on the stack.
func (s *locThreads) teamEnd(stack []teamFrame, team uint32, idx uint32, issue func(IssueKind, uint32, string, ...any)) []teamFrame {
	n := len(stack)
	if n == 0 || stack[n-1].team != team {
		issue(UnmatchedThread, idx, "end of team %d, which is not the innermost team begun here", team)
		return stack
	}
	f := stack[n-1]
	if f.open != nil {
		issue(IncompleteThread, f.open.enter, "barrier entered and not left before the end of team %d", team)
	}
	ts := s.team(team)
	if int(f.k) == len(ts.ends) {
		ts.ends = append(ts.ends, idx)
	}
	return stack[:n-1]
}

// region handles an enter or leave: barriers (in the innermost team, or
// pthread barriers by region) and taskwaits. It returns the open pthread
// barrier.
func (s *locThreads) region(ev *trace.Events, i int, k trace.Kind, rc []regionClass, stack []teamFrame, popen *barrierRec, issue func(IssueKind, uint32, string, ...any)) *barrierRec {
	r := ev.Ref[i]
	idx := ev.Pos(i)
	enter := k == trace.KindEnter
	switch rc[r] {
	case regionBarrier:
		n := len(stack)
		if n == 0 {
			if enter {
				issue(UnmatchedThread, idx, "OpenMP barrier outside any thread team")
			}
			return popen
		}
		f := &stack[n-1]
		switch {
		case enter && f.open == nil:
			f.open = &barrierRec{region: r, enter: idx, send: idx}
		case !enter && f.open != nil && f.open.region == r:
			f.open.leave = idx
			ts := s.team(f.team)
			ts.barriers[f.k] = append(ts.barriers[f.k], *f.open)
			f.open = nil
		}
	case regionPthreadBarrier:
		switch {
		case enter && popen == nil:
			return &barrierRec{region: r, enter: idx, send: idx}
		case !enter && popen != nil && popen.region == r:
			popen.leave = idx
			if s.pbarriers == nil {
				s.pbarriers = map[uint32][]barrierRec{}
			}
			s.pbarriers[r] = append(s.pbarriers[r], *popen)
			return nil
		}
	case regionTaskwait:
		kind := taskwaitLeave
		if enter {
			kind = taskwaitEnter
		}
		s.tasks = append(s.tasks, taskEv{kind: kind, impl: implicitKey(s.loc, stack), idx: idx})
	}
	return popen
}

// keyOf returns the key of the task a task event names.
func keyOf(th *trace.Thread, stack []teamFrame) taskKey {
	if th.Legacy {
		return taskKey{legacy: true, id: th.Sequence, inst: -1, team: trace.NoComm}
	}
	key := taskKey{team: th.Team, inst: -1, creator: th.Creator, gen: th.Generation}
	for j := len(stack) - 1; j >= 0; j-- {
		if stack[j].team == th.Team {
			key.inst = stack[j].k
			break
		}
	}
	return key
}

// implicitKey returns the key of location loc's implicit task in its
// innermost team instance.
func implicitKey(loc int32, stack []teamFrame) taskKey {
	key := taskKey{team: trace.NoComm, inst: -1, implicit: loc + 1}
	if n := len(stack); n > 0 {
		key.team, key.inst = stack[n-1].team, stack[n-1].k
	}
	return key
}

// Needs returns which events of t the happened-before relation looks at,
// as the predicate of trace.Events.Select: a reader may keep only these
// (and every time) instead of whole sequences, and Match finds the same
// relation. Enters and leaves count only for MPI_Init and MPI_Finalize and
// for the regions of the shared-memory rules (barriers, taskwaits);
// opaque records, unsuccessful tests, isend completions and communicator
// events not at all.
func Needs(t *trace.Trace) func(k trace.Kind, ref uint32) bool {
	rc := classifyRegions(t)
	sync := make([]bool, len(t.Regions))
	for i := range t.Regions {
		sync[i] = t.Regions[i].IsMPIInit() || t.Regions[i].IsMPIFinalize() || rc[i] != regionOther
	}
	return func(k trace.Kind, ref uint32) bool {
		switch k {
		case trace.KindEnter, trace.KindLeave:
			return int(ref) < len(sync) && sync[ref]
		case trace.KindOther, trace.KindRequestTest, trace.KindIsendComplete, trace.KindCommCreate, trace.KindCommDestroy:
			return false
		}
		return true
	}
}
