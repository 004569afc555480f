package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/repair/job"
	"github.com/clc-tools/clc/sim"
)

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// correctBinary builds clc-correct once per test run, into a directory that
// also holds the MPI helper's cache.
func correctBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "clc-correct-mpi-"); binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "clc-correct"), ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, binErr)
	return filepath.Join(binDir, "clc-correct")
}

// TestMain removes the binary and the helper cache the MPI tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// mpiRun runs clc-correct under k's launcher with np processes and
// returns its standard output and error; it fails t if the job does not
// end within the limit.
func mpiRun(t *testing.T, k testenv.MPI, np int, env []string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, k.Run, k.Args(np, correctBinary(t), args...)...)
	cmd.Env = append(append(testenv.MPIEnv(t), "CLC_CACHE_DIR="+filepath.Join(binDir, "cache"), "CLC_MPICC="+k.CC), env...)
	cmd.WaitDelay = 5 * time.Second
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "%s: timed out\nstdout:\n%s\nstderr:\n%s", cmd, so.String(), se.String())
	return so.String(), se.String(), err
}

// files reads every file under dir by its path below dir.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	}))
	return out
}

// Under a launcher of 2, 3 and 4 processes (both MPIs, on 2 cores; at 3
// also with the helper as the launcher's process, CLC_MPI_LAUNCH=helper)
// the processes correct the trace together (each reads, matches and
// corrects with the CLC its block of nodes, and writes its part of an
// OTF2 output), and the output is the single run's, file for file and byte
// for byte, with one report from process 0: a simulated native trace
// written as native, and a recording of 2 emulated nodes as OTF2 (each
// process writes its own locations' event files).
func TestUnderLauncher(t *testing.T) {
	type input struct {
		name, dir string
		args      []string
	}
	inputs := []input{
		{"sim-native", simTrace, []string{"--format", "native", "--truth", "-"}},
		{"recorded-otf2", "../../testdata/emulated/r-poll-ompi-node2-otf2", []string{"--truth", "-"}},
	}
	type launch struct {
		np   int
		mode string // CLC_MPI_LAUNCH
	}
	for _, in := range inputs {
		d := t.TempDir()
		single := filepath.Join(d, "single")
		var so bytes.Buffer
		require.Equal(t, exitOK, run(context.Background(), append([]string{in.dir, "-o", single, "--html", single + ".html"}, in.args...), &so, &so), so.String())
		page := tracetest.Page(t, single+".html")
		want := files(t, single)
		require.NotEmpty(t, want)
		for _, k := range testenv.MPIs() {
			for _, r := range []launch{{2, "child"}, {3, "child"}, {4, "child"}, {3, "helper"}} {
				t.Run(fmt.Sprintf("%s/%s/%d/%s", in.name, k.Name, r.np, r.mode), func(t *testing.T) {
					k.Need(t)
					out := filepath.Join(t.TempDir(), "out")
					args := append([]string{in.dir, "-o", out, "--progress", "never", "--html", out + ".html"}, in.args...)
					stdout, stderr, err := mpiRun(t, k, r.np, []string{"CLC_MPI_LAUNCH=" + r.mode}, args...)
					require.NoError(t, err, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
					got := files(t, out)
					assert.Equal(t, len(want), len(got), "files")
					for name, b := range want {
						assert.True(t, bytes.Equal(b, got[name]), "%s differs from the single run's", name)
					}
					assert.Equal(t, page, tracetest.Page(t, out+".html"), "HTML page")
					// The report once, with as many lines as the single run's.
					assert.Equal(t, 1, strings.Count(stdout, "  before: violations"), "the report, once:\n%s", stdout)
					assert.Equal(t, strings.Count(so.String(), "\n"), strings.Count(stdout, "\n"), "the report's lines:\n%s", stdout)
					assert.NotContains(t, stderr, "clc-correct:", "no process complains")
				})
			}
		}
	}
}

// Every trace of testdata/ (the real archives, the recordings, the
// hybrid ones, OTF2 and native) corrected under a launcher gives the
// single run's output, byte for byte, and one report (CLC_TEST_FULL, as
// .ci/run sets it): the traces take the two MPIs in turn, 3 processes
// under Open MPI and 2 under MPICH, one launch each (repair/job's
// TestDividedRunIsTheSingleRun runs every trace at P = 2, 3, 4 in one Go
// process).
func TestUnderLauncherEveryTrace(t *testing.T) {
	if !testenv.Full() {
		t.Skip("every testdata trace under both launchers: CLC_TEST_FULL=1")
	}
	var traces []string
	root := filepath.Join("..", "..", "testdata")
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "truth" {
			return filepath.SkipDir
		}
		if _, err := job.Locate(path); err == nil {
			traces = append(traces, path)
			return filepath.SkipDir
		}
		return nil
	}))
	require.GreaterOrEqual(t, len(traces), 10, "testdata's traces")
	mpis := testenv.MPIs()
	for i, in := range traces {
		name, err := filepath.Rel(root, in)
		require.NoError(t, err)
		single := filepath.Join(t.TempDir(), "single")
		var so bytes.Buffer
		require.Equal(t, exitOK, run(context.Background(), []string{in, "-o", single, "--truth", "-"}, &so, &so), so.String())
		want := files(t, single)
		{
			// MPICH's helpers poll while they wait: 3 of them and 3
			// correcting processes on 2 cores take a minute on a
			// recording of many supersteps (TestUnderLauncher runs MPICH
			// at 3 and 4 on its two traces).
			k, np := mpis[i%len(mpis)], 3
			if k.Name == "mpich" {
				np = 2
			}
			{
				t.Run(fmt.Sprintf("%s/%s/%d", name, k.Name, np), func(t *testing.T) {
					k.Need(t)
					out := filepath.Join(t.TempDir(), "out")
					stdout, stderr, err := mpiRun(t, k, np, nil, in, "-o", out, "--truth", "-", "--progress", "never")
					require.NoError(t, err, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
					got := files(t, out)
					assert.Equal(t, len(want), len(got), "files")
					for f, b := range want {
						assert.True(t, bytes.Equal(b, got[f]), "%s differs from the single run's", f)
					}
					assert.Equal(t, strings.Count(so.String(), "\n"), strings.Count(stdout, "\n"), "the report's lines:\n%s", stdout)
				})
			}
		}
	}
}

