package tracer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The MPI tests build clc-trace and the programs of tests/mpi with the MPI
// compilers found on the machine, run them under mpirun with up to 4 ranks
// and check the traces. Without an MPI they skip, except under CI=true, where
// they fail (testenv): CI must not silently skip them.

// mpiKit is one MPI installation.
type mpiKit struct {
	fl       Flavour
	cc, fc   string
	launcher string
	extra    []string // launcher options (Open MPI: --oversubscribe)
}

var kits = []mpiKit{
	{fl: OpenMPI, cc: "mpicc.openmpi", fc: "mpif90.openmpi", launcher: "mpirun.openmpi", extra: []string{"--oversubscribe"}},
	{fl: MPICH, cc: "mpicc.mpich", fc: "mpif90.mpich", launcher: "mpirun.mpich"},
}

// mpiPackages are the Debian packages the MPI tests need.
const mpiPackages = "openmpi-bin libopenmpi-dev mpich libmpich-dev gfortran"

// need returns the kit if its tools exist, else skips (or fails under CI).
func need(t testing.TB, k mpiKit) mpiKit {
	t.Helper()
	for _, tool := range []string{k.cc, k.launcher} {
		testenv.Tool(t, tool, mpiPackages)
	}
	return k
}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
	progOnce  = map[Flavour]*sync.Once{OpenMPI: {}, MPICH: {}}
	progErr   = map[Flavour]error{}
	correct   string // path of clc-correct
)

// tools builds clc-trace and clc-correct once.
func tools(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "clc-trace-test-")
		if buildErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(buildDir, "clc-trace"), "../cmd/clc-trace").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build clc-trace: %v\n%s", err, out)
			return
		}
		out, err = exec.Command("go", "build", "-o", filepath.Join(buildDir, "clc-correct"), "../cmd/clc-correct").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build clc-correct: %v\n%s", err, out)
			return
		}
		correct = filepath.Join(buildDir, "clc-correct")
	})
	require.NoError(t, buildErr)
	return filepath.Join(buildDir, "clc-trace")
}

var cPrograms = []string{"ring", "halo", "master", "comms", "colls", "persist", "long", "abort", "bench", "nbr", "iorma", "poll", "unrec"}

// fortranPrograms are built from tests/mpi with the flavour's Fortran
// compiler: name, source, flags. ff08 ("use mpi_f08") is built for both:
// clc-trace records it under Open MPI and refuses it under MPICH.
var fortranPrograms = [][3]string{{"fring", "fring.f90", ""}, {"fcoll", "fcoll.F90", ""}, {"ff08", "fcoll.F90", "-DF08"}, {"fio", "fio.f90", ""}}

// prog returns the path of a test program built for kit k.
func prog(t testing.TB, k mpiKit, name string) string {
	t.Helper()
	tools(t)
	progOnce[k.fl].Do(func() {
		src := mustAbs("../tests/mpi")
		for _, p := range cPrograms {
			out, err := exec.Command(k.cc, "-O2", "-o", filepath.Join(buildDir, p+"."+string(k.fl)), filepath.Join(src, p+".c")).CombinedOutput()
			if err != nil {
				progErr[k.fl] = fmt.Errorf("%s %s.c: %v\n%s", k.cc, p, err, out)
				return
			}
		}
		if _, err := exec.LookPath(k.fc); err != nil {
			return
		}
		for _, f := range fortranPrograms {
			args := []string{"-O2", "-o", filepath.Join(buildDir, f[0]+"."+string(k.fl)), filepath.Join(src, f[1])}
			if f[2] != "" {
				args = append(args, f[2])
			}
			cmd := exec.Command(k.fc, args...)
			mods := filepath.Join(buildDir, "mod-"+f[0]+"-"+string(k.fl)) // fcoll.F90's .mod files
			if err := os.MkdirAll(mods, 0o755); err != nil {
				progErr[k.fl] = err
				return
			}
			cmd.Dir = mods
			if out, err := cmd.CombinedOutput(); err != nil {
				progErr[k.fl] = fmt.Errorf("%s %s: %v\n%s", k.fc, f[1], err, out)
				return
			}
		}
	})
	require.NoError(t, progErr[k.fl])
	p := filepath.Join(buildDir, name+"."+string(k.fl))
	if _, err := os.Stat(p); err != nil {
		testenv.Unavailable(t, mpiPackages, "%s not built (%s missing?)", p, k.fc)
	}
	return p
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

// mpiEnv is the environment for launchers: root may run Open MPI, the
// library cache is private to the test run, and every run gets a session
// directory of its own (TMPDIR, Open MPI's orte/prte_tmpdir_base), so that
// another Open MPI job on the machine cannot clash with it ("File
// exists"). The directory's path is short: Open MPI puts Unix sockets
// there, whose paths are limited to 108 bytes.
func mpiEnv(t testing.TB) []string {
	t.Helper()
	sess, err := os.MkdirTemp("", "ompi")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(sess) })
	env := os.Environ()
	env = append(env, "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", "CLC_CACHE_DIR="+filepath.Join(buildDir, "cache"),
		"TMPDIR="+sess, "OMPI_MCA_orte_tmpdir_base="+sess, "OMPI_MCA_prte_tmpdir_base="+sess)
	return env
}

