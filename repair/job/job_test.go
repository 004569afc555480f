package job

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clc-tools/clc/repair"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// scenario is one simulated run.
type scenario struct {
	name string
	cfg  sim.Config
}

// scenarios returns the simulated scenarios; short leaves out the three
// largest (64 to 4,096 ranks), which run with CLC_TEST_FULL=1.
func scenarios(short bool) []scenario {
	mk := func(name string, ranks, perNode int, events int64, patterns []string, f func(*sim.Config)) scenario {
		c := sim.DefaultConfig()
		c.Ranks, c.RanksPerNode, c.Events, c.Seed = ranks, perNode, events, int64(len(name))*7919+int64(ranks)
		if patterns != nil {
			c.Patterns = patterns
		}
		// Realistic clock error after pre-synchronisation: a run long
		// enough, and clocks wandering enough, that interpolating between
		// the offsets at MPI_Init and MPI_Finalize leaves errors of several
		// microseconds (the paper's Fig. 3 and Table 3).
		c.Compute = 2 * time.Millisecond
		c.ClockWander = 10 * time.Microsecond
		if f != nil {
			f(&c)
		}
		return scenario{name, c}
	}
	all := []scenario{
		mk("p2p-2", 2, 1, 20000, []string{"ring", "pairs"}, nil),
		mk("halo-16", 16, 4, 60000, []string{"halo"}, nil),
		mk("master-8", 8, 2, 40000, []string{"master"}, nil),
		mk("collectives-12", 12, 3, 80000, []string{"coll", "subcoll", "scan", "exscan", "gatherv", "scatterv", "allgatherv"}, nil),
		mk("mix-32", 32, 8, 100000, nil, nil),
		mk("mix-64-drift", 64, 4, 100000, nil, func(c *sim.Config) { c.ClockDrift = 50; c.ClockWander = 50 * time.Microsecond }),
		mk("mix-256", 256, 16, 200000, nil, nil),
		mk("mix-4096", 4096, 32, 400000, []string{"halo", "allreduce", "pairs", "coll"}, func(c *sim.Config) {
			c.Compute = 20 * time.Millisecond
		}),
	}
	if short {
		return all[:5]
	}
	return all
}

// TestScenarios is the oracle test of the pure CLC (--method clc) on the
// simulator's ground truth: on every scenario, no violation is left, no
// event moved earlier or before its predecessor, and the order of events is
// kept. Against the truth, the
// corrected times are closer than the pre-synchronised ones on average over
// the scenarios; a single scenario can come out worse when a node whose
// clock runs ahead forces its receivers later (nothing may move earlier;
// docs/algorithm.md, "Accuracy"), so that is logged, not asserted, per
// scenario.
func TestScenarios(t *testing.T) {
	var ratios []float64
	defer assertMeanBelow(t, "corrected", &ratios, 0.95)
	for _, sc := range scenarios(!testenv.Full()) {
		t.Run(sc.name, func(t *testing.T) {
			dir, rec := simDir(t, sc.cfg)
			out := filepath.Join(t.TempDir(), "out")
			opts := Options{Output: out, Correction: repair.Correction{ClockModel: repair.ClockModelOptions{Method: clockmodel.MethodCLC}}}
			rep, err := Run(context.Background(), dir, opts)
			require.NoError(t, err)
			assert.Positive(t, rep.Before.Violations, "the scenario should have violations to correct")
			assert.Zero(t, rep.After.Violations)
			require.NotNil(t, rep.Accuracy)
			ratios = append(ratios, rep.Accuracy.Corrected.MeanAbs/rep.Accuracy.Presync.MeanAbs)
			t.Logf("%s: μ %d/%d ticks, %d events, violations %d → 0, moved %d, mean |err| %.1f → %.1f ticks, max shift %v",
				sc.name, rep.Method.Latency.Intra.Ticks, rep.Method.Latency.Inter.Ticks, rep.Events, rep.Before.Violations, rep.Correction.EventsMoved,
				rep.Accuracy.Presync.MeanAbs, rep.Accuracy.Corrected.MeanAbs, time.Duration(rep.Correction.MaxShift*1e9))

			// Independent checks on the written output.
			got, err := native.ReadDir(out, nil)
			require.NoError(t, err)
			orig := rec
			_, err = presync.Apply(orig, nil)
			require.NoError(t, err)
			for li, l := range got.Locations {
				o := &orig.Locations[li].Events
				require.Equal(t, o.Kind, l.Events.Kind, "event order changed at location %d", li)
				for j, v := range l.Events.Time {
					require.GreaterOrEqual(t, v, o.Time[j], "location %d event %d moved earlier", li, j)
					if j > 0 {
						require.GreaterOrEqual(t, v, l.Events.Time[j-1], "location %d event %d before its predecessor", li, j)
					}
				}
				require.Empty(t, l.Offsets, "offsets are folded into the corrected times")
			}
			// Violations recounted on the output with the latencies the
			// run chose (the defaults, lowered by what the trace shows).
			g, err := replay.Match(got, nil)
			require.NoError(t, err)
			lat := replay.Latency{Intra: rep.Method.Latency.Intra.Ticks, Inter: rep.Method.Latency.Inter.Ticks}
			times := make([][]int64, len(got.Locations))
			node := make([]int32, len(got.Locations))
			for i, l := range got.Locations {
				times[i], node[i] = l.Events.Time, l.Node
			}
			v := measure.ClockCondition{Graph: g, Node: node, Latency: lat, Parallel: 2}.Violations(times)
			assert.Zero(t, v.Total().Violations)
		})
	}
}

