package scalestudy

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/partition"
	"github.com/clc-tools/clc/replay"
)

// pingPong is a graph of two locations that exchange msgs messages, each
// answering the last: location 0 sends first. Each location has msgs
// events, all sends and receives.
func pingPong(msgs int) (*replay.Graph, []int64) {
	g := &replay.Graph{Deps: make([][]replay.Dep, 2)}
	for m := range msgs {
		from, to := m%2, 1-m%2
		idx := uint32(m) // the m-th event of both: the sender's m-th, the receiver's m-th
		g.Deps[from] = append(g.Deps[from], replay.Dep{Idx: idx, Role: replay.RoleSend, Peer: int32(to), Ref: idx})
		g.Deps[to] = append(g.Deps[to], replay.Dep{Idx: idx, Role: replay.RoleRecv, Peer: int32(from), Ref: idx})
	}
	g.Messages = int64(msgs)
	return g, []int64{int64(msgs), int64(msgs)}
}

// A chain of messages between two parts needs a superstep per crossing,
// and nothing overlaps: every superstep replays one part's events. In one
// part it is one superstep with nothing exchanged.
func TestRoundsPingPong(t *testing.T) {
	for _, msgs := range []int{1, 2, 7} {
		g, ev := pingPong(msgs)
		r, err := forwardRounds(g, ev, []int32{0, 1}, 2, nil)
		require.NoError(t, err)
		assert.Equal(t, msgs+1, r.Supersteps)
		assert.Equal(t, int64(msgs*TimeBytes), r.Bytes)
		assert.Equal(t, int64(TimeBytes), r.RoundBytesMax)
		assert.Equal(t, int64(msgs), r.Messages)
		assert.Equal(t, 1, r.PeersMax)
		assert.Equal(t, int64(2*msgs), r.CriticalEvents, "a chain: no superstep replays both parts")
		assert.Equal(t, int64(msgs), r.WorkMax)

		one, err := forwardRounds(g, ev, []int32{0, 0}, 2, nil)
		require.NoError(t, err)
		assert.Equal(t, Rounds{Supersteps: 1, CriticalEvents: int64(2 * msgs), WorkMax: int64(2 * msgs)}, *one)
	}
}

// Two independent pairs: split along the pairs nothing crosses and the
// parts replay side by side; split across them, one exchange.
func TestRoundsPairs(t *testing.T) {
	g := &replay.Graph{Deps: [][]replay.Dep{
		{{Idx: 2, Role: replay.RoleSend, Peer: 1, Ref: 1}},
		{{Idx: 1, Role: replay.RoleRecv, Peer: 0, Ref: 2}},
		{{Idx: 0, Role: replay.RoleSend, Peer: 3, Ref: 4}},
		{{Idx: 4, Role: replay.RoleRecv, Peer: 2, Ref: 0}},
	}}
	ev := []int64{3, 5, 2, 6}
	along, err := forwardRounds(g, ev, []int32{0, 0, 1, 1}, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, along.Supersteps)
	assert.Equal(t, int64(8), along.CriticalEvents) // max(3+5, 2+6)
	across, err := forwardRounds(g, ev, []int32{0, 1, 0, 1}, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, across.Supersteps)
	assert.Equal(t, int64(2*TimeBytes), across.Bytes)
	assert.Equal(t, 1, across.PeersMax)
	// Superstep 0: part 0 replays locations 0 and 2 (5 events), part 1
	// location 1 up to its receive (1) and location 3 (4): 5. Superstep 1:
	// part 1 replays the rest, 4 + 2 = 6.
	assert.Equal(t, int64(11), across.CriticalEvents)
	_, err = forwardRounds(g, ev[:3], []int32{0, 1, 0, 1}, 2, nil)
	assert.Error(t, err)
}

// A barrier across parts: one exchange, the instance in the allreduce.
func TestRoundsCollective(t *testing.T) {
	g := &replay.Graph{Deps: make([][]replay.Dep, 4),
		Instances: []replay.Instance{{Class: replay.ClassBarrier, First: 0, N: 4, Senders: 4}}}
	for li := range 4 {
		g.Parts = append(g.Parts, replay.Part{Loc: int32(li), Send: 0, Recv: 1})
		g.Deps[li] = []replay.Dep{{Idx: 0, Role: replay.RoleCollSend, Peer: int32(li), Ref: 0}, {Idx: 1, Role: replay.RoleCollRecv, Peer: int32(li), Ref: 0}}
	}
	ev := []int64{2, 2, 2, 2}
	r, err := forwardRounds(g, ev, []int32{0, 0, 1, 1}, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, r.Supersteps)
	assert.Equal(t, int64(1), r.Instances)
	assert.Equal(t, int64(AggBytes), r.Bytes)
	one, err := forwardRounds(g, ev, []int32{0, 0, 0, 0}, 2, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, one.Supersteps)
	assert.Zero(t, one.Instances)
}

