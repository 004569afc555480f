package clockmodel

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/clc-tools/clc/comm"
)

// Division is a process's share of a trace whose correction is divided
// among the processes of a group (Options.Division). The times and the
// graph Run takes are then this process's view: the columns of its own
// locations whole, and of every other location only the events that its
// own locations' messages, the instances it counts and the anchors reach
// (the "halo"), with the graph's references renumbered into those columns.
// Every bound, violation and count is made where its message is received
// (a collective instance by the process that counts it), and the processes
// complete them into the whole trace's through Group: the bounds gathered
// in the single run's order, the counts summed, so that every process
// estimates the same model, bit for bit, as one process would.
type Division struct {
	Group *comm.Group
	// Own says which locations are this process's.
	Own []bool
	// Events is every location's number of events.
	Events []int64
	// Counted marks the collective instances this process counts (every
	// instance is counted by one process).
	Counted []bool
}

// counts reports whether this process counts instance ii (always, for
// one process).
func (dv *Division) counts(ii int) bool { return dv == nil || dv.Counted[ii] }

// counted returns the instances this process counts, for
// measure.ClockCondition (nil: every one).
func (dv *Division) counted() []bool {
	if dv == nil {
		return nil
	}
	return dv.Counted
}

// own reports whether location li's column is whole here (always, for one
// process).
func (dv *Division) own(li int) bool { return dv == nil || dv.Own[li] }

// eventsOf returns location li's number of events (its column's length
// for one process).
func (dv *Division) eventsOf(li int, times [][]int64) int64 {
	if dv == nil {
		return int64(len(times[li]))
	}
	return dv.Events[li]
}

// gatherKeyed returns the items of lists (this process's, by key; n keys)
// of every process: flat holds them by key, in rank order within a key,
// key k's at flat[off[k]:off[k+1]]; one allgather, each item size bytes
// (put appends it, get reads it). It empties lists once they are sent. A
// process's part that does not decode fails the group.
func gatherKeyed[T any](g *comm.Group, what string, lists [][]T, n, size int, put func([]byte, *T) []byte, get func([]byte) T) (flat []T, off []int) {
	var buf []byte
	for k := range lists {
		if len(lists[k]) == 0 {
			continue
		}
		buf = binary.LittleEndian.AppendUint32(buf, uint32(k))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(lists[k])))
		for i := range lists[k] {
			buf = put(buf, &lists[k][i])
		}
	}
	clear(lists)
	all := g.Allgather(what, buf)
	buf = nil
	off = make([]int, n+1)
	if g.Err() != nil {
		return nil, off
	}
	// Each part's runs, counted per key first, so that flat is allocated
	// once and filled in place.
	for q, b := range all {
		for len(b) > 0 {
			if len(b) < 8 {
				g.Fail(fmt.Errorf("%s: process %d sent a cut record", what, q))
				return nil, make([]int, n+1)
			}
			k, m := int(binary.LittleEndian.Uint32(b)), int(binary.LittleEndian.Uint32(b[4:]))
			b = b[8:]
			if k >= n || len(b) < m*size {
				g.Fail(fmt.Errorf("%s: process %d sent %d items of key %d of %d in %d bytes", what, q, m, k, n, len(b)))
				return nil, make([]int, n+1)
			}
			off[k+1] += m
			b = b[m*size:]
		}
	}
	for k := range n {
		off[k+1] += off[k]
	}
	flat = make([]T, off[n])
	next := slices.Clone(off[:n])
	for q, b := range all {
		for len(b) > 0 {
			k, m := int(binary.LittleEndian.Uint32(b)), int(binary.LittleEndian.Uint32(b[4:]))
			b = b[8:]
			for range m {
				flat[next[k]] = get(b)
				next[k]++
				b = b[size:]
			}
		}
		all[q] = nil
	}
	return flat, off
}

// gatherRecs completes parts, this process's bounds by key (a location,
// or an instance), into every process's, in the order of the whole
// trace's keys (n of them; each key's bounds are one process's): the
// single run's order. It empties parts.
func (dv *Division) gatherRecs(what string, parts [][]rec, n int) []rec {
	if dv == nil {
		out := concat(parts)
		clear(parts)
		return out
	}
	flat, _ := gatherKeyed(dv.Group, what, parts, n, 24,
		func(b []byte, r *rec) []byte {
			b = binary.LittleEndian.AppendUint32(b, uint32(r.a))
			b = binary.LittleEndian.AppendUint32(b, uint32(r.b))
			b = binary.LittleEndian.AppendUint64(b, uint64(r.t))
			return binary.LittleEndian.AppendUint64(b, uint64(r.d))
		},
		func(b []byte) rec {
			return rec{a: int32(binary.LittleEndian.Uint32(b)), b: int32(binary.LittleEndian.Uint32(b[4:])),
				t: int64(binary.LittleEndian.Uint64(b[8:])), d: int64(binary.LittleEndian.Uint64(b[16:]))}
		})
	return flat
}

