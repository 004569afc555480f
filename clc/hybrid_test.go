package clc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// The hybrid situations of Becker, Geimer, Rabenseifner and Wolf (Cluster
// 2010), small enough to check by hand. Ticks are nanoseconds; γ = 1 (a
// jump shifts everything after it on its location by the same amount),
// δ = 1 tick, μ = 10 between processes and 0 between threads, no backward
// amortization, no trust in the reference: every expected time below is
// the original plus the largest shift a predecessor imposes.

// hybridBuilder builds a trace of rank 0 (one location, process 0, node 0)
// and rank 1 (process 1, node 1) with threads.
type hybridBuilder struct {
	tr   *trace.Trace
	team uint32
}

const (
	regBarrier = iota
	regWork
)

func newHybrid(threads int) *hybridBuilder {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n0"}, {Name: "n1"}},
		Processes: []trace.Process{{Name: "rank 0"}, {Name: "rank 1"}},
		Regions: []trace.Region{{Name: "!$omp barrier", Role: trace.RoleBarrier, Paradigm: trace.ParadigmOpenMP},
			{Name: "work"}}}
	tr.Locations = append(tr.Locations, &trace.Location{ID: 0, Node: 0, Process: 0, Kind: trace.LocationCPUThread})
	team := trace.Comm{Name: "team", Paradigm: trace.ParadigmOpenMP}
	for w := range threads {
		team.Members = append(team.Members, int32(len(tr.Locations)))
		tr.Locations = append(tr.Locations, &trace.Location{ID: 1 | uint64(w)<<32, Node: 1, Process: 1, Kind: trace.LocationCPUThread})
	}
	tr.Comms = []trace.Comm{{Name: "world", Members: []int32{0, 1}}, team}
	return &hybridBuilder{tr: tr, team: 1}
}

func (b *hybridBuilder) ev(loc int) *trace.Events { return &b.tr.Locations[loc].Events }

// message: rank 0 sends at s, rank 1's master receives at r.
func (b *hybridBuilder) message(s, r int64) {
	b.ev(0).AppendMsg(trace.KindSend, s, trace.Message{Peer: 1, Comm: 0, Bytes: 8})
	b.ev(1).AppendMsg(trace.KindRecv, r, trace.Message{Peer: 0, Comm: 0, Bytes: 8})
}

func (b *hybridBuilder) thread(loc int, k trace.Kind, t int64, th trace.Thread) {
	if th.Team == 0 {
		th.Team = trace.NoComm
	}
	b.ev(loc).AppendThread(k, t, th)
}

func (b *hybridBuilder) correct(t *testing.T) (*replay.Graph, [][]int64) {
	t.Helper()
	require.NoError(t, b.tr.Validate())
	g, err := replay.Match(b.tr, nil)
	require.NoError(t, err)
	require.Zero(t, g.Issues.Total(), "%v", g.Issues.Examples)
	p := DefaultParams()
	p.Gamma, p.Delta, p.Slope, p.TrustReference, p.MaxPasses = 1, time.Nanosecond, 0, false, 1
	p.LatencyIntra, p.LatencyInter, p.LatencyShared = 10*time.Nanosecond, 10*time.Nanosecond, 0
	res, err := Correct(b.tr, g, p, nil)
	require.NoError(t, err)
	node := []int32{}
	for _, l := range b.tr.Locations {
		node = append(node, l.Node)
	}
	v := measure.ClockCondition{Graph: g, Node: node, Latency: p.InTicks(b.tr.Resolution).Lat, Parallel: 1}.Violations(res.Times)
	require.Zero(t, v.Total().Violations)
	require.Zero(t, v.SharedTotal().Violations)
	for k, o := range tracetest.SharedOrder(b.tr, res.Times, 0) {
		require.Zero(t, o.Violations, "%s (independent checker)", k)
	}
	return g, res.Times
}

