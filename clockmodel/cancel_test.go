package clockmodel

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// A cancelled context stops Run with the context's error, at whichever
// step it is (a signal cancels clc-correct's so; issue 26).
func TestRunIsCancelled(t *testing.T) {
	p := prepare(t, baseConfig(1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, p.in, p.times, p.g, p.node, Options{Latency: defaultLat, Parallel: 2, InPlace: true, Project: true})
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
}
