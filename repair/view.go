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
// message (the clock model, the clock condition): the columns of its own
// locations whole (the correction's own slices), and of every other
// location only the events that its own locations' receives, the
// collective instances it counts (those whose first member is its own)
// and the given extra events reach — the halo, fetched from their
// processes. Its graph holds the own locations' dependencies and the
// instances it counts, renumbered into the view's columns; a halo event
// lists, as a send, the own receive it reaches, so that a change of its
// time recounts that receive (measure.ClockCondition.Recount).
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
	// inst maps the view's instances to the graph's.
	inst []uint32
	// served lists, per process, the own events it fetched, in the order
	// it asked (refresh sends their times again).
	served [][]locEvent
	// asked lists, per process, the halo positions its reply fills, in
	// the order of the reply.
	asked [][]locEvent
}

// locEvent is an event of a location: its index, or its position in a
// halo column.
type locEvent struct {
	loc int32
	idx uint32
}

// newView builds this process's view of times (the own locations'
// columns; the others are not read) and g (replay.Matcher.FinishDivided's:
// the own locations' dependencies, every instance), fetching the halo's
// times from their processes (two all-to-alls); extra lists further
// events of other locations to fetch. With one process (gr nil) it
// returns the trace itself.
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
	// The instances counted here: those whose first member is own.
	viewInst := make([]int32, len(g.Instances))
	for ii := range g.Instances {
		viewInst[ii] = -1
		ps := g.InstanceParts(uint32(ii))
		if len(ps) > 0 && own[ps[0].Loc] || len(ps) == 0 && me == 0 {
			viewInst[ii] = int32(len(v.inst))
			v.inst = append(v.inst, uint32(ii))
		}
	}
	// The halo's events.
	want := make([][]uint32, n)
	for li, deps := range g.Deps {
		if !own[li] {
			continue
		}
		for _, d := range deps {
			if d.Role.IsRecv() && d.Role != replay.RoleCollRecv && !own[d.Peer] {
				want[d.Peer] = append(want[d.Peer], d.Ref)
			}
		}
	}
	for _, ii := range v.inst {
		for _, p := range g.InstanceParts(ii) {
			if own[p.Loc] {
				continue
			}
			for _, e := range [2]uint32{p.Send, p.Recv} {
				if e != replay.NoEvent {
					want[p.Loc] = append(want[p.Loc], e)
				}
			}
		}
	}
	for _, e := range extra {
		if !own[e.loc] {
			want[e.loc] = append(want[e.loc], e.idx)
		}
	}
	for li := range want {
		slices.Sort(want[li])
		want[li] = slices.Compact(want[li])
	}
	v.idx = want
	v.fetch(part)
	v.graph = v.renumber(g, viewInst)
	return v
}

// pos returns the position of event idx of location loc in its view
// column.
func (v *view) pos(loc int32, idx uint32) uint32 {
	if v.own[loc] {
		return idx
	}
	k, _ := slices.BinarySearch(v.idx[loc], idx)
	return uint32(k)
}

// fetch asks every process for the halo's events of its locations and
// fills the halo columns with their times.
func (v *view) fetch(part []int32) {
	p := v.g.Size()
	v.asked = make([][]locEvent, p)
	req := make([][]byte, p)
	halo := make([][]int64, len(v.times))
	copy(halo, v.times)
	for li, ix := range v.idx {
		if len(ix) == 0 || v.own[li] {
			continue
		}
		q := part[li]
		halo[li] = make([]int64, len(ix))
		for k, e := range ix {
			req[q] = binary.LittleEndian.AppendUint32(req[q], uint32(li))
			req[q] = binary.LittleEndian.AppendUint32(req[q], e)
			v.asked[q] = append(v.asked[q], locEvent{int32(li), uint32(k)})
		}
	}
	v.times = halo
	got := v.g.Alltoall("fetching the times of the messages' other ends", req)
	if got == nil {
		return
	}
	v.served = make([][]locEvent, p)
	for q, b := range got {
		for ; len(b) >= 8; b = b[8:] {
			li, e := int32(binary.LittleEndian.Uint32(b)), binary.LittleEndian.Uint32(b[4:])
			if int(li) >= len(v.own) || !v.own[li] || int(e) >= len(v.times[li]) {
				v.g.Fail(fmt.Errorf("process %d asked for event %d of location %d, which is not this process's", q, e, li))
				return
			}
			v.served[q] = append(v.served[q], locEvent{li, e})
		}
	}
	v.refresh()
}

// refresh sends the halo's times again (one all-to-all), as the own
// columns hold them now.
func (v *view) refresh() {
	if v.g == nil || v.g.Err() != nil {
		return
	}
	rep := make([][]byte, len(v.served))
	for q, evs := range v.served {
		b := make([]byte, 0, 8*len(evs))
		for _, e := range evs {
			b = binary.LittleEndian.AppendUint64(b, uint64(v.times[e.loc][e.idx]))
		}
		rep[q] = b
	}
	got := v.g.Alltoall("the times of the messages' other ends", rep)
	if got == nil {
		return
	}
	for q, b := range got {
		if len(b) != 8*len(v.asked[q]) {
			v.g.Fail(fmt.Errorf("process %d sent %d bytes for %d times", q, len(b), len(v.asked[q])))
			return
		}
		for k, e := range v.asked[q] {
			v.times[e.loc][e.idx] = int64(binary.LittleEndian.Uint64(b[8*k:]))
		}
	}
}

