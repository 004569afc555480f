package clockmodel

import (
	"math"

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
		ts := times[li]
		if len(c.T) == 0 {
			out[li] = ts
			return
		}
		u := cursor{c: c}
		nt := make([]int64, len(ts))
		prev := int64(math.MinInt64)
		for j, t := range ts {
			v := t + int64(math.RoundToEven(u.at(t)))
			if v < prev {
				v = prev
			}
			nt[j], prev = v, v
		}
		out[li] = nt
	})
	return out
}
