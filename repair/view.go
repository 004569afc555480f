package repair

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/replay"
)

// view is what one process of a correction divided among processes sees
// of the trace for the stages that read the times at both ends of a
// message (the clock model, the CLC, the clock condition): the columns of
// its own locations whole (the correction's own slices), and of every
// other location only the events that its own locations' messages (both
// ends), the collective instances with an own member and the given extra
// events reach — the halo. Its graph is the trace's, renumbered in place
// into the view's columns: the own locations' point-to-point references to
// other processes' locations, and those instances' members elsewhere (the
// other instances keep their members' indices, which nothing reads); a
// halo event that an own receive reaches lists it, as a send, so that a
// change of its time recounts the receive (measure.ClockCondition.Recount).
// counted marks the instances this process counts: those whose first
// member is its own, so that each is counted by one process.
//
// The times of the halo that the clock model and the clock condition read
// (the senders of own receives, the members of counted instances, the
// extra events) are fetched from their processes (fetch, refresh); the
// CLC's exchange fills the rest.
//
// The clock model moves a halo column as it moves the own column, event
// by event, except where a location's times go backward in the input: the
// model keeps each column's times in order, and a halo column lacks the
// events between its own, so a halo time after a backward step may then
// differ from its own column's (one process's result is the reference;
// docs/scale.md).
//
// With one process the view is the trace itself.
type view struct {
	g     *comm.Group
	own   []bool
	times [][]int64
	graph *replay.Graph
	// idx holds, per location that is not own, the event indices of its
	// halo column (ascending); nil for own locations.
	idx [][]uint32
	// counted marks the instances this process counts.
	counted []bool
	// served lists, per process, the own events it fetched, in the order
	// it asked (refresh sends their times again).
	served []eventList
	// asked lists, per process, the halo positions its reply fills, in
	// the order of the reply.
	asked []eventList
}

// View is what one process of a correction divided among processes saw
// of the trace (Result.View): its own locations' columns whole and, of
// the other locations, the halo — the other ends of the messages its
// locations receive and the members of the collective instances it
// counts (Counted) — with Graph renumbered into these columns. It is what
// the process counts the clock condition on, as htmlreport does for a
// divided page.
type View struct {
	Graph *replay.Graph
	// Presync and Corrected are the columns as pre-synchronised and as
	// corrected (the own columns Result.Presync's and the trace's).
	Presync, Corrected [][]int64
	// Own marks this process's locations, Counted the instances it counts.
	Own, Counted []bool
}

// eventList is a list of events of locations, held as runs of one
// location's (4 bytes an event).
type eventList struct {
	runs []eventRun
	idx  []uint32
}

// eventRun says that the list's events from the previous run's end to
// end are location loc's.
type eventRun struct {
	loc int32
	end int32
}

// add appends event idx of location loc.
func (l *eventList) add(loc int32, idx uint32) {
	if n := len(l.runs); n == 0 || l.runs[n-1].loc != loc {
		l.runs = append(l.runs, eventRun{loc: loc})
	}
	l.idx = append(l.idx, idx)
	l.runs[len(l.runs)-1].end = int32(len(l.idx))
}

// len returns the number of events.
func (l *eventList) len() int { return len(l.idx) }

// each calls f with every event in order, k its place in the list.
func (l *eventList) each(f func(k int, loc int32, idx uint32)) {
	k := 0
	for _, r := range l.runs {
		for ; k < int(r.end); k++ {
			f(k, r.loc, l.idx[k])
		}
	}
}

// locEvent is an event of a location: its index, or its position in a
// halo column.
type locEvent struct {
	loc int32
	idx uint32
}

