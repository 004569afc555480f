package tracetest

import (
	"sort"

	"github.com/clc-tools/clc/trace"
)

// Order counts, for one shared-memory relation, the pairs of events on
// two locations it orders and how many of them a set of times violates.
type Order struct {
	Relations, Violations int64
}

// SharedOrder checks the shared-memory order of a hybrid trace with the
// given times (one slice per location, like trace.Trace's), written from
// the thread records without package replay, as a test's independent
// checker. Receivers must come at least mu after their senders. It
// returns the relations by name: "fork" (fork → every team begin of the
// team instance that the fork's location begins next), "join" (every team
// end → the join after the master's team end), "barrier" (in the n-th
// barrier of a team instance, every entry and task completion inside →
// every exit of another member; pthread barriers by region), "lock"
// (release of a lock's acquisition → its next acquisition by order),
// "task-create" (creation → every switch into the task), "taskwait" (a
// task's completion → the end of the first taskwait its creating location
// enters after creating it, within the team instance; this assumes, as
// the generators do, that tasks are created by implicit tasks),
// "thread-create" and "thread-join" (create → begin, end → wait, by
// contingent and sequence count).
func SharedOrder(t *trace.Trace, times [][]int64, mu int64) map[string]Order {
	out := map[string]Order{}
	rel := func(name string, fl, fi, tl, ti int) {
		if fl == tl {
			return
		}
		o := out[name]
		o.Relations++
		if times[tl][ti] < times[fl][fi]+mu {
			o.Violations++
		}
		out[name] = o
	}
	procs := map[int32][]int{}
	for li := range t.Locations {
		procs[t.ProcessOf(li)] = append(procs[t.ProcessOf(li)], li)
	}
	for _, locs := range procs {
		checkProcess(t, locs, rel)
	}
	return out
}

type at struct{ loc, idx int }

// procFacts is what checkProcess gathers from a process's locations.
type procFacts struct {
	begins, ends map[[2]int][]at // (team, k) → events
	barriers     map[[3]int][]barrier
	pbarriers    map[[2]int][]barrier // (region, n)
	acquires     map[[2]uint32][]lockAt
	releases     map[[3]uint32]at
	creates      map[trace.Thread]at
	switches     map[trace.Thread][]at
	completes    map[trace.Thread]at
	waits        map[trace.Thread]at // task → the leave of the taskwait that waits for it
	life         map[[2]uint64]map[trace.Kind]at
}

type barrier struct {
	loc, leave int
	sends      []int
}

type lockAt struct {
	order uint32
	at    at
}

func checkProcess(t *trace.Trace, locs []int, rel func(string, int, int, int, int)) {
	f := &procFacts{begins: map[[2]int][]at{}, ends: map[[2]int][]at{}, barriers: map[[3]int][]barrier{},
		pbarriers: map[[2]int][]barrier{}, acquires: map[[2]uint32][]lockAt{}, releases: map[[3]uint32]at{},
		creates: map[trace.Thread]at{}, switches: map[trace.Thread][]at{}, completes: map[trace.Thread]at{},
		waits: map[trace.Thread]at{}, life: map[[2]uint64]map[trace.Kind]at{}}
	var forks, joins []struct {
		at   at
		team [2]int
	}
	for _, li := range locs {
		fs, js := f.scan(t, li)
		forks, joins = append(forks, fs...), append(joins, js...)
	}
	for _, fk := range forks {
		for _, b := range f.begins[fk.team] {
			rel("fork", fk.at.loc, fk.at.idx, b.loc, b.idx)
		}
	}
	for _, j := range joins {
		for _, e := range f.ends[j.team] {
			rel("join", e.loc, e.idx, j.at.loc, j.at.idx)
		}
	}
	for _, m := range []map[[3]int][]barrier{f.barriers, keyed(f.pbarriers)} {
		for _, bs := range m {
			for _, r := range bs {
				for _, s := range bs {
					for _, si := range s.sends {
						rel("barrier", s.loc, si, r.loc, r.leave)
					}
				}
			}
		}
	}
	for k, as := range f.acquires {
		sort.Slice(as, func(a, b int) bool { return as[a].order < as[b].order })
		for i := 1; i < len(as); i++ {
			if r, ok := f.releases[[3]uint32{k[0], k[1], as[i-1].order}]; ok {
				rel("lock", r.loc, r.idx, as[i].at.loc, as[i].at.idx)
			}
		}
	}
	for key, c := range f.creates {
		for _, s := range f.switches[key] {
			rel("task-create", c.loc, c.idx, s.loc, s.idx)
		}
		if w, ok := f.waits[key]; ok {
			if done, ok := f.completes[key]; ok {
				rel("taskwait", done.loc, done.idx, w.loc, w.idx)
			}
		}
	}
	for _, l := range f.life {
		if c, ok := l[trace.KindThreadCreate]; ok {
			if b, ok := l[trace.KindThreadBegin]; ok {
				rel("thread-create", c.loc, c.idx, b.loc, b.idx)
			}
		}
		if e, ok := l[trace.KindThreadEnd]; ok {
			if w, ok := l[trace.KindThreadWait]; ok {
				rel("thread-join", e.loc, e.idx, w.loc, w.idx)
			}
		}
	}
}

