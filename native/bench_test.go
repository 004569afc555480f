package native

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/require"
)

var benchEvents = flag.Int("native.events", 10_000_000, "events in the native format benchmarks' synthetic trace")

// Region indices of synthTrace.
const (
	synRegInit = iota
	synRegFinalize
	synRegCompute
	synRegSend
	synRegRecv
	synRegIsend
	synRegIrecv
	synRegWaitall
	synRegAllreduce
	synRegBcast
)

// synthTrace builds a realistic MPI trace of about n events on locs
// locations (ranks), nanosecond ticks: compute phases, a halo exchange
// with Irecv/Isend/Waitall with both neighbours, a blocking send/recv every
// fourth step, an allreduce every eighth and a bcast every 32nd. About
// 62 % of the events are enters and leaves.
func synthTrace(n, locs int) *trace.Trace {
	tr := &trace.Trace{Resolution: 1e9, Properties: map[string]string{"creator": "synthTrace"}}
	for i := range (locs + 3) / 4 {
		tr.Nodes = append(tr.Nodes, trace.Node{Name: fmt.Sprintf("node%d", i)})
	}
	for _, r := range []string{"MPI_Init", "MPI_Finalize", "compute", "MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Waitall", "MPI_Allreduce", "MPI_Bcast"} {
		tr.Regions = append(tr.Regions, trace.Region{Name: r})
	}
	world := trace.Comm{Name: "MPI_COMM_WORLD"}
	for i := range locs {
		world.Members = append(world.Members, int32(i))
		tr.Locations = append(tr.Locations, &trace.Location{ID: uint64(i), Name: fmt.Sprintf("rank %d", i), Node: int32(i / 4)})
	}
	tr.Comms = []trace.Comm{world}
	per := n / locs
	for li, l := range tr.Locations {
		rng := rand.New(rand.NewPCG(uint64(li), 99))
		e := &l.Events
		e.Grow(per)
		t := int64(1_700_000_000_000_000_000) + rng.Int64N(1_000_000)
		gap := func(lo, hi int64) int64 { t += lo + rng.Int64N(hi-lo); return t }
		call := func(reg uint32) { e.AppendRegion(trace.KindEnter, gap(50, 300), reg) }
		ret := func(reg uint32) { e.AppendRegion(trace.KindLeave, gap(50, 300), reg) }
		left, right := uint32((li+locs-1)%locs), uint32((li+1)%locs)
		call(synRegInit)
		ret(synRegInit)
		var req uint64
		for step := 0; e.Len() < per-20; step++ {
			call(synRegCompute)
			e.AppendRegion(trace.KindLeave, gap(5_000, 100_000), synRegCompute)
			for range 2 {
				req++
				call(synRegIrecv)
				e.AppendReq(trace.KindIrecvRequest, gap(20, 100), req)
				ret(synRegIrecv)
			}
			for _, peer := range []uint32{left, right} {
				req++
				call(synRegIsend)
				e.AppendMsg(trace.KindIsend, gap(20, 100), trace.Message{Peer: peer, Comm: 0, Tag: 17, Bytes: 65536, Request: req})
				ret(synRegIsend)
			}
			call(synRegWaitall)
			e.AppendMsg(trace.KindIrecv, gap(500, 5_000), trace.Message{Peer: left, Comm: 0, Tag: 17, Bytes: 65536, Request: req - 3})
			e.AppendMsg(trace.KindIrecv, gap(20, 200), trace.Message{Peer: right, Comm: 0, Tag: 17, Bytes: 65536, Request: req - 2})
			e.AppendReq(trace.KindIsendComplete, gap(20, 200), req-1)
			e.AppendReq(trace.KindIsendComplete, gap(20, 200), req)
			ret(synRegWaitall)
			if step%4 == 0 {
				if li%2 == 0 {
					call(synRegSend)
					e.AppendMsg(trace.KindSend, gap(100, 1_000), trace.Message{Peer: right, Comm: 0, Tag: 3, Bytes: 8})
					ret(synRegSend)
				} else {
					call(synRegRecv)
					e.AppendMsg(trace.KindRecv, gap(100, 10_000), trace.Message{Peer: left, Comm: 0, Tag: 3, Bytes: 8})
					ret(synRegRecv)
				}
			}
			if step%8 == 0 {
				call(synRegAllreduce)
				e.AppendCollBegin(gap(20, 100))
				e.AppendColl(trace.KindCollEnd, gap(1_000, 20_000), trace.Collective{Op: trace.OpAllreduce, Comm: 0, Root: trace.NoRoot, Sent: 8, Received: 8})
				ret(synRegAllreduce)
			}
			if step%32 == 0 {
				call(synRegBcast)
				e.AppendCollBegin(gap(20, 100))
				e.AppendColl(trace.KindCollEnd, gap(1_000, 20_000), trace.Collective{Op: trace.OpBcast, Comm: 0, Root: 0, Sent: 4096 * uint64(btoi(li == 0)) * uint64(locs-1), Received: 4096 * uint64(btoi(li != 0))})
				ret(synRegBcast)
			}
		}
		call(synRegFinalize)
		ret(synRegFinalize)
	}
	return tr
}

