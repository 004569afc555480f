package tracer

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A dying run: how the program dies (tests/mpi/abort.c's argument, or
// "interrupt": the test interrupts the launcher, or clc-trace wrapping it,
// with SIGINT once every rank waits), the launch style and the format.
type dyingCase struct {
	how  string
	wrap bool
	otf2 bool
	// noFlush turns the periodic flush off (--flush 0,0): only the crash
	// handling and the tails keep the events.
	noFlush bool
}

func (c dyingCase) name() string {
	n := c.how + "-per-rank"
	if c.wrap {
		n = c.how + "-wrap"
	}
	if c.otf2 {
		n += "-otf2"
	}
	if c.noFlush {
		n += "-noflush"
	}
	return n
}

// dyingCases are the runs TestDyingRunKeepsItsEvents makes of one MPI:
// every way of dying once, the launch style alternating between the two
// MPIs (so each MPI sees each way and each style), two in OTF2; with
// CLC_TEST_FULL=1 every way in both styles and both formats.
func dyingCases(k mpiKit) []dyingCase {
	hows := []string{"segv", "sigabrt", "kill", "term", "abort", "exit", "return", "interrupt"}
	var out []dyingCase
	if testenv.Full() {
		for _, h := range append(hows, "bus", "hup") {
			for _, wrap := range []bool{false, true} {
				for _, otf2 := range []bool{false, true} {
					out = append(out, dyingCase{h, wrap, otf2, !wrap})
				}
			}
		}
		return out
	}
	for i, h := range hows {
		wrap := (i%2 == 0) == (k.fl == OpenMPI)
		out = append(out, dyingCase{how: h, wrap: wrap, otf2: h == "abort" || h == "segv", noFlush: i%3 != 0})
	}
	return out
}

// TestDyingRunKeepsItsEvents: a program that dies mid-run — a rank
// crashes (SIGSEGV, SIGBUS, abort()), is killed (SIGKILL, SIGTERM,
// SIGHUP), calls MPI_Abort
// or exits without MPI_Finalize, every rank returns without it, or the
// user interrupts the launcher — with the default buffer, which holds
// every event of the run (about 4,000 per rank), so that nothing reaches
// the disk unless the tracer writes it when the process dies (or its
// writer thread's periodic flush). After the
// run, and clc-trace --convert when clc-trace was killed too (as its
// message says), the trace reads, says it is incomplete, and every rank
// holds at least 90 % of the events it recorded before the end (what the
// program says it did: CLC-EXPECT), in the truth too; clc-correct reads it
// and says it is incomplete.
func TestDyingRunKeepsItsEvents(t *testing.T) {
	for _, k := range kits {
		t.Run(string(k.fl), func(t *testing.T) {
			k := need(t, k)
			p := prog(t, k, "abort")
			for _, c := range dyingCases(k) {
				t.Run(c.name(), func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), "trace")
					flags := []string{"--emulate-clock", "on"}
					if c.otf2 {
						flags = append(flags, "--format", "otf2")
					}
					if c.noFlush {
						flags = append(flags, "--flush", "0,0")
					}
					const ranks, iters = 4, 1000
					var res runResult
					if c.how == "interrupt" {
						res = interruptedRun(t, k, c.wrap, ranks, dir, flags, p, iters)
					} else {
						res = traceRun(t, k, c.wrap, ranks, dir, flags, p, c.how, fmt.Sprint(iters))
					}
					exp := parseExpect(t, res)
					require.Len(t, exp, ranks, "ranks that said what they did\n%s", res.stderr)
					if res.err == nil && c.how == "hup" {
						// UCX (MPICH's device here) handles SIGHUP itself and goes on:
						// the library hands it the signal, the run ends well
						t.Logf("SIGHUP did not end the run (the MPI library handles it)")
						checkKept(t, readTrace(t, dir, map[bool]string{true: "otf2", false: "native"}[c.otf2]), exp, ranks)
						return
					}
					if c.how != "return" && c.how != "exit" {
						assert.Error(t, res.err, "the run succeeded, but it died (%s)\n%s", c.how, res.stderr)
					}
					tr := finishedTrace(t, dir, c.otf2, res)
					checkKept(t, tr, exp, ranks)
					if truth, err := native.ReadDir(filepath.Join(dir, "truth"), nil); assert.NoError(t, err, "truth of a dying run") {
						for r := range truth.Locations {
							assert.Equal(t, truth.Locations[r].Events.Len(), tr.Locations[r].Events.Len(), "rank %d: events in the trace against the truth", r)
						}
					}
					if m, err := matchMessages(tr); assert.NoError(t, err, "matching a dying run's trace") {
						t.Logf("%d messages matched, %d sends and %d receives unmatched (cut off)", len(m.pairs), m.unmatchedSends, m.unmatchedRecvs)
					}
					in := dir
					if c.otf2 {
						in = filepath.Join(dir, "traces.otf2")
					}
					cr := run(t, timeoutCorrect, os.Environ(), correct, in, "-o", filepath.Join(t.TempDir(), "fixed"))
					out := strings.ToLower(cr.stdout + cr.stderr)
					assert.True(t, strings.Contains(out, "truncat") || strings.Contains(out, "incomplete"),
						"clc-correct does not say the trace is incomplete:\n%s%s", cr.stdout, cr.stderr)
				})
			}
		})
	}
}

