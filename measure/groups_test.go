package measure

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/replay"
)

// groupKey is one receive and the group of its senders.
type groupKey struct {
	loc  int32
	recv uint32
	from int32
}

// GroupCounter counts, for every receive and group of senders, exactly
// what a brute-force pass over every logical pair counts, for groupings
// by node, by location, at random and in one group; its sums over the MPI
// instances are ClockCondition's collective counts.
func TestGroupCounterBruteForce(t *testing.T) {
	for seed := 0; seed < 300; seed++ {
		rng, times, g, node, lat := randomInput(t, seed)
		groupings := map[string][]int32{"node": node, "location": make([]int32, len(node)),
			"random": make([]int32, len(node)), "one": make([]int32, len(node))}
		for l := range node {
			groupings["location"][l], groupings["random"][l] = int32(l), rng.Int32N(3)
		}
		cc := ClockCondition(times, g, node, lat, 1)
		for name, group := range groupings {
			c := NewGroupCounter(node, group)
			var sum MessageStats
			for i := range g.Instances {
				want := bruteForceByGroup(times, g, uint32(i), node, group, lat)
				got := map[groupKey][2]int64{}
				c.CountInstance(times, g, uint32(i), lat, func(recv replay.Part, from int32, messages, violations int64) {
					k := groupKey{recv.Loc, recv.Recv, from}
					require.NotContains(t, got, k)
					got[k] = [2]int64{messages, violations}
				})
				require.Equal(t, want, got, "seed %d, %s, instance %d", seed, name, i)
				if g.Instances[i].Kind != 0 {
					continue // counted among the shared-memory relations
				}
				for _, n := range got {
					sum.Messages += n[0]
					sum.Violations += n[1]
				}
			}
			require.Equal(t, cc.Collective.Messages, sum.Messages, "seed %d, %s", seed, name)
			require.Equal(t, cc.Collective.Violations, sum.Violations, "seed %d, %s", seed, name)
		}
	}
}

// bruteForceByGroup enumerates the logical pairs of instance i.
func bruteForceByGroup(times [][]int64, g *replay.Graph, i uint32, node, group []int32, lat replay.Latency) map[groupKey][2]int64 {
	counts := map[groupKey][2]int64{}
	parts := g.InstanceParts(i)
	lat = lat.ForSync(g.Instances[i].Kind)
	scan := g.Instances[i].Class == replay.ClassScan
	for ri, r := range parts {
		for si, s := range parts {
			if si == ri || s.Send == replay.NoEvent || r.Recv == replay.NoEvent || scan && si > ri {
				continue
			}
			k := groupKey{r.Loc, r.Recv, group[s.Loc]}
			n := counts[k]
			n[0]++
			if times[r.Loc][r.Recv] < times[s.Loc][s.Send]+lat.Between(node[s.Loc], node[r.Loc]) {
				n[1]++
			}
			counts[k] = n
		}
	}
	return counts
}
