package comm

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run calls f on every process of a Local group of p, each on its own
// goroutine, and returns their errors.
func run(p int, f func(c Comm) error) []error {
	cs := Local(p)
	errs := make([]error, p)
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() { errs[i] = f(c) })
	}
	wg.Wait()
	return errs
}

func TestLocalOperations(t *testing.T) {
	ctx := context.Background()
	for _, p := range []int{1, 2, 3, 5} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			errs := run(p, func(c Comm) error {
				r := c.Rank()
				for round := range 20 { // many rounds: results must not mix
					send := make([][]byte, p)
					for j := range send {
						send[j] = []byte{byte(r), byte(j), byte(round)}
					}
					recv, err := c.Alltoall(ctx, send)
					if err != nil {
						return err
					}
					for j, b := range recv {
						if string(b) != string([]byte{byte(j), byte(r), byte(round)}) {
							return fmt.Errorf("alltoall: %d got %v from %d", r, b, j)
						}
					}
					all, err := c.Allgather(ctx, []byte{byte(r), byte(round)})
					if err != nil {
						return err
					}
					for j, b := range all {
						if string(b) != string([]byte{byte(j), byte(round)}) {
							return fmt.Errorf("allgather: %d got %v from %d", r, b, j)
						}
					}
					root := round % p
					b, err := c.Bcast(ctx, root, []byte{byte(r)})
					if err != nil || b[0] != byte(root) {
						return fmt.Errorf("bcast from %d: %v %v", root, b, err)
					}
					s, err := c.AllreduceInt64(ctx, Sum, []int64{int64(r), 1})
					if err != nil || s[0] != int64(p*(p-1)/2) || s[1] != int64(p) {
						return fmt.Errorf("sum: %v %v", s, err)
					}
					m, err := c.AllreduceFloat64(ctx, Max, []float64{float64(r)})
					if err != nil || m[0] != float64(p-1) {
						return fmt.Errorf("max: %v %v", m, err)
					}
					if err := c.Barrier(ctx); err != nil {
						return err
					}
				}
				return c.Close()
			})
			for _, err := range errs {
				require.NoError(t, err)
			}
		})
	}
}

func TestLocalAbortReleasesTheOthers(t *testing.T) {
	ctx := context.Background()
	errs := run(3, func(c Comm) error {
		if c.Rank() == 1 {
			return c.Abort(1, "read failed")
		}
		return c.Barrier(ctx)
	})
	assert.ErrorIs(t, errs[0], ErrAborted)
	assert.ErrorIs(t, errs[2], ErrAborted)
	assert.ErrorContains(t, errs[0], "read failed")
}

func TestLocalCancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	first := make(chan struct{})
	errs := run(2, func(c Comm) error {
		if c.Rank() == 0 {
			defer close(first)
			return c.Barrier(ctx) // the other comes only after this one gave up
		}
		<-first
		return c.Barrier(context.Background())
	})
	assert.ErrorIs(t, errs[0], context.DeadlineExceeded)
	assert.ErrorIs(t, errs[1], ErrAborted)
}

func TestSingle(t *testing.T) {
	ctx := context.Background()
	var c Comm = Single{}
	r, err := c.Alltoall(ctx, [][]byte{[]byte("x")})
	require.NoError(t, err)
	assert.Equal(t, "x", string(r[0]))
	s, err := c.AllreduceInt64(ctx, Sum, []int64{4})
	require.NoError(t, err)
	assert.Equal(t, []int64{4}, s)
	assert.Error(t, c.Abort(1, "x"))
}
