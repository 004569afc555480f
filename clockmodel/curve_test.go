package clockmodel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/replay"
)

// naiveAt is the oracle of Curve.At: a linear scan for the segment.
func naiveAt(c *Curve, t int64) float64 {
	n := len(c.T)
	if n == 0 {
		return 0
	}
	if t <= c.T[0] {
		return c.X[0]
	}
	for i := 1; i < n; i++ {
		if t <= c.T[i] {
			u := float64(t-c.T[i-1]) / float64(c.T[i]-c.T[i-1])
			return c.X[i-1] + u*(c.X[i]-c.X[i-1])
		}
	}
	return c.X[n-1]
}

func TestCurveEvaluation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		n := rng.IntN(8)
		c := Curve{}
		for i := range n {
			c.T = append(c.T, int64(i*100+rng.IntN(90)))
			c.X = append(c.X, rng.NormFloat64()*1000)
		}
		u := cursor{c: &c}
		ts := make([]int64, 50)
		for i := range ts {
			ts[i] = rng.Int64N(int64(n*100+200)) - 100
		}
		if rng.IntN(2) == 0 {
			slices.Sort(ts)
		}
		for _, x := range ts {
			want := naiveAt(&c, x)
			got := c.At(x)
			assert.InDelta(t, want, got, 1e-9)
			// The cursor agrees with At to the bit: the corrections
			// applied and those recomputed (Original, reapply) match.
			assert.Equal(t, got, u.at(x))
		}
	}
}

// The per-domain violation sums add up to twice the violations (each
// counted for both ends' domains): point-to-point messages exactly,
// collective receives by their latest other sender — checked against a
// pair-by-pair count.
func TestDomainViolationsAddUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for it := range 100 {
		tr, _ := tracetest.Random(rng, tracetest.Config{Locations: 2 + rng.IntN(9), Nodes: 1 + rng.IntN(3), Ops: 40, Latency: 50, Offset: 300, Drift: 1e-4, Init: true})
		g, err := replay.Match(tr, nil)
		require.NoError(t, err)
		times := tracetest.Times(tr)
		node := make([]int32, len(tr.Locations))
		locs := make([]Location, len(tr.Locations))
		for i, l := range tr.Locations {
			node[i] = l.Node
			locs[i] = Location{Node: l.Node, Process: int32(rng.IntN(3))}
		}
		dom := DetectDomains(locs, "process", 1)
		lat := replay.Latency{Intra: 20, Inter: 60}
		var want int64
		for li, deps := range g.Deps {
			for _, d := range deps {
				if d.Role == replay.RoleRecv {
					want += max(0, times[d.Peer][d.Ref]+lat.Between(node[d.Peer], node[li])-times[li][d.Idx])
				}
			}
		}
		for ii := range g.Instances {
			in := &g.Instances[ii]
			if in.Kind != 0 || in.Class == 0 || in.N < 2 {
				continue
			}
			ps := g.InstanceParts(uint32(ii))
			for j, r := range ps {
				if r.Recv == replay.NoEvent {
					continue
				}
				worst := int64(math.MinInt64)
				for i, s := range ps {
					if i == j || s.Send == replay.NoEvent || (in.Class == replay.ClassScan && i > j) {
						continue
					}
					worst = max(worst, times[s.Loc][s.Send]+lat.Between(node[s.Loc], node[r.Loc]))
				}
				if worst != math.MinInt64 {
					want += max(0, worst-times[r.Loc][r.Recv])
				}
			}
		}
		var got int64
		sums, cc, _ := domainViolations(times, g, node, &dom, lat, 2)
		for _, v := range sums {
			got += v
		}
		assert.Equal(t, 2*want, got, "trace %d", it)
		assert.Equal(t, measure.ClockCondition(times, g, node, lat, 2), cc, "trace %d", it)
	}
}
