package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/output"
	"github.com/clc-tools/clc/repair/job"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// These tests cover the defects of issue 13 that concern the paths a run
// writes, its flags and its messages; each failed before its fix.

// runErr runs clc-correct and returns its exit status and stderr.
func runErr(args ...string) (int, string) {
	var errb bytes.Buffer
	code := run(context.Background(), args, io.Discard, &errb)
	return code, errb.String()
}

// copyTrace copies the shipped simulated trace (with its truth) into a
// fresh directory, so a test may damage it.
func copyTrace(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "in")
	err := filepath.WalkDir(simTrace, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(simTrace, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	require.NoError(t, err)
	return dst
}

// hashTree hashes the names and contents of every file under dir.
func hashTree(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %v\n", rel, d.IsDir())
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	require.NoError(t, err)
	return hex.EncodeToString(h.Sum(nil))
}

// assertNoTemporaries fails if dir holds a temporary of package output.
func assertNoTemporaries(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range ents {
		assert.False(t, strings.HasPrefix(e.Name(), output.TempPrefix), "temporary %s left in %s", e.Name(), dir)
	}
}

func TestOutputPathsAreCheckedBeforeAnythingIsWritten(t *testing.T) {
	in := copyTrace(t)
	before := hashTree(t, in)
	d := t.TempDir()
	out := filepath.Join(d, "out")
	blocker := filepath.Join(d, "file")
	require.NoError(t, os.WriteFile(blocker, []byte("x"), 0o644))
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"report into the input", []string{in, "-o", out, "--report", filepath.Join(in, "clc.json")}, "inside the input"},
		{"new report into the input", []string{in, "-o", out, "--report", filepath.Join(in, "r.json")}, "inside the input"},
		{"report into the truth", []string{in, "-o", out, "--report", filepath.Join(in, "truth", "clc.json")}, "inside the input"},
		{"profile into the input", []string{in, "-o", out, "--cpuprofile", filepath.Join(in, "events", "0.clce")}, "inside the input"},
		{"report into the output", []string{in, "-o", out, "--report", filepath.Join(out, "r.json")}, "clashes with the output"},
		{"report is the profile", []string{in, "-o", out, "--report", filepath.Join(d, "x"), "--cpuprofile", filepath.Join(d, "x")}, "clashes with the report"},
		{"report is a directory", []string{in, "-o", out, "--report", t.TempDir()}, "is a directory"},
		{"report cannot be written", []string{in, "-o", out, "--report", filepath.Join(blocker, "r.json")}, "report"},
		{"check with a report into the input", []string{in, "--check", "--report", filepath.Join(in, "r.json")}, "inside the input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, msg := runErr(c.args...)
			assert.Equal(t, exitError, code)
			assert.Contains(t, msg, c.want)
			_, err := os.Stat(out)
			assert.ErrorIs(t, err, os.ErrNotExist, "no output may be written when a path is refused")
			assertNoTemporaries(t, d)
		})
	}
	assert.Equal(t, before, hashTree(t, in), "the input changed")
}

func TestReportAndProfileLandWithTheOutput(t *testing.T) {
	d := t.TempDir()
	out, rep, prof := filepath.Join(d, "out"), filepath.Join(d, "r.json"), filepath.Join(d, "cpu.pprof")
	code, msg := runErr(simTrace, "-o", out, "--report", rep, "--cpuprofile", prof, "-q", "--format", "native")
	require.Equal(t, exitOK, code, msg)
	for _, f := range []string{rep, prof} {
		st, err := os.Stat(f)
		require.NoError(t, err)
		assert.Positive(t, st.Size(), f)
	}
	assert.True(t, native.IsDir(out))
	assertNoTemporaries(t, d)
	// An existing report is replaced; a directory standing where the
	// report goes is not.
	code, msg = runErr(simTrace, "--check", "--report", rep, "-q")
	require.Equal(t, exitOK, code, msg)
}

func TestForceReplacesOnlyATrace(t *testing.T) {
	d := t.TempDir()
	exp := filepath.Join(d, "scorep-20261123_1200")
	require.NoError(t, os.MkdirAll(filepath.Join(exp, "traces"), 0o755))
	for _, f := range []string{"traces.otf2", "traces.def", "scorep.cfg", "profile.cubex"} {
		require.NoError(t, os.WriteFile(filepath.Join(exp, f), []byte("x"), 0o644))
	}
	before := hashTree(t, exp)
	code, msg := runErr(simTrace, "-o", exp, "--force", "-q")
	assert.Equal(t, exitError, code)
	assert.Contains(t, msg, "refusing to replace")
	assert.Equal(t, before, hashTree(t, exp), "--force deleted a Score-P experiment directory")

	out := filepath.Join(d, "out")
	code, msg = runErr(simTrace, "-o", out, "-q")
	require.Equal(t, exitOK, code, msg)
	code, msg = runErr(simTrace, "-o", out, "--force", "-q", "--format", "otf2")
	require.Equal(t, exitOK, code, msg)
	assertNoTemporaries(t, d)
}

func TestInvalidFlagValues(t *testing.T) {
	out := filepath.Join(t.TempDir(), "o")
	for _, extra := range [][]string{
		{"--progress", "bogus"},
		{"--shift-factor", "NaN"},
		{"--shift-factor", "+Inf"},
		{"--gamma", "NaN"},
		{"--backward-slope", "NaN"},
		{"--method", "bogus"},
		{"--method", ""},
		{"--latency-inter", "-1us"},
		{"-j", "-1"},
		{"--latency-intra", "-1ns"},
		{"--max-passes", "0"},
	} {
		code, msg := runErr(append([]string{simTrace, "-o", out}, extra...)...)
		assert.Equal(t, cli.ExitUsage, code, "%q was accepted", extra)
		assert.NotEmpty(t, msg, "%q", extra)
		_, err := os.Stat(out)
		assert.ErrorIs(t, err, os.ErrNotExist, "%q", extra)
	}
}