// TestMildClockError covers, for the pure CLC, the regime where pre-synchronisation is already
// good: the few violations left come from a node whose clock runs ahead,
// and since nothing may move earlier, their receivers must move later,
// away from the truth (docs/algorithm.md, "Accuracy"). The loss is bounded
// by those forced moves; the reference node, which is exact, gets no
// amortization beyond them.
func TestMildClockError(t *testing.T) {
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Events, c.Seed, c.Compute = 32, 8, 100000, 6*7919+32, 2*time.Millisecond
	dir, _ := simDir(t, c)
	rep, err := Run(context.Background(), dir, Options{Check: true, Correction: repair.Correction{ClockModel: repair.ClockModelOptions{Method: clockmodel.MethodCLC}}})
	require.NoError(t, err)
	assert.Positive(t, rep.Before.Violations)
	assert.Zero(t, rep.After.Violations)
	a := rep.Accuracy
	t.Logf("mild: violations %d, moved %d, mean |err| %.2f → %.2f ticks", rep.Before.Violations, rep.Correction.EventsMoved, a.Presync.MeanAbs, a.Corrected.MeanAbs)
	assert.Less(t, a.Corrected.MeanAbs, a.Presync.MeanAbs*1.002, "more than 0.2 % further from the truth")
	assert.Less(t, float64(rep.Correction.EventsMoved), 0.005*float64(rep.Events), "more than 0.5 % of the events moved")
}

// simDir simulates cfg and writes the recorded trace, with the truth in
// truth/, into a temporary directory.
func simDir(t *testing.T, cfg sim.Config) (string, *trace.Trace) {
	t.Helper()
	rec, truth, err := sim.Generate(cfg)
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), dir, rec, nil))
	require.NoError(t, native.WriteDir(context.Background(), filepath.Join(dir, "truth"), truth, nil))
	return dir, rec
}

// assertMeanBelow asserts that the mean of the accuracy ratios (|error|
// after / after pre-synchronisation) gathered by the subtests is below
// limit.
func assertMeanBelow(t *testing.T, what string, ratios *[]float64, limit float64) {
	if t.Failed() || len(*ratios) == 0 {
		return
	}
	var sum float64
	for _, r := range *ratios {
		sum += r
	}
	mean := sum / float64(len(*ratios))
	t.Logf("mean |error| %s / presync over %d scenarios: %.3f", what, len(*ratios), mean)
	assert.Less(t, mean, limit)
}

// treeHash hashes every file under dir (names and contents).
func treeHash(t *testing.T, dir string) string {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %v\n", rel, d.IsDir())
		if !d.IsDir() {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(h, f)
			return err
		}
		return nil
	})
	require.NoError(t, err)
	return hex.EncodeToString(h.Sum(nil))
}

func smallTrace(t *testing.T) (string, *trace.Trace) {
	c := sim.DefaultConfig()
	c.Ranks, c.Events, c.Compute = 4, 4000, 2*time.Millisecond
	rec, _, err := sim.Generate(c)
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), dir, rec, nil))
	return dir, rec
}

