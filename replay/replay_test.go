package replay

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/trace"
)

func twoLocs(n int) *trace.Trace {
	tr := &trace.Trace{Resolution: 1e9, Regions: []trace.Region{{Name: "MPI_Init"}, {Name: "MPI_Finalize"}, {Name: "x"}}}
	w := trace.Comm{Name: "MPI_COMM_WORLD"}
	for i := 0; i < n; i++ {
		tr.Nodes = append(tr.Nodes, trace.Node{})
		tr.Locations = append(tr.Locations, &trace.Location{Node: int32(i)})
		w.Members = append(w.Members, int32(i))
	}
	tr.Comms = []trace.Comm{w}
	return tr
}

func deps(g *Graph, loc int) map[uint32]Dep {
	m := map[uint32]Dep{}
	for _, d := range g.Deps[loc] {
		m[d.Idx] = d
	}
	return m
}

// Receives are matched in the order they were posted, not completed: two
// irecvs posted r1, r2 and completed r2, r1 get the first and the second
// send respectively.
func TestMatchByPostingOrder(t *testing.T) {
	tr := twoLocs(2)
	s := &tr.Locations[0].Events
	s.AppendMsg(trace.KindSend, 10, trace.Message{Peer: 1, Tag: 5}) // event 0
	s.AppendMsg(trace.KindSend, 20, trace.Message{Peer: 1, Tag: 5}) // event 1
	r := &tr.Locations[1].Events
	r.AppendReq(trace.KindIrecvRequest, 1, 100)                                    // event 0: post r1
	r.AppendReq(trace.KindIrecvRequest, 2, 200)                                    // event 1: post r2
	r.AppendMsg(trace.KindIrecv, 30, trace.Message{Peer: 0, Tag: 5, Request: 200}) // event 2: r2 completes
	r.AppendMsg(trace.KindIrecv, 31, trace.Message{Peer: 0, Tag: 5, Request: 100}) // event 3: r1 completes
	require.NoError(t, tr.Validate())
	g, err := Match(tr, nil)
	require.NoError(t, err)
	d := deps(g, 1)
	assert.Equal(t, Dep{Idx: 2, Role: RoleRecv, Peer: 0, Ref: 1}, d[2], "r2 gets the second send")
	assert.Equal(t, Dep{Idx: 3, Role: RoleRecv, Peer: 0, Ref: 0}, d[3], "r1 gets the first send")
	ds := deps(g, 0)
	assert.Equal(t, uint32(3), ds[0].Ref)
	assert.Equal(t, uint32(2), ds[1].Ref)
	assert.Equal(t, int64(2), g.Messages)
	assert.Zero(t, g.Issues.Total())
}

// Matching is per (communicator, tag) channel, in order within each.
func TestMatchChannels(t *testing.T) {
	tr := twoLocs(2)
	tr.Comms = append(tr.Comms, trace.Comm{Name: "dup", Members: []int32{1, 0}})
	s := &tr.Locations[0].Events
	s.AppendMsg(trace.KindSend, 1, trace.Message{Peer: 1, Tag: 1})          // 0: world tag 1
	s.AppendMsg(trace.KindSend, 2, trace.Message{Peer: 0, Comm: 1, Tag: 1}) // 1: dup (rank 0 there is location 1)
	s.AppendMsg(trace.KindSend, 3, trace.Message{Peer: 1, Tag: 2})          // 2: world tag 2
	r := &tr.Locations[1].Events
	r.AppendMsg(trace.KindRecv, 5, trace.Message{Peer: 0, Tag: 2})          // 0 ← 2
	r.AppendMsg(trace.KindRecv, 6, trace.Message{Peer: 1, Comm: 1, Tag: 1}) // 1 ← 1
	r.AppendMsg(trace.KindRecv, 7, trace.Message{Peer: 0, Tag: 1})          // 2 ← 0
	r.AppendMsg(trace.KindRecv, 8, trace.Message{Peer: 0, Tag: 1})          // 3: unmatched
	require.NoError(t, tr.Validate())
	g, err := Match(tr, nil)
	require.NoError(t, err)
	d := deps(g, 1)
	assert.Equal(t, uint32(2), d[0].Ref)
	assert.Equal(t, uint32(1), d[1].Ref)
	assert.Equal(t, uint32(0), d[2].Ref)
	_, has := d[3]
	assert.False(t, has, "the unmatched receive is internal")
	assert.Equal(t, int64(1), g.Issues.Count[UnmatchedRecv])
	assert.Equal(t, int64(3), g.Messages)
}

