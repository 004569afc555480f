package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

func runCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var log bytes.Buffer
	cmd := newCommand(&log)
	cmd.SetArgs(args)
	cmd.SetOut(&log)
	cmd.SetErr(&log)
	err := cmd.Execute()
	return log.String(), err
}

// sameTrace compares what was read back with what Generate returns.
func sameTrace(t *testing.T, what string, got, want *trace.Trace) {
	t.Helper()
	if len(got.Locations) != len(want.Locations) || got.Resolution != want.Resolution {
		t.Fatalf("%s: %d locations at %d ticks/s, want %d at %d", what, len(got.Locations), got.Resolution, len(want.Locations), want.Resolution)
	}
	if len(got.Comms) != len(want.Comms) || len(got.Regions) != len(want.Regions) || len(got.Nodes) != len(want.Nodes) {
		t.Fatalf("%s: definitions differ", what)
	}
	for li := range want.Locations {
		g, w := got.Locations[li], want.Locations[li]
		if !slices.Equal(g.Offsets, w.Offsets) || g.Node != w.Node {
			t.Fatalf("%s: location %d: offsets %v node %d, want %v node %d", what, li, g.Offsets, g.Node, w.Offsets, w.Node)
		}
		ge, we := &g.Events, &w.Events
		if !slices.Equal(ge.Kind, we.Kind) || !slices.Equal(ge.Time, we.Time) || !slices.Equal(ge.Ref, we.Ref) ||
			!slices.Equal(ge.Msgs, we.Msgs) || !slices.Equal(ge.Colls, we.Colls) || !slices.Equal(ge.Reqs, we.Reqs) {
			t.Fatalf("%s: location %d: events differ", what, li)
		}
	}
}

func TestNativeLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	log, err := runCmd(t, dir, "--ranks", "6", "--ranks-per-node", "2", "--steps", "4", "--seed", "5")
	if err != nil {
		t.Fatal(err)
	}
	t.Log(log)
	for _, p := range []string{"clc.json", "events/0.clce", "events/5.clce", "truth/clc.json", "truth/events/5.clce"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("missing %s: %v", p, err)
		}
	}
	rec, err := native.ReadDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	truth, err := native.ReadDir(filepath.Join(dir, "truth"), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Steps, cfg.Events, cfg.Seed = 6, 2, 4, 0, 5
	wantRec, wantTruth, err := sim.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sameTrace(t, "recorded", rec, wantRec)
	sameTrace(t, "truth", truth, wantTruth)
	if rec.Properties["clc-sim.role"] != "recorded" || truth.Properties["clc-sim.role"] != "truth" {
		t.Errorf("roles %q, %q", rec.Properties["clc-sim.role"], truth.Properties["clc-sim.role"])
	}
	for li, l := range truth.Locations {
		if len(l.Offsets) != 0 {
			t.Errorf("truth location %d has offsets", li)
		}
	}
	// Nothing left beside the output.
	ents, _ := os.ReadDir(filepath.Dir(dir))
	if len(ents) != 1 {
		t.Errorf("parent holds %d entries, want only the output", len(ents))
	}
}

func TestSameBytesForSeed(t *testing.T) {
	base := t.TempDir()
	plain := []string{"--ranks", "20", "--events", "30000", "--seed", "9", "--flush-events", "5000"}
	harder := append(append([]string(nil), plain...), "--clock-noise", "3us", "--clock-jump-every", "2ms", "--clock-jump-size", "20us",
		"--latency-asymmetry", "0.5", "--congestion", "0.3", "--congestion-delay", "10us", "--offset-missing", "0.3",
		"--patterns", "halo,silence,allreduce", "--silence-length", "1ms")
	for i, format := range []string{"native", "otf2", "native"} {
		args := plain
		if i == 2 {
			args = harder
		}
		a, b := filepath.Join(base, format+"a"+fmt.Sprint(i)), filepath.Join(base, format+"b"+fmt.Sprint(i))
		for _, d := range []string{a, b} {
			if _, err := runCmd(t, append([]string{d, "--format", format}, args...)...); err != nil {
				t.Fatal(err)
			}
		}
		fa, fb := tracetest.DirFiles(t, a), tracetest.DirFiles(t, b)
		if len(fa) < 10 {
			t.Fatalf("%s: %d files", format, len(fa))
		}
		tracetest.SameFiles(t, fa, fb, format+", the second run with the same seed")
	}
}

