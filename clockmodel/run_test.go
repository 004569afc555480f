package clockmodel

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
)

// prepared is a simulated trace captured, pre-synchronised and matched,
// with its truth.
type prepared struct {
	in    *Input
	times [][]int64
	truth [][]int64
	g     *replay.Graph
	node  []int32
}

func prepare(t *testing.T, cfg sim.Config) *prepared {
	t.Helper()
	return prepareWith(t, cfg, nil)
}

func baseConfig(seed int64) sim.Config {
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Events, c.Seed = 16, 4, 40_000, seed
	c.Compute = 2 * time.Millisecond
	c.ClockWander = 10 * time.Microsecond
	return c
}

var defaultLat = replay.Latency{Intra: 300, Inter: 1000}

// The estimated clocks against the simulator's truth, on scenarios where
// pre-synchronisation leaves errors of microseconds to milliseconds: the
// model's times are at least three times closer to the truth, on average.
func TestModelAgainstTruth(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(c *sim.Config)
	}{
		{"wander", func(c *sim.Config) {}},
		{"no offsets", func(c *sim.Config) { c.OffsetRecords = "none" }},
		{"jumps", func(c *sim.Config) {
			c.ClockWander, c.ClockJumpEvery, c.ClockJumpSize = 2*time.Microsecond, 50*time.Millisecond, 20*time.Microsecond
		}},
		// A collective's windows tell the shape of a clock's error, not its
		// level (their biases are free): the anchors must, and the model
		// may find too little to move the clocks.
		{"collectives", func(c *sim.Config) { c.Patterns = []string{"allreduce", "coll", "bcast", "reduce"} }},
		{"asymmetric, congested", func(c *sim.Config) {
			c.LatencyAsymmetry, c.Congestion, c.CongestionDelay = 0.3, 0.3, 20*time.Microsecond
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := baseConfig(11)
			tc.f(&c)
			p := prepare(t, c)
			r, err := Run(context.Background(), p.in, p.times, p.g, p.node, Options{Latency: defaultLat, Parallel: 2})
			require.NoError(t, err)
			if tc.name == "collectives" && r.Times == nil {
				t.Logf("%s: the clocks stay: %s", tc.name, r.Fallback)
				return
			}
			require.Equal(t, "model + clc", r.Ran, "fallback: %s", r.Fallback)
			pre, got := measure.AccuracyOf(p.times, p.truth).MeanAbs, measure.AccuracyOf(r.Times, p.truth).MeanAbs
			t.Logf("%s: mean |err| %.0f → %.0f ticks; %+v; guard %+v", tc.name, pre, got, *r.Estimate, *r.Guard)
			if tc.name == "collectives" {
				assert.Less(t, got, pre)
			} else {
				assert.Less(t, got, pre/3)
			}
			assert.LessOrEqual(t, r.Guard.ViolationsModel, r.Guard.ViolationsBefore)
			for li, ts := range r.Times {
				for j := 1; j < len(ts); j++ {
					require.GreaterOrEqual(t, ts[j], ts[j-1], "location %d event %d", li, j)
				}
			}
			// The reference domain does not move.
			for li := range r.Times {
				if p.in.Domains.Of[li] == p.in.Domains.Ref {
					assert.Equal(t, p.times[li], r.Times[li])
				}
			}
			// The clock condition before, measured beside the estimate,
			// is that of the pre-synchronised times with the μ chosen.
			require.True(t, r.BeforeMeasured)
			assert.Equal(t, measure.ClockCondition{Graph: p.g, Node: p.node, Latency: r.Latency.Replay(), Parallel: 1}.Violations(p.times), r.Before)
		})
	}
}