func collTrace(ops [][]trace.CollOp) *trace.Trace {
	tr := twoLocs(len(ops))
	for li, list := range ops {
		ev := &tr.Locations[li].Events
		for k, op := range list {
			ev.AppendCollBegin(int64(10 * k))
			ev.AppendColl(trace.KindCollEnd, int64(10*k+5), trace.Collective{Op: op, Root: 0, Sent: 4, Received: 4})
		}
	}
	return tr
}

func TestCollectiveInstances(t *testing.T) {
	ar, bc := trace.OpAllreduce, trace.OpBcast
	tr := collTrace([][]trace.CollOp{{ar, bc, ar}, {ar, bc, ar}, {ar, bc}})
	require.NoError(t, tr.Validate())
	g, err := Match(tr, nil)
	require.NoError(t, err)
	require.Len(t, g.Instances, 2, "the third allreduce is missing on location 2")
	assert.Equal(t, int64(1), g.Issues.Count[IncompleteCollective])
	assert.Equal(t, ClassNToN, g.Instances[0].Class)
	assert.Equal(t, ClassOneToN, g.Instances[1].Class)
	// Bcast: only the root sends, only the others receive.
	parts := g.InstanceParts(1)
	assert.NotEqual(t, NoEvent, parts[0].Send)
	assert.Equal(t, NoEvent, parts[0].Recv)
	assert.Equal(t, NoEvent, parts[1].Send)
	assert.NotEqual(t, NoEvent, parts[1].Recv)
	// Logical messages: allreduce 3·2 pairs, bcast 2.
	assert.Equal(t, int64(8), g.LogicalMessages)

	bad := collTrace([][]trace.CollOp{{ar}, {bc}})
	g, err = Match(bad, nil)
	require.NoError(t, err)
	assert.Empty(t, g.Instances)
	assert.Equal(t, int64(1), g.Issues.Count[InconsistentCollective])

	v := collTrace([][]trace.CollOp{{trace.OpAlltoallv}, {trace.OpAlltoallv}})
	g, err = Match(v, nil)
	require.NoError(t, err)
	assert.Empty(t, g.Instances)
	assert.Equal(t, int64(1), g.Ignored)
	assert.Zero(t, g.Issues.Total())
	g, err = Match(v, &MatchOptions{Alltoallv: AlltoallvNToN})
	require.NoError(t, err)
	assert.Len(t, g.Instances, 1)
}

func TestInitFinalizeBarrier(t *testing.T) {
	tr := twoLocs(3)
	for li := 0; li < 3; li++ {
		ev := &tr.Locations[li].Events
		ev.AppendRegion(trace.KindEnter, 1, 0)
		ev.AppendRegion(trace.KindLeave, 2, 0)
		ev.AppendRegion(trace.KindEnter, 3, 1)
		if li != 2 {
			ev.AppendRegion(trace.KindLeave, 4, 1)
		}
	}
	g, err := Match(tr, nil)
	require.NoError(t, err)
	require.Len(t, g.Instances, 1, "MPI_Init only: MPI_Finalize was not left on location 2")
	assert.Equal(t, ClassBarrier, g.Instances[0].Class)
	assert.Equal(t, int64(1), g.Issues.Count[UnpairedRegion])
}

// A cycle in the happened-before relation (each location receives the
// other's later send first) must not hang: both dependencies are dropped.
func TestCycleIsDroppedNotHung(t *testing.T) {
	tr := twoLocs(2)
	for li := 0; li < 2; li++ {
		ev := &tr.Locations[li].Events
		ev.AppendMsg(trace.KindRecv, 1, trace.Message{Peer: uint32(1 - li)})
		ev.AppendMsg(trace.KindSend, 2, trace.Message{Peer: uint32(1 - li)})
	}
	g, err := Match(tr, nil)
	require.NoError(t, err)
	times := [][]int64{make([]int64, 2), make([]int64, 2)}
	x := NewShared(g, times, []int32{0, 1}, nil, Latency{Intra: 1, Inter: 1})
	dropped := make([]int, 2)
	next := make([]int, 2) // resumable steps: the next dependency
	done := make(chan error)
	go func() {
		done <- Run(x, 2, 2, func(li int) (bool, error) {
			for ; next[li] < len(g.Deps[li]); next[li]++ {
				d := g.Deps[li][next[li]]
				switch d.Role {
				case RoleRecv:
					_, st := x.AwaitSend(li, d.Peer, d.Ref, false)
					if st == Blocked {
						return false, nil
					}
					if st == GaveUp {
						dropped[li]++
					}
				case RoleSend:
					x.Sent(li, d.Idx, 0)
				}
			}
			return true, nil
		})
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
		assert.Equal(t, []int{1, 1}, dropped)
	case <-time.After(10 * time.Second):
		require.FailNow(t, "replay hung on a cyclic trace")
	}
}

