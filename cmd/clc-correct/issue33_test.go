package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/repair/job"
	"github.com/clc-tools/clc/trace"
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

// In a 1 GiB control group (as Slurm and systemd make for a job) a 20 KB
// native trace declaring 2^25 events was read until the kernel killed it:
// clc-correct took the machine's memory for its own. Run in such a group
// (made here, if this process may: root and a writable memory cgroup), it
// refuses the trace from the declared counts, naming 80 % of the group's
// limit.
func TestControlGroupLimitIsObeyed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	group, limitFile := makeMemoryGroup(t, 1<<30)
	bin := filepath.Join(t.TempDir(), "clc-correct")
	b, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", b)
	in := filepath.Join(t.TempDir(), "bomb")
	events := writeBomb(t, in, 1)
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command("sh", "-c", `echo $$ > "$1/cgroup.procs" && exec "$2" "$3" -o "$4" -q`, "sh", group, bin, in, out)
	cmd.Env = append(os.Environ(), "GOMEMLIMIT=")
	b, err = cmd.CombinedOutput()
	t.Logf("in %s (%s = 1 GiB): %v: %s", group, limitFile, err, b)
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "refused, not run")
	assert.Equal(t, exitError, ee.ExitCode(), "an error, not killed")
	assert.Contains(t, string(b), fmt.Sprint(events)+" events")
	assert.Contains(t, string(b), "more than the 819.2 MiB this process may use")
}

// makeMemoryGroup makes a memory control group limited to limit bytes: in
// cgroup v1, a child of the process's own group; in v2, a child of the
// root. It skips the test (fails it under CI) if it cannot, and removes
// the group at the end. It returns the group's directory and the name of
// its limit file.
func makeMemoryGroup(t *testing.T, limit int64) (dir, limitFile string) {
	t.Helper()
	name := fmt.Sprintf("clc-test-%d", os.Getpid())
	var tries []string
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.SplitN(line, ":", 3); len(f) == 3 && slices.Contains(strings.Split(f[1], ","), "memory") {
				tries = append(tries, filepath.Join("/sys/fs/cgroup/memory", f[2], name), "memory.limit_in_bytes")
			}
		}
	}
	tries = append(tries, filepath.Join("/sys/fs/cgroup", name), "memory.max")
	var errs []string
	for i := 0; i < len(tries); i += 2 {
		dir, limitFile = tries[i], tries[i+1]
		if err := os.Mkdir(dir, 0o755); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, limitFile), []byte(fmt.Sprint(limit)), 0o644); err != nil {
			errs = append(errs, err.Error())
			os.Remove(dir)
			continue
		}
		t.Cleanup(func() {
			// The group's processes have exited; its memory may take a
			// moment to be released.
			for range 50 {
				if err := os.Remove(dir); err == nil || errors.Is(err, os.ErrNotExist) {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
			t.Errorf("cannot remove the control group %s", dir)
		})
		return dir, limitFile
	}
	testenv.Unavailable(t, "root and a writable memory cgroup", "cannot make a memory control group: %s", strings.Join(errs, "; "))
	return "", ""
}

// `--truth DIR/truth.json` made all of DIR an input: `-o DIR/out` and
// `--report DIR/r.json` were refused. Only the file is an input.
func TestTruthFileBesideTheOutputs(t *testing.T) {
	d := t.TempDir()
	// The true times of the shipped trace, as a truth file.
	tr, err := native.ReadDir(filepath.Join(simTrace, "truth"), nil)
	require.NoError(t, err)
	doc := map[string]any{"resolution": tr.Resolution}
	for _, l := range tr.Locations {
		doc[fmt.Sprint(l.ID)] = l.Events.Time
	}
	b, err := json.Marshal(doc)
	require.NoError(t, err)
	truth := filepath.Join(d, "truth.json")
	require.NoError(t, os.WriteFile(truth, b, 0o644))
	code, _, msg := runOut(simTrace, "--truth", truth, "-o", filepath.Join(d, "out"), "--report", filepath.Join(d, "r.json"), "-q")
	require.Equal(t, exitOK, code, msg)
	assert.FileExists(t, filepath.Join(d, "r.json"))
	assert.FileExists(t, filepath.Join(d, "out", "traces.otf2"))
	// The file itself stays an input.
	code, _, msg = runOut(simTrace, "--truth", truth, "-o", filepath.Join(d, "out2"), "--report", truth, "-q")
	assert.Equal(t, exitError, code)
	assert.Contains(t, msg, "is the input "+truth)
}

