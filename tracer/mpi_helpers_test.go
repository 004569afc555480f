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
)

// The MPI tests build clc-trace and the programs of tests/mpi with the MPI
// compilers found on the machine, run them under mpirun with up to 4 ranks
// and check the traces. Without an MPI they skip, except under CI=true, where
// they fail: CI must not silently skip them.

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

func skipOrFail(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: this test must run; install openmpi-bin libopenmpi-dev mpich libmpich-dev gfortran)", msg)
	}
	t.Skip(msg)
}

// need returns the kit if its tools exist, else skips (or fails under CI).
func need(t testing.TB, k mpiKit) mpiKit {
	t.Helper()
	for _, tool := range []string{k.cc, k.launcher} {
		if _, err := exec.LookPath(tool); err != nil {
			skipOrFail(t, "%s not found: cannot test %s", tool, k.fl)
		}
	}
	return k
}

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
	progOnce  = map[Flavour]*sync.Once{OpenMPI: {}, MPICH: {}}
	progErr   = map[Flavour]error{}
	correct   string // path of clc-correct, "" if it does not exist yet
)

// tools builds clc-trace (and clc-correct when it exists) once.
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
		if _, err := os.Stat("../cmd/clc-correct/main.go"); err == nil {
			out, err := exec.Command("go", "build", "-o", filepath.Join(buildDir, "clc-correct"), "../cmd/clc-correct").CombinedOutput()
			if err != nil {
				buildErr = fmt.Errorf("go build clc-correct: %v\n%s", err, out)
				return
			}
			correct = filepath.Join(buildDir, "clc-correct")
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return filepath.Join(buildDir, "clc-trace")
}

var cPrograms = []string{"ring", "halo", "master", "comms", "colls", "persist", "long", "abort", "bench"}

// prog returns the path of a test program built for kit k.
func prog(t testing.TB, k mpiKit, name string) string {
	t.Helper()
	tools(t)
	progOnce[k.fl].Do(func() {
		for _, p := range cPrograms {
			out, err := exec.Command(k.cc, "-O2", "-o", filepath.Join(buildDir, p+"."+string(k.fl)), "../tests/mpi/"+p+".c").CombinedOutput()
			if err != nil {
				progErr[k.fl] = fmt.Errorf("%s %s.c: %v\n%s", k.cc, p, err, out)
				return
			}
		}
		if _, err := exec.LookPath(k.fc); err == nil {
			out, err := exec.Command(k.fc, "-O2", "-o", filepath.Join(buildDir, "fring."+string(k.fl)), "../tests/mpi/fring.f90").CombinedOutput()
			if err != nil {
				progErr[k.fl] = fmt.Errorf("%s fring.f90: %v\n%s", k.fc, err, out)
			}
		}
	})
	if progErr[k.fl] != nil {
		t.Fatal(progErr[k.fl])
	}
	p := filepath.Join(buildDir, name+"."+string(k.fl))
	if _, err := os.Stat(p); err != nil {
		skipOrFail(t, "%s not built (%s missing?)", p, k.fc)
	}
	return p
}

// mpiEnv is the environment for launchers: root may run Open MPI, and the
// library cache is private to the test run.
func mpiEnv() []string {
	env := os.Environ()
	env = append(env, "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", "CLC_CACHE_DIR="+filepath.Join(buildDir, "cache"))
	return env
}

type runResult struct {
	stdout, stderr string
	err            error
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
	if ctx.Err() != nil {
		t.Fatalf("%s %s: timed out after %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), timeout, so.String(), se.String())
	}
	return runResult{so.String(), se.String(), err}
}

// traceRun traces prog with n ranks, per rank (mpirun clc-trace ./p) or
// wrapping the launcher (clc-trace -- mpirun ./p).
func traceRun(t testing.TB, k mpiKit, wrap bool, n int, dir string, flags []string, p string, args ...string) runResult {
	t.Helper()
	ct := tools(t)
	var name string
	var argv []string
	launch := append([]string{k.launcher}, k.extra...)
	launch = append(launch, "-np", fmt.Sprint(n))
	if wrap {
		name = ct
		argv = append(append([]string{"-o", dir}, flags...), "--")
		argv = append(argv, launch...)
		argv = append(argv, p)
	} else {
		name = launch[0]
		argv = append(launch[1:], ct, "-o", dir)
		argv = append(argv, flags...)
		argv = append(argv, p)
	}
	argv = append(argv, args...)
	return run(t, 3*time.Minute, mpiEnv(), name, argv...)
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
}

func parseExpect(t testing.TB, stdout string) map[int]*expectation {
	t.Helper()
	out := map[int]*expectation{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		line := sc.Text()
		i := strings.Index(line, "CLC-EXPECT ")
		if i < 0 {
			continue
		}
		var e expectation
		if err := json.Unmarshal([]byte(line[i+len("CLC-EXPECT "):]), &e); err != nil {
			t.Fatalf("bad CLC-EXPECT line %q: %v", line, err)
		}
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