func TestNeverWritesIntoInput(t *testing.T) {
	dir, _ := smallTrace(t)
	before := treeHash(t, dir)
	for _, out := range []string{dir, filepath.Join(dir, "fixed"), filepath.Dir(dir)} {
		_, err := Run(context.Background(), dir, Options{Output: out, Force: true})
		require.Error(t, err, "output %s", out)
	}
	_, err := Run(context.Background(), dir, Options{Check: true})
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "out")
	_, err = Run(context.Background(), dir, Options{Output: out})
	require.NoError(t, err)
	assert.Equal(t, before, treeHash(t, dir), "the input changed")
}

func TestOutputRules(t *testing.T) {
	dir, _ := smallTrace(t)
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, os.MkdirAll(out, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(out, "keep"), []byte("x"), 0o644))
	_, err := Run(context.Background(), dir, Options{Output: out})
	require.ErrorContains(t, err, "not empty")
	// --force replaces only a directory that holds nothing but a trace.
	_, err = Run(context.Background(), dir, Options{Output: out, Force: true})
	require.ErrorContains(t, err, "keep")
	_, err = os.Stat(filepath.Join(out, "keep"))
	require.NoError(t, err, "a refused output is left alone")
	require.NoError(t, os.Remove(filepath.Join(out, "keep")))
	_, err = Run(context.Background(), dir, Options{Output: out})
	require.NoError(t, err, "an empty directory is fine")
	_, err = Run(context.Background(), dir, Options{Output: out})
	require.ErrorContains(t, err, "not empty")
	_, err = Run(context.Background(), dir, Options{Output: out, Force: true})
	require.NoError(t, err, "--force replaces an earlier output")
	require.True(t, native.IsDir(out))
	// No temporary directories are left beside the output.
	ents, err := os.ReadDir(filepath.Dir(out))
	require.NoError(t, err)
	assert.Len(t, ents, 1)
}

// A corrupt input fails with an error naming the file, and leaves no output.
func TestCorruptInputLeavesNothing(t *testing.T) {
	dir, _ := smallTrace(t)
	f := filepath.Join(dir, "events", "2.clce")
	b, err := os.ReadFile(f)
	require.NoError(t, err)
	b[len(b)/2] ^= 0x55
	require.NoError(t, os.WriteFile(f, b, 0o644))
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	_, err = Run(context.Background(), dir, Options{Output: out})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "2.clce")
	ents, err := os.ReadDir(parent)
	require.NoError(t, err)
	assert.Empty(t, ents)
}

func TestNotATrace(t *testing.T) {
	d := t.TempDir()
	_, err := Run(context.Background(), d, Options{Check: true})
	require.ErrorContains(t, err, "not a trace")
	_, err = Run(context.Background(), filepath.Join(d, "missing"), Options{Check: true})
	require.Error(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(d, "clc.json"), []byte("{"), 0o644))
	_, err = Run(context.Background(), d, Options{Check: true})
	require.ErrorContains(t, err, "clc.json")
}

// Unmatched messages, incomplete collectives and a cycle are reported and
// treated as internal; the run finishes (within a timeout) with zero
// violations left among the matched messages.
func TestInconsistentTraceReported(t *testing.T) {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "a"}, {Name: "b"}},
		Regions: []trace.Region{{Name: "MPI_Send"}}}
	tr.Comms = []trace.Comm{{Name: "MPI_COMM_WORLD", Members: []int32{0, 1}}}
	for i := 0; i < 2; i++ {
		tr.Locations = append(tr.Locations, &trace.Location{ID: uint64(i), Node: int32(i)})
	}
	e0, e1 := &tr.Locations[0].Events, &tr.Locations[1].Events
	// a cycle: each receives the other's later send
	e0.AppendMsg(trace.KindRecv, 10, trace.Message{Peer: 1, Tag: 1})
	e0.AppendMsg(trace.KindSend, 20, trace.Message{Peer: 1, Tag: 1})
	e1.AppendMsg(trace.KindRecv, 10, trace.Message{Peer: 0, Tag: 1})
	e1.AppendMsg(trace.KindSend, 20, trace.Message{Peer: 0, Tag: 1})
	// an unmatched send and a collective only location 0 has
	e0.AppendMsg(trace.KindSend, 30, trace.Message{Peer: 1, Tag: 9})
	e0.AppendCollBegin(40)
	e0.AppendColl(trace.KindCollEnd, 50, trace.Collective{Op: trace.OpBarrier})
	// a violation that is matched: location 1 receives before location 0 sends
	e0.AppendMsg(trace.KindSend, 100, trace.Message{Peer: 1, Tag: 2})
	e1.AppendMsg(trace.KindRecv, 60, trace.Message{Peer: 0, Tag: 2})
	dir := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), dir, tr, nil))
	done := make(chan struct{})
	var rep *repair.Report
	var err error
	go func() {
		rep, err = Run(context.Background(), dir, Options{Output: filepath.Join(t.TempDir(), "out")})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		require.FailNow(t, "clc hung on an inconsistent trace")
	}
	require.NoError(t, err)
	assert.True(t, rep.Inconsistent())
	assert.Equal(t, int64(1), rep.Issues.Counts[replay.UnmatchedSend.String()])
	assert.Equal(t, int64(1), rep.Issues.Counts[replay.IncompleteCollective.String()])
	assert.Equal(t, int64(2), rep.Issues.Counts[replay.DroppedDependency.String()])
	assert.Equal(t, int64(1), rep.Correction.ReceivesMoved)
}

