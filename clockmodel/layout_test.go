package clockmodel

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The layout is the estimation the correction runs (same bounds, unknowns
// and iterations), and its splits obey what holds for any division: one
// part crosses nothing; one domain per part makes every pair and bound
// cross; each bound, pair, row and nonzero between two domains crosses in
// exactly the two divisions that set one of its domains apart; totals do
// not depend on the division.
func TestLayoutSplit(t *testing.T) {
	cfg := baseConfig(5)
	cfg.Ranks, cfg.RanksPerNode, cfg.Events = 64, 4, 400_000
	p := prepare(t, cfg)
	ctx := context.Background()
	l, err := NewLayout(ctx, p.in, p.times, p.g, defaultLat, EstimateOptions{Parallel: 2})
	require.NoError(t, err)
	res, err := Run(ctx, p.in, p.times, p.g, p.node, Options{Latency: defaultLat, Parallel: 2, Layout: true})
	require.NoError(t, err)
	require.NotNil(t, res.Estimate)
	assert.Equal(t, res.Estimate.Bounds, l.Stats.Bounds)
	assert.Equal(t, res.Estimate.Unknowns, l.Stats.Unknowns)
	assert.Equal(t, res.Estimate.Iterations, l.Stats.Iterations)
	assert.Greater(t, l.Prepares, 2)
	require.Equal(t, 2, l.Stats.Passes, "the trace has evidence to move the clocks: both passes and the posterior run")
	require.NotNil(t, res.Layout, "Run keeps its layout when asked")
	assert.Equal(t, l.Stats, res.Layout.Stats)
	assert.Equal(t, l.Prepares, res.Layout.Prepares)
	assert.Equal(t, [3]int64{l.Rows, l.Nonzeros, int64(l.Coarse)}, [3]int64{res.Layout.Rows, res.Layout.Nonzeros, int64(res.Layout.Coarse)})
	plain, err := Run(ctx, p.in, p.times, p.g, p.node, Options{Latency: defaultLat, Parallel: 2})
	require.NoError(t, err)
	assert.Nil(t, plain.Layout)
	nd := p.in.Domains.Count()
	require.Equal(t, 16, nd)
	require.Positive(t, l.Coarse, "64 ranks on 16 nodes: the system has a coarse level")

	one, err := l.Split(make([]int32, nd))
	require.NoError(t, err)
	assert.Equal(t, 1, one.Parts)
	assert.Equal(t, l.Stats.Bounds, one.Bounds[0]+one.Bounds[1])
	assert.Equal(t, l.Stats.Unknowns, one.Unknowns)
	assert.Equal(t, one.Unknowns, one.UnknownsMax)
	assert.Equal(t, l.Coarse, one.CoarseMax)
	assert.Zero(t, one.PairsCrossing+one.GroupsCrossing+one.Neighbours)
	assert.Zero(t, one.BoundsCrossing[0]+one.BoundsCrossing[1]+one.Shipped[0]+one.Shipped[1]+one.RowsCrossing+one.NonzerosCrossing+one.Halo)
	assert.Positive(t, one.Rows)
	assert.Positive(t, one.Nonzeros)

	apart := make([]int32, nd)
	for d := range apart {
		apart[d] = int32(d)
	}
	all, err := l.Split(apart)
	require.NoError(t, err)
	assert.Equal(t, nd, all.Parts)
	assert.Equal(t, all.Pairs, all.PairsCrossing)
	assert.Equal(t, all.Bounds, all.BoundsCrossing)
	assert.Equal(t, all.Groups, all.GroupsCrossing)
	assert.Positive(t, all.Halo)
	assert.LessOrEqual(t, all.HaloMax, all.Halo)
	for src := range 2 {
		assert.LessOrEqual(t, 2*all.Shipped[src], all.BoundsCrossing[src], "the owner of a pair receives at least half its bounds")
	}

	var sum Coupling
	for d := range nd {
		single := make([]int32, nd)
		single[d] = 1
		c, err := l.Split(single)
		require.NoError(t, err)
		for _, same := range [][2]int64{{c.Bounds[0], one.Bounds[0]}, {c.Bounds[1], one.Bounds[1]}, {c.Rows, one.Rows},
			{c.Nonzeros, one.Nonzeros}, {int64(c.Unknowns), int64(one.Unknowns)}, {int64(c.Pairs), int64(one.Pairs)}} {
			assert.Equal(t, same[1], same[0], "totals do not depend on the division")
		}
		sum.PairsCrossing += c.PairsCrossing
		sum.RowsCrossing += c.RowsCrossing
		sum.NonzerosCrossing += c.NonzerosCrossing
		sum.GroupsCrossing += c.GroupsCrossing
		for src := range 2 {
			sum.BoundsCrossing[src] += c.BoundsCrossing[src]
		}
	}
	assert.Equal(t, 2*all.PairsCrossing, sum.PairsCrossing)
	assert.Equal(t, 2*all.RowsCrossing, sum.RowsCrossing)
	assert.Equal(t, 2*all.NonzerosCrossing, sum.NonzerosCrossing)
	assert.Equal(t, 2*all.GroupsCrossing, sum.GroupsCrossing)
	assert.Equal(t, [2]int64{2 * all.BoundsCrossing[0], 2 * all.BoundsCrossing[1]}, sum.BoundsCrossing)

	_, err = l.Split(make([]int32, nd-1))
	assert.Error(t, err)
	bad := make([]int32, nd)
	bad[3] = -1
	_, err = l.Split(bad)
	assert.Error(t, err)
}

// An estimate that stops after its first pass (nothing to move the clocks)
// lays out that pass's system, without posterior batches.
func TestLayoutOfOnePass(t *testing.T) {
	cfg := baseConfig(5)
	cfg.Ranks, cfg.RanksPerNode, cfg.Events = 64, 4, 200_000
	cfg.ClockWander = 0
	p := prepare(t, cfg)
	l, err := NewLayout(context.Background(), p.in, p.times, p.g, defaultLat, EstimateOptions{Parallel: 2})
	require.NoError(t, err)
	require.Equal(t, 1, l.Stats.Passes, "clocks without wander: the first pass finds nothing to move")
	assert.Positive(t, l.Rows)
	assert.Positive(t, l.Nonzeros)
	c, err := l.Split(make([]int32, p.in.Domains.Count()))
	require.NoError(t, err)
	assert.Equal(t, l.Stats.Unknowns, c.Unknowns)
}
