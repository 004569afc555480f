package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.Len(t, got.Locations, len(want.Locations), "%s: locations", what)
	require.Equal(t, want.Resolution, got.Resolution, "%s: ticks/s", what)
	require.Len(t, got.Comms, len(want.Comms), "%s: communicators", what)
	require.Len(t, got.Regions, len(want.Regions), "%s: regions", what)
	require.Len(t, got.Nodes, len(want.Nodes), "%s: nodes", what)
	for li := range want.Locations {
		g, w := got.Locations[li], want.Locations[li]
		require.True(t, slices.Equal(g.Offsets, w.Offsets), "%s: location %d: offsets %v, want %v", what, li, g.Offsets, w.Offsets)
		require.Equal(t, w.Node, g.Node, "%s: location %d: node", what, li)
		ge, we := &g.Events, &w.Events
		for _, f := range []struct {
			name  string
			equal bool
		}{
			{"kinds", slices.Equal(ge.Kind, we.Kind)}, {"times", slices.Equal(ge.Time, we.Time)}, {"references", slices.Equal(ge.Ref, we.Ref)},
			{"messages", slices.Equal(ge.Msgs, we.Msgs)}, {"collectives", slices.Equal(ge.Colls, we.Colls)}, {"requests", slices.Equal(ge.Reqs, we.Reqs)},
		} {
			require.True(t, f.equal, "%s: location %d: the events' %s differ", what, li, f.name)
		}
	}
}

func TestNativeLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	log, err := runCmd(t, dir, "--ranks", "6", "--ranks-per-node", "2", "--steps", "4", "--seed", "5")
	require.NoError(t, err)
	t.Log(log)
	for _, p := range []string{"clc.json", "events/0.clce", "events/5.clce", "truth/clc.json", "truth/events/5.clce"} {
		assert.FileExists(t, filepath.Join(dir, p))
	}
	rec, err := native.ReadDir(dir, nil)
	require.NoError(t, err)
	truth, err := native.ReadDir(filepath.Join(dir, "truth"), nil)
	require.NoError(t, err)
	cfg := sim.DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Steps, cfg.Events, cfg.Seed = 6, 2, 4, 0, 5
	wantRec, wantTruth, err := sim.Generate(cfg)
	require.NoError(t, err)
	sameTrace(t, "recorded", rec, wantRec)
	sameTrace(t, "truth", truth, wantTruth)
	assert.Equal(t, "recorded", rec.Properties["clc-sim.role"], "the recorded trace's role")
	assert.Equal(t, "truth", truth.Properties["clc-sim.role"], "the truth's role")
	for li, l := range truth.Locations {
		assert.Empty(t, l.Offsets, "truth location %d: offsets", li)
	}
	// Nothing left beside the output.
	ents, err := os.ReadDir(filepath.Dir(dir))
	require.NoError(t, err)
	assert.Len(t, ents, 1, "the parent's entries: only the output")
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
			_, err := runCmd(t, append([]string{d, "--format", format}, args...)...)
			require.NoError(t, err)
		}
		fa, fb := tracetest.DirFiles(t, a), tracetest.DirFiles(t, b)
		require.GreaterOrEqual(t, len(fa), 10, "%s: files", format)
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
		_, err := runCmd(t, append([]string{dir}, args...)...)
		require.NoError(t, err)
		files := tracetest.DirFiles(t, dir)
		if first == nil {
			for _, name := range []string{"events/bundle-7.clcb", "truth/events/bundle-7.clcb"} {
				require.NotNil(t, files[name], "%s (bundled)", name)
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
	require.NoError(t, err)
	w, err := native.CreateDir(filepath.Join(t.TempDir(), "out"), defs, nil)
	require.NoError(t, err)
	defer w.Abort()
	want := w.Ranges()
	require.Len(t, want, 9, "ranges: 8 bundles")
	ctx := context.Background()
	for name, s := range map[string]trace.Sink{
		"cancelSink":   cancelSink{ctx, w},
		"CountingSink": &trace.CountingSink{Sink: w},
		"both":         cancelSink{ctx, &trace.CountingSink{Sink: w}},
	} {
		assert.Equal(t, want, trace.SinkRanges(s), "%s: ranges", name)
	}
}

func TestRefuseAndForce(t *testing.T) {
	dir := t.TempDir() // exists, empty: accepted
	_, err := runCmd(t, dir, "--ranks", "2", "--steps", "1")
	require.NoError(t, err, "an empty existing directory")
	before := tracetest.DirFiles(t, dir)
	_, err = runCmd(t, dir, "--ranks", "3", "--steps", "1")
	require.ErrorContains(t, err, "--force", "a non-empty directory without --force")
	require.Len(t, tracetest.DirFiles(t, dir), len(before), "files after a refused run")
	_, err = runCmd(t, dir, "--ranks", "3", "--steps", "1", "--force")
	require.NoError(t, err, "--force")
	tr, err := native.ReadDir(dir, nil)
	require.NoError(t, err, "after --force")
	require.Len(t, tr.Locations, 3, "after --force: locations")
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o666))
	_, err = runCmd(t, file, "--ranks", "2", "--steps", "1", "--force")
	assert.Error(t, err, "a file as OUTDIR")
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
		if _, err := runCmd(t, args...); assert.Error(t, err, "%v", args) {
			t.Logf("%v: %v", args, err)
		}
		_, err := os.Stat(dir)
		require.ErrorIs(t, err, os.ErrNotExist, "%v: the output, after the error", args)
	}
	ents, err := os.ReadDir(filepath.Dir(dir))
	require.NoError(t, err)
	assert.Empty(t, ents, "what failed runs left behind")
}

