package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/trace"
)

const simTrace = "../../testdata/sim-16"

func TestCorrectsShippedTrace(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fixed")
	rep := filepath.Join(t.TempDir(), "r.json")
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "-o", out, "--report", rep, "-q", "--format", "native"}, io.Discard, io.Discard))
	var r map[string]any
	b, err := os.ReadFile(rep)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &r))
	before := r["before"].(map[string]any)["violations"].(float64)
	after := r["after"].(map[string]any)["violations"].(float64)
	assert.Positive(t, before)
	assert.Zero(t, after)
	assert.NotNil(t, r["accuracy"], "the shipped trace has truth/")
	assert.True(t, native.IsDir(out))
}

// clc-correct writes OTF2 by default whatever it reads, so that record →
// correct → view works with any OTF2 viewer; --format input keeps the
// input's format.
func TestWritesOTF2ByDefault(t *testing.T) {
	d := t.TempDir()
	out := filepath.Join(d, "fixed")
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "-o", out, "-q"}, io.Discard, io.Discard))
	a, err := otf.Open(filepath.Join(out, "traces.otf2"))
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	orig, err := native.ReadDir(simTrace, nil)
	require.NoError(t, err)
	require.Equal(t, orig.NumEvents(), tr.NumEvents())
	same := filepath.Join(d, "same")
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "-o", same, "-q", "--format", "input"}, io.Discard, io.Discard))
	assert.True(t, native.IsDir(same))
}

func TestCheckWritesNothing(t *testing.T) {
	dir := t.TempDir()
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "--check", "-q"}, io.Discard, io.Discard))
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, ents)
	assert.Equal(t, cli.ExitUsage, run(context.Background(), []string{simTrace, "--check", "-o", filepath.Join(dir, "x")}, io.Discard, io.Discard))
}

func TestBadArguments(t *testing.T) {
	d := t.TempDir()
	// the command line is wrong: status 2
	for _, args := range [][]string{
		{},                       // no input
		{simTrace, simTrace},     // two inputs
		{simTrace},               // no output
		{simTrace, "--bogus"},    // no such flag
		{simTrace, "-j", "many"}, // not a number
		{simTrace, "-o", d + "/o", "--gamma", "1.5"},
		{simTrace, "-o", d + "/o", "--latency-intra", "2us", "--latency-inter", "1us"},
		{simTrace, "-o", d + "/o", "--format", "csv"},
		{simTrace, "-o", d + "/o", "--max-shift", "soon"},
		{simTrace, "-o", d + "/o", "--alltoallv", "maybe"},
	} {
		assert.Equal(t, cli.ExitUsage, run(context.Background(), args, io.Discard, io.Discard), "%q", args)
	}
	// the command cannot do it: status 1
	for _, args := range [][]string{
		{filepath.Join(d, "nope"), "-o", d + "/o"}, // missing input
		{d, "-o", d + "/o"},                        // not a trace
		{simTrace, "-o", simTrace + "/out"},        // into the input
	} {
		assert.Equal(t, exitError, run(context.Background(), args, io.Discard, io.Discard), "%q", args)
	}
	_, err := os.Stat(filepath.Join(simTrace, "out"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// --strict turns an inconsistent trace (an unmatched send) into exit 2,
// with the output still written.
func TestStrict(t *testing.T) {
	tr, err := native.ReadDir(simTrace, nil)
	require.NoError(t, err)
	// Drop one receive's message: make it an internal event.
	ev := &tr.Locations[1].Events
	for i, k := range ev.Kind {
		if k == trace.KindRecv {
			ev.Kind[i] = trace.KindOther
			ev.Ref[i] = uint32(len(ev.Opaque))
			ev.Opaque = append(ev.Opaque, trace.Opaque{Type: 1})
			break
		}
	}
	in := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), in, tr, nil))
	out := filepath.Join(t.TempDir(), "out")
	assert.Equal(t, exitOK, run(context.Background(), []string{in, "-o", out, "-q"}, io.Discard, io.Discard))
	out2 := filepath.Join(t.TempDir(), "out")
	assert.Equal(t, exitInconsistent, run(context.Background(), []string{in, "-o", out2, "-q", "--strict"}, io.Discard, io.Discard))
	_, err = os.Stat(filepath.Join(out2, "traces.otf2"))
	assert.NoError(t, err, "the output is written even with --strict (OTF2 by default)")
}

// Converting to OTF2 writes an archive that the reference reader accepts.
func TestConvertToOTF2(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fixed")
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "-o", out, "--format", "otf2", "-q"}, io.Discard, io.Discard))
	require.True(t, otf.IsArchive(out))
	cmd := exec.Command(testenv.Tool(t, "otf2-print", "otf2-tools"), "--silent", "-Werror", filepath.Join(out, "traces.otf2"))
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	// And back to native: same number of events.
	back := filepath.Join(t.TempDir(), "back")
	require.Equal(t, exitOK, run(context.Background(), []string{out, "-o", back, "--format", "native", "-q"}, io.Discard, io.Discard))
	a, err := native.ReadDir(simTrace, nil)
	require.NoError(t, err)
	b, err := native.ReadDir(back, nil)
	require.NoError(t, err)
	assert.Equal(t, a.NumEvents(), b.NumEvents())
	assert.True(t, strings.HasPrefix(b.Properties["clc.corrected"], "clc-correct"))
}

