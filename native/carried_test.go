package native

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
)

// This file tests carried data (docs/format.md, "Carried data (version
// 4)"): what a trace's source format defines beyond the model, in
// carried.clcd.

// randParts returns carried parts for a trace of n locations: two parts of
// the whole trace and some of locations, of random sizes (some empty, some
// spanning blocks), with random names.
func randParts(rng *rand.Rand, n int) []trace.Part {
	parts := []trace.Part{{Location: -1, Name: "anchor", Data: randBytes(rng)}, {Location: -1, Name: "definitions", Data: make([]byte, rng.IntN(3000))}}
	for i := range parts[1].Data {
		parts[1].Data[i] = byte(i % 7)
	}
	for li := range n {
		if rng.IntN(3) > 0 {
			parts = append(parts, trace.Part{Location: li, Name: "definitions", Data: randBytes(rng)})
		}
		if rng.IntN(5) == 0 {
			parts = append(parts, trace.Part{Location: li, Name: strings.Repeat("x", 1+rng.IntN(maxPartName)), Data: nil})
		}
	}
	rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	return parts
}

// requireSameParts checks that got holds the parts of want, in order,
// each naming the carried file as its source.
func requireSameParts(t *testing.T, want, got []trace.Part, path string, msgAndArgs ...any) {
	t.Helper()
	require.Len(t, got, len(want), msgAndArgs...)
	for i := range want {
		require.Equal(t, want[i].Location, got[i].Location, msgAndArgs...)
		require.Equal(t, want[i].Name, got[i].Name, msgAndArgs...)
		require.Equal(t, len(want[i].Data), len(got[i].Data), msgAndArgs...)
		if len(want[i].Data) > 0 {
			require.Equal(t, want[i].Data, got[i].Data, msgAndArgs...)
		}
		if path != "" {
			require.True(t, strings.HasPrefix(got[i].Source, path+": part "), "%q", got[i].Source)
		}
	}
}

// carriedRecords parses a carried file independently of the reader: its
// header, blocks (uncompressed only) and records, and returns the parts
// it holds (consecutive records of one location and name joined).
func carriedRecords(t *testing.T, data []byte) []trace.Part {
	t.Helper()
	require.Equal(t, "\x89CLCCAR\n", string(data[:8]))
	require.Equal(t, uint32(1), binary.LittleEndian.Uint32(data[8:]))
	require.Equal(t, make([]byte, 16), data[12:28])
	require.Equal(t, crc32.Checksum(data[:28], crc32.MakeTable(crc32.Castagnoli)), binary.LittleEndian.Uint32(data[28:]))
	var parts []trace.Part
	off := fileHeaderSize
	for off < len(data) {
		require.Equal(t, "CLCB", string(data[off:off+4]))
		require.Equal(t, byte(0), data[off+4], "uncompressed")
		s := int(binary.LittleEndian.Uint32(data[off+8:]))
		n := int(binary.LittleEndian.Uint32(data[off+16:]))
		raw := data[off+blockHeaderSize : off+blockHeaderSize+s]
		p := 0
		uv := func() uint64 {
			v, k := binary.Uvarint(raw[p:])
			require.Positive(t, k)
			p += k
			return v
		}
		for range n {
			loc := int(uv()) - 1
			name := string(raw[p : p+int(uv())])
			p += len(name)
			dl := int(uv())
			piece := raw[p : p+dl]
			p += dl
			if k := len(parts) - 1; k >= 0 && parts[k].Location == loc && parts[k].Name == name {
				parts[k].Data = append(parts[k].Data, piece...)
			} else {
				parts = append(parts, trace.Part{Location: loc, Name: name, Data: append([]byte(nil), piece...)})
			}
		}
		require.Equal(t, len(raw), p)
		off += blockHeaderSize + s
	}
	return parts
}

