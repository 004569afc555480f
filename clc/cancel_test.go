package clc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
)

// A context cancelled before or during a pass stops the correction with
// the context's error (a signal cancels clc-correct's so; issue 26).
func TestCorrectIsCancelled(t *testing.T) {
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Events, c.Seed = 8, 2, 40_000, 11
	c.ClockWander = 200 * time.Microsecond
	tr, _, err := sim.Generate(c)
	require.NoError(t, err)
	_, err = presync.Apply(tr, nil)
	require.NoError(t, err)
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	for _, at := range []string{"", "forward pass", "backward amortization"} {
		ctx, cancel := context.WithCancel(context.Background())
		if at == "" {
			cancel()
		}
		seen := false
		_, err := Correct(tr, g, DefaultParams(), &Options{Context: ctx, Progress: func(s string) {
			if strings.HasPrefix(s, at) && at != "" {
				seen = true
				cancel()
			}
		}})
		require.True(t, errors.Is(err, context.Canceled), "cancelled at %q: %v", at, err)
		require.True(t, seen || at == "", "the correction reached %q", at)
		cancel()
	}
}
