package clc

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

func randomParams(rng *rand.Rand) Params {
	p := DefaultParams()
	p.LatencyIntra = time.Duration(rng.IntN(4))
	p.LatencyInter = p.LatencyIntra + time.Duration(rng.IntN(8))
	p.Gamma = []float64{1, 0.999, 0.99, 0.9, 0.5}[rng.IntN(5)]
	p.Slope = []float64{0, 0.01, 0.1, 0.5, 2}[rng.IntN(5)]
	p.MaxPasses = 1 + rng.IntN(3)
	p.ShiftFactor = []float64{0, 1, 4}[rng.IntN(3)]
	p.Delta = time.Duration(rng.IntN(3))
	p.TrustReference = rng.IntN(2) == 0
	p.ReferenceGamma = []float64{0, 0.5, 0.9}[rng.IntN(3)]
	p.InformedGamma = []float64{1, 0.9999, 0.99}[rng.IntN(3)]
	p.InformedSlope = []float64{0, 0.001, 0.3}[rng.IntN(3)]
	p.LatencyShared = time.Duration(rng.IntN(3))
	return p
}

// checkOracles verifies what must hold of any correction: no violation
// left, times never decreasing per location, nothing earlier than before.
func checkOracles(t *testing.T, tr *trace.Trace, g *replay.Graph, p Params, lc [][]int64, dropped int64) {
	t.Helper()
	k := p.InTicks(tr.Resolution)
	node := make([]int32, len(tr.Locations))
	for i, l := range tr.Locations {
		node[i] = l.Node
		c := l.Events.Time
		for j := range c {
			require.GreaterOrEqual(t, lc[i][j], c[j], "location %d event %d moved earlier", i, j)
			if j > 0 {
				require.GreaterOrEqual(t, lc[i][j], lc[i][j-1], "location %d event %d before its predecessor", i, j)
			}
		}
	}
	if dropped == 0 {
		v := measure.ClockCondition{Graph: g, Node: node, Latency: k.Lat, Parallel: 2}.Violations(lc)
		require.Zero(t, v.P2P.Violations, "p2p violations left")
		require.Zero(t, v.Collective.Violations, "collective violations left")
		for kind, st := range v.Shared {
			require.Zero(t, st.Violations, "%s violations left", replay.SyncKind(kind))
		}
	}
}

// randomConfig returns the configuration of a random trace: MPI only, or
// hybrid (threads sharing their process's clock or not, metric locations).
func randomConfig(rng *rand.Rand) tracetest.Config {
	cfg := tracetest.Config{
		Locations: 1 + rng.IntN(9), Nodes: 1 + rng.IntN(4), Ops: rng.IntN(80),
		Latency: 1 + rng.Int64N(10), Offset: rng.Int64N(200), Drift: rng.Float64() * 1e-3,
		Unmatched: 0.05, Init: rng.IntN(2) == 0,
	}
	if rng.IntN(2) == 0 {
		cfg.Locations = 1 + rng.IntN(5)
		cfg.Threads = 2 + rng.IntN(4)
		cfg.ThreadClocks = rng.IntN(3) == 0
		cfg.Metrics = rng.IntN(2) == 0
	}
	return cfg
}

