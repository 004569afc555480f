package native

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/trace"
)

// This file tests bundles (docs/format.md, "Bundles"): streams of several
// locations sharing files as extents.

// testExtent and testManifest decode what the tests need of clc.json,
// independently of the package's manifest code.
type testExtent struct {
	File   string `json:"file"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
}

type testManifest struct {
	Version   int `json:"version"`
	Locations []struct {
		Events  *int64        `json:"events"`
		Extents *[]testExtent `json:"extents"`
	} `json:"locations"`
}

func readTestManifest(t *testing.T, dir string) testManifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	require.NoError(t, err)
	var m testManifest
	require.NoError(t, json.Unmarshal(data, &m))
	return m
}

// requireLayout checks the files of a trace of locs locations: one
// stream file per location and manifest version 1 (bundles 0), or at most
// bundles bundle files, manifest version 2, every location with extents
// that exactly tile the bundle files (no gaps, no overlaps). A threaded
// trace (trace.Trace.Threaded) has version 3 either way.
func requireLayout(t *testing.T, dir string, locs, bundles int) {
	t.Helper()
	m := readTestManifest(t, dir)
	if m.Version == nativeVersion3 {
		got, err := ReadDir(dir, nil)
		require.NoError(t, err)
		require.True(t, got.Threaded(), "version %d for a trace without threads", m.Version)
		m.Version = 1
		if bundles > 0 {
			m.Version = 2
		}
	}
	require.Len(t, m.Locations, locs)
	ents, err := os.ReadDir(filepath.Join(dir, EventsDirName))
	require.NoError(t, err)
	if bundles == 0 {
		require.Equal(t, 1, m.Version)
		require.Len(t, ents, locs)
		for i, l := range m.Locations {
			require.Nil(t, l.Extents, "location %d", i)
			_, err := os.Stat(filepath.Join(dir, EventsDirName, strconv.Itoa(i)+StreamExt))
			require.NoError(t, err)
		}
		return
	}
	require.Equal(t, 2, m.Version)
	require.LessOrEqual(t, len(ents), bundles)
	covered := map[string][]testExtent{}
	for i, l := range m.Locations {
		require.NotNil(t, l.Extents, "location %d", i)
		if *l.Events == 0 {
			require.Empty(t, *l.Extents, "location %d has no events", i)
		}
		for _, e := range *l.Extents {
			covered[e.File] = append(covered[e.File], e)
		}
	}
	require.Len(t, covered, len(ents))
	for _, de := range ents {
		name := EventsDirName + "/" + de.Name()
		require.True(t, strings.HasPrefix(de.Name(), "bundle-") && strings.HasSuffix(de.Name(), BundleExt), name)
		fi, err := de.Info()
		require.NoError(t, err)
		es := covered[name]
		sort.Slice(es, func(a, b int) bool { return es[a].Offset < es[b].Offset })
		var off int64
		for _, e := range es {
			require.Equal(t, off, e.Offset, "%s: gap or overlap", name)
			off += e.Length
		}
		require.Equal(t, fi.Size(), off, "%s: extents do not end at the end of the file", name)
	}
}

// extentBlocks parses the blocks of one extent of a bundle file
// independently of the reader and returns the end offset (in the file)
// and event count of each block.
func extentBlocks(t *testing.T, data []byte, e testExtent, loc int) (ends []int64, counts []int) {
	t.Helper()
	h := data[e.Offset : e.Offset+fileHeaderSize]
	require.Equal(t, "\x89CLCEVT\n", string(h[:8]))
	require.Equal(t, uint64(loc), binary.LittleEndian.Uint64(h[16:]))
	off := e.Offset + fileHeaderSize
	for off < e.Offset+e.Length {
		require.Equal(t, "CLCB", string(data[off:off+4]))
		s := int64(binary.LittleEndian.Uint32(data[off+8:]))
		off += blockHeaderSize + s
		ends = append(ends, off)
		counts = append(counts, int(binary.LittleEndian.Uint32(data[off-s-blockHeaderSize+16:])))
	}
	require.Equal(t, e.Offset+e.Length, off)
	return ends, counts
}

// manyLocTrace returns a trace of n locations with a few events each (some
// none), region and message references, opaque records and attachments.
func manyLocTrace(rng *rand.Rand, n int) *trace.Trace {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n0"}, {Name: "n1"}}, Regions: []trace.Region{{Name: "a"}, {Name: "b"}}}
	world := trace.Comm{Name: "world"}
	for i := range n {
		world.Members = append(world.Members, int32(i))
		tr.Locations = append(tr.Locations, &trace.Location{ID: uint64(i), Name: "rank " + strconv.Itoa(i), Node: int32(i % 2)})
	}
	tr.Comms = []trace.Comm{world}
	for i, l := range tr.Locations {
		e := &l.Events
		m := 1 + rng.IntN(40)
		if i%7 == 3 {
			m = 0
		}
		tm := rng.Int64N(1 << 40)
		for j := range m {
			tm += rng.Int64N(5000)
			switch j % 4 {
			case 0, 1:
				e.AppendRegion(trace.KindEnter+trace.Kind(j%2), tm, uint32(rng.IntN(2)))
			case 2:
				e.AppendMsg(trace.KindSend, tm, trace.Message{Peer: uint32(rng.IntN(n)), Tag: rng.Uint32(), Bytes: rng.Uint64()})
			default:
				e.AppendOpaque(tm, trace.Opaque{Format: 1, Type: 5, Data: randBytes(rng)})
				if rng.IntN(2) == 0 {
					e.AttachLast(1, randBytes(rng))
				}
			}
		}
	}
	return tr
}

// TestNativeBundleRoundTrip writes traces of many locations with
// automatic, explicit and no bundles, and reads them back.
func TestNativeBundleRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, c := range []struct {
		locs, bundles, want int
		codec               Codec
		block               int
	}{
		{BundleThreshold, 0, 0, CodecZstd, 0},           // at the threshold: one file per location
		{BundleThreshold + 1, 0, 8, CodecZstd, 0},       // above: bundles (2 cores or fewer: the minimum 8)
		{300, 0, 8, CodecNone, 64},                      // small blocks: several per location
		{300, -1, 0, CodecZstd, 0},                      // forced one file per location
		{300, 5, 5, CodecZstd, 100},                     // explicit count
		{3, 7, 3, CodecNone, 0},                         // at most one bundle per location
		{1000, 1000, maxBundles, CodecZstd, 0},          // at most 64
		{1, 1, 1, CodecZstd, 0},                         // a single location, bundled
		{5, 2, 2, CodecNone, 1},                         // one event per block
		{BundleThreshold + 1, 0, 8, CodecZstd, 1 << 20}, // one block per location
	} {
		name := fmt.Sprintf("locs=%d,bundles=%d,block=%d", c.locs, c.bundles, c.block)
		t.Run(name, func(t *testing.T) {
			tr := manyLocTrace(rng, c.locs)
			dir := filepath.Join(t.TempDir(), "tr")
			opt := &WriteOptions{Codec: c.codec, BlockSize: c.block, Bundles: c.bundles, Parallel: 2}
			require.NoError(t, WriteDir(context.Background(), dir, tr, opt))
			requireLayout(t, dir, c.locs, c.want)
			if c.want > 0 {
				// WriteDir writes each location as one extent.
				m := readTestManifest(t, dir)
				for i, l := range m.Locations {
					if *l.Events > 0 {
						require.Len(t, *l.Extents, 1, "location %d", i)
					}
				}
				ents, err := os.ReadDir(filepath.Join(dir, EventsDirName))
				require.NoError(t, err)
				require.Len(t, ents, c.want, "every bundle holds data")
			}
			for _, par := range []int{1, 3} {
				got, err := ReadDir(dir, &ReadOptions{Parallel: par})
				require.NoError(t, err)
				requireSameTrace(t, tr, got)
			}
		})
	}
}

// TestNativeBundleBalance checks that WriteDir's bundles hold about equal
// amounts of data when the locations' sizes differ a lot.
func TestNativeBundleBalance(t *testing.T) {
	tr := synthTrace(200_000, 128)
	// Make the first 16 locations ten times larger.
	for _, l := range tr.Locations[:16] {
		e := &l.Events
		n := e.Len()
		for r := range 9 {
			att := 0
			for i := range n {
				e.Append(e, i, &att)
				e.Time[e.Len()-1] += int64(r+1) << 30
			}
		}
	}
	dir := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(context.Background(), dir, tr, &WriteOptions{Codec: CodecNone, Bundles: 8}))
	requireLayout(t, dir, 128, 8)
	ents, err := os.ReadDir(filepath.Join(dir, EventsDirName))
	require.NoError(t, err)
	var sizes []int64
	var total int64
	for _, de := range ents {
		fi, err := de.Info()
		require.NoError(t, err)
		sizes = append(sizes, fi.Size())
		total += fi.Size()
	}
	sort.Slice(sizes, func(a, b int) bool { return sizes[a] < sizes[b] })
	// Equal counts of locations would give one bundle ten times the
	// smallest; by size, every bundle is within a location's size of the
	// mean (a large location is 1/25 of the total).
	require.Len(t, sizes, 8)
	require.Less(t, float64(sizes[7]), 1.5*float64(total)/8, "sizes %v", sizes)
	require.Greater(t, float64(sizes[0]), 0.5*float64(total)/8, "sizes %v", sizes)
	got, err := ReadDir(dir, nil)
	require.NoError(t, err)
	requireSameTrace(t, tr, got)
}

// TestNativeBundleStreaming appends many small pieces per location from
// concurrent goroutines with tiny blocks, so each location's stream is
// many extents interleaved with other locations' in the bundles, and
// reads the result back with ReadDir and block by block.
func TestNativeBundleStreaming(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, bundles := range []int{0, 1, 3} {
		t.Run(fmt.Sprint("bundles=", bundles), func(t *testing.T) {
			tr := manyLocTrace(rng, 200)
			dir := filepath.Join(t.TempDir(), "tr")
			w, err := CreateDir(dir, defsOnly(tr), &WriteOptions{Codec: Codec(bundles % 2), BlockSize: 30, Bundles: bundles})
			require.NoError(t, err)
			var wg sync.WaitGroup
			errs := make(chan error, 4)
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// Goroutine g appends locations g, g+4, ... in rounds of
					// one event each, so blocks of different locations alternate.
					att := make([]int, len(tr.Locations))
					for i := 0; ; i++ {
						more := false
						for loc := g; loc < len(tr.Locations); loc += 4 {
							src := &tr.Locations[loc].Events
							if i >= src.Len() {
								continue
							}
							more = true
							var piece trace.Events
							piece.Append(src, i, &att[loc])
							if err := w.Append(loc, &piece); err != nil {
								errs <- err
								return
							}
						}
						if !more {
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			require.NoError(t, <-errs)
			require.NoError(t, w.Close())
			want := bundles
			if bundles == 0 {
				want = 8
			}
			requireLayout(t, dir, 200, want)
			m := readTestManifest(t, dir)
			extents := 0
			for _, l := range m.Locations {
				extents += len(*l.Extents)
			}
			require.Greater(t, extents, 2*len(tr.Locations), "want several extents per location")
			got, err := ReadDir(dir, &ReadOptions{Parallel: 3})
			require.NoError(t, err)
			requireSameTrace(t, tr, got)

			r, err := OpenDir(dir)
			require.NoError(t, err)
			defer r.Close()
			for loc := range tr.Locations {
				s, err := r.Stream(loc)
				require.NoError(t, err)
				var e trace.Events
				blocks := 0
				for {
					err := s.Next(&e)
					if err == io.EOF {
						break
					}
					require.NoError(t, err)
					blocks++
				}
				require.Equal(t, flatten(&tr.Locations[loc].Events), flatten(&e), "location %d", loc)
				require.False(t, s.Truncated())
				require.Equal(t, int64(e.Len()), s.Events())
				require.NoError(t, s.Close())
			}
		})
	}
}

// bundledSmall writes smallTrace into one bundle and returns the
// directory, the trace and the bundle's path and manifest.
func bundledSmall(t *testing.T, codec Codec, streaming bool) (string, *trace.Trace, string, testManifest) {
	t.Helper()
	tr := smallTrace()
	dir := filepath.Join(t.TempDir(), "tr")
	opt := &WriteOptions{Codec: codec, BlockSize: 150, Bundles: 1}
	if !streaming {
		require.NoError(t, WriteDir(context.Background(), dir, tr, opt))
	} else {
		// Alternate the two locations a few events at a time, so their
		// extents interleave.
		w, err := CreateDir(dir, defsOnly(tr), opt)
		require.NoError(t, err)
		att := [2]int{}
		for i := 0; i < tr.Locations[0].Events.Len(); i += 7 {
			for loc := range 2 {
				var piece trace.Events
				src := &tr.Locations[loc].Events
				for j := i; j < min(i+7, src.Len()); j++ {
					piece.Append(src, j, &att[loc])
				}
				require.NoError(t, w.Append(loc, &piece))
			}
		}
		require.NoError(t, w.Close())
	}
	requireLayout(t, dir, 2, 1)
	return dir, tr, filepath.Join(dir, EventsDirName, "bundle-0"+BundleExt), readTestManifest(t, dir)
}

// owner returns the location whose extent holds byte off of a bundle.
func owner(t *testing.T, m testManifest, off int64) int {
	for loc, l := range m.Locations {
		for _, e := range *l.Extents {
			if e.Offset <= off && off < e.Offset+e.Length {
				return loc
			}
		}
	}
	require.FailNow(t, "no extent holds the byte", "byte %d", off)
	return -1
}

// TestNativeBundleCorruptFlip flips bytes of a bundle file (every offset
// with CLC_TEST_FULL=1; by default every fifth, a different fifth in each
// of the four files): each flip must give an error naming the bundle and
// the location whose extent holds the byte.
func TestNativeBundleCorruptFlip(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	phase := 0
	for _, codec := range []Codec{CodecNone, CodecZstd} {
		for _, streaming := range []bool{false, true} {
			dir, _, path, m := bundledSmall(t, codec, streaming)
			orig, err := os.ReadFile(path)
			require.NoError(t, err)
			phase++
			for off := range orig {
				if !testenv.Full() && (off+phase)%5 != 0 {
					continue
				}
				loc := owner(t, m, int64(off))
				for _, mask := range []byte{0xff, 1 << rng.IntN(8)} {
					data := append([]byte(nil), orig...)
					data[off] ^= mask
					require.NoError(t, testenv.ReplaceFile(path, data, 0o666))
					_, err := ReadDir(dir, &ReadOptions{Parallel: 1})
					what := fmt.Sprintf("codec %v, streaming %v, offset %d, mask %#x", codec, streaming, off, mask)
					requireStreamError(t, err, path, loc, what)
					require.Contains(t, err.Error(), "extent ", what)
					var fe *FormatError
					require.ErrorAs(t, err, &fe)
					// The error's offset is the extent's or block's start,
					// at or before the flipped byte and within its extent.
					require.LessOrEqual(t, fe.Offset, int64(off), what)
					require.Equal(t, loc, owner(t, m, fe.Offset), what)
				}
			}
			require.NoError(t, testenv.ReplaceFile(path, orig, 0o666))
			_, err = ReadDir(dir, nil)
			require.NoError(t, err)
		}
	}
}

// TestNativeBundleCut cuts a bundle file at every offset (with
// CLC_TEST_FULL=1; by default at every fifth, a different fifth in each of
// the four files). In a complete trace every cut is an error naming the
// bundle and the first location whose extents reach beyond the cut; with
// complete=false every location reads its extents up to the first one that
// is cut and the whole blocks of that one before the cut, and is listed as
// truncated.
func TestNativeBundleCut(t *testing.T) {
	phase := int64(0)
	for _, codec := range []Codec{CodecNone, CodecZstd} {
		for _, streaming := range []bool{false, true} {
			dir, tr, path, m := bundledSmall(t, codec, streaming)
			orig, err := os.ReadFile(path)
			require.NoError(t, err)
			phase++
			for cut := range int64(len(orig)) {
				if !testenv.Full() && (cut+phase)%5 != 0 {
					continue
				}
				what := fmt.Sprintf("codec %v, streaming %v, cut at %d", codec, streaming, cut)
				// The oracle, from the block headers of the whole file.
				want := [2]int{}
				var cutLocs []string
				first := -1
				for loc, l := range m.Locations {
					for _, e := range *l.Extents {
						ends, counts := extentBlocks(t, orig, e, loc)
						if e.Offset+e.Length <= cut {
							for _, c := range counts {
								want[loc] += c
							}
							continue
						}
						for b, end := range ends {
							if end <= cut && e.Offset+fileHeaderSize <= cut {
								want[loc] += counts[b]
							}
						}
						cutLocs = append(cutLocs, strconv.Itoa(loc))
						if first < 0 {
							first = loc
						}
						break
					}
				}
				require.NoError(t, testenv.ReplaceFile(path, orig[:cut], 0o666))
				setComplete(t, dir, true)
				_, err := ReadDir(dir, &ReadOptions{Parallel: 1})
				requireStreamError(t, err, path, first, what)
				require.ErrorIs(t, err, ErrTruncated, what)

				setComplete(t, dir, false)
				got, err := ReadDir(dir, nil)
				require.NoError(t, err, what)
				require.Equal(t, "true", got.Properties[trace.PropIncomplete])
				require.Equal(t, strings.Join(cutLocs, ","), got.Properties[trace.PropTruncated], what)
				for loc := range 2 {
					var prefix trace.Events
					att := 0
					for i := range want[loc] {
						prefix.Append(&tr.Locations[loc].Events, i, &att)
					}
					require.Equal(t, flatten(&prefix), flatten(&got.Locations[loc].Events), "%s, location %d", what, loc)
				}
			}
			require.NoError(t, testenv.ReplaceFile(path, orig, 0o666))
			setComplete(t, dir, true)
			_, err = ReadDir(dir, nil)
			require.NoError(t, err)
		}
	}
}

// editManifest decodes clc.json into generic JSON, lets edit change it and
// writes it back.
func editManifest(t *testing.T, dir string, edit func(m map[string]any, locs []map[string]any)) {
	t.Helper()
	p := filepath.Join(dir, ManifestName)
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	var locs []map[string]any
	for _, l := range m["locations"].([]any) {
		locs = append(locs, l.(map[string]any))
	}
	edit(m, locs)
	data, err = json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, testenv.ReplaceFile(p, data, 0o666))
}

func extentsOf(l map[string]any) []any { return l["extents"].([]any) }

func extentField(l map[string]any, k int, field string) float64 {
	return extentsOf(l)[k].(map[string]any)[field].(float64)
}

func setExtentField(l map[string]any, k int, field string, v any) {
	extentsOf(l)[k].(map[string]any)[field] = v
}

// TestNativeBundleManifestErrors damages the extents of a bundled trace's
// manifest: errors about the manifest alone name clc.json and the
// location; errors found in the bundle name the bundle, the offset and
// the location.
func TestNativeBundleManifestErrors(t *testing.T) {
	dir, tr, bundle, _ := bundledSmall(t, CodecNone, false)
	mpath := filepath.Join(dir, ManifestName)
	orig, err := os.ReadFile(mpath)
	require.NoError(t, err)
	n1 := tr.Locations[1].Events.Len()
	type edit func(m map[string]any, locs []map[string]any)
	manifestCases := map[string]struct {
		edit edit
		loc  int
		msg  string
	}{
		"overlap": {func(m map[string]any, locs []map[string]any) {
			setExtentField(locs[1], 0, "offset", extentField(locs[0], 0, "length")-8)
		}, 1, "overlaps extent 0 of location 0"},
		"same extent twice": {func(m map[string]any, locs []map[string]any) {
			locs[1]["extents"] = []any{extentsOf(locs[1])[0], extentsOf(locs[1])[0]}
		}, 1, "overlaps extent 0 of location 1"},
		"short length": {func(m map[string]any, locs []map[string]any) { setExtentField(locs[0], 0, "length", 31) }, 0, "shorter than a stream header"},
		"no offset": {func(m map[string]any, locs []map[string]any) {
			delete(extentsOf(locs[1])[0].(map[string]any), "offset")
		}, 1, "missing"},
		"no length": {func(m map[string]any, locs []map[string]any) {
			delete(extentsOf(locs[1])[0].(map[string]any), "length")
		}, 1, "missing"},
		"overflow": {func(m map[string]any, locs []map[string]any) {
			setExtentField(locs[1], 0, "offset", json.Number("9223372036854775800"))
		}, 1, "beyond 2^63-1"},
		"beyond int64": {func(m map[string]any, locs []map[string]any) {
			setExtentField(locs[1], 0, "offset", json.Number("9223372036854775808"))
		}, 1, "beyond 2^63-1"},
		"version 1": {func(m map[string]any, locs []map[string]any) { m["version"] = 1 }, 0, `"extents" in a version 1 manifest`},
		"parent dir": {func(m map[string]any, locs []map[string]any) {
			setExtentField(locs[0], 0, "file", "events/../clc.json")
		}, 0, "bundle file name"},
		"outside events": {func(m map[string]any, locs []map[string]any) { setExtentField(locs[0], 0, "file", "clc.json") }, 0, "bundle file name"},
		"absolute":       {func(m map[string]any, locs []map[string]any) { setExtentField(locs[0], 0, "file", "/etc/passwd") }, 0, "bundle file name"},
		"subdirectory":   {func(m map[string]any, locs []map[string]any) { setExtentField(locs[0], 0, "file", "events/a/b") }, 0, "not allowed"},
		"hidden":         {func(m map[string]any, locs []map[string]any) { setExtentField(locs[0], 0, "file", "events/.b") }, 0, "bundle file name"},
		"stream name":    {func(m map[string]any, locs []map[string]any) { setExtentField(locs[0], 0, "file", "events/1.clce") }, 0, "bundle file name"},
		"empty name":     {func(m map[string]any, locs []map[string]any) { setExtentField(locs[0], 0, "file", "events/") }, 0, "bundle file name"},
		"backslash":      {func(m map[string]any, locs []map[string]any) { setExtentField(locs[0], 0, "file", `events/a\b`) }, 0, "not allowed"},
	}
	for name, c := range manifestCases {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(mpath, orig, 0o666))
			editManifest(t, dir, c.edit)
			_, err := ReadDir(dir, nil)
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			require.Equal(t, mpath, fe.Path, "%v", err)
			require.Equal(t, c.loc, fe.Location, "%v", err)
			require.Contains(t, err.Error(), c.msg)
			_, err = OpenDir(dir)
			require.Error(t, err)
		})
	}
	t.Run("negative offset", func(t *testing.T) {
		require.NoError(t, os.WriteFile(mpath, orig, 0o666))
		editManifest(t, dir, func(m map[string]any, locs []map[string]any) { setExtentField(locs[1], 0, "offset", -1) })
		_, err := ReadDir(dir, nil)
		var fe *FormatError
		require.ErrorAs(t, err, &fe)
		require.Equal(t, mpath, fe.Path, "%v", err)
	})

	streamCases := map[string]struct {
		edit      edit
		path      string
		loc       int
		offset    int64 // -2: the extent's offset
		msg       string
		truncated bool
	}{
		"beyond the end": {func(m map[string]any, locs []map[string]any) {
			setExtentField(locs[1], 0, "length", extentField(locs[1], 0, "length")+1)
		}, bundle, 1, -2, "beyond the end of the file", true},
		"ends inside a block": {func(m map[string]any, locs []map[string]any) {
			setExtentField(locs[0], 0, "length", extentField(locs[0], 0, "length")-1)
		}, bundle, 0, -1, "block payload needs", true},
		"wrong location": {func(m map[string]any, locs []map[string]any) {
			locs[0]["extents"], locs[1]["extents"] = locs[1]["extents"], locs[0]["extents"]
		}, bundle, 0, -2, "header says location 1, the manifest's extent is location 0's", false},
		"missing file": {func(m map[string]any, locs []map[string]any) {
			setExtentField(locs[1], 0, "file", "events/gone.clcb")
		}, filepath.Join(dir, EventsDirName, "gone.clcb"), 1, -1, "no such file", false},
		"count": {func(m map[string]any, locs []map[string]any) {
			locs[1]["events"] = n1 + 1
		}, bundle, 1, -1, fmt.Sprintf("stream holds %d events, the manifest says %d", n1, n1+1), false},
		"no extents": {func(m map[string]any, locs []map[string]any) {
			locs[1]["extents"] = []any{}
		}, mpath, 1, -1, fmt.Sprintf("stream holds 0 events, the manifest says %d", n1), false},
		"does not start at a stream header": {func(m map[string]any, locs []map[string]any) {
			// Location 1 without its first 8 bytes: no stream header there.
			setExtentField(locs[1], 0, "offset", extentField(locs[1], 0, "offset")+8)
			setExtentField(locs[1], 0, "length", extentField(locs[1], 0, "length")-8)
		}, bundle, 1, -2, "bad stream magic", false},
	}
	for name, c := range streamCases {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(mpath, orig, 0o666))
			editManifest(t, dir, c.edit)
			var want int64 = -3
			editManifest(t, dir, func(m map[string]any, locs []map[string]any) {
				if c.offset == -2 {
					want = int64(extentField(locs[c.loc], 0, "offset"))
				}
			})
			_, err := ReadDir(dir, &ReadOptions{Parallel: 1})
			requireStreamError(t, err, c.path, c.loc)
			require.Contains(t, err.Error(), c.msg)
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			if want != -3 {
				require.Equal(t, want, fe.Offset, "%v", err)
				require.Contains(t, err.Error(), fmt.Sprintf("byte offset %d", want))
			}
			if c.truncated {
				require.ErrorIs(t, err, ErrTruncated)
				// The same extent in an incomplete trace: whole blocks.
				setComplete(t, dir, false)
				got, err := ReadDir(dir, nil)
				require.NoError(t, err)
				require.Equal(t, strconv.Itoa(c.loc), got.Properties[trace.PropTruncated])
			}
			if name == "missing file" {
				require.ErrorIs(t, err, os.ErrNotExist)
				setComplete(t, dir, false)
				got, err := ReadDir(dir, nil)
				require.NoError(t, err)
				require.Equal(t, "1", got.Properties[trace.PropTruncated])
				require.Zero(t, got.Locations[1].Events.Len())
			}
		})
	}
	require.NoError(t, os.WriteFile(mpath, orig, 0o666))
	_, err = ReadDir(dir, nil)
	require.NoError(t, err)
}

// TestNativeBundleByHand builds a version 2 trace by hand from a version 1
// trace: location 1's stream is copied into a bundle file after unrelated
// bytes and split into two extents at a block boundary (the second with a
// stream header of its own), location 0 keeps its file. The reader must
// follow docs/format.md, not just read what the writer writes.
func TestNativeBundleByHand(t *testing.T) {
	dir, tr := writeSmall(t, CodecZstd)
	p1 := filepath.Join(dir, EventsDirName, "1"+StreamExt)
	s1, err := os.ReadFile(p1)
	require.NoError(t, err)
	ends, _ := blockEnds(t, s1)
	require.Greater(t, len(ends), 3)
	split := ends[2] // after two blocks
	var bundle []byte
	bundle = append(bundle, "junk that belongs to no extent"...)
	off1 := len(bundle)
	bundle = append(bundle, s1[:split]...)
	bundle = append(bundle, 0, 0, 0) // a gap
	off2 := len(bundle)
	bundle = append(bundle, s1[:fileHeaderSize]...)
	bundle = append(bundle, s1[split:]...)
	require.NoError(t, os.WriteFile(filepath.Join(dir, EventsDirName, "x_y-z.1"), bundle, 0o666))
	require.NoError(t, os.Remove(p1))
	editManifest(t, dir, func(m map[string]any, locs []map[string]any) {
		m["version"] = 2
		locs[1]["extents"] = []any{
			map[string]any{"file": "events/x_y-z.1", "offset": off1, "length": split},
			map[string]any{"file": "events/x_y-z.1", "offset": off2, "length": fileHeaderSize + len(s1) - split},
		}
	})
	got, err := ReadDir(dir, nil)
	require.NoError(t, err)
	requireSameTrace(t, tr, got)

	// The same trace claiming version 1 is refused.
	editManifest(t, dir, func(m map[string]any, locs []map[string]any) { m["version"] = 1 })
	_, err = ReadDir(dir, nil)
	require.ErrorContains(t, err, `"extents" in a version 1 manifest`)

	// The stream is the extents in the manifest's order: swapped, the
	// events of the last blocks come first.
	editManifest(t, dir, func(m map[string]any, locs []map[string]any) {
		m["version"] = 2
		e := extentsOf(locs[1])
		e[0], e[1] = e[1], e[0]
	})
	got, err = ReadDir(dir, nil)
	require.NoError(t, err)
	_, counts := blockEnds(t, s1)
	head := counts[2]
	src := &tr.Locations[1].Events
	var want trace.Events
	att := 0
	for i := head; i < src.Len(); i++ {
		want.Append(src, i, &att)
	}
	att = 0
	for i := range head {
		want.Append(src, i, &att)
	}
	require.Equal(t, flatten(&want), flatten(&got.Locations[1].Events))
}

// TestNativeFileCache checks the reader's cache of open files: it never
// keeps more than its bound open once files are released, shares a file
// among users, and keeps working after close.
func TestNativeFileCache(t *testing.T) {
	dir := t.TempDir()
	for i := range 10 {
		require.NoError(t, os.WriteFile(filepath.Join(dir, strconv.Itoa(i)), make([]byte, i), 0o666))
	}
	c := newFileCache(dir, 3)
	var held []*cachedFile
	for i := range 10 {
		cf, err := c.acquire(strconv.Itoa(i))
		require.NoError(t, err)
		require.Equal(t, int64(i), cf.size)
		held = append(held, cf)
	}
	require.Equal(t, 10, c.open, "files in use stay open")
	for _, cf := range held {
		c.release(cf)
	}
	require.Equal(t, 3, c.open)
	a, err := c.acquire("9")
	require.NoError(t, err)
	b, err := c.acquire("9")
	require.NoError(t, err)
	require.Same(t, a, b)
	_, err = c.acquire("missing")
	require.ErrorIs(t, err, os.ErrNotExist)
	require.LessOrEqual(t, c.open, 3)
	c.close()
	require.Equal(t, 1, c.open, "the file in use stays open")
	var buf [9]byte
	_, err = a.f.ReadAt(buf[:], 0)
	require.NoError(t, err)
	c.release(a)
	c.release(b)
	require.Equal(t, 0, c.open)
	cf, err := c.acquire("5") // after close: opened, not kept
	require.NoError(t, err)
	c.release(cf)
	require.Equal(t, 0, c.open)

	// Concurrent users (run with -race).
	c = newFileCache(dir, 2)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				name := strconv.Itoa((g + i) % 10)
				cf, err := c.acquire(name)
				if !assert.NoError(t, err) {
					return
				}
				assert.Equal(t, int64((g+i)%10), cf.size, "the size of file %s", name)
				c.release(cf)
			}
		}()
	}
	wg.Wait()
	require.LessOrEqual(t, c.open, 2)
	c.close()
	require.Zero(t, c.open)
}

func TestNativeBundleBounds(t *testing.T) {
	require.Equal(t, 0, bundleCount(0, BundleThreshold))
	require.Equal(t, 8, bundleCount(0, BundleThreshold+1))
	require.Equal(t, 15, bundleCount(0, 1000))
	require.Equal(t, 16, bundleCount(0, 1024))
	require.Equal(t, maxBundles, bundleCount(0, 1<<20))
	require.Equal(t, 0, bundleCount(-1, 1<<20))
	require.Equal(t, 3, bundleCount(5, 3))
	require.Equal(t, 0, bundleCount(5, 0))
	rng := rand.New(rand.NewPCG(27, 28))
	for range 1000 {
		n := 1 + rng.IntN(300)
		nb := 1 + rng.IntN(min(n, 70))
		w := make([]int64, n)
		for i := range w {
			w[i] = rng.Int64N(1000)
			if rng.IntN(10) == 0 {
				w[i] = rng.Int64N(math.MaxInt32)
			}
		}
		b := bundleBounds(n, nb, func(i int) int64 { return w[i] })
		require.Len(t, b, nb+1)
		require.Equal(t, 0, b[0])
		require.Equal(t, n, b[nb])
		for k := range nb {
			require.Less(t, b[k], b[k+1], "every bundle has a location")
		}
	}
	require.Equal(t, []int{0, 25, 50, 75, 100}, bundleBounds(100, 4, nil))
	require.Equal(t, []int{0, 1, 2, 3}, bundleBounds(3, 3, func(int) int64 { return 0 }))
	// One heavy location gets a bundle of its own.
	require.Equal(t, []int{0, 1, 10}, bundleBounds(10, 2, func(i int) int64 { return int64(btoi(i == 0))*100 + 1 }))
}

// TestNativeBundleWriterErrors checks that a bundled writer that fails
// leaves no manifest and closes its files.
func TestNativeBundleWriterErrors(t *testing.T) {
	tr := manyLocTrace(rand.New(rand.NewPCG(29, 30)), 100)
	tr.Locations[70].Events.AppendRegion(trace.KindEnter, 0, 99) // region out of range
	dir := filepath.Join(t.TempDir(), "tr")
	err := WriteDir(context.Background(), dir, tr, nil)
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, 70, fe.Location)
	require.True(t, strings.HasSuffix(fe.Path, BundleExt), fe.Path)
	_, statErr := os.Stat(filepath.Join(dir, ManifestName))
	require.ErrorIs(t, statErr, os.ErrNotExist)

	w, err := CreateDir(filepath.Join(t.TempDir(), "tr"), defsOnly(tr), nil)
	require.NoError(t, err)
	require.NoError(t, w.Append(3, &tr.Locations[3].Events))
	bad := trace.Events{Kind: []trace.Kind{trace.KindInvalid}, Time: []int64{0}, Ref: []uint32{0}}
	require.Error(t, w.Append(4, &bad))
	require.Error(t, w.Close())
	for k := range w.bundles {
		require.Nil(t, w.bundles[k].f, "bundle %d still open", k)
	}
	w, err = CreateDir(filepath.Join(t.TempDir(), "tr"), defsOnly(tr), &WriteOptions{Codec: CodecNone, BlockSize: 20})
	require.NoError(t, err)
	require.NoError(t, w.Append(3, &tr.Locations[3].Events))
	w.Abort()
	for k := range w.bundles {
		require.Nil(t, w.bundles[k].f, "bundle %d still open", k)
	}
	require.Error(t, w.Append(3, &tr.Locations[3].Events))
	require.Error(t, w.Close())
}

// RewriteTimes of a bundled trace writes the same bytes in every run, with
// any parallelism: each bundle is written by one goroutine, its locations
// in order. Small blocks make every location flush several times, so
// concurrent writers of one bundle would interleave their blocks.
func TestRewriteTimesBundlesAreReproducible(t *testing.T) {
	tr, src, times := rewriteSource(t, 5, 3)
	var first map[string][]byte
	for run := range 6 {
		out := filepath.Join(t.TempDir(), "out")
		opt := &WriteOptions{Codec: CodecZstd, BlockSize: 40, Parallel: 1 + run%4}
		require.NoError(t, RewriteTimes(context.Background(), out, src, times, tr.Properties, opt))
		files := tracetest.DirFiles(t, out)
		require.Greater(t, len(files), 8, "bundled")
		if first == nil {
			first = files
			got, err := ReadDir(out, nil)
			require.NoError(t, err)
			for li, l := range got.Locations {
				require.Equal(t, times[li], append([]int64(nil), l.Events.Time...), "location %d", li)
			}
			continue
		}
		require.True(t, tracetest.SameFiles(t, first, files, fmt.Sprintf("run %d (parallel %d)", run, opt.Parallel)))
	}
}

// A DirWriter whose bundles (Ranges) each get their Appends in a fixed
// order writes the same bytes whatever its parallelism: Close too writes
// each bundle's last blocks from one goroutine, in location order.
func TestDirWriterBundlesAreReproducible(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tr := manyLocTrace(rng, 3*BundleThreshold)
	var first map[string][]byte
	for run := range 6 {
		dir := filepath.Join(t.TempDir(), "out")
		opt := &WriteOptions{Codec: CodecZstd, BlockSize: 100, Parallel: 1 + run%4}
		w, err := CreateDir(dir, defsOnly(tr), opt)
		require.NoError(t, err)
		appendByRange(t, w, tr)
		require.NoError(t, w.Close())
		files := tracetest.DirFiles(t, dir)
		require.Greater(t, len(files), 8, "bundled")
		if first == nil {
			first = files
			got, err := ReadDir(dir, nil)
			require.NoError(t, err)
			require.Equal(t, tr.NumEvents(), got.NumEvents())
			continue
		}
		require.True(t, tracetest.SameFiles(t, first, files, fmt.Sprintf("run %d (parallel %d)", run, opt.Parallel)))
	}
}

// appendByRange appends the events of tr to w in two rounds, each location
// half its events per round; in each round every range of w.Ranges() is
// appended by a goroutine of its own, in location order.
func appendByRange(t *testing.T, w *DirWriter, tr *trace.Trace) {
	t.Helper()
	bounds := w.Ranges()
	require.Len(t, bounds, 9, "8 bundles")
	for round := range 2 {
		var wg sync.WaitGroup
		errs := make([]error, len(bounds)-1)
		for k := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for loc := bounds[k]; loc < bounds[k+1] && errs[k] == nil; loc++ {
					src := &tr.Locations[loc].Events
					var half trace.Events
					att := 0
					for j := round * src.Len() / 2; j < (round+1)*src.Len()/2; j++ {
						half.Append(src, j, &att)
					}
					errs[k] = w.Append(loc, &half)
				}
			}()
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
	}
}

// Rewriting from the DirReader that read the selection writes the bytes
// RewriteTimes from the directory writes, whatever the caller did to the
// definitions it was given (they are the pipeline's trace).
func TestDirReaderRewriteTimesMatchesRewriteTimes(t *testing.T) {
	tr, src, times := rewriteSource(t, 9, 5)
	opt := &WriteOptions{Codec: CodecZstd, Parallel: 2}
	want := filepath.Join(t.TempDir(), "want")
	require.NoError(t, RewriteTimes(context.Background(), want, src, times, tr.Properties, opt))

	r, err := OpenDirWith(src, &ReadOptions{Parallel: 2})
	require.NoError(t, err)
	defer r.Close()
	got, _, err := r.ReadSelected(context.Background(), &ReadOptions{Parallel: 2}, func(*trace.Trace) func(trace.Kind, uint32) bool {
		return func(trace.Kind, uint32) bool { return true }
	})
	require.NoError(t, err)
	for _, l := range got.Locations {
		l.Name += " (changed)"
		l.Node = 0
	}
	if len(got.Regions) > 0 {
		got.Regions[0].Name = "changed"
	}
	out := filepath.Join(t.TempDir(), "got")
	require.NoError(t, r.RewriteTimes(context.Background(), out, times, tr.Properties, opt))
	require.True(t, tracetest.SameFiles(t, tracetest.DirFiles(t, want), tracetest.DirFiles(t, out), "rewrite from the open reader"))
}

// rewriteSource writes a bundled trace of many locations (seed) into a
// temporary directory and returns it, the directory and new times: the
// old ones plus j mod shift at event j.
func rewriteSource(t *testing.T, seed uint64, shift int) (*trace.Trace, string, [][]int64) {
	t.Helper()
	tr := manyLocTrace(rand.New(rand.NewPCG(seed, seed+1)), 3*BundleThreshold)
	src := filepath.Join(t.TempDir(), "src")
	require.NoError(t, WriteDir(context.Background(), src, tr, &WriteOptions{Codec: CodecZstd, Parallel: 2}))
	times := make([][]int64, len(tr.Locations))
	for li, l := range tr.Locations {
		for j, v := range l.Events.Time {
			times[li] = append(times[li], v+int64(j%shift))
		}
	}
	return tr, src, times
}

// A DirReader's read stops at the next location when its context is
// cancelled, and says so.
func TestDirReaderReadStopsWhenCancelled(t *testing.T) {
	tr, src, _ := rewriteSource(t, 11, 2)
	for _, selected := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		var done atomic.Int32
		opt := &ReadOptions{Parallel: 2, Done: func(*trace.Trace, int) error {
			if done.Add(1) == 1 {
				cancel()
			}
			return nil
		}}
		r, err := OpenDirWith(src, opt)
		require.NoError(t, err)
		if selected {
			_, _, err = r.ReadSelected(ctx, opt, func(*trace.Trace) func(trace.Kind, uint32) bool {
				return func(trace.Kind, uint32) bool { return true }
			})
		} else {
			_, err = r.Read(ctx, opt)
		}
		require.ErrorIs(t, err, context.Canceled)
		require.Less(t, int(done.Load()), len(tr.Locations)/2, "locations read after the cancellation")
		require.NoError(t, r.Close())
	}
}