func TestCorruptTruthIsAnError(t *testing.T) {
	in := copyTrace(t)
	m := filepath.Join(in, "truth", "clc.json")
	b, err := os.ReadFile(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(m, b[:len(b)/2], 0o644))
	code, msg := runErr(in, "--check", "-q")
	assert.Equal(t, exitError, code)
	assert.Contains(t, msg, "truth")
	// --truth - leaves the comparison out on purpose.
	code, msg = runErr(in, "--check", "-q", "--truth", "-")
	assert.Equal(t, exitOK, code, msg)
}

// An input whose clock offsets put times before 0 is the input's fault,
// not the output's.
func TestBadOffsetsBlameTheInput(t *testing.T) {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "a"}, {Name: "b"}}, Regions: []trace.Region{{Name: "f"}}}
	for i := range 2 {
		l := &trace.Location{ID: uint64(i), Name: fmt.Sprintf("rank %d", i), Node: int32(i)}
		l.Events.AppendRegion(trace.KindEnter, 1000, 0)
		l.Events.AppendRegion(trace.KindLeave, 2000, 0)
		tr.Locations = append(tr.Locations, l)
	}
	tr.Locations[1].Offsets = []trace.ClockOffset{{Time: 0, Offset: -5000}, {Time: 3000, Offset: -5000}}
	in := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), in, tr, nil))
	for _, f := range []string{"native", "otf2"} {
		code, msg := runErr(in, "-o", filepath.Join(t.TempDir(), "o"), "--format", f, "-q")
		assert.Equal(t, exitError, code, f)
		assert.Contains(t, msg, "input "+in, f)
		assert.Contains(t, msg, "offset -5000", f)
		assert.NotContains(t, msg, "output", f)
	}
}

// A run cancelled at any stage (as a signal cancels it) leaves neither an
// output nor a temporary. (The CLC's passes run with the pure CLC: after
// the clock model, the simulated trace has no violation left and the
// correction returns before any pass.)
func TestCancelLeavesNothing(t *testing.T) {
	for _, stage := range []string{"reading", "pre-synchronising", "matching", "estimating the clocks", "correcting", "forward pass", "backward", "writing"} {
		t.Run(stage, func(t *testing.T) {
			d := t.TempDir()
			out := filepath.Join(d, "out")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var fl flags
			fl.progress = "never"
			opts := testOptions(out)
			opts.Report = filepath.Join(d, "r.json")
			if stage == "forward pass" || stage == "backward" {
				opts.ClockModel.Method = clockmodel.MethodCLC
			}
			opts.Progress = func(s string) {
				if strings.HasPrefix(s, stage) {
					cancel()
				}
			}
			var status int
			err := correct(ctx, io.Discard, simTrace, &fl, opts, &status, nil)
			require.ErrorIs(t, err, context.Canceled)
			ents, err := os.ReadDir(d)
			require.NoError(t, err)
			assert.Empty(t, ents, "left behind after cancelling at %q", stage)
		})
	}
}

// SIGINT and SIGTERM stop the command; whenever the signal lands, the
// output is either complete or absent and no temporary is left.
func TestSignalLeavesNoTemporaries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and simulates a larger trace")
	}
	d := t.TempDir()
	bin := filepath.Join(d, "clc-correct")
	build := exec.Command("go", "build", "-o", bin, ".")
	b, err := build.CombinedOutput()
	require.NoError(t, err, "%s", b)
	c := sim.DefaultConfig()
	c.Ranks, c.Events = 16, 1_500_000
	rec, _, err := sim.Generate(c)
	require.NoError(t, err)
	in := filepath.Join(d, "in")
	require.NoError(t, native.WriteDir(context.Background(), in, rec, nil))
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, stage := range []string{"reading", "correcting", "writing"} {
			outParent := t.TempDir()
			out := filepath.Join(outParent, "out")
			cmd := exec.Command(bin, in, "-o", out, "--progress", "always", "-q", "--format", "otf2")
			stderr, err := cmd.StderrPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			// Signal when the stage starts (or when the run ends).
			buf := make([]byte, 4096)
			var seen strings.Builder
			for !strings.Contains(seen.String(), stage) {
				n, err := stderr.Read(buf)
				seen.Write(buf[:n])
				if err != nil {
					break
				}
			}
			_ = cmd.Process.Signal(sig)
			_, _ = io.Copy(&seen, stderr)
			err = cmd.Wait()
			ents, rerr := os.ReadDir(outParent)
			require.NoError(t, rerr)
			if err == nil {
				// The signal came too late: the output must be whole.
				assert.Len(t, ents, 1, "%v at %s", sig, stage)
				assert.FileExists(t, filepath.Join(out, "traces.otf2"))
				t.Logf("%v at %s: the run had finished", sig, stage)
				continue
			}
			assert.Contains(t, seen.String(), "interrupted", "%v at %s", sig, stage)
			assert.Empty(t, ents, "%v at %s left %v", sig, stage, ents)
		}
	}
}

// testOptions are the options of a plain run into out.
func testOptions(out string) job.Options {
	return job.Options{Output: out}
}