// newView builds this process's view of times (the own locations'
// columns; the others are not read) and g (replay.Matcher.FinishDivided's:
// the own locations' dependencies, every instance), which it renumbers in
// place, fetching the halo's times from their processes (two
// all-to-alls); extra lists further events of other locations to fetch.
// With one process (gr nil) it returns the trace itself.
func newView(gr *comm.Group, part []int32, times [][]int64, g *replay.Graph, extra []locEvent) *view {
	n := len(times)
	v := &view{g: gr, times: times, graph: g}
	if gr == nil {
		return v
	}
	me := int32(gr.Rank())
	own := make([]bool, n)
	for li := range own {
		own[li] = part[li] == me
	}
	v.own = own
	member := make([]bool, len(g.Instances))
	v.counted = make([]bool, len(g.Instances))
	for ii := range g.Instances {
		ps := g.InstanceParts(uint32(ii))
		for _, p := range ps {
			if own[p.Loc] {
				member[ii] = true
				break
			}
		}
		v.counted[ii] = len(ps) > 0 && own[ps[0].Loc] || len(ps) == 0 && me == 0
	}
	// The halo's events, and those whose times are fetched.
	all := make([][]uint32, n)
	fetch := make([][]uint32, n)
	for li, deps := range g.Deps {
		if !own[li] {
			continue
		}
		for _, d := range deps {
			switch d.Role {
			case replay.RoleRecv, replay.RoleSyncRecv:
				if !own[d.Peer] {
					fetch[d.Peer] = append(fetch[d.Peer], d.Ref)
				}
			case replay.RoleSend, replay.RoleSyncSend:
				if !own[d.Peer] {
					all[d.Peer] = append(all[d.Peer], d.Ref)
				}
			}
		}
	}
	for ii, m := range member {
		if !m {
			continue
		}
		for _, p := range g.InstanceParts(uint32(ii)) {
			if own[p.Loc] {
				continue
			}
			for _, e := range [2]uint32{p.Send, p.Recv} {
				if e == replay.NoEvent {
					continue
				}
				if v.counted[ii] {
					fetch[p.Loc] = append(fetch[p.Loc], e)
				} else {
					all[p.Loc] = append(all[p.Loc], e)
				}
			}
		}
	}
	for _, e := range extra {
		if !own[e.loc] {
			fetch[e.loc] = append(fetch[e.loc], e.idx)
		}
	}
	for li := range all {
		slices.Sort(fetch[li])
		fetch[li] = slices.Compact(fetch[li])
		all[li] = append(all[li], fetch[li]...)
		slices.Sort(all[li])
		// Held for the run: no room beyond its events.
		all[li] = slices.Clone(slices.Compact(all[li]))
	}
	v.idx = all
	v.fetch(part, fetch)
	v.renumber(g, member)
	return v
}

// pos returns the position of event idx of location loc in its view
// column.
func (v *view) pos(loc int32, idx uint32) uint32 {
	k, _ := v.at(loc, idx)
	return k
}

// at returns the position of event idx of location loc in its view
// column, false if the column does not hold it (clc.Options.Pos).
func (v *view) at(loc int32, idx uint32) (uint32, bool) {
	if v.own[loc] {
		return idx, true
	}
	k, ok := slices.BinarySearch(v.idx[loc], idx)
	return uint32(k), ok
}

// fetch asks every process for the halo's events of its locations and
// fills the halo columns with their times.
func (v *view) fetch(part []int32, fetch [][]uint32) {
	p := v.g.Size()
	v.asked = make([]eventList, p)
	req := make([][]byte, p)
	halo := make([][]int64, len(v.times))
	copy(halo, v.times)
	asks := make([]int, p)
	for li, ix := range v.idx {
		if len(ix) > 0 && !v.own[li] {
			asks[part[li]] += len(fetch[li])
		}
	}
	for q, n := range asks {
		v.asked[q].idx = make([]uint32, 0, n)
	}
	for li, ix := range v.idx {
		if len(ix) == 0 || v.own[li] {
			continue
		}
		q := part[li]
		halo[li] = make([]int64, len(ix))
		for _, e := range fetch[li] {
			req[q] = binary.LittleEndian.AppendUint32(req[q], uint32(li))
			req[q] = binary.LittleEndian.AppendUint32(req[q], e)
			v.asked[q].add(int32(li), v.pos(int32(li), e))
		}
	}
	v.times = halo
	got := v.g.Alltoall("fetching the times of the messages' other ends", req)
	if got == nil {
		return
	}
	v.served = make([]eventList, p)
	for q, b := range got {
		v.served[q].idx = make([]uint32, 0, len(b)/8)
		for ; len(b) >= 8; b = b[8:] {
			li, e := int32(binary.LittleEndian.Uint32(b)), binary.LittleEndian.Uint32(b[4:])
			if int(li) >= len(v.own) || !v.own[li] || int(e) >= len(v.times[li]) {
				v.g.Fail(fmt.Errorf("process %d asked for event %d of location %d, which is not this process's", q, e, li))
				return
			}
			v.served[q].add(li, e)
		}
	}
	v.refresh()
	// The events not fetched (the CLC's exchange fills them) take the
	// time of the fetched one before them (the first fetched one's
	// before it): the columns stay in order, so that moving them by the
	// clock model's curves (which keeps times in order) leaves the
	// fetched times as it leaves their own columns.
	fetched := make([][]bool, len(v.times))
	for q := range v.asked {
		v.asked[q].each(func(_ int, loc int32, idx uint32) {
			if fetched[loc] == nil {
				fetched[loc] = make([]bool, len(v.times[loc]))
			}
			fetched[loc][idx] = true
		})
	}
	for li, f := range fetched {
		if f == nil {
			continue
		}
		ts := v.times[li]
		first := slices.Index(f, true)
		prev := ts[first]
		for k := range ts {
			if f[k] {
				prev = ts[k]
			} else {
				ts[k] = prev
			}
		}
	}
}

