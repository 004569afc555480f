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
	"github.com/clc-tools/clc/trace"
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
		sums, cc, _, _ := domainViolations(measure.ClockCondition{Graph: g, Node: node, Latency: lat, Parallel: 2}, &dom, times, false, nil)
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
	p, held, all := m.proven(z, nil)
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
	f, _, _ := far.proven(z, nil)
	assert.InDelta(t, 10-z*z/10, f.Curves[0].X[0], 1e-12)
	// Continuity at the threshold: just beyond it the correction is ~0.
	edge := &Model{Curves: []Curve{{T: []int64{0}, X: []float64{z * (1 + 1e-9)}, S: []float64{1}}}}
	e, _, _ := edge.proven(z, nil)
	assert.InDelta(t, 0, e.Curves[0].X[0], 1e-8)
}

// With the pre-synchronised clocks' violations, a knot keeps its
// correction only if a violation of its domain lies between its
// neighbouring knots, however far beyond its uncertainty the estimate is,
// and at most the largest of those violations.
func TestProvenNeedsAViolationNearby(t *testing.T) {
	const z = 1.96
	c := Curve{T: []int64{0, 1000, 2000, 3000, 4000}, X: []float64{50, 50, 50, -50, 50}, S: []float64{1, 1, 1, 1, 1}}
	m := &Model{Curves: []Curve{{}, c}}
	// Domain 1's violations: 100 ticks at 1000 (knot 1's support (0,
	// 2000); not knot 0's (−∞, 1000) nor knot 2's (1000, 3000)) and 20
	// at 2500 (knots 2 and 3). One of domain 0 frees nothing of domain 1.
	at := []proofs{{T: []int64{500}, V: []int64{1000}}, {T: []int64{1000, 2500}, V: []int64{100, 20}}}
	p, held, all := m.proven(z, at)
	assert.Equal(t, 5, all)
	assert.Equal(t, 2, held)
	garrote := 50 - z*z/50
	assert.Zero(t, p.Curves[1].X[0], "knot 0: no violation nearby")
	assert.InDelta(t, garrote, p.Curves[1].X[1], 1e-12, "knot 1: within the 100 ticks proven")
	assert.InDelta(t, 20, p.Curves[1].X[2], 1e-12, "knot 2: the 20 ticks proven")
	assert.InDelta(t, -20, p.Curves[1].X[3], 1e-12, "knot 3: the 20 ticks proven, its sign kept")
	assert.Zero(t, p.Curves[1].X[4], "knot 4: no violation nearby")
	none, held, _ := m.proven(z, []proofs{{}, {}})
	assert.Equal(t, 5, held, "no violation: every knot held")
	assert.Equal(t, []float64{0, 0, 0, 0, 0}, none.Curves[1].X)
}

// domainViolations lists as proofs, per domain, the violations of
// messages between domains, not those within one.
func TestDomainViolationsProofs(t *testing.T) {
	// Locations 0 and 1 share domain 0, location 2 is domain 1. A message
	// 0 → 1 (same domain) and a message 0 → 2 both arrive before they
	// were sent plus μ.
	tr := &trace.Trace{Resolution: 1e9, Regions: []trace.Region{{Name: "MPI_Init"}}}
	w := trace.Comm{Name: "MPI_COMM_WORLD", Members: []int32{0, 1, 2}}
	for i := range 3 {
		tr.Nodes = append(tr.Nodes, trace.Node{})
		tr.Locations = append(tr.Locations, &trace.Location{Node: int32(i)})
	}
	tr.Comms = []trace.Comm{w}
	ev := func(l int) *trace.Events { return &tr.Locations[l].Events }
	ev(0).AppendMsg(trace.KindSend, 100, trace.Message{Peer: 1})
	ev(1).AppendMsg(trace.KindRecv, 90, trace.Message{Peer: 0})
	ev(0).AppendMsg(trace.KindSend, 200, trace.Message{Peer: 2})
	ev(2).AppendMsg(trace.KindRecv, 150, trace.Message{Peer: 0})
	ev(2).AppendMsg(trace.KindSend, 300, trace.Message{Peer: 0})
	ev(0).AppendMsg(trace.KindRecv, 900, trace.Message{Peer: 2})
	require.NoError(t, tr.Validate())
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	dom := &Domains{Of: []int32{0, 0, 1}, Node: []int32{0, 1}, Size: []int32{2, 1}}
	cc := measure.ClockCondition{Graph: g, Node: []int32{0, 1, 2}, Latency: replay.Latency{Intra: 10, Inter: 10}, Parallel: 2}
	times := [][]int64{tr.Locations[0].Events.Time, tr.Locations[1].Events.Time, tr.Locations[2].Events.Time}
	_, _, _, at := domainViolations(cc, dom, times, true, nil)
	assert.Equal(t, []proofs{{T: []int64{150}, V: []int64{60}}, {T: []int64{150}, V: []int64{60}}}, at)
}
