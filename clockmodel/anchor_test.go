package clockmodel

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// prepareWith is prepare with f (unless nil) applied to the recorded
// trace before anything reads it.
func prepareWith(t *testing.T, cfg sim.Config, f func(*trace.Trace)) *prepared {
	t.Helper()
	rec, truth, err := sim.Generate(cfg)
	require.NoError(t, err)
	if f != nil {
		f(rec)
	}
	p := &prepared{in: Capture(rec)}
	_, err = presync.Apply(rec, nil)
	require.NoError(t, err)
	p.g, err = replay.Match(rec, nil)
	require.NoError(t, err)
	p.times, p.truth = tracetest.Times(rec), tracetest.Times(truth)
	for _, l := range rec.Locations {
		p.node = append(p.node, l.Node)
	}
	return p
}

// An offset measurement that the messages contradict (node 2's start
// offsets 5 µs off, with their small stated uncertainty) does not hold the
// estimate off: node 2's corrected times end about as close to the truth
// as with the right measurement.
func TestContradictedAnchor(t *testing.T) {
	cfg := baseConfig(4)
	const bad = 5000 // ticks (1 ns each): 5 µs
	run := func(corrupt bool) (pre, got, estimated float64) {
		p := prepareWith(t, cfg, func(tr *trace.Trace) {
			if !corrupt {
				return
			}
			for li := range tr.Locations {
				if tr.Locations[li].Node == 2 && len(tr.Locations[li].Offsets) > 0 {
					tr.Locations[li].Offsets[0].Offset += bad
				}
			}
		})
		res, err := Run(context.Background(), p.in, p.times, p.g, p.node, Options{Latency: defaultLat, Parallel: 2})
		require.NoError(t, err)
		var est, n float64
		for li := range p.times {
			if p.node[li] == 2 {
				d := p.in.Domains.Of[li]
				for j, c := range p.times[li] {
					est += math.Abs(float64(c) + res.Estimated(d, c) - float64(p.truth[li][j]))
					n++
				}
			}
		}
		t.Logf("corrupt %v: %s; the estimate's mean |error| on node 2 %.0f ticks; %d anchors contradicted", corrupt, res.Ran, est/n, res.Estimate.AnchorsContradicted)
		var sel, selTruth, selPre [][]int64
		for li := range p.times {
			if p.node[li] == 2 {
				out := p.times[li]
				if res.Times != nil {
					out = res.Times[li]
				}
				sel = append(sel, out)
				selPre = append(selPre, p.times[li])
				selTruth = append(selTruth, p.truth[li])
			}
		}
		return measure.AccuracyOf(selPre, selTruth).MeanAbs, measure.AccuracyOf(sel, selTruth).MeanAbs, est / n
	}
	pre0, good, est0 := run(false)
	pre1, withBad, est1 := run(true)
	t.Logf("node 2, mean |error|: right anchors %.0f → %.0f ticks; contradicted start anchor %.0f → %.0f", pre0, good, pre1, withBad)
	assert.Greater(t, pre1, pre0+1000, "the corrupted measurement moves the pre-synchronised clock")
	assert.Less(t, est1, 2*est0+50, "the estimate is not held by the contradicted measurement")
	assert.Less(t, withBad, pre1, "the correction does not leave node 2 farther from the truth than pre-synchronisation")
}
