package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/trace"
)

const simTrace = "../../testdata/sim-16"

func TestCorrectsShippedTrace(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fixed")
	rep := filepath.Join(t.TempDir(), "r.json")
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "-o", out, "--report", rep, "-q"}, io.Discard, io.Discard))
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

func TestCheckWritesNothing(t *testing.T) {
	dir := t.TempDir()
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "--check", "-q"}, io.Discard, io.Discard))
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, ents)
	assert.Equal(t, exitError, run(context.Background(), []string{simTrace, "--check", "-o", filepath.Join(dir, "x")}, io.Discard, io.Discard))
}

func TestBadArguments(t *testing.T) {
	d := t.TempDir()
	for _, args := range [][]string{
		{}, // no input
		{filepath.Join(d, "nope"), "-o", d + "/o"}, // missing input
		{d, "-o", d + "/o"},                        // not a trace
		{simTrace},                                 // no output
		{simTrace, "-o", d + "/o", "--gamma", "1.5"},
		{simTrace, "-o", d + "/o", "--latency-intra", "2us", "--latency-inter", "1us"},
		{simTrace, "-o", d + "/o", "--format", "csv"},
		{simTrace, "-o", d + "/o", "--max-shift", "soon"},
		{simTrace, "-o", d + "/o", "--alltoallv", "maybe"},
		{simTrace, "-o", simTrace + "/out"}, // into the input
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
	require.NoError(t, native.WriteDir(in, tr, nil))
	out := filepath.Join(t.TempDir(), "out")
	assert.Equal(t, exitOK, run(context.Background(), []string{in, "-o", out, "-q"}, io.Discard, io.Discard))
	out2 := filepath.Join(t.TempDir(), "out")
	assert.Equal(t, exitInconsistent, run(context.Background(), []string{in, "-o", out2, "-q", "--strict"}, io.Discard, io.Discard))
	assert.True(t, native.IsDir(out2), "the output is written even with --strict")
}

// Converting to OTF2 writes an archive that the reference reader accepts.
func TestConvertToOTF2(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fixed")
	require.Equal(t, exitOK, run(context.Background(), []string{simTrace, "-o", out, "--format", "otf2", "-q"}, io.Discard, io.Discard))
	require.True(t, otf.IsArchive(out))
	if _, err := exec.LookPath("otf2-print"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("otf2-print is missing (install otf2-tools)")
		}
		t.Skip("otf2-print not installed")
	}
	cmd := exec.Command("otf2-print", "--silent", "-Werror", filepath.Join(out, "traces.otf2"))
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
