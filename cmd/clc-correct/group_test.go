package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clc-tools/clc/comm"
)

// Processes on one host count each other: every process of a group in
// this Go process is on this host.
func TestOnThisHost(t *testing.T) {
	for _, p := range []int{1, 3} {
		errs := comm.RunLocal(p, func(c comm.Comm) error {
			n, err := onThisHost(context.Background(), c)
			assert.Equal(t, p, n)
			return err
		})
		for r, err := range errs {
			assert.NoError(t, err, "P=%d process %d", p, r)
		}
	}
}
