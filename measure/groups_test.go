package measure

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/replay"
)

// groupCounts are the counts of one instance by pair of groups, and the
// violations into each receive (by location and event).
type groupCounts struct {
	messages, violations []int64
	violated             map[[2]uint32]int64
}

func newGroupCounts(k int) *groupCounts {
	return &groupCounts{messages: make([]int64, k*k), violations: make([]int64, k*k), violated: map[[2]uint32]int64{}}
}

// GroupCounter counts, for every pair of groups and every receive, exactly
// what a brute-force pass over every logical pair counts, for groupings
// by node, by location, at random and in one group; its sums over the MPI
// instances are ClockCondition's collective counts.
func TestGroupCounterBruteForce(t *testing.T) {
	for seed := 0; seed < 300; seed++ {
		rng, times, g, node, lat := randomInput(t, seed)
		n := len(node)
		k := n + 3 // groups, some without a location
		groupings := map[string][]int32{"node": node, "location": make([]int32, n),
			"random": make([]int32, n), "one": make([]int32, n)}
		for l := range node {
			groupings["location"][l], groupings["random"][l] = int32(l), rng.Int32N(3)
		}
		cc := ClockCondition{Graph: g, Node: node, Latency: lat, Parallel: 1}.Violations(times)
		for name, group := range groupings {
			c := NewGroupCounter(node, group, k)
			var sum MessageStats
			for i := range g.Instances {
				want := bruteForceByGroup(times, g, uint32(i), node, group, k, lat)
				got := newGroupCounts(k)
				c.CountInstance(times, g, uint32(i), lat, got.messages, got.violations, func(recv replay.Part, v int64) {
					k := [2]uint32{uint32(recv.Loc), recv.Recv}
					require.NotContains(t, got.violated, k)
					got.violated[k] = v
				})
				require.Equal(t, want, got, "seed %d, %s, instance %d", seed, name, i)
				if g.Instances[i].Kind != 0 {
					continue // counted among the shared-memory relations
				}
				for k := range got.messages {
					sum.Messages += got.messages[k]
					sum.Violations += got.violations[k]
				}
			}
			require.Equal(t, cc.Collective.Messages, sum.Messages, "seed %d, %s", seed, name)
			require.Equal(t, cc.Collective.Violations, sum.Violations, "seed %d, %s", seed, name)
		}
	}
}

// bruteForceByGroup enumerates the logical pairs of instance i.
func bruteForceByGroup(times [][]int64, g *replay.Graph, i uint32, node, group []int32, k int, lat replay.Latency) *groupCounts {
	counts := newGroupCounts(k)
	parts := g.InstanceParts(i)
	lat = lat.ForSync(g.Instances[i].Kind)
	scan := g.Instances[i].Class == replay.ClassScan
	for ri, r := range parts {
		for si, s := range parts {
			if si == ri || s.Send == replay.NoEvent || r.Recv == replay.NoEvent || scan && si > ri {
				continue
			}
			pair := int(group[s.Loc])*k + int(group[r.Loc])
			counts.messages[pair]++
			if times[r.Loc][r.Recv] < times[s.Loc][s.Send]+lat.Between(node[s.Loc], node[r.Loc]) {
				counts.violations[pair]++
				counts.violated[[2]uint32{uint32(r.Loc), r.Recv}]++
			}
		}
	}
	return counts
}
