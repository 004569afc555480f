// Package pipetest runs clc-correct's correction (repair.Correct) on an
// in-memory trace for the tests of the packages that present its results
// (the HTML report, the Perfetto export).
package pipetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// Result is what the correction produced.
type Result struct {
	// Trace is the trace as given (its times are the recorded ones; the
	// corrected times are Corrected).
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
	// Report is Correct's.
	Report *repair.Report
}

// Run corrects rec as clc-correct does with --method clc (the pure CLC,
// whose moves the presentation tests look at); truth may be nil.
func Run(t testing.TB, rec, truth *trace.Trace) *Result {
	t.Helper()
	in := repair.TraceOf(rec)
	if truth != nil {
		for _, l := range truth.Locations {
			in.Truth = append(in.Truth, l.Events.Time)
		}
	}
	res, err := repair.Correct(context.Background(), in, &repair.Correction{
		ClockModel: repair.ClockModelOptions{Method: clockmodel.MethodCLC}, KeepPresync: true})
	require.NoError(t, err)
	return &Result{Trace: rec, Funcs: res.PresyncFuncs, Measured: res.Measured, Method: res.PresyncMethod,
		Graph: res.Graph, Lat: res.Latency, Presync: res.Presync, Corrected: in.Times, Truth: in.Truth, Report: res.Report}
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