// A late receive on the master before a parallel region: the receive
// moves by 20 (send 100 + μ 10 − 90), the fork with it, and the worker's
// team begin (125) must follow the moved fork (140): it moves by 15, and
// the rest of the worker's region with it. The join waits for both team
// ends.
func TestHybridLateReceiveBeforeParallelRegion(t *testing.T) {
	b := newHybrid(2)
	b.message(100, 90)
	m, w := 1, 2
	b.thread(m, trace.KindThreadFork, 120, trace.Thread{Model: trace.ParadigmOpenMP, Threads: 2})
	b.thread(m, trace.KindThreadTeamBegin, 121, trace.Thread{Team: b.team})
	b.thread(w, trace.KindThreadTeamBegin, 125, trace.Thread{Team: b.team})
	b.ev(w).AppendRegion(trace.KindEnter, 130, regWork)
	b.ev(w).AppendRegion(trace.KindLeave, 190, regWork)
	b.thread(w, trace.KindThreadTeamEnd, 220, trace.Thread{Team: b.team})
	b.thread(m, trace.KindThreadTeamEnd, 200, trace.Thread{Team: b.team})
	b.thread(m, trace.KindThreadJoin, 210, trace.Thread{Model: trace.ParadigmOpenMP})
	g, lc := b.correct(t)
	require.Equal(t, int64(1), g.Sync[replay.SyncFork])
	require.Equal(t, int64(1), g.Sync[replay.SyncJoin])
	require.Equal(t, []int64{100}, lc[0])
	require.Equal(t, []int64{110, 140, 141, 220, 235}, lc[m]) // join: the worker's end 235 beats 210 + 20
	require.Equal(t, []int64{140, 145, 205, 235}, lc[w])
}

// A lock chain across threads: the master's late receive moves its
// critical section (acquisition 0) by 20; acquisition 1 on thread 1 must
// follow release 0 (115) and moves by 15; acquisition 2 on thread 2 must
// follow release 1 (125) and moves by 5.
func TestHybridLockChain(t *testing.T) {
	b := newHybrid(3)
	b.message(90, 80)
	lock := func(loc int, a, r int64, order uint32) {
		th := trace.Thread{Model: trace.ParadigmOpenMP, Lock: 7, Order: order}
		b.thread(loc, trace.KindThreadAcquireLock, a, th)
		b.thread(loc, trace.KindThreadReleaseLock, r, th)
	}
	lock(1, 85, 95, 0)
	lock(2, 100, 110, 1)
	lock(3, 120, 130, 2)
	g, lc := b.correct(t)
	require.Equal(t, int64(2), g.Sync[replay.SyncLock])
	require.Equal(t, []int64{100, 105, 115}, lc[1])
	require.Equal(t, []int64{115, 125}, lc[2])
	require.Equal(t, []int64{125, 135}, lc[3])
}

// A barrier after a shifted thread: the master, inside the parallel
// region, receives a message late (moved by 15) and enters the barrier at
// 148 + 15 = 163; the other threads entered before but may not leave
// (150, 151) before the last entry: they move to 163.
func TestHybridBarrierAfterShiftedThread(t *testing.T) {
	b := newHybrid(3)
	m := 1
	b.thread(m, trace.KindThreadFork, 90, trace.Thread{Model: trace.ParadigmOpenMP, Threads: 3})
	for loc := 1; loc <= 3; loc++ {
		b.thread(loc, trace.KindThreadTeamBegin, 100, trace.Thread{Team: b.team})
	}
	b.message(115, 110)
	enter := []int64{0, 148, 120, 125}
	leave := []int64{0, 152, 150, 151}
	for loc := 1; loc <= 3; loc++ {
		b.ev(loc).AppendRegion(trace.KindEnter, enter[loc], regBarrier)
		b.ev(loc).AppendRegion(trace.KindLeave, leave[loc], regBarrier)
		b.thread(loc, trace.KindThreadTeamEnd, 160, trace.Thread{Team: b.team})
	}
	b.thread(m, trace.KindThreadJoin, 170, trace.Thread{Model: trace.ParadigmOpenMP})
	g, lc := b.correct(t)
	require.Equal(t, int64(6), g.Sync[replay.SyncBarrier]) // 3 members, every ordered pair
	require.Equal(t, []int64{90, 100, 125, 163, 167, 175, 185}, lc[1])
	require.Equal(t, []int64{100, 120, 163, 173}, lc[2])
	require.Equal(t, []int64{100, 125, 163, 172}, lc[3])
}