// An error in one location stops the replay instead of hanging.
func TestErrorStopsReplay(t *testing.T) {
	tr := twoLocs(2)
	tr.Locations[0].Events.AppendMsg(trace.KindSend, 1, trace.Message{Peer: 1})
	tr.Locations[1].Events.AppendMsg(trace.KindRecv, 2, trace.Message{Peer: 0})
	g, err := Match(tr, nil)
	require.NoError(t, err)
	x := NewShared(g, [][]int64{{0}, {0}}, []int32{0, 0}, nil, Latency{})
	done := make(chan error)
	go func() {
		done <- Run(x, 2, 1, func(li int) (bool, error) {
			if li == 0 {
				return false, assert.AnError
			}
			_, st := x.AwaitSend(1, 0, 0, false)
			return st != Blocked, nil
		})
	}()
	select {
	case err := <-done:
		require.ErrorIs(t, err, assert.AnError)
	case <-time.After(10 * time.Second):
		require.FailNow(t, "replay hung after an error")
	}
}

// A step that returns without finishing or waiting is an internal error,
// not a hang.
func TestLostStepIsAnError(t *testing.T) {
	tr := twoLocs(1)
	g, err := Match(tr, nil)
	require.NoError(t, err)
	x := NewShared(g, [][]int64{{}}, []int32{0}, nil, Latency{})
	err = Run(x, 1, 2, func(int) (bool, error) { return false, nil })
	require.ErrorContains(t, err, "internal error")
}

// Agg.For equals the brute-force maximum over the other members, and
// LatestTime and LatestOff the latest other member and the latest member
// on another node.
func TestAggMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 20000; it++ {
		n := 1 + rng.IntN(8)
		lat := Latency{Intra: rng.Int64N(5), Inter: 0}
		lat.Inter = lat.Intra + rng.Int64N(5)
		vals := make([]int64, n)
		nodes := make([]int32, n)
		in := make([]bool, n)
		a := NewAgg()
		for i := range vals {
			vals[i] = rng.Int64N(20)
			nodes[i] = int32(rng.IntN(3))
			in[i] = rng.IntN(4) != 0
			if in[i] {
				a.Add(vals[i], int32(i), nodes[i])
			}
		}
		for r := 0; r < n; r++ {
			want, has := int64(NoTime), false
			for s := 0; s < n; s++ {
				if s != r && in[s] {
					want = max(want, vals[s]+lat.Between(nodes[s], nodes[r]))
					has = true
				}
			}
			got, ok := a.For(int32(r), nodes[r], lat)
			require.Equal(t, has, ok)
			if has {
				require.Equal(t, want, got, "iteration %d receiver %d", it, r)
			}
			// The latest other member, and the latest on another node.
			other, off := int64(NoTime), int64(NoTime)
			for s := 0; s < n; s++ {
				if in[s] && s != r {
					other = max(other, vals[s])
				}
				if in[s] && nodes[s] != nodes[r] {
					off = max(off, vals[s])
				}
			}
			v, ok := a.LatestTime(int32(r))
			require.Equal(t, other != NoTime, ok, "iteration %d receiver %d: LatestTime", it, r)
			if ok {
				require.Equal(t, other, v, "iteration %d receiver %d: LatestTime", it, r)
			}
			v, ok = a.LatestOff(nodes[r])
			require.Equal(t, off != NoTime, ok, "iteration %d receiver %d: LatestOff", it, r)
			if ok {
				require.Equal(t, off, v, "iteration %d receiver %d: LatestOff", it, r)
			}
		}
	}
}

// The aggregate of a stream equals, field for field (ties included),
// the aggregate of the candidates of its parts' aggregates taken in the
// stream's order, whatever parts the members fall in (interleaved, as a
// divided replay's processes' members of an instance may be): the merge
// that Shared.complete makes of another process's aggregates.
func TestAggOfPartsCandidatesIsTheWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 20000; it++ {
		n := 1 + rng.IntN(12)
		parts := 1 + rng.IntN(4)
		whole := NewAgg()
		each := make([]Agg, parts)
		for k := range each {
			each[k] = NewAgg()
		}
		vals, nodes := make([]int64, n), make([]int32, n)
		for i := range n {
			vals[i], nodes[i] = rng.Int64N(6), int32(rng.IntN(3)) // many ties
			whole.Add(vals[i], int32(i), nodes[i])
			each[rng.IntN(parts)].Add(vals[i], int32(i), nodes[i])
		}
		var cs []cand
		for k := range each {
			cs = append(cs, each[k].candidates()...)
		}
		slices.SortFunc(cs, func(a, b cand) int { return int(a.loc - b.loc) }) // the stream's order
		merged := NewAgg()
		for _, c := range cs {
			merged.Add(c.v, c.loc, c.node)
		}
		require.Equal(t, whole, merged, "iteration %d: %d members in %d parts, values %v nodes %v", it, n, parts, vals, nodes)
	}
}

