package clockmodel

import (
	"math"
	"slices"
	"sort"

	"github.com/clc-tools/clc/internal/par"
)

// Apply returns new time columns: every time of a location shifted by its
// domain's correction, rounded to the nearest tick, and kept
// non-decreasing within the location. Domains without a curve keep their
// times (the columns are shared, not copied).
func (m *Model) Apply(times [][]int64, dom *Domains, np int) [][]int64 {
	out := make([][]int64, len(times))
	par.ForEach(len(times), max(np, 1), func(li int) {
		c := m.curve(dom.Of[li])
		if len(c.T) == 0 {
			out[li] = times[li]
			return
		}
		out[li] = slices.Clone(times[li])
		m.shift(out[li], c, nil)
	})
	return out
}

// shift moves ts by the curve c in place, as Apply does; with u non-nil it
// records what it added to each time in u (see undo.keep).
func (m *Model) shift(ts []int64, c *Curve, u *undo) {
	cur := cursor{c: c}
	prev := int64(math.MinInt64)
	for j, t := range ts {
		v := t + int64(math.RoundToEven(cur.at(t)))
		if v < prev {
			v = prev
		}
		if u != nil {
			u.keep(ts, j, v-t)
		}
		ts[j], prev = v, v
	}
}

// undo is what restores a column that the model shifted in place: the
// difference of every time as an int32 when all of them fit (half the
// memory of a copy), else a copy of the original times.
type undo struct {
	delta []int32
	orig  []int64
}

// keep records that ts[j] is about to move by d (ts[j] still holds the
// original time).
func (u *undo) keep(ts []int64, j int, d int64) {
	if u.orig != nil {
		return
	}
	if int64(int32(d)) == d {
		u.delta[j] = int32(d)
		return
	}
	u.orig = make([]int64, len(ts))
	for k := range j {
		u.orig[k] = ts[k] - int64(u.delta[k])
	}
	copy(u.orig[j:], ts[j:])
	u.delta = nil
}

// original returns the times before the shift of the shifted column ts
// (a new slice, or the kept copy).
func (u *undo) original(ts []int64) []int64 {
	switch {
	case u.orig != nil:
		return u.orig
	case u.delta == nil:
		return ts
	}
	o := make([]int64, len(ts))
	for j, v := range ts {
		o[j] = v - int64(u.delta[j])
	}
	return o
}

// restore shifts ts back and forgets the shift.
func (u *undo) restore(ts []int64) {
	switch {
	case u.orig != nil:
		copy(ts, u.orig)
	case u.delta != nil:
		for j := range ts {
			ts[j] -= int64(u.delta[j])
		}
	}
	*u = undo{}
}

// applied is a model applied in place to every location, with what undoes
// it per location.
type applied struct {
	undo []undo
}

// applyInPlace shifts the columns of the locations whose domain has a
// curve, as Apply would, recording how to undo it.
func (m *Model) applyInPlace(times [][]int64, dom *Domains, np int) *applied {
	a := &applied{undo: make([]undo, len(times))}
	par.ForEach(len(times), max(np, 1), func(li int) {
		c := m.curve(dom.Of[li])
		if len(c.T) == 0 {
			return
		}
		u := &a.undo[li]
		u.delta = make([]int32, len(times[li]))
		m.shift(times[li], c, u)
	})
	return a
}

// restore undoes the shift of every location for which which(li) holds.
func (a *applied) restore(times [][]int64, np int, which func(li int) bool) {
	par.ForEach(len(times), max(np, 1), func(li int) {
		if which(li) {
			a.undo[li].restore(times[li])
		}
	})
}

// reapply moves every location of a domain d with a non-empty
// changed[d] from its correction by from (what a holds; nil: none) to its
// correction by to, which differ only at original times in changed[d]:
// only the events there move, and the ones after them that the order
// keeps in step. a records the new shifts. It returns per location the
// range [lo, hi) of the events it set (lo ≥ hi: none).
func (a *applied) reapply(times [][]int64, dom *Domains, to *Model, changed []span64, np int) [][2]int {
	moved := make([][2]int, len(times))
	par.ForEach(len(times), max(np, 1), func(li int) {
		d := dom.Of[li]
		sp := changed[d]
		if sp.lo > sp.hi {
			return
		}
		ts := times[li]
		u := &a.undo[li]
		if u.delta == nil && u.orig == nil {
			u.delta = make([]int32, len(ts)) // nothing applied: the shifts are 0
		}
		orig := func(j int) int64 {
			if u.orig != nil {
				return u.orig[j]
			}
			return ts[j] - int64(u.delta[j])
		}
		// Original times are non-decreasing (pre-synchronised), so are
		// the shifted ones.
		j := sort.Search(len(ts), func(j int) bool { return orig(j) >= sp.lo })
		prev := int64(math.MinInt64)
		if j > 0 {
			prev = ts[j-1]
		}
		cur := cursor{c: to.curve(d)}
		first := j
		for ; j < len(ts); j++ {
			o := orig(j)
			v := o + int64(math.RoundToEven(cur.at(o)))
			if v < prev {
				v = prev
			}
			if o > sp.hi && v == ts[j] {
				break // past the change and back in step
			}
			u.set(ts, j, o, v)
			prev = v
		}
		moved[li] = [2]int{first, j}
	})
	return moved
}

// set records that ts[j], whose original time is o, becomes v, and sets
// it.
func (u *undo) set(ts []int64, j int, o, v int64) {
	if u.orig == nil {
		if d := v - o; int64(int32(d)) == d {
			u.delta[j] = int32(d)
			ts[j] = v
			return
		}
		u.orig = make([]int64, len(ts))
		for k := range ts {
			u.orig[k] = ts[k] - int64(u.delta[k])
		}
		u.delta = nil
	}
	ts[j] = v
}
