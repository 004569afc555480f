package native

import (
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
	require.NoError(t, WriteDir(dir, tr, &WriteOptions{Codec: CodecNone}))
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
			require.NoError(t, WriteDir(dir, goldenTrace(), &WriteOptions{Codec: codec, BlockSize: 150}))
		}
	}
	for _, dir := range dirs {
		got, err := ReadDir(dir, nil)
		require.NoError(t, err, dir)
		requireSameTrace(t, goldenTrace(), got, dir)
	}
	out := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(out, goldenTrace(), &WriteOptions{Codec: CodecNone, BlockSize: 150}))
	for _, name := range []string{ManifestName, "events/0.clce", "events/1.clce", "events/2.clce"} {
		want, err := os.ReadFile(filepath.Join(dirs[CodecNone], name))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		require.Equal(t, want, got, name)
	}
}
