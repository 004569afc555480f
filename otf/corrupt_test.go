package otf

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
)

// copyArchive copies the real trace into a temporary directory.
func copyArchive(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "arch")
	require.NoError(t, os.MkdirAll(filepath.Join(dst, "traces"), 0o755))
	for _, f := range []string{"traces.otf2", "traces.def", "traces/0.evt", "traces/0.def", "traces/1.evt", "traces/1.def"} {
		b, err := os.ReadFile(filepath.Join(realTrace, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dst, f), b, 0o644))
	}
	return dst
}

func readAll(dir string) error {
	a, err := Open(dir)
	if err != nil {
		return err
	}
	_, err = a.Read(context.Background(), nil)
	return err
}

// requireFormatError checks that err is a FormatError naming file.
func requireFormatError(t *testing.T, err error, file string) *FormatError {
	t.Helper()
	require.Error(t, err)
	var fe *FormatError
	require.True(t, errors.As(err, &fe), "not a FormatError: %v", err)
	assert.Equal(t, file, fe.File, "%v", err)
	assert.Contains(t, err.Error(), "byte offset")
	return fe
}

func TestTruncatedEventFile(t *testing.T) {
	dir := copyArchive(t)
	path := filepath.Join(dir, "traces", "0.evt")
	orig, err := os.ReadFile(path)
	require.NoError(t, err)
	for n := 0; n < len(orig); n++ {
		require.NoError(t, testenv.ReplaceFile(path, orig[:n], 0o644))
		err := readAll(dir)
		fe := requireFormatError(t, err, "traces/0.evt")
		assert.LessOrEqual(t, fe.Offset, int64(len(orig)), "cut at %d: %v", n, err)
	}
}

func TestTruncatedDefinitions(t *testing.T) {
	dir := copyArchive(t)
	for _, f := range []string{"traces.def", "traces/1.def", "traces.otf2"} {
		path := filepath.Join(dir, f)
		orig, err := os.ReadFile(path)
		require.NoError(t, err)
		for n := 0; n < len(orig); n += 1 + n/64 {
			require.NoError(t, testenv.ReplaceFile(path, orig[:n], 0o644))
			err := readAll(dir)
			require.Error(t, err, "%s cut at %d", f, n)
			assert.Contains(t, err.Error(), f, "%s cut at %d", f, n)
		}
		require.NoError(t, testenv.ReplaceFile(path, orig, 0o644))
	}
	require.NoError(t, readAll(dir))
}

// Flipping any byte of any file gives either a trace or an error, never a
// panic; errors about event files name the file and an offset inside it.
func TestFlippedBytes(t *testing.T) {
	dir := copyArchive(t)
	for _, f := range []string{"traces/0.evt", "traces/1.def", "traces.def"} {
		path := filepath.Join(dir, f)
		orig, err := os.ReadFile(path)
		require.NoError(t, err)
		step := 1
		if len(orig) > 2000 {
			step = 29
		}
		for i := 0; i < len(orig); i += step {
			for _, x := range []byte{0xFF, 0x01} {
				b := bytes.Clone(orig)
				b[i] ^= x
				require.NoError(t, testenv.ReplaceFile(path, b, 0o644))
				err := readAll(dir)
				var fe *FormatError
				if err != nil && errors.As(err, &fe) && strings.HasSuffix(f, ".evt") {
					assert.Equal(t, f, fe.File)
					assert.LessOrEqual(t, fe.Offset, int64(len(b)))
				}
			}
		}
		require.NoError(t, testenv.ReplaceFile(path, orig, 0o644))
	}
}