func keyed(m map[[2]int][]barrier) map[[3]int][]barrier {
	out := map[[3]int][]barrier{}
	for k, v := range m {
		out[[3]int{-1, k[0], k[1]}] = v
	}
	return out
}

// scan gathers the facts of location li and returns its forks and joins
// with the team instance each belongs to.
func (f *procFacts) scan(t *trace.Trace, li int) (forks, joins []struct {
	at   at
	team [2]int
}) {
	ev := &t.Locations[li].Events
	count := map[int]int{}   // team → begins so far
	var stack [][2]int       // open team instances
	var lastEnd [2]int       // the team instance last ended here
	pendingFork := -1        // index into forks waiting for a team begin
	nbar := map[[2]int]int{} // team instance → barriers so far
	var open *barrier
	var openKey [3]int
	pcount := map[int]int{}    // pthread barrier region → waits so far
	var pending []trace.Thread // tasks created here and not yet waited for
	inWait := false
	for i, k := range ev.Kind {
		here := at{li, i}
		switch k {
		case trace.KindEnter, trace.KindLeave:
			r := &t.Regions[ev.Ref[i]]
			switch {
			case r.IsThreadBarrier() && k == trace.KindEnter:
				open = &barrier{loc: li, sends: []int{i}}
				if r.Paradigm == trace.ParadigmPthread {
					openKey = [3]int{-1, int(ev.Ref[i]), pcount[int(ev.Ref[i])]}
					pcount[int(ev.Ref[i])]++
				} else if len(stack) > 0 {
					top := stack[len(stack)-1]
					openKey = [3]int{top[0], top[1], nbar[top]}
					nbar[top]++
				} else {
					open = nil
				}
			case r.IsThreadBarrier() && open != nil:
				open.leave = i
				if openKey[0] == -1 {
					f.pbarriers[[2]int{openKey[1], openKey[2]}] = append(f.pbarriers[[2]int{openKey[1], openKey[2]}], *open)
				} else {
					f.barriers[openKey] = append(f.barriers[openKey], *open)
				}
				open = nil
			case r.Role == trace.RoleTaskWait && k == trace.KindEnter:
				inWait = true
			case r.Role == trace.RoleTaskWait && inWait:
				for _, task := range pending {
					f.waits[task] = here
				}
				pending, inWait = nil, false
			}
			continue
		}
		if !k.HasThread() {
			continue
		}
		th := *ev.Thread(i)
		switch k {
		case trace.KindThreadFork:
			forks = append(forks, struct {
				at   at
				team [2]int
			}{here, [2]int{-1, -1}})
			pendingFork = len(forks) - 1
		case trace.KindThreadTeamBegin:
			key := [2]int{int(th.Team), count[int(th.Team)]}
			count[int(th.Team)]++
			stack = append(stack, key)
			f.begins[key] = append(f.begins[key], here)
			if pendingFork >= 0 {
				forks[pendingFork].team, pendingFork = key, -1
			}
		case trace.KindThreadTeamEnd:
			if n := len(stack); n > 0 {
				lastEnd = stack[n-1]
				f.ends[lastEnd] = append(f.ends[lastEnd], here)
				stack = stack[:n-1]
			}
			pending = nil
		case trace.KindThreadJoin:
			joins = append(joins, struct {
				at   at
				team [2]int
			}{here, lastEnd})
		case trace.KindThreadAcquireLock:
			key := [2]uint32{uint32(th.Model), th.Lock}
			f.acquires[key] = append(f.acquires[key], lockAt{th.Order, here})
		case trace.KindThreadReleaseLock:
			f.releases[[3]uint32{uint32(th.Model), th.Lock, th.Order}] = here
		case trace.KindThreadTaskCreate, trace.KindThreadTaskSwitch, trace.KindThreadTaskComplete:
			key := trace.Thread{Team: th.Team, Creator: th.Creator, Generation: th.Generation, Sequence: th.Sequence, Legacy: th.Legacy}
			if len(stack) > 0 {
				key.Lock = uint32(stack[len(stack)-1][1]) // the team instance
			}
			switch k {
			case trace.KindThreadTaskCreate:
				f.creates[key] = here
				pending = append(pending, key)
			case trace.KindThreadTaskSwitch:
				f.switches[key] = append(f.switches[key], here)
			default:
				f.completes[key] = here
				if open != nil {
					open.sends = append(open.sends, i)
				}
			}
		default:
			key := [2]uint64{uint64(th.Team), th.Sequence}
			if f.life[key] == nil {
				f.life[key] = map[trace.Kind]at{}
			}
			f.life[key][k] = here
		}
	}
	return forks, joins
}
