package msgsync

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Three nodes exchange messages both ways with a true latency of 1000 to
// 1100 ticks; node 2's clock is 5000 ticks ahead, node 1's is right. The
// refinement must pull node 2 back by about 5000 and leave nodes 0 and 1.
func TestRefineFindsTheNodeAhead(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := &trace.Trace{Resolution: 1e9, Nodes: make([]trace.Node, 3)}
	w := trace.Comm{Name: "world"}
	for i := 0; i < 3; i++ {
		tr.Locations = append(tr.Locations, &trace.Location{Node: int32(i)})
		w.Members = append(w.Members, int32(i))
	}
	tr.Comms = []trace.Comm{w}
	off := []int64{0, 0, 5000}
	now := make([]int64, 3)
	for step := 0; step < 2000; step++ {
		s := rng.IntN(3)
		d := (s + 1 + rng.IntN(2)) % 3
		ts := max(now[s], now[d]-1500) + 100
		tr := tr.Locations
		tr[s].Events.AppendMsg(trace.KindSend, ts+off[s], trace.Message{Peer: uint32(d)})
		tr[d].Events.AppendMsg(trace.KindRecv, max(now[d], ts+1000+rng.Int64N(100))+off[d], trace.Message{Peer: uint32(s)})
		now[s] = ts
		now[d] = tr[d].Events.Time[tr[d].Events.Len()-1] - off[d]
	}
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	before := [][]int64{}
	for _, l := range tr.Locations {
		before = append(before, append([]int64(nil), l.Events.Time...))
	}
	st, err := Refine(tr, g, replay.Latency{Intra: 500, Inter: 1000}, Options{Windows: 4})
	require.NoError(t, err)
	assert.Equal(t, 2, st.Nodes)
	for li, l := range tr.Locations {
		for j, v := range l.Events.Time {
			shift := v - before[li][j]
			switch li {
			case 0:
				require.Zero(t, shift, "the reference node does not move")
			case 1:
				require.InDelta(t, 0, shift, 60, "node 1 was right")
			case 2:
				require.InDelta(t, -5000, shift, 60, "node 2 was 5000 ahead")
			}
			if j > 0 {
				require.GreaterOrEqual(t, v, l.Events.Time[j-1])
			}
		}
	}
}

func TestSolveLeastSquares(t *testing.T) {
	// Triangle with inconsistent edges: 0→1 = 10, 1→2 = 10, 0→2 = 26:
	// least squares with x0 = 0 gives x1 = 12, x2 = 24.
	x := solve(4, 0, []wedge{{0, 1, 10, 1}, {1, 2, 10, 1}, {0, 2, 26, 1}}, 0)
	assert.InDelta(t, 12, x[1], 0.5)
	assert.InDelta(t, 24, x[2], 0.5)
	assert.True(t, x[3] != x[3], "an unconnected node is unknown (NaN)")
}

func TestFill(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }
	xs := []float64{nan(), 2, nan(), nan(), 8, nan()}
	fill(xs)
	assert.Equal(t, []float64{2, 2, 4, 6, 8, 8}, xs)
}
