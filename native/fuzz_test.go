package native

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/require"
)

// fuzzLimits are the definitions fuzzed payloads are checked against.
func fuzzLimits() *refLimits { return &refLimits{regions: 4, commSize: []uint64{0, 1, 3}} }

// FuzzDecodeRecords decodes arbitrary raw block payloads. It must never
// panic; whatever decodes must be consistent and re-encode to exactly the
// same bytes (the encoding is canonical: shortest varints, no slack).
func FuzzDecodeRecords(f *testing.F) {
	rng := rand.New(rand.NewPCG(11, 12))
	tr := smallTrace()
	for _, l := range tr.Locations {
		raw, err := encodeAll(&l.Events)
		require.NoError(f, err)
		f.Add(raw, uint32(l.Events.Len()))
	}
	for range 20 {
		rt := randTrace(rng)
		for _, l := range rt.Locations {
			if l.Events.Len() > 0 && l.Events.Len() < 100 {
				raw, err := encodeAll(&l.Events)
				require.NoError(f, err)
				f.Add(raw, uint32(l.Events.Len()))
			}
		}
	}
	f.Add([]byte{1, 0, 0}, uint32(1))
	f.Fuzz(func(t *testing.T, raw []byte, n uint32) {
		// Block headers guarantee N <= R/2; stay within that.
		nn := int(n % uint32(len(raw)/2+2))
		var e trace.Events
		var ar arena
		lim := fuzzLimits()
		err := decodeRecords(raw, nn, &e, lim, &ar)
		if err != nil {
			var de *decodeError
			require.ErrorAs(t, err, &de)
			require.True(t, de.off >= 0 && de.off <= len(raw), "error offset %d outside [0,%d]", de.off, len(raw))
			return
		}
		require.Equal(t, nn, e.Len(), "events decoded")
		require.NoError(t, e.Check(), "the decoded events")
		again, err := encodeAll(&e)
		require.NoError(t, err, "re-encoding")
		require.Equal(t, raw, again, "re-encoded")
	})
}

// fixCRCs recomputes the file header CRC and the CRC of every block whose
// header lies within data, so the fuzzer can reach past the checksums.
// It reports false if a block claims a raw length above 1 MiB (to keep
// fuzzing fast; the limit itself is tested elsewhere).
func fixCRCs(data []byte) bool {
	if len(data) < fileHeaderSize {
		return true
	}
	binary.LittleEndian.PutUint32(data[28:], crc32.Checksum(data[:28], castagnoli))
	for off := fileHeaderSize; len(data)-off >= blockHeaderSize; {
		h := data[off : off+blockHeaderSize]
		s := int(binary.LittleEndian.Uint32(h[8:]))
		if binary.LittleEndian.Uint32(h[12:]) > 1<<20 {
			return false
		}
		if s > len(data)-off-blockHeaderSize {
			break
		}
		binary.LittleEndian.PutUint32(h[20:], blockCRC(h, data[off+blockHeaderSize:off+blockHeaderSize+s]))
		off += blockHeaderSize + s
	}
	return true
}

// FuzzDecodeStream decodes arbitrary stream files (optionally with their
// checksums repaired). It must never panic, every error must be a
// *FormatError, and whatever decodes must be consistent.
func FuzzDecodeStream(f *testing.F) {
	for _, codec := range []Codec{CodecNone, CodecZstd} {
		dir := f.TempDir()
		out := filepath.Join(dir, "tr")
		require.NoError(f, WriteDir(context.Background(), out, smallTrace(), &WriteOptions{Codec: codec, BlockSize: 150}))
		data, err := os.ReadFile(filepath.Join(out, EventsDirName, "0"+StreamExt))
		require.NoError(f, err)
		f.Add(data, false, true)
		f.Add(data[:len(data)-3], true, false)
	}
	f.Add(streamHeader(0), false, true)
	dec, err := newDecoder(1)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte, fix, complete bool) {
		if fix && !fixCRCs(data) {
			return
		}
		var e trace.Events
		e.AppendCollBegin(-1) // decoding appends after existing events
		_, err := decodeStream(data, 0, complete, fuzzLimits(), dec, &e)
		if err != nil {
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			require.True(t, fe.Location == 0 && fe.Path != "", "error %v does not name the stream", err)
			require.True(t, e.Len() >= 1 && e.Kind[0] == trace.KindCollBegin, "decoding destroyed existing events")
			return
		}
		require.NoError(t, e.Check(), "the decoded events")
	})
}

// bundleNameRule is docs/format.md's rule for an extent's file, but for
// "no ..", and "not .clce", checked beside it.
var bundleNameRule = regexp.MustCompile(`^events/[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$`)

