package partition

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/replay"
)

// Plans keep nodes whole, fill every part, and Block cuts contiguous
// runs of about equal events; Comm never cuts more messages than Block.
func TestPlans(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tr, _ := tracetest.Random(rng, tracetest.Config{Locations: 40, Nodes: 10, Ops: 800, Latency: 20, Init: true})
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	node := make([]int32, len(tr.Locations))
	ev := make([]int64, len(tr.Locations))
	for li, l := range tr.Locations {
		node[li], ev[li] = l.Node, int64(l.Events.Len())
	}
	cut := func(p *Plan) int64 {
		var n int64
		for li, deps := range g.Deps {
			for _, d := range deps {
				if d.Role == replay.RoleSend && p.Of[d.Peer] != p.Of[li] {
					n++
				}
			}
		}
		return n
	}
	nodes := slices.Clone(node)
	slices.Sort(nodes)
	nodes = slices.Compact(nodes)
	for _, parts := range []int{1, 3, len(nodes)} {
		plans := map[Scheme]*Plan{}
		for _, s := range Schemes {
			p, err := NewPlan(s, parts, node, ev, g)
			require.NoError(t, err)
			plans[s] = p
			seen := make([]bool, parts)
			partOfNode := map[int32]int32{}
			for li, k := range p.Of {
				seen[k] = true
				if q, ok := partOfNode[node[li]]; ok {
					assert.Equal(t, q, k, "%s: node %d split", s, node[li])
				}
				partOfNode[node[li]] = k
			}
			assert.NotContains(t, seen, false, "%s, %d parts: an empty part", s, parts)
		}
		// Block: the parts follow the nodes' order.
		var last int32
		for _, n := range nodes {
			k := plans[Block].Of[slices.Index(node, n)]
			assert.GreaterOrEqual(t, k, last)
			last = k
		}
		assert.LessOrEqual(t, cut(plans[Comm]), cut(plans[Block]))
	}
	_, err = NewPlan(Block, len(nodes)+1, node, ev, g)
	assert.Error(t, err, "more parts than nodes")
	_, err = NewPlan("nope", 2, node, ev, g)
	assert.Error(t, err)
}