// A trace cut mid-run (the traced program was killed: the manifest says
// complete=false and a stream ends inside a block) is corrected as far as
// it goes, and the report says it is truncated; nothing hangs.
func TestTraceCutMidRun(t *testing.T) {
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Events, c.Compute, c.ClockWander = 8, 2, 40000, 2*time.Millisecond, 10*time.Microsecond
	rec, _, err := sim.Generate(c)
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), dir, rec, &native.WriteOptions{Codec: native.CodecZstd, BlockSize: 16 << 10}))
	// Cut location 3's stream in the middle and mark the trace incomplete.
	f := filepath.Join(dir, "events", "3.clce")
	st, err := os.Stat(f)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(f, st.Size()/2))
	mf := filepath.Join(dir, "clc.json")
	b, err := os.ReadFile(mf)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	m["complete"] = false
	b, err = json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(mf, b, 0o644))

	done := make(chan struct{})
	var rep *repair.Report
	go func() {
		defer close(done)
		rep, err = Run(context.Background(), dir, Options{Output: filepath.Join(t.TempDir(), "out")})
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		require.FailNow(t, "clc hung on a truncated trace")
	}
	require.NoError(t, err)
	assert.True(t, rep.Truncated)
	assert.True(t, rep.Inconsistent())
	assert.Zero(t, rep.After.Violations)
	assert.Positive(t, rep.Issues.Counts[replay.IncompleteCollective.String()], "collectives after the cut are incomplete")
	assert.Positive(t, rep.Issues.Counts[replay.UnmatchedSend.String()]+rep.Issues.Counts[replay.UnmatchedRecv.String()])
	assert.NotEmpty(t, rep.Notes)
	for _, n := range rep.Notes {
		assert.NotContains(t, n, "--convert", "no buffer was left, yet the report sends the user to clc-trace --convert")
	}

	// clc-trace left location 3's buffers unwritten (its process died
	// and the launcher killed clc-trace too, issue 33): the note names
	// the location and the command that writes them
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".clc-meta"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".clc-meta", "3.tail"), []byte("buffers"), 0o644))
	rep, err = Run(context.Background(), dir, Options{Check: true})
	require.NoError(t, err)
	assert.Contains(t, strings.Join(rep.Notes, "\n"), "locations 3 may be short", "the incomplete note names the short location")
	assert.Contains(t, strings.Join(rep.Notes, "\n"), "`clc-trace --convert "+dir+"`", "the incomplete note says what recovers it")
}

