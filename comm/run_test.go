package comm

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// RunLocal runs every process with its own rank, and a process's failure
// fails the others' waits instead of leaving them waiting.
func TestRunLocal(t *testing.T) {
	errs := RunLocal(3, func(c Comm) error {
		got, err := c.AllreduceInt64(context.Background(), Sum, []int64{int64(c.Rank())})
		if err == nil && got[0] != 3 {
			return errors.New("wrong sum")
		}
		return err
	})
	assert.Equal(t, []error{nil, nil, nil}, errs)

	boom := errors.New("boom")
	errs = RunLocal(3, func(c Comm) error {
		if c.Rank() == 1 {
			return boom
		}
		return c.Barrier(context.Background())
	})
	assert.ErrorIs(t, errs[1], boom)
	assert.ErrorIs(t, errs[0], ErrAborted)
	assert.ErrorIs(t, errs[2], ErrAborted)
}

// A process may reuse its buffers as soon as Alltoall, Allgather or Bcast
// returns, as MPI allows: the others still get what it sent (under the
// race detector the old Local, which let the others copy the buffers
// after it returned, fails this).
func TestLocalBuffersReusable(t *testing.T) {
	for range 20 {
		errs := RunLocal(4, func(c Comm) error {
			ctx := context.Background()
			me := byte(c.Rank())
			send := make([][]byte, c.Size())
			for q := range send {
				send[q] = []byte{me, byte(q)}
			}
			recv, err := c.Alltoall(ctx, send)
			if err != nil {
				return err
			}
			for q := range send {
				send[q][0], send[q][1] = 0xff, 0xff
			}
			data := []byte{me}
			all, err := c.Allgather(ctx, data)
			if err != nil {
				return err
			}
			data[0] = 0xff
			b, err := c.Bcast(ctx, 1, data)
			if err != nil {
				return err
			}
			data[0] = 0xee
			for q := range recv {
				if recv[q][0] != byte(q) || recv[q][1] != me || all[q][0] != byte(q) {
					return errors.New("a part changed after its sender returned")
				}
			}
			if b[0] != 0xff {
				return errors.New("the broadcast changed after its root returned")
			}
			return c.Barrier(ctx)
		})
		for r, err := range errs {
			assert.NoError(t, err, "process %d", r)
		}
	}
}