// supersteps is an independent oracle of the supersteps: the least fixed
// point of "each logical send or receive no earlier than its predecessor,
// a receive no earlier than its sends (plus one across parts)", found by
// sweeping the locations until nothing changes.
func supersteps(g *replay.Graph, part []int32) [][]int64 {
	val := make([][]int64, len(g.Deps))
	for li, deps := range g.Deps {
		val[li] = make([]int64, len(deps))
	}
	at := func(li int, idx uint32) int64 {
		k, _ := slices.BinarySearchFunc(g.Deps[li], idx, func(d replay.Dep, i uint32) int {
			return int(d.Idx) - int(i)
		})
		return val[li][k]
	}
	cross := func(a, b int32) int64 {
		if part[a] != part[b] {
			return 1
		}
		return 0
	}
	for changed := true; changed; {
		changed = false
		for li, deps := range g.Deps {
			var cur int64
			for k, d := range deps {
				v := cur
				if k > 0 && deps[k-1].Idx == d.Idx {
					v = max(v, val[li][k-1])
				}
				switch d.Role {
				case replay.RoleRecv, replay.RoleSyncRecv:
					v = max(v, at(int(d.Peer), d.Ref)+cross(d.Peer, int32(li)))
				case replay.RoleCollRecv:
					in := &g.Instances[d.Ref]
					for r, p := range g.InstanceParts(d.Ref) {
						if p.Send == replay.NoEvent || int(p.Loc) == li || in.Class == replay.ClassScan && int32(r) >= d.Peer {
							continue
						}
						v = max(v, at(int(p.Loc), p.Send)+cross(p.Loc, int32(li)))
					}
				}
				// the roles of one event share its value
				for j := k; j >= 0 && deps[j].Idx == d.Idx; j-- {
					if val[li][j] < v {
						val[li][j], changed = v, true
					}
				}
				cur = v
			}
		}
	}
	return val
}

// On random traces the replay engine's supersteps are the fixed point's,
// and one part needs one superstep and exchanges nothing.
func TestRoundsAgainstFixedPoint(t *testing.T) {
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 9))
		tr, _ := tracetest.Random(rng, tracetest.Config{Locations: 12, Nodes: 4, Ops: 300, Latency: 20, Offset: 50, Drift: 1e-4, Init: true})
		g, err := replay.Match(tr, nil)
		require.NoError(t, err)
		ev := make([]int64, len(tr.Locations))
		for li, l := range tr.Locations {
			ev[li] = int64(l.Events.Len())
		}
		for _, part := range [][]int32{randomParts(rng, 12, 3), randomParts(rng, 12, 12)} {
			r, err := forwardRounds(g, ev, part, 2, nil)
			require.NoError(t, err)
			want := supersteps(g, part)
			var last int64
			for li := range want {
				for _, v := range want[li] {
					last = max(last, v)
				}
			}
			assert.Equal(t, int(last)+1, r.Supersteps, "seed %d", seed)
		}
		one, err := forwardRounds(g, ev, make([]int32, 12), 2, nil)
		require.NoError(t, err)
		assert.Equal(t, 1, one.Supersteps)
		assert.Zero(t, one.Bytes)
		assert.Equal(t, tr.NumEvents(), one.CriticalEvents)
	}
}

func randomParts(rng *rand.Rand, n, parts int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i % parts)
	}
	rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// Measure's oracles: one part crosses nothing; with every location a part
// of its own every message and every collective's logical message
// crosses; totals do not depend on the plan; a domain split between parts
// ships its offset records.
func TestMeasure(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tr, _ := tracetest.Random(rng, tracetest.Config{Locations: 16, Nodes: 4, Ops: 600, Latency: 20, Init: true})
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	n := len(tr.Locations)
	in := &Input{Graph: g, Node: make([]int32, n), Domain: make([]int32, n), Events: make([]int64, n), Offsets: make([]int, n), Parallel: 2}
	for li, l := range tr.Locations {
		in.Node[li], in.Domain[li], in.Events[li], in.Offsets[li] = int32(li), int32(li), int64(l.Events.Len()), 2
	}
	one, err := Measure(in, &partition.Plan{Scheme: partition.Block, Parts: 1, Of: make([]int32, n)}, nil)
	require.NoError(t, err)
	assert.Equal(t, g.Messages, one.Messages)
	assert.Equal(t, tr.NumEvents(), one.Events)
	assert.Zero(t, one.MessagesCrossing+one.InstancesCrossing+one.LogicalCrossing+one.SendTimesBytes+one.MatchBytes+one.ExtremesBytes+one.PresyncBytes)
	assert.Equal(t, 1, one.Forward.Supersteps)
	assert.Nil(t, one.Model)

	apart, err := partition.NewPlan(partition.Cyclic, n, in.Node, in.Events, g)
	require.NoError(t, err)
	all, err := Measure(in, apart, nil)
	require.NoError(t, err)
	assert.Equal(t, all.Messages, all.MessagesCrossing)
	assert.Equal(t, all.Instances, all.InstancesCrossing)
	assert.Equal(t, g.LogicalMessages, all.LogicalCrossing, "every logical message crosses")
	assert.Equal(t, one.Messages, all.Messages)
	assert.Equal(t, one.Instances, all.Instances)
	assert.Equal(t, one.Events, all.Events)
	assert.Equal(t, all.MessagesCrossing*MatchBytes, all.MatchBytes)
	assert.Greater(t, all.Forward.Supersteps, 1)
	assert.Zero(t, all.DomainsSplit)

	// Locations 0 and 1 share a domain; a plan that parts them splits it.
	in.Domain[1] = 0
	p := &partition.Plan{Scheme: partition.Block, Parts: 2, Of: make([]int32, n)}
	p.Of[1] = 1
	split, err := Measure(in, p, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, split.DomainsSplit)
	assert.Equal(t, int64(2*OffsetBytes), split.PresyncBytes)

	_, err = Measure(in, &partition.Plan{Parts: 1, Of: make([]int32, n-1)}, nil)
	assert.Error(t, err)
}