// span returns the earliest and the latest time of the own columns over
// every process (0, 0 without events).
func (dv *Division) span(times [][]int64) (lo, hi int64) {
	lo, hi = math.MaxInt64, math.MinInt64
	for li, ts := range times {
		if len(ts) == 0 || !dv.own(li) {
			continue
		}
		lo, hi = min(lo, ts[0]), max(hi, ts[len(ts)-1])
	}
	if dv != nil {
		v := []int64{lo, math.MaxInt64} // −hi, where there is one
		if lo <= hi {
			v[1] = -hi
		}
		dv.Group.Int64("the trace's span", comm.Min, v)
		lo, hi = v[0], -v[1]
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// gatherProofs completes every domain's proofs with every process's, in
// rank order (the caller sorts them).
func (dv *Division) gatherProofs(at []proofs) {
	if dv == nil || at == nil {
		return
	}
	type proof struct{ t, v int64 }
	mine := make([][]proof, len(at))
	for d := range at {
		for i := range at[d].T {
			mine[d] = append(mine[d], proof{at[d].T[i], at[d].V[i]})
		}
	}
	flat, off := gatherKeyed(dv.Group, "the violations between clock domains", mine, len(at), 16,
		func(b []byte, p *proof) []byte {
			return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(b, uint64(p.t)), uint64(p.v))
		},
		func(b []byte) proof {
			return proof{int64(binary.LittleEndian.Uint64(b)), int64(binary.LittleEndian.Uint64(b[8:]))}
		})
	if dv.Group.Err() != nil {
		return
	}
	for d := range at {
		at[d] = proofs{}
		for _, p := range flat[off[d]:off[d+1]] {
			at[d].T = append(at[d].T, p.t)
			at[d].V = append(at[d].V, p.v)
		}
	}
}

// anchorBytes is the size of one encoded anchor.
const anchorBytes = 4 + 4 + 4 + 8*4 + 8

// GatherAnchors completes the anchors, which CaptureTimes found in this
// process's own columns (the others empty), with every process's, in the
// order of their locations (as one process finds them).
func (in *Input) GatherAnchors(g *comm.Group) {
	if g == nil {
		return
	}
	var buf []byte
	for _, a := range in.anchors {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(a.loc))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(a.i0))
		buf = binary.LittleEndian.AppendUint32(buf, uint32(a.i1))
		for _, v := range []int64{a.raw0, a.raw1, a.tk, a.off} {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(a.sigma))
	}
	all := g.Allgather("the clock-offset measurements", buf)
	if g.Err() != nil {
		return
	}
	var as []anchor
	for _, b := range all {
		for ; len(b) >= anchorBytes; b = b[anchorBytes:] {
			u := func(o int) int64 { return int64(binary.LittleEndian.Uint64(b[o:])) }
			as = append(as, anchor{loc: int32(binary.LittleEndian.Uint32(b)), i0: int32(binary.LittleEndian.Uint32(b[4:])),
				i1: int32(binary.LittleEndian.Uint32(b[8:])), raw0: u(12), raw1: u(20), tk: u(28), off: u(36),
				sigma: math.Float64frombits(uint64(u(44)))})
		}
	}
	// Stable: a location's anchors keep their order.
	slices.SortStableFunc(as, func(x, y anchor) int { return int(x.loc) - int(y.loc) })
	in.anchors = as
}

// AnchorEvents calls f with the location and event index of every event
// an anchor of a location that is not own reads.
func (in *Input) AnchorEvents(own []bool, f func(loc int32, idx uint32)) {
	for _, a := range in.anchors {
		if !own[a.loc] {
			f(a.loc, uint32(a.i0))
			f(a.loc, uint32(a.i1))
		}
	}
}

// RemapAnchors renumbers the events that the anchors of locations that are
// not own read into the view's columns: pos returns an event's index there.
func (in *Input) RemapAnchors(own []bool, pos func(loc int32, idx uint32) uint32) {
	for i := range in.anchors {
		a := &in.anchors[i]
		if !own[a.loc] {
			a.i0, a.i1 = int32(pos(a.loc, uint32(a.i0))), int32(pos(a.loc, uint32(a.i1)))
		}
	}
}
