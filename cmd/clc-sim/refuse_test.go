package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
)

// The archive's ClockProperties global offset lies at or before every time
// the reference reader gives (it applies the clock offsets): clc-sim wrote
// the smallest raw time, which for two ranks on two nodes, seed 3, was
// 70.6 µs after the earliest synchronised one (issue 26).
func TestGlobalOffsetBeforeEveryEvent(t *testing.T) {
	py := testenv.PythonOTF2(t)
	for _, seed := range []string{"3", "4", "5"} {
		out := filepath.Join(t.TempDir(), "s")
		_, err := runCmd(t, out, "--ranks", "2", "--ranks-per-node", "1", "--seed", seed, "--events", "20000", "--format", "otf2")
		require.NoError(t, err)
		b, err := exec.Command(py, "-c", `
import otf2, sys
with otf2.reader.open(sys.argv[1]) as r:
    cp = r.definitions.clock_properties
    ts = [e.time for _, e in r.events]
    print(min(ts) - cp.global_offset, cp.global_offset + cp.trace_length - max(ts))
`, filepath.Join(out, "traces.otf2")).CombinedOutput()
		require.NoError(t, err, "%s", b)
		f := strings.Fields(string(b))
		require.Len(t, f, 2, "%s", b)
		for i, what := range []string{"first event after the global offset", "last event before the trace's end"} {
			v, err := strconv.ParseInt(f[i], 10, 64)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, v, int64(0), "seed %s: %s", seed, what)
		}
	}
}

// OUTDIR named *.otf2 made a directory that passes for an anchor; a
// missing parent was created (issue 26).
func TestOutputNames(t *testing.T) {
	d := t.TempDir()
	_, err := runCmd(t, filepath.Join(d, "sim.otf2"), "--ranks", "2", "--events", "1000")
	require.ErrorContains(t, err, filepath.Join(d, "sim", "traces.otf2"))
	_, err = runCmd(t, filepath.Join(d, "no", "sim"), "--ranks", "2", "--events", "1000")
	require.ErrorContains(t, err, "does not exist")
	ents, err := os.ReadDir(d)
	require.NoError(t, err)
	assert.Empty(t, ents)
}

// `umask 077` still gave 755 directories and 644 files (issue 33): the
// output directory and what is in it follow the umask.
func TestOutputFollowsTheUmask(t *testing.T) {
	for _, umask := range []int{0o077, 0o022} {
		out := filepath.Join(t.TempDir(), "s")
		old := syscall.Umask(umask)
		_, err := runCmd(t, out, "--ranks", "2", "--events", "1000")
		syscall.Umask(old)
		require.NoError(t, err)
		assert.Empty(t, testenv.ModesAgainstUmask(t, filepath.Dir(out), os.FileMode(umask)))
	}
}
