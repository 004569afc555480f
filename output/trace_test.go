package output

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/trace"
	"github.com/clc-tools/clc/tracer"
)

// smallTrace is a two-location trace with a message.
func smallTrace() *trace.Trace {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "f"}},
		Comms: []trace.Comm{{Name: "MPI_COMM_WORLD", Members: []int32{0, 1}}}}
	for i := range 2 {
		l := &trace.Location{ID: uint64(i), Name: "rank", Node: 0}
		l.Events.AppendRegion(trace.KindEnter, 100, 0)
		l.Events.AppendRegion(trace.KindLeave, 200, 0)
		tr.Locations = append(tr.Locations, l)
	}
	return tr
}

// writeNative writes a native trace (with a truth) into dir.
func writeNative(t *testing.T, dir string, bundles int) {
	t.Helper()
	require.NoError(t, native.WriteDir(context.Background(), dir, smallTrace(), &native.WriteOptions{Bundles: bundles}))
	require.NoError(t, native.WriteDir(context.Background(), filepath.Join(dir, "truth"), smallTrace(), nil))
}

// writeOTF2 writes an OTF2 archive (with a truth) into dir.
func writeOTF2(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, otf.WriteTrace(context.Background(), dir, smallTrace(), nil))
	require.NoError(t, native.WriteDir(context.Background(), filepath.Join(dir, "truth"), smallTrace(), nil))
}

// clc-trace's directories are known by name here; they must stay the
// tracer's.
func TestTracerDirectoryNames(t *testing.T) {
	assert.Equal(t, tracer.MetaDir, tracerMetaDir)
	assert.Equal(t, tracer.NativeSubdir, tracerNativeDir)
}

// What a trace is is decided by the content: --force deleted any directory
// whose names looked like a trace's (issue 26).
func TestCheckTraceLooksAtTheContent(t *testing.T) {
	d := t.TempDir()
	good := map[string]func(string){
		"native":         func(p string) { writeNative(t, p, 0) },
		"native bundled": func(p string) { writeNative(t, p, 1) },
		"otf2":           func(p string) { writeOTF2(t, p) },
		"clc-trace otf2": func(p string) {
			writeOTF2(t, p)
			require.NoError(t, native.WriteDir(context.Background(), filepath.Join(p, tracerNativeDir), smallTrace(), nil))
			write(t, filepath.Join(p, tracerMetaDir, "0.txt"), "rank 0\n")
		},
	}
	for name, make := range good {
		p := filepath.Join(d, strings.ReplaceAll(name, " ", "-"))
		make(p)
		assert.NoError(t, CheckTrace(p), name)
	}
	bad := []struct {
		name, why string
		make      func(string)
	}{
		{"text manifest", "not a native trace's manifest", func(p string) {
			write(t, filepath.Join(p, "clc.json"), "my notes")
			write(t, filepath.Join(p, "events", "0.clce"), "x")
		}},
		{"user file in events", "events/thesis.tex", func(p string) {
			writeNative(t, p, 0)
			write(t, filepath.Join(p, "events", "thesis.tex"), "x")
		}},
		{"user data as a stream", "does not begin with a stream header", func(p string) {
			writeNative(t, p, 0)
			write(t, filepath.Join(p, "events", "1.clce"), "my data, not a stream")
		}},
		{"stream of a location the manifest lacks", "events/7.clce", func(p string) {
			writeNative(t, p, 0)
			b, err := os.ReadFile(filepath.Join(p, "events", "0.clce"))
			require.NoError(t, err)
			write(t, filepath.Join(p, "events", "7.clce"), string(b))
		}},
		{"fake anchor", "not an OTF2 archive's anchor", func(p string) {
			write(t, filepath.Join(p, "traces.otf2"), "x")
			write(t, filepath.Join(p, "traces.def"), "x")
			write(t, filepath.Join(p, "traces", "0.evt"), "x")
		}},
		{"user data in the archive", "traces/results.csv", func(p string) {
			writeOTF2(t, p)
			write(t, filepath.Join(p, "traces", "results.csv"), "x")
		}},
		{"user data as an event file", "does not begin with a chunk header", func(p string) {
			writeOTF2(t, p)
			write(t, filepath.Join(p, "traces", "1.evt"), "x")
		}},
		{"score-p experiment", "scorep.cfg", func(p string) {
			writeOTF2(t, p)
			write(t, filepath.Join(p, "scorep.cfg"), "x")
		}},
		{"fake truth", "truth", func(p string) {
			require.NoError(t, otf.WriteTrace(context.Background(), p, smallTrace(), nil))
			write(t, filepath.Join(p, "truth", "clc.json"), "{}")
		}},
		{"meta with a user file", "notes", func(p string) {
			writeNative(t, p, 0)
			write(t, filepath.Join(p, tracerMetaDir, "notes"), "x")
		}},
		{"two archives", "several OTF2 archives", func(p string) {
			writeOTF2(t, p)
			b, err := os.ReadFile(filepath.Join(p, "traces.otf2"))
			require.NoError(t, err)
			write(t, filepath.Join(p, "other.otf2"), string(b))
		}},
		{"home", "no trace", func(p string) { write(t, filepath.Join(p, "thesis.tex"), "x") }},
		{"symbolic link", "symbolic link", func(p string) {
			writeNative(t, p, 0)
			require.NoError(t, os.Symlink(d, filepath.Join(p, "events", "2.clce")))
		}},
	}
	for _, c := range bad {
		p := filepath.Join(d, strings.ReplaceAll(c.name, " ", "-"))
		c.make(p)
		err := CheckTrace(p)
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.why, c.name)
	}
}

func TestDirReplaceRules(t *testing.T) {
	d := t.TempDir()
	nat := filepath.Join(d, "native")
	writeNative(t, nat, 0)
	scorep := filepath.Join(d, "scorep-20261123")
	writeOTF2(t, scorep)
	write(t, filepath.Join(scorep, "scorep.cfg"), "x")
	home := filepath.Join(d, "home")
	write(t, filepath.Join(home, "thesis.tex"), "x")
	empty := filepath.Join(d, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))

	p, _ := NewPlan()
	_, err := p.Dir("output", nat, KeepExisting)
	require.ErrorContains(t, err, "not empty")
	_, err = p.Dir("output", scorep, ReplaceTrace)
	require.ErrorContains(t, err, "scorep.cfg")
	_, err = p.Dir("output", home, ReplaceTrace)
	require.ErrorContains(t, err, "refusing to replace")
	tmp, err := p.Dir("output", nat, ReplaceTrace)
	require.NoError(t, err)
	write(t, filepath.Join(tmp, "clc.json"), "new")
	tmp2, err := p.Dir("second", empty, KeepExisting)
	require.NoError(t, err)
	write(t, filepath.Join(tmp2, "x"), "y")
	require.NoError(t, p.Commit())
	assert.Equal(t, []string{"clc.json"}, entries(t, nat))
	assert.Equal(t, []string{"x"}, entries(t, empty))
	for _, n := range entries(t, d) {
		assert.False(t, strings.HasPrefix(n, TempPrefix), n)
	}
	// The refused directories are untouched.
	assert.Len(t, entries(t, scorep), 5)
	assert.Len(t, entries(t, home), 1)
}
