package repair

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