// interruptedRun starts the abort program in mode "hang" (every rank waits
// after its iterations) and, once every rank has said what it did,
// interrupts the launcher (per rank) or clc-trace (wrapping it), as a user
// at a terminal does.
func interruptedRun(t *testing.T, k mpiKit, wrap bool, n int, dir string, flags []string, p string, iters int) runResult {
	t.Helper()
	exp := t.TempDir()
	name, argv := traceArgs(t, k, wrap, n, dir, flags, p, "hang", fmt.Sprint(iters))
	cmd := exec.Command(name, argv...)
	cmd.Env = append(mpiEnv(t), "CLC_EXPECT_DIR="+exp)
	var so, se strings.Builder
	cmd.Stdout, cmd.Stderr = &so, &se
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.After(3 * time.Minute)
	for sent := false; ; {
		select {
		case err := <-done:
			return runResult{stdout: so.String(), stderr: se.String(), err: err, expectDir: exp}
		case <-deadline:
			_ = cmd.Process.Kill()
			require.FailNow(t, "the run did not end within 3 minutes", "%s\n%s", name, se.String())
		case <-time.After(100 * time.Millisecond):
			if !sent && wholeExpects(exp) == n {
				_ = cmd.Process.Signal(syscall.SIGINT)
				sent = true
			}
		}
	}
}

// wholeExpects counts the CLC-EXPECT files in dir that are whole (end in a
// newline). The programs write them under another name and rename them
// (tests/mpi/expect.h), so a file is whole once it is there; the test
// does not rely on that alone: a rank interrupted while writing its file
// (seen in CI: MPICH, per rank) would leave the test without its count.
func wholeExpects(dir string) int {
	files, _ := filepath.Glob(filepath.Join(dir, "expect.*"))
	n := 0
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			n++
		}
	}
	return n
}

// finishedTrace reads the trace of a dying run. When clc-trace died with
// the program (launchers kill every process of the job), the trace is
// finished with clc-trace --convert, as its messages say.
func finishedTrace(t *testing.T, dir string, otf2 bool, res runResult) *trace.Trace {
	t.Helper()
	if otf2 {
		return abortedOTF2(t, dir, res)
	}
	tails, _ := filepath.Glob(filepath.Join(dir, MetaDir, "*"+TailExt))
	if _, err := os.Stat(filepath.Join(dir, "clc.json")); err != nil || len(tails) > 0 {
		t.Logf("clc-trace did not finish the trace (manifest: %v, %d tails left): --convert", err, len(tails))
		cv := run(t, timeoutCorrect, mpiEnv(t), tools(t), "--convert", dir)
		require.NoError(t, cv.err, "clc-trace --convert %s\n%s", dir, cv.stderr)
		t.Logf("--convert: %s", cv.stderr)
	}
	tr, err := native.ReadDir(dir, nil)
	require.NoError(t, err, "the trace of a dying run does not read\nstderr:\n%s", res.stderr)
	require.Equal(t, "true", tr.Properties[trace.PropIncomplete], "the manifest says incomplete; properties %v", tr.Properties)
	return tr
}

// checkKept: every rank holds at least 90 % of the events it recorded
// before the run ended — its calls' enter and leave, the message of each
// send and receive, the collective's begin and end (CLC-EXPECT) — and
// the MPI_Init offset measurement.
func checkKept(t *testing.T, tr *trace.Trace, exp map[int]*expectation, ranks int) {
	t.Helper()
	require.Len(t, tr.Locations, ranks, "locations")
	var kept, want int
	for r, l := range tr.Locations {
		e := exp[r]
		w := e.Sends + e.Recvs + 2*e.Colls
		for _, n := range e.Calls {
			w += 2 * n
		}
		got := l.Events.Len()
		kept += min(got, w)
		want += w
		assert.GreaterOrEqual(t, float64(got), 0.9*float64(w), "rank %d: events kept of the %d it recorded before the end (%.1f %%)", r, w, 100*float64(got)/float64(w))
		assert.NotEmpty(t, l.Offsets, "rank %d: the MPI_Init offset measurement", r)
	}
	t.Logf("%d of %d events kept (%.2f %%)", kept, want, 100*float64(kept)/float64(want))
}

