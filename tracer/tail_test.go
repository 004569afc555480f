package tracer

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/trace"
	"github.com/clc-tools/clc/tracer/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blocks splits a stream file into its header and blocks.
func blocks(t *testing.T, data []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for off := 32; off < len(data); {
		n := 24 + int(binary.LittleEndian.Uint32(data[off+8:]))
		out = append(out, data[off:off+n])
		off += n
	}
	return out
}

// tailOf writes a tail file for rank 0 whose stream 0 holds the given
// blocks in buffers 0 and 1 (nil: empty), as the library leaves it when
// it dies: written says which the writer thread wrote.
func tailOf(t *testing.T, path string, bufs [2][]byte, offs [2]uint64, written [2]bool, pid int64, host string) {
	t.Helper()
	const bufBytes = 8192
	data := make([]byte, abi.TailData+2*bufBytes)
	le := binary.LittleEndian
	copy(data, abi.TailMagic)
	le.PutUint32(data[abi.TailOffVersion:], abi.TailVersion)
	le.PutUint32(data[abi.TailOffStreams:], 1)
	le.PutUint64(data[abi.TailOffBufBytes:], bufBytes)
	le.PutUint64(data[abi.TailOffData:], abi.TailData)
	le.PutUint64(data[abi.TailOffPID:], uint64(pid))
	copy(data[abi.TailOffHost:], host)
	for b := 0; b < 2; b++ {
		commit := uint64(24)
		if bufs[b] != nil {
			require.LessOrEqual(t, len(bufs[b]), bufBytes, "a block's bytes against the buffer's")
			// the library's buffer: the header's room, then the records
			copy(data[abi.TailData+b*bufBytes+24:], bufs[b][24:])
			commit = uint64(le.Uint32(bufs[b][16:]))<<32 | uint64(len(bufs[b]))
		}
		o := abi.TailOffStream
		le.PutUint64(data[o+abi.TailStreamOffCommit+8*b:], commit)
		le.PutUint64(data[o+abi.TailStreamOffOff+8*b:], offs[b])
		if written[b] {
			le.PutUint32(data[o+abi.TailStreamOffWritten+4*b:], 1)
		}
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

// TestRecoverTails: a stream cut after k blocks and a tail holding the
// next two (one handed to the writer, one being filled) recover to the
// stream the trace package's writer wrote, byte for byte; a block the
// process wrote itself counts as nothing recovered; a closed tail is only
// removed; the tail of a process that runs (this one, mapping it) is left
// alone and its events counted as pending; a tail that is not one is an
// error naming it.
func TestRecoverTails(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "MPI_Init"}},
		Comms: []trace.Comm{{Name: "w", Members: []int32{0}}}, Locations: []*trace.Location{{ID: 0, Name: "rank 0"}}}
	for i := 0; i < 2000; i++ {
		tr.Locations[0].Events.AppendRegion(trace.KindEnter, int64(i*10), 0)
	}
	opt := native.DefaultWriteOptions()
	opt.Codec = native.CodecNone
	opt.BlockSize = 1000
	require.NoError(t, native.WriteDir(context.Background(), src, tr, opt))
	want, err := os.ReadFile(filepath.Join(src, "events", "0.clce"))
	require.NoError(t, err)
	bl := blocks(t, want)
	require.GreaterOrEqual(t, len(bl), 4, "blocks")
	n := len(bl)
	offA := uint64(len(want) - len(bl[n-1]) - len(bl[n-2])) // block n-2
	offB := offA + uint64(len(bl[n-2]))                     // block n-1
	lastTwo := int64(binary.LittleEndian.Uint32(bl[n-2][16:]) + binary.LittleEndian.Uint32(bl[n-1][16:]))
	host := hostName()

	setup := func(t *testing.T, cut int, written [2]bool, closed bool) (dir, stream, tail string) {
		dir = t.TempDir()
		for _, d := range []string{"events", MetaDir} {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
		}
		stream = filepath.Join(dir, "events", "0.clce")
		// the file as the dying process left it, with junk of a cut write
		require.NoError(t, os.WriteFile(stream, append(append([]byte{}, want[:cut]...), 1, 2, 3), 0o644))
		tail = filepath.Join(dir, MetaDir, "0"+TailExt)
		tailOf(t, tail, [2][]byte{bl[n-2], bl[n-1]}, [2]uint64{offA, offB}, written, 1<<30, host)
		if closed {
			f, err := os.OpenFile(tail, os.O_WRONLY, 0)
			require.NoError(t, err)
			f.WriteAt([]byte{1}, abi.TailOffClosed)
			f.Close()
		}
		return dir, stream, tail
	}
	check := func(t *testing.T, stream string, wantLen int) {
		t.Helper()
		got, err := os.ReadFile(stream)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(got, want[:wantLen]), "recovered stream: %d bytes, want the writer's first %d", len(got), wantLen)
	}
	// one returns the one result of RecoverTails.
	one := func(t *testing.T, res []TailResult, err error) TailResult {
		t.Helper()
		require.NoError(t, err, "RecoverTails")
		require.Len(t, res, 1, "RecoverTails: results")
		return res[0]
	}

	t.Run("both-buffers", func(t *testing.T) {
		dir, stream, tail := setup(t, int(offA), [2]bool{}, false)
		res, err := RecoverTails(dir, RecoverOptions{})
		r := one(t, res, err)
		require.Equal(t, lastTwo, r.Events, "RecoverTails: events recovered")
		require.False(t, r.Running, "RecoverTails: running")
		check(t, stream, len(want))
		_, err = os.Stat(tail)
		assert.ErrorIs(t, err, os.ErrNotExist, "the tail after recovery")
		back, err := native.ReadDir(src, nil)
		require.NoError(t, err, "the writer's trace")
		require.EqualValues(t, 2000, back.NumEvents(), "the writer's trace: events")
	})
	t.Run("written-by-the-process", func(t *testing.T) {
		// the process wrote block n-2 (its writer thread) and the current
		// block's committed part (a signal handler) itself
		dir, stream, _ := setup(t, len(want), [2]bool{true, false}, false)
		res, err := RecoverTails(dir, RecoverOptions{})
		r := one(t, res, err)
		require.Zero(t, r.Events, "RecoverTails: events recovered")
		check(t, stream, len(want))
	})
	t.Run("closed", func(t *testing.T) {
		dir, stream, tail := setup(t, int(offA), [2]bool{}, true)
		res, err := RecoverTails(dir, RecoverOptions{})
		r := one(t, res, err)
		require.Zero(t, r.Events, "RecoverTails: events recovered")
		got, err := os.ReadFile(stream)
		require.NoError(t, err)
		assert.Len(t, got, int(offA)+3, "the bytes of the stream after a closed tail")
		_, err = os.Stat(tail)
		assert.ErrorIs(t, err, os.ErrNotExist, "the closed tail after recovery")
	})
	t.Run("running", func(t *testing.T) {
		dir, stream, tail := setup(t, int(offA), [2]bool{}, false)
		tailOf(t, tail, [2][]byte{bl[n-2], bl[n-1]}, [2]uint64{offA, offB}, [2]bool{}, int64(os.Getpid()), host)
		f, err := os.Open(tail)
		require.NoError(t, err)
		defer f.Close()
		m, err := syscall.Mmap(int(f.Fd()), 0, abi.TailData, syscall.PROT_READ, syscall.MAP_SHARED)
		require.NoError(t, err)
		defer syscall.Munmap(m)
		res, err := RecoverTails(dir, RecoverOptions{})
		r := one(t, res, err)
		require.True(t, r.Running, "RecoverTails: running (left alone)")
		require.Equal(t, lastTwo, r.Pending, "RecoverTails: events pending")
		require.Zero(t, r.Events, "RecoverTails: events recovered")
		got, err := os.ReadFile(stream)
		require.NoError(t, err)
		assert.Len(t, got, int(offA)+3, "the bytes of the stream of a running process")
		// not selected: left alone too
		res, err = RecoverTails(dir, RecoverOptions{Only: func(r int) bool { return r == 1 }})
		r = one(t, res, err)
		require.Equal(t, lastTwo, r.Pending, "RecoverTails of rank 1 only: events pending")
	})
	t.Run("not-a-tail", func(t *testing.T) {
		dir, _, tail := setup(t, int(offA), [2]bool{}, false)
		require.NoError(t, os.WriteFile(tail, []byte("garbage"), 0o644))
		_, err := RecoverTails(dir, RecoverOptions{})
		assert.ErrorContains(t, err, tail, "a broken tail: the error names it")
	})
}

