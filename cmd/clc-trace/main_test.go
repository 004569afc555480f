package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/tracer"
)

func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := runArgs("--version")
	if code != 0 || !regexp.MustCompile(`^clc-trace \S+, (commit [0-9a-f]+|no VCS commit recorded).*, go1\.`).MatchString(out) {
		t.Errorf("--version: status %d, %q", code, out)
	}
}

// TestUsageErrors: every flag value is checked before anything runs, and a
// wrong command line exits with status 2 and a message naming the flag.
func TestUsageErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no.filter")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "no program"},
		{[]string{"--bogus", "./app"}, "unknown flag"},
		{[]string{"/no/such/program"}, "program /no/such/program"},
		{[]string{"--sync-rounds", "5", "./app"}, "MIN,PATIENCE,MAX"},
		{[]string{"--sync-rounds", "0,0,0", "./app"}, "at least 1"},
		{[]string{"--sync-rounds", "20,10,5", "./app"}, "MAX must be at least MIN"},
		{[]string{"--sync-rounds", "1,1,1000000", "./app"}, "MAX above"},
		{[]string{"--sync-rounds", "a,b,c", "./app"}, "three whole numbers"},
		{[]string{"--emulate-ranks-per-node", "0", "--emulate-clock", "on", "./app"}, "--emulate-ranks-per-node 0"},
		{[]string{"--emulate-ranks-per-node", "2", "./app"}, "needs --emulate-clock"},
		{[]string{"--emulate-clock", "offset=fast", "./app"}, "offset"},
		{[]string{"--buffer", "1GB", "./app"}, "--buffer 1GB: 1,000,000,000 bytes is outside 4KiB..64MiB"},
		{[]string{"--buffer", "1GiB", "./app"}, "1,073,741,824 bytes is outside"},
		{[]string{"--buffer", "100", "./app"}, "--buffer 100: 100 bytes is outside"},
		{[]string{"--buffer", "12QB", "./app"}, "not a size"},
		{[]string{"--buffer", "-4KiB", "./app"}, "not a size"},
		{[]string{"--flush", "5", "./app"}, "EVENTS,DURATION"},
		{[]string{"--flush", "10,1us", "./app"}, "below 1ms"},
		{[]string{"--flush", "10,-1s", "./app"}, "EVENTS,DURATION"},
		{[]string{"--format", "vtf", "./app"}, "--format"},
		{[]string{"--polls", "some", "./app"}, "--polls"},
		{[]string{"--sync", "star", "./app"}, "--sync"},
		{[]string{"--mpi", "lam", "./app"}, "lam"},
		{[]string{"--mpi-groups", "p2p,bogus", "./app"}, "bogus"},
		{[]string{"--mpi-groups", "spawn", "./app"}, "spawn"},
		{[]string{"--filter", missing, "./app"}, missing},
		{[]string{"--force", "./app"}, "--force needs -o"},
		{[]string{"--completion", "tcsh"}, "--completion"},
		{[]string{"--build-only"}, "--build-only needs --mpi"},
	} {
		code, _, stderr := runArgs(c.args...)
		if code != cli.ExitUsage || !strings.Contains(stderr, c.want) || !strings.HasPrefix(stderr, "clc-trace: ") {
			t.Errorf("%q: status %d, %q; want status %d and a message with %q", c.args, code, stderr, cli.ExitUsage, c.want)
		}
	}
}

// TestFailures: what clc-trace cannot do exits with status 1.
func TestFailures(t *testing.T) {
	empty := t.TempDir()
	code, _, stderr := runArgs("--convert", empty)
	if code != cli.ExitFailure || !strings.Contains(stderr, "holds no trace") {
		t.Errorf("--convert of an empty directory: status %d, %q", code, stderr)
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runArgs("--write-api", filepath.Join(file, "api")); code != cli.ExitFailure || !strings.Contains(stderr, "--write-api") {
		t.Errorf("--write-api into a file: status %d, %q", code, stderr)
	}
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{"4096": 4096, "4KiB": 4096, "4K": 4096, "4k": 4096, "1MiB": 1 << 20, "1M": 1 << 20,
		"64MiB": 64 << 20, "10kB": 10000, "10KB": 10000, "2MB": 2000000, " 8 KiB ": 8192, "8192B": 8192} {
		if got, err := parseSize(s); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
}

func TestParseFlush(t *testing.T) {
	for s, want := range map[string][2]int64{"65536,1s": {65536, int64(time.Second)}, "0,0": {0, 0}, "100,250ms": {100, int64(250 * time.Millisecond)},
		"0,2s": {0, int64(2 * time.Second)}, "4096,0": {4096, 0}} {
		n, d, err := parseFlush(s)
		if err != nil || int64(n) != want[0] || int64(d) != want[1] {
			t.Errorf("parseFlush(%q) = %d, %v, %v; want %v", s, n, d, err, want)
		}
	}
}

// TestCompletion: the script for each shell, and the values of the flags
// that have a fixed set (cobra's __complete, what the scripts call).
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, stderr := runArgs("--completion", sh)
		if code != 0 || !strings.Contains(out, "clc-trace") || len(out) < 1000 {
			t.Errorf("--completion %s: status %d, %d bytes, %s", sh, code, len(out), stderr)
		}
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--format", ""}, []string{"native", "otf2"}},
		{[]string{"--mpi", ""}, []string{"openmpi", "mpich"}},
		{[]string{"--sync", ""}, []string{"flat", "tree"}},
		{[]string{"--polls", ""}, []string{"collapse", "all"}},
		{[]string{"--mpi-groups", "all,"}, []string{"all,-io", "all,p2p"}},
		{[]string{"--emulate-clock", ""}, []string{"on", "offset="}},
		{[]string{"--buffer", ""}, []string{"1MiB", "64MiB"}},
		{[]string{"--completion", ""}, []string{"bash", "zsh", "fish", "powershell"}},
		{[]string{"--f"}, []string{"--format", "--filter", "--flush", "--force"}},
	} {
		_, out, _ := runArgs(append([]string{"__complete"}, c.args...)...)
		for _, w := range c.want {
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(w) + `(\t|$)`).MatchString(out) {
				t.Errorf("completing %q: %q is not offered:\n%s", c.args, w, out)
			}
		}
	}
}

