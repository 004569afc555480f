package replay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partsByProcess deals the trace's processes, in order, into p contiguous
// runs and returns each location's run.
func partsByProcess(tr *trace.Trace, p int) []int32 {
	np := max(tr.NumProcesses(), 1)
	part := make([]int32, len(tr.Locations))
	for li := range part {
		part[li] = int32(int(tr.ProcessOf(li)) * p / np)
	}
	return part
}

// sameDeps reports the first location whose dependency lists differ
// (empty and nil lists alike), or "".
func sameDeps(want, got [][]Dep, only func(li int) bool) string {
	for li := range want {
		if only != nil && !only(li) {
			if len(got[li]) != 0 {
				return fmt.Sprintf("location %d of another process has %d dependencies", li, len(got[li]))
			}
			continue
		}
		if len(want[li]) != len(got[li]) || len(want[li]) > 0 && !reflect.DeepEqual(want[li], got[li]) {
			return fmt.Sprintf("location %d: %d dependencies, want %d", li, len(got[li]), len(want[li]))
		}
	}
	return ""
}

// FinishDivided on each of P processes (comm.Local) gives Finish's graph
// on the whole trace — its instances, parts, counts and issues, and of
// Deps the process's own locations' lists — and GatherDeps the whole
// Deps, on random traces with unmatched sends, MPI_Init/MPI_Finalize and
// threads (hybrid), at P = 2, 3 and 4.
func TestFinishDividedIsFinish(t *testing.T) {
	cfgs := map[string]tracetest.Config{
		"plain":     {Locations: 9, Nodes: 3, Ops: 300, Latency: 100},
		"unmatched": {Locations: 7, Nodes: 7, Ops: 300, Latency: 100, Unmatched: 0.1, Init: true},
		"hybrid":    {Locations: 6, Nodes: 3, Ops: 200, Latency: 100, Threads: 3, Init: true},
	}
	for name, cfg := range cfgs {
		for seed := range uint64(3) {
			tr, _ := tracetest.Random(rand.New(rand.NewPCG(seed, 7)), cfg)
			opt := &MatchOptions{Parallel: 2}
			whole, err := Match(tr, opt)
			require.NoError(t, err, "%s seed %d: Match", name, seed)
			for _, p := range []int{2, 3, 4} {
				what := fmt.Sprintf("%s seed %d P=%d", name, seed, p)
				part := partsByProcess(tr, p)
				cs := comm.Local(p)
				var wg sync.WaitGroup
				for r := range p {
					wg.Go(func() {
						m := NewMatcher(tr, opt)
						for li := range tr.Locations {
							if part[li] == int32(r) {
								m.Scan(li, &tr.Locations[li].Events)
							}
						}
						g, err := m.FinishDivided(context.Background(), cs[r], part)
						if !assert.NoError(t, err, "%s process %d", what, r) {
							cs[r].Abort(1, err.Error())
							return
						}
						own := func(li int) bool { return part[li] == int32(r) }
						assert.Empty(t, sameDeps(whole.Deps, g.Deps, own), "%s process %d: own dependencies", what, r)
						assert.Equal(t, whole.Instances, g.Instances, "%s process %d: instances", what, r)
						assert.Equal(t, whole.Parts, g.Parts, "%s process %d: parts", what, r)
						assert.Equal(t, whole.Issues, g.Issues, "%s process %d: issues", what, r)
						assert.Equal(t, whole.Messages, g.Messages, "%s process %d: messages", what, r)
						assert.Equal(t, whole.LogicalMessages, g.LogicalMessages, "%s process %d: logical messages", what, r)
						assert.Equal(t, whole.Sync, g.Sync, "%s process %d: shared-memory relations", what, r)
						assert.Equal(t, whole.Ignored, g.Ignored, "%s process %d: ignored", what, r)
						assert.Equal(t, whole.Single, g.Single, "%s process %d: single", what, r)
						if assert.NoError(t, GatherDeps(context.Background(), cs[r], g, part), "%s process %d: gather", what, r) {
							assert.Empty(t, sameDeps(whole.Deps, g.Deps, nil), "%s process %d: gathered dependencies", what, r)
						}
					})
				}
				wg.Wait()
				crossing := 0
				for li, ds := range whole.Deps {
					for _, d := range ds {
						if d.Role == RoleSend && part[d.Peer] != part[li] {
							crossing++
						}
					}
				}
				assert.Positive(t, crossing, "%s: messages between processes", what)
				if cfg.Unmatched > 0 {
					assert.Positive(t, whole.Issues.Count[UnmatchedSend], "%s: unmatched sends", what)
				}
				if cfg.Threads > 1 {
					assert.Positive(t, whole.SyncTotal(), "%s: shared-memory relations", what)
				}
			}
		}
	}
}
