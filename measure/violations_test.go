package measure

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/replay"
)

// ClockCondition counts exactly what a brute-force pass over every
// logical pair counts.
func TestClockConditionBruteForce(t *testing.T) {
	for seed := 0; seed < 300; seed++ {
		_, times, g, node, lat := randomInput(t, seed)
		var want Violations
		for li := range times {
			for _, d := range g.Deps[li] {
				switch d.Role {
				case replay.RoleRecv:
					want.P2P.pair(times[d.Peer][d.Ref], times[li][d.Idx], lat.Between(node[d.Peer], node[li]))
				case replay.RoleSyncRecv:
					want.Shared[d.Sync].pair(times[d.Peer][d.Ref], times[li][d.Idx], lat.Shared)
				}
			}
		}
		for ii := range g.Instances {
			parts := g.InstanceParts(uint32(ii))
			in := &g.Instances[ii]
			scan := in.Class == replay.ClassScan
			for ri, r := range parts {
				if r.Recv == replay.NoEvent {
					continue
				}
				for si, s := range parts {
					if si == ri || s.Send == replay.NoEvent || scan && si > ri {
						continue
					}
					if in.Kind != 0 {
						want.Shared[in.Kind].pair(times[s.Loc][s.Send], times[r.Loc][r.Recv], lat.Shared)
						continue
					}
					want.Collective.pair(times[s.Loc][s.Send], times[r.Loc][r.Recv], lat.Between(node[s.Loc], node[r.Loc]))
				}
			}
		}
		got := ClockCondition{Graph: g, Node: node, Latency: lat, Parallel: 2}.Violations(times)
		require.Equal(t, want, got, "seed %d", seed)
	}
}

// randomInput is a random trace of seed, every other one hybrid, with
// random latencies, as ClockCondition's arguments.
func randomInput(t *testing.T, seed int) (*rand.Rand, [][]int64, *replay.Graph, []int32, replay.Latency) {
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	cfg := tracetest.Config{Locations: 2 + rng.IntN(8), Nodes: 1 + rng.IntN(3),
		Ops: rng.IntN(60), Latency: 5, Offset: 100, Init: rng.IntN(2) == 0}
	if seed%2 == 1 { // hybrid, with threads out of order
		cfg.Threads, cfg.ThreadClocks = 2+rng.IntN(3), true
	}
	tr, _ := tracetest.Random(rng, cfg)
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	lat := replay.Latency{Intra: rng.Int64N(5), Inter: 5 + rng.Int64N(10), Shared: rng.Int64N(3)}
	node := make([]int32, len(tr.Locations))
	times := make([][]int64, len(tr.Locations))
	for i, l := range tr.Locations {
		node[i], times[i] = l.Node, l.Events.Time
	}
	return rng, times, g, node, lat
}

// Recount after some events' times changed equals counting the new times
// from scratch, and leaves the counts it started from as they were.
func TestRecountAfterMoves(t *testing.T) {
	for seed := 0; seed < 300; seed++ {
		rng, times, g, node, lat := randomInput(t, seed)
		cc := ClockCondition{Graph: g, Node: node, Latency: lat, Parallel: 2}
		c := cc.Counts(times, nil)
		was := c.Violations(g)
		moved := make([][2]int, len(times))
		for li, ts := range times {
			if len(ts) == 0 || rng.IntN(3) > 0 {
				continue
			}
			lo := rng.IntN(len(ts))
			hi := lo + 1 + rng.IntN(len(ts)-lo)
			for j := lo; j < hi; j++ {
				ts[j] += rng.Int64N(41) - 20
			}
			moved[li] = [2]int{lo, hi}
		}
		got := cc.Recount(c, times, moved).Violations(g)
		require.Equal(t, cc.Violations(times), got, "seed %d", seed)
		require.Equal(t, was, c.Violations(g), "seed %d: the counts recounted from", seed)
	}
}
