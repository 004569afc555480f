package otf

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/require"
)

// synthetic builds a 16-rank ring trace of about n events: blocking
// send/recv pairs wrapped in their MPI regions, compute regions, and an
// allreduce every 10 iterations.
func synthetic(n int) *trace.Trace {
	const ranks = 16
	t := &trace.Trace{Resolution: 1_000_000_000, Properties: map[string]string{}}
	for i := 0; i < ranks/4; i++ {
		t.Nodes = append(t.Nodes, trace.Node{Name: "node" + strconv.Itoa(i)})
	}
	t.Regions = []trace.Region{{Name: "MPI_Send"}, {Name: "MPI_Recv"}, {Name: "compute"}, {Name: "MPI_Allreduce"}}
	world := trace.Comm{Name: "MPI_COMM_WORLD"}
	for r := 0; r < ranks; r++ {
		world.Members = append(world.Members, int32(r))
	}
	t.Comms = []trace.Comm{world}
	perRank := n / ranks
	for r := 0; r < ranks; r++ {
		l := &trace.Location{ID: uint64(r), Name: "rank " + strconv.Itoa(r), Node: int32(r / 4)}
		l.Offsets = []trace.ClockOffset{{Time: 1000, Offset: int64(r * 7)}, {Time: int64(perRank) * 400, Offset: int64(r * 9)}}
		rng := rand.New(rand.NewPCG(uint64(r), 1))
		ev := &l.Events
		ev.Grow(perRank + 16)
		tm := int64(1_000_000 + r*13)
		step := func() int64 { tm += 50 + rng.Int64N(200); return tm }
		for it := 0; ev.Len()+10 <= perRank; it++ {
			ev.AppendRegion(trace.KindEnter, step(), 0)
			ev.AppendMsg(trace.KindSend, step(), trace.Message{Peer: uint32((r + 1) % ranks), Tag: uint32(it % 100), Bytes: 4096})
			ev.AppendRegion(trace.KindLeave, step(), 0)
			ev.AppendRegion(trace.KindEnter, step(), 1)
			ev.AppendMsg(trace.KindRecv, step(), trace.Message{Peer: uint32((r + ranks - 1) % ranks), Tag: uint32(it % 100), Bytes: 4096})
			ev.AppendRegion(trace.KindLeave, step(), 1)
			ev.AppendRegion(trace.KindEnter, step(), 2)
			ev.AppendRegion(trace.KindLeave, step(), 2)
			if it%10 == 0 {
				ev.AppendRegion(trace.KindEnter, step(), 3)
				ev.AppendCollBegin(tm)
				ev.AppendColl(trace.KindCollEnd, step(), trace.Collective{Op: trace.OpAllreduce, Root: trace.NoRoot, Sent: 8, Received: 8})
				ev.AppendRegion(trace.KindLeave, tm, 3)
			}
		}
		t.Locations = append(t.Locations, l)
	}
	return t
}

func benchEvents() int {
	if s := os.Getenv("CLC_BENCH_EVENTS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return 10_000_000
}

// benchArchive writes the synthetic trace as an archive and returns its
// directory, the number of events and the bytes on disk. With
// CLC_BENCH_DIR=DIR the archive is kept in DIR (and reused if there), so
// that other tools can be measured on the same file.
func benchArchive(b *testing.B) (string, int64, int64) {
	b.Helper()
	dir := os.Getenv("CLC_BENCH_DIR")
	if dir == "" || !IsArchive(dir) {
		if dir == "" {
			dir = filepath.Join(b.TempDir(), "bench")
		}
		t := synthetic(benchEvents())
		require.NoError(b, WriteTrace(context.Background(), dir, t, nil))
	}
	a, err := Open(dir)
	require.NoError(b, err)
	events := a.NumEvents()
	var size int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			size += fi.Size()
		}
		return nil
	})
	return dir, events, size
}

func report(b *testing.B, events, bytes int64) {
	s := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(events)/s/1e6, "Mevents/s")
	b.ReportMetric(float64(bytes)/s/1e6, "MB/s")
	b.ReportMetric(float64(bytes)/float64(events), "bytes/event")
}