// Clocks without error (several nodes, exact offset measurements): the
// model finds nothing significant and nothing moves, whatever the
// communication pattern.
func TestPerfectClocksDoNotMove(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		for _, pats := range [][]string{nil, {"halo"}, {"allreduce", "coll"}, {"master", "pairs"}} {
			c := baseConfig(seed)
			c.PerfectClocks()
			c.OffsetNoise = 0
			if pats != nil {
				c.Patterns = pats
			}
			p := prepare(t, c)
			r, err := Run(context.Background(), p.in, p.times, p.g, p.node, Options{Latency: defaultLat, Parallel: 2})
			require.NoError(t, err)
			assert.Nil(t, r.Times, "seed %d %v: %s", seed, pats, r.Ran)
			assert.Equal(t, "clc", r.Ran)
			assert.NotEmpty(t, r.Fallback)
		}
	}
}

func TestMethodCLCAndOneDomain(t *testing.T) {
	c := baseConfig(3)
	p := prepare(t, c)
	r, err := Run(context.Background(), p.in, p.times, p.g, p.node, Options{Method: MethodCLC, Latency: defaultLat})
	require.NoError(t, err)
	assert.Equal(t, "clc", r.Ran)
	assert.Nil(t, r.Estimate, "the pure CLC estimates nothing")
	assert.Empty(t, r.Fallback)
	// μ within a node: the default (300) is below the simulator's 500 ns.
	assert.Equal(t, int64(300), r.Latency.Intra.Ticks)
	assert.GreaterOrEqual(t, r.Latency.Intra.SameClock, int64(500))

	c.RanksPerNode = c.Ranks
	c.LatencyIntra = 150 * time.Nanosecond
	p = prepare(t, c)
	r, err = Run(context.Background(), p.in, p.times, p.g, p.node, Options{Latency: defaultLat})
	require.NoError(t, err)
	assert.Equal(t, "clc", r.Ran)
	assert.Contains(t, r.Fallback, "one clock domain")
	assert.Equal(t, SourceSameClock, r.Latency.Intra.Source)
	assert.GreaterOrEqual(t, r.Latency.Intra.Ticks, int64(150), "the simulator's minimum latency")
	assert.Less(t, r.Latency.Intra.Ticks, int64(300))
	_, err = ParseMethod("nope")
	assert.Error(t, err)
}

// The pure CLC also lowers μ across clocks by the messages' round trips:
// on a network faster than the default μ, μ comes out at most the true
// minimum latency, so messages that were right are not "corrected"; on
// the default network (2 µs) the default μ (1 µs) stays.
func TestMethodCLCLowersMuByRoundTrips(t *testing.T) {
	c := baseConfig(5)
	c.LatencyIntra, c.LatencyInter = 200*time.Nanosecond, 400*time.Nanosecond
	p := prepare(t, c)
	r, err := Run(context.Background(), p.in, p.times, p.g, p.node, Options{Method: MethodCLC, Latency: defaultLat, Parallel: 2})
	require.NoError(t, err)
	assert.Equal(t, "clc", r.Ran)
	assert.Nil(t, r.Estimate, "the pure CLC estimates nothing")
	assert.Equal(t, SourceRoundTrip, r.Latency.Inter.Source)
	assert.Positive(t, r.Latency.Inter.Ticks)
	assert.LessOrEqual(t, r.Latency.Inter.Ticks, int64(400), "at most the true minimum latency")

	p = prepare(t, baseConfig(5))
	r, err = Run(context.Background(), p.in, p.times, p.g, p.node, Options{Method: MethodCLC, Latency: defaultLat, Parallel: 2})
	require.NoError(t, err)
	assert.Equal(t, SourceDefault, r.Latency.Inter.Source)
	assert.Equal(t, int64(1000), r.Latency.Inter.Ticks)
}

