package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run runs a command and returns its stdout and stderr; a failure is fatal.
func run(t *testing.T, name string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Run(), "%s %s\n%s", name, strings.Join(args, " "), errb.String())
	return out.String(), errb.String()
}

// binDir holds the otf2copy built for all tests of the package.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "clc-bench-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var otf2copy struct {
	once sync.Once
	bin  string
	err  error
}

// buildOTF2Copy compiles otf2copy.c against libotf2 as bench/run.sh does
// (warnings are errors here), once for all tests.
func buildOTF2Copy(t *testing.T) string {
	t.Helper()
	gcc := testenv.Tool(t, "gcc", "build-essential")
	flags, err := exec.Command(testenv.Tool(t, "pkg-config", "pkg-config"), "--cflags", "--libs", "otf2").Output()
	if err != nil {
		testenv.Unavailable(t, "libopen-trace-format2-dev", "pkg-config finds no otf2: %v", err)
	}
	otf2copy.once.Do(func() {
		bin := filepath.Join(binDir, "otf2copy")
		args := append([]string{"-O2", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", bin,
			filepath.Join("otf2copy", "otf2copy.c")}, strings.Fields(string(flags))...)
		if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
			otf2copy.err = fmt.Errorf("gcc %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		otf2copy.bin = bin
	})
	require.NoError(t, otf2copy.err)
	return otf2copy.bin
}

// inputs returns the archives to copy: the two Score-P traces of testdata/
// (mapping tables, clock offsets, attributes, metrics), archives written by
// python3-otf2 (genref.py: every MPI record, RMA, BufferFlush, …;
// records.py: threads, calling contexts, parameters, I/O, properties) and a
// clc-sim archive (clock offsets that move the times).
func inputs(t *testing.T) map[string]string {
	dir := t.TempDir()
	py := testenv.PythonOTF2(t)
	in := map[string]string{
		"scorep-pingpong":      filepath.Join("..", "testdata", "scorep-pingpong"),
		"scorep-pingpong-papi": filepath.Join("..", "testdata", "otf2", "scorep-pingpong-papi"),
		"genref":               filepath.Join(dir, "genref"),
		"records":              filepath.Join(dir, "records"),
		"clc-sim":              filepath.Join(dir, "sim"),
	}
	run(t, py, filepath.Join("..", "testdata", "otf2", "genref.py"), in["genref"], "40")
	run(t, py, filepath.Join("testdata", "records.py"), in["records"])

	cfg := sim.DefaultConfig()
	cfg.Ranks, cfg.Events, cfg.Seed = 12, 20000, 3
	rec, _, err := sim.Generate(cfg)
	require.NoError(t, err)
	require.NoError(t, otf.WriteTrace(context.Background(), in["clc-sim"], rec, nil))
	return in
}

var (
	clockLine = regexp.MustCompile(`(?m)^CLOCK_PROPERTIES .*Global Offset: (\d+), Length: (\d+),.*\n`)
	eventLine = regexp.MustCompile(`(?m)^[A-Z_0-9]+ +\d+ +(\d+) `)
	countLine = regexp.MustCompile(`(?:copied|read) (\d+) events of (\d+) locations`)
)

// printed returns otf2-print's global definitions and events of an archive
// (without the anchor, whose version, chunk sizes and trace id differ, and
// without the ClockProperties line, which it returns apart) and what
// otf2-print wrote to stderr.
func printed(t *testing.T, anchor string) (defsAndEvents, clock, stderr string) {
	t.Helper()
	defs, errs1 := run(t, "otf2-print", "-G", anchor)
	events, errs2 := run(t, "otf2-print", anchor)
	require.Contains(t, defs, "=== Global Definitions", "otf2-print -G %s", anchor)
	require.Contains(t, events, "=== Events", "otf2-print %s", anchor)
	i, j := strings.Index(defs, "=== Global Definitions"), strings.Index(events, "=== Events")
	defs = defs[i:]
	clock = clockLine.FindString(defs)
	return clockLine.ReplaceAllString(defs, "") + events[j:], clock, errs1 + errs2
}

// TestOTF2Copy copies each input with otf2copy and checks with otf2-print that
// the copy has the same global definitions and events as the input, that its
// ClockProperties span its events exactly, that the copy with a local
// definition file per location reads without a warning, and that --read-only
// reads every event.
func TestOTF2Copy(t *testing.T) {
	testenv.NeedFull(t)
	bin := buildOTF2Copy(t)
	testenv.Tool(t, "otf2-print", "otf2-tools")
	for name, in := range inputs(t) {
		t.Run(name, func(t *testing.T) {
			want, _, _ := printed(t, filepath.Join(in, "traces.otf2"))
			nEvents := len(eventLine.FindAllString(want, -1))
			require.Positive(t, nEvents, "events the input prints")
			for _, mode := range []string{"", "--no-local-defs"} {
				out := filepath.Join(t.TempDir(), "copy")
				args := []string{in, out}
				if mode != "" {
					args = append([]string{mode}, args...)
				}
				_, summary := run(t, bin, args...)
				checkCount(t, summary, nEvents)
				got, clock, errs := printed(t, filepath.Join(out, "traces.otf2"))
				label := mode
				if label == "" {
					label = "default"
				}
				assert.Empty(t, firstDiff(want, got), "%s: otf2-print of the copy against the input's", label)
				checkClock(t, clock, got)
				if mode == "" {
					assert.Empty(t, errs, "what otf2-print of the copy reports")
					run(t, "otf2-print", "--silent", "-Werror", filepath.Join(out, "traces.otf2"))
				}
			}
			_, summary := run(t, bin, "--read-only", filepath.Join(in, "traces.otf2"))
			checkCount(t, summary, nEvents)
		})
	}
}

// checkCount checks otf2copy's summary line against the number of events
// otf2-print printed.
func checkCount(t *testing.T, summary string, want int) {
	t.Helper()
	m := countLine.FindStringSubmatch(summary)
	require.NotNil(t, m, "the summary line in otf2copy's stderr: %q", summary)
	assert.Equal(t, strconv.Itoa(want), m[1], "otf2copy's count of events (%s) against otf2-print's", m[0])
}

// checkClock checks that the copy's ClockProperties begin at its first event
// and end at its last (otf2copy's events have the clock offsets applied).
func checkClock(t *testing.T, clock, printed string) {
	t.Helper()
	m := clockLine.FindStringSubmatch(clock)
	require.NotNil(t, m, "the copy's ClockProperties")
	offset, _ := strconv.ParseUint(m[1], 10, 64)
	length, _ := strconv.ParseUint(m[2], 10, 64)
	first, last := ^uint64(0), uint64(0)
	for _, e := range eventLine.FindAllStringSubmatch(printed, -1) {
		ts, _ := strconv.ParseUint(e[1], 10, 64)
		first, last = min(first, ts), max(last, ts)
	}
	assert.Equal(t, first, offset, "ClockProperties: global offset against the first event")
	assert.Equal(t, last, offset+length, "ClockProperties: global offset + length (length %d) against the last event", length)
}

// firstDiff shows the first differing line of two texts, or "" when they
// are equal.
func firstDiff(a, b string) string {
	if a == b {
		return ""
	}
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  input: %s\n  copy:  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("the input has %d lines, the copy %d", len(al), len(bl))
}

// TestOTF2CopyErrors checks that otf2copy refuses what it must.
func TestOTF2CopyErrors(t *testing.T) {
	testenv.NeedFull(t)
	bin := buildOTF2Copy(t)
	full := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(full, "x"), nil, 0o644))
	in := filepath.Join("..", "testdata", "scorep-pingpong")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{in, full}, "not empty"},
		{[]string{filepath.Join(full, "missing"), filepath.Join(t.TempDir(), "o")}, "no such file"},
		{[]string{full, filepath.Join(t.TempDir(), "o")}, "no .otf2 anchor"},
		{[]string{in}, "usage"},
		{[]string{"--read-only", in, full}, "usage"},
	} {
		out, err := exec.Command(bin, c.args...).CombinedOutput()
		if assert.Error(t, err, "otf2copy %v", c.args) {
			assert.Contains(t, strings.ToLower(string(out)), c.want, "otf2copy %v", c.args)
		}
	}
}
