package tracer

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/trace"
)

// TestAbortedRunLeavesReadableTrace: a program whose last rank calls
// MPI_Abort, kills itself or crashes mid-run leaves a trace whose manifest
// says "complete": false and whose flushed blocks read.
func TestAbortedRunLeavesReadableTrace(t *testing.T) {
	for _, k := range kits {
		t.Run(string(k.fl), func(t *testing.T) {
			k := need(t, k)
			p := prog(t, k, "abort")
			for _, c := range []struct {
				how  string
				wrap bool
				otf2 bool
			}{{"abort", true, false}, {"kill", true, false}, {"segv", false, false}, {"abort", false, false},
				{"abort", true, true}, {"kill", false, true}, {"abort", false, true}} {
				name := c.how + "-per-rank"
				if c.wrap {
					name = c.how + "-wrap"
				}
				flags := []string{"--buffer", "4KiB", "--emulate-clock", "on"}
				if c.otf2 {
					name += "-otf2"
					flags = append(flags, "--format", "otf2")
				}
				t.Run(name, func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), "trace")
					res := traceRun(t, k, c.wrap, 3, dir, flags, p, c.how, "3000")
					if res.err == nil {
						t.Fatalf("the run succeeded, but one rank died\n%s", res.stderr)
					}
					var tr *trace.Trace
					if c.otf2 {
						tr = abortedOTF2(t, dir, res)
					} else {
						var err error
						if tr, err = native.ReadDir(dir, nil); err != nil {
							t.Fatalf("the trace of an aborted run does not read: %v\nstderr:\n%s", err, res.stderr)
						}
						if tr.Properties[native.PropIncomplete] != "true" {
							t.Fatalf("manifest does not say incomplete; properties %v", tr.Properties)
						}
					}
					if len(tr.Locations) != 3 {
						t.Fatalf("%d locations, want 3", len(tr.Locations))
					}
					for r, l := range tr.Locations {
						// 3000 Sendrecv calls make ~12000 events per rank; with 4 KiB
						// blocks, whole blocks of most of them must be on disk
						if l.Events.Len() < 1000 {
							t.Errorf("rank %d: only %d events read", r, l.Events.Len())
						}
						if len(l.Offsets) == 0 {
							t.Errorf("rank %d: the MPI_Init offset measurement is missing", r)
						}
					}
					if _, err := native.ReadDir(filepath.Join(dir, "truth"), nil); err != nil {
						t.Errorf("truth of an aborted run: %v", err)
					}
					if m, err := matchMessages(tr); err != nil {
						t.Errorf("matching an aborted trace: %v", err)
					} else {
						t.Logf("%d events read, %d messages matched, %d sends and %d receives unmatched (cut off)", tr.NumEvents(), len(m.pairs), m.unmatchedSends, m.unmatchedRecvs)
					}
					if correct != "" {
						in := dir
						if c.otf2 {
							in = filepath.Join(dir, "traces.otf2")
						}
						res := run(t, timeoutCorrect, os.Environ(), correct, in, "-o", filepath.Join(t.TempDir(), "fixed"))
						if !strings.Contains(strings.ToLower(res.stdout+res.stderr), "truncat") && !strings.Contains(strings.ToLower(res.stdout+res.stderr), "incomplete") {
							t.Errorf("clc-correct does not say the trace is truncated:\n%s%s", res.stdout, res.stderr)
						}
					}
				})
			}
		})
	}
}

