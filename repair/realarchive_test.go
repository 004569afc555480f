package repair

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clc"
)

// Every real OTF2 archive of testdata passes through clc-correct's pipeline
// (Run, default parameters): the output is accepted by otf2-print, and by
// otf2-print -Werror whenever the input is; it holds every event the
// reference reader shows for the input, and the report counts them all.
func TestRealArchivesThroughRun(t *testing.T) {
	printer, err := exec.LookPath("otf2-print")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("otf2-print is missing (install otf2-tools)")
		}
		t.Skip("otf2-print not installed")
	}
	archives := []string{"../testdata/scorep-pingpong/traces.otf2"}
	m, err := filepath.Glob("../testdata/otf2/*/*.otf2")
	require.NoError(t, err)
	archives = append(archives, m...)
	require.GreaterOrEqual(t, len(archives), 5)
	werror := func(anchor string) bool {
		return exec.Command(printer, "--silent", "-Werror", anchor).Run() == nil
	}
	for _, in := range archives {
		t.Run(filepath.Base(filepath.Dir(in)), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			rep, err := Run(context.Background(), in, Options{Output: out, Params: clc.DefaultParams()})
			require.NoError(t, err)
			before := otf2Print(t, in)
			after := otf2Print(t, filepath.Join(out, "traces.otf2"))
			var n, m int
			for loc, evs := range before {
				n += len(evs)
				m += len(after[loc])
				for i, e := range evs {
					require.Less(t, i, len(after[loc]), "location %s", loc)
					assert.Equal(t, e.name, after[loc][i].name, "location %s event %d", loc, i)
				}
			}
			assert.Equal(t, n, m)
			assert.Equal(t, int64(n), rep.Events)
			if werror(in) {
				assert.True(t, werror(filepath.Join(out, "traces.otf2")), "otf2-print -Werror accepts the input, not the output")
			}
		})
	}
}