// Random traces with random carried parts survive a round trip, with
// either codec, any block size (parts split over blocks), bundled or not,
// and through a second native trace; the manifest has version 4 exactly
// when there are carried parts, and the file's layout is the documented
// one.
func TestCarriedRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 13))
	for it := range 40 {
		tr := randTrace(rng)
		parts := randParts(rng, len(tr.Locations))
		tr.Carried = &trace.CarriedParts{Fmt: trace.FormatOTF2, List: parts}
		opt := &WriteOptions{Codec: Codec(it % 2), BlockSize: []int{1, 50, 700, 0}[it%4], Bundles: rng.IntN(3) - 1}
		dir := filepath.Join(t.TempDir(), "tr")
		require.NoError(t, WriteDir(context.Background(), dir, tr, opt), "trace %d", it)
		require.Equal(t, NativeVersion, readTestManifest(t, dir).Version)
		path := filepath.Join(dir, CarriedName)
		if opt.Codec == CodecNone {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			requireSameParts(t, parts, carriedRecords(t, data), "", "trace %d", it)
		}
		got, err := ReadDir(dir, nil)
		require.NoError(t, err, "trace %d", it)
		requireSameTrace(t, tr, got, "trace %d", it)
		require.NotNil(t, got.Carried)
		require.Equal(t, trace.FormatOTF2, got.Carried.Format())
		gp, err := got.Carried.Parts()
		require.NoError(t, err, "trace %d", it)
		requireSameParts(t, parts, gp, path, "trace %d", it)

		// native → native carries them along.
		dir2 := filepath.Join(t.TempDir(), "tr2")
		require.NoError(t, WriteDir(context.Background(), dir2, got, DefaultWriteOptions()))
		got2, err := ReadDir(dir2, nil)
		require.NoError(t, err)
		gp2, err := got2.Carried.Parts()
		require.NoError(t, err)
		requireSameParts(t, parts, gp2, filepath.Join(dir2, CarriedName))

		// Without carried data the trace is written as before.
		tr.Carried = nil
		dir3 := filepath.Join(t.TempDir(), "tr3")
		require.NoError(t, WriteDir(context.Background(), dir3, tr, opt))
		require.Less(t, readTestManifest(t, dir3).Version, NativeVersion)
		_, err = os.Stat(filepath.Join(dir3, CarriedName))
		require.ErrorIs(t, err, os.ErrNotExist)
		got3, err := ReadDir(dir3, nil)
		require.NoError(t, err)
		require.Nil(t, got3.Carried)
	}
}

// carriedSmall writes the small trace with carried parts (several blocks)
// and returns its directory and the parts.
func carriedSmall(t *testing.T, codec Codec) (string, []trace.Part) {
	t.Helper()
	tr := smallTrace()
	parts := []trace.Part{{Location: -1, Name: "anchor", Data: []byte("anchor bytes")},
		{Location: -1, Name: "definitions", Data: []byte(strings.Repeat("global definitions ", 30))},
		{Location: 1, Name: "definitions", Data: []byte("local definitions of location 1")}}
	tr.Carried = &trace.CarriedParts{Fmt: trace.FormatOTF2, List: parts}
	dir := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(context.Background(), dir, tr, &WriteOptions{Codec: codec, BlockSize: 150}))
	return dir, parts
}

// requireCarriedError checks that err is a *FormatError naming path.
func requireCarriedError(t *testing.T, err error, path string, msgAndArgs ...any) {
	t.Helper()
	require.Error(t, err, msgAndArgs...)
	var fe *FormatError
	require.True(t, errors.As(err, &fe), "not a *FormatError: %v", err)
	require.Equal(t, path, fe.Path, msgAndArgs...)
	require.Contains(t, err.Error(), path)
}

// Reading a trace for its events does not read the carried data: with the
// carried file's content destroyed (its length kept) ReadDir and
// ReadSelected succeed, and only Parts reports the damage.
func TestCarriedLazy(t *testing.T) {
	dir, _ := carriedSmall(t, CodecZstd)
	path := filepath.Join(dir, CarriedName)
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, make([]byte, st.Size()), 0o666))
	tr, err := ReadDir(dir, nil)
	require.NoError(t, err)
	requireSameTrace(t, smallTrace(), tr)
	_, err = tr.Carried.Parts()
	requireCarriedError(t, err, path)
	require.ErrorContains(t, err, "bad carried-data magic")
	sel, _, err := ReadSelected(dir, nil, func(*trace.Trace) func(trace.Kind, uint32) bool {
		return func(trace.Kind, uint32) bool { return true }
	})
	require.NoError(t, err)
	require.NotNil(t, sel.Carried)
}