// A long run (20 s of simulated time, messages all along) whose clocks
// wander with periods of 0.35–2.8 s: the curves keep a knot every knotGap
// however long the run, so the model follows the wander as closely as in
// a short run (a fixed count of knots followed it to half the error and
// left violations the CLC then had to remove).
func TestLongRunKeepsItsResolution(t *testing.T) {
	if testing.Short() {
		t.Skip("a million events")
	}
	c := baseConfig(11)
	c.Ranks, c.RanksPerNode, c.Events = 8, 2, 1_000_000
	p := prepare(t, c)
	span := p.truth[0][len(p.truth[0])-1] - p.truth[0][0]
	require.Greater(t, span, int64(15e9), "the run must be long: %d ticks", span)
	r, err := Run(context.Background(), p.in, p.times, p.g, p.node, Options{Latency: defaultLat, Parallel: 2})
	require.NoError(t, err)
	require.Equal(t, "model + clc", r.Ran, "fallback: %s", r.Fallback)
	pre, got := measure.AccuracyOf(p.times, p.truth).MeanAbs, measure.AccuracyOf(r.Times, p.truth).MeanAbs
	t.Logf("span %.1f s, mean |err| %.0f → %.0f ticks; %+v; guard %+v", float64(span)/1e9, pre, got, *r.Estimate, *r.Guard)
	assert.Greater(t, r.Estimate.Unknowns, 3*baseKnots, "knots beyond the base count")
	assert.Less(t, got, pre/5)
	assert.Less(t, r.Guard.ViolationsModel, r.Guard.ViolationsBefore/10)
}

// A trace too short to show the clocks' wander (one step of pair
// exchanges: no group of windows has eight) gets the wander's scale 0, not
// +Inf, so that its report can be written as JSON (repair's
// TestReportJSONWithoutWanderEvidence), and every clock with an offset
// measurement or a two-sided window gets a finite error bar from the
// estimate's posterior, no wider than its messages with the reference
// allow.
func TestNoWanderEvidence(t *testing.T) {
	c := baseConfig(3)
	c.Ranks, c.RanksPerNode, c.Steps, c.Events = 8, 1, 1, 0
	c.Patterns = []string{"pairs"}
	p := prepare(t, c)
	res, err := Run(context.Background(), p.in, p.times, p.g, p.node, Options{Latency: defaultLat})
	require.NoError(t, err)
	require.NotNil(t, res.Estimate)
	assert.Zero(t, res.Estimate.Wander)
	if res.Times == nil {
		for li := range p.times {
			d := p.in.Domains.Of[li]
			if d == p.in.Domains.Ref {
				continue
			}
			c := p.times[li][1]
			bar := res.ErrorBar(d, c, c)
			lo, hi := math.Inf(-1), math.Inf(1)
			if env := res.bars.proven[d]; env != nil {
				lo, hi = env.bounds(c)
			}
			assert.True(t, res.bars.evidence[d], "location %d has evidence", li)
			assert.False(t, math.IsInf(bar, 1), "location %d: a finite bar", li)
			if !math.IsInf(lo, -1) && !math.IsInf(hi, 1) {
				assert.LessOrEqual(t, bar, math.Max(-lo, hi)+math.Abs(res.Estimated(d, c)), "location %d: no wider than the bounds", li)
			}
		}
	}
}

// The window test refuses an estimate that contradicts more than 1 % of
// the two-sided windows, unless the pre-synchronised clocks contradict
// more still.
func TestWindowsRefuse(t *testing.T) {
	for _, c := range []struct {
		bad, before, all int
		refuse           bool
	}{
		{bad: 10, before: 50, all: 1000, refuse: false}, // 1 %: within
		{bad: 11, before: 0, all: 1000, refuse: true},
		{bad: 39, before: 40, all: 2570, refuse: false}, // fewer than before
		{bad: 40, before: 40, all: 2570, refuse: true},  // as many as before
		{bad: 0, before: 0, all: 0, refuse: false},
	} {
		gd := Guard{Contradicted: c.bad, ContradictedBefore: c.before, Windows: c.all}
		assert.Equal(t, c.refuse, gd.windowsRefuse(), "%d of %d windows, %d before", c.bad, c.all, c.before)
	}
}
