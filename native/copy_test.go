package native

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/trace"
)

// CopyTo streams every event, with the new times, into another sink: into a
// bundled native writer (a trace.RangedSink), what it writes reads back as
// the source with the new times, in the same bytes from one copy to the
// next whatever the scheduling.
func TestCopyToStreamsEveryEventWithNewTimes(t *testing.T) {
	tr, src, times := rewriteSource(t, 13, 7)
	want, err := ReadDir(src, nil)
	require.NoError(t, err)
	for li, l := range want.Locations {
		l.Events.Time = times[li]
		l.Offsets = nil
	}
	r, err := OpenDirWith(src, &ReadOptions{Parallel: 2})
	require.NoError(t, err)
	defer r.Close()
	var files []map[string][]byte
	for k := range 2 {
		out := filepath.Join(t.TempDir(), "out")
		defs := r.rewriteDefs
		defs.Properties = tr.Properties
		w, err := CreateDir(out, &defs, &WriteOptions{Codec: CodecZstd, Parallel: 2})
		require.NoError(t, err)
		require.NotNil(t, w.Ranges(), "the copy must go into bundles")
		require.NoError(t, r.CopyTo(context.Background(), w, times, &ReadOptions{Parallel: 1 + k}))
		require.NoError(t, w.Close())
		got, err := ReadDir(out, nil)
		require.NoError(t, err)
		requireSameTrace(t, want, got)
		files = append(files, tracetest.DirFiles(t, out))
	}
	require.True(t, tracetest.SameFiles(t, files[0], files[1], "a second copy"))
}

// CopyTo refuses time columns that do not fit the locations' events, and
// stops when its context is cancelled.
func TestCopyToRefusesWrongTimes(t *testing.T) {
	_, src, times := rewriteSource(t, 17, 3)
	r, err := OpenDirWith(src, nil)
	require.NoError(t, err)
	defer r.Close()
	sink := func() trace.Sink {
		w, err := CreateDir(filepath.Join(t.TempDir(), "out"), r.Defs(), nil)
		require.NoError(t, err)
		t.Cleanup(w.Abort)
		return w
	}
	require.ErrorContains(t, r.CopyTo(context.Background(), sink(), times[1:], nil), "time columns")
	short := append([][]int64(nil), times...)
	short[2] = short[2][:len(short[2])-1]
	require.ErrorContains(t, r.CopyTo(context.Background(), sink(), short, nil), "location 2")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, r.CopyTo(ctx, sink(), times, nil), context.Canceled)
}

// A cancelled WriteDir writes no manifest: the directory is not a trace.
func TestWriteDirStopsWhenCancelled(t *testing.T) {
	tr, _, _ := rewriteSource(t, 19, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "out")
	require.ErrorIs(t, WriteDir(ctx, dir, tr, &WriteOptions{Parallel: 2}), context.Canceled)
	require.False(t, IsDir(dir))
}