// cpuTime returns the CPU time (user + system) the process has used, so
// benchmarks can report throughput per core-second, which other load on
// the machine disturbs less than wall-clock time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func dirSize(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			n += fi.Size()
		}
		return nil
	})
	require.NoError(b, err)
	return n
}

var benchConfigs = []struct {
	name string
	opt  WriteOptions
}{
	{"default", *DefaultWriteOptions()},
	{"none-256K", WriteOptions{Codec: CodecNone}},
	{"zstd1-64K", WriteOptions{Codec: CodecZstd, Level: 1, BlockSize: 64 << 10}},
	{"zstd1-1M", WriteOptions{Codec: CodecZstd, Level: 1, BlockSize: 1 << 20}},
	{"zstd2-256K", WriteOptions{Codec: CodecZstd, Level: 2}},
}

// BenchmarkNativeWrite writes a synthetic ~1e7-event, 16-location trace
// (go test -bench NativeWrite -benchtime 3x ./trace/).
func BenchmarkNativeWrite(b *testing.B) {
	tr := synthTrace(*benchEvents, 16)
	nev := float64(tr.NumEvents())
	for _, c := range benchConfigs {
		b.Run(c.name, func(b *testing.B) {
			var disk int64
			var elapsed, cpu time.Duration
			for i := 0; i < b.N; i++ {
				dir := filepath.Join(b.TempDir(), "tr")
				start, cpu0 := time.Now(), cpuTime()
				require.NoError(b, WriteDir(context.Background(), dir, tr, &c.opt))
				elapsed += time.Since(start)
				cpu += cpuTime() - cpu0
				disk = dirSize(b, dir)
			}
			b.SetBytes(disk)
			b.ReportMetric(nev*float64(b.N)/elapsed.Seconds(), "events/s")
			b.ReportMetric(nev*float64(b.N)/cpu.Seconds(), "events/cpu-s")
			b.ReportMetric(float64(disk)/nev, "disk-B/event")
		})
	}
}

// BenchmarkNativeRead reads the trace BenchmarkNativeWrite writes and
// reports the memory the events take (go test -bench NativeRead
// -benchtime 3x ./trace/).
func BenchmarkNativeRead(b *testing.B) {
	tr := synthTrace(*benchEvents, 16)
	nev := float64(tr.NumEvents())
	for _, c := range benchConfigs {
		b.Run(c.name, func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "tr")
			require.NoError(b, WriteDir(context.Background(), dir, tr, &c.opt))
			disk := dirSize(b, dir)
			b.ResetTimer()
			var cols int64
			var heap float64
			var elapsed, cpu time.Duration
			for i := 0; i < b.N; i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				start, cpu0 := time.Now(), cpuTime()
				got, err := ReadDir(dir, nil)
				require.NoError(b, err)
				elapsed += time.Since(start)
				cpu += cpuTime() - cpu0
				runtime.GC()
				runtime.ReadMemStats(&after)
				heap = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / nev
				cols = 0
				for _, l := range got.Locations {
					cols += l.Events.Bytes()
				}
				runtime.KeepAlive(got)
			}
			b.SetBytes(disk)
			b.ReportMetric(nev*float64(b.N)/elapsed.Seconds(), "events/s")
			b.ReportMetric(nev*float64(b.N)/cpu.Seconds(), "events/cpu-s")
			b.ReportMetric(float64(cols)/nev, "mem-B/event")
			b.ReportMetric(heap, "heap-B/event")
		})
	}
}

