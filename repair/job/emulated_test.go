package job

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/clc-tools/clc/repair"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clockmodel"
)

// The real MPICH runs of testdata/emulated (four ranks on two cores, each
// rank's clock emulated by clc-trace with offset, drift and wander, the
// TSC times kept as the truth): the default method leaves no violation,
// moves no event farther from the truth than pre-synchronisation left the
// farthest one (within 50 ns), and its mean distance to the truth is no larger than both
// pre-synchronisation's and the pure CLC's. Their timing is mostly
// scheduling (round trips of milliseconds, latencies that differ by
// direction), the case the clock model is weakest in.
func TestEmulatedRealRuns(t *testing.T) {
	dirs, err := filepath.Glob("../../testdata/emulated/e-*")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			_, err := os.Stat(filepath.Join(dir, "truth"))
			require.NoError(t, err, "the trace has no truth/")
			run := func(m clockmodel.Method) *repair.Report {
				rep, err := Run(context.Background(), dir, Options{Check: true,
					Correction: repair.Correction{ClockModel: repair.ClockModelOptions{Method: m}}})
				require.NoError(t, err)
				require.Zero(t, rep.After.Violations)
				require.NotNil(t, rep.Accuracy)
				return rep
			}
			def, pure := run(clockmodel.MethodModel), run(clockmodel.MethodCLC)
			a, p := def.Accuracy, pure.Accuracy
			t.Logf("%s: mean %.0f → %.0f ticks (pure CLC %.0f), max %d → %d", def.Method.Ran,
				a.Presync.MeanAbs, a.Corrected.MeanAbs, p.Corrected.MeanAbs, a.Presync.MaxAbs, a.Corrected.MaxAbs)
			// Within 50 ns, the offset measurements' own uncertainty: the
			// farthest event is one before MPI_Init, which the curve's value
			// at the first anchor moves by a few nanoseconds either way.
			tol := int64(def.Resolution / 20_000_000)
			require.LessOrEqual(t, a.Corrected.MaxAbs, a.Presync.MaxAbs+tol, "largest distance to the truth")
			require.LessOrEqual(t, a.Corrected.MeanAbs, max(a.Presync.MeanAbs, p.Corrected.MeanAbs), "mean distance to the truth")
		})
	}
}