// A metric location follows its process's master thread: each sample
// moves by the shift of the master's last event at or before it (none
// before the first), never earlier than the previous sample.
func TestHybridMetricFollowsMaster(t *testing.T) {
	b := newHybrid(1)
	b.message(100, 90)
	b.ev(1).AppendRegion(trace.KindEnter, 120, regWork)
	b.ev(1).AppendRegion(trace.KindEnter, 200, regWork)
	b.ev(1).AppendRegion(trace.KindLeave, 210, regWork)
	b.tr.Locations = append(b.tr.Locations, &trace.Location{ID: 2 << 32, Node: 1, Process: 1, Kind: trace.LocationMetric})
	for _, ts := range []int64{85, 95, 205, 215} {
		b.ev(2).AppendOpaque(ts, trace.Opaque{Format: trace.FormatOTF2, Type: 31})
	}
	g, err := replay.Match(b.tr, nil)
	require.NoError(t, err)
	require.Equal(t, []int32{-1, -1, 1}, Leader(b.tr, g))
	_, lc := b.correct(t)
	require.Equal(t, []int64{110, 140, 220, 230}, lc[1]) // recv, enter, enter, leave
	require.Equal(t, []int64{85, 115, 225, 235}, lc[2])
}

// withoutShared returns g without its shared-memory relations: the
// happened-before relation clc had before it knew threads.
func withoutShared(g *replay.Graph) *replay.Graph {
	c := *g
	c.Deps = make([][]replay.Dep, len(g.Deps))
	for li, ds := range g.Deps {
		for _, d := range ds {
			if d.Role == replay.RoleSyncSend || d.Role == replay.RoleSyncRecv {
				continue
			}
			if (d.Role == replay.RoleCollSend || d.Role == replay.RoleCollRecv) && g.Instances[d.Ref].Kind != 0 {
				continue
			}
			c.Deps[li] = append(c.Deps[li], d)
		}
	}
	c.Sync = [replay.NumSyncKinds]int64{}
	return &c
}

// The cause of issue 9's measurement: on a hybrid run whose threads read
// their node's clock (its shared-memory order intact after
// pre-synchronisation, which gives every thread of a process the same
// correction), a CLC that moves only the MPI events — the masters' —
// leaves team begins before their forks and barrier exits before the
// last entry; with the shared-memory relations, nothing.
func TestHybridOrderNeedsSharedRelations(t *testing.T) {
	cfg := sim.DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Threads, cfg.Steps, cfg.Events = 8, 2, 4, 40, 0
	cfg.Compute, cfg.ClockWander = 8*time.Millisecond, 20*time.Microsecond
	rec, _, err := sim.Generate(cfg)
	require.NoError(t, err)
	_, err = presync.Apply(rec, nil)
	require.NoError(t, err)
	for k, o := range tracetest.SharedOrder(rec, tracetest.Times(rec), 0) {
		require.Zero(t, o.Violations, "pre-synchronised: %s", k)
	}
	g, err := replay.Match(rec, nil)
	require.NoError(t, err)
	old, err := Correct(rec, withoutShared(g), DefaultParams(), nil)
	require.NoError(t, err)
	broken := tracetest.SharedOrder(rec, old.Times, 0)
	require.Positive(t, broken["fork"].Violations)
	require.Positive(t, broken["barrier"].Violations)
	t.Logf("MPI relations only: %+v", broken)
	res, err := Correct(rec, g, DefaultParams(), nil)
	require.NoError(t, err)
	for k, o := range tracetest.SharedOrder(rec, res.Times, 0) {
		require.Zero(t, o.Violations, "with the shared-memory relations: %s", k)
	}
}