// --html with --check writes the page (and nothing else); a page inside the
// input is refused before anything runs.
func TestHTMLReportWithCheck(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "r.html")
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "--check", "-q", "--html", page}, io.Discard, io.Discard))
	b, err := os.ReadFile(page)
	require.NoError(t, err)
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
	}
	assert.Contains(t, string(b), "check only")
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "only the page")
	assert.Equal(t, exitError, run(context.Background(), []string{simTrace, "--check", "-q", "--html", filepath.Join(simTrace, "r.html")}, io.Discard, io.Discard))
	_, err = os.Stat(filepath.Join(simTrace, "r.html"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// --format perfetto writes OUTDIR/trace.json.gz with an arrow per matched
// message (as many as the report's point-to-point count, which the
// pipeline's matching gives) and a slice per event of the kinds exported.
func TestPerfettoFormat(t *testing.T) {
	out := filepath.Join(t.TempDir(), "view")
	rep := filepath.Join(t.TempDir(), "r.json")
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "-o", out, "--format", "perfetto", "-q", "--report", rep}, io.Discard, io.Discard))
	var r struct {
		Messages struct {
			P2P int `json:"p2p"`
		} `json:"messages"`
		Notes []string `json:"notes"`
	}
	b, err := os.ReadFile(rep)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &r))
	f, err := os.Open(filepath.Join(out, "trace.json.gz"))
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	var tf struct {
		TraceEvents []struct {
			Ph      string `json:"ph"`
			FlowOut bool   `json:"flow_out"`
			FlowIn  bool   `json:"flow_in"`
		} `json:"traceEvents"`
	}
	require.NoError(t, json.NewDecoder(zr).Decode(&tf))
	outs, ins := 0, 0
	for _, e := range tf.TraceEvents {
		if e.FlowOut {
			outs++
		}
		if e.FlowIn {
			ins++
		}
	}
	assert.Positive(t, r.Messages.P2P)
	assert.Equal(t, r.Messages.P2P, outs)
	assert.Equal(t, r.Messages.P2P, ins)
	assert.Empty(t, r.Notes, "the small trace is exported whole")

	// A budget below the trace's size: a window, said in a note.
	out2 := filepath.Join(t.TempDir(), "view")
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "-o", out2, "--format", "perfetto", "-q", "--report", rep, "--perfetto-max-events", "500"}, io.Discard, io.Discard))
	b, err = os.ReadFile(rep)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &r))
	require.NotEmpty(t, r.Notes)
	assert.Contains(t, strings.Join(r.Notes, "\n"), "event budget of 500")
	assert.Equal(t, cli.ExitUsage, run(context.Background(), []string{simTrace, "-o", filepath.Join(t.TempDir(), "v"), "--format", "perfetto", "--perfetto-window", "5ms"}, io.Discard, io.Discard))
	assert.Equal(t, cli.ExitUsage, run(context.Background(), []string{simTrace, "--check", "--perfetto-window", "0s:5ms"}, io.Discard, io.Discard))
}

// The report names the method that ran, μ and its source, and the clock
// domains; --method clc runs the pure CLC (nothing earlier); a μ given on
// the command line is kept, a default lowered by the trace is said so.
func TestMethodAndLatencyInReport(t *testing.T) {
	report := func(args ...string) map[string]any {
		rep := filepath.Join(t.TempDir(), "r.json")
		require.Equal(t, exitOK, run(context.Background(), append([]string{simTrace, "--check", "-q", "--report", rep}, args...), io.Discard, io.Discard))
		var r map[string]any
		b, err := os.ReadFile(rep)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &r))
		return r
	}
	def := report()
	m := def["method"].(map[string]any)
	assert.Equal(t, "model", m["requested"])
	assert.Equal(t, "model + clc", m["ran"])
	doms := m["clock_domains"].(map[string]any)
	assert.Equal(t, 4.0, doms["count"], "testdata/sim-16: 4 nodes, one clock each")
	inter := m["latency"].(map[string]any)["inter"].(map[string]any)
	assert.Equal(t, "default", inter["source"])
	assert.NotNil(t, def["model"], "the clock condition after the model")
	assert.Positive(t, def["model_shift"].(map[string]any)["max_earlier"].(float64), "the model moves events earlier")

	pure := report("--method", "clc", "--latency-intra", "100ns")
	m = pure["method"].(map[string]any)
	assert.Equal(t, "clc", m["ran"])
	assert.Nil(t, pure["model"])
	assert.Nil(t, pure["model_shift"], "the pure CLC moves nothing earlier")
	intra := m["latency"].(map[string]any)["intra"].(map[string]any)
	assert.Equal(t, "flag", intra["source"])
	assert.Equal(t, 100.0, intra["ticks"])
	assert.Equal(t, cli.ExitUsage, run(context.Background(), []string{simTrace, "--check", "--method", "fastest"}, io.Discard, io.Discard))
}

// TestVersion: --version prints the command's name and its build.
func TestVersion(t *testing.T) {
	var out bytes.Buffer
	require.Equal(t, exitOK, run(context.Background(), []string{"--version"}, &out, io.Discard))
	assert.Regexp(t, `^clc-correct \S+, (commit [0-9a-f]+|no VCS commit recorded).*, go1\.`, out.String())
}