// Every flipped byte of the carried file is an error naming it (the
// header and block CRCs cover every byte); every cut is an error at
// OpenDir (the manifest says the length), and with the manifest's length
// adjusted an error of Parts; the trace's events stay readable. Every byte
// and every cut with CLC_TEST_FULL=1; by default every third, a different
// third for each codec.
func TestCarriedCorrupt(t *testing.T) {
	for phase, codec := range []Codec{CodecNone, CodecZstd} {
		skip := func(off int) bool { return !testenv.Full() && (off+phase)%3 != 0 }
		dir, parts := carriedSmall(t, codec)
		path := filepath.Join(dir, CarriedName)
		orig, err := os.ReadFile(path)
		require.NoError(t, err)
		if codec == CodecNone {
			ends, _ := blockEnds(t, orig)
			require.Greater(t, len(ends), 3, "want several blocks")
		}
		parse := func() error {
			tr, err := ReadDir(dir, nil)
			if err != nil {
				return err
			}
			_, err = tr.Carried.Parts()
			return err
		}
		for off := range orig {
			if skip(off) {
				continue
			}
			for _, mask := range []byte{0xff, 1 << (off % 8)} {
				data := append([]byte(nil), orig...)
				data[off] ^= mask
				require.NoError(t, testenv.ReplaceFile(path, data, 0o666))
				requireCarriedError(t, parse(), path, "codec %v, offset %d, mask %#x", codec, off, mask)
			}
		}
		for n := range len(orig) {
			if skip(n) {
				continue
			}
			require.NoError(t, testenv.ReplaceFile(path, orig[:n], 0o666))
			_, err := OpenDir(dir)
			requireCarriedError(t, err, path, "cut at %d", n)
			require.ErrorIs(t, err, ErrTruncated)
			editManifest(t, dir, func(m map[string]any, _ []map[string]any) { m["carried"].(map[string]any)["length"] = n })
			err = parse()
			if n < fileHeaderSize {
				requireCarriedError(t, err, filepath.Join(dir, ManifestName), "cut at %d", n) // length below a header
			} else {
				requireCarriedError(t, err, path, "cut at %d", n)
			}
			editManifest(t, dir, func(m map[string]any, _ []map[string]any) { m["carried"].(map[string]any)["length"] = len(orig) })
		}
		require.NoError(t, testenv.ReplaceFile(path, orig, 0o666))
		tr, err := ReadDir(dir, nil)
		require.NoError(t, err)
		got, err := tr.Carried.Parts()
		require.NoError(t, err)
		requireSameParts(t, parts, got, path)
	}
}

// Damage to the manifest's "carried" object, or a missing carried file,
// is an error naming the file at fault.
func TestCarriedManifestErrors(t *testing.T) {
	dir, _ := carriedSmall(t, CodecNone)
	mpath := filepath.Join(dir, ManifestName)
	orig, err := os.ReadFile(mpath)
	require.NoError(t, err)
	s := string(orig)
	require.Contains(t, s, `"version":4`)
	i := strings.Index(s, `"carried":`)
	require.Positive(t, i)
	j := i + strings.Index(s[i:], "}") + 1
	carried := s[i:j]
	repl := func(old, new string) string {
		require.Contains(t, s, old)
		return strings.Replace(s, old, new, 1)
	}
	for name, text := range map[string]string{
		"version 3":           repl(`"version":4`, `"version":3`),
		"unknown format":      repl(`"format":"otf2"`, `"format":"otf3"`),
		"no length":           repl(carried, `"carried":{"format":"otf2","parts":3}`),
		"no parts":            repl(carried, `"carried":{"format":"otf2","length":100}`),
		"short length":        repl(carried, `"carried":{"format":"otf2","length":31,"parts":3}`),
		"too many parts":      repl(carried, `"carried":{"format":"otf2","length":60,"parts":21}`),
		"negative parts":      repl(carried, `"carried":{"format":"otf2","length":60,"parts":-1}`),
		"carried not object":  repl(carried, `"carried":"otf2"`),
		"wrong length":        repl(`"length":`, `"length":1`),
		"wrong count of part": repl(`"parts":3`, `"parts":2`),
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(mpath, []byte(text), 0o666))
			tr, err := ReadDir(dir, nil)
			if err == nil {
				_, err = tr.Carried.Parts()
			}
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			if name == "wrong length" || name == "wrong count of part" {
				require.Equal(t, filepath.Join(dir, CarriedName), fe.Path, "%v", err)
			} else {
				require.Equal(t, mpath, fe.Path, "%v", err)
			}
		})
	}
	require.NoError(t, os.WriteFile(mpath, orig, 0o666))
	require.NoError(t, os.Rename(filepath.Join(dir, CarriedName), filepath.Join(dir, "x")))
	_, err = ReadDir(dir, nil)
	requireCarriedError(t, err, filepath.Join(dir, CarriedName))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// The writer refuses parts it cannot store, and an error of the carried
