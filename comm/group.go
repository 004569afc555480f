package comm

import (
	"context"
	"errors"
	"fmt"
)

// Group runs the collective operations of a computation that is divided
// among the processes of a Comm but written as one pass over a whole
// trace (the clock model, the measures): each operation completes this
// process's share into the whole, and the first error is kept. After an
// error every operation leaves its input as it is, so the computation runs
// on to its end, and its caller returns Err. A nil *Group is one process:
// every operation leaves its input as it is.
//
// Every process of the Comm must make the same operations in the same
// order, as with Comm itself; an operation that fails on one process fails
// on all (the Comm's abort), so that none waits for good.
type Group struct {
	c   Comm
	ctx context.Context
	err error
}

// NewGroup returns the group of c's processes, whose operations take ctx;
// nil when c is nil or of one process.
func NewGroup(ctx context.Context, c Comm) *Group {
	if c == nil || c.Size() < 2 {
		return nil
	}
	return &Group{c: c, ctx: ctx}
}

// Err returns the first operation's error, nil if none failed.
func (g *Group) Err() error {
	if g == nil {
		return nil
	}
	return g.err
}

// Rank is this process's number (0 for nil).
func (g *Group) Rank() int {
	if g == nil {
		return 0
	}
	return g.c.Rank()
}

// ok reports whether an operation is to run: more than one process and no
// error yet.
func (g *Group) ok() bool { return g != nil && g.err == nil }

// Fail keeps err as the group's error on this process (if it has none),
// for a failure of the computation itself; the operations after it do
// nothing here.
func (g *Group) Fail(err error) {
	if g != nil && g.err == nil {
		g.err = err
	}
}

func (g *Group) fail(what string, err error) {
	if g.err == nil {
		g.err = fmt.Errorf("%s: %w", what, err)
	}
}

// Int64 replaces v by its element-wise reduction over the processes.
func (g *Group) Int64(what string, op Op, v []int64) {
	if !g.ok() || len(v) == 0 {
		return
	}
	r, err := g.c.AllreduceInt64(g.ctx, op, v)
	if err != nil {
		g.fail(what, err)
		return
	}
	copy(v, r)
}

// Allgather returns every process's data in rank order; for nil, or
// after an error, data alone.
func (g *Group) Allgather(what string, data []byte) [][]byte {
	if !g.ok() {
		return [][]byte{data}
	}
	all, err := g.c.Allgather(g.ctx, data)
	if err != nil {
		g.fail(what, err)
		return [][]byte{data}
	}
	return all
}

// Alltoall sends send[i] to process i and returns what each process sent
// this one; for nil, or after an error, nil.
func (g *Group) Alltoall(what string, send [][]byte) [][]byte {
	if !g.ok() {
		return nil
	}
	recv, err := g.c.Alltoall(g.ctx, send)
	if err != nil {
		g.fail(what, err)
		return nil
	}
	return recv
}

// Size is the number of processes (1 for nil).
func (g *Group) Size() int {
	if g == nil {
		return 1
	}
	return g.c.Size()
}

// ErrElsewhere is what Agree returns on a process whose own part went well
// when another's failed.
var ErrElsewhere = errors.New("another process failed")

// Agree returns err on the process that had it and, on every other, an
// error wrapping ErrElsewhere when any process had one (one allreduce):
// a stage that fails on one process so ends on all at the same point.
// With the group's own error kept, it returns that.
func (g *Group) Agree(what string, err error) error {
	if g == nil {
		return err
	}
	if g.err != nil {
		return g.err
	}
	failed := []int64{0}
	if err != nil {
		failed[0] = 1
	}
	g.Int64(what, Max, failed)
	switch {
	case err != nil:
		return err
	case g.err != nil:
		return g.err
	case failed[0] > 0:
		return fmt.Errorf("%s: %w", what, ErrElsewhere)
	}
	return nil
}
