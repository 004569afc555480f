package sim

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bothDefinitions returns the definitions of cfg's recorded trace and truth.
func bothDefinitions(t testing.TB, cfg Config) (rec, truth *trace.Trace) {
	t.Helper()
	rec, err := Definitions(cfg)
	require.NoError(t, err)
	truth, err = TruthDefinitions(cfg)
	require.NoError(t, err)
	return rec, truth
}

// nativeSinks creates native writers for cfg's recorded trace and truth in
// dir/rec and dir/truth.
func nativeSinks(t testing.TB, cfg Config, dir string, opt *native.WriteOptions) (rec, truth *native.DirWriter) {
	t.Helper()
	defs, tdefs := bothDefinitions(t, cfg)
	rec, err := native.CreateDir(filepath.Join(dir, "rec"), defs, opt)
	require.NoError(t, err)
	truth, err = native.CreateDir(filepath.Join(dir, "truth"), tdefs, opt)
	require.NoError(t, err)
	return rec, truth
}

// runAndClose runs cfg into the sinks and closes them.
func runAndClose(t testing.TB, cfg Config, rec, truth trace.Sink) {
	t.Helper()
	require.NoError(t, Run(cfg, rec, truth))
	require.NoError(t, rec.Close())
	require.NoError(t, truth.Close())
}

// Above 64 locations the native writers put several locations into each
// bundle file, and with small blocks most blocks fill up (and go to their
// bundle) while the flusher appends, not at Close. The bytes still do not
// depend on how many goroutines flush and write, and the events read back
// are the simulated ones.
func TestNativeBundlesReproducible(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	cfg := DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Events, cfg.FlushEvents = 100, 4, 100000, 5000
	opt := &native.WriteOptions{Codec: native.CodecZstd, BlockSize: 300}
	var first map[string][]byte
	for i, procs := range []int{1, 4, 3, 4} {
		runtime.GOMAXPROCS(procs)
		dir := t.TempDir()
		rec, truth := nativeSinks(t, cfg, dir, opt)
		runAndClose(t, cfg, rec, truth)
		files := tracetest.DirFiles(t, dir)
		if first == nil {
			require.NotNil(t, files["rec/events/bundle-7.clcb"], "rec/events/bundle-7.clcb (bundled) among %d files", len(files))
			checkReadBack(t, cfg, dir)
			first = files
			continue
		}
		tracetest.SameFiles(t, first, files, fmt.Sprintf("run %d (GOMAXPROCS %d) against the first (GOMAXPROCS 1)", i, procs))
	}
}

// checkReadBack compares the native traces in dir with what Generate
// returns for cfg.
func checkReadBack(t *testing.T, cfg Config, dir string) {
	t.Helper()
	wantRec, wantTruth := generate(t, cfg)
	for name, want := range map[string]*trace.Trace{"rec": wantRec, "truth": wantTruth} {
		got, err := native.ReadDir(filepath.Join(dir, name), nil)
		require.NoError(t, err)
		for li, l := range want.Locations {
			g, w := &got.Locations[li].Events, &l.Events
			require.True(t, slices.Equal(g.Kind, w.Kind), "%s: location %d: the events' kinds differ", name, li)
			require.True(t, slices.Equal(g.Time, w.Time), "%s: location %d: the events' times differ", name, li)
			require.True(t, slices.Equal(g.Ref, w.Ref), "%s: location %d: the events' references differ", name, li)
			require.True(t, slices.Equal(g.Msgs, w.Msgs), "%s: location %d: the events' messages differ", name, li)
		}
	}
}

// rangedSink is a memSink with ranges.
type rangedSink struct {
	memSink
	bounds []int
}

func (r *rangedSink) Ranges() []int { return r.bounds }

func TestFlushBounds(t *testing.T) {
	plain := &memSink{}
	ranged := func(b ...int) trace.Sink { return &rangedSink{bounds: b} }
	for _, c := range []struct {
		name  string
		sinks []trace.Sink
		want  []int
	}{
		{"no ranges: batches", []trace.Sink{plain, plain}, []int{0, 4, 8, 10}},
		{"one sink's ranges", []trace.Sink{plain, ranged(0, 3, 10)}, []int{0, 3, 10}},
		{"the bounds both have", []trace.Sink{ranged(0, 2, 5, 7, 10), ranged(0, 5, 6, 10)}, []int{0, 5, 10}},
	} {
		got, err := flushBounds(10, 4, c.sinks...)
		if assert.NoError(t, err, c.name) {
			assert.Equal(t, c.want, got, c.name)
		}
	}
	for _, b := range [][]int{{0}, {1, 10}, {0, 9}, {0, 5, 5, 10}, {0, 11}} {
		_, err := flushBounds(10, 4, ranged(b...))
		assert.Error(t, err, "ranges %v", b)
	}
}
