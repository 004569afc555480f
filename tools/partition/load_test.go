package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/scalestudy"
	"github.com/clc-tools/clc/partition"
	"github.com/clc-tools/clc/repair/job"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
)

// The whole chain on a small simulated trace: simulate, correct on one
// node, lay out the clock model and measure a plan; the figures agree
// with the correction's report.
func TestSimulatedChain(t *testing.T) {
	cfg := sim.DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Events, cfg.Seed = 32, 4, 60_000, 7
	cfg.Compute, cfg.ClockWander = 2*time.Millisecond, 10*time.Microsecond
	l, err := simulate(context.Background(), cfg, 2)
	require.NoError(t, err)
	sn, lay, err := scalestudy.Single(context.Background(), l, 2)
	require.NoError(t, err)
	require.NotNil(t, lay)
	assert.Positive(t, sn.DefsBytes)
	require.Len(t, sn.Stages, 5)
	in := &scalestudy.Input{Graph: l.Graph, Layout: lay, Parallel: 2}
	for li, loc := range l.Defs.Locations {
		in.Node = append(in.Node, loc.Node)
		in.Domain = append(in.Domain, loc.Node) // the simulator declares a clock per node
		in.Events = append(in.Events, int64(len(l.Times[li])))
		in.Offsets = append(in.Offsets, len(loc.Offsets))
	}
	p, err := partition.NewPlan(partition.Block, 4, in.Node, in.Events, l.Graph)
	require.NoError(t, err)
	r, err := scalestudy.Measure(in, p, l.Times) // the corrected times as scratch
	require.NoError(t, err)
	assert.Equal(t, sn.Report.Events, r.Events)
	assert.Equal(t, sn.Report.Messages.P2P, r.Messages)
	assert.Equal(t, sn.Report.Messages.CollectiveLogical, r.Logical)
	require.NotNil(t, r.Model)
	assert.Equal(t, lay.Stats.Bounds, r.Model.Bounds[0]+r.Model.Bounds[1])
	assert.Equal(t, 4, r.Model.Parts)
	assert.Positive(t, r.Model.PairsCrossing)
	assert.Greater(t, r.Forward.Supersteps, 1)
	assert.LessOrEqual(t, r.Forward.CriticalEvents, r.Events)
	assert.GreaterOrEqual(t, r.Forward.CriticalEvents, r.EventsMax)
}

// read takes a trace from disk as clc-correct does; a directory that is
// no trace is an error that names it.
func TestRead(t *testing.T) {
	l, err := read(context.Background(), "../../testdata/sim-16", 2)
	require.NoError(t, err)
	require.Len(t, l.Times, 16)
	assert.Positive(t, l.Graph.Messages)
	var n int64
	for _, ts := range l.Times {
		n += int64(len(ts))
	}
	for _, loc := range l.Defs.Locations {
		assert.Zero(t, loc.Events.Len(), "the definitions come without events")
	}
	// The whole trace, read and matched at once, has the same relation.
	in, err := job.Open("../../testdata/sim-16")
	require.NoError(t, err)
	whole, err := in.Read(context.Background(), 2)
	require.NoError(t, err)
	require.NoError(t, in.Close())
	g, err := replay.Match(whole, nil)
	require.NoError(t, err)
	assert.Equal(t, whole.NumEvents(), n)
	assert.Equal(t, g.Messages, l.Graph.Messages)
	assert.Equal(t, g.LogicalMessages, l.Graph.LogicalMessages)
	assert.Equal(t, len(g.Instances), len(l.Graph.Instances))
	dir := t.TempDir()
	_, err = read(context.Background(), dir, 2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), dir)
}
