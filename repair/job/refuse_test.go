package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// The output paths are checked before any byte of the input is read: an
// OTF2 anchor that is a FIFO (which blocks whoever opens it) or garbage,
// and a wrong -o, gave the anchor's error late or never (issue 26).
func TestOutputsAreClaimedBeforeTheInputIsRead(t *testing.T) {
	d := t.TempDir()
	badOut := filepath.Join(d, "no", "such", "out")
	otf := filepath.Join(d, "otf")
	require.NoError(t, os.CopyFS(otf, os.DirFS("../../testdata/scorep-pingpong")))
	testenv.MakeSpecial(t, filepath.Join(otf, "traces.otf2"), testenv.SpecialFIFO)
	nat, _ := smallTrace(t)
	testenv.MakeSpecial(t, filepath.Join(nat, "clc.json"), testenv.SpecialFIFO)
	for _, in := range []string{otf, filepath.Join(otf, "traces.otf2"), nat} {
		_, err := Prepare(in, Options{Output: badOut})
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), "output "+badOut, in)
		assert.Contains(t, err.Error(), "does not exist", in)
		// With the output fine, the input's error.
		_, err = Prepare(in, Options{Check: true})
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), "named pipe", in)
	}
	assert.Equal(t, []string{"otf"}, names(t, d), "nothing created")
	assert.Equal(t, []string{filepath.Base(nat)}, names(t, filepath.Dir(nat)), "nothing created")
}

// names lists the entries of the directories dirs.
func names(t *testing.T, dirs ...string) []string {
	t.Helper()
	var out []string
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		require.NoError(t, err)
		for _, e := range ents {
			out = append(out, e.Name())
		}
	}
	return out
}

// A run that would not fit in memory is refused before its events are
// read, with the input, what it needs and the limit.
func TestMemoryEstimateRefuses(t *testing.T) {
	in, rec := smallTrace(t)
	out := filepath.Join(t.TempDir(), "out")
	_, err := Run(context.Background(), in, Options{Output: out, MemoryLimit: 10 << 10})
	var me *MemoryError
	require.True(t, errors.As(err, &me), "%v", err)
	assert.Equal(t, in, me.Input)
	assert.Equal(t, rec.NumEvents(), me.Events)
	assert.Equal(t, len(rec.Locations), me.Locations)
	assert.Greater(t, me.Need, me.Limit)
	assert.Contains(t, err.Error(), "input "+in)
	assert.Contains(t, err.Error(), "10.0 KiB")
	_, err = os.Stat(out)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Empty(t, names(t, filepath.Dir(out)))
	// The estimate, by the figures measured: a 10^7-event run in 320 MB
	// without truth, more with it.
	o := &Options{Truth: "-"}
	assert.Equal(t, int64(10_000_000*bytesPerEvent+64*bytesPerLocation), memoryNeed(10_000_000, 64, 0, o))
	assert.Greater(t, memoryNeed(10_000_000, 64, 0, &Options{}), memoryNeed(10_000_000, 64, 0, o))
	assert.Equal(t, int64(1<<63-1), memoryNeed(1<<62, 1, 0, o), "saturates")
}

// -j 5000000 took 4.7 GB on a 50 KB trace: the parallelism is bounded.
func TestParallelismIsBounded(t *testing.T) {
	in, _ := smallTrace(t)
	_, err := Prepare(in, Options{Check: true, Correction: repair.Correction{Parallel: 5_000_000}})
	require.ErrorContains(t, err, "more than")
	_, err = Prepare(in, Options{Check: true, Correction: repair.Correction{Parallel: MaxParallel()}})
	require.NoError(t, err)
}

