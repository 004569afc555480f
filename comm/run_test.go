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
