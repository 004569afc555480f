package replay

import (
	"cmp"
	"slices"

	"github.com/clc-tools/clc/trace"
)

// This file matches the one-to-one shared-memory relations of a process
// (locks, task creation, thread creation and end) and the taskwaits.

// locks relates each lock's acquisitions in their acquisition order: the
// release of the k-th acquisition precedes the (k+1)-th. Locks are told
// apart by model and id; an acquisition order is unique per lock.
func (m *procMatch) locks() {
	type key struct {
		model trace.Paradigm
		lock  uint32
	}
	type acq struct {
		order uint32
		at    evRef
	}
	acqs := map[key][]acq{}
	rels := map[key]map[uint32]evRef{}
	for _, s := range m.scans {
		for _, l := range s.locks {
			k := key{l.model, l.lock}
			at := evRef{s.loc, l.idx}
			if l.acquire {
				acqs[k] = append(acqs[k], acq{l.order, at})
				continue
			}
			if rels[k] == nil {
				rels[k] = map[uint32]evRef{}
			}
			if o, dup := rels[k][l.order]; dup {
				m.out.issue(InconsistentThread, s.loc, l.idx, "lock %d released twice with acquisition order %d (first at location %d, event %d)", l.lock, l.order, o.loc, o.idx)
				continue
			}
			rels[k][l.order] = at
		}
	}
	keys := make([]key, 0, len(acqs))
	for k := range acqs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.model, b.model), cmp.Compare(a.lock, b.lock)) })
	for _, k := range keys {
		as := acqs[k]
		slices.SortStableFunc(as, func(a, b acq) int { return cmp.Compare(a.order, b.order) })
		for i := 1; i < len(as); i++ {
			prev, cur := as[i-1], as[i]
			if cur.order == prev.order {
				m.out.issue(InconsistentThread, cur.at.loc, cur.at.idx, "lock %d acquired twice with order %d (also at location %d, event %d)", k.lock, cur.order, prev.at.loc, prev.at.idx)
				continue
			}
			rel, ok := rels[k][prev.order]
			if !ok {
				m.out.issue(UnmatchedThread, cur.at.loc, cur.at.idx, "lock %d: acquisition %d follows acquisition %d, which has no release", k.lock, cur.order, prev.order)
				continue
			}
			m.out.p2p(SyncLock, rel, cur.at)
		}
		for _, a := range as {
			delete(rels[k], a.order)
		}
		left := make([]uint32, 0, len(rels[k]))
		for order := range rels[k] {
			left = append(left, order)
		}
		slices.Sort(left)
		for _, order := range left {
			r := rels[k][order]
			m.out.issue(UnmatchedThread, r.loc, r.idx, "release of lock %d with acquisition order %d, which no acquisition has", k.lock, order)
		}
	}
}

// taskwaitRec is a taskwait region and the child tasks it waits for.
type taskwaitRec struct {
	leave    evRef
	children []taskKey
}

// tasks relates each task's creation to the first switch into it on every
// location that runs it, and the completion of every child task to the end
// of its parent's taskwait (docs/algorithm.md says which taskwait that is).
func (m *procMatch) tasks() {
	created := map[taskKey]evRef{}
	for _, s := range m.scans {
		for _, e := range s.tasks {
			if e.kind != taskCreate {
				continue
			}
			if o, dup := created[e.key]; dup {
				m.out.issue(InconsistentThread, s.loc, e.idx, "task created twice (first at location %d, event %d)", o.loc, o.idx)
				continue
			}
			created[e.key] = evRef{s.loc, e.idx}
		}
	}
	completed := map[taskKey]evRef{}
	run := map[taskKey]bool{}
	var waits []taskwaitRec
	for _, s := range m.scans {
		waits = m.taskSequence(s, created, completed, run, waits)
	}
	for _, s := range m.scans {
		for _, e := range s.tasks {
			if e.kind == taskCreate && !run[e.key] && created[e.key] == (evRef{s.loc, e.idx}) {
				m.out.issue(UnmatchedThread, s.loc, e.idx, "task created and never switched to")
			}
		}
	}
	for _, w := range waits {
		var parts []Part
		at := map[int32]int{}
		part := func(loc int32) *Part {
			i, ok := at[loc]
			if !ok {
				i = len(parts)
				at[loc] = i
				parts = append(parts, Part{Loc: loc, Send: NoEvent, Recv: NoEvent})
			}
			return &parts[i]
		}
		part(w.leave.loc).Recv = w.leave.idx
		for _, child := range w.children {
			c, ok := completed[child]
			if !ok {
				cr := created[child]
				m.out.issue(UnmatchedThread, cr.loc, cr.idx, "task waited for at location %d, event %d, never completed", w.leave.loc, w.leave.idx)
				continue
			}
			if p := part(c.loc); p.Send == NoEvent || c.idx > p.Send {
				p.Send = c.idx
			}
		}
		// The waiter first: instance parts in a fixed order.
		m.out.instance(SyncTaskWait, ClassNToOne, NoEvent, 0, parts)
	}
}