// TestParallelEqualsSerial is the property test: on random traces and
// parameters (300 by default, 3,000 with CLC_TEST_FULL=1), the parallel
// replay gives exactly the times of the plain serial implementation, for
// GOMAXPROCS 1 and 2, and the oracles hold.
func TestParallelEqualsSerial(t *testing.T) {
	n := 300
	if testenv.Full() {
		n = 3000
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	// What the random traces exercised: relations of every shared-memory
	// kind, and jumps they caused.
	var relations [replay.NumSyncKinds]int64
	var sharedJumps int64
	defer func() {
		if t.Failed() {
			return
		}
		for k := replay.SyncFork; k < replay.NumSyncKinds; k++ {
			require.Positive(t, relations[k], "no %s relation in %d traces", k, n)
		}
		require.Positive(t, sharedJumps, "no jump caused by a shared-memory relation")
	}()
	for seed := 0; seed < n; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 99))
		cfg := randomConfig(rng)
		tr, _ := tracetest.Random(rng, cfg)
		p := randomParams(rng)
		alltoallv := replay.AlltoallvIgnore
		if rng.IntN(3) == 0 {
			alltoallv = replay.AlltoallvNToN
		}
		name := fmt.Sprintf("seed %d (%+v)", seed, cfg)
		require.NoError(t, tr.Validate(), name)
		g, err := replay.Match(tr, &replay.MatchOptions{Alltoallv: alltoallv})
		require.NoError(t, err, name)
		for _, kind := range []replay.IssueKind{replay.UnmatchedThread, replay.IncompleteThread, replay.InconsistentThread, replay.UnpairedRegion} {
			require.Zero(t, g.Issues.Count[kind], "%s: %s: %v", name, kind, g.Issues.Examples)
		}
		if cfg.Threads > 1 && cfg.Ops > 40 {
			require.Positive(t, g.SyncTotal(), name)
		}
		for k, c := range g.Sync {
			relations[k] += c
		}
		shm := p.InTicks(tr.Resolution).Lat.Shared
		if cfg.Threads > 1 {
			indep := tracetest.SharedOrder(tr, tracetest.Times(tr), shm)
			for _, k := range []replay.SyncKind{replay.SyncFork, replay.SyncJoin, replay.SyncLock, replay.SyncTaskCreate, replay.SyncThreadCreate, replay.SyncThreadJoin} {
				require.Equal(t, indep[k.String()].Relations, g.Sync[k], "%s: %s relations, independent checker against the matcher", name, k)
			}
			for _, k := range []replay.SyncKind{replay.SyncBarrier, replay.SyncTaskWait} {
				require.GreaterOrEqual(t, indep[k.String()].Relations, g.Sync[k], "%s: %s relations", name, k)
			}
			if !cfg.ThreadClocks && shm == 0 {
				for k, o := range indep {
					require.Zero(t, o.Violations, "%s: the input's %s order is intact", name, k)
				}
			}
		}
		want, wantPasses := serialCLC(tr, g, p)
		sharedJumps += wantPasses[len(wantPasses)-1].SharedJumps
		for _, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			res, err := Correct(tr, g, p, nil)
			require.NoError(t, err, name)
			require.Equal(t, wantPasses, res.Passes, "%s: passes, GOMAXPROCS=%d", name, procs)
			require.Equal(t, want, res.Times, "%s: times, GOMAXPROCS=%d", name, procs)
			checkOracles(t, tr, g, p, res.Times, res.Dropped.Total())
			checkMoved(t, tr, res, name)
			if cfg.Threads > 1 && res.Dropped.Total() == 0 {
				for k, o := range tracetest.SharedOrder(tr, res.Times, shm) {
					require.Zero(t, o.Violations, "%s: %s order after correction (independent checker)", name, k)
				}
			}
		}
	}
}

// checkMoved checks Result.Moved against the times before and after: it
// lists exactly the events whose time changed, in ascending order, with
// their original times.
func checkMoved(t *testing.T, tr *trace.Trace, res *Result, name string) {
	t.Helper()
	require.Len(t, res.Moved, len(tr.Locations), name)
	for li, l := range tr.Locations {
		m := &res.Moved[li]
		require.True(t, slices.Equal(l.Events.Time, m.Original(res.Times[li])), "%s: location %d: times before", name, li)
		if m.Dense() {
			continue
		}
		n := changed(l.Events.Time, res.Times[li])
		require.Len(t, m.Before, n, name)
		require.Len(t, m.Idx, n, name)
		k := 0
		for j, c := range l.Events.Time {
			if res.Times[li][j] == c {
				require.False(t, k < n && int(m.Idx[k]) == j, "%s: location %d event %d listed as moved but kept its time", name, li, j)
				continue
			}
			require.Less(t, k, n, "%s: location %d event %d moved but not listed", name, li, j)
			require.Equal(t, uint32(j), m.Idx[k], "%s: location %d: moved events out of order or missing", name, li)
			require.Equal(t, c, m.Before[k], "%s: location %d event %d: time before", name, li, j)
			k++
		}
		require.Equal(t, n, k, "%s: location %d lists more moved events than changed", name, li)
	}
}

