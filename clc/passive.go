package clc

import (
	"context"
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
// are recorded too. sorted says, per location, whether its original times
// never decrease.
func followProcesses(ctx context.Context, in Input, res *Result, sorted []bool, np int, own func(li int) bool) {
	if in.Follow == nil {
		return
	}
	// The followers of each leader: its original times are made once.
	var leaders []int32
	followers := map[int32][]int{}
	for li, m := range in.Follow {
		if m < 0 || !own(li) {
			continue
		}
		if _, ok := followers[m]; !ok {
			leaders = append(leaders, m)
		}
		followers[m] = append(followers[m], li)
	}
	par.ForEach(len(leaders), np, func(k int) {
		m := leaders[k]
		mc := res.Moved[m].Original(in.Times[m])
		keys := leaderKeys(mc, sorted[m])
		fs := followers[m]
		par.ForEach(len(fs), np, func(f int) {
			if ctx.Err() != nil {
				return // the caller returns the context's error
			}
			li := fs[f]
			t, moved := in.Times[li], &res.Moved[li]
			moved.restore(t)
			followLeader(mc, keys, in.Times[m], t, moved)
		})
	})
}

// leaderKeys returns the leader's original times mc as a non-decreasing
// sequence: mc itself when sorted (it never decreases), else its running
// maximum (inputs whose times decrease are searched by it).
func leaderKeys(mc []int64, sorted bool) []int64 {
	if sorted {
		return mc
	}
	keys := make([]int64, len(mc))
	for i, v := range mc {
		keys[i] = v
		if i > 0 {
			keys[i] = max(v, keys[i-1])
		}
	}
	return keys
}

// followLeader corrects t (a following location's original times) in
// place, recording the changes in moved, from the leader's original times
// mc (keys: leaderKeys of them) and corrected times mlc.
func followLeader(mc, keys, mlc, t []int64, moved *Moved) {
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