func TestBadLength(t *testing.T) {
	dir := copyArchive(t)
	path := filepath.Join(dir, "traces", "0.evt")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	// The ProgramBegin record (type 0x53) after the first attribute list:
	// give it a length that runs past the chunk.
	i := bytes.Index(b, []byte{0x53, 0x03})
	require.Positive(t, i)
	// The 9-byte length form, reading the following bytes as an absurd length.
	b[i+1] = 0xFF
	require.NoError(t, os.WriteFile(path, b, 0o644))
	fe := requireFormatError(t, readAll(dir), "traces/0.evt")
	assert.Equal(t, int64(i), fe.Offset)
	assert.Contains(t, fe.Error(), "runs past the end")
	// A 1-byte length that skips into the middle of other records.
	b[i+1] = 0xF0
	require.NoError(t, os.WriteFile(path, b, 0o644))
	requireFormatError(t, readAll(dir), "traces/0.evt")
}

func TestWrongCounts(t *testing.T) {
	dir := copyArchive(t)
	path := filepath.Join(dir, "traces", "1.evt")
	orig, err := os.ReadFile(path)
	require.NoError(t, err)
	// The chunk header's last event number.
	b := bytes.Clone(orig)
	binary.LittleEndian.PutUint64(b[10:], 59)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	fe := requireFormatError(t, readAll(dir), "traces/1.evt")
	assert.Equal(t, int64(2), fe.Offset)
	assert.Contains(t, fe.Error(), "header says events 1 to 59")
	require.NoError(t, os.WriteFile(path, orig, 0o644))

	// An event file holding one event less than its Location definition
	// announces: read to its end, as the reference reader does, with a
	// warning (TestAnnouncedCountsAreHints covers the rest).
	i := bytes.LastIndex(orig, []byte{0x54}) // ProgramEnd
	require.Positive(t, i)
	b = append(bytes.Clone(orig[:i]), 0x02, 0x01)
	binary.LittleEndian.PutUint64(b[10:], 59)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	a, err := Open(dir)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, 59, tr.Locations[1].Events.Len())
	require.Len(t, a.Warnings(), 1)
	assert.Contains(t, a.Warnings()[0].String(), "location 1 announces 60 events, traces/1.evt holds 59")
}

func TestMissingEventFile(t *testing.T) {
	dir := copyArchive(t)
	require.NoError(t, os.Remove(filepath.Join(dir, "traces", "1.evt")))
	err := readAll(dir)
	requireFormatError(t, err, "traces/1.evt")
	assert.Contains(t, err.Error(), "missing")
	// A missing local definition file is tolerated (as the reference reader
	// does), but then rank 1's local ids are taken as global.
	dir = copyArchive(t)
	require.NoError(t, os.Remove(filepath.Join(dir, "traces", "0.def")))
	require.NoError(t, readAll(dir))
}

func TestDanglingReference(t *testing.T) {
	dir := copyArchive(t)
	path := filepath.Join(dir, "traces", "0.evt")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	i := bytes.Index(b, []byte{0x0c, 0x01, 0x03}) // Enter region 3 (main)
	require.Positive(t, i)
	b[i+2] = 0xF0
	require.NoError(t, os.WriteFile(path, b, 0o644))
	err = readAll(dir)
	fe := requireFormatError(t, err, "traces/0.evt")
	assert.Equal(t, int64(i), fe.Offset)
	assert.Contains(t, err.Error(), "region 240 is not defined")

	// A communicator id that the mapping table does not know and that is
	// not a global id either.
	dir = copyArchive(t)
	path = filepath.Join(dir, "traces", "0.evt")
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	i = bytes.Index(b, []byte{0x0e, 0x08, 0x01, 0x01, 0x00}) // MpiSend receiver 1, comm 0
	require.Positive(t, i)
	b[i+4] = 0x05
	require.NoError(t, os.WriteFile(path, b, 0o644))
	// 0x05 is a size byte: the record no longer parses as it was, so any
	// FormatError naming the file will do.
	requireFormatError(t, readAll(dir), "traces/0.evt")
}

