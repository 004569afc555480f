package otf

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/trace"
)

// roundTripArchives returns the archives the round trips through the
// native format are tested on, by name: every real archive of testdata, a
// hybrid archive of testdata/otf2/genhybrid.py (MPI + OpenMP + pthreads,
// metric locations, clock offsets) and a reference archive of genref.py
// (every MPI record, attributes, metrics, RMA, BufferFlush …) whose
// location 1 gets mapping tables that move its region ids (0 and 1 swap,
// 2 is 5) and give its world communicator a second local id (9, which the
// writer then uses: the smallest local id of the table). The generated
// archives are made once per run (fixtures).
func roundTripArchives(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, a := range realArchives(t) {
		out[filepath.Base(filepath.Dir(a))] = a
	}
	py := testenv.PythonOTF2(t)
	dir := fixtures.Dir(t, "genhybrid 3 3 4 7", func(dir string) error {
		if b, err := exec.Command(py, "../testdata/otf2/genhybrid.py", dir, "3", "3", "4", "7").CombinedOutput(); err != nil {
			return fmt.Errorf("genhybrid.py: %v\n%s", err, b)
		}
		return nil
	})
	out["genhybrid"] = filepath.Join(dir, "rec", "traces.otf2")
	ref := fixtures.Dir(t, "genref 20 mapped", func(dir string) error {
		if err := writeRef(py, dir, 20); err != nil {
			return err
		}
		writeLocalDefs(t, filepath.Join(dir, "traces", "4294967297.def"), false, map[uint8][][2]uint64{
			mapRegion: {{0, 1}, {1, 0}, {2, 5}}, mapComm: {{1, 1}, {9, 0}}})
		return nil
	})
	out["genref-mapped"] = filepath.Join(ref, "traces.otf2")
	return out
}

// sortedNames returns the keys of m in order.
func sortedNames(m map[string]string) []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// clockOffsetLines returns otf2-print's CLOCK_OFFSET lines.
func clockOffsetLines(p printed) []string {
	var out []string
	for _, l := range p.lines {
		if strings.HasPrefix(l, "CLOCK_OFFSET") {
			out = append(out, l)
		}
	}
	return out
}

// throughNative writes tr as a native trace with opt and reads it back;
// twice when twice is set (native → native).
func throughNative(t *testing.T, tr *trace.Trace, opt *native.WriteOptions, twice bool) *trace.Trace {
	t.Helper()
	for range map[bool]int{false: 1, true: 2}[twice] {
		dir := filepath.Join(t.TempDir(), "native")
		require.NoError(t, native.WriteDir(context.Background(), dir, tr, opt))
		var err error
		tr, err = native.ReadDir(dir, nil)
		require.NoError(t, err)
	}
	return tr
}

// OTF2 → native → OTF2 (and OTF2 → native → native → OTF2, bundled and
// uncompressed) loses nothing: otf2-print -A -M -C prints the output as the
// input, anchor, every global definition, mapping tables, clock offsets
// and every event with its attributes, but for ClockProperties and the
// Location event counts (written as the files hold them, see
// TestRealArchivesRoundTrip); its warnings are the same and
// otf2-print -Werror accepts the output wherever it accepts the input.
// Before the native format carried OTF2's definitions this failed on every
// archive (docs/otf2.md, "Round trips through the native format"). By
// default each archive takes one of the two paths, alternately in name
// order; with CLC_TEST_FULL=1 both.
func TestNativeRoundTrip(t *testing.T) {
	archives := roundTripArchives(t)
	variants := []struct {
		name  string
		opt   *native.WriteOptions
		twice bool
	}{
		{"native", nil, false},
		{"native-native-bundled", &native.WriteOptions{Codec: native.CodecNone, BlockSize: 4096, Bundles: 2}, true},
	}
	for k, name := range sortedNames(archives) {
		anchor := archives[name]
		t.Run(name, func(t *testing.T) {
			in := printAll(t, anchor)
			require.True(t, in.ok, "otf2-print rejects the input: %v", in.warnings)
			wantLines, _, inCounted := in.normalised()
			a, err := Open(anchor)
			require.NoError(t, err)
			for vi, v := range variants {
				if !testenv.Full() && vi != k%len(variants) {
					continue
				}
				t.Run(v.name, func(t *testing.T) {
					tr, err := a.Read(context.Background(), nil)
					require.NoError(t, err)
					back := throughNative(t, tr, v.opt, v.twice)
					out := filepath.Join(t.TempDir(), "out")
					require.NoError(t, WriteTrace(context.Background(), out, back, nil))
					got := printAll(t, filepath.Join(out, "traces.otf2"))
					require.True(t, got.ok, "otf2-print rejects the output: %v", got.warnings)
					assert.Equal(t, in.warnings, got.warnings, "otf2-print's warnings")
					gotLines, gotAnnounced, gotCounted := got.normalised()
					assert.Equal(t, wantLines, gotLines)
					assert.Equal(t, clockOffsetLines(in), clockOffsetLines(got))
					assert.Equal(t, inCounted, gotCounted)
					assert.Equal(t, gotCounted, withZeros(gotAnnounced, gotCounted))
					if checkWerror(t, anchor) {
						assert.True(t, checkWerror(t, filepath.Join(out, "traces.otf2")), "otf2-print -Werror accepts the input, not the output")
					}
				})
			}
		})
	}
}

