package repair

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/clockmodel"
)

func TestSetLatenciesKeepsTicks(t *testing.T) {
	const res = 2_445_399_717
	for _, tk := range []int64{1, 300, 838, 2445, 123_457} {
		var l clockmodel.Latencies
		l.Intra.Ticks, l.Inter.Ticks = tk, tk+1
		p := clc.DefaultParams()
		SetLatencies(&p, &l, res)
		k := p.InTicks(res)
		require.Equal(t, tk, k.Lat.Intra, "intra %d ticks", tk)
		require.Equal(t, tk+1, k.Lat.Inter, "inter %d ticks", tk+1)
		require.InDelta(t, float64(tk)*1e9/res, float64(p.LatencyIntra), 0.5, "the duration describes it")
	}
}
