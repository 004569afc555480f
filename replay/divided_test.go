package replay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
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
// Deps the process's own locations' lists — on random traces with unmatched sends, MPI_Init/MPI_Finalize and
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
				errs := comm.RunLocal(p, func(c comm.Comm) error {
					r := c.Rank()
					m := NewMatcher(tr, opt)
					for li := range tr.Locations {
						if part[li] == int32(r) {
							m.Scan(li, &tr.Locations[li].Events)
						}
					}
					g, err := m.FinishDivided(context.Background(), c, part)
					if err != nil {
						return err
					}
					own := func(li int) bool { return part[li] == int32(r) }
					assert.Empty(t, sameDeps(whole.Deps, g.Deps, own), "%s process %d: own dependencies", what, r)
					// Everything but the dependency lists: instances, parts,
					// issues and every count.
					rest, wholeRest := *g, *whole
					rest.Deps, wholeRest.Deps = nil, nil
					assert.Equal(t, wholeRest, rest, "%s process %d: the graph but its dependencies", what, r)
					return nil
				})
				for r, err := range errs {
					assert.NoError(t, err, "%s process %d", what, r)
				}
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