func TestOTF2(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	_, err := runCmd(t, dir, "--format", "otf2", "--ranks", "8", "--steps", "3")
	require.NoError(t, err)
	for _, p := range []string{"traces.otf2", "traces.def", "traces", "truth/clc.json"} {
		_, err := os.Stat(filepath.Join(dir, p))
		assert.NoError(t, err, "%s in the output", p)
	}
	a, err := otf.Open(dir)
	require.NoError(t, err)
	truth, err := native.ReadDir(filepath.Join(dir, "truth"), nil)
	require.NoError(t, err)
	assert.Equal(t, truth.NumEvents(), a.NumEvents(), "events of the OTF2 archive against the truth's")
	tool := testenv.Tool(t, "otf2-print", "otf2-tools")
	out, err := exec.Command(tool, "--silent", "-Werror", filepath.Join(dir, "traces.otf2")).CombinedOutput()
	require.NoError(t, err, "otf2-print:\n%s", out)
}

// One step is the least a run makes: with a million ranks that is over a
// hundred million events, which the default --events never asked for
// (issue 13). clc-sim refuses quickly and writes nothing, until the size
// is given explicitly.
func TestRefusesAnUnaskedHugeRun(t *testing.T) {
	d := t.TempDir()
	out := filepath.Join(d, "out")
	log, err := runCmd(t, out, "--ranks", "1000000")
	require.ErrorContains(t, err, "give --events or --steps", "a refusal (%s)", log)
	ents, err := os.ReadDir(d)
	require.NoError(t, err)
	require.Empty(t, ents, "what the refused run left")
	// A size that fits the default is not refused.
	_, err = runCmd(t, out, "--ranks", "256", "--ranks-per-node", "16")
	require.NoError(t, err)
}

// --force replaces a trace written before, never a directory holding
// anything else.
func TestForceReplacesOnlyATrace(t *testing.T) {
	d := t.TempDir()
	other := filepath.Join(d, "results")
	require.NoError(t, os.MkdirAll(other, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(other, "notes.txt"), []byte("keep"), 0o644))
	_, err := runCmd(t, other, "--ranks", "4", "--steps", "2", "--force")
	require.Error(t, err, "--force replaced a directory that held notes.txt")
	require.FileExists(t, filepath.Join(other, "notes.txt"))
	out := filepath.Join(d, "out")
	for _, f := range []string{"native", "otf2", "native"} {
		log, err := runCmd(t, out, "--ranks", "4", "--steps", "2", "--force", "--format", f)
		require.NoError(t, err, "%s (%s)", f, log)
	}
	ents, err := os.ReadDir(d)
	require.NoError(t, err)
	require.Len(t, ents, 2, "the directory: the outputs only")
}

// TestExitStatus: --version prints the build; a wrong command line is a
// usage error (status 2), an output that cannot be written a failure (1).
func TestExitStatus(t *testing.T) {
	log, err := runCmd(t, "--version")
	assert.NoError(t, err, "--version")
	assert.Regexp(t, `^clc-sim \S+, (commit [0-9a-f]+|no VCS commit recorded).*, go1\.`, log, "--version")
	dir := filepath.Join(t.TempDir(), "out")
	for _, args := range [][]string{{}, {dir, "--bogus"}, {dir, "--ranks", "x"}, {dir, "--steps", "0"}, {dir, "--format", "csv", "--steps", "1"},
		{dir, "--events", "10", "--steps", "1"}, {dir, "--patterns", "nosuch", "--steps", "1"}} {
		_, err := runCmd(t, args...)
		assert.Equal(t, cli.ExitUsage, cli.Status(err), "%q: status (error %v)", args, err)
	}
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	_, err = runCmd(t, filepath.Join(file, "out"), "--ranks", "2", "--steps", "1")
	assert.Equal(t, cli.ExitFailure, cli.Status(err), "an output inside a file: status (error %v)", err)
}
