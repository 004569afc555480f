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
		sums, cc, _ := domainViolations(measure.ClockCondition{Graph: g, Node: node, Latency: lat, Parallel: 2}, &dom, times)
		for _, v := range sums {
			got += v
		}
		assert.Equal(t, 2*want, got, "trace %d", it)
		assert.Equal(t, measure.ClockCondition{Graph: g, Node: node, Latency: lat, Parallel: 2}.Violations(times), cc, "trace %d", it)
	}
}

// proven keeps 0 wherever a knot's interval of ±z·s holds it, never moves
// a knot farther than the estimate nor across 0, keeps nearly all of a
// correction far beyond its uncertainty, leaves the estimate itself (and
// curves without standard deviations) untouched, and is continuous in the
// correction (no jump at the threshold).
func TestProvenGarrote(t *testing.T) {
	const z = 1.96
	rng := rand.New(rand.NewPCG(3, 4))
	c := Curve{T: make([]int64, 200), X: make([]float64, 200), S: make([]float64, 200)}
	for k := range c.T {
		c.T[k] = int64(k) * 1000
		c.S[k] = 10 + 90*rng.Float64()
		c.X[k] = c.S[k] * 8 * (rng.Float64() - 0.5) // within ±4 s
	}
	bare := Curve{T: []int64{0, 10}, X: []float64{5, -5}}
	m := &Model{Curves: []Curve{{}, c, bare}}
	orig := slices.Clone(c.X)
	p, held, all := m.proven(z)
	require.Equal(t, orig, m.Curves[1].X, "the estimate is not changed")
	assert.Equal(t, bare.X, p.Curves[2].X, "a curve without standard deviations is kept")
	assert.Empty(t, p.Curves[0].T)
	assert.Equal(t, len(c.X), all)
	n := 0
	for k, x := range c.X {
		y := p.Curves[1].X[k]
		if math.Abs(x) <= z*c.S[k] {
			n++
			assert.Zero(t, y, "knot %d: %.1f within ±%.1f", k, x, z*c.S[k])
			continue
		}
		assert.True(t, y*x > 0 && math.Abs(y) < math.Abs(x), "knot %d: %.3f from %.3f", k, y, x)
	}
	assert.Equal(t, n, held)
	assert.Positive(t, held)
	assert.Less(t, held, all)

	// Far beyond: 10 standard deviations keep 96 % of the correction.
	far := &Model{Curves: []Curve{{T: []int64{0}, X: []float64{10}, S: []float64{1}}}}
	f, _, _ := far.proven(z)
	assert.InDelta(t, 10-z*z/10, f.Curves[0].X[0], 1e-12)
	// Continuity at the threshold: just beyond it the correction is ~0.
	edge := &Model{Curves: []Curve{{T: []int64{0}, X: []float64{z * (1 + 1e-9)}, S: []float64{1}}}}
	e, _, _ := edge.proven(z)
	assert.InDelta(t, 0, e.Curves[0].X[0], 1e-8)
}
