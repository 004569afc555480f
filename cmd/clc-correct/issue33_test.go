package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/repair/job"
)

// These tests cover the defects of issue 33 ("Refuse, never harm, second
// round"); each failed before its fix.

// `clc-correct big -o o2 --force & sleep 0.2; echo x > o2/thesis.txt`: the
// old output, inspected at the start, was removed whole at the end, with
// the file written into it meanwhile. Here the file is written when the
// correction starts (a hook, not a sleep); the run fails and keeps it.
func TestForceKeepsAFileWrittenDuringTheRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "o2")
	_, err := job.Run(context.Background(), simTrace, testOptions(out))
	require.NoError(t, err)
	thesis := filepath.Join(out, "thesis.txt")
	opts := testOptions(out)
	opts.Force = true
	wrote := false
	opts.Progress = func(stage string) {
		if !wrote {
			wrote = true
			require.NoError(t, os.WriteFile(thesis, []byte("x\n"), 0o666))
		}
	}
	_, err = job.Run(context.Background(), simTrace, opts)
	require.True(t, wrote, "the hook ran")
	require.Error(t, err)
	assert.Contains(t, err.Error(), thesis)
	b, rerr := os.ReadFile(thesis)
	require.NoError(t, rerr, "the file written meanwhile is gone")
	assert.Equal(t, "x\n", string(b))
	assertNoTemporaries(t, filepath.Dir(out))
	// Without it, --force replaces the trace as before.
	require.NoError(t, os.Remove(thesis))
	opts.Progress = nil
	_, err = job.Run(context.Background(), simTrace, opts)
	assert.NoError(t, err)
}

// `umask 077` still gave 755 directories and 644 reports, HTML pages and
// profiles.
func TestOutputsFollowTheUmask(t *testing.T) {
	for _, umask := range []int{0o077, 0o022} {
		d := t.TempDir()
		old := syscall.Umask(umask)
		code, _, msg := runOut(simTrace, "-o", filepath.Join(d, "out"), "-q", "--report", filepath.Join(d, "r.json"),
			"--html", filepath.Join(d, "r.html"), "--cpuprofile", filepath.Join(d, "cpu.prof"))
		syscall.Umask(old)
		require.Equal(t, exitOK, code, msg)
		assert.Empty(t, testenv.ModesAgainstUmask(t, d, os.FileMode(umask)))
	}
}

// Output names of 237–255 bytes failed with "file name too long" from the
// temporary's name.
func TestLongOutputNames(t *testing.T) {
	d := t.TempDir()
	out := filepath.Join(d, strings.Repeat("o", 255))
	rep := filepath.Join(d, strings.Repeat("r", 250))
	code, _, msg := runOut(simTrace, "-o", out, "-q", "--report", rep)
	require.Equal(t, exitOK, code, msg)
	assert.FileExists(t, rep)
	assert.FileExists(t, filepath.Join(out, "traces.otf2"))
	assertNoTemporaries(t, d)
}