// changed counts the events whose time differs between before and after.
func changed(before, after []int64) int {
	n := 0
	for j, c := range before {
		if after[j] != c {
			n++
		}
	}
	return n
}

// On simulated traces large enough for Moved to switch to a whole column
// (and small enough for a quick test), the in-place correction still
// equals the serial oracle and records the times before exactly, whether
// few or most events move.
func TestInPlaceOnSimulatedTraces(t *testing.T) {
	for _, wander := range []time.Duration{3 * time.Microsecond, 10 * time.Microsecond, 200 * time.Microsecond} {
		c := sim.DefaultConfig()
		c.Ranks, c.RanksPerNode, c.Events, c.Seed = 8, 2, 40_000, 11
		c.Compute, c.ClockWander, c.WanderPeriod = 20*time.Microsecond, wander, 10*time.Millisecond
		tr, _, err := sim.Generate(c)
		require.NoError(t, err)
		_, err = presync.Apply(tr, nil)
		require.NoError(t, err)
		g, err := replay.Match(tr, nil)
		require.NoError(t, err)
		p := DefaultParams()
		want, wantPasses := serialCLC(tr, g, p)
		res, err := Correct(tr, g, p, nil)
		require.NoError(t, err)
		require.Equal(t, wantPasses, res.Passes)
		require.Equal(t, want, res.Times)
		name := fmt.Sprintf("wander %v", wander)
		checkMoved(t, tr, res, name)
		dense, moved := 0, 0
		for li := range res.Moved {
			moved += changed(tr.Locations[li].Events.Time, res.Times[li])
			if res.Moved[li].Dense() {
				dense++
			}
		}
		t.Logf("%s: %d of %d events moved, %d of %d locations dense", name, moved, tr.NumEvents(), dense, len(res.Moved))
	}
}

// TestSatisfiedIsAFixedPoint justifies CorrectInPlace's early return: on
// random traces whose times satisfy the clock condition (the CLC's own
// results, which must, and the random inputs that happen to), the full
// forward and backward passes move nothing, for any parameters. So when
// the measured clock condition says nothing violates and no location runs
// backward, skipping the passes gives exactly the times they would.
func TestSatisfiedIsAFixedPoint(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 150
	}
	fixed, inputs := 0, 0
	for seed := 0; seed < n; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		cfg := randomConfig(rng)
		tr, _ := tracetest.Random(rng, cfg)
		p := randomParams(rng)
		name := fmt.Sprintf("seed %d (%+v)", seed, cfg)
		g, err := replay.Match(tr, nil)
		require.NoError(t, err, name)
		first, err := Correct(tr, g, p, nil)
		require.NoError(t, err, name)
		if first.Dropped.Total() > 0 {
			continue
		}
		node := make([]int32, len(tr.Locations))
		for i, l := range tr.Locations {
			node[i] = l.Node
		}
		lat := p.InTicks(tr.Resolution).Lat
		for i, start := range [][][]int64{tracetest.Times(tr), first.Times} {
			v := measure.ClockCondition{Graph: g, Node: node, Latency: lat, Parallel: 2}.Violations(start)
			sorted := make([]bool, len(start))
			for li, ts := range start {
				sorted[li] = slices.IsSorted(ts)
			}
			if !satisfied(&v, sorted) {
				require.Zero(t, i, "%s: the CLC's result violates", name)
				continue
			}
			times := make([][]int64, len(start))
			for li := range start {
				times[li] = slices.Clone(start[li])
			}
			q := p
			q.ShiftFactor = 1 + rng.Float64()
			res, err := CorrectInPlace(Input{Times: times, Node: node, Resolution: tr.Resolution, Follow: Leader(tr, g)}, g, q, nil)
			require.NoError(t, err, name)
			require.Equal(t, start, times, "%s: the passes moved times that satisfy the clock condition", name)
			require.Zero(t, res.Jumps(), name)
			if i == 1 {
				fixed++
			} else {
				inputs++
			}
		}
	}
	t.Logf("%d corrected traces and %d random inputs without violations", fixed, inputs)
	require.Greater(t, fixed, n/2)
	require.Positive(t, inputs)
}