// abortedOTF2 reads the OTF2 archive of an aborted run: clc-trace wrote it
// after the run, or, when the launcher killed every clc-trace with the
// program (MPICH's hydra after MPI_Abort, per rank), the native trace is
// left in DIR/clc-native with a clear message, and clc-trace --convert
// writes the archive; when the kill came after the archive was placed but
// before the truth was moved beside it, --convert finishes that. Either
// way the reference reader accepts it and it says it is incomplete.
func abortedOTF2(t *testing.T, dir string, res runResult) *trace.Trace {
	t.Helper()
	_, archived := os.Stat(filepath.Join(dir, "traces.otf2"))
	if _, left := os.Stat(filepath.Join(dir, NativeSubdir)); archived == nil && left == nil {
		cv := run(t, timeoutCorrect, mpiEnv(t), tools(t), "--convert", dir)
		require.NoError(t, cv.err, "clc-trace --convert %s (the archive was placed, the native trace left)\n%s", dir, cv.stderr)
		t.Logf("the archive was placed and the native trace left beside it (a kill, or a finisher not yet done when the launcher returned): --convert finished: %s", cv.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "traces.otf2")); err != nil {
		_, err := os.Stat(filepath.Join(dir, NativeSubdir, "clc.json"))
		require.NoError(t, err, "an aborted OTF2 run left neither an archive nor a native trace with a manifest in %s\n%s", dir, res.stderr)
		if !strings.Contains(res.stderr, "--convert") {
			// The clc-trace that wrote the manifest prints how to convert
			// it right after; the launcher's kill can come in between (a
			// timing the test cannot control), so only the trace left
			// behind is asserted.
			t.Logf("the launcher killed clc-trace before its message on --convert:\n%s", res.stderr)
		}
		cv := run(t, timeoutCorrect, mpiEnv(t), tools(t), "--convert", dir)
		require.NoError(t, cv.err, "clc-trace --convert %s\n%s", dir, cv.stderr)
		t.Logf("the launcher killed clc-trace: --convert wrote the archive: %s", cv.stderr)
	}
	tr := readTrace(t, dir, "otf2")
	require.Equal(t, "true", tr.Properties["CLC::INCOMPLETE"], "the archive says incomplete; properties %v", tr.Properties)
	out, err := exec.Command("otf2-print", filepath.Join(dir, "traces.otf2")).CombinedOutput()
	assert.NoError(t, err, "otf2-print of the archive of an aborted run\n%.2000s", out)
	return tr
}

