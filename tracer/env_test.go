package tracer

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStrayVariablesIgnored: CLC_TRACE_* variables the user exported (the
// attack of issue 33) change nothing: the trace goes into -o and holds
// every event the program says it recorded (CLC_TRACE_GROUPS=garbage once
// kept 8 of 462), no clock is emulated without --emulate-clock, and the
// file CLC_TRACE_DIR_NOTE names is not touched. Per rank under Open MPI,
// wrapping the launcher under MPICH.
func TestStrayVariablesIgnored(t *testing.T) {
	for i, k := range kits {
		t.Run(string(k.fl), func(t *testing.T) {
			k := need(t, k)
			top := t.TempDir()
			dir, elsewhere, note := filepath.Join(top, "trace"), filepath.Join(top, "new-"), filepath.Join(top, "thesis.txt")
			require.NoError(t, os.WriteFile(note, []byte("my thesis"), 0o644))
			stray := []string{"CLC_TRACE_GROUPS=garbage", "CLC_TRACE_EMULATE=on", "CLC_TRACE_NEWDIR=" + elsewhere,
				"CLC_TRACE_DIR_NOTE=" + note, "CLC_TRACE_POLLS=all", "OMPI_MCA_mca_base_env_list=CLC_TRACE_GROUPS=1"}
			res := traceRunEnv(t, k, i == 1, 2, dir, nil, stray, prog(t, k, "ring"), "20")
			require.NoError(t, res.err, "traced run with stray variables\n%s", res.stderr)
			assert.Contains(t, res.stderr, "trace written to "+dir, "clc-trace's word")
			exp := parseExpect(t, res)
			require.Len(t, exp, 2, "CLC-EXPECT lines")
			tr, got := readCounts(t, dir)
			checkCounts(t, "with stray CLC_TRACE_* variables", got, exp)
			assert.Equal(t, "collapse", tr.Properties["clc.polls"], "CLC_TRACE_POLLS=all was obeyed")
			_, err := os.Stat(filepath.Join(dir, "truth"))
			assert.ErrorIs(t, err, os.ErrNotExist, "CLC_TRACE_EMULATE emulated clocks without --emulate-clock")
			b, err := os.ReadFile(note)
			require.NoError(t, err)
			assert.Equal(t, "my thesis", string(b), "CLC_TRACE_DIR_NOTE: the user's file was overwritten")
			made, _ := filepath.Glob(elsewhere + "*")
			assert.Empty(t, made, "CLC_TRACE_NEWDIR made a directory beside -o")
		})
	}
}

// TestLibraryRefusesMalformedVariables: the PMPI library, preloaded by
// hand with a malformed CLC_TRACE_* value, says so and records nothing,
// rather than record silently less than asked.
func TestLibraryRefusesMalformedVariables(t *testing.T) {
	k := need(t, kits[0])
	ct, p := tools(t), prog(t, k, "ring")
	env := mpiEnv(t)
	res := run(t, timeoutCorrect, env, ct, "--build-only", "--mpi", string(k.fl))
	require.NoError(t, res.err, "--build-only\n%s", res.stderr)
	lib := strings.TrimSpace(res.stdout)
	for _, v := range []string{"CLC_TRACE_GROUPS=garbage", "CLC_TRACE_GROUPS=12abc", "CLC_TRACE_EMULATE=on", "CLC_TRACE_FLUSH=1,x",
		"CLC_TRACE_BUFFER=12", "CLC_TRACE_SYNC=star", "CLC_TRACE_SYNC_ROUNDS=1,2", "CLC_TRACE_POLLS=some", "CLC_TRACE_FILTER=X foo"} {
		dir := filepath.Join(t.TempDir(), "trace")
		name := v[:strings.IndexByte(v, '=')]
		e := append(append([]string{}, env...), v, "CLC_TRACE_DIR="+dir, "CLC_TRACE_FLAVOUR=openmpi", "LD_PRELOAD="+lib)
		res := run(t, timeoutCorrect, e, k.launcher, append(append([]string{}, k.extra...),
			"-x", "LD_PRELOAD", "-x", "CLC_TRACE_DIR", "-x", "CLC_TRACE_FLAVOUR", "-x", name, "-np", "2", p, "5")...)
		require.NoError(t, res.err, "%s: the program's run\n%s", v, res.stderr)
		assert.Contains(t, res.stderr, name+"=", "%s: the library does not say which variable", v)
		assert.Contains(t, res.stderr, "malformed", "%s: the library does not refuse it", v)
		_, err := os.Stat(dir)
		assert.ErrorIs(t, err, os.ErrNotExist, "%s: the library recorded a trace", v)
	}
}

// TestNoTraceFails: a program that ends well but leaves no trace makes
// clc-trace exit with status 1 and say why, never "trace written" (issue
// 33): the output directory fills up (a 128 KB tmpfs), or is removed
// during the run; and a missing parent of -o is refused, not made and
// left behind when the program fails.
func TestNoTraceFails(t *testing.T) {
	k := need(t, kits[0])
	ct := tools(t)
	env := mpiEnv(t)
	t.Run("full-disk", func(t *testing.T) {
		small := t.TempDir()
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", small).CombinedOutput(); err != nil {
			t.Skipf("cannot mount a small tmpfs (not root?): %v %s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("umount", small).Run() })
		res := run(t, timeoutCorrect, env, k.launcher, append(append([]string{}, k.extra...), "-np", "2", ct, "-o", filepath.Join(small, "t"),
			prog(t, k, "ring"), "3000")...)
		assertFails(t, res, "a full disk", "no trace")
		assert.NotContains(t, res.stderr, "trace written", "a full disk")
	})
	t.Run("output-removed", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "t")
		cmd := exec.Command(k.launcher, append(append([]string{}, k.extra...), "-np", "2", ct, "-o", dir, prog(t, k, "long"), "6")...)
		cmd.Env = env
		var se strings.Builder
		cmd.Stderr = &se
		require.NoError(t, cmd.Start())
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		removed := false
		for !removed {
			select {
			case err := <-done:
				require.FailNow(t, "the run ended before its trace directory could be removed", "%v\n%s", err, se.String())
			case <-time.After(50 * time.Millisecond):
				if _, err := os.Stat(filepath.Join(dir, MetaDir, "1.txt")); err == nil {
					require.NoError(t, os.RemoveAll(dir))
					removed = true
				}
			}
		}
		var err error
		select {
		case err = <-done:
		case <-time.After(3 * time.Minute):
			_ = cmd.Process.Kill()
			require.FailNow(t, "the run did not end within 3 minutes", "%s", se.String())
		}
		assertFails(t, runResult{stderr: se.String(), err: err}, "-o removed during the run", "no trace", "removed during the run")
		assert.NotContains(t, se.String(), "trace written", "-o removed during the run")
	})
	t.Run("missing-parent", func(t *testing.T) {
		top := t.TempDir()
		res := run(t, timeoutCorrect, env, ct, "-o", filepath.Join(top, "g", "a", "b", "out"), "--", k.launcher, "-np", "1", "/bin/false")
		assertFails(t, res, "-o with missing parents", "does not exist")
		_, err := os.Stat(filepath.Join(top, "g"))
		assert.ErrorIs(t, err, os.ErrNotExist, "the missing parents of -o were made and left behind")
	})
}
