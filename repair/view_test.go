package repair

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
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/replay"
)

// A process's view of a divided trace (newView) holds, at every event
// its own receives and the instances it counts reach, the whole trace's
// time; the clock condition measured on every process's view, completed
// through the group, is the whole trace's (measured by one process, the
// oracle), before and after the own columns change and the halo is
// fetched again (refresh); and every point-to-point reference of an own
// location to another process's event (which the CLC follows) is to the
// halo's position of the same event.
func TestViewIsTheWholeTrace(t *testing.T) {
	cfgs := map[string]tracetest.Config{
		"plain":  {Locations: 12, Nodes: 4, Ops: 300, Latency: 200, Offset: 5000, Drift: 1e-4, Init: true},
		"hybrid": {Locations: 6, Nodes: 3, Ops: 150, Latency: 200, Offset: 5000, Drift: 1e-4, Threads: 3, Init: true},
	}
	for name, cfg := range cfgs {
		for seed := range uint64(2) {
			tr, _ := tracetest.Random(rand.New(rand.NewPCG(seed, 17)), cfg)
			g, err := replay.Match(tr, nil)
			require.NoError(t, err)
			whole := make([][]int64, len(tr.Locations))
			node := make([]int32, len(tr.Locations))
			nodes := 0
			for li, l := range tr.Locations {
				whole[li], node[li] = l.Events.Time, l.Node
				nodes = max(nodes, int(l.Node)+1)
			}
			lat := replay.Latency{Intra: 100, Inter: 300}
			want := measure.ClockCondition{Graph: g, Node: node, Latency: lat}.Violations(whole)
			require.Positive(t, want.Total().Violations, "%s seed %d: the trace violates the clock condition", name, seed)
			// Every own time shifted by its location's index: a change the
			// halo must follow.
			shifted := make([][]int64, len(whole))
			for li, ts := range whole {
				shifted[li] = slices.Clone(ts)
				for j := range shifted[li] {
					shifted[li][j] += int64(li * 37)
				}
			}
			wantShifted := measure.ClockCondition{Graph: g, Node: node, Latency: lat}.Violations(shifted)
			for _, np := range []int{2, 3, 4} {
				what := fmt.Sprintf("%s seed %d P=%d", name, seed, np)
				part := make([]int32, len(tr.Locations))
				for li, l := range tr.Locations {
					part[li] = int32(int(l.Node) * np / nodes)
				}
				errs := comm.RunLocal(np, func(c comm.Comm) error {
					gr := comm.NewGroup(context.Background(), c)
					own := func(li int) bool { return part[li] == int32(c.Rank()) }
					times := make([][]int64, len(whole))
					mine := *g // FinishDivided's: the own locations' dependencies only
					mine.Deps = make([][]replay.Dep, len(g.Deps))
					mine.Parts = slices.Clone(g.Parts)
					for li := range whole {
						if own(li) {
							times[li], mine.Deps[li] = slices.Clone(whole[li]), slices.Clone(g.Deps[li])
						}
					}
					v := newView(gr, part, times, &mine, nil)
					require.NoError(t, gr.Err())
					for li, deps := range v.graph.Deps {
						if !own(li) {
							continue
						}
						for k, d := range deps {
							if d.Role == replay.RoleRecv && !own(int(d.Peer)) {
								orig := g.Deps[li][slices.IndexFunc(g.Deps[li], func(x replay.Dep) bool { return x.Idx == d.Idx })]
								assert.Equal(t, whole[d.Peer][orig.Ref], v.times[d.Peer][d.Ref], "%s process %d: location %d dependency %d's send", what, c.Rank(), li, k)
							}
						}
					}
					for ii, counted := range v.counted {
						if !counted {
							continue
						}
						wp, vp := g.InstanceParts(uint32(ii)), v.graph.InstanceParts(uint32(ii))
						require.Len(t, vp, len(wp))
						for k := range wp {
							for _, e := range [2][2]uint32{{wp[k].Send, vp[k].Send}, {wp[k].Recv, vp[k].Recv}} {
								if e[0] != replay.NoEvent {
									assert.Equal(t, whole[wp[k].Loc][e[0]], v.times[vp[k].Loc][e[1]], "%s process %d: instance %d member %d", what, c.Rank(), ii, k)
								}
							}
						}
					}
					cc := measure.ClockCondition{Graph: v.graph, Node: node, Latency: lat, Group: gr, Counted: v.counted}
					assert.Equal(t, want, cc.Violations(v.times), "%s process %d: the clock condition", what, c.Rank())
					for li := range times {
						if own(li) {
							copy(times[li], shifted[li])
						}
					}
					v.refresh()
					assert.Equal(t, wantShifted, cc.Violations(v.times), "%s process %d: the clock condition after a change", what, c.Rank())

					// The CLC's view: every point-to-point reference to another
					// process's location is to the halo event of the same index.
					for li, deps := range v.graph.Deps {
						if !own(li) {
							continue
						}
						for k, d := range deps {
							switch d.Role {
							case replay.RoleSend, replay.RoleRecv:
								if !own(int(d.Peer)) {
									at, ok := v.at(d.Peer, g.Deps[li][k].Ref)
									assert.True(t, ok && at == d.Ref, "%s process %d: location %d dependency %d's other end", what, c.Rank(), li, k)
								}
							}
						}
					}
					return gr.Err()
				})
				for r, err := range errs {
					assert.NoError(t, err, "%s process %d", what, r)
				}
			}
		}
	}
}
