package native

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/infile"
	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
)

// Every file of a native trace that is a named pipe or a device is refused
// at once, naming the file: a FIFO blocked open(2) for ever, a symbolic link
// to /dev/zero was read up to the manifest's limit.
func TestSpecialFilesAreRefused(t *testing.T) {
	for _, bundles := range []int{0, 1} {
		src := filepath.Join(t.TempDir(), "tr")
		require.NoError(t, WriteDir(context.Background(), src, smallTrace(), &WriteOptions{Codec: CodecZstd, Bundles: bundles}))
		files := []string{ManifestName, "events/0.clce"}
		if bundles > 0 {
			files[1] = "events/bundle-0" + BundleExt
		}
		for _, f := range files {
			for _, kind := range []string{testenv.SpecialFIFO, testenv.SpecialZero} {
				dir := filepath.Join(t.TempDir(), "tr")
				require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
				p := filepath.Join(dir, f)
				testenv.MakeSpecial(t, p, kind)
				_, err := ReadDir(dir, nil)
				require.ErrorIs(t, err, infile.ErrNotRegular, "%s %s", f, kind)
				assert.Contains(t, err.Error(), p)
				assert.False(t, IsDir(dir) && f == ManifestName, "IsDir read a %s manifest", kind)
			}
		}
	}
}

// writeBomb writes into dir a one-location trace whose stream holds
// blocks copies of one zstd block of 2^25 coll-begin events (64 MiB raw, a
// few KiB stored), with the manifest declaring declared events (-1: none,
// as an incomplete trace may).
func writeBomb(t *testing.T, dir string, blocks int, declared int64) {
	t.Helper()
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n"}}, Locations: []*trace.Location{{Name: "rank 0"}}}
	tr.Locations[0].Events.AppendCollBegin(0)
	require.NoError(t, WriteDir(context.Background(), dir, tr, nil))
	const n = 1 << 25
	raw := bytes.Repeat([]byte{byte(trace.KindCollBegin), 0}, n)
	enc, err := newEncoder(1, 1)
	require.NoError(t, err)
	block := sealBlock(nil, enc, CodecZstd, raw, n)
	require.Less(t, len(block), 64<<10)
	stream := streamHeader(0)
	for range blocks {
		stream = append(stream, block...)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, EventsDirName, "0"+StreamExt), stream, 0o644))
	m := filepath.Join(dir, ManifestName)
	b, err := os.ReadFile(m)
	require.NoError(t, err)
	count := `"events":` + strconv.FormatInt(declared, 10)
	if declared < 0 {
		count = `"x":0`
		b = bytes.Replace(b, []byte(`"complete":true`), []byte(`"complete":false`), 1)
	}
	b = bytes.Replace(b, []byte(`"events":1`), []byte(count), 1)
	require.NoError(t, os.WriteFile(m, b, 0o644))
}

// A few KiB of zstd declaring 2^25 events while the manifest says 1: the
// block is refused from its header, before its payload is decompressed
// (issue 26: 340 KB of such blocks took 5.3 GB and Go's out-of-memory
// crash).
func TestBlockBeyondTheManifestIsNotDecoded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bomb")
	writeBomb(t, dir, 40, 1)
	r, err := OpenDir(dir)
	require.NoError(t, err)
	defer r.Close()
	n, err := r.DeclaredEvents(0)
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = r.Read(context.Background(), nil)
	runtime.ReadMemStats(&after)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "more than the 1 the manifest says")
	assert.Contains(t, err.Error(), filepath.Join(dir, EventsDirName, "0"+StreamExt))
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "the 64 MiB payload was decompressed")
}

// An incomplete trace's manifest may lack the count: the block headers
// declare it, read without their payloads.
func TestDeclaredEventsOfAnIncompleteTrace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bomb")
	writeBomb(t, dir, 40, -1)
	r, err := OpenDir(dir)
	require.NoError(t, err)
	defer r.Close()
	require.False(t, r.Complete())
	n, err := r.DeclaredEvents(0)
	require.NoError(t, err)
	assert.Equal(t, int64(40<<25), n)
}