// Above 64 locations native traces put several locations into each bundle
// file. Their bytes still depend only on the flags and the seed: not on
// the run, nor on the number of goroutines that write them.
func TestSameBytesInBundles(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	base := t.TempDir()
	args := []string{"--ranks", "130", "--ranks-per-node", "8", "--events", "200000", "--seed", "3", "--flush-events", "20000"}
	var first map[string][]byte
	for i, procs := range []int{1, 4, 4, 2} {
		runtime.GOMAXPROCS(procs)
		dir := filepath.Join(base, fmt.Sprint(i))
		if _, err := runCmd(t, append([]string{dir}, args...)...); err != nil {
			t.Fatal(err)
		}
		files := tracetest.DirFiles(t, dir)
		if first == nil {
			for _, name := range []string{"events/bundle-7.clcb", "truth/events/bundle-7.clcb"} {
				if files[name] == nil {
					t.Fatalf("no %s: not bundled", name)
				}
			}
			first = files
			continue
		}
		tracetest.SameFiles(t, first, files, fmt.Sprintf("run %d (GOMAXPROCS %d) against the first (GOMAXPROCS 1)", i, procs))
	}
}

// The wrappers around the sinks pass on the native writer's bundles, so
// that the simulation appends each bundle from one goroutine at a time
// (which TestSameBytesInBundles, whose blocks fill up only at Close, does
// not see).
func TestWrappersPassOnRanges(t *testing.T) {
	cfg := sim.DefaultConfig()
	cfg.Ranks = 130
	defs, err := sim.Definitions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := native.CreateDir(filepath.Join(t.TempDir(), "out"), defs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	want := w.Ranges()
	if len(want) != 9 {
		t.Fatalf("ranges %v, want 8 bundles", want)
	}
	ctx := context.Background()
	for name, s := range map[string]trace.Sink{
		"cancelSink":   cancelSink{ctx, w},
		"CountingSink": &trace.CountingSink{Sink: w},
		"both":         cancelSink{ctx, &trace.CountingSink{Sink: w}},
	} {
		if got := trace.SinkRanges(s); !slices.Equal(got, want) {
			t.Errorf("%s: ranges %v, want %v", name, got, want)
		}
	}
}

func TestRefuseAndForce(t *testing.T) {
	dir := t.TempDir() // exists, empty: accepted
	if _, err := runCmd(t, dir, "--ranks", "2", "--steps", "1"); err != nil {
		t.Fatalf("empty existing directory: %v", err)
	}
	before := tracetest.DirFiles(t, dir)
	if _, err := runCmd(t, dir, "--ranks", "3", "--steps", "1"); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("non-empty directory without --force: %v", err)
	}
	if after := tracetest.DirFiles(t, dir); len(after) != len(before) {
		t.Fatalf("a refused run changed the directory")
	}
	if _, err := runCmd(t, dir, "--ranks", "3", "--steps", "1", "--force"); err != nil {
		t.Fatalf("--force: %v", err)
	}
	tr, err := native.ReadDir(dir, nil)
	if err != nil || len(tr.Locations) != 3 {
		t.Fatalf("after --force: %v, %d locations", err, len(tr.Locations))
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o666)
	if _, err := runCmd(t, file, "--ranks", "2", "--steps", "1", "--force"); err == nil {
		t.Error("a file as OUTDIR: no error")
	}
}

func TestBadFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	for _, args := range [][]string{
		{dir, "--patterns", "ring,nope"},
		{dir, "--events", "10", "--steps", "2"},
		{dir, "--format", "csv"},
		{dir, "--ranks", "0"},
		{dir, "--steps", "0"},
		{dir, "--latency-inter", "fast"},
		{dir, "--clock-drift", "-3"},
		{},
		{dir, dir},
	} {
		if _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		} else {
			t.Logf("%v: %v", args, err)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Fatalf("%v: output written despite the error", args)
		}
	}
	if ents, _ := os.ReadDir(filepath.Dir(dir)); len(ents) != 0 {
		t.Errorf("failed runs left %d entries behind", len(ents))
	}
}

