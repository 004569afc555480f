package scalestudy

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/replay"
)

// dividedRounds runs the replay of supersteps (roundStep) with the real
// divided engine (replay.Divided) on parts processes of a comm.Local
// group, each holding its own copy of the columns, and returns every
// location's column from its own process and each process's statistics.
func dividedRounds(t *testing.T, g *replay.Graph, events []int64, part []int32, parts int) ([][]int64, []replay.SuperstepStats) {
	t.Helper()
	n := len(g.Deps)
	out := make([][]int64, n)
	stats := make([]replay.SuperstepStats, parts)
	errs := comm.RunLocal(parts, func(c comm.Comm) error {
		r := c.Rank()
		cols := make([][]int64, n)
		for li := range cols {
			cols[li] = make([]int64, events[li])
		}
		x := replay.NewShared(g, cols, part, nil, replay.Latency{Intra: 0, Inter: 1, Shared: 0})
		d, err := replay.NewDivided(x, c, part)
		if err != nil {
			return err
		}
		steps := make([]roundStep, n)
		for li := range steps {
			steps[li] = roundStep{li: li, deps: g.Deps[li], col: cols[li]}
		}
		if err := d.Run(context.Background(), 2, func(li int) (bool, error) { return steps[li].step(d) }); err != nil {
			return err
		}
		for li := range cols {
			if part[li] == int32(r) {
				out[li] = cols[li]
			}
		}
		stats[r] = d.Stats
		return nil
	})
	for r, err := range errs {
		assert.NoError(t, err, "process %d", r)
	}
	return out, stats
}

// crossingSends counts the point-to-point and one-to-one sends whose
// receiver is in another part.
func crossingSends(g *replay.Graph, part []int32) int64 {
	var n int64
	for li, deps := range g.Deps {
		for _, d := range deps {
			if (d.Role == replay.RoleSend || d.Role == replay.RoleSyncSend) && part[d.Peer] != part[li] {
				n++
			}
		}
	}
	return n
}

// contributions counts the collective contributions a divided replay
// sends: per instance with members in several parts, each part with a
// sender sends every other part with a member one record (its members'
// aggregates), or, in a scan, one per sender.
func contributions(g *replay.Graph, part []int32) int64 {
	var n int64
	for i := range g.Instances {
		senders := map[int32]int64{}
		members := map[int32]bool{}
		for _, p := range g.InstanceParts(uint32(i)) {
			members[part[p.Loc]] = true
			if p.Send != replay.NoEvent {
				senders[part[p.Loc]]++
			}
		}
		for _, k := range senders {
			if g.Instances[i].Class != replay.ClassScan {
				k = 1
			}
			n += k * int64(len(members)-1)
		}
	}
	return n
}

// The real divided replay (replay.Divided over comm.Local) runs as many
// supersteps as the simulation (forwardRounds) counts, gives every
// logical send and receive the simulation's superstep, and sends every
// crossing send's time once and a process's members' contributions to an
// instance as one record per other process with members (per member in
// a scan: contributions); on random traces (hybrid among them, with
// scans, whose rank r goes on once the ranks below it contributed) at 2,
// 3 and 4 processes holding whole nodes, and on a happened-before cycle,
// whose waits it gives up as the one-process engine does, two supersteps
// later.
func TestDividedReplayIsRounds(t *testing.T) {
	type tcase struct {
		name string
		g    *replay.Graph
		ev   []int64
		node []int32
	}
	var cases []tcase
	scans := 0
	for seed := range uint64(4) {
		cfg := tracetest.Config{Locations: 12, Nodes: 4, Ops: 300, Latency: 20, Init: true}
		if seed%2 == 1 {
			cfg = tracetest.Config{Locations: 6, Nodes: 3, Ops: 200, Latency: 20, Threads: 3, Init: true}
		}
		tr, _ := tracetest.Random(rand.New(rand.NewPCG(seed, 11)), cfg)
		g, err := replay.Match(tr, nil)
		require.NoError(t, err)
		for _, in := range g.Instances {
			if in.Class == replay.ClassScan {
				scans++
			}
		}
		ev := make([]int64, len(tr.Locations))
		node := make([]int32, len(tr.Locations))
		for li, l := range tr.Locations {
			ev[li], node[li] = int64(l.Events.Len()), l.Node
		}
		cases = append(cases, tcase{fmt.Sprintf("seed %d", seed), g, ev, node})
	}
	require.Positive(t, scans, "scan instances in the random traces")
	// A cycle: each of two locations receives the other's later send.
	cycle := &replay.Graph{Deps: [][]replay.Dep{
		{{Idx: 0, Role: replay.RoleRecv, Peer: 1, Ref: 1}, {Idx: 1, Role: replay.RoleSend, Peer: 1, Ref: 0}},
		{{Idx: 0, Role: replay.RoleRecv, Peer: 0, Ref: 1}, {Idx: 1, Role: replay.RoleSend, Peer: 0, Ref: 0}},
	}}
	cases = append(cases, tcase{"cycle", cycle, []int64{2, 2}, []int32{0, 1}})
	rng := rand.New(rand.NewPCG(5, 5))
	for _, c := range cases {
		n := len(c.g.Deps)
		for _, parts := range []int{2, 3, 4} {
			// Whole nodes (a process's threads together), dealt at random.
			nodes := int(slices.Max(c.node)) + 1
			parts = min(parts, nodes)
			of := randomParts(rng, nodes, parts)
			part := make([]int32, n)
			for li, nd := range c.node {
				part[li] = of[nd]
			}
			what := fmt.Sprintf("%s, %d processes", c.name, parts)
			want := make([][]int64, n)
			for li := range want {
				want[li] = make([]int64, c.ev[li])
			}
			r, err := forwardRounds(c.g, c.ev, part, 2, want)
			require.NoError(t, err, what)
			got, stats := dividedRounds(t, c.g, c.ev, part, parts)
			steps := r.Supersteps
			if c.name == "cycle" {
				// Finding it stuck takes a superstep in which the blocked
				// locations ran and one in which nothing ran.
				steps += 2
			}
			var times, contr int64
			for p, s := range stats {
				assert.Equal(t, steps, s.Supersteps, "%s: process %d's supersteps", what, p)
				times += s.Times
				contr += s.Contributions
			}
			assert.Equal(t, crossingSends(c.g, part), times, "%s: crossing send times sent", what)
			assert.Equal(t, contributions(c.g, part), contr, "%s: collective contributions sent", what)
			for li, deps := range c.g.Deps {
				for _, d := range deps {
					if !assert.Equal(t, want[li][d.Idx], got[li][d.Idx], "%s: location %d event %d's superstep", what, li, d.Idx) {
						break
					}
				}
			}
			if c.name != "cycle" {
				assert.Greater(t, r.Supersteps, 1, "%s: messages cross", what)
			}
		}
	}
}