// The default method (the clock model, then the CLC) on the same
// scenarios: no violation is left, times never decrease, the report names
// the method, and against the truth the times end up much closer than
// after pre-synchronisation: the mean error at most 0.35 of
// pre-synchronisation's in the median over these eight scenarios (0.31
// with the clock model's moves held to what its messages prove; the
// project's goal of 0.30 is over the whole clc-sim source of
// tools/accuracy, 72 traces), and the mean and the 99th percentile never
// above pre-synchronisation's.
func TestScenariosClockModel(t *testing.T) {
	var ratios []float64
	defer func() {
		if t.Failed() || len(ratios) == 0 {
			return
		}
		slices.Sort(ratios)
		med := ratios[len(ratios)/2]
		t.Logf("mean |error| / presync over %d scenarios: median %.3f, largest %.3f", len(ratios), med, ratios[len(ratios)-1])
		assert.LessOrEqual(t, med, 0.35)
	}()
	for _, sc := range scenarios(!testenv.Full()) {
		t.Run(sc.name, func(t *testing.T) {
			dir, _ := simDir(t, sc.cfg)
			out := filepath.Join(t.TempDir(), "out")
			rep, err := Run(context.Background(), dir, Options{Output: out})
			require.NoError(t, err)
			assert.Zero(t, rep.After.Violations)
			require.NotNil(t, rep.Method)
			a := rep.Accuracy
			t.Logf("%s: %s; mean |err| %.1f → %.1f ticks (%+.0f %%), max %d → %d; violations %d → 0",
				sc.name, rep.Method.Ran, a.Presync.MeanAbs, a.Corrected.MeanAbs, 100*(a.Corrected.MeanAbs/a.Presync.MeanAbs-1),
				a.Presync.MaxAbs, a.Corrected.MaxAbs, rep.Before.Violations)
			// The model moves the clocks only where the messages show more
			// than pre-synchronisation knows (a collectives-only scenario
			// may not); either way the times end no farther from the truth,
			// in the mean and the 99th percentile.
			if rep.Method.Ran == "model + clc" {
				require.NotNil(t, rep.Model)
				assert.Less(t, a.Corrected.MeanAbs, a.Presync.MeanAbs)
			} else {
				t.Logf("%s: the clocks stay: %s", sc.name, rep.Method.Fallback)
				assert.LessOrEqual(t, a.Corrected.MeanAbs, a.Presync.MeanAbs)
			}
			assert.LessOrEqual(t, a.Corrected.P99Abs, a.Presync.P99Abs)
			ratios = append(ratios, a.Corrected.MeanAbs/a.Presync.MeanAbs)
			got, err := native.ReadDir(out, nil)
			require.NoError(t, err)
			for li, l := range got.Locations {
				for j := 1; j < l.Events.Len(); j++ {
					require.GreaterOrEqual(t, l.Events.Time[j], l.Events.Time[j-1], "location %d event %d", li, j)
				}
			}
		})
	}
}

// Times so large that a correction could overflow 64 bits are refused.
func TestHugeTimesRefused(t *testing.T) {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{}, {}}, Regions: []trace.Region{{Name: "x"}}}
	tr.Comms = []trace.Comm{{Name: "w", Members: []int32{0, 1}}}
	for i := 0; i < 2; i++ {
		tr.Locations = append(tr.Locations, &trace.Location{Node: int32(i)})
	}
	big := int64(1<<63 - 10)
	tr.Locations[0].Events.AppendMsg(trace.KindSend, big, trace.Message{Peer: 1})
	tr.Locations[1].Events.AppendMsg(trace.KindRecv, big-5, trace.Message{Peer: 0})
	dir := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), dir, tr, nil))
	_, err := Run(context.Background(), dir, Options{Check: true})
	require.ErrorContains(t, err, "location 0, event 0")
}

// A negative time is refused naming the event; the clock offsets are
// blamed only when they made it negative.
func TestNegativeTimesRefused(t *testing.T) {
	for _, withOffsets := range []bool{false, true} {
		tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{}, {}}, Regions: []trace.Region{{Name: "x"}}}
		tr.Comms = []trace.Comm{{Name: "w", Members: []int32{0, 1}}}
		for i := 0; i < 2; i++ {
			tr.Locations = append(tr.Locations, &trace.Location{Node: int32(i)})
		}
		t0 := int64(-50)
		if withOffsets {
			t0 = 50
			tr.Locations[1].Offsets = []trace.ClockOffset{{Time: 0, Offset: -1000}, {Time: 1000, Offset: -1000}}
		}
		tr.Locations[0].Events.AppendMsg(trace.KindSend, 100, trace.Message{Peer: 1})
		tr.Locations[1].Events.AppendMsg(trace.KindRecv, t0, trace.Message{Peer: 0})
		dir := filepath.Join(t.TempDir(), "in")
		require.NoError(t, native.WriteDir(context.Background(), dir, tr, nil))
		_, err := Run(context.Background(), dir, Options{Check: true})
		require.ErrorContains(t, err, "location 1, event 0")
		if withOffsets {
			assert.ErrorContains(t, err, "the offset records are wrong")
		} else {
			assert.ErrorContains(t, err, "time -50 is negative")
			assert.NotContains(t, err.Error(), "offset")
		}
	}
}

