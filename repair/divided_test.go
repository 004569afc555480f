package repair

import (
	"context"
	"testing"

	"github.com/clc-tools/clc/comm"
	"github.com/stretchr/testify/assert"
)

// sameOnAll passes when every process holds the same times and fails on
// every process when one time of one process differs.
func TestSameOnAll(t *testing.T) {
	for _, differ := range []bool{false, true} {
		errs := comm.RunLocal(3, func(c comm.Comm) error {
			times := [][]int64{{1, 2, 3}, {}, {4, 5}}
			if differ && c.Rank() == 2 {
				times[2][1]++
			}
			return division{c, []int32{0, 1, 2}}.sameOnAll(context.Background(), "the times", times)
		})
		for r, err := range errs {
			if differ {
				assert.ErrorContains(t, err, "the times differ between processes 0 and 2", "process %d", r)
			} else {
				assert.NoError(t, err, "process %d", r)
			}
		}
	}
}