// A corrected trace (pre-synchronised, then times moved) that goes through
// the native format is written as Rewrite writes the same corrected trace:
// otf2-print prints both archives identically (the definitions and records
// stay, only times and ClockProperties change, and the ClockOffset records
// are gone), but for BufferFlush stop times, which Rewrite moves with their
// flush and the native path cannot (docs/otf2.md). Both through one native
// trace and, as clc-correct corrects a native trace again, through
// native.RewriteTimes with times moved once more (by default on every
// second archive in name order; with CLC_TEST_FULL=1 on all).
func TestNativeRoundTripCorrected(t *testing.T) {
	archives := roundTripArchives(t)
	for k, name := range sortedNames(archives) {
		anchor := archives[name]
		t.Run(name, func(t *testing.T) {
			a, err := Open(anchor)
			require.NoError(t, err)
			tr, err := a.Read(context.Background(), nil)
			require.NoError(t, err)
			_, err = presync.Apply(tr, nil)
			require.NoError(t, err)
			// Move every location's second half later, by a different
			// amount per location (times stay ordered).
			for li, l := range tr.Locations {
				ts := l.Events.Time
				for i := len(ts) / 2; i < len(ts); i++ {
					ts[i] += int64(1000 + 37*li)
				}
			}
			compareCorrected(t, a, tr, throughNative(t, tr, nil, false))
			if !testenv.Full() && k%2 == 1 {
				return
			}

			// Again, through native.RewriteTimes: location 0's last quarter
			// moves 300 ticks more.
			dir := filepath.Join(t.TempDir(), "native")
			require.NoError(t, native.WriteDir(context.Background(), dir, tr, nil))
			times := make([][]int64, len(tr.Locations))
			for li, l := range tr.Locations {
				times[li] = append([]int64(nil), l.Events.Time...)
			}
			for i := 3 * len(times[0]) / 4; i < len(times[0]); i++ {
				times[0][i] += 300
			}
			dir2 := filepath.Join(t.TempDir(), "native2")
			require.NoError(t, native.RewriteTimes(context.Background(), dir2, dir, times, tr.Properties, nil))
			back, err := native.ReadDir(dir2, nil)
			require.NoError(t, err)
			tr.Locations[0].Events.Time = times[0]
			compareCorrected(t, a, tr, back)
		})
	}
}

// compareCorrected writes corrected (a trace read from a) with Rewrite and
// back (the same trace through the native format) with WriteTrace and
// compares what otf2-print prints of both.
func compareCorrected(t *testing.T, a *Archive, corrected, back *trace.Trace) {
	t.Helper()
	oracle := filepath.Join(t.TempDir(), "rewrite")
	require.NoError(t, a.Rewrite(oracle, corrected, nil))
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, WriteTrace(context.Background(), out, back, nil))
	want := printAll(t, filepath.Join(oracle, "traces.otf2"))
	got := printAll(t, filepath.Join(out, "traces.otf2"))
	require.True(t, got.ok, "otf2-print rejects the output: %v", got.warnings)
	assert.Equal(t, want.warnings, got.warnings)
	flushes := false
	drop := func(p printed) []string {
		var out []string
		for _, l := range p.lines {
			if strings.HasPrefix(l, "BUFFER_FLUSH") {
				flushes = true
				l = l[:strings.Index(l, "Stop Time:")]
			}
			out = append(out, l)
		}
		return out
	}
	wl, gl := drop(want), drop(got)
	if flushes {
		// The time range covers the stop times, which differ.
		wl, _, _ = printed{lines: wl}.normalised()
		gl, _, _ = printed{lines: gl}.normalised()
	}
	assert.Equal(t, wl, gl)
	assert.Empty(t, clockOffsetLines(got))
	if checkWerror(t, filepath.Join(oracle, "traces.otf2")) {
		assert.True(t, checkWerror(t, filepath.Join(out, "traces.otf2")))
	}
}

// The size of the carried data on each archive (run with -v): the native
// trace with and without it (default options), beside the source's
// definition files. The carried file holds them all, compressed.
func TestNativeCarriedSizes(t *testing.T) {
	archives := roundTripArchives(t)
	for _, name := range sortedNames(archives) {
		a, err := Open(archives[name])
		require.NoError(t, err)
		tr, err := a.Read(context.Background(), nil)
		require.NoError(t, err)
		parts, err := tr.Carried.Parts()
		require.NoError(t, err)
		var src int
		for _, p := range parts {
			src += len(p.Data)
		}
		with := filepath.Join(t.TempDir(), "with")
		require.NoError(t, native.WriteDir(context.Background(), with, tr, nil))
		tr.Carried = nil
		without := filepath.Join(t.TempDir(), "without")
		require.NoError(t, native.WriteDir(context.Background(), without, tr, nil))
		w, c := nativeSizes(t, with)
		wo, _ := nativeSizes(t, without)
		require.Positive(t, c)
		require.Equal(t, wo+c, w-(manifestSize(t, with)-manifestSize(t, without)), "the carried file and a manifest entry are the difference")
		t.Logf("%-22s %8d events  native without %9d B, with %9d B (+%5.1f %%); carried.clcd %7d B for %7d B of OTF2 definition files",
			name, tr.NumEvents(), wo, w, 100*float64(w-wo)/float64(wo), c, src)
	}
}

// manifestSize returns the size of a native trace's manifest.
func manifestSize(t *testing.T, dir string) int64 {
	t.Helper()
	st, err := os.Stat(filepath.Join(dir, native.ManifestName))
	require.NoError(t, err)
	return st.Size()
}

// nativeSizes reports the bytes of a native trace directory: all files and
// the carried file.
func nativeSizes(t *testing.T, dir string) (total, carried int64) {
	t.Helper()
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			total += fi.Size()
			if fi.Name() == native.CarriedName {
				carried += fi.Size()
			}
		}
		return err
	}))
	return total, carried
}