type runResult struct {
	stdout, stderr string
	err            error
	// expectDir holds the test programs' CLC-EXPECT lines (traceRun).
	expectDir string
}

// assertFails checks that a run failed and that its stderr says each of
// want; what names the run in the messages.
func assertFails(t testing.TB, res runResult, what string, want ...string) {
	t.Helper()
	assert.Error(t, res.err, "%s: the run succeeded\n%s", what, res.stderr)
	for _, w := range want {
		assert.Contains(t, res.stderr, w, "%s: the error message", what)
	}
}

// run runs a command with a timeout (no test may hang).
func run(t testing.TB, timeout time.Duration, env []string, name string, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	cmd.WaitDelay = 5 * time.Second
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "%s %s: timed out after %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), timeout, so.String(), se.String())
	return runResult{stdout: so.String(), stderr: se.String(), err: err}
}

// traceRun traces prog with n ranks, per rank (mpirun clc-trace ./p) or
// wrapping the launcher (clc-trace -- mpirun ./p).
func traceRun(t testing.TB, k mpiKit, wrap bool, n int, dir string, flags []string, p string, args ...string) runResult {
	return traceRunEnv(t, k, wrap, n, dir, flags, nil, p, args...)
}

// traceArgs is the command line of a traced run of p with n ranks, per rank
// (mpirun clc-trace ./p) or wrapping the launcher (clc-trace -- mpirun
// ./p), into dir ("": clc-trace's new directory).
func traceArgs(t testing.TB, k mpiKit, wrap bool, n int, dir string, flags []string, p string, args ...string) (string, []string) {
	ct := tools(t)
	var name string
	var argv []string
	launch := append([]string{k.launcher}, k.extra...)
	launch = append(launch, "-np", fmt.Sprint(n))
	out := []string{"-o", dir}
	if dir == "" {
		out = nil
	}
	if wrap {
		name = ct
		argv = append(append(out, flags...), "--")
		argv = append(argv, launch...)
		argv = append(argv, p)
	} else {
		name = launch[0]
		argv = append(append(launch[1:], ct), out...)
		argv = append(argv, flags...)
		argv = append(argv, p)
	}
	return name, append(argv, args...)
}

// traceRunEnv is traceRun with extra environment variables.
func traceRunEnv(t testing.TB, k mpiKit, wrap bool, n int, dir string, flags, extraEnv []string, p string, args ...string) runResult {
	t.Helper()
	name, argv := traceArgs(t, k, wrap, n, dir, flags, p, args...)
	exp := t.TempDir()
	env := append(append(mpiEnv(t), "CLC_EXPECT_DIR="+exp), extraEnv...)
	res := run(t, 3*time.Minute, env, name, argv...)
	res.expectDir = exp
	return res
}

// expectation is one CLC-EXPECT line of a test program.
type expectation struct {
	Program   string         `json:"program"`
	Rank      int            `json:"rank"`
	Size      int            `json:"size"`
	Calls     map[string]int `json:"calls"`
	Sends     int            `json:"sends"`
	Recvs     int            `json:"recvs"`
	Colls     int            `json:"colls"`
	Comms     int            `json:"comms"`
	Cancelled int            `json:"cancelled"`
	// Ops and NBOps count blocking and non-blocking collectives per
	// operation (nil when the program does not count them).
	Ops   map[string]int `json:"ops"`
	NBOps map[string]int `json:"nbops"`
	// NbrMsgs counts the logical messages of neighbourhood collectives sent.
	NbrMsgs int `json:"nbr_msgs"`
	// Bytes of MPI-IO and one-sided calls per function.
	Bytes map[string]int64 `json:"bytes"`
	// CollSent and CollRecvd are the bytes collectives sent to and
	// received from other members, blocking and non-blocking together,
	// per operation (only the operations the program counts them of).
	CollSent  map[string]int64 `json:"coll_sent"`
	CollRecvd map[string]int64 `json:"coll_recvd"`
	// Regions counts the user regions entered, by name (0: one the trace
	// must not hold).
	Regions map[string]int `json:"regions"`
}

// parseExpect reads the CLC-EXPECT lines of a run: the files the programs
// wrote into res.expectDir, else the lines of its standard output.
func parseExpect(t testing.TB, res runResult) map[int]*expectation {
	t.Helper()
	text := res.stdout
	if res.expectDir != "" {
		files, _ := filepath.Glob(filepath.Join(res.expectDir, "expect.*"))
		if len(files) > 0 {
			var b strings.Builder
			for _, f := range files {
				data, err := os.ReadFile(f)
				require.NoError(t, err)
				b.Write(data)
				b.WriteByte('\n')
			}
			text = b.String()
		}
	}
	out := map[int]*expectation{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, "CLC-EXPECT ")
		if i < 0 {
			continue
		}
		var e expectation
		require.NoError(t, json.Unmarshal([]byte(line[i+len("CLC-EXPECT "):]), &e), "a CLC-EXPECT line %q", line)
		out[e.Rank] = &e
	}
	return out
}

// TestMain removes the binaries, programs and library cache the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

const timeoutCorrect = 2 * time.Minute