// BenchmarkNativeDirWriterManyLocations streams a trace of 65,536
// locations through a DirWriter in ten rounds of small appends per
// location, as a time-stepped simulator would (go test -bench
// ManyLocations -benchtime 1x ./trace/).
func BenchmarkNativeDirWriterManyLocations(b *testing.B) {
	const locs = 65536
	rounds, per := 10, *benchEvents/locs/10
	if per < 1 {
		per = 1
	}
	defs := synthTrace(locs, locs) // definitions; events replaced below
	var chunk trace.Events
	for i := range per {
		chunk.AppendRegion(trace.KindEnter+trace.Kind(i%2), int64(i)*1000, synRegCompute)
	}
	for i := 0; i < b.N; i++ {
		dir := filepath.Join(b.TempDir(), "tr")
		start := time.Now()
		w, err := CreateDir(dir, defs, nil)
		require.NoError(b, err)
		for r := range rounds {
			for loc := range locs {
				for j := range chunk.Time {
					chunk.Time[j] = int64(r*per+j) * 1000
				}
				require.NoError(b, w.Append(loc, &chunk))
			}
		}
		require.NoError(b, w.Close())
		el := time.Since(start)
		b.ReportMetric(float64(locs*rounds*per)/el.Seconds(), "events/s")
		b.ReportMetric(float64(dirSize(b, dir))/float64(locs*rounds*per), "disk-B/event")
	}
}

var benchLocs = flag.String("native.locs", "16,1024,65536", "location counts of BenchmarkNativeLocations, comma-separated")

// countFiles returns the number of regular files under dir.
func countFiles(b *testing.B, dir string) int {
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			n++
		}
		return nil
	})
	require.NoError(b, err)
	return n
}

// BenchmarkNativeLocations writes and reads the synthetic trace of
// -native.events events spread over 16, 1,024 and 65,536 locations
// (-native.locs): WriteDir, ReadDir, and a DirWriter fed as clc-sim feeds
// it (ten rounds, each appending a tenth of every location's events, from
// GOMAXPROCS goroutines taking batches of consecutive locations). It
// reports wall and CPU seconds per operation and the number of files
// (go test ./trace -run XXX -bench NativeLocations -benchtime 1x).
func BenchmarkNativeLocations(b *testing.B) {
	for _, f := range strings.Split(*benchLocs, ",") {
		locs, err := strconv.Atoi(strings.TrimSpace(f))
		require.NoError(b, err)
		tr := synthTrace(*benchEvents, locs)
		nev := float64(tr.NumEvents())
		report := func(b *testing.B, elapsed, cpu time.Duration, files int) {
			b.ReportMetric(elapsed.Seconds()/float64(b.N), "wall-s/op")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(nev*float64(b.N)/elapsed.Seconds(), "events/s")
			b.ReportMetric(float64(files), "files")
		}
		written := filepath.Join(b.TempDir(), "tr")
		b.Run(fmt.Sprintf("locs=%d/WriteDir", locs), func(b *testing.B) {
			var elapsed, cpu time.Duration
			files := 0
			for i := 0; i < b.N; i++ {
				dir := filepath.Join(b.TempDir(), "tr")
				start, cpu0 := time.Now(), cpuTime()
				require.NoError(b, WriteDir(context.Background(), dir, tr, nil))
				elapsed += time.Since(start)
				cpu += cpuTime() - cpu0
				files = countFiles(b, dir)
				if i == 0 {
					os.RemoveAll(written)
					require.NoError(b, os.Rename(dir, written))
				}
			}
			report(b, elapsed, cpu, files)
		})
		b.Run(fmt.Sprintf("locs=%d/ReadDir", locs), func(b *testing.B) {
			if _, err := os.Stat(written); err != nil {
				require.NoError(b, WriteDir(context.Background(), written, tr, nil))
			}
			var elapsed, cpu time.Duration
			for i := 0; i < b.N; i++ {
				start, cpu0 := time.Now(), cpuTime()
				got, err := ReadDir(written, nil)
				require.NoError(b, err)
				elapsed += time.Since(start)
				cpu += cpuTime() - cpu0
				require.Equal(b, tr.NumEvents(), got.NumEvents(), "events read against those written")
			}
			report(b, elapsed, cpu, countFiles(b, written))
		})
		b.Run(fmt.Sprintf("locs=%d/DirWriter", locs), func(b *testing.B) {
			const rounds = 10
			par := runtime.GOMAXPROCS(0)
			batch := min(max(locs/(16*par), 1), 64)
			var elapsed, cpu time.Duration
			files := 0
			for i := 0; i < b.N; i++ {
				dir := filepath.Join(b.TempDir(), "tr")
				start, cpu0 := time.Now(), cpuTime()
				w, err := CreateDir(dir, defsOnly(tr), nil)
				require.NoError(b, err)
				for r := range rounds {
					var next atomic.Int64
					var g errgroup.Group
					for range par {
						g.Go(func() error {
							var piece trace.Events
							for {
								lo := int(next.Add(int64(batch))) - batch
								if lo >= locs {
									return nil
								}
								for loc := lo; loc < min(lo+batch, locs); loc++ {
									src := &tr.Locations[loc].Events
									n := src.Len()
									piece.Reset()
									att := 0
									for j := r * n / rounds; j < (r+1)*n/rounds; j++ {
										piece.Append(src, j, &att)
									}
									if err := w.Append(loc, &piece); err != nil {
										return err
									}
								}
							}
						})
					}
					require.NoError(b, g.Wait())
				}
				require.NoError(b, w.Close())
				elapsed += time.Since(start)
				cpu += cpuTime() - cpu0
				files = countFiles(b, dir)
			}
			report(b, elapsed, cpu, files)
		})
	}
}

