package native

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/trace"
)

// sameAsUnmarshal checks decodeManifest (split into pieces from any size,
// on three goroutines) against json.Unmarshal, the reference: the same
// value, and an error exactly when it gives one.
func sameAsUnmarshal(t *testing.T, data []byte) {
	t.Helper()
	var want, got jsonManifest
	wantErr := json.Unmarshal(data, &want)
	gotErr := decodeManifest(data, &got, 3, 0)
	if wantErr != nil {
		require.Error(t, gotErr)
		require.Equal(t, wantErr.Error(), gotErr.Error())
		return
	}
	require.NoError(t, gotErr)
	require.Equal(t, want, got)
}

// The manifests of the repository's native traces, and a generated one
// with many locations, decode as json.Unmarshal decodes them.
func TestDecodeManifestMatchesUnmarshal(t *testing.T) {
	var paths []string
	for _, pat := range []string{"testdata/native/*/" + ManifestName, "../testdata/*/*/" + ManifestName, "../testdata/*/" + ManifestName} {
		m, err := filepath.Glob(pat)
		require.NoError(t, err)
		paths = append(paths, m...)
	}
	require.NotEmpty(t, paths)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		t.Run(p, func(t *testing.T) { sameAsUnmarshal(t, data) })
	}
	var b strings.Builder
	b.WriteString(`{"format":"clc-native","version":2,"complete":true,"timer_resolution":1000,"nodes":[{"name":"n,[0]"}],"locations":[`)
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",\n ")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"rank \"%d\", [x]","node":0,"events":%d,"offsets":[{"time":%d,"offset":-3,"rtt":100,"stddev":0}],"extents":[{"file":"events/b.clcb","offset":%d,"length":40}]}`, i, i, i%7, i*10, i*40)
	}
	b.WriteString(`],"regions":[{"name":"r"}]}`)
	data := []byte(b.String())
	sameAsUnmarshal(t, data)
	var m jsonManifest
	require.NoError(t, decodeManifest(data, &m, 3, 0))
	require.Len(t, m.Locations, 5000)
	require.Equal(t, "rank \"4999\", [x]", m.Locations[4999].Name)
}

// Documents the split must leave to json.Unmarshal, or decode alike.
func TestDecodeManifestOddDocuments(t *testing.T) {
	loc := `{"id":0,"node":0,"events":1}`
	for _, doc := range []string{
		`{"locations":[` + loc + `,` + loc + `],"Locations":[` + loc + `]}`,
		`{"LOCATIONS":[` + loc + `,` + loc + `]}`,
		`{"locationſ":[` + loc + `,` + loc + `]}`,
		`{"loc\u0061tions":[` + loc + `,` + loc + `]}`,
		`{"locations":[` + loc + `,` + loc + `]]}`,
		`{"locations":[` + loc + `,` + loc + `}`,
		`{"locations":[` + loc + `,,` + loc + `]}`,
		`{"locations":[` + loc + `,{"id":"x"}]}`,
		`{"locations":[` + loc + `,` + loc + `],"nodes":[{"name":"]"}]}`,
		`{"nodes":[{"locations":[1,2]}],"locations":[` + loc + `,` + loc + `]}`,
		`{"locations":null}`,
		`{"locations":[]}`,
		`[1,2]`,
		`{"locations":[` + loc + `,` + loc + `]} x`,
	} {
		t.Run(doc, func(t *testing.T) { sameAsUnmarshal(t, []byte(doc)) })
	}
}

// FuzzDecodeManifest compares decodeManifest with json.Unmarshal on
// arbitrary documents.
func FuzzDecodeManifest(f *testing.F) {
	f.Add([]byte(`{"format":"clc-native","version":1,"locations":[{"id":0,"node":0},{"id":1,"node":0,"name":"a,\"]"}],"nodes":[{}]}`))
	f.Add([]byte(`{"locations":[{"id":0},{"id":1}],"LocationS":[{"id":2}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { sameAsUnmarshal(t, data) })
}

// IsDir decides on the first "format" key, wherever it is, and reads no
// further: what follows it may be anything (the reader then says what is
// wrong with it).
func TestIsDirReadsUpToFormat(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want bool
	}{
		{`{"format":"clc-native","version":2, x`, true},
		{`{"version":2,"nodes":[{"name":"format"}],"format":"clc-native"}`, true},
		{`{"Format":"clc-native"}`, true},
		{`{"format":"otf2","format":"clc-native"}`, false},
		{`{"format":1}`, false},
		{`{"version":2}`, false},
		{`["format","clc-native"]`, false},
		{`{"version":2,`, false},
		{``, false},
	} {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, ManifestName), []byte(c.doc), 0o666))
		require.Equal(t, c.want, IsDir(dir), "%s", c.doc)
	}
}

// The location entries the writers make decode on decodeLocations' fast
// path, as json.Unmarshal decodes them; entries of any other shape make it
// give up (the piece then goes to json.Unmarshal).
func TestDecodeLocationsFastPath(t *testing.T) {
	tr := manyLocTrace(rand.New(rand.NewPCG(3, 4)), 2*BundleThreshold)
	tr.Locations[1].Offsets = []trace.ClockOffset{{Time: -5, Offset: 7, RTT: 3, StdDev: 1.5e-3}, {Time: 9, Offset: -2}}
	tr.Locations[2].Name = "rank 2 · thread 1"
	dir := filepath.Join(t.TempDir(), "t")
	require.NoError(t, WriteDir(context.Background(), dir, tr, nil))
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	require.NoError(t, err)
	lo, hi, _, ok := locationsArray(data)
	require.True(t, ok)
	var want, got []jsonLocation
	require.NoError(t, json.Unmarshal(data[lo:hi], &want))
	require.True(t, decodeLocations(data[lo+1:hi-1], &got), "the writer's shape must take the fast path")
	require.Equal(t, want, got)

	for _, elem := range []string{
		`{"id":1,"name":"a\"b"}`, `{"ID":1}`, `{"id":1,"other":2}`, `{"id":1.0}`, `{"id":null}`,
		`{"id":1,"id":2}`, `{"node":2147483648}`, `{"id":-1}`, `{"name":"\u0001"}`, `{"offsets":[{"stddev":1e999}]}`,
		`{"extents":[{"file":"f","offset":01}]}`, "{\"name\":\"\xff\"}", `{"offsets":[{"time":1,"time":2}]}`,
	} {
		var out []jsonLocation
		assert.False(t, decodeLocations([]byte(elem), &out), "%s", elem)
		sameAsUnmarshal(t, []byte(`{"locations":[{"id":0},`+elem+`]}`))
	}
}
