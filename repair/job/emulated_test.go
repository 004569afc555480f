package job

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/truthfile"
	"github.com/clc-tools/clc/repair"
)

// The real runs of testdata/emulated (the test programs under Open MPI and
// MPICH, LAMMPS; four ranks on two cores, each rank's or node's clock
// emulated by clc-trace with offset, drift and wander, the TSC times kept
// as the truth): the default method leaves no violation, moves no event
// farther from the truth than pre-synchronisation left the farthest one
// (within 50 ns), and its mean and 99th-percentile distances to the truth
// are no larger than pre-synchronisation's or the pure CLC's. Their timing
// is mostly scheduling (round trips of milliseconds, latencies that differ
// by direction), the case the clock model is weakest in.
func TestEmulatedRealRuns(t *testing.T) {
	dirs, err := filepath.Glob("../../testdata/emulated/*/truth")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, truth := range dirs {
		dir := filepath.Dir(truth)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			def, pure := runWithTruth(t, dir, clockmodel.MethodModel), runWithTruth(t, dir, clockmodel.MethodCLC)
			a, p := def.Accuracy, pure.Accuracy
			t.Logf("%s: mean %.0f → %.0f ticks (pure CLC %.0f), max %d → %d", def.Method.Ran,
				a.Presync.MeanAbs, a.Corrected.MeanAbs, p.Corrected.MeanAbs, a.Presync.MaxAbs, a.Corrected.MaxAbs)
			// Within 50 ns, the offset measurements' own uncertainty: the
			// farthest event is one before MPI_Init, which the curve's value
			// at the first anchor moves by a few nanoseconds either way.
			tol := int64(def.Resolution / 20_000_000)
			require.LessOrEqual(t, a.Corrected.MaxAbs, a.Presync.MaxAbs+tol, "largest distance to the truth")
			require.LessOrEqual(t, a.Corrected.MeanAbs, max(a.Presync.MeanAbs, p.Corrected.MeanAbs), "mean distance to the truth")
			require.LessOrEqual(t, a.Corrected.P99Abs, max(a.Presync.P99Abs, p.Corrected.P99Abs)+tol, "99th percentile of the distance to the truth")
		})
	}
}

// Two recordings under Open MPI with one emulated clock per rank
// (testdata/emulated/r-halo-ompi-strong, r-master-ompi-mild) whose
// pre-synchronised clocks contradict hundreds of messages: the estimate
// brings them 1.4–5 times closer to the truth, but a held-out test whose
// stretches spanned 8 knots of the curves judged the estimate no better
// than the pre-synchronised clocks, and the CLC alone then left them 1.2
// and 1.4 times farther from the truth than pre-synchronisation. The
// default method runs the model, and the mean and 99th-percentile
// distances to the truth end below pre-synchronisation's.
func TestModelMovesWhereItPredicts(t *testing.T) {
	for _, name := range []string{"r-halo-ompi-strong", "r-master-ompi-mild"} {
		t.Run(name, func(t *testing.T) {
			rep := runWithTruth(t, filepath.Join("../../testdata/emulated", name), clockmodel.MethodModel)
			a := rep.Accuracy
			t.Logf("%s: mean %.0f → %.0f ticks, p99 %d → %d", rep.Method.Ran, a.Presync.MeanAbs, a.Corrected.MeanAbs, a.Presync.P99Abs, a.Corrected.P99Abs)
			require.NotNil(t, rep.Method)
			assert.Empty(t, rep.Method.Fallback, "the clock model left the clocks")
			assert.Less(t, a.Corrected.MeanAbs, a.Presync.MeanAbs, "mean distance to the truth")
			assert.Less(t, a.Corrected.P99Abs, a.Presync.P99Abs, "99th percentile of the distance to the truth")
		})
	}
}