// TestUnfinishedSummary: the message after a run that did not finish says
// what each rank kept and why; with many ranks, the spread and the ranks
// without events.
func TestUnfinishedSummary(t *testing.T) {
	u := &Unfinished{Ranks: []RankOutcome{
		{Rank: 0, Events: 4010, Recovered: 188},
		{Rank: 1, Events: 4010, Ended: "signal 15"},
		{Rank: 2, Events: 1234567, Ended: "aborted"},
		{Rank: 3, Events: 12, Pending: 30, Running: true},
		{Rank: 4, NoMeta: true},
		{Rank: 5, Events: 7, Ended: "exited"},
	}}
	want := "1,242,606 events kept (188 of them written from the buffers of ranks that died): rank 0 4,010 (188 from its buffers), " +
		"rank 1 4,010 (signal 15, terminated), rank 2 1,234,567 (MPI_Abort), rank 3 12 (still running, +30 still in its buffers), " +
		"rank 4 0 (did not start tracing), rank 5 7 (exited without MPI_Finalize)"
	assert.Equal(t, want, u.Summary(), "Summary")
	assert.True(t, u.Pending(), "a running rank is pending")
	var many Unfinished
	for r := 0; r < 20; r++ {
		n := int64(100 + r)
		if r == 7 || r == 12 {
			n = 0
		}
		many.Ranks = append(many.Ranks, RankOutcome{Rank: r, Events: n})
	}
	assert.Equal(t, "1,971 events kept; per rank 0 to 119, median 109; no events from rank(s) 7,12", many.Summary(), "Summary of 20 ranks")
	assert.False(t, many.Pending(), "nothing is pending")
}
