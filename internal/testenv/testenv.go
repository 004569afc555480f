// Package testenv answers the questions every test that leaves the process
// asks: is an external tool here, and was the exhaustive suite asked for;
// and it rewrites files the way a test that changes one again and again must.
//
// Outside CI a test whose tool is missing skips with a message naming the
// package to install; under CI=true it fails, so CI never passes by skipping.
// Exhaustive sweeps (mutation sweeps, every MPI launch style, large traces,
// benchmarks' comparisons) run only when CLC_TEST_FULL=1, which .ci/run sets;
// the default `go test ./...` runs a representative subset of each.
package testenv

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// FullEnv is the environment variable that asks for the exhaustive tests.
const FullEnv = "CLC_TEST_FULL"

// CI reports whether the tests run under CI (CI=true).
func CI() bool { return os.Getenv("CI") == "true" }

// Full reports whether the exhaustive tests were asked for (CLC_TEST_FULL=1).
func Full() bool { return os.Getenv(FullEnv) == "1" }

// NeedFull skips t unless the exhaustive tests were asked for.
func NeedFull(t testing.TB) {
	t.Helper()
	if !Full() {
		t.Skipf("exhaustive test: run with %s=1 (as .ci/run does)", FullEnv)
	}
}

// Unavailable skips t with the message, or fails it under CI=true, where a
// test must not pass by skipping. install names what provides the missing
// piece (Debian packages).
func Unavailable(t testing.TB, install, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if CI() {
		t.Fatalf("%s (CI=true: this test must run; install %s)", msg, install)
	}
	t.Skipf("%s (install %s to run it)", msg, install)
}

// Tool returns the path of an external program, or skips t (fails under CI)
// when it is not installed. install names the Debian packages that provide it.
func Tool(t testing.TB, name, install string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Unavailable(t, install, "%s not found", name)
	}
	return p
}

// PythonOTF2 returns the interpreter that has the reference library's Python
// module (python3-otf2), or skips t (fails under CI).
func PythonOTF2(t testing.TB) string {
	t.Helper()
	py := Tool(t, "/usr/bin/python3", "python3-otf2")
	if out, err := exec.Command(py, "-c", "import otf2").CombinedOutput(); err != nil {
		Unavailable(t, "python3-otf2", "python3 has no otf2 module: %v: %s", err, out)
	}
	return py
}

// ReplaceFile writes data to the file name as a new file, removing the old
// one first. Tests that change a file again and again (byte flips, cuts)
// use it instead of os.WriteFile: on ext4, truncating a file and writing it
// again makes its close start writing it back (auto_da_alloc), and on a
// busy disk every case then waits for the disk.
func ReplaceFile(name string, data []byte, perm os.FileMode) error {
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.WriteFile(name, data, perm)
}

// Special kinds of file that MakeSpecial makes: what a hostile input puts
// where a reader expects a regular file.
const (
	// SpecialFIFO is a named pipe: opening it for reading blocks until a
	// writer comes.
	SpecialFIFO = "fifo"
	// SpecialZero is a symbolic link to /dev/zero: a file without end.
	SpecialZero = "zero"
)

// MakeSpecial replaces the file name (if any) by a special file of the
// kind (SpecialFIFO or SpecialZero), failing t if it cannot.
func MakeSpecial(t testing.TB, name, kind string) {
	t.Helper()
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("remove %s: %v", name, err)
	}
	var err error
	switch kind {
	case SpecialFIFO:
		err = syscall.Mkfifo(name, 0o644)
	case SpecialZero:
		err = os.Symlink("/dev/zero", name)
	default:
		err = fmt.Errorf("unknown kind %q", kind)
	}
	if err != nil {
		t.Fatalf("make %s a special file: %v", name, err)
	}
}

// Fixtures makes directories that several tests of a package read and none
// changes (generated archives, simulated traces), each once per run of the
// test binary. The zero value is ready; the package's TestMain calls Close
// after m.Run.
type Fixtures struct {
	mu   sync.Mutex
	root string
	dirs map[string]string
}