// An interrupt to the launcher while the processes correct stops every
// process (the Go processes and their MPI helpers) and writes nothing.
func TestInterruptUnderLauncher(t *testing.T) {
	d := t.TempDir()
	in := filepath.Join(d, "in")
	c := sim.DefaultConfig()
	c.Ranks, c.Events, c.Seed = 64, 3_000_000, 1
	rec, _, err := sim.Generate(c)
	require.NoError(t, err)
	require.NoError(t, native.WriteDir(context.Background(), in, rec, nil))
	rec = nil
	for _, k := range testenv.MPIs() {
		t.Run(k.Name, func(t *testing.T) {
			k.Need(t)
			const np = 3
			out := filepath.Join(t.TempDir(), "out")
			cmd := exec.Command(k.Run, k.Args(np, correctBinary(t), in, "-o", out, "--progress", "always", "-q")...)
			cmd.Env = append(testenv.MPIEnv(t), "CLC_CACHE_DIR="+filepath.Join(binDir, "cache"), "CLC_MPICC="+k.CC)
			var se testenv.Buffer
			cmd.Stderr = &se
			require.NoError(t, cmd.Start())
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Wait for process 0's progress, and for 2·np processes.
			var procs []int
			deadline := time.Now().Add(3 * time.Minute)
			for len(procs) < 2*np || !strings.Contains(se.String(), "s] ") {
				require.True(t, time.Now().Before(deadline), "no progress and %d processes\nstderr:\n%s", len(procs), se.String())
				time.Sleep(20 * time.Millisecond)
				procs = testenv.Descendants(cmd.Process.Pid)
			}
			t0 := time.Now()
			require.NoError(t, cmd.Process.Signal(os.Interrupt))
			var gone time.Duration
			for gone == 0 && time.Since(t0) < 60*time.Second {
				if len(alive(procs)) == 0 {
					gone = time.Since(t0)
				}
				time.Sleep(10 * time.Millisecond)
			}
			select {
			case err = <-done:
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				require.FailNow(t, "the launcher did not end", "stderr:\n%s", se.String())
			}
			assert.Error(t, err, "an interrupted job fails")
			assert.Empty(t, alive(procs), "processes left")
			t.Logf("%s: %d processes ended %.2f s after the interrupt, the launcher %.2f s", k.Name, len(procs), gone.Seconds(), time.Since(t0).Seconds())
			_, serr := os.Stat(out)
			assert.ErrorIs(t, serr, fs.ErrNotExist, "an interrupted run writes nothing")
		})
	}
}

// alive returns those of pids that still run.
func alive(pids []int) []int {
	var out []int
	for _, p := range pids {
		if testenv.Alive(p) {
			out = append(out, p)
		}
	}
	return out
}
