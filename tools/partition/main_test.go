package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/partition"
	"github.com/clc-tools/clc/sim"
)

// A small run prints every table with a row per scheme and number of
// parts; more parts than nodes is an error.
func TestRunSmall(t *testing.T) {
	c := config{cfg: sim.DefaultConfig(), parts: []int{1, 2, 8}, schemes: partition.Schemes, np: 2}
	c.cfg.Ranks, c.cfg.RanksPerNode, c.cfg.Events, c.cfg.Seed = 32, 4, 40_000, 3
	c.cfg.Compute, c.cfg.ClockWander = 2*time.Millisecond, 10*time.Microsecond
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &c, &out))
	s := out.String()
	for _, h := range []string{"### One process", "### Division and messages", "### Forward replay", "### Memory per process", "### Clock model", "The posterior's standard deviations take no solve"} {
		assert.Contains(t, s, h)
	}
	for _, sc := range partition.Schemes {
		for _, p := range []string{"1", "2", "8"} {
			// one row in each of the four per-plan tables
			assert.Equal(t, 4, strings.Count(s, "| "+string(sc)+" | "+p+" |"), "%s %s", sc, p)
		}
	}
	c.parts = []int{9}
	assert.Error(t, run(context.Background(), &c, &bytes.Buffer{}))
}
