package sim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// mpiProjection returns the MPI part of a hybrid trace: the ranks' master
// threads without thread events and thread regions, and the MPI
// communicators — what the MPI checker reads.
func mpiProjection(t *trace.Trace, cfg Config) *trace.Trace {
	p := &trace.Trace{Resolution: t.Resolution, Nodes: t.Nodes, Regions: t.Regions,
		Comms: t.Comms[:len(buildComms(cfg.Ranks, newGrid(cfg.Ranks), usesSubComms(cfg.Patterns)))], Properties: t.Properties}
	for r := range cfg.Ranks {
		l := *t.Locations[r]
		l.Process, l.Kind, l.Events = 0, 0, trace.Events{}
		src := &t.Locations[r].Events
		for i, k := range src.Kind {
			if k.HasThread() || (k == trace.KindEnter || k == trace.KindLeave) && src.Ref[i] >= regParallel {
				continue
			}
			l.Events.Append(src, i, nil)
		}
		p.Locations = append(p.Locations, &l)
	}
	return p
}

func hybridConfig() Config {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Threads, cfg.Steps = 6, 2, 4, 12
	cfg.Events = 0
	return cfg
}

// Hybrid mode: the truth keeps every shared-memory relation with the
// thread latency (by the independent checker of package tracetest) and
// every MPI relation (by the MPI checker, on the ranks' master threads);
// the recorded trace keeps the shared-memory order (threads read their
// node's clock) and matches without issues, every kind of relation
// present, as many as the checker counts.
func TestHybridTruth(t *testing.T) {
	checkHybridTruth(t, hybridConfig())
}

// checkHybridTruth generates a hybrid run with cfg and checks it as
// TestHybridTruth says.
func checkHybridTruth(t *testing.T, cfg Config) {
	t.Helper()
	rec, truth, err := Generate(cfg)
	require.NoError(t, err)
	require.NoError(t, rec.Validate())
	require.Len(t, rec.Locations, cfg.Ranks*cfg.Threads)
	require.Len(t, rec.Processes, cfg.Ranks)
	lat := ticksCeil(cfg.ThreadLatency, cfg.Resolution)
	order := tracetest.SharedOrder(truth, tracetest.Times(truth), lat)
	for _, k := range []string{"fork", "join", "barrier", "lock", "task-create", "taskwait"} {
		require.Positive(t, order[k].Relations, k)
	}
	for k, o := range order {
		require.Zero(t, o.Violations, "truth: %s", k)
	}
	proj := mpiProjection(truth, cfg)
	m, err := match(proj)
	require.NoError(t, err)
	v := countViolations(proj, m, latModelOf(cfg), true)
	require.Zero(t, v.total())

	for k, o := range tracetest.SharedOrder(rec, tracetest.Times(rec), 0) {
		require.Zero(t, o.Violations, "recorded: %s", k)
	}
	g, err := replay.Match(rec, nil)
	require.NoError(t, err)
	require.Zero(t, g.Issues.Total(), "%v", g.Issues.Examples)
	for _, k := range []replay.SyncKind{replay.SyncFork, replay.SyncJoin, replay.SyncLock, replay.SyncTaskCreate} {
		require.Equal(t, order[k.String()].Relations, g.Sync[k], k.String())
	}
	// Every location of a rank carries its offset measurements.
	for loc, l := range rec.Locations {
		require.Equal(t, rec.Locations[rec.ProcessOf(loc)].Offsets, l.Offsets, "location %d", loc)
	}
}

// Threads = 1 (or 0) is the MPI simulator as before: the same trace.
func TestHybridOffIsMPI(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.Steps, cfg.Events = 4, 3, 0
	a, _, err := Generate(cfg)
	require.NoError(t, err)
	cfg.Threads = 0
	b, _, err := Generate(cfg)
	require.NoError(t, err)
	require.NoError(t, sameEvents(a, b))
	require.False(t, a.Threaded())
}

func TestHybridConfigErrors(t *testing.T) {
	for _, f := range []func(*Config){
		func(c *Config) { c.Threads = -1 },
		func(c *Config) { c.Threads = MaxThreads + 1 },
		func(c *Config) { c.ThreadLatency = -time.Nanosecond },
	} {
		cfg := DefaultConfig()
		f(&cfg)
		require.Error(t, cfg.Validate())
	}
}
