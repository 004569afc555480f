package measure

import (
	"fmt"
	"testing"
	"time"

	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
)

// benchInput is a pre-synchronised clc-sim trace whose clocks wander
// enough to violate the clock condition, as ClockCondition's arguments.
type benchInput struct {
	times [][]int64
	g     *replay.Graph
	node  []int32
	lat   replay.Latency
}

func newBenchInput(b *testing.B, ranks, perNode int, events int64, patterns []string) *benchInput {
	b.Helper()
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Events, c.Seed = ranks, perNode, events, 7
	c.ClockWander, c.WanderPeriod, c.Compute = 10*time.Microsecond, 20*time.Millisecond, 200*time.Microsecond
	if patterns != nil {
		c.Patterns = patterns
	}
	tr, _, err := sim.Generate(c)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := presync.Apply(tr, nil); err != nil {
		b.Fatal(err)
	}
	g, err := replay.Match(tr, nil)
	if err != nil {
		b.Fatal(err)
	}
	in := &benchInput{g: g, lat: replay.Latency{Intra: 300, Inter: 1000, Shared: 0}}
	for _, l := range tr.Locations {
		in.times = append(in.times, l.Events.Time)
		in.node = append(in.node, l.Node)
	}
	return in
}

// BenchmarkClockCondition counts the clock condition of traces of about
// 10^6 events on one worker (the figure to compare between versions on a
// shared machine): the default patterns at 16 and 1,024 ranks, and scans
// larger than 4,096 members (the Fenwick trees) at 8,192 ranks.
//
//	go test ./measure -run XXX -bench ClockCondition -count 5
func BenchmarkClockCondition(b *testing.B) {
	for _, c := range []struct {
		ranks, perNode int
		patterns       []string
	}{
		{16, 4, nil},
		{1024, 16, nil},
		{8192, 8, []string{"halo", "scan", "exscan", "allreduce"}},
	} {
		b.Run(fmt.Sprintf("ranks=%d", c.ranks), func(b *testing.B) {
			in := newBenchInput(b, c.ranks, c.perNode, 1_000_000, c.patterns)
			var v Violations
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				v = ClockCondition{Graph: in.g, Node: in.node, Latency: in.lat, Parallel: 1}.Violations(in.times)
			}
			b.ReportMetric(float64(v.Total().Violations), "violations")
		})
	}
}