// Clock offsets whose interpolation leaves the 64-bit range are an error
// naming the input, the location and its offsets: events at local time
// 2^62 came out at a few thousand ticks, also with --strict (issue 26).
func TestPresyncOverflowNamesTheLocation(t *testing.T) {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "a"}, {Name: "b"}}, Regions: []trace.Region{{Name: "f"}}}
	for i, t0 := range []int64{1000, 1 << 62} {
		l := &trace.Location{ID: uint64(i), Name: fmt.Sprintf("rank %d", i), Node: int32(i)}
		l.Events.AppendRegion(trace.KindEnter, t0, 0)
		l.Events.AppendRegion(trace.KindLeave, t0+1000, 0)
		tr.Locations = append(tr.Locations, l)
	}
	tr.Locations[1].Offsets = []trace.ClockOffset{{Time: 0, Offset: 0}, {Time: 1000, Offset: 2000}}
	in := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), in, tr, nil))
	_, err := Run(context.Background(), in, Options{Check: true})
	require.ErrorIs(t, err, presync.ErrOverflow)
	assert.Contains(t, err.Error(), "input "+in)
	assert.Contains(t, err.Error(), `location "rank 1"`)
	assert.Contains(t, err.Error(), "offset 2000 at local time 1000")
}

// A trace without events, or a process without events, is an issue: the
// report warns, --strict fails (issue 26).
func TestEmptyTracesAndProcessesAreIssues(t *testing.T) {
	mk := func(events ...int) string {
		tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "a"}}, Regions: []trace.Region{{Name: "f"}}}
		for i, n := range events {
			l := &trace.Location{ID: uint64(i), Name: fmt.Sprintf("rank %d", i)}
			for k := range n {
				l.Events.AppendRegion(trace.KindEnter+trace.Kind(k%2), int64(1000*(k+1)), 0)
			}
			tr.Locations = append(tr.Locations, l)
		}
		in := filepath.Join(t.TempDir(), "in")
		require.NoError(t, native.WriteDir(context.Background(), in, tr, nil))
		return in
	}
	for _, c := range []struct {
		name   string
		in     string
		kind   replay.IssueKind
		n      int64
		detail string
	}{
		{"no locations", mk(), replay.EmptyTrace, 1, "the trace has 0 locations and no event"},
		{"no events", mk(0, 0), replay.EmptyTrace, 1, "the trace has 2 locations and no event"},
		{"a rank without events", mk(2, 0, 2, 0), replay.EmptyProcess, 2, `process 1 (location "rank 1" and its threads) has no event`},
	} {
		for _, format := range []Format{FormatNative, FormatOTF2} {
			out := filepath.Join(t.TempDir(), "out")
			rep, err := Run(context.Background(), c.in, Options{Output: out, Format: format})
			if c.kind == replay.EmptyTrace && c.n == 1 && format == FormatOTF2 && strings.Contains(c.detail, " 0 locations") {
				// The reference reader cannot read an archive without
				// locations: none is written.
				require.ErrorIs(t, err, otf.ErrNoLocations)
				assert.Empty(t, names(t, filepath.Dir(out)))
				continue
			}
			require.NoError(t, err, c.name)
			assert.Equal(t, c.n, rep.Issues.Counts[c.kind.String()], c.name)
			assert.True(t, rep.Inconsistent(), "%s: --strict fails", c.name)
			assert.Contains(t, strings.Join(rep.Issues.Examples, "\n"), c.detail, c.name)
		}
	}
}

// An OTF2 archive's global definitions are read whole: ones that alone
// need more memory than the limit are refused before they are read. A
// native trace's carried data counts in the estimate.
func TestDefinitionsAndCarriedDataCount(t *testing.T) {
	in := "../../testdata/scorep-pingpong"
	st, err := os.Stat(filepath.Join(in, "traces.def"))
	require.NoError(t, err)
	_, err = Prepare(in, Options{Check: true, MemoryLimit: st.Size()})
	var me *MemoryError
	require.True(t, errors.As(err, &me), "%v", err)
	assert.Contains(t, err.Error(), "global definitions alone")
	nat := filepath.Join(t.TempDir(), "nat")
	_, err = Run(context.Background(), in, Options{Output: nat, Format: FormatNative})
	require.NoError(t, err)
	j, err := Prepare(nat, Options{Check: true})
	require.NoError(t, err)
	defer j.Abort()
	_, _, extra, err := j.in.declared()
	require.NoError(t, err)
	cst, err := os.Stat(filepath.Join(nat, native.CarriedName))
	require.NoError(t, err)
	assert.Equal(t, cst.Size(), extra)
}

