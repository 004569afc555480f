package repair

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// hybridSimDir simulates a hybrid run and writes it in format f, with the
// truth in truth/.
func hybridSimDir(t *testing.T, cfg sim.Config, f Format) (string, *trace.Trace) {
	t.Helper()
	if f == FormatNative {
		return simDir(t, cfg)
	}
	rec, truth, err := sim.Generate(cfg)
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "in")
	require.NoError(t, otf.WriteTrace(dir, rec, nil))
	require.NoError(t, native.WriteDir(filepath.Join(dir, "truth"), truth, nil))
	return dir, rec
}

// readAny reads a native trace or an OTF2 archive.
func readAny(t *testing.T, dir string) *trace.Trace {
	t.Helper()
	in, err := Open(dir)
	require.NoError(t, err)
	tr, err := in.Read(context.Background(), 2)
	require.NoError(t, err)
	return tr
}

// hybridScenario is a run of 12 ranks of 4 threads on 4 nodes whose
// clocks wander enough that microseconds of error remain after
// pre-synchronisation (as in TestScenarios; with much less, the CLC's
// forced moves can cost a little accuracy, TestMildClockError).
func hybridScenario(seed int64) sim.Config {
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Threads, c.Events, c.Seed = 12, 3, 4, 120000, seed
	c.Compute, c.ClockWander = 8*time.Millisecond, 20*time.Microsecond
	return c
}

// Hybrid traces from clc-sim, native and OTF2: pre-synchronisation keeps
// the shared-memory order (the threads of a node read one clock); after
// the correction no message violates the clock condition, no
// shared-memory relation is out of order — counted on the written output
// by the independent checker of package tracetest, kind by kind — the
// report counts the relations and the receives they moved, and the times
// are no further from the truth than the pre-synchronised ones.
func TestHybridSimulated(t *testing.T) {
	for _, f := range []Format{FormatNative, FormatOTF2} {
		t.Run(string(f), func(t *testing.T) {
			dir, rec := hybridSimDir(t, hybridScenario(11), f)
			_, err := presync.Apply(rec, nil)
			require.NoError(t, err)
			for k, o := range tracetest.SharedOrder(rec, tracetest.Times(rec), 0) {
				require.Zero(t, o.Violations, "pre-synchronised input: %s", k)
			}
			out := filepath.Join(t.TempDir(), "out")
			rep, err := Run(context.Background(), dir, Options{Output: out, Params: clc.DefaultParams()})
			require.NoError(t, err)
			require.Positive(t, rep.Before.Violations)
			require.Zero(t, rep.After.Violations)
			require.NotNil(t, rep.After.Shared)
			require.Zero(t, rep.After.Shared.Violations)
			require.Positive(t, rep.Correction.SharedMoved, "the masters' moves must carry their threads along")
			for _, k := range []string{"fork", "join", "barrier", "lock", "task-create", "taskwait"} {
				require.Positive(t, rep.Messages.Shared[k], k)
			}
			require.Zero(t, rep.Issues.Counts["unmatched thread event"]+rep.Issues.Counts["incomplete thread instance"]+rep.Issues.Counts["inconsistent thread events"])
			require.NotNil(t, rep.Accuracy)
			var rels int64
			for _, n := range rep.Messages.Shared {
				rels += n
			}
			t.Logf("%s: violations %d → 0, %d shared-memory relations, %d receives moved by them, mean |err| %.1f → %.1f ticks",
				f, rep.Before.Violations, rels, rep.Correction.SharedMoved, rep.Accuracy.Presync.MeanAbs, rep.Accuracy.Corrected.MeanAbs)
			assert.LessOrEqual(t, rep.Accuracy.Corrected.MeanAbs, rep.Accuracy.Presync.MeanAbs)

			got := readAny(t, out)
			order := tracetest.SharedOrder(got, tracetest.Times(got), 0)
			for _, k := range []string{"fork", "join", "barrier", "lock", "task-create", "taskwait"} {
				require.Positive(t, order[k].Relations, k)
				require.Zero(t, order[k].Violations, "output: %s", k)
			}
			g, err := replay.Match(got, nil)
			require.NoError(t, err)
			params := clc.DefaultParams()
			v := measure.ClockCondition(tracetest.Times(got), g, nodesOf(got), params.InTicks(got.Resolution).Lat, 2)
			require.Zero(t, v.Total().Violations)
			require.Zero(t, v.SharedTotal().Violations)
		})
	}
}

func nodesOf(t *trace.Trace) []int32 {
	out := make([]int32, len(t.Locations))
	for i, l := range t.Locations {
		out[i] = l.Node
	}
	return out
}

// A hybrid trace whose order is intact and which has no message violation
// comes out bit for bit: the same event files, native and OTF2.
func TestHybridIntactUnchanged(t *testing.T) {
	c := hybridScenario(12)
	c.Events = 40000
	c.PerfectClocks()
	c.OffsetNoise = 0
	for _, f := range []Format{FormatNative, FormatOTF2} {
		t.Run(string(f), func(t *testing.T) {
			dir, _ := hybridSimDir(t, c, f)
			out := filepath.Join(t.TempDir(), "out")
			rep, err := Run(context.Background(), dir, Options{Output: out, Params: clc.DefaultParams()})
			require.NoError(t, err)
			require.Zero(t, rep.Before.Violations)
			require.Zero(t, rep.Before.Shared.Violations)
			require.Zero(t, rep.Correction.EventsMoved)
			sub := map[Format]string{FormatNative: native.EventsDirName, FormatOTF2: "traces"}[f]
			ents, err := os.ReadDir(filepath.Join(dir, sub))
			require.NoError(t, err)
			n := 0
			for _, e := range ents {
				if f == FormatOTF2 && filepath.Ext(e.Name()) != ".evt" {
					continue
				}
				want, err := os.ReadFile(filepath.Join(dir, sub, e.Name()))
				require.NoError(t, err)
				have, err := os.ReadFile(filepath.Join(out, sub, e.Name()))
				require.NoError(t, err)
				require.Equal(t, want, have, e.Name())
				n++
			}
			require.Equal(t, c.Ranks*c.Threads, n)
		})
	}
}
