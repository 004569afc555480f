package clc

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/replay"
)

// division is this process's share of a correction divided among the
// processes of a group (Options.Comm); nil: one process, which owns
// every location.
type division struct {
	c    comm.Comm
	part []int32
	me   int32
}

// newDivision returns the division that c and part say, or nil for one
// process.
func newDivision(c comm.Comm, part []int32, n int) (*division, error) {
	if c == nil || c.Size() < 2 {
		return nil, nil
	}
	if len(part) != n {
		return nil, fmt.Errorf("clc: %d locations' processes for %d locations", len(part), n)
	}
	return &division{c: c, part: part, me: int32(c.Rank())}, nil
}

// owns reports whether location li is this process's.
func (d *division) owns(li int) bool { return d == nil || d.part[li] == d.me }

// member reports whether instance in has a member among the own locations
// (every instance for one process): only those instances' receive times
// are known here after the forward pass.
func (d *division) member(g *replay.Graph, in uint32) bool {
	if d == nil {
		return true
	}
	for _, p := range g.InstanceParts(in) {
		if d.owns(int(p.Loc)) {
			return true
		}
	}
	return false
}

// errElsewhere is what a process returns whose correction stopped
// because another's failed (it wraps comm.ErrElsewhere).
var errElsewhere = fmt.Errorf("clc: the correction: %w", comm.ErrElsewhere)

// agree returns err, or errElsewhere when another process failed
// (comm.Group.Agree, one allreduce): a failure of one process's own
// locations stops every process at the same point.
func (d *division) agree(ctx context.Context, err error) error {
	if d == nil {
		return err
	}
	switch aerr := comm.NewGroup(ctx, d.c).Agree("clc", err); {
	case err != nil || aerr == nil:
		return err
	case errors.Is(aerr, comm.ErrElsewhere):
		return errElsewhere
	default:
		return aerr
	}
}

// sumPass makes ps every process's: the jumps summed, the largest shift.
func (d *division) sumPass(ctx context.Context, ps *Pass) error {
	if d == nil {
		return nil
	}
	sums, err := d.c.AllreduceInt64(ctx, comm.Sum, []int64{ps.Jumps, ps.SharedJumps})
	if err != nil {
		return fmt.Errorf("clc: the pass's jumps: %w", err)
	}
	most, err := d.c.AllreduceInt64(ctx, comm.Max, []int64{ps.MaxShift})
	if err != nil {
		return fmt.Errorf("clc: the pass's largest shift: %w", err)
	}
	ps.Jumps, ps.SharedJumps, ps.MaxShift = sums[0], sums[1], most[0]
	return nil
}

// dropped adds to into the dependencies every location dropped (outs:
// this process's), in the order of the locations.
func (d *division) dropped(ctx context.Context, outs []locForward, into *replay.Issues) error {
	if d == nil {
		for i := range outs {
			for _, x := range outs[i].dropped {
				into.Add(x)
			}
		}
		return nil
	}
	var mine [][]replay.Issue // per own location, in order
	var locs []int32
	for li := range outs {
		if d.owns(li) && len(outs[li].dropped) > 0 {
			locs = append(locs, int32(li))
			mine = append(mine, outs[li].dropped)
		}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(struct {
		Locs    []int32
		Dropped [][]replay.Issue
	}{locs, mine}); err != nil {
		return fmt.Errorf("clc: dropped dependencies: %w", err)
	}
	all, err := d.c.Allgather(ctx, buf.Bytes())
	if err != nil {
		return fmt.Errorf("clc: dropped dependencies: %w", err)
	}
	byLoc := make([][]replay.Issue, len(outs))
	for q, b := range all {
		var got struct {
			Locs    []int32
			Dropped [][]replay.Issue
		}
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&got); err != nil || len(got.Locs) != len(got.Dropped) {
			return fmt.Errorf("clc: process %d's dropped dependencies: %v", q, err)
		}
		for k, li := range got.Locs {
			if li < 0 || int(li) >= len(outs) || d.part[li] != int32(q) {
				return fmt.Errorf("clc: process %d sent location %d's dropped dependencies", q, li)
			}
			byLoc[li] = got.Dropped[k]
		}
	}
	for _, ds := range byLoc {
		for _, x := range ds {
			into.Add(x)
		}
	}
	return nil
}
