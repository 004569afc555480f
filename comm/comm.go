// Package comm is how the processes of one clc-correct run talk to each
// other: the Comm interface that every distributed stage takes, its
// one-process implementation (Single) and an in-process group of P
// processes for tests (Local). The cluster's MPI implements it in package
// comm/mpi.
//
// Every operation is collective: all processes of the group call it, in the
// same order, with arguments of the same shape. A Comm is not safe for
// concurrent use by several goroutines of one process.
package comm

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Op is a reduction of Allreduce.
type Op int

// The reductions.
const (
	Sum Op = iota
	Max
	Min
)

// Comm is a group of processes.
type Comm interface {
	// Rank is this process's number, 0 ≤ Rank < Size.
	Rank() int
	// Size is the number of processes.
	Size() int
	// Alltoall sends send[i] to process i (len(send) == Size()) and returns
	// what every process sent this one: recv[i] came from process i.
	Alltoall(ctx context.Context, send [][]byte) ([][]byte, error)
	// Allgather returns every process's data, in rank order.
	Allgather(ctx context.Context, data []byte) ([][]byte, error)
	// Bcast returns root's data on every process (data is ignored elsewhere).
	Bcast(ctx context.Context, root int, data []byte) ([]byte, error)
	// AllreduceInt64 returns the element-wise reduction of every process's v.
	AllreduceInt64(ctx context.Context, op Op, v []int64) ([]int64, error)
	// AllreduceFloat64 returns the element-wise reduction of every
	// process's v; a Sum adds the processes' values in rank order, so every
	// process gets the same bits.
	AllreduceFloat64(ctx context.Context, op Op, v []float64) ([]float64, error)
	// Barrier returns when every process has called it.
	Barrier(ctx context.Context) error
	// Abort ends every process of the group, with msg as the reason,
	// after a failure of this one. It returns only if it could not.
	Abort(code int, msg string) error
	// Close ends this process's part of the group.
	Close() error
}

// Single is the group of one process: every operation returns its input.
type Single struct{}

// Rank is 0.
func (Single) Rank() int { return 0 }

// Size is 1.
func (Single) Size() int { return 1 }

// Alltoall returns send.
func (Single) Alltoall(ctx context.Context, send [][]byte) ([][]byte, error) {
	if len(send) != 1 {
		return nil, fmt.Errorf("comm: alltoall of %d parts in a group of 1", len(send))
	}
	return [][]byte{send[0]}, ctx.Err()
}

// Allgather returns data alone.
func (Single) Allgather(ctx context.Context, data []byte) ([][]byte, error) {
	return [][]byte{data}, ctx.Err()
}

// Bcast returns data.
func (Single) Bcast(ctx context.Context, root int, data []byte) ([]byte, error) {
	if root != 0 {
		return nil, fmt.Errorf("comm: broadcast from %d in a group of 1", root)
	}
	return data, ctx.Err()
}

// AllreduceInt64 returns a copy of v.
func (Single) AllreduceInt64(ctx context.Context, op Op, v []int64) ([]int64, error) {
	return append([]int64(nil), v...), ctx.Err()
}

// AllreduceFloat64 returns a copy of v.
func (Single) AllreduceFloat64(ctx context.Context, op Op, v []float64) ([]float64, error) {
	return append([]float64(nil), v...), ctx.Err()
}

// Barrier returns at once.
func (Single) Barrier(ctx context.Context) error { return ctx.Err() }

// Abort returns an error: a single process ends by returning its error.
func (Single) Abort(code int, msg string) error { return errors.New(msg) }

// Close does nothing.
func (Single) Close() error { return nil }

// Reduce applies op to a and b, element by element, into a.
func Reduce[T int64 | float64](op Op, a, b []T) {
	for i := range a {
		switch op {
		case Sum:
			a[i] += b[i]
		case Max:
			a[i] = max(a[i], b[i])
		case Min:
			a[i] = min(a[i], b[i])
		}
	}
}

// ErrAborted is returned by every pending and later operation of a Local
// group after one of its processes aborted or closed.
var ErrAborted = errors.New("comm: a process of the group aborted")

// Local returns a group of p processes within this process, one Comm per
// process, for tests: each is used by its own goroutine. Their operations
// meet at a shared rendezvous; when one aborts (or closes while the others
// still wait), every pending and later operation of the others returns
// ErrAborted.
func Local(p int) []Comm {
	g := &localGroup{p: p, slots: make([]any, p)}
	g.cond = sync.NewCond(&g.mu)
	cs := make([]Comm, p)
	for i := range cs {
		cs[i] = &localComm{g: g, rank: i}
	}
	return cs
}

type localGroup struct {
	mu      sync.Mutex
	cond    *sync.Cond
	p       int
	slots   []any // this round's contributions
	arrived int
	round   int   // rounds completed
	result  []any // the last completed round's contributions
	aborted error
	left    int // processes that read the last round's result
}