// The functions clc-trace could not record reach the report (issue 10:
// nothing lost silently).
func TestReportListsUnrecordedFunctions(t *testing.T) {
	dir, rec := smallTrace(t)
	rec.Properties = map[string]string{trace.PropUnrecordedMPI: "MPI_Comm_spawn,MPI_Put"}
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, native.WriteDir(context.Background(), dir, rec, nil))
	rep, err := Run(context.Background(), dir, Options{Check: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"MPI_Comm_spawn", "MPI_Put"}, rep.UnrecordedMPI)
	var b bytes.Buffer
	rep.WriteText(&b)
	assert.Contains(t, b.String(), "MPI_Comm_spawn, MPI_Put")
}

// A trace without clock error comes out bit-identical with the default
// flags: recorded on one clock (one node) with a shared-memory latency of
// 150 ns, below the default μ of 300 ns — μ is lowered to what the trace's
// own messages show — or on four exact clocks. OTF2 event files are
// compared byte for byte.
// A short run across two exact clocks with a few ping-pongs faster than
// the default μ across nodes comes out unchanged: the round trips lower
// μ even when there are fewer than twenty of them.
func TestFewRoundTripsLowerMu(t *testing.T) {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "a"}, {Name: "b"}}, Regions: []trace.Region{{Name: "MPI_Send"}}}
	tr.Comms = []trace.Comm{{Name: "MPI_COMM_WORLD", Members: []int32{0, 1}}}
	for i := range 2 {
		tr.Locations = append(tr.Locations, &trace.Location{ID: uint64(i), Node: int32(i)})
	}
	a, b := &tr.Locations[0].Events, &tr.Locations[1].Events
	for k := range int64(6) {
		t0 := 1000 + k*1_000_000
		a.AppendMsg(trace.KindSend, t0, trace.Message{Peer: 1, Tag: uint32(k)})
		b.AppendMsg(trace.KindRecv, t0+400, trace.Message{Peer: 0, Tag: uint32(k)})
		b.AppendMsg(trace.KindSend, t0+500, trace.Message{Peer: 0, Tag: uint32(k)})
		a.AppendMsg(trace.KindRecv, t0+900, trace.Message{Peer: 1, Tag: uint32(k)})
	}
	dir := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), dir, tr, nil))
	out := filepath.Join(t.TempDir(), "out")
	rep, err := Run(context.Background(), dir, Options{Output: out, Format: FormatNative})
	require.NoError(t, err)
	inter := rep.Method.Latency.Inter
	assert.Equal(t, clockmodel.SourceRoundTrip, inter.Source)
	assert.LessOrEqual(t, inter.Ticks, int64(400))
	assert.Zero(t, rep.Before.Violations)
	got, err := native.ReadDir(out, nil)
	require.NoError(t, err)
	for li, l := range got.Locations {
		require.Equal(t, tr.Locations[li].Events.Time, l.Events.Time, "location %d", li)
	}
}