// taskSequence replays the task events of one location: which task runs
// (a stack: a switch to a task on it returns to it, a switch to a task the
// process never created — an implicit task — empties it), the first switch
// into each task, completions, and the children each taskwait waits for:
// the tasks the current task created on this location since its previous
// taskwait.
func (m *procMatch) taskSequence(s *locThreads, created, completed map[taskKey]evRef, run map[taskKey]bool, waits []taskwaitRec) []taskwaitRec {
	var stack []taskKey
	current := func(e *taskEv) taskKey {
		if n := len(stack); n > 0 {
			return stack[n-1]
		}
		return e.impl
	}
	pending := map[taskKey][]taskKey{}
	var open [][]taskKey
	for i := range s.tasks {
		e := &s.tasks[i]
		switch e.kind {
		case taskCreate:
			p := current(e)
			pending[p] = append(pending[p], e.key)
		case taskSwitch:
			c, ok := created[e.key]
			if !ok {
				stack = stack[:0]
				continue
			}
			if pos := slices.Index(stack, e.key); pos >= 0 {
				stack = stack[:pos+1]
			} else {
				stack = append(stack, e.key)
			}
			if !m.switchedOn(e.key, s.loc) {
				m.markSwitched(e.key, s.loc)
				run[e.key] = true
				m.out.p2p(SyncTaskCreate, c, evRef{s.loc, e.idx})
			}
		case taskComplete:
			if pos := slices.Index(stack, e.key); pos >= 0 {
				stack = stack[:pos]
			}
			if o, dup := completed[e.key]; dup {
				m.out.issue(InconsistentThread, s.loc, e.idx, "task completed twice (first at location %d, event %d)", o.loc, o.idx)
				continue
			}
			completed[e.key] = evRef{s.loc, e.idx}
		case taskwaitEnter:
			w := current(e)
			open = append(open, pending[w])
			delete(pending, w)
		case taskwaitLeave:
			if n := len(open); n > 0 {
				if len(open[n-1]) > 0 {
					waits = append(waits, taskwaitRec{leave: evRef{s.loc, e.idx}, children: open[n-1]})
				}
				open = open[:n-1]
			}
		}
	}
	return waits
}

// switchedOn and markSwitched remember on which locations a task was
// switched to already (the first switch on each location gets the edge).
func (m *procMatch) switchedOn(k taskKey, loc int32) bool {
	return m.switched[switchKey{k, loc}]
}

func (m *procMatch) markSwitched(k taskKey, loc int32) {
	if m.switched == nil {
		m.switched = map[switchKey]bool{}
	}
	m.switched[switchKey{k, loc}] = true
}

type switchKey struct {
	k   taskKey
	loc int32
}

// threadLife relates a thread's creation to its begin and its end to the
// wait for it, by thread contingent and sequence count.
func (m *procMatch) threadLife() {
	type key struct {
		team uint32
		seq  uint64
	}
	at := map[trace.Kind]map[key]evRef{}
	var order []key
	for _, s := range m.scans {
		for _, e := range s.threads {
			k := key{e.team, e.seq}
			if at[e.kind] == nil {
				at[e.kind] = map[key]evRef{}
			}
			if o, dup := at[e.kind][k]; dup {
				m.out.issue(InconsistentThread, s.loc, e.idx, "%s of contingent %d sequence %d twice (first at location %d, event %d)", e.kind, e.team, e.seq, o.loc, o.idx)
				continue
			}
			at[e.kind][k] = evRef{s.loc, e.idx}
			order = append(order, k)
		}
	}
	for _, k := range order {
		pair := func(from, to trace.Kind, kind SyncKind) {
			t, ok := at[to][k]
			if !ok {
				return
			}
			delete(at[to], k) // each pair once
			f, ok := at[from][k]
			if !ok || k.seq == ^uint64(0) {
				m.out.issue(UnmatchedThread, t.loc, t.idx, "%s of contingent %d sequence %d without its %s", to, k.team, k.seq, from)
				return
			}
			m.out.p2p(kind, f, t)
		}
		pair(trace.KindThreadCreate, trace.KindThreadBegin, SyncThreadCreate)
		pair(trace.KindThreadEnd, trace.KindThreadWait, SyncThreadJoin)
	}
}
