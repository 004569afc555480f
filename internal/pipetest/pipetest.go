// Package pipetest runs clc-correct's pipeline on an in-memory trace for
// the tests of the packages that present its results (the HTML report,
// the Perfetto export): pre-synchronisation, matching, the CLC with the
// default parameters.
package pipetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// Result is what the pipeline produced.
type Result struct {
	// Trace holds the pre-synchronised times (Presync); its offsets are
	// consumed.
	Trace *trace.Trace
	// Funcs are the pre-synchronisation's corrections; Measured the
	// pre-synchronised times of the clock-offset measurements.
	Funcs    []*presync.Func
	Measured [][]int64
	Method   presync.Method
	Graph    *replay.Graph
	Lat      replay.Latency
	// Presync, Corrected and Truth (nil when not given) are the times per
	// location.
	Presync, Corrected, Truth [][]int64
}

// Run corrects rec as clc-correct does with default flags; truth may be nil.
func Run(t testing.TB, rec, truth *trace.Trace) *Result {
	t.Helper()
	r := &Result{Trace: rec, Method: presync.Resolve(rec, presync.Auto)}
	var err error
	r.Funcs, err = presync.Funcs(rec, presync.Auto)
	require.NoError(t, err)
	r.Measured = presync.Measured(rec, r.Funcs)
	_, err = presync.Apply(rec, nil)
	require.NoError(t, err)
	r.Graph, err = replay.Match(rec, nil)
	require.NoError(t, err)
	p := clc.DefaultParams()
	r.Lat = p.InTicks(rec.Resolution).Lat
	res, err := clc.Correct(rec, r.Graph, p, nil)
	require.NoError(t, err)
	for i, l := range rec.Locations {
		r.Presync = append(r.Presync, l.Events.Time)
		r.Corrected = append(r.Corrected, res.Times[i])
		if truth != nil {
			r.Truth = append(r.Truth, truth.Locations[i].Events.Time)
		}
	}
	return r
}

// Sim simulates a trace with cfg and corrects it.
func Sim(t testing.TB, cfg sim.Config) *Result {
	t.Helper()
	rec, truth, err := sim.Generate(cfg)
	require.NoError(t, err)
	return Run(t, rec, truth)
}

// Drifting is a simulator configuration whose clocks wander enough within
// the run to violate the clock condition.
func Drifting(ranks, perNode int, events int64, seed int64) sim.Config {
	cfg := sim.DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Events, cfg.Seed = ranks, perNode, events, seed
	cfg.ClockWander = 10 * time.Microsecond
	cfg.WanderPeriod = 20 * time.Millisecond
	cfg.Compute = 200 * time.Microsecond
	return cfg
}