// groupBy is a stable sort by key.
func TestGroupByIsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 500; it++ {
		n := rng.IntN(300)
		maxKey := uint32(rng.IntN(70000))
		keys := make([]uint32, n)
		for i := range keys {
			keys[i] = uint32(rng.Int64N(int64(maxKey) + 1))
		}
		got := groupBy(n, func(i int) uint32 { return keys[i] }, maxKey)
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(keys[a], keys[b]) })
		require.Equal(t, want, got, "iteration %d", it)
	}
}

// A scan's rank r goes on once the ranks below it have contributed: here
// rank 2 of a scan waits, before its contribution, for a send that never
// comes (a cycle with location 3), and rank 1 still gets rank 0's time
// (plus μ) at once, while rank 2's wait is given up.
func TestScanRankGoesOnWithTheRanksBelow(t *testing.T) {
	g := &Graph{
		Deps: [][]Dep{
			{{Idx: 0, Role: RoleCollSend, Peer: 0, Ref: 0}, {Idx: 1, Role: RoleCollRecv, Peer: 0, Ref: 0}},
			{{Idx: 0, Role: RoleCollSend, Peer: 1, Ref: 0}, {Idx: 1, Role: RoleCollRecv, Peer: 1, Ref: 0}},
			{{Idx: 0, Role: RoleRecv, Peer: 3, Ref: 1}, {Idx: 1, Role: RoleCollSend, Peer: 2, Ref: 0}, {Idx: 2, Role: RoleCollRecv, Peer: 2, Ref: 0}},
			{{Idx: 0, Role: RoleRecv, Peer: 2, Ref: 3}, {Idx: 1, Role: RoleSend, Peer: 2, Ref: 0}},
		},
		Instances: []Instance{{Comm: 0, Op: trace.OpScan, Class: ClassScan, First: 0, N: 3, Senders: 3}},
		Parts:     []Part{{Loc: 0, Send: 0, Recv: 1}, {Loc: 1, Send: 0, Recv: 1}, {Loc: 2, Send: 1, Recv: 2}},
	}
	g.Deps[2] = append(g.Deps[2], Dep{Idx: 3, Role: RoleSend, Peer: 3, Ref: 0})
	times := [][]int64{{10, 0}, {20, 0}, {0, 30, 0, 0}, {0, 0}}
	x := NewShared(g, times, []int32{0, 1, 2, 3}, nil, Latency{Intra: 5, Inter: 5})
	type seen struct {
		st Status
		v  int64
	}
	got := make([][]seen, 4)
	next := make([]int, 4)
	err := Run(x, 4, 2, func(li int) (bool, error) {
		for ; next[li] < len(g.Deps[li]); next[li]++ {
			d := g.Deps[li][next[li]]
			switch d.Role {
			case RoleRecv:
				v, st := x.AwaitSend(li, d.Peer, d.Ref, false)
				if st == Blocked {
					return false, nil
				}
				got[li] = append(got[li], seen{st, v})
			case RoleCollRecv:
				v, _, _, st := x.AwaitInstance(li, d.Ref, d.Peer)
				if st == Blocked {
					return false, nil
				}
				got[li] = append(got[li], seen{st, v})
			case RoleSend:
				x.Sent(li, d.Idx, times[li][d.Idx])
			case RoleCollSend:
				x.Contribute(li, d.Ref, times[li][d.Idx])
			}
		}
		return true, nil
	})
	require.NoError(t, err)
	assert.Equal(t, []seen{{Ready, 10 + 5}}, got[1], "rank 1: rank 0's time plus μ, without rank 2")
	assert.Equal(t, []seen{{GaveUp, 0}, {Ready, 20 + 5}}, got[2], "rank 2: its wait in the cycle given up, then ranks 0 and 1")
	if assert.Len(t, got[0], 1, "rank 0") {
		assert.Equal(t, Ready, got[0][0].st, "rank 0: no rank below, at once")
	}
}