func TestOTF2(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := runCmd(t, dir, "--format", "otf2", "--ranks", "8", "--steps", "3"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"traces.otf2", "traces.def", "traces", "truth/clc.json"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("missing %s: %v", p, err)
		}
	}
	a, err := otf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	truth, err := native.ReadDir(filepath.Join(dir, "truth"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.NumEvents() != truth.NumEvents() {
		t.Errorf("OTF2 archive has %d events, truth %d", a.NumEvents(), truth.NumEvents())
	}
	tool := testenv.Tool(t, "otf2-print", "otf2-tools")
	out, err := exec.Command(tool, "--silent", "-Werror", filepath.Join(dir, "traces.otf2")).CombinedOutput()
	if err != nil {
		t.Fatalf("otf2-print: %v\n%s", err, out)
	}
}

// One step is the least a run makes: with a million ranks that is over a
// hundred million events, which the default --events never asked for
// (issue 13). clc-sim refuses quickly and writes nothing, until the size
// is given explicitly.
func TestRefusesAnUnaskedHugeRun(t *testing.T) {
	d := t.TempDir()
	out := filepath.Join(d, "out")
	log, err := runCmd(t, out, "--ranks", "1000000")
	if err == nil || !strings.Contains(err.Error(), "give --events or --steps") {
		t.Fatalf("got %v (%s), want a refusal", err, log)
	}
	if ents, _ := os.ReadDir(d); len(ents) != 0 {
		t.Fatalf("left %v", ents)
	}
	// A size that fits the default is not refused.
	if _, err := runCmd(t, out, "--ranks", "256", "--ranks-per-node", "16"); err != nil {
		t.Fatal(err)
	}
}

// --force replaces a trace written before, never a directory holding
// anything else.
func TestForceReplacesOnlyATrace(t *testing.T) {
	d := t.TempDir()
	other := filepath.Join(d, "results")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, other, "--ranks", "4", "--steps", "2", "--force"); err == nil {
		t.Fatal("--force replaced a directory that held notes.txt")
	}
	if _, err := os.Stat(filepath.Join(other, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(d, "out")
	for _, f := range []string{"native", "otf2", "native"} {
		if log, err := runCmd(t, out, "--ranks", "4", "--steps", "2", "--force", "--format", f); err != nil {
			t.Fatalf("%s: %v (%s)", f, err, log)
		}
	}
	ents, _ := os.ReadDir(d)
	if len(ents) != 2 {
		t.Fatalf("left %v beside the outputs", ents)
	}
}

// TestExitStatus: --version prints the build; a wrong command line is a
// usage error (status 2), an output that cannot be written a failure (1).
func TestExitStatus(t *testing.T) {
	log, err := runCmd(t, "--version")
	if err != nil || !regexp.MustCompile(`^clc-sim \S+, (commit [0-9a-f]+|no VCS commit recorded).*, go1\.`).MatchString(log) {
		t.Errorf("--version: %v, %q", err, log)
	}
	dir := filepath.Join(t.TempDir(), "out")
	for _, args := range [][]string{{}, {dir, "--bogus"}, {dir, "--ranks", "x"}, {dir, "--steps", "0"}, {dir, "--format", "csv", "--steps", "1"},
		{dir, "--events", "10", "--steps", "1"}, {dir, "--patterns", "nosuch", "--steps", "1"}} {
		if _, err := runCmd(t, args...); cli.Status(err) != cli.ExitUsage {
			t.Errorf("%q: status %d (%v), want %d", args, cli.Status(err), err, cli.ExitUsage)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runCmd(t, filepath.Join(file, "out"), "--ranks", "2", "--steps", "1"); cli.Status(err) != cli.ExitFailure {
		t.Errorf("an output inside a file: status %d (%v), want %d", cli.Status(err), err, cli.ExitFailure)
	}
}
