package replay

import (
	"context"
	"encoding/binary"
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

// A process that receives a malformed aggregates record (another
// process's members' candidates of an instance) says which process sent
// what, and never counts it: a candidate at a member of another process
// or without a send, one twice, more senders than the instance waits
// for, a record cut short. A well-formed one completes the instance.
func TestDividedRejectsBadAggregates(t *testing.T) {
	// One N-to-N instance of four members: locations 0, 1 on process 0,
	// locations 2, 3 on process 1; every member sends and receives.
	g := &Graph{Deps: make([][]Dep, 4), Parts: []Part{{0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {3, 0, 1}},
		Instances: []Instance{{Class: ClassNToN, First: 0, N: 4, Senders: 4}}}
	part := []int32{0, 0, 1, 1}
	record := func(senders uint32, cands ...[2]int64) []byte {
		b := binary.LittleEndian.AppendUint32([]byte{recAgg, 0, 0, 0, 0}, senders)
		b = append(b, 0) // no reference senders
		b = append(b, byte(len(cands)))
		for _, c := range cands {
			b = binary.LittleEndian.AppendUint32(b, uint32(c[0]))
			b = binary.LittleEndian.AppendUint64(b, uint64(c[1]))
		}
		return b
	}
	cases := []struct {
		name string
		rec  []byte
		err  string
	}{
		{"a member of process 0", record(2, [2]int64{0, 5}), "process 1 sent a candidate at member 0 of instance 0"},
		{"twice", record(2, [2]int64{2, 5}, [2]int64{2, 6}), "process 1 sent a candidate at member 2 of instance 0"},
		{"too many senders", record(3, [2]int64{2, 5}), "more than it waits for"},
		{"cut short", record(2, [2]int64{2, 5})[:15], "short record"},
		{"good", record(2, [2]int64{2, 5}, [2]int64{3, 7}), ""},
	}
	errs := comm.RunLocal(2, func(c comm.Comm) error {
		if c.Rank() != 0 {
			return nil
		}
		for _, tc := range cases {
			x := NewShared(g, [][]int64{{1, 0}, {2, 0}, {0, 0}, {0, 0}}, []int32{0, 0, 1, 1}, nil, Latency{Inter: 1})
			d, err := NewDivided(x, c, part)
			require.NoError(t, err)
			x.Contribute(0, 0, 1)
			x.Contribute(1, 0, 2)
			err = d.apply([][]byte{nil, tc.rec})
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err, tc.name)
				assert.False(t, x.inst[0].done.Load(), "%s: the instance completed", tc.name)
				continue
			}
			require.NoError(t, err, tc.name)
			require.True(t, x.inst[0].done.Load(), "%s: the instance is complete", tc.name)
			// Location 0 hears the latest other sender: location 3 at 7, plus μ across nodes.
			v, _, has, st := x.AwaitInstance(0, 0, 0)
			assert.Equal(t, Ready, st)
			assert.True(t, has)
			assert.Equal(t, int64(8), v, "%s: location 0's constraint", tc.name)
		}
		return nil
	})
	for r, err := range errs {
		assert.NoError(t, err, "process %d", r)
	}
}
