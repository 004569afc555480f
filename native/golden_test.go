package native

import (
	"context"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/trace"
)

var updateGolden = flag.Bool("native.update", false, "rewrite the native format's golden files in testdata/native")

// TestNativeDocExample checks the worked example of docs/format.md byte
// for byte (the bytes were computed independently of this package).
func TestNativeDocExample(t *testing.T) {
	tr := &trace.Trace{
		Resolution: 1000000000,
		Nodes:      []trace.Node{{Name: "node0"}},
		Regions:    []trace.Region{{Name: "main"}},
		Locations:  []*trace.Location{{ID: 0, Name: "rank 0", Node: 0}},
	}
	tr.Locations[0].Events.AppendRegion(trace.KindEnter, 1000, 0)
	tr.Locations[0].Events.AppendRegion(trace.KindLeave, 1500, 0)
	dir := filepath.Join(t.TempDir(), "ex")
	require.NoError(t, WriteDir(context.Background(), dir, tr, &WriteOptions{Codec: CodecNone}))
	unhex := func(s string) []byte {
		b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
		require.NoError(t, err)
		return b
	}
	want := unhex(`
		89 43 4c 43 45 56 54 0a 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 70 63 99 96
		43 4c 43 42 00 00 00 00 08 00 00 00 08 00 00 00 02 00 00 00 ff 4a 18 38
		01 d0 0f 00 02 e8 07 00`)
	got, err := os.ReadFile(filepath.Join(dir, EventsDirName, "0"+StreamExt))
	require.NoError(t, err)
	require.Equal(t, want, got)
	manifest, err := os.ReadFile(filepath.Join(dir, ManifestName))
	require.NoError(t, err)
	require.JSONEq(t, `{"format":"clc-native","version":1,"complete":true,"timer_resolution":1000000000,
		"nodes":[{"name":"node0"}],"regions":[{"name":"main"}],"communicators":[],
		"locations":[{"id":0,"name":"rank 0","node":0,"events":2}]}`, string(manifest))
}

// goldenTrace is the trace stored in testdata/native.
func goldenTrace() *trace.Trace {
	tr := smallTrace()
	tr.Properties = map[string]string{"creator": "clc trace tests", "note": "golden files of format version 1"}
	tr.Locations[1].Offsets = []trace.ClockOffset{{Time: 1000, Offset: -52, RTT: 2100, StdDev: 0.5}, {Time: 90000, Offset: -61, RTT: 1900}}
	tr.Locations = append(tr.Locations, &trace.Location{ID: 1 << 40, Name: "empty", Node: 1})
	return tr
}