// data's loader, without writing a manifest.
func TestCarriedWriteErrors(t *testing.T) {
	for name, c := range map[string]trace.Carried{
		"location out of range": &trace.CarriedParts{Fmt: trace.FormatOTF2, List: []trace.Part{{Location: 2, Name: "x"}}},
		"location below -1":     &trace.CarriedParts{Fmt: trace.FormatOTF2, List: []trace.Part{{Location: -2, Name: "x"}}},
		"empty name":            &trace.CarriedParts{Fmt: trace.FormatOTF2, List: []trace.Part{{Location: 0}}},
		"long name":             &trace.CarriedParts{Fmt: trace.FormatOTF2, List: []trace.Part{{Location: 0, Name: strings.Repeat("n", 256)}}},
		"part twice":            &trace.CarriedParts{Fmt: trace.FormatOTF2, List: []trace.Part{{Location: 0, Name: "x"}, {Location: 1, Name: "x"}, {Location: 0, Name: "x"}}},
		"unknown format":        &trace.CarriedParts{Fmt: 7},
		"loader error":          failingCarried{},
	} {
		tr := smallTrace()
		tr.Carried = c
		dir := filepath.Join(t.TempDir(), "tr")
		err := WriteDir(context.Background(), dir, tr, nil)
		require.Error(t, err, name)
		_, serr := os.Stat(filepath.Join(dir, ManifestName))
		require.ErrorIs(t, serr, os.ErrNotExist, name)
	}
}

type failingCarried struct{}

func (failingCarried) Format() uint8                { return trace.FormatOTF2 }
func (failingCarried) Parts() ([]trace.Part, error) { return nil, fmt.Errorf("the source is gone") }

// decodeCarried refuses records that break the format's rules, each with
// the block's offset; the bytes are built by hand.
func TestCarriedRecordsByHand(t *testing.T) {
	rec := func(loc1 uint64, name string, data []byte) []byte {
		b := binary.AppendUvarint(nil, loc1)
		b = binary.AppendUvarint(b, uint64(len(name)))
		b = append(b, name...)
		b = binary.AppendUvarint(b, uint64(len(data)))
		return append(b, data...)
	}
	file := func(n uint32, raw ...[]byte) []byte {
		out := carriedHeader()
		var payload []byte
		for _, r := range raw {
			payload = append(payload, r...)
		}
		return append(out, sealBlock(nil, nil, CodecNone, payload, n)...)
	}
	for name, tc := range map[string]struct {
		data []byte
		want string
	}{
		"location out of range": {file(1, rec(3, "a", []byte{1, 2})), "location 2 out of range"},
		"empty name":            {file(1, rec(0, "", []byte{1, 2})), "name of 0 bytes"},
		"data past the block":   {file(1, rec(0, "a", []byte{1, 2})[:5]), "data bytes"},
		"a part twice":          {file(3, rec(0, "a", nil), rec(1, "a", nil), rec(0, "a", nil)), `a second part "a" of location -1`},
		"bytes after records":   {file(1, rec(0, "a", nil), []byte{0, 0, 0}), "records use"},
		"non-minimal varint":    {file(1, []byte{0x80, 0x00, 1, 'a', 0}), "shortest form"},
		"wrong part count":      {file(1, rec(0, "a", nil)), "1 parts, the manifest says 2"},
	} {
		dec, err := newDecoder(1)
		require.NoError(t, err)
		want := -1
		if name == "wrong part count" {
			want = 2
		}
		_, err = decodeCarried("c", tc.data, 2, want, dec)
		require.ErrorContains(t, err, tc.want, name)
		var fe *FormatError
		require.ErrorAs(t, err, &fe, name)
		require.Equal(t, "c", fe.Path)
	}
	// Consecutive records of one part join; the first record of another
	// part starts a new one.
	dec, err := newDecoder(1)
	require.NoError(t, err)
	parts, err := decodeCarried("c", file(4, rec(0, "a", []byte{1}), rec(0, "a", []byte{2}), rec(2, "a", nil), rec(0, "b", []byte{3})), 2, 3, dec)
	require.NoError(t, err)
	require.Len(t, parts, 3)
	require.Equal(t, []byte{1, 2}, parts[0].Data)
	require.Equal(t, 1, parts[1].Location)
	require.Equal(t, "b", parts[2].Name)
}

// RewriteTimes (clc-correct's native → native) carries the source's data
// along.
func TestCarriedRewriteTimes(t *testing.T) {
	dir, parts := carriedSmall(t, CodecZstd)
	tr, err := ReadDir(dir, nil)
	require.NoError(t, err)
	times := make([][]int64, len(tr.Locations))
	for li, l := range tr.Locations {
		for _, v := range l.Events.Time {
			times[li] = append(times[li], v+5)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, RewriteTimes(context.Background(), out, dir, times, tr.Properties, nil))
	got, err := ReadDir(out, nil)
	require.NoError(t, err)
	gp, err := got.Carried.Parts()
	require.NoError(t, err)
	requireSameParts(t, parts, gp, filepath.Join(out, CarriedName))
	require.Equal(t, NativeVersion, readTestManifest(t, out).Version)
}