// A recording of Open MPI's collectives over shared memory, two emulated
// nodes of two ranks (testdata/emulated/r-colls-ompi-node2), whose
// pre-synchronisation is within 43 ns of the truth on average: μ across
// nodes from its round trips (916 ns) is twice its fastest collective
// message (about 450 ns by the true times), the bounds contradict each
// other, and the CLC "corrected" 812 right messages, ending 1.14 (mean)
// and 1.81 (p99) times farther from the truth than pre-synchronisation.
// Where the clocks stay and the bounds contradict each other, μ falls to
// the largest at which they are consistent; the mean and 99th-percentile
// distances to the truth end at most pre-synchronisation's.
func TestStayingClocksKeepConsistentBounds(t *testing.T) {
	rep := runWithTruth(t, "../../testdata/emulated/r-colls-ompi-node2", clockmodel.MethodModel)
	a := rep.Accuracy
	require.NotNil(t, rep.Method)
	t.Logf("%s: μ across nodes %d ticks (%s); mean %.0f → %.0f ticks, p99 %d → %d", rep.Method.Ran, rep.Method.Latency.Inter.Ticks,
		rep.Method.Latency.Inter.Source, a.Presync.MeanAbs, a.Corrected.MeanAbs, a.Presync.P99Abs, a.Corrected.P99Abs)
	assert.NotEmpty(t, rep.Method.Fallback, "the clock model moved the clocks")
	assert.Equal(t, clockmodel.SourceConsistent, rep.Method.Latency.Inter.Source, "μ across nodes")
	assert.LessOrEqual(t, a.Corrected.MeanAbs, a.Presync.MeanAbs, "mean distance to the truth")
	assert.LessOrEqual(t, a.Corrected.P99Abs, a.Presync.P99Abs, "99th percentile of the distance to the truth")
}

// The traces users reported with their true times (testdata/cases, each an
// OTF2 archive with truth.json written by its reporter's own tools, or with
// truth/ as clc-trace writes it): the default method leaves no violation,
// its mean and 99th-percentile distances to the truth are at most
// pre-synchronisation's, the error bars hold the truth for at least 90 % of
// the events (they state 95 %), and their 95th percentile is at most three
// times the 99th percentile of the corrected times' true error.
func TestReportedCases(t *testing.T) {
	files, err := filepath.Glob("../../testdata/cases/*/" + truthfile.Name)
	require.NoError(t, err)
	dirs, err := filepath.Glob("../../testdata/cases/*/truth")
	require.NoError(t, err)
	files = append(files, dirs...)
	require.GreaterOrEqual(t, len(files), 2)
	for _, f := range files {
		dir := filepath.Dir(f)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			rep := runWithTruth(t, dir, clockmodel.MethodModel)
			a := rep.Accuracy
			t.Logf("%s: mean %.0f → %.0f ticks, p99 %d → %d, %.1f %% within the error bars", rep.Method.Ran,
				a.Presync.MeanAbs, a.Corrected.MeanAbs, a.Presync.P99Abs, a.Corrected.P99Abs, 100*a.WithinBars)
			assert.LessOrEqual(t, a.Corrected.MeanAbs, a.Presync.MeanAbs, "mean distance to the truth")
			assert.LessOrEqual(t, a.Corrected.P99Abs, a.Presync.P99Abs, "99th percentile of the distance to the truth")
			assert.GreaterOrEqual(t, a.WithinBars, 0.90, "share of the events within their error bars")
			require.NotNil(t, rep.ErrorBars)
			p99 := float64(a.Corrected.P99Abs) / float64(rep.Resolution)
			t.Logf("error bars ±%.3g µs for 95 %% of events; the true error's 99th percentile %.3g µs", rep.ErrorBars.P95*1e6, p99*1e6)
			assert.LessOrEqual(t, rep.ErrorBars.P95, 3*p99, "the bars' width")
		})
	}
}

// runWithTruth checks the trace in dir with method m, comparing with the
// true times beside it, and returns the report.
func runWithTruth(t *testing.T, dir string, m clockmodel.Method) *repair.Report {
	t.Helper()
	rep, err := Run(context.Background(), dir, Options{Check: true,
		Correction: repair.Correction{ClockModel: repair.ClockModelOptions{Method: m}}})
	require.NoError(t, err)
	require.Zero(t, rep.After.Violations)
	require.NotNil(t, rep.Accuracy, "no true times found beside %s", dir)
	return rep
}

// A truth.json that does not fit the trace is an error that names the
// file and the location, not a comparison with the wrong times.
func TestTruthJSONMismatch(t *testing.T) {
	d := t.TempDir()
	bad := filepath.Join(d, "bad.json")
	for _, c := range []struct{ body, want string }{
		{`{"resolution": 1}`, "resolution 1"},
		{`{"resolution": 2400000000}`, "no times for location"},
		{`{"resolution": 2400000000, "0": [1, 2]}`, "has 2 times for"},
		{`not json`, "bad.json"},
	} {
		require.NoError(t, os.WriteFile(bad, []byte(c.body), 0o644))
		_, err := Run(context.Background(), "../../testdata/cases/linear-clocks", Options{Check: true, Truth: bad})
		require.Error(t, err, c.body)
		assert.Contains(t, err.Error(), c.want)
		assert.Contains(t, err.Error(), bad)
	}
}