// goldenHybridTrace is the version 3 trace stored in
// testdata/native/hybrid-none: two processes on two nodes, each with two
// threads, one with a metric location; regions with roles and paradigms,
// thread teams and every thread record kind.
func goldenHybridTrace() *trace.Trace {
	tr := &trace.Trace{
		Resolution: 1e9,
		Properties: map[string]string{"note": "golden files of format version 3"},
		Nodes:      []trace.Node{{Name: "n0"}, {Name: "n1"}},
		Processes:  []trace.Process{{Name: "MPI Rank 0"}, {Name: "MPI Rank 1"}},
		Regions: []trace.Region{{Name: "main", Role: trace.RoleFunction, Paradigm: trace.ParadigmUser},
			{Name: "!$omp parallel", Role: trace.RoleParallel, Paradigm: trace.ParadigmOpenMP},
			{Name: "!$omp implicit barrier", Role: trace.RoleImplicitBarrier, Paradigm: trace.ParadigmOpenMP}},
		Comms: []trace.Comm{{Name: "MPI_COMM_WORLD", Members: []int32{0, 2}},
			{Name: "team 0", Paradigm: trace.ParadigmOpenMP, Members: []int32{0, 1}},
			{Name: "team 1", Paradigm: trace.ParadigmOpenMP, Members: []int32{2, 3}}},
		Locations: []*trace.Location{
			{ID: 0, Name: "Master thread", Node: 0, Process: 0, Kind: trace.LocationCPUThread,
				Offsets: []trace.ClockOffset{{Time: 10, Offset: 0}, {Time: 90000, Offset: 0}}},
			{ID: 1 << 32, Name: "OMP thread 1", Node: 0, Process: 0, Kind: trace.LocationCPUThread},
			{ID: 1, Name: "Master thread", Node: 1, Process: 1, Kind: trace.LocationCPUThread,
				Offsets: []trace.ClockOffset{{Time: 10, Offset: -52, RTT: 2100}, {Time: 90000, Offset: -61, RTT: 1900}}},
			{ID: 1<<32 | 1, Name: "OMP thread 1", Node: 1, Process: 1},
			{ID: 2<<32 | 1, Name: "metrics", Node: 1, Process: 1, Kind: trace.LocationMetric},
		},
	}
	th := func(l int, k trace.Kind, t int64, x trace.Thread) { tr.Locations[l].Events.AppendThread(k, t, x) }
	for p := range 2 {
		m, w := 2*p, 2*p+1
		team := uint32(1 + p)
		tr.Locations[m].Events.AppendRegion(trace.KindEnter, 100, 0)
		th(m, trace.KindThreadFork, 110, trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm, Threads: 2})
		for _, l := range []int{m, w} {
			th(l, trace.KindThreadTeamBegin, 120, trace.Thread{Team: team})
			tr.Locations[l].Events.AppendRegion(trace.KindEnter, 130, 1)
			th(l, trace.KindThreadAcquireLock, 140+int64(l), trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm, Lock: 3, Order: uint32(l % 2)})
			th(l, trace.KindThreadReleaseLock, 145+int64(l), trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm, Lock: 3, Order: uint32(l % 2)})
			th(l, trace.KindThreadTaskCreate, 150, trace.Thread{Team: team, Creator: uint32(l % 2), Generation: 1})
			th(l, trace.KindThreadTaskSwitch, 151, trace.Thread{Team: team, Creator: uint32(l % 2), Generation: 1})
			th(l, trace.KindThreadTaskComplete, 152, trace.Thread{Team: team, Creator: uint32(l % 2), Generation: 1})
			tr.Locations[l].Events.AppendRegion(trace.KindEnter, 160, 2)
			tr.Locations[l].Events.AppendRegion(trace.KindLeave, 170, 2)
			tr.Locations[l].Events.AppendRegion(trace.KindLeave, 180, 1)
			th(l, trace.KindThreadTeamEnd, 190, trace.Thread{Team: team})
		}
		th(m, trace.KindThreadJoin, 200, trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm})
		th(m, trace.KindThreadCreate, 210, trace.Thread{Model: trace.ParadigmPthread, Team: team, Sequence: 5})
		th(w, trace.KindThreadBegin, 220, trace.Thread{Model: trace.ParadigmPthread, Team: team, Sequence: 5})
		th(w, trace.KindThreadEnd, 230, trace.Thread{Model: trace.ParadigmPthread, Team: team, Sequence: 5})
		th(m, trace.KindThreadWait, 240, trace.Thread{Model: trace.ParadigmPthread, Team: team, Sequence: 5})
		th(m, trace.KindThreadTaskCreate, 250, trace.Thread{Legacy: true, Model: trace.ParadigmOpenMP, Team: trace.NoComm, Sequence: 1<<40 | 7})
		tr.Locations[m].Events.AppendRegion(trace.KindLeave, 300, 0)
	}
	tr.Locations[4].Events.AppendOpaque(150, trace.Opaque{Format: trace.FormatOTF2, Type: 31, Data: []byte{1, 2, 3}})
	return tr
}

