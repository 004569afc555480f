package repair

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/trace"
)

// The default method on hybrid traces: the threads (and metric streams) of
// a process share its clock and the processes of a node the node's, so
// there is one clock domain per node; the model runs, and after the CLC no
// message or shared-memory relation is violated (the independent checker
// on the written output). Simulated runs (native and OTF2) and archives
// written by the reference library: the mean distance to the truth is at
// most 0.3 (simulated) or 0.5 (archives; 0.03–0.22 with seeds 1–4) of
// pre-synchronisation's, the largest at most pre-synchronisation's; metric
// streams stay within their process's span.
func TestHybridClockModel(t *testing.T) {
	check := func(t *testing.T, in string, rec *trace.Trace, perNode int32, meanLimit float64) {
		out, rep := correctHybrid(t, in, rec, clockmodel.MethodModel)
		m := rep.Method
		require.NotNil(t, m)
		require.Equal(t, "model + clc", m.Ran, "fallback: %s", m.Fallback)
		assert.Equal(t, len(rec.Nodes), m.Domains.Count, "one clock domain per node")
		assert.Equal(t, perNode, m.Domains.MinSize)
		assert.Equal(t, perNode, m.Domains.MaxSize)
		a := rep.Accuracy
		t.Logf("mean |err| %.0f → %.0f ticks (%.3f), max %d → %d", a.Presync.MeanAbs, a.Corrected.MeanAbs,
			a.Corrected.MeanAbs/a.Presync.MeanAbs, a.Presync.MaxAbs, a.Corrected.MaxAbs)
		assert.LessOrEqual(t, a.Corrected.MeanAbs, meanLimit*a.Presync.MeanAbs)
		assert.LessOrEqual(t, a.Corrected.MaxAbs, a.Presync.MaxAbs)
		checkMetricsWithinProcess(t, checkHybridOutput(t, out, "fork", "join", "barrier", "lock", "task-create", "taskwait"))
	}
	for _, f := range []Format{FormatNative, FormatOTF2} {
		t.Run(string(f), func(t *testing.T) {
			c := hybridScenario(11)
			dir, rec := hybridSimDir(t, c, f)
			check(t, dir, rec, int32(c.RanksPerNode*c.Threads), 0.3)
		})
	}
	py := pythonOTF2(t)
	seeds := 4
	if testing.Short() {
		seeds = 2
	}
	for seed := 1; seed <= seeds; seed++ {
		t.Run(fmt.Sprint("archive seed ", seed), func(t *testing.T) {
			in, rec := hybridArchive(t, py, seed)
			check(t, in, rec, int32(len(rec.Locations)/len(rec.Nodes)), 0.5)
		})
	}
}

// μ chosen in ticks reaches the CLC exactly, also on a timer that does
// not tick in whole nanoseconds (2.445 GHz: 838 ticks is 342.7 ns, and no
// whole number of nanoseconds is 838 ticks).
func TestSetLatenciesKeepsTicks(t *testing.T) {
	const res = 2_445_399_717
	for _, tk := range []int64{1, 300, 838, 2445, 123_457} {
		var l clockmodel.Latencies
		l.Intra.Ticks, l.Inter.Ticks = tk, tk+1
		p := clc.DefaultParams()
		SetLatencies(&p, &l, res)
		k := p.InTicks(res)
		require.Equal(t, tk, k.Lat.Intra, "intra %d ticks", tk)
		require.Equal(t, tk+1, k.Lat.Inter, "inter %d ticks", tk+1)
		require.InDelta(t, float64(tk)*1e9/res, float64(p.LatencyIntra), 0.5, "the duration describes it")
	}
}
