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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := runArgs("--version")
	assert.Equal(t, 0, code, "--version: status")
	assert.Regexp(t, `^clc-trace \S+, (commit [0-9a-f]+|no VCS commit recorded).*, go1\.`, out, "--version")
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
		assert.Equal(t, cli.ExitUsage, code, "%q: status (%q)", c.args, stderr)
		assert.Contains(t, stderr, c.want, "%q: the message", c.args)
		assert.True(t, strings.HasPrefix(stderr, "clc-trace: "), "%q: the message begins with the command's name: %q", c.args, stderr)
	}
}

// TestFailures: what clc-trace cannot do exits with status 1.
func TestFailures(t *testing.T) {
	empty := t.TempDir()
	code, _, stderr := runArgs("--convert", empty)
	assert.Equal(t, cli.ExitFailure, code, "--convert of an empty directory: status (%q)", stderr)
	assert.Contains(t, stderr, "holds no trace", "--convert of an empty directory")
	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	code, _, stderr = runArgs("--write-api", filepath.Join(file, "api"))
	assert.Equal(t, cli.ExitFailure, code, "--write-api into a file: status (%q)", stderr)
	assert.Contains(t, stderr, "--write-api", "--write-api into a file")
}

func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{"4096": 4096, "4KiB": 4096, "4K": 4096, "4k": 4096, "1MiB": 1 << 20, "1M": 1 << 20,
		"64MiB": 64 << 20, "10kB": 10000, "10KB": 10000, "2MB": 2000000, " 8 KiB ": 8192, "8192B": 8192} {
		got, err := parseSize(s)
		if assert.NoError(t, err, "parseSize(%q)", s) {
			assert.Equal(t, want, got, "parseSize(%q)", s)
		}
	}
}

func TestParseFlush(t *testing.T) {
	for s, want := range map[string][2]int64{"65536,1s": {65536, int64(time.Second)}, "0,0": {0, 0}, "100,250ms": {100, int64(250 * time.Millisecond)},
		"0,2s": {0, int64(2 * time.Second)}, "4096,0": {4096, 0}} {
		n, d, err := parseFlush(s)
		if assert.NoError(t, err, "parseFlush(%q)", s) {
			assert.Equal(t, want, [2]int64{int64(n), int64(d)}, "parseFlush(%q): events and duration", s)
		}
	}
}

// TestCompletion: the script for each shell, and the values of the flags
// that have a fixed set (cobra's __complete, what the scripts call).
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, stderr := runArgs("--completion", sh)
		assert.Equal(t, 0, code, "--completion %s: status (%s)", sh, stderr)
		assert.Contains(t, out, "clc-trace", "--completion %s", sh)
		assert.GreaterOrEqual(t, len(out), 1000, "--completion %s: bytes of the script", sh)
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
			assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(w)+`(\t|$)`, out, "completing %q: %q is offered", c.args, w)
		}
	}
}

// TestHelpSays: the help names both formats, the new directory, the
// completion and what the exit statuses mean.
func TestHelpSays(t *testing.T) {
	_, out, _ := runArgs("--help")
	out = strings.Join(strings.Fields(out), " ")
	for _, w := range []string{"native format (the default) or an OTF2 archive", "clc-trace-YYYYMMDD_HHMMSS", "--completion bash", "Exit status", "--convert", "--filter", "--flush"} {
		assert.Contains(t, out, w, "--help")
	}
}

func TestWriteAPI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "api")
	code, _, stderr := runArgs("--write-api", dir)
	require.Equal(t, 0, code, "--write-api: status (%s)", stderr)
	for _, n := range []string{"clc_user.h", "clc_user_f.c"} {
		want, err := api.ReadFile("api/" + n)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, n))
		if assert.NoError(t, err, n) {
			assert.NotEmpty(t, got, n)
			assert.True(t, bytes.Equal(got, want), "%s differs from the embedded file", n)
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
	require.NoError(t, os.WriteFile(prog, []byte(src), 0o644))
	bin := filepath.Join(dir, "prog")
	out, err := exec.Command(cc, "-Wall", "-Werror", "-o", bin, prog, filepath.Join(dir, "clc_user_f.c")).CombinedOutput()
	require.NoError(t, err, "compiling with the API:\n%s", out)
	out, err = exec.Command(bin).CombinedOutput()
	assert.NoError(t, err, "the program without clc-trace:\n%s", out)
}

// TestNewDir: without -o every run gets a directory of its own, named by
// the date.
func TestNewDir(t *testing.T) {
	t.Chdir(t.TempDir())
	var names []string
	for i := 0; i < 3; i++ {
		d, err := newDir()
		require.NoError(t, err)
		names = append(names, filepath.Base(d))
	}
	re := regexp.MustCompile(`^clc-trace-\d{8}_\d{6}(_\d+)?$`)
	for i, n := range names {
		assert.Regexp(t, re, n, "clc-trace-YYYYMMDD_HHMMSS[_N]")
		assert.NotContains(t, names[:i], n, "the directories of earlier runs")
	}
	_, err := time.Parse(tracer.NewDirLayout, names[0][len("clc-trace-"):len("clc-trace-")+15])
	assert.NoError(t, err, "the date in %s", names[0])
}

// TestFirstUseMessage: the first run builds the library and says so, with
// how long it took; the next finds it and says nothing.
func TestFirstUseMessage(t *testing.T) {
	testenv.Tool(t, "mpicc.mpich", "mpich libmpich-dev")
	cache := t.TempDir()
	code, out, stderr := runArgs("--build-only", "--mpi", "mpich", "--cache", cache)
	require.Equal(t, 0, code, "--build-only: status\n%s", stderr)
	re := regexp.MustCompile(`(?s)^clc-trace: building the tracing library for MPICH with \S*mpicc\S* \(once per MPI installation; into ` +
		regexp.QuoteMeta(cache) + `/mpich-[0-9a-f]+\) …\nclc-trace: built the tracing library in (\d+\.\d) s\n$`)
	m := re.FindStringSubmatch(stderr)
	require.NotNil(t, m, "first use: %q", stderr)
	t.Logf("first build: %s s", m[1])
	lib := strings.TrimSpace(out)
	assert.FileExists(t, lib, "what --build-only printed")
	assert.True(t, strings.HasPrefix(lib, cache), "--build-only printed %q, not in the cache %s", lib, cache)
	code, out2, stderr := runArgs("--build-only", "--mpi", "mpich", "--cache", cache)
	assert.Equal(t, 0, code, "second use: status")
	assert.Empty(t, stderr, "second use: what it says")
	assert.Equal(t, out, out2, "second use: the library")
}