var benchBundleLocs = flag.String("native.bundlelocs", "16,64,256,1024", "location counts of BenchmarkNativeBundleThreshold, comma-separated")

// BenchmarkNativeBundleThreshold writes and reads the synthetic trace with
// one file per location and with bundles (WriteOptions.Bundles -1 and 0
// above the threshold, 8 below it), for the location counts of
// -native.bundlelocs, to choose BundleThreshold (go test ./trace -run XXX
// -bench NativeBundleThreshold -benchtime 3x -native.events 1000000).
func BenchmarkNativeBundleThreshold(b *testing.B) {
	for _, f := range strings.Split(*benchBundleLocs, ",") {
		locs, err := strconv.Atoi(strings.TrimSpace(f))
		require.NoError(b, err)
		tr := synthTrace(*benchEvents, locs)
		nev := float64(tr.NumEvents())
		for _, layout := range []struct {
			name    string
			bundles int
		}{{"files", -1}, {"bundles", 8}} {
			opt := DefaultWriteOptions()
			opt.Bundles = layout.bundles
			written := filepath.Join(b.TempDir(), "tr")
			require.NoError(b, WriteDir(context.Background(), written, tr, opt))
			files := countFiles(b, written)
			for _, op := range []string{"write", "read"} {
				b.Run(fmt.Sprintf("locs=%d/%s/%s", locs, layout.name, op), func(b *testing.B) {
					var elapsed, cpu time.Duration
					for i := 0; i < b.N; i++ {
						dir := filepath.Join(b.TempDir(), "tr")
						start, cpu0 := time.Now(), cpuTime()
						if op == "write" {
							err = WriteDir(context.Background(), dir, tr, opt)
						} else {
							_, err = ReadDir(written, nil)
						}
						require.NoError(b, err)
						elapsed += time.Since(start)
						cpu += cpuTime() - cpu0
					}
					b.ReportMetric(elapsed.Seconds()/float64(b.N), "wall-s/op")
					b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
					b.ReportMetric(nev*float64(b.N)/elapsed.Seconds(), "events/s")
					b.ReportMetric(float64(files), "files")
				})
			}
		}
	}
}
