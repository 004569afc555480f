package job

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/otf"
)

// Every real OTF2 archive of testdata passes through clc-correct's pipeline
// (Run, default parameters): the output is accepted by otf2-print, and by
// otf2-print -Werror whenever the input is; it holds every event the
// reference reader shows for the input, and the report counts them all.
func TestRealArchivesThroughRun(t *testing.T) {
	printer := testenv.Tool(t, "otf2-print", "otf2-tools")
	archives := []string{"../../testdata/scorep-pingpong/traces.otf2"}
	m, err := filepath.Glob("../../testdata/otf2/*/*.otf2")
	require.NoError(t, err)
	archives = append(archives, m...)
	require.GreaterOrEqual(t, len(archives), 5)
	werror := func(anchor string) bool {
		return exec.Command(printer, "--silent", "-Werror", anchor).Run() == nil
	}
	for _, in := range archives {
		t.Run(filepath.Base(filepath.Dir(in)), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			rep, err := Run(context.Background(), in, Options{Output: out})
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

// The report says what the reader found odd (EZTrace's archive announces
// wrong event counts and defines things twice), and counts the collectives
// on one-member communicators (sst-macro's COMM_SELF) instead of dropping
// them without a word (issue 13).
func TestReportWarningsAndSelfCollectives(t *testing.T) {
	rep, err := Run(context.Background(), "../../testdata/otf2/eztrace-mpi-openmp", Options{Check: true})
	require.NoError(t, err)
	require.NotEmpty(t, rep.Warnings)
	a, err := otf.Open("../../testdata/otf2/eztrace-mpi-openmp")
	require.NoError(t, err)
	_, err = a.Read(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, rep.Warnings, len(a.Warnings()))

	rep, err = Run(context.Background(), "../../testdata/otf2/sst-macro-scorep2", Options{Check: true})
	require.NoError(t, err)
	// The reference reader's count: collectives on communicators whose
	// group is of type COMM_SELF, as otf2-print -A shows them.
	out, err := exec.Command("otf2-print", "-A", "../../testdata/otf2/sst-macro-scorep2/traces.otf2").Output()
	require.NoError(t, err)
	groupRE := regexp.MustCompile(`^GROUP +(\d+) .*Type: COMM_SELF`)
	commRE := regexp.MustCompile(`^COMM +(\d+) .*Group: "[^"]*" <(\d+)>`)
	endRE := regexp.MustCompile(`^MPI_COLLECTIVE_END +\d+ .*Communicator: "[^"]*" <(\d+)>`)
	groups, comms := map[string]bool{}, map[string]bool{}
	var want int64
	for _, l := range strings.Split(string(out), "\n") {
		if m := groupRE.FindStringSubmatch(l); m != nil {
			groups[m[1]] = true
		} else if m := commRE.FindStringSubmatch(l); m != nil && groups[m[2]] {
			comms[m[1]] = true
		} else if m := endRE.FindStringSubmatch(l); m != nil && comms[m[1]] {
			want++
		}
	}
	require.Positive(t, want)
	require.Equal(t, want, rep.Messages.CollectiveSingle)
}
