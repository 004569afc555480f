package htmlreport

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/clc-tools/clc/internal/pipetest"
	"github.com/stretchr/testify/require"
)

// BenchmarkPage builds and writes the page of corrected clc-sim traces of
// 200,000 events; it reports the page's size. scripts/report-bench.sh
// measures clc-correct --html end to end at 10^7 events.
func BenchmarkPage(b *testing.B) {
	for _, c := range []struct{ ranks, perNode int }{{16, 4}, {1024, 16}, {16384, 16}} {
		b.Run(fmt.Sprintf("ranks=%d", c.ranks), func(b *testing.B) {
			r := pipetest.Sim(b, pipetest.Drifting(c.ranks, c.perNode, 200_000, 7))
			in := input(r)
			var size int
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p, err := Build(context.Background(), in, nil)
				require.NoError(b, err)
				var buf bytes.Buffer
				require.NoError(b, p.WriteHTML(&buf))
				size = buf.Len()
			}
			b.ReportMetric(float64(size), "page-bytes")
		})
	}
}
