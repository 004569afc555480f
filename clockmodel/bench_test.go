package clockmodel

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// benchInput simulates a trace (the same as clc's BenchmarkCorrect: 2 ms
// compute phases, 10 µs wander, seed 7), captures it, pre-synchronises and
// matches it.
func benchInput(b *testing.B, ranks, perNode int, events int64) (*Input, *trace.Trace, *replay.Graph, []int32) {
	b.Helper()
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Events, c.Seed = ranks, perNode, events, 7
	c.Compute, c.ClockWander = 2*time.Millisecond, 10*time.Microsecond
	rec, _, err := sim.Generate(c)
	if err != nil {
		b.Fatal(err)
	}
	in := Capture(rec)
	if _, err := presync.Apply(rec, nil); err != nil {
		b.Fatal(err)
	}
	g, err := replay.Match(rec, nil)
	if err != nil {
		b.Fatal(err)
	}
	node := make([]int32, len(rec.Locations))
	for i, l := range rec.Locations {
		node[i] = l.Node
	}
	return in, rec, g, node
}

// cpuSeconds is the process's user and system CPU time: on a machine shared
// with other jobs, a steadier measure than the wall clock.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// BenchmarkModel measures the clock model (clockmodel.Run: μ, estimation,
// guard, applying the corrections) beside the CLC's correction (clc.Correct)
// on the same trace, about 10^7 events at 16, 1,024 and 65,536 ranks:
// events per second, CPU seconds per run (user + system, the whole
// process: the GC's share included) and bytes allocated per event.
//
//	go test ./clockmodel -run XXX -bench Model -benchtime 3x
func BenchmarkModel(b *testing.B) {
	for _, r := range []struct{ ranks, perNode int }{{16, 4}, {1024, 16}, {65536, 16}} {
		if testing.Short() && r.ranks > 16 {
			continue
		}
		in, tr, g, node := benchInput(b, r.ranks, r.perNode, 10_000_000)
		n := tr.NumEvents()
		ts := make([][]int64, len(tr.Locations))
		for i, l := range tr.Locations {
			ts[i] = l.Events.Time
		}
		p := clc.DefaultParams()
		k := p.InTicks(tr.Resolution)
		measure := func(b *testing.B, f func()) {
			var ms0, ms1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms0)
			cpu0 := cpuSeconds()
			b.ResetTimer()
			for range b.N {
				f()
			}
			b.StopTimer()
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
			runtime.ReadMemStats(&ms1)
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(n)/float64(b.N), "alloc-B/event")
		}
		b.Run(fmt.Sprintf("model/ranks=%d", r.ranks), func(b *testing.B) {
			measure(b, func() {
				if _, err := Run(context.Background(), in, ts, g, node, Options{Latency: k.Lat, Parallel: runtime.GOMAXPROCS(0)}); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(fmt.Sprintf("clc/ranks=%d", r.ranks), func(b *testing.B) {
			measure(b, func() {
				if _, err := clc.Correct(tr, g, p, nil); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