// refresh sends the halo's times again (one all-to-all), as the own
// columns hold them now.
func (v *view) refresh() {
	if v.g == nil || v.g.Err() != nil {
		return
	}
	rep := make([][]byte, len(v.served))
	for q := range v.served {
		b := make([]byte, 0, 8*v.served[q].len())
		v.served[q].each(func(_ int, loc int32, idx uint32) {
			b = binary.LittleEndian.AppendUint64(b, uint64(v.times[loc][idx]))
		})
		rep[q] = b
	}
	got := v.g.Alltoall("the times of the messages' other ends", rep)
	if got == nil {
		return
	}
	for q, b := range got {
		if len(b) != 8*v.asked[q].len() {
			v.g.Fail(fmt.Errorf("process %d sent %d bytes for %d times", q, len(b), v.asked[q].len()))
			return
		}
		v.asked[q].each(func(k int, loc int32, idx uint32) {
			v.times[loc][idx] = int64(binary.LittleEndian.Uint64(b[8*k:]))
		})
	}
}

// renumber renumbers g in place as the view sees it: the own locations'
// point-to-point references to other processes' locations, and the
// members elsewhere of the instances with an own member (member), into
// the halo; and gives each halo event that an own receive, or a counted
// instance, reaches its dependency.
func (v *view) renumber(g *replay.Graph, member []bool) {
	for li, deps := range g.Deps {
		if !v.own[li] {
			continue
		}
		for i := range deps {
			d := &deps[i]
			switch d.Role {
			case replay.RoleSend, replay.RoleRecv, replay.RoleSyncSend, replay.RoleSyncRecv:
				if v.own[d.Peer] {
					continue
				}
				d.Ref = v.pos(d.Peer, d.Ref)
				if d.Role.IsRecv() {
					role := replay.RoleSend
					if d.Role == replay.RoleSyncRecv {
						role = replay.RoleSyncSend
					}
					g.Deps[d.Peer] = append(g.Deps[d.Peer], replay.Dep{Idx: d.Ref, Role: role, Sync: d.Sync, Peer: int32(li), Ref: d.Idx})
				}
			}
		}
	}
	for ii, m := range member {
		if !m {
			continue
		}
		in := &g.Instances[ii]
		for k := in.First; k < in.First+in.N; k++ {
			p := &g.Parts[k]
			if v.own[p.Loc] {
				continue
			}
			rank := int32(k - in.First)
			for _, e := range [2]struct {
				idx  *uint32
				role replay.Role
			}{{&p.Send, replay.RoleCollSend}, {&p.Recv, replay.RoleCollRecv}} {
				if *e.idx != replay.NoEvent {
					*e.idx = v.pos(p.Loc, *e.idx)
					if v.counted[ii] {
						g.Deps[p.Loc] = append(g.Deps[p.Loc], replay.Dep{Idx: *e.idx, Role: e.role, Peer: rank, Ref: uint32(ii)})
					}
				}
			}
		}
	}
	for li, ds := range g.Deps {
		if !v.own[li] && len(ds) > 0 {
			slices.SortStableFunc(ds, func(a, b replay.Dep) int { return int(a.Idx) - int(b.Idx) })
			// Held for the run: no room beyond the list.
			g.Deps[li] = slices.Clone(ds)
		}
	}
}

// haloEvents returns the number of events of other processes' locations
// the view holds.
func (v *view) haloEvents() int64 {
	var n int64
	for li, ix := range v.idx {
		if !v.own[li] {
			n += int64(len(ix))
		}
	}
	return n
}