// TestHelpSays: the help names both formats, the new directory, the
// completion and what the exit statuses mean.
func TestHelpSays(t *testing.T) {
	_, out, _ := runArgs("--help")
	out = strings.Join(strings.Fields(out), " ")
	for _, w := range []string{"native format (the default) or an OTF2 archive", "clc-trace-YYYYMMDD_HHMMSS", "--completion bash", "Exit status", "--convert", "--filter", "--flush"} {
		if !strings.Contains(out, w) {
			t.Errorf("--help does not say %q", w)
		}
	}
}

func TestWriteAPI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "api")
	code, _, stderr := runArgs("--write-api", dir)
	if code != 0 {
		t.Fatalf("--write-api: status %d, %s", code, stderr)
	}
	for _, n := range []string{"clc_user.h", "clc_user_f.c"} {
		want, _ := api.ReadFile("api/" + n)
		if got, err := os.ReadFile(filepath.Join(dir, n)); err != nil || !bytes.Equal(got, want) || len(got) == 0 {
			t.Errorf("%s: %v", n, err)
		}
	}
	// a program using the API builds and runs without clc-trace: the
	// library's functions are weak references
	cc, err := exec.LookPath("cc")
	if err != nil {
		testenv.Unavailable(t, "gcc", "no C compiler: the API files are not compiled")
	}
	prog := filepath.Join(dir, "prog.c")
	src := "#include \"clc_user.h\"\nvoid clc_region_begin_(const char *, unsigned long);\nint main(void) { CLC_REGION_BEGIN(\"a\"); CLC_REGION_END(\"a\"); clc_region_begin_(\"b \", 2); return 0; }\n"
	if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "prog")
	if out, err := exec.Command(cc, "-Wall", "-Werror", "-o", bin, prog, filepath.Join(dir, "clc_user_f.c")).CombinedOutput(); err != nil {
		t.Fatalf("compiling with the API: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin).CombinedOutput(); err != nil {
		t.Errorf("the program fails without clc-trace: %v\n%s", err, out)
	}
}

// TestNewDir: without -o every run gets a directory of its own, named by
// the date.
func TestNewDir(t *testing.T) {
	t.Chdir(t.TempDir())
	var names []string
	for i := 0; i < 3; i++ {
		d, err := newDir()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Base(d))
	}
	re := regexp.MustCompile(`^clc-trace-\d{8}_\d{6}(_\d+)?$`)
	for i, n := range names {
		if !re.MatchString(n) {
			t.Errorf("%q is not clc-trace-YYYYMMDD_HHMMSS[_N]", n)
		}
		for _, m := range names[:i] {
			if m == n {
				t.Errorf("two runs got %s", n)
			}
		}
	}
	if _, err := time.Parse(tracer.NewDirLayout, names[0][len("clc-trace-"):len("clc-trace-")+15]); err != nil {
		t.Errorf("%s: %v", names[0], err)
	}
}

// TestFirstUseMessage: the first run builds the library and says so, with
// how long it took; the next finds it and says nothing.
func TestFirstUseMessage(t *testing.T) {
	testenv.Tool(t, "mpicc.mpich", "mpich libmpich-dev")
	cache := t.TempDir()
	code, out, stderr := runArgs("--build-only", "--mpi", "mpich", "--cache", cache)
	if code != 0 {
		t.Fatalf("--build-only: status %d\n%s", code, stderr)
	}
	re := regexp.MustCompile(`(?s)^clc-trace: building the tracing library for MPICH with \S*mpicc\S* \(once per MPI installation; into ` +
		regexp.QuoteMeta(cache) + `/mpich-[0-9a-f]+\) …\nclc-trace: built the tracing library in (\d+\.\d) s\n$`)
	m := re.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("first use: %q", stderr)
	}
	t.Logf("first build: %s s", m[1])
	lib := strings.TrimSpace(out)
	if _, err := os.Stat(lib); err != nil || !strings.HasPrefix(lib, cache) {
		t.Errorf("--build-only printed %q: %v", lib, err)
	}
	code, out2, stderr := runArgs("--build-only", "--mpi", "mpich", "--cache", cache)
	if code != 0 || stderr != "" || out2 != out {
		t.Errorf("second use: status %d, %q, %q (want the same library, silently)", code, out2, stderr)
	}
}