// Times going backward within a location were put in order silently: they
// are an issue (count, the first event of each location), in the text and
// JSON report, and --strict fails on them; the output's times are in
// order.
func TestBackwardTimesAreIssues(t *testing.T) {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "a"}}, Regions: []trace.Region{{Name: "f"}}}
	for i := range 3 {
		l := &trace.Location{ID: uint64(i), Name: fmt.Sprintf("rank %d", i)}
		for k := range 8 {
			l.Events.AppendRegion(trace.KindEnter+trace.Kind(k%2), int64(1000*(k+1)), 0)
		}
		tr.Locations = append(tr.Locations, l)
	}
	tr.Locations[1].Events.Time[3] = 2500 // after 3000
	tr.Locations[2].Events.Time[5] = 100  // after 5000
	tr.Locations[2].Events.Time[7] = 6900 // after 7000
	in := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), in, tr, nil))
	out := filepath.Join(t.TempDir(), "out")
	rep, err := Run(context.Background(), in, Options{Output: out, Format: FormatNative})
	require.NoError(t, err)
	assert.EqualValues(t, 3, rep.Issues.Counts[replay.BackwardTime.String()], "events going backward")
	assert.True(t, rep.Inconsistent(), "--strict fails")
	ex := strings.Join(rep.Issues.Examples, "\n")
	assert.Contains(t, ex, `location 1, event 3: location "rank 1": time 2500 is 500 ticks before the previous event's (3000)`)
	assert.Contains(t, ex, `location 2, event 5: location "rank 2": time 100 is 4900 ticks before`)
	assert.Contains(t, ex, "events going backward: 2 of its 8")
	var js, text bytes.Buffer
	require.NoError(t, rep.WriteJSON(&js))
	assert.Contains(t, js.String(), `"time going backward": 3`, "JSON issues.counts")
	rep.WriteText(&text)
	assert.Contains(t, text.String(), "time going backward 3", "text report")
	got, err := native.ReadDir(out, nil)
	require.NoError(t, err)
	for li, l := range got.Locations {
		assert.True(t, slices.IsSorted(l.Events.Time), "location %d: output times in order", li)
	}
}

// closeSource is a trace.Source whose Close is counted (and nothing else
// is called).
type closeSource struct {
	trace.Source
	closed atomic.Int32
}

func (s *closeSource) Close() error {
	s.closed.Add(1)
	return nil
}

// A read of the input that blocks (a hostile pseudo-file, a hung network
// file system) held the run: one Ctrl-C did nothing (issue 33). The stage
// returns when ctx is cancelled; the abandoned read keeps the input open
// until it returns, and closes it then.
func TestBlockedReadIsInterruptible(t *testing.T) {
	src := &closeSource{}
	j := &Job{in: &Input{Path: "in", src: src}}
	ctx, cancel := context.WithCancel(context.Background())
	started, release := make(chan struct{}), make(chan struct{})
	returned := make(chan error, 1)
	go func() {
		returned <- j.interruptible(ctx, func() error {
			close(started)
			<-release // a read that does not return
			return nil
		})
	}()
	<-started
	cancel()
	select {
	case err := <-returned:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(time.Minute): // a hang detector, not a timing
		require.FailNow(t, "a cancelled stage waited for its blocked read")
	}
	j.closeInput()
	assert.Zero(t, src.closed.Load(), "the input closed under a read")
	close(release)
	require.Eventually(t, func() bool { return src.closed.Load() == 1 }, time.Minute, time.Millisecond, "closed when the read returned")
}