// FuzzParseManifest decodes arbitrary manifests: never a panic, every
// error a *FormatError naming the file, and what is accepted is valid.
func FuzzParseManifest(f *testing.F) {
	for _, dir := range []string{"testdata/native/small-none", "testdata/native/small-zstd"} {
		data, err := os.ReadFile(filepath.Join(dir, ManifestName))
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte(`{"format":"clc-native","version":1,"complete":false,"timer_resolution":1,"locations":[{"id":0,"node":0}],"nodes":[{}]}`))
	f.Add([]byte(`{"format":"clc-native","version":2,"complete":true,"timer_resolution":1,"nodes":[{}],"locations":[` +
		`{"id":0,"node":0,"events":3,"extents":[{"file":"events/b.clcb","offset":0,"length":40},{"file":"events/c","offset":0,"length":32}]},` +
		`{"id":1,"node":0,"events":0,"extents":[]},{"id":2,"node":0,"events":1},` +
		`{"id":3,"node":0,"events":1,"extents":[{"file":"events/b.clcb","offset":40,"length":99}]}]}`))
	for _, name := range []string{"a..b", "..", "...", "a.", "..a", "b.clce", ".a", "a/b"} {
		f.Add([]byte(`{"format":"clc-native","version":2,"complete":true,"timer_resolution":1,"nodes":[{}],"locations":[` +
			`{"id":0,"node":0,"events":1,"extents":[{"file":"events/` + name + `","offset":0,"length":40}]}]}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseManifest("clc.json", data, 2)
		if err != nil {
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			require.Equal(t, "clc.json", fe.Path, "the file the error names")
			return
		}
		require.NoError(t, m.defs.Validate(), "an accepted manifest")
		require.Len(t, m.counts, len(m.defs.Locations), "counts against locations")
		for _, c := range m.counts {
			require.False(t, c < -1 || c > trace.MaxEvents || (m.complete && c < 0), "accepted count %d", c)
		}
		// Accepted extents: in range, at least a header long, in files
		// under events/, and no two share a byte.
		if m.extents != nil {
			require.Len(t, m.extents, len(m.defs.Locations), "extents against locations")
		}
		type span struct{ off, end int64 }
		byFile := map[string][]span{}
		for _, le := range m.extents {
			for _, e := range le {
				name := m.files[e.file]
				bad := !bundleNameRule.MatchString(name) || strings.Contains(name, "..") || strings.HasSuffix(name, StreamExt) ||
					!filepath.IsLocal(name) || filepath.Dir(filepath.Clean(name)) != EventsDirName
				require.False(t, bad, "accepted file %q", name)
				require.False(t, e.off < 0 || e.len < fileHeaderSize || e.off+e.len < e.off, "accepted extent %+v", e)
				for _, o := range byFile[name] {
					require.False(t, e.off < o.end && o.off < e.off+e.len, "accepted overlapping extents in %s: %+v and %+v", name, o, e)
				}
				byFile[name] = append(byFile[name], span{e.off, e.off + e.len})
			}
		}
	})
}

// FuzzReadBundled reads a two-location bundled trace whose bundle file is
// the fuzzer's bytes and whose extents are taken from the fuzzer's
// numbers. It must never panic or hang; every error must be a
// *FormatError naming a file of the trace and a location; whatever reads
// must be consistent. Each run writes files, so minimizing takes long: run
// it with -fuzzminimizetime 2s.
func FuzzReadBundled(f *testing.F) {
	for _, codec := range []Codec{CodecNone, CodecZstd} {
		dir := filepath.Join(f.TempDir(), "tr")
		require.NoError(f, WriteDir(context.Background(), dir, smallTrace(), &WriteOptions{Codec: codec, BlockSize: 150, Bundles: 1}))
		data, err := os.ReadFile(filepath.Join(dir, EventsDirName, "bundle-0"+BundleExt))
		require.NoError(f, err)
		m, err := readManifest(dir, 2)
		require.NoError(f, err)
		e0, e1 := m.extents[0][0], m.extents[1][0]
		f.Add(data, uint32(e0.off), uint32(e0.len), uint32(e1.off), uint32(e1.len), uint32(m.counts[1]), true, false)
		f.Add(data[:len(data)-7], uint32(e0.off), uint32(e0.len), uint32(e1.off), uint32(e1.len), uint32(m.counts[1]), false, false)
		f.Add(data, uint32(e0.off), uint32(e0.len/2), uint32(e0.off+e0.len/2), uint32(e1.len), uint32(m.counts[1]), true, true)
	}
	tr := smallTrace()
	f.Fuzz(func(t *testing.T, data []byte, off0, len0, off1, len1, n1 uint32, complete, fix bool) {
		if len(data) > 1<<16 {
			return
		}
		// The manifest's count bounds what ReadDir allocates up front (with
		// the block headers' counts): keep it small so the fuzzer runs fast.
		n1 %= 1 << 12
		if fix && !fixExtentCRCs(data, []int64{int64(off0), int64(off1)}) {
			return
		}
		dir := t.TempDir()
		require.NoError(t, os.Mkdir(filepath.Join(dir, EventsDirName), 0o777))
		bundle := filepath.Join(dir, EventsDirName, "b.clcb")
		require.NoError(t, os.WriteFile(bundle, data, 0o666))
		man := fmt.Sprintf(`{"format":"clc-native","version":2,"complete":%v,"timer_resolution":1,
			"nodes":[{"name":"a"},{"name":"b"}],"regions":[{"name":"MPI_Init"},{"name":"MPI_Send"},{"name":"work"}],
			"communicators":[{"name":"world","members":[0,1]},{"name":"self","members":[1]}],
			"locations":[{"id":0,"node":0,"events":%d,"extents":[{"file":"events/b.clcb","offset":%d,"length":%d}]},
			{"id":1,"node":1,"events":%d,"extents":[{"file":"events/b.clcb","offset":%d,"length":%d}]}]}`,
			complete, tr.Locations[0].Events.Len(), off0, len0, n1, off1, len1)
		require.NoError(t, os.WriteFile(filepath.Join(dir, ManifestName), []byte(man), 0o666))
		got, err := ReadDir(dir, &ReadOptions{Parallel: 2})
		if err != nil {
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			require.Contains(t, []string{bundle, filepath.Join(dir, ManifestName)}, fe.Path, "the file the error names: the bundle or the manifest")
			if fe.Path == bundle {
				require.Contains(t, []int{0, 1}, fe.Location, "the location the error names: %v", err)
			}
			return
		}
		for li, l := range got.Locations {
			require.NoError(t, l.Events.Check(), "location %d: the events read", li)
		}
	})
}

// fixExtentCRCs recomputes the CRCs of the stream headers at the given
// offsets and of the blocks after them (as fixCRCs does for a file).
func fixExtentCRCs(data []byte, offs []int64) bool {
	for _, off := range offs {
		if off < 0 || off > int64(len(data)) {
			continue
		}
		if !fixCRCs(data[off:]) {
			return false
		}
	}
	return true
}

// FuzzDecodeCarried decodes arbitrary carried files (optionally with their
// checksums repaired): never a panic, every error a *FormatError naming the
// file, and what decodes holds valid parts that encode and decode again to
// the same parts.
func FuzzDecodeCarried(f *testing.F) {
	for _, codec := range []Codec{CodecNone, CodecZstd} {
		tr := smallTrace()
		tr.Carried = &trace.CarriedParts{Fmt: trace.FormatOTF2, List: []trace.Part{{Location: -1, Name: "anchor", Data: []byte("anchor")},
			{Location: 1, Name: "definitions", Data: []byte(strings.Repeat("local ", 40))}}}
		out := filepath.Join(f.TempDir(), "tr")
		require.NoError(f, WriteDir(context.Background(), out, tr, &WriteOptions{Codec: codec, BlockSize: 100}))
		data, err := os.ReadFile(filepath.Join(out, CarriedName))
		require.NoError(f, err)
		f.Add(data, false, uint8(2))
		f.Add(data[:len(data)-3], true, uint8(1))
	}
	f.Add(carriedHeader(), false, uint8(0))
	dec, err := newDecoder(1)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, data []byte, fix bool, locs uint8) {
		if fix && !fixCRCs(data) {
			return
		}
		parts, err := decodeCarried("c", data, int(locs), -1, dec)
		if err != nil {
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			require.Equal(t, "c", fe.Path, "the file the error names")
			return
		}
		again, err := encodeCarried(parts, int(locs), CodecNone, nil, 1<<20)
		require.NoError(t, err, "encoding the decoded parts")
		back, err := decodeCarried("c", again, int(locs), len(parts), dec)
		require.NoError(t, err, "decoding the re-encoded parts")
		for i := range parts {
			require.Equal(t, parts[i].Location, back[i].Location, "part %d after a round trip: location", i)
			require.Equal(t, parts[i].Name, back[i].Name, "part %d after a round trip: name", i)
			require.True(t, bytes.Equal(parts[i].Data, back[i].Data), "part %d after a round trip: the data differ", i)
		}
	})
}
