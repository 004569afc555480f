package clc

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/require"
)

// benchTrace simulates a pre-synchronised trace.
func benchTrace(b *testing.B, ranks, perNode int, events int64, wander time.Duration) *trace.Trace {
	return benchTraceThreads(b, ranks, perNode, 1, events, wander)
}

// benchTraceThreads simulates a pre-synchronised hybrid trace.
func benchTraceThreads(b *testing.B, ranks, perNode, threads int, events int64, wander time.Duration) *trace.Trace {
	b.Helper()
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Threads, c.Events, c.Seed = ranks, perNode, threads, events, 7
	c.Compute, c.ClockWander = 2*time.Millisecond, wander
	if wander == 0 {
		c.PerfectClocks()
	}
	rec, _, err := sim.Generate(c)
	require.NoError(b, err)
	_, err = presync.Apply(rec, nil)
	require.NoError(b, err)
	return rec
}

// runCorrect measures matching plus correction: events per second and the
// bytes they allocate per event.
func runCorrect(b *testing.B, tr *trace.Trace) {
	n := tr.NumEvents()
	p := DefaultParams()
	b.ResetTimer()
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	var jumps int64
	for i := 0; i < b.N; i++ {
		g, err := replay.Match(tr, nil)
		require.NoError(b, err)
		res, err := Correct(tr, g, p, nil)
		require.NoError(b, err)
		jumps = res.Jumps()
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(n)/float64(b.N), "alloc-B/event")
	b.ReportMetric(float64(jumps)/float64(n), "jumps/event")
}

// BenchmarkCorrect: about 10^7 events at 16, 1,024 and 65,536 ranks.
//
//	go test ./clc -run XXX -bench Correct/ -benchtime 3x
func BenchmarkCorrect(b *testing.B) {
	for _, r := range []struct{ ranks, perNode int }{{16, 4}, {1024, 16}, {65536, 16}} {
		b.Run(fmt.Sprintf("ranks=%d", r.ranks), func(b *testing.B) {
			if testing.Short() && r.ranks > 16 {
				b.Skip("-short")
			}
			runCorrect(b, benchTrace(b, r.ranks, r.perNode, 10_000_000, 10*time.Microsecond))
		})
	}
}

// BenchmarkViolationDensity: 16 ranks, 10^6 events, clock wander from none
// to 50 µs.
//
//	go test ./clc -run XXX -bench ViolationDensity -benchtime 5x
func BenchmarkViolationDensity(b *testing.B) {
	for _, w := range []time.Duration{0, 2 * time.Microsecond, 10 * time.Microsecond, 50 * time.Microsecond} {
		b.Run(fmt.Sprintf("wander=%v", w), func(b *testing.B) {
			runCorrect(b, benchTrace(b, 16, 4, 1_000_000, w))
		})
	}
}

// BenchmarkCorrectHybrid: about 10^7 events of 16 ranks with 1 (MPI
// only), 4, 16 and 64 threads each: matching and correction per event,
// where a barrier of a 64-thread team is one aggregated instance.
//
//	go test ./clc -run XXX -bench CorrectHybrid -benchtime 3x
func BenchmarkCorrectHybrid(b *testing.B) {
	for _, threads := range []int{1, 4, 16, 64} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			events := int64(10_000_000)
			if testing.Short() {
				events = 1_000_000
			}
			runCorrect(b, benchTraceThreads(b, 16, 4, threads, events, 10*time.Microsecond))
		})
	}
}