// Dir returns the directory make filled for key, calling make (with an
// empty directory) the first time the key is asked for; a failed make
// fails t and is tried again by the next test that asks.
func (f *Fixtures) Dir(t testing.TB, key string, make func(dir string) error) string {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if d, ok := f.dirs[key]; ok {
		return d
	}
	if f.root == "" {
		root, err := os.MkdirTemp("", "clc-fixtures-")
		if err != nil {
			t.Fatal(err)
		}
		f.root, f.dirs = root, map[string]string{}
	}
	d := filepath.Join(f.root, strconv.Itoa(len(f.dirs)))
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := make(d); err != nil {
		os.RemoveAll(d)
		t.Fatalf("fixture %s: %v", key, err)
	}
	f.dirs[key] = d
	return d
}

// Close removes every directory made.
func (f *Fixtures) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.root == "" {
		return nil
	}
	err := os.RemoveAll(f.root)
	f.root, f.dirs = "", nil
	return err
}

// MPIPackages are the Debian packages of the MPIs the tests launch jobs
// with.
const MPIPackages = "openmpi-bin libopenmpi-dev mpich libmpich-dev"

// MPI is an MPI installation that tests launch jobs with: its name
// ("openmpi", "mpich"), C compiler wrapper and launcher, and the
// launcher's options for more processes than cores.
type MPI struct {
	Name, CC, Run string
	Extra         []string
}

// MPIs returns Open MPI and MPICH as Debian installs them beside each
// other.
func MPIs() []MPI {
	return []MPI{
		{Name: "openmpi", CC: "mpicc.openmpi", Run: "mpirun.openmpi", Extra: []string{"--oversubscribe"}},
		{Name: "mpich", CC: "mpicc.mpich", Run: "mpirun.mpich"},
	}
}

// Need skips t (fails it under CI) when m's compiler or launcher is
// missing.
func (m MPI) Need(t testing.TB) {
	t.Helper()
	Tool(t, m.CC, MPIPackages)
	Tool(t, m.Run, MPIPackages)
}

// Args is the launcher's command line for np processes of prog.
func (m MPI) Args(np int, prog string, args ...string) []string {
	out := append(append([]string{}, m.Extra...), "-np", strconv.Itoa(np), prog)
	return append(out, args...)
}

// MPIEnv returns the environment plus what a launched job needs to run
// beside others: root may run Open MPI, and the job has a session
// directory of its own (TMPDIR, Open MPI's orte/prte_tmpdir_base; another
// Open MPI job on the machine cannot clash with it), removed when t ends.
// Its path is short: Open MPI puts Unix sockets there, whose paths are
// limited to 108 bytes.
func MPIEnv(t testing.TB) []string {
	t.Helper()
	sess, err := os.MkdirTemp("", "ompi")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sess) })
	return append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
		"TMPDIR="+sess, "OMPI_MCA_orte_tmpdir_base="+sess, "OMPI_MCA_prte_tmpdir_base="+sess)
}

// Buffer is a bytes.Buffer that a process's output (exec.Cmd's Stdout or
// Stderr, written from another goroutine) and the test share.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Alive reports whether process pid exists and is not a zombie (a zombie
// has ended; in a container without an init that reaps, an orphan's stays).
func Alive(pid int) bool {
	state, _ := procStat(pid)
	return state != "" && state != "Z"
}

// procStat returns the state and parent of process pid ("" if it does not
// exist).
func procStat(pid int) (string, int) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return "", 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	var state string
	var parent int
	if i < 0 {
		return "", 0
	}
	fmt.Sscanf(s[i+1:], "%s %d", &state, &parent)
	return state, parent
}

// Descendants returns the live processes below pid.
func Descendants(pid int) []int {
	parent := map[int]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, pp := procStat(p); state != "" && state != "Z" {
			parent[p] = pp
		}
	}
	var out []int
	var walk func(int)
	walk = func(q int) {
		for c, pp := range parent {
			if pp == q {
				out = append(out, c)
				walk(c)
			}
		}
	}
	walk(pid)
	return out
}