// renumber returns g as the view sees it: the own locations' dependencies
// with their references to halo events and to the instances counted here
// renumbered (those to other instances left out), the halo events'
// dependencies, and the instances counted here.
func (v *view) renumber(g *replay.Graph, viewInst []int32) *replay.Graph {
	out := *g
	out.Deps = make([][]replay.Dep, len(g.Deps))
	out.Instances = make([]replay.Instance, 0, len(v.inst))
	out.Parts = nil
	for li, deps := range g.Deps {
		if !v.own[li] {
			continue
		}
		var ds []replay.Dep
		for _, d := range deps {
			switch d.Role {
			case replay.RoleCollSend, replay.RoleCollRecv:
				vi := viewInst[d.Ref]
				if vi < 0 {
					continue
				}
				d.Ref = uint32(vi)
			case replay.RoleRecv, replay.RoleSyncRecv:
				if !v.own[d.Peer] {
					role := replay.RoleSend
					if d.Role == replay.RoleSyncRecv {
						role = replay.RoleSyncSend
					}
					at := v.pos(d.Peer, d.Ref)
					out.Deps[d.Peer] = append(out.Deps[d.Peer], replay.Dep{Idx: at, Role: role, Sync: d.Sync, Peer: int32(li), Ref: d.Idx})
					d.Ref = at
				}
			}
			ds = append(ds, d)
		}
		out.Deps[li] = ds
	}
	for vi, ii := range v.inst {
		in := g.Instances[ii]
		in.First = uint32(len(out.Parts))
		for rank, p := range g.InstanceParts(ii) {
			if !v.own[p.Loc] {
				for _, e := range [2]struct {
					idx  *uint32
					role replay.Role
				}{{&p.Send, replay.RoleCollSend}, {&p.Recv, replay.RoleCollRecv}} {
					if *e.idx != replay.NoEvent {
						*e.idx = v.pos(p.Loc, *e.idx)
						out.Deps[p.Loc] = append(out.Deps[p.Loc], replay.Dep{Idx: *e.idx, Role: e.role, Peer: int32(rank), Ref: uint32(vi)})
					}
				}
			}
			out.Parts = append(out.Parts, p)
		}
		out.Instances = append(out.Instances, in)
	}
	for li, ds := range out.Deps {
		if !v.own[li] {
			slices.SortStableFunc(ds, func(a, b replay.Dep) int { return int(a.Idx) - int(b.Idx) })
		}
	}
	return &out
}

// clcView is what the divided CLC (clc.Options.Pos) works on: the own
// columns (the correction's own slices), and of every other location a
// column of the events that this process's messages reach (the senders of
// its receives, the receivers of its sends) and every member's events of
// the instances with an own member, which the CLC's exchange fills; the
// graph refers to those by position.
type clcView struct {
	times [][]int64
	graph *replay.Graph
	idx   [][]uint32
}

// newCLCView builds this process's clcView of times and g
// (replay.Matcher.FinishDivided's) for the own locations own.
func newCLCView(own []bool, times [][]int64, g *replay.Graph) *clcView {
	n := len(times)
	want := make([][]uint32, n)
	member := make([]bool, len(g.Instances))
	for ii := range g.Instances {
		for _, p := range g.InstanceParts(uint32(ii)) {
			if own[p.Loc] {
				member[ii] = true
				break
			}
		}
	}
	for li, deps := range g.Deps {
		if !own[li] {
			continue
		}
		for _, d := range deps {
			switch d.Role {
			case replay.RoleSend, replay.RoleRecv, replay.RoleSyncSend, replay.RoleSyncRecv:
				if !own[d.Peer] {
					want[d.Peer] = append(want[d.Peer], d.Ref)
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
				if e != replay.NoEvent {
					want[p.Loc] = append(want[p.Loc], e)
				}
			}
		}
	}
	v := &clcView{times: make([][]int64, n), idx: want}
	for li := range want {
		if own[li] {
			v.times[li] = times[li]
			continue
		}
		slices.Sort(want[li])
		want[li] = slices.Compact(want[li])
		if len(want[li]) > 0 {
			v.times[li] = make([]int64, len(want[li]))
		}
	}
	at := func(loc int32, idx uint32) uint32 {
		k, _ := slices.BinarySearch(want[loc], idx)
		return uint32(k)
	}
	out := *g
	out.Deps = make([][]replay.Dep, n)
	for li, deps := range g.Deps {
		if !own[li] {
			continue
		}
		ds := slices.Clone(deps)
		for i := range ds {
			switch d := &ds[i]; d.Role {
			case replay.RoleSend, replay.RoleRecv, replay.RoleSyncSend, replay.RoleSyncRecv:
				if !own[d.Peer] {
					d.Ref = at(d.Peer, d.Ref)
				}
			}
		}
		out.Deps[li] = ds
	}
	out.Parts = slices.Clone(g.Parts)
	for ii, m := range member {
		if !m {
			continue
		}
		in := &g.Instances[ii]
		for k := in.First; k < in.First+in.N; k++ {
			p := &out.Parts[k]
			if own[p.Loc] {
				continue
			}
			if p.Send != replay.NoEvent {
				p.Send = at(p.Loc, p.Send)
			}
			if p.Recv != replay.NoEvent {
				p.Recv = at(p.Loc, p.Recv)
			}
		}
	}
	v.graph = &out
	return v
}

// pos returns the position of event idx of another process's location
// loc in its column, false if the column does not hold it.
func (v *clcView) pos(loc int32, idx uint32) (uint32, bool) {
	k, ok := slices.BinarySearch(v.idx[loc], idx)
	return uint32(k), ok
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
