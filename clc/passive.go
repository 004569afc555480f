package clc

import (
	"sort"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Leader returns, for every location of t, the location whose correction
// it follows, or −1: a passive location (an accelerator or metric stream,
// trace.LocationKind.Passive) without happened-before relations of its own
// follows the first location of its process that is not passive — the
// master thread — so that it stays consistent with its process's clock
// (docs/algorithm.md). Every other location is −1.
func Leader(t *trace.Trace, g *replay.Graph) []int32 {
	out := make([]int32, len(t.Locations))
	first := map[int32]int32{}
	for li := len(t.Locations) - 1; li >= 0; li-- {
		out[li] = -1
		if !t.Locations[li].Kind.Passive() {
			first[t.ProcessOf(li)] = int32(li)
		}
	}
	for li, l := range t.Locations {
		if !l.Kind.Passive() || len(g.Deps[li]) > 0 {
			continue
		}
		if m, ok := first[t.ProcessOf(li)]; ok {
			out[li] = m
		}
	}
	return out
}

// followProcesses gives every location that follows another (Input.Follow)
// its leader's correction: an event at original time c moves by the shift
// (corrected − original) of the leader's last event at or before c (0
// before its first), and times never decrease. The corrected times are in
// in.Times, the originals recoverable from res.Moved, where the changes
// are recorded too.
func followProcesses(in Input, res *Result, np int) {
	if in.Follow == nil {
		return
	}
	par.ForEach(len(in.Follow), np, func(li int) {
		m := in.Follow[li]
		if m < 0 {
			return
		}
		mc := res.Moved[m].Original(in.Times[m])
		t, moved := in.Times[li], &res.Moved[li]
		moved.restore(t)
		followLeader(mc, in.Times[m], t, moved)
	})
}

// followLeader corrects t (a following location's original times) in
// place, recording the changes in moved, from the leader's original times
// mc and corrected times mlc.
func followLeader(mc, mlc, t []int64, moved *Moved) {
	// The leader's original times as a non-decreasing sequence (inputs
	// whose times decrease are searched by their running maximum).
	keys := mc
	if !sort.SliceIsSorted(mc, func(a, b int) bool { return mc[a] < mc[b] }) {
		keys = make([]int64, len(mc))
		for i, v := range mc {
			keys[i] = v
			if i > 0 {
				keys[i] = max(v, keys[i-1])
			}
		}
	}
	prev := int64(0)
	for j, v := range t {
		k := sort.Search(len(keys), func(i int) bool { return keys[i] > v }) - 1
		nv := v
		if k >= 0 {
			nv = v + mlc[k] - mc[k]
		}
		if j > 0 && nv < prev {
			nv = prev
		}
		if nv != v {
			moved.add(j, v, t)
			t[j] = nv
		}
		prev = nv
	}
}