func TestRefuseSIONAndCompression(t *testing.T) {
	dir := copyArchive(t)
	path := filepath.Join(dir, "traces.otf2")
	orig, err := os.ReadFile(path)
	require.NoError(t, err)
	b := bytes.Clone(orig)
	b[0x1c] = SubstrateSION
	require.NoError(t, os.WriteFile(path, b, 0o644))
	_, err = Open(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "SION")
	b = bytes.Clone(orig)
	b[0x1d] = CompressionZlib
	require.NoError(t, os.WriteFile(path, b, 0o644))
	_, err = Open(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "compressed")
}

func TestOpenPaths(t *testing.T) {
	assert.True(t, IsArchive(realTrace))
	assert.True(t, IsArchive(filepath.Join(realTrace, "traces.otf2")))
	assert.False(t, IsArchive(filepath.Join(realTrace, "traces.def")))
	assert.False(t, IsArchive(t.TempDir()))
	_, err := Open(filepath.Join(realTrace, "traces.otf2"))
	require.NoError(t, err)
}

// Rewrite refuses a corrected trace that does not fit the archive, and
// never writes into the input.
func TestRewriteRefuses(t *testing.T) {
	a, err := Open(realTrace)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	require.Error(t, a.Rewrite(realTrace, tr, nil))
	require.Error(t, a.Rewrite(filepath.Join(realTrace, "sub"), tr, nil))
	out := filepath.Join(t.TempDir(), "o")
	ts := tr.Locations[0].Events.Time
	ts[5], ts[6] = ts[6], ts[5]
	err = a.Rewrite(out, tr, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "before the previous event")
	_, statErr := os.Stat(out)
	assert.True(t, os.IsNotExist(statErr), "no partial output left behind")
	ts[5], ts[6] = ts[6], ts[5]
	tr.Locations[1].Events.Time = tr.Locations[1].Events.Time[:10]
	tr.Locations[1].Events.Kind = tr.Locations[1].Events.Kind[:10]
	require.Error(t, a.Rewrite(out, tr, nil))
	// A non-empty output directory is refused.
	require.NoError(t, os.MkdirAll(filepath.Join(out, "x"), 0o755))
	tr2, _ := a.Read(context.Background(), nil)
	require.Error(t, a.Rewrite(out, tr2, nil))
}

// An absurd event count in the Location definition is a hint the reader
// does not trust: it allocates no more than the file can hold and reads the
// events the file has.
func TestAbsurdEventCount(t *testing.T) {
	dir := copyArchive(t)
	path := filepath.Join(dir, "traces.def")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	// Location 1: 0e 09 | self 01 01 | name 01 0c | type 01 | events 01 3c | group 01 01.
	old := []byte{0x0e, 0x09, 0x01, 0x01, 0x01, 0x0c, 0x01, 0x01, 0x3c, 0x01, 0x01}
	i := bytes.Index(b, old)
	require.Positive(t, i)
	set := func(count ...byte) (*Archive, error) {
		rec := append([]byte{0x0e, byte(9 + len(count) - 2), 0x01, 0x01, 0x01, 0x0c, 0x01}, count...)
		rec = append(rec, 0x01, 0x01)
		nb := append(append(bytes.Clone(b[:i]), rec...), b[i+len(old):]...)
		require.NoError(t, os.WriteFile(path, nb, 0o644))
		a, err := Open(dir)
		if err != nil {
			return nil, err
		}
		tr, err := a.Read(context.Background(), nil)
		if err == nil {
			assert.Equal(t, 60, tr.Locations[1].Events.Len())
			assert.LessOrEqual(t, cap(tr.Locations[1].Events.Kind), 868/2, "allocation capped by the file size")
		}
		return a, err
	}
	// 2^62 events: more than a location of the model may hold.
	a, err := set(0x08, 0, 0, 0, 0, 0, 0, 0, 0x40)
	require.NoError(t, err)
	require.NotEmpty(t, a.Warnings())
	assert.Contains(t, a.Warnings()[0].Msg, "announces 4611686018427387904 events")
	// 10^6 events: not in a file of 868 bytes.
	a, err = set(0x03, 0x40, 0x42, 0x0f)
	require.NoError(t, err)
	assert.Contains(t, a.Warnings()[0].Msg, "announces 1000000 events, traces/1.evt holds 60")
}

