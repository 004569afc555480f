package repair

import (
	"context"
	"math"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/measure"
)

// share is this process's share of a correction divided among the
// processes of a group (Correction.Comm, Trace.Part): it holds the own
// locations' times (the others' columns are not read), every stage works
// on those, and what a stage needs of the others comes through the group
// (g): the halo of the clock model and the clock condition (view), the
// counts summed, the per-location sums gathered and combined in the
// locations' order, so that every process's report is the one process's,
// bit for bit. For one process, g and own are nil.
type share struct {
	c    comm.Comm
	part []int32
	g    *comm.Group
	own  []bool
}

// newShare returns the share of this process of c (nil or one process: all).
func newShare(ctx context.Context, c comm.Comm, part []int32) *share {
	sh := &share{c: c, part: part, g: comm.NewGroup(ctx, c)}
	if sh.g != nil {
		sh.own = make([]bool, len(part))
		for li, p := range part {
			sh.own[li] = int(p) == c.Rank()
		}
	}
	return sh
}

// owns reports whether location li is this process's.
func (sh *share) owns(li int) bool { return sh.own == nil || sh.own[li] }

// eventCounts returns every location's number of events.
func (sh *share) eventCounts(times [][]int64) []int64 {
	n := make([]int64, len(times))
	for li, ts := range times {
		if sh.owns(li) {
			n[li] = int64(len(ts))
		}
	}
	sh.g.Int64("the locations' events", comm.Sum, n)
	return n
}

// any reports whether b holds on any process.
func (sh *share) any(b bool) bool {
	v := []int64{0}
	if b {
		v[0] = 1
	}
	sh.g.Int64("whether anything moved", comm.Max, v)
	return v[0] > 0
}

// gatherShifts completes moves with every process's locations'.
func (sh *share) gatherShifts(what string, moves []shiftStats) {
	measure.GatherRows(sh.g, what, sh.own, moves, 5,
		func(s *shiftStats, w []uint64) {
			w[0], w[1], w[2], w[3], w[4] = uint64(s.moved), math.Float64bits(s.sum), math.Float64bits(s.abs), uint64(s.maxShift), uint64(s.maxEarlier)
		},
		func(w []uint64, s *shiftStats) {
			*s = shiftStats{moved: int64(w[0]), sum: math.Float64frombits(w[1]), abs: math.Float64frombits(w[2]), maxShift: int64(w[3]), maxEarlier: int64(w[4])}
		})
}