// abortedOTF2 reads the OTF2 archive of an aborted run: clc-trace wrote it
// after the run, or, when the launcher killed every clc-trace with the
// program (MPICH's hydra after MPI_Abort, per rank), the native trace is
// left in DIR/clc-native with a clear message, and clc-trace --convert
// writes the archive. Either way the reference reader accepts it and it
// says it is incomplete.
func abortedOTF2(t *testing.T, dir string, res runResult) *trace.Trace {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "traces.otf2")); err != nil {
		if _, err := os.Stat(filepath.Join(dir, NativeSubdir, "clc.json")); err != nil {
			t.Fatalf("an aborted OTF2 run left neither an archive nor a native trace with a manifest in %s\n%s", dir, res.stderr)
		}
		if !strings.Contains(res.stderr, "--convert") {
			// The clc-trace that wrote the manifest prints how to convert
			// it right after; the launcher's kill can come in between (a
			// timing the test cannot control), so only the trace left
			// behind is asserted.
			t.Logf("the launcher killed clc-trace before its message on --convert:\n%s", res.stderr)
		}
		cv := run(t, timeoutCorrect, mpiEnv(t), tools(t), "--convert", dir)
		if cv.err != nil {
			t.Fatalf("clc-trace --convert %s: %v\n%s", dir, cv.err, cv.stderr)
		}
		t.Logf("the launcher killed clc-trace: --convert wrote the archive")
	}
	tr := readTrace(t, dir, "otf2")
	if tr.Properties["CLC::INCOMPLETE"] != "true" {
		t.Fatalf("the archive does not say incomplete; properties %v", tr.Properties)
	}
	if out, err := exec.Command("otf2-print", filepath.Join(dir, "traces.otf2")).CombinedOutput(); err != nil {
		t.Errorf("otf2-print rejects the archive of an aborted run: %v\n%.2000s", err, out)
	}
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
		if res.err == nil || !strings.Contains(res.stderr, "no MPI C compiler for openmpi") || !strings.Contains(res.stderr, "--mpicc") {
			t.Errorf("want a clear 'no MPI C compiler' error, got %v:\n%s", res.err, res.stderr)
		}
	})
	t.Run("wrong-flavour-launcher", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(t.TempDir(), "x"), "--", ompi.launcher, "--oversubscribe", "-np", "2", pm)
		if res.err == nil || !strings.Contains(res.stderr, "wrong MPI flavour") || !strings.Contains(res.stderr, "links MPICH") {
			t.Errorf("want a 'wrong MPI flavour' error, got %v:\n%s", res.err, res.stderr)
		}
	})
	t.Run("wrong-flavour-flag", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(t.TempDir(), "x"), "--mpi", "mpich", po)
		if res.err == nil || !strings.Contains(res.stderr, "wrong MPI flavour") {
			t.Errorf("want a 'wrong MPI flavour' error, got %v:\n%s", res.err, res.stderr)
		}
	})
	t.Run("wrong-flavour-rank", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ompi.launcher, "--oversubscribe", "-np", "2", ct, "-o", filepath.Join(t.TempDir(), "x"), pm)
		if res.err == nil || !strings.Contains(res.stderr, "wrong MPI flavour") {
			t.Errorf("want a 'wrong MPI flavour' error, got %v:\n%s", res.err, res.stderr)
		}
	})
	t.Run("unwritable-output", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(file, "trace"), po)
		if res.err == nil || !strings.Contains(res.stderr, "not writable") {
			t.Errorf("want a 'not writable' error, got %v:\n%s", res.err, res.stderr)
		}
	})
	t.Run("occupied-output", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "trace")
		if res := run(t, timeoutCorrect, env, ct, "-q", "-o", dir, pm1, "1"); res.err != nil {
			t.Fatalf("singleton run: %v\n%s", res.err, res.stderr)
		}
		if _, err := native.ReadDir(dir, nil); err != nil {
			t.Fatalf("singleton trace: %v", err)
		}
		res := run(t, timeoutCorrect, env, ct, "-o", dir, pm1, "1")
		if res.err == nil || !strings.Contains(res.stderr, "already holds a trace") {
			t.Errorf("want an 'already holds a trace' error, got %v:\n%s", res.err, res.stderr)
		}
		if res := run(t, timeoutCorrect, env, ct, "-q", "--force", "-o", dir, pm1, "1"); res.err != nil {
			t.Errorf("--force: %v\n%s", res.err, res.stderr)
		}
	})
	t.Run("not-an-mpi-program", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(t.TempDir(), "x"), "/bin/true")
		if res.err == nil || !strings.Contains(res.stderr, "cannot tell the MPI flavour") {
			t.Errorf("want a 'cannot tell the MPI flavour' error, got %v:\n%s", res.err, res.stderr)
		}
	})
	t.Run("bad-flags", func(t *testing.T) {
		for _, c := range [][2]string{{"--format=vtf", "--format"}, {"--polls=some", "--polls"}, {"--mpi-groups=p2p,bogus", "bogus"},
			{"--mpi-groups=spawn", "spawn"}} {
			res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(t.TempDir(), "x"), c[0], po)
			if res.err == nil || !strings.Contains(res.stderr, c[1]) {
				t.Errorf("%s: want an error naming %s, got %v:\n%s", c[0], c[1], res.err, res.stderr)
			}
		}
	})
	t.Run("convert-nothing", func(t *testing.T) {
		res := run(t, timeoutCorrect, env, ct, "--convert", t.TempDir())
		if res.err == nil || !strings.Contains(res.stderr, NativeSubdir) {
			t.Errorf("--convert of a directory without a trace: want an error naming %s, got %v:\n%s", NativeSubdir, res.err, res.stderr)
		}
	})
}