// BenchmarkRead: Open + Read of a 16-location archive of ~1e7 events.
func BenchmarkRead(b *testing.B) {
	dir, events, size := benchArchive(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a, err := Open(dir)
		require.NoError(b, err)
		_, err = a.Read(context.Background(), nil)
		require.NoError(b, err)
	}
	report(b, events, size)
}

// BenchmarkReadRewrite: Open + Read + Rewrite (the times unchanged), what
// clc-correct does around the correction.
func BenchmarkReadRewrite(b *testing.B) {
	dir, events, size := benchArchive(b)
	out := b.TempDir()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a, err := Open(dir)
		require.NoError(b, err)
		tr, err := a.Read(context.Background(), nil)
		require.NoError(b, err)
		require.NoError(b, a.Rewrite(filepath.Join(out, strconv.Itoa(i)), tr, nil))
	}
	b.StopTimer()
	report(b, events, size)
}

// BenchmarkWriteTrace: path (b), a model written as a new archive.
func BenchmarkWriteTrace(b *testing.B) {
	t := synthetic(benchEvents())
	out := b.TempDir()
	var size int64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir := filepath.Join(out, strconv.Itoa(i))
		require.NoError(b, WriteTrace(context.Background(), dir, t, nil))
		if i == 0 {
			filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() {
					size += fi.Size()
				}
				return nil
			})
		}
	}
	b.StopTimer()
	report(b, t.NumEvents(), size)
}

// BenchmarkReadPresyncRewrite: the OTF2 part of clc-correct's pipeline
// (read, apply the clock offsets, rewrite), without the CLC itself.
func BenchmarkReadPresyncRewrite(b *testing.B) {
	dir, events, size := benchArchive(b)
	out := b.TempDir()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a, err := Open(dir)
		require.NoError(b, err)
		tr, err := a.Read(context.Background(), nil)
		require.NoError(b, err)
		_, err = presync.Apply(tr, nil)
		require.NoError(b, err)
		require.NoError(b, a.Rewrite(filepath.Join(out, strconv.Itoa(i)), tr, nil))
	}
	b.StopTimer()
	report(b, events, size)
}

// BenchmarkDecode: the event decoder alone on one location's event file in
// memory (no file system, no page faults: the columns are reused).
func BenchmarkDecode(b *testing.B) {
	t := synthetic(16 * 1_000_000)
	var buf bytes.Buffer
	w := &Writer{opt: WriteOptions{EventChunkSize: 1 << 20}}
	lw := &locWriter{cw: newChunkWriter("bench.evt", &buf, 1<<20, false, true, nil)}
	_, err := w.appendEvents(0, lw, &t.Locations[0].Events)
	require.NoError(b, err)
	require.NoError(b, lw.cw.close())
	data := buf.Bytes()
	idx := fuzzIndex()
	var ev trace.Events
	ev.Grow(t.Locations[0].Events.Len())
	chunk := make([]byte, 1<<20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev.Reset()
		x := eventDecoder{s: newScanner(newChunkReader("bench.evt", bytes.NewReader(data), 1<<20, chunk), true), ev: &ev, regions: idx, comms: idx}
		require.NoError(b, x.run())
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ev.Len()), "ns/event")
}

// BenchmarkWriteTraceCarried: the synthetic archive read back and written
// with the definitions it carries (the source's ids, through the carried
// mapping), beside BenchmarkWriteTrace's path (b) from the model.
func BenchmarkWriteTraceCarried(b *testing.B) {
	dir, events, size := benchArchive(b)
	a, err := Open(dir)
	require.NoError(b, err)
	t, err := a.Read(context.Background(), nil)
	require.NoError(b, err)
	out := b.TempDir()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		require.NoError(b, WriteTrace(context.Background(), filepath.Join(out, strconv.Itoa(i)), t, nil))
	}
	b.StopTimer()
	report(b, events, size)
}