// TestClearErrors checks clc-trace's errors for a missing MPI compiler, a
// program of the wrong MPI flavour, an unwritable or occupied output
// directory.
func TestClearErrors(t *testing.T) {
	ompi := need(t, kits[0])
	mpich := need(t, kits[1])
	ct := tools(t)
	po, pm := prog(t, ompi, "ring"), prog(t, mpich, "ring")
	pm1 := prog(t, ompi, "master") // runs on one rank (ring would Ssend to itself)
	env := mpiEnv(t)
	t.Run("no-mpicc", func(t *testing.T) {
		empty := t.TempDir()
		e := append(append([]string{}, env...), "PATH="+empty, "CLC_CACHE_DIR="+t.TempDir())
		res := run(t, timeoutCorrect, e, ct, "-o", filepath.Join(t.TempDir(), "x"), po)
		assertFails(t, res, "without mpicc", "no MPI C compiler for openmpi", "--mpicc")
	})
	t.Run("wrong-flavour-launcher", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(t.TempDir(), "x"), "--", ompi.launcher, "--oversubscribe", "-np", "2", pm)
		assertFails(t, res, "the launcher of the other flavour", "wrong MPI flavour", "links MPICH")
	})
	t.Run("wrong-flavour-flag", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(t.TempDir(), "x"), "--mpi", "mpich", po)
		assertFails(t, res, "--mpi of the other flavour", "wrong MPI flavour")
	})
	t.Run("wrong-flavour-rank", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ompi.launcher, "--oversubscribe", "-np", "2", ct, "-o", filepath.Join(t.TempDir(), "x"), pm)
		assertFails(t, res, "ranks of the other flavour", "wrong MPI flavour")
	})
	t.Run("unwritable-output", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		require.NoError(t, os.WriteFile(file, nil, 0o644))
		res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(file, "trace"), po)
		assertFails(t, res, "an output inside a file", "not writable")
	})
	t.Run("occupied-output", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "trace")
		res := run(t, timeoutCorrect, env, ct, "-q", "-o", dir, pm1, "1")
		require.NoError(t, res.err, "singleton run\n%s", res.stderr)
		_, err := native.ReadDir(dir, nil)
		require.NoError(t, err, "singleton trace")
		res = run(t, timeoutCorrect, env, ct, "-o", dir, pm1, "1")
		assertFails(t, res, "an output that holds a trace", "already holds a trace")
		res = run(t, timeoutCorrect, env, ct, "-q", "--force", "-o", dir, pm1, "1")
		assert.NoError(t, res.err, "--force\n%s", res.stderr)
	})
	t.Run("force-keeps-what-is-not-a-trace", func(t *testing.T) {
		// Names that look like a trace's, contents that are not one
		// (issue 26): --force refuses, and nothing is removed.
		dir := filepath.Join(t.TempDir(), "trace")
		for f, b := range map[string]string{"clc.json": "my notes", "events/0.clce": "my data"} {
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte(b), 0o644))
		}
		res := run(t, timeoutCorrect, env, ct, "-q", "--force", "-o", dir, pm1, "1")
		assertFails(t, res, "--force on a directory that holds no trace", "refusing to replace")
		b, err := os.ReadFile(filepath.Join(dir, "events", "0.clce"))
		if assert.NoError(t, err, "--force touched a directory that holds no trace") {
			assert.Equal(t, "my data", string(b), "--force touched a directory that holds no trace")
		}
	})
	t.Run("not-an-mpi-program", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(t.TempDir(), "x"), "/bin/true")
		assertFails(t, res, "a program without MPI", "cannot tell the MPI flavour")
	})
	t.Run("bad-flags", func(t *testing.T) {
		for _, c := range [][2]string{{"--format=vtf", "--format"}, {"--polls=some", "--polls"}, {"--mpi-groups=p2p,bogus", "bogus"},
			{"--mpi-groups=spawn", "spawn"}} {
			res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(t.TempDir(), "x"), c[0], po)
			assertFails(t, res, c[0], c[1])
		}
	})
	t.Run("convert-nothing", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ct, "--convert", t.TempDir())
		assertFails(t, res, "--convert of a directory without a trace", NativeSubdir)
	})
}

// TestCrashStoryToldOnce: per rank, when one rank dies (Open MPI: it
// crashes and mpirun kills the others) or every rank returns without
// MPI_Finalize (MPICH: hydra kills every clc-trace once the first one
// exits), the clc-trace processes finish the trace themselves, one of
// them says once what the ranks kept, and its count is the trace's
// (issue 33: "finishing the trace in D: open D/.clc-meta/3.tail: no such
// file", then 8,006 and 32,024 events kept; under MPICH nothing said and
// 144 events left in the buffers). Two runs each: the old finishers
// raced differently each time.
func TestCrashStoryToldOnce(t *testing.T) {
	kept := regexp.MustCompile(`([0-9,]+) events kept`)
	for _, c := range []struct {
		k   mpiKit
		how string
	}{{kits[0], "segv"}, {kits[1], "return"}} {
		t.Run(string(c.k.fl)+"-"+c.how, func(t *testing.T) {
			k := need(t, c.k)
			p := prog(t, k, "abort")
			for i := 0; i < 2; i++ {
				dir := filepath.Join(t.TempDir(), "trace")
				res := traceRun(t, k, false, 4, dir, []string{"--flush", "0,0"}, p, c.how, "1000")
				var told []string
				for _, l := range strings.Split(res.stderr, "\n") {
					if strings.Contains(l, "events kept") {
						told = append(told, l)
					}
				}
				assert.NotContains(t, res.stderr, "finishing the trace in", "run %d: a finisher failed", i)
				require.Len(t, told, 1, "run %d: what the ranks kept, said once\n%s", i, res.stderr)
				tails, _ := filepath.Glob(filepath.Join(dir, MetaDir, "*"+TailExt))
				assert.Empty(t, tails, "run %d: buffers left unwritten\n%s", i, res.stderr)
				tr, err := native.ReadDir(dir, nil)
				require.NoError(t, err, "run %d: the trace\n%s", i, res.stderr)
				assert.Equal(t, "true", tr.Properties[trace.PropIncomplete], "run %d: incomplete", i)
				m := kept.FindStringSubmatch(told[0])
				require.NotNil(t, m, "run %d: %s", i, told[0])
				assert.Equal(t, Thousands(int64(tr.NumEvents())), m[1], "run %d: the count said against the trace's\n%s", i, told[0])
				checkKept(t, tr, parseExpect(t, res), 4)
			}
		})
	}
}