func TestCleanTraceUnchanged(t *testing.T) {
	for _, tc := range []struct {
		name    string
		perNode int
	}{{"one clock, 150 ns", 8}, {"four exact clocks", 2}} {
		t.Run(tc.name, func(t *testing.T) {
			c := sim.DefaultConfig()
			c.Ranks, c.RanksPerNode, c.Events, c.Compute = 8, tc.perNode, 20000, 2*time.Millisecond
			c.LatencyIntra = 150 * time.Nanosecond
			c.PerfectClocks()
			c.OffsetNoise = 0
			rec, _, err := sim.Generate(c)
			require.NoError(t, err)
			dir := filepath.Join(t.TempDir(), "in")
			require.NoError(t, native.WriteDir(context.Background(), dir, rec, nil))
			out := filepath.Join(t.TempDir(), "out")
			rep, err := Run(context.Background(), dir, Options{Output: out})
			require.NoError(t, err)
			assert.Zero(t, rep.Correction.EventsMoved)
			assert.Equal(t, "clc", rep.Method.Ran, "nothing to correct: the model is not used")
			assert.NotEmpty(t, rep.Method.Fallback)
			// μ is the smallest same-clock latency, which is at least the
			// simulator's 150 ns.
			lat := rep.Method.Latency.Intra
			assert.Equal(t, lat.SameClock, lat.Ticks)
			assert.GreaterOrEqual(t, lat.SameClock, int64(150))
			got, err := native.ReadDir(out, nil)
			require.NoError(t, err)
			for li, l := range got.Locations {
				require.Equal(t, rec.Locations[li].Events.Time, l.Events.Time, "location %d", li)
			}

			odir := filepath.Join(t.TempDir(), "otf2")
			require.NoError(t, otf.WriteTrace(context.Background(), odir, rec, nil))
			oout := filepath.Join(t.TempDir(), "otf2out")
			_, err = Run(context.Background(), odir, Options{Output: oout})
			require.NoError(t, err)
			evts, err := filepath.Glob(filepath.Join(odir, "traces", "*.evt"))
			require.NoError(t, err)
			require.NotEmpty(t, evts)
			for _, f := range evts {
				a, err := os.ReadFile(f)
				require.NoError(t, err)
				b, err := os.ReadFile(filepath.Join(oout, "traces", filepath.Base(f)))
				require.NoError(t, err)
				require.True(t, bytes.Equal(a, b), "%s changed", filepath.Base(f))
			}
		})
	}
}

// Random small traces (tracetest.Random: MPI and hybrid, unmatched sends,
// clock offsets recorded for some locations or none) go through the whole
// pipeline with either method: no error, no violation left, and no
// location's times decrease.
func TestRandomTracesThroughRun(t *testing.T) {
	n := 60
	if !testenv.Full() {
		n = 15
	}
	dir := t.TempDir()
	for s := range n {
		rng := rand.New(rand.NewPCG(uint64(s), 7))
		cfg := tracetest.Config{
			Locations: 2 + rng.IntN(11), Nodes: 1 + rng.IntN(5), Ops: 20 + rng.IntN(300),
			Latency: 5 + rng.Int64N(200), Offset: rng.Int64N(5000), Drift: rng.Float64() * 1e-4, Init: rng.IntN(2) == 0,
		}
		if rng.IntN(4) == 0 {
			cfg.Unmatched = rng.Float64() * 0.1
		}
		if rng.IntN(3) == 0 {
			cfg.Threads, cfg.ThreadClocks, cfg.Metrics = 2+rng.IntN(2), rng.IntN(3) == 0, rng.IntN(2) == 0
		}
		tr, truth := tracetest.Random(rng, cfg)
		withOffsets := rng.IntN(2) == 0
		for li, l := range tr.Locations {
			for i := range l.Events.Time {
				l.Events.Time[i] += 10000 // the offsets may make times negative
			}
			if withOffsets && l.Events.Len() > 1 && rng.IntN(5) > 0 {
				for _, i := range []int{0, l.Events.Len() - 1} {
					lt := l.Events.Time[i]
					if len(l.Offsets) == 0 || lt > l.Offsets[0].Time {
						l.Offsets = append(l.Offsets, trace.ClockOffset{Time: lt, Offset: truth[li][i] + 10000 - lt + rng.Int64N(41) - 20})
					}
				}
			}
		}
		in := filepath.Join(dir, fmt.Sprintf("in%d", s))
		require.NoError(t, native.WriteDir(context.Background(), in, tr, nil))
		for _, m := range []clockmodel.Method{clockmodel.MethodModel, clockmodel.MethodCLC} {
			out := filepath.Join(dir, fmt.Sprintf("out%d-%s", s, m))
			rep, err := Run(context.Background(), in, Options{Output: out, Format: FormatNative, Correction: repair.Correction{ClockModel: repair.ClockModelOptions{Method: m}}})
			require.NoError(t, err, "seed %d, %s, %+v", s, m, cfg)
			require.Zero(t, rep.After.Violations, "seed %d, %s", s, m)
			got, err := native.ReadDir(out, nil)
			require.NoError(t, err)
			for li, l := range got.Locations {
				require.True(t, slices.IsSorted(l.Events.Time), "seed %d, %s: location %d runs backward", s, m, li)
			}
		}
	}
}