// TestNativeGoldenV3 reads the committed version 3 trace and checks that
// writing it reproduces the files byte for byte, with manifest version 3.
// Regenerate with: go test ./native -run NativeGolden -native.update
func TestNativeGoldenV3(t *testing.T) {
	dir := "testdata/native/hybrid-none"
	want := goldenHybridTrace()
	require.NoError(t, want.Validate())
	if *updateGolden {
		require.NoError(t, os.RemoveAll(dir))
		require.NoError(t, WriteDir(context.Background(), dir, want, &WriteOptions{Codec: CodecNone, BlockSize: 150}))
	}
	got, err := ReadDir(dir, nil)
	require.NoError(t, err)
	requireSameTrace(t, want, got)
	require.Equal(t, nativeVersion3, readTestManifest(t, dir).Version)
	out := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(context.Background(), out, want, &WriteOptions{Codec: CodecNone, BlockSize: 150}))
	for _, name := range []string{ManifestName, "events/0.clce", "events/1.clce", "events/2.clce", "events/3.clce", "events/4.clce"} {
		w, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		g, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		require.Equal(t, w, g, name)
	}
}

// TestNativeGolden reads the committed golden traces (uncompressed and
// zstd) and checks that writing the golden trace uncompressed reproduces
// the committed files byte for byte, so an accidental format change shows.
// Regenerate with: go test ./trace -run NativeGolden -native.update
func TestNativeGolden(t *testing.T) {
	dirs := map[Codec]string{CodecNone: "testdata/native/small-none", CodecZstd: "testdata/native/small-zstd"}
	if *updateGolden {
		for codec, dir := range dirs {
			require.NoError(t, os.RemoveAll(dir))
			require.NoError(t, os.MkdirAll(filepath.Dir(dir), 0o777))
			require.NoError(t, WriteDir(context.Background(), dir, goldenTrace(), &WriteOptions{Codec: codec, BlockSize: 150}))
		}
	}
	for _, dir := range dirs {
		got, err := ReadDir(dir, nil)
		require.NoError(t, err, dir)
		requireSameTrace(t, goldenTrace(), got, dir)
	}
	out := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(context.Background(), out, goldenTrace(), &WriteOptions{Codec: CodecNone, BlockSize: 150}))
	for _, name := range []string{ManifestName, "events/0.clce", "events/1.clce", "events/2.clce"} {
		want, err := os.ReadFile(filepath.Join(dirs[CodecNone], name))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		require.Equal(t, want, got, name)
	}
}

// goldenCarriedTrace is the version 4 trace stored in
// testdata/native/carried-none: the version 1 golden trace carrying three
// parts (two of the whole trace, one of location 1, the second spanning
// several blocks).
func goldenCarriedTrace() *trace.Trace {
	tr := goldenTrace()
	tr.Properties["note"] = "golden files of format version 4"
	var defs []byte
	for i := range 400 {
		defs = append(defs, byte(i*7))
	}
	tr.Carried = &trace.CarriedParts{Fmt: trace.FormatOTF2, List: []trace.Part{
		{Location: -1, Name: "anchor", Data: []byte("the source's anchor file")},
		{Location: -1, Name: "definitions", Data: defs},
		{Location: 1, Name: "definitions", Data: []byte("location 1's local definitions")},
	}}
	return tr
}

// TestNativeGoldenV4 reads the committed version 4 trace (events and
// carried parts) and checks that writing it reproduces the files byte for
// byte. Regenerate with: go test ./native -run NativeGolden -native.update
func TestNativeGoldenV4(t *testing.T) {
	dir := "testdata/native/carried-none"
	want := goldenCarriedTrace()
	opt := &WriteOptions{Codec: CodecNone, BlockSize: 150}
	if *updateGolden {
		require.NoError(t, os.RemoveAll(dir))
		require.NoError(t, WriteDir(context.Background(), dir, want, opt))
	}
	got, err := ReadDir(dir, nil)
	require.NoError(t, err)
	requireSameTrace(t, want, got)
	require.Equal(t, NativeVersion, readTestManifest(t, dir).Version)
	parts, err := got.Carried.Parts()
	require.NoError(t, err)
	wantParts, _ := want.Carried.Parts()
	requireSameParts(t, wantParts, parts, filepath.Join(dir, CarriedName))
	out := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(context.Background(), out, want, opt))
	for _, name := range []string{ManifestName, CarriedName, "events/0.clce", "events/1.clce", "events/2.clce"} {
		w, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		g, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		require.Equal(t, w, g, name)
	}
}
