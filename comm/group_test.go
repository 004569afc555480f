package comm

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A Group's operations complete each process's share into the whole
// (sums, maxima, minima, gathers, all-to-alls as Comm's); Agree fails every
// process when one had an error, naming it as the cause only there; after
// a failed operation the others leave their inputs and Err keeps the
// first error; a nil Group is one process.
func TestGroup(t *testing.T) {
	const p = 3
	errs := RunLocal(p, func(c Comm) error {
		g := NewGroup(context.Background(), c)
		r := int64(c.Rank())
		sum := []int64{r, 1}
		g.Int64("sum", Sum, sum)
		assert.Equal(t, []int64{0 + 1 + 2, p}, sum)
		mx, mn := []int64{r}, []int64{r}
		g.Int64("max", Max, mx)
		g.Int64("min", Min, mn)
		assert.Equal(t, []int64{p - 1}, mx)
		assert.Equal(t, []int64{0}, mn)
		all := g.Allgather("gather", []byte{byte(r)})
		assert.Equal(t, [][]byte{{0}, {1}, {2}}, all)
		send := make([][]byte, p)
		for q := range send {
			send[q] = []byte{byte(r), byte(q)}
		}
		got := g.Alltoall("alltoall", send)
		for q := range got {
			assert.Equal(t, []byte{byte(q), byte(r)}, got[q])
		}
		mine := errors.New("mine")
		var err error
		if r == 1 {
			err = mine
		}
		err = g.Agree("stage", err)
		if r == 1 {
			assert.Same(t, mine, err)
		} else {
			assert.ErrorIs(t, err, ErrElsewhere)
		}
		assert.NoError(t, g.Err(), "Agree keeps no error of its own")
		return nil
	})
	for r, err := range errs {
		assert.NoError(t, err, "process %d", r)
	}

	// A failed operation: the context is cancelled on every process.
	errs = RunLocal(p, func(c Comm) error {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		g := NewGroup(ctx, c)
		v := []int64{7}
		g.Int64("first", Sum, v)
		assert.Error(t, g.Err())
		first := g.Err()
		v[0] = 5
		g.Int64("second", Sum, v)
		assert.Equal(t, []int64{5}, v, "after an error an operation leaves its input")
		assert.Same(t, first, g.Err())
		assert.Nil(t, g.Alltoall("x", make([][]byte, p)))
		assert.ErrorContains(t, g.Agree("stage", nil), "first")
		return nil
	})
	for r, err := range errs {
		assert.NoError(t, err, "process %d", r)
	}

	var one *Group
	v := []int64{3}
	one.Int64("sum", Sum, v)
	assert.Equal(t, []int64{3}, v)
	assert.Equal(t, 1, one.Size())
	assert.Equal(t, [][]byte{{9}}, one.Allgather("x", []byte{9}))
	assert.NoError(t, one.Err())
	assert.Nil(t, NewGroup(context.Background(), Single{}))
}