// Physically absurd offsets and parameters were taken: a stddev of 1e308
// gave NaN weights and blamed "the offset records"; offsets (0,0),(1,2^40)
// turned a 9 µs trace into 116 days with exit 0; `--latency-inter
// 2562047h` pushed times to the int64 limit and left 280 violations with
// exit 0. Each is refused, saying why and where.
func TestAbsurdOffsetsAndLatenciesAreRefused(t *testing.T) {
	offsets := func(o ...trace.ClockOffset) func(*trace.Trace) {
		return func(tr *trace.Trace) {
			tr.Properties = map[string]string{trace.PropClockDomain: "node"} // epochs weigh by stddev
			tr.Locations[1].Offsets = o
		}
	}
	for _, c := range []struct {
		name string
		edit func(*trace.Trace)
		args []string
		want []string
	}{
		{"stddev 1e308", offsets(trace.ClockOffset{Time: 0, Offset: 10, StdDev: 1e308}, trace.ClockOffset{Time: 5000, Offset: 10, StdDev: 1e308}),
			nil, []string{"clock offset record 0", "standard deviation 1e+308 ticks", "from 0 to 1s"}},
		{"drift 2^40", offsets(trace.ClockOffset{Time: 0, Offset: 0}, trace.ClockOffset{Time: 1, Offset: 1 << 40}),
			nil, []string{"clock offset records 0 and 1", "clock drift of 1.1e+18 ppm", "more than 10000 ppm"}},
		{"latency 2562047h", nil, []string{"--latency-inter", "2562047h"}, []string{"inter-node latency 2562047h0m0s is more than 1s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := traceOf(t, []int{4, 4}, nil, c.edit)
			code, _, msg := runOut(append([]string{in, "-o", filepath.Join(t.TempDir(), "o"), "-q"}, c.args...)...)
			assert.NotEqual(t, exitOK, code, msg)
			for _, w := range c.want {
				assert.Contains(t, msg, w)
			}
			if c.edit != nil {
				assert.Contains(t, msg, "input "+in)
				assert.Contains(t, msg, `location 1 (rank 1)`)
				assert.NotContains(t, msg, "the offset records are wrong")
			}
		})
	}
}

// A file whose read blocks, in place of a trace's file (`ln -s /proc/kmsg
// clc.json`), hung the run, and one Ctrl-C did nothing. Files of the
// kernel's pseudo-file systems are refused at once.
func TestPseudoFilesAreRefused(t *testing.T) {
	target := "/proc/kmsg"
	if _, err := os.Stat(target); err != nil {
		target = "/proc/self/status" // no kernel log here: another file of /proc
	}
	for _, c := range []struct{ src, file string }{
		{simTrace, "clc.json"},
		{simTrace, "events/3.clce"},
		{simTrace, "truth/clc.json"},
		{scorepTrace, "traces.otf2"},
		{scorepTrace, "traces/0.evt"},
	} {
		t.Run(filepath.Base(c.src)+" "+strings.ReplaceAll(c.file, "/", "_"), func(t *testing.T) {
			in := copyDir(t, c.src)
			p := filepath.Join(in, c.file)
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Symlink(target, p))
			out := filepath.Join(t.TempDir(), "out")
			code, msg := runReturning(t, in, "-o", out, "-q")
			assert.Equal(t, exitError, code)
			assert.Contains(t, msg, p)
			if os.Geteuid() == 0 { // anyone else may not open /proc/kmsg at all
				assert.Contains(t, msg, "pseudo-file system")
			}
			_, err := os.Stat(out)
			assert.ErrorIs(t, err, os.ErrNotExist)
			assertNoTemporaries(t, filepath.Dir(out))
		})
	}
}