// Errors about what a definition refers to name the definition (its index
// and type) and its real byte offset, not byte offset 0.
func TestDefinitionErrorsNameTheRecord(t *testing.T) {
	for _, typ := range []uint8{defRegion, defComm, defSystemTreeNode, defLocation} {
		dir := copyArchive(t)
		path := filepath.Join(dir, "traces.def")
		f, err := os.Open(path)
		require.NoError(t, err)
		g, err := readGlobalDefs("traces.def", f, MinChunkSize, &warnings{})
		f.Close()
		require.NoError(t, err)
		// Rewrite the file with the name of the last record of type typ
		// (a system-tree node that is a location group's parent) pointing
		// to string 60000, which is not defined.
		at := -1
		for i, r := range g.records {
			if r.typ == typ {
				at = i
			}
		}
		var b bytes.Buffer
		cw := newChunkWriter("traces.def", &b, MinChunkSize, false, false, nil)
		for i, r := range g.records {
			p := r.payload
			if i == at {
				d := dec{b: p}
				if typ == defLocation {
					d.u64c()
				} else {
					d.u32c()
				}
				start := d.p
				d.u32c()
				e := enc{b: append([]byte(nil), p[:start]...)}
				e.u32c(60000)
				p = append(e.b, p[d.p:]...)
			}
			require.NoError(t, cw.def(r.typ, p))
		}
		require.NoError(t, cw.close())
		require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
		err = readAll(dir)
		require.Error(t, err, "type %d", typ)
		fe := requireFormatError(t, err, "traces.def")
		assert.Equal(t, g.records[at].off, fe.Offset, "type %d", typ)
		assert.NotZero(t, fe.Offset)
		assert.Contains(t, fe.Error(), "refers to string 60000, which is not defined")
		assert.Contains(t, fe.Error(), fmt.Sprintf("definition %d (%s)", at, recordName(&globalDefNames, typ)))
	}
}

// Group records of OTF2 before 1.2 (Score-P 1.x) end after the members:
// their type is the withdrawn groupTypePre12 byte. The sst-macro archive
// with its Group records cut back to that layout prints as the original
// with the reference reader, and reads into the same communicators.
func TestPre12Groups(t *testing.T) {
	src := "../testdata/otf2/sst-macro-scorep2"
	dir := filepath.Join(t.TempDir(), "pre12")
	require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
	f, err := os.Open(filepath.Join(src, "traces.def"))
	require.NoError(t, err)
	g, err := readGlobalDefs("traces.def", f, MinChunkSize, &warnings{})
	f.Close()
	require.NoError(t, err)
	var b bytes.Buffer
	cw := newChunkWriter("traces.def", &b, MinChunkSize, false, false, nil)
	cut := 0
	for _, r := range g.records {
		p := r.payload
		if r.typ == defGroup {
			d := dec{b: p}
			d.u32c()
			d.u32c()
			d.u8()
			for n := d.u32c(); n > 0; n-- {
				d.u64c()
			}
			require.NoError(t, d.err)
			p = p[:d.p]
			cut++
		}
		require.NoError(t, cw.def(r.typ, p))
	}
	require.NoError(t, cw.close())
	require.Equal(t, 7, cut)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "traces.def"), b.Bytes(), 0o644))

	want := printAll(t, filepath.Join(src, "traces.otf2"), "-G")
	got := printAll(t, filepath.Join(dir, "traces.otf2"), "-G")
	require.True(t, got.ok)
	assert.Equal(t, want.lines, got.lines, "the reference reader converts the pre-1.2 groups")

	read := func(d string) *trace.Trace {
		a, err := Open(d)
		require.NoError(t, err)
		tr, err := a.Read(context.Background(), nil)
		require.NoError(t, err)
		return tr
	}
	assert.Equal(t, read(src).Comms, read(dir).Comms)
}