type localComm struct {
	g    *localGroup
	rank int
	done bool
}

func (c *localComm) Rank() int { return c.rank }
func (c *localComm) Size() int { return c.g.p }

// exchange contributes v to this round and returns every process's
// contribution, in rank order, once all have contributed.
func (c *localComm) exchange(ctx context.Context, v any) ([]any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g := c.g
	stop := context.AfterFunc(ctx, func() {
		g.mu.Lock()
		g.cond.Broadcast()
		g.mu.Unlock()
	})
	defer stop()
	g.mu.Lock()
	defer g.mu.Unlock()
	// Wait until the previous round's result has been read by all.
	for g.left > 0 && g.aborted == nil && ctx.Err() == nil {
		g.cond.Wait()
	}
	if g.aborted != nil {
		return nil, g.aborted
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	round := g.round
	g.slots[c.rank] = v
	g.arrived++
	if g.arrived == g.p {
		g.result = g.slots
		g.slots = make([]any, g.p)
		g.arrived = 0
		g.round++
		g.left = g.p
		g.cond.Broadcast()
	}
	for g.round == round && g.aborted == nil && ctx.Err() == nil {
		g.cond.Wait()
	}
	if g.round == round {
		if g.aborted != nil {
			return nil, g.aborted
		}
		// Cancelled while waiting: the group cannot go on without us.
		g.aborted = fmt.Errorf("%w: process %d cancelled", ErrAborted, c.rank)
		g.cond.Broadcast()
		return nil, ctx.Err()
	}
	res := g.result
	g.left--
	if g.left == 0 {
		g.cond.Broadcast()
	}
	return res, nil
}

// Alltoall, Allgather and Bcast contribute copies of their buffers, as
// MPI lets a caller reuse them once the call returns: the others copy
// their parts when they wake, which may be after this process returned.

func (c *localComm) Alltoall(ctx context.Context, send [][]byte) ([][]byte, error) {
	if len(send) != c.g.p {
		return nil, fmt.Errorf("comm: alltoall of %d parts in a group of %d", len(send), c.g.p)
	}
	mine := make([][]byte, len(send))
	for i, b := range send {
		mine[i] = append([]byte(nil), b...)
	}
	all, err := c.exchange(ctx, mine)
	if err != nil {
		return nil, err
	}
	recv := make([][]byte, c.g.p)
	for i, a := range all {
		recv[i] = a.([][]byte)[c.rank]
	}
	return recv, nil
}

func (c *localComm) Allgather(ctx context.Context, data []byte) ([][]byte, error) {
	all, err := c.exchange(ctx, append([]byte(nil), data...))
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(all))
	for i, a := range all {
		out[i] = append([]byte(nil), a.([]byte)...)
	}
	return out, nil
}

func (c *localComm) Bcast(ctx context.Context, root int, data []byte) ([]byte, error) {
	if root < 0 || root >= c.g.p {
		return nil, fmt.Errorf("comm: broadcast from %d in a group of %d", root, c.g.p)
	}
	all, err := c.exchange(ctx, append([]byte(nil), data...))
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), all[root].([]byte)...), nil
}

func (c *localComm) AllreduceInt64(ctx context.Context, op Op, v []int64) ([]int64, error) {
	return allreduce(ctx, c, op, v)
}

func (c *localComm) AllreduceFloat64(ctx context.Context, op Op, v []float64) ([]float64, error) {
	return allreduce(ctx, c, op, v)
}

// allreduce reduces every process's v in rank order. Each contributes a
// copy, so that a process may reuse v once it has returned.
func allreduce[T int64 | float64](ctx context.Context, c *localComm, op Op, v []T) ([]T, error) {
	all, err := c.exchange(ctx, append([]T(nil), v...))
	if err != nil {
		return nil, err
	}
	out := append([]T(nil), all[0].([]T)...)
	for _, a := range all[1:] {
		b := a.([]T)
		if len(b) != len(out) {
			return nil, fmt.Errorf("comm: allreduce of %d and %d values", len(out), len(b))
		}
		Reduce(op, out, b)
	}
	return out, nil
}

func (c *localComm) Barrier(ctx context.Context) error {
	_, err := c.exchange(ctx, nil)
	return err
}

func (c *localComm) Abort(code int, msg string) error {
	g := c.g
	g.mu.Lock()
	if g.aborted == nil {
		g.aborted = fmt.Errorf("%w: process %d: %s", ErrAborted, c.rank, msg)
	}
	g.cond.Broadcast()
	g.mu.Unlock()
	return g.aborted
}

func (c *localComm) Close() error {
	if c.done {
		return nil
	}
	c.done = true
	g := c.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.arrived > 0 && g.aborted == nil {
		g.aborted = fmt.Errorf("%w: process %d closed during an operation", ErrAborted, c.rank)
		g.cond.Broadcast()
	}
	return nil
}
