package perfetto

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/pipetest"
	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// event is one trace event as the Trace Event Format defines it.
type event struct {
	Ph      string          `json:"ph"`
	Pid     *int            `json:"pid"`
	Tid     *int            `json:"tid"`
	Ts      json.Number     `json:"ts"`
	Dur     json.Number     `json:"dur"`
	Name    string          `json:"name"`
	Cat     string          `json:"cat"`
	Args    map[string]any  `json:"args"`
	BindID  string          `json:"bind_id"`
	FlowIn  bool            `json:"flow_in"`
	FlowOut bool            `json:"flow_out"`
	Extra   json.RawMessage `json:"-"`
	ns, end int64
	order   int
}

type file struct {
	DisplayTimeUnit string         `json:"displayTimeUnit"`
	OtherData       map[string]any `json:"otherData"`
	TraceEvents     []*event       `json:"traceEvents"`
}

// nanos parses a decimal number of microseconds into nanoseconds exactly.
func nanos(t *testing.T, n json.Number) int64 {
	t.Helper()
	s := string(n)
	require.NotEmpty(t, s)
	whole, frac, _ := strings.Cut(s, ".")
	require.LessOrEqual(t, len(frac), 3, "sub-nanosecond digits in %s", s)
	frac += strings.Repeat("0", 3-len(frac))
	w, err := strconv.ParseInt(whole, 10, 64)
	require.NoError(t, err)
	f, err := strconv.ParseInt(frac, 10, 64)
	require.NoError(t, err)
	if strings.HasPrefix(whole, "-") {
		return w*1000 - f
	}
	return w*1000 + f
}

// flow is one arrow: the two ends' tracks and times.
type flow struct {
	fromTid     int
	fromNs      int64
	toTid, toNs int64
}

// checked is what check found in a file.
type checked struct {
	f         *file
	regions   int // slices of category mpi or user
	p2p       int
	coll      int
	flows     map[flow]int
	tids      map[int]bool
	maxEnd    int64
	threadPid map[int]int
}

// check validates a trace-event file as Perfetto reads it: every event
// well-formed; every thread and process named; per thread, the complete
// events properly nested (intervals closed on the left, open on the right,
// as Perfetto's slice tracker treats them); every bind_id on exactly one
// flow_out and one flow_in slice, the out no later than the in.
func check(t *testing.T, data []byte) *checked {
	t.Helper()
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&f))
	assert.Equal(t, "ns", f.DisplayTimeUnit)
	c := &checked{f: &f, flows: map[flow]int{}, tids: map[int]bool{}, threadPid: map[int]int{}}
	procNamed := map[int]bool{}
	byTid := map[int][]*event{}
	for i, e := range f.TraceEvents {
		e.order = i
		require.NotNil(t, e.Pid, "event %d has no pid", i)
		require.NotNil(t, e.Tid, "event %d has no tid", i)
		switch e.Ph {
		case "M":
			switch e.Name {
			case "process_name":
				assert.NotEmpty(t, e.Args["name"])
				procNamed[*e.Pid] = true
			case "thread_name":
				assert.NotEmpty(t, e.Args["name"])
				c.threadPid[*e.Tid] = *e.Pid
			case "process_sort_index", "thread_sort_index":
				assert.Contains(t, e.Args, "sort_index")
			default:
				assert.Fail(t, "a metadata event of no known name", "%q", e.Name)
			}
		case "X":
			e.ns = nanos(t, e.Ts)
			dur := nanos(t, e.Dur)
			require.GreaterOrEqual(t, dur, int64(0), "event %d", i)
			require.GreaterOrEqual(t, e.ns, int64(0), "event %d", i)
			e.end = e.ns + dur
			c.maxEnd = max(c.maxEnd, e.end)
			require.NotEmpty(t, e.Name)
			byTid[*e.Tid] = append(byTid[*e.Tid], e)
			c.tids[*e.Tid] = true
			switch e.Cat {
			case "mpi", "user":
				c.regions++
			case "p2p":
				c.p2p++
			case "collective":
				c.coll++
			default:
				assert.Fail(t, "an event of no known category", "%q", e.Cat)
			}
		default:
			assert.Fail(t, "an event of no known phase", "event %d: phase %q", i, e.Ph)
		}
	}
	for tid, evs := range byTid {
		pid, ok := c.threadPid[tid]
		require.True(t, ok, "thread %d has no name", tid)
		require.True(t, procNamed[pid], "process %d has no name", pid)
		for _, e := range evs {
			require.Equal(t, pid, *e.Pid, "thread %d in two processes", tid)
		}
		checkNesting(t, tid, evs)
	}
	out, in := map[string]*event{}, map[string]*event{}
	for _, e := range f.TraceEvents {
		if e.BindID == "" {
			assert.False(t, e.FlowIn || e.FlowOut)
			continue
		}
		require.Equal(t, "X", e.Ph)
		require.True(t, e.FlowIn != e.FlowOut, "a slice is either a flow's start or its end")
		m := out
		if e.FlowIn {
			m = in
		}
		require.NotContains(t, m, e.BindID, "bind_id %s twice", e.BindID)
		m[e.BindID] = e
	}
	require.Equal(t, len(out), len(in))
	for id, o := range out {
		i, ok := in[id]
		require.True(t, ok, "flow %s has no end", id)
		assert.LessOrEqual(t, o.ns, i.ns, "flow %s goes back in time", id)
		c.flows[flow{*o.Tid, o.ns, int64(*i.Tid), i.ns}]++
	}
	return c
}

// checkNesting: sorted by start (ties: longer first, then file order), each
// slice must end within every slice still open at its start.
func checkNesting(t *testing.T, tid int, evs []*event) {
	t.Helper()
	s := slices.Clone(evs)
	slices.SortStableFunc(s, func(a, b *event) int {
		if a.ns != b.ns {
			return int(a.ns - b.ns)
		}
		if a.end != b.end {
			return int(b.end - a.end)
		}
		return a.order - b.order
	})
	var stack []*event
	for _, e := range s {
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if top.end < e.ns || (top.end == e.ns && !(top.end == top.ns && e.end == e.ns)) {
				stack = stack[:len(stack)-1]
				continue
			}
			break
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			require.LessOrEqual(t, e.end, top.end, "thread %d: %q [%d,%d] overlaps %q [%d,%d]", tid, e.Name, e.ns, e.end, top.Name, top.ns, top.end)
		}
		stack = append(stack, e)
	}
}

// expected counts what the trace has, independently of the exporter.
type expected struct {
	enters, msgEvents, colls int
	flows                    map[flow]int
	messages                 int64
}

// expect derives the counts from the trace and from a replay.Match of it
// made here; ns converts a time to the file's nanoseconds.
func expect(t *testing.T, tr *trace.Trace, ns func(int64) int64) expected {
	t.Helper()
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	x := expected{flows: map[flow]int{}, messages: g.Messages}
	for _, l := range tr.Locations {
		for _, k := range l.Events.Kind {
			switch {
			case k == trace.KindEnter:
				x.enters++
			case k.HasMsg():
				x.msgEvents++
			case k == trace.KindCollBegin || k == trace.KindNBCollRequest || k == trace.KindNBCollComplete:
				x.colls++
			}
		}
	}
	for l, deps := range g.Deps {
		for _, d := range deps {
			if d.Role == replay.RoleRecv {
				s := tr.Locations[d.Peer].Events.Time[d.Ref]
				r := tr.Locations[l].Events.Time[d.Idx]
				x.flows[flow{int(d.Peer) + 1, ns(s), int64(l) + 1, ns(r)}]++
			}
		}
	}
	return x
}

func export(t *testing.T, tr *trace.Trace, o *Options) (*Summary, []byte) {
	t.Helper()
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	var b bytes.Buffer
	s, err := Write(context.Background(), &b, tr, g, o)
	require.NoError(t, err)
	if dir := os.Getenv("CLC_PERFETTO_KEEP"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".json"), b.Bytes(), 0o644))
	}
	return s, b.Bytes()
}

// corrected returns the simulator's trace with the corrected times.
func corrected(t *testing.T, ranks, perNode int, events int64) *trace.Trace {
	r := pipetest.Sim(t, pipetest.Drifting(ranks, perNode, events, 9))
	for i, l := range r.Trace.Locations {
		l.Events.Time = r.Corrected[i]
	}
	return r.Trace
}

func firstEvent(tr *trace.Trace) int64 {
	t0 := int64(1 << 62)
	for _, l := range tr.Locations {
		if len(l.Events.Time) > 0 {
			t0 = min(t0, l.Events.Time[0])
		}
	}
	return t0
}

func TestExportOfCorrectedSimulation(t *testing.T) {
	tr := corrected(t, 16, 4, 30_000)
	s, data := export(t, tr, nil)
	c := check(t, data)
	t0 := firstEvent(tr)
	x := expect(t, tr, func(v int64) int64 { return v - t0 }) // 1 GHz: ticks are ns
	assert.Empty(t, s.LeftOut)
	assert.Equal(t, x.enters, c.regions, "a slice per region entered")
	assert.Equal(t, x.msgEvents, c.p2p, "a slice per send and receive")
	assert.Equal(t, x.colls, c.coll, "a slice per collective")
	assert.Equal(t, x.messages, int64(len(c.flows)), "an arrow per matched message")
	assert.Equal(t, x.flows, c.flows, "the arrows join the matched sends and receives")
	assert.Len(t, c.tids, 16)
	assert.Equal(t, int64(c.regions), s.Slices)
	assert.Equal(t, int64(len(c.flows)), s.Flows)
	// ranks 0–3 on node 0 (pid 1) …
	assert.Equal(t, 1, c.threadPid[4])
	assert.Equal(t, 2, c.threadPid[5])
}

// The real Score-P trace, pre-synchronised, exported: its 16 messages
// become 16 arrows; times are converted from a 2.095 GHz timer.
func TestExportOfScorePTrace(t *testing.T) {
	a, err := otf.Open("../testdata/scorep-pingpong/traces.otf2")
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	r := pipetest.Run(t, tr, nil)
	for i, l := range r.Trace.Locations {
		l.Events.Time = r.Corrected[i]
	}
	_, data := export(t, tr, nil)
	c := check(t, data)
	t0 := firstEvent(tr)
	x := expect(t, tr, func(v int64) int64 {
		return int64((float64(v-t0) * 1e9) / float64(tr.Resolution))
	})
	assert.Equal(t, int64(16), x.messages)
	assert.Len(t, c.flows, 16)
	assert.Equal(t, x.enters, c.regions)
	assert.Equal(t, x.msgEvents, c.p2p)
	// Times agree to the nanosecond (the float conversion here may differ
	// by one from the exporter's exact one).
	for f := range x.flows {
		found := false
		for g := range c.flows {
			if g.fromTid == f.fromTid && g.toTid == f.toTid && abs(g.fromNs-f.fromNs) <= 1 && abs(g.toNs-f.toNs) <= 1 {
				found = true
			}
		}
		assert.True(t, found, "flow %+v", f)
	}
	assert.Contains(t, string(data), `"rank 0 (Master thread)"`)
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// The size guard: a budget of events keeps a window from the start, a
// bound on locations a regular sample; what is written stays valid and
// the summary says what was left out.
func TestSizeGuard(t *testing.T) {
	tr := corrected(t, 24, 4, 20_000)
	t0 := firstEvent(tr)
	s, data := export(t, tr, &Options{MaxEvents: 800, MaxLocations: 5})
	c := check(t, data)
	require.Len(t, s.LeftOut, 3, "%q", s.LeftOut) // locations, window, half arrows
	assert.Contains(t, s.LeftOut[0], "5 of 24 locations kept (every 5th")
	assert.Contains(t, s.LeftOut[1], "event budget of 800")
	assert.Contains(t, s.LeftOut[2], "one end outside the export")
	assert.Equal(t, map[int]bool{1: true, 6: true, 11: true, 16: true, 21: true}, c.tids)
	assert.LessOrEqual(t, s.Events(), int64(800))
	assert.Equal(t, s.Events(), int64(c.regions+c.p2p+c.coll))
	assert.LessOrEqual(t, c.maxEnd, s.Window[1]-t0, "every slice ends in the window")
	assert.Contains(t, string(data), `"left_out":`)
	// Every arrow of the export is an arrow of the whole trace.
	x := expect(t, tr, func(v int64) int64 { return v - t0 })
	for f := range c.flows {
		assert.Contains(t, x.flows, f)
	}

	// An explicit window.
	s, data = export(t, tr, &Options{From: time.Millisecond, To: 2 * time.Millisecond, MaxEvents: -1, MaxLocations: -1})
	c = check(t, data)
	assert.Equal(t, t0+1_000_000, s.Window[0])
	assert.Equal(t, t0+2_000_000, s.Window[1])
	assert.Len(t, c.tids, 24)
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	_, err = Write(context.Background(), io.Discard, tr, g, &Options{From: time.Hour, To: 2 * time.Hour})
	assert.ErrorContains(t, err, "after the trace's last event")
	for _, e := range c.f.TraceEvents {
		if e.Ph == "X" {
			assert.True(t, e.ns >= 1_000_000 && e.end <= 2_000_000, "%s at [%d,%d]", e.Name, e.ns, e.end)
		}
	}
}

// Non-blocking and blocking collectives, an unmatched send and a region
// left open by a cut trace, written by hand.
func TestCollectivesAndCutTrace(t *testing.T) {
	tr := &trace.Trace{Resolution: 1000, Nodes: []trace.Node{{Name: "n"}},
		Regions: []trace.Region{{Name: "main"}, {Name: "MPI_Allreduce"}, {Name: "MPI_Iallreduce"}, {Name: "MPI_Wait"}, {Name: "MPI_Send"}},
		Comms:   []trace.Comm{{Name: "MPI_COMM_WORLD", Members: []int32{0, 1}}}}
	for l := 0; l < 2; l++ {
		loc := &trace.Location{Name: fmt.Sprintf("rank %d", l)}
		ev := &loc.Events
		ev.AppendRegion(trace.KindEnter, 10, 0)
		ev.AppendRegion(trace.KindEnter, 20, 1)
		ev.AppendCollBegin(21)
		ev.AppendColl(trace.KindCollEnd, 29, trace.Collective{Op: trace.OpAllreduce, Root: trace.NoRoot, Sent: 8, Received: 8})
		ev.AppendRegion(trace.KindLeave, 30, 1)
		ev.AppendRegion(trace.KindEnter, 40, 2)
		ev.AppendReq(trace.KindNBCollRequest, 41, 7)
		ev.AppendRegion(trace.KindLeave, 42, 2)
		ev.AppendRegion(trace.KindEnter, 50, 3)
		ev.AppendColl(trace.KindNBCollComplete, 55, trace.Collective{Op: trace.OpAllreduce, Root: trace.NoRoot, Sent: 8, Received: 8, Request: 7})
		ev.AppendRegion(trace.KindLeave, 56, 3)
		if l == 0 {
			ev.AppendRegion(trace.KindEnter, 60, 4)
			ev.AppendMsg(trace.KindSend, 61, trace.Message{Peer: 1, Tag: 3, Bytes: 4})
			ev.AppendRegion(trace.KindLeave, 62, 4)
		}
		if l == 1 {
			ev.AppendRegion(trace.KindLeave, 70, 0) // rank 0 is cut: main never left
		}
		tr.Locations = append(tr.Locations, loc)
	}
	require.NoError(t, tr.Validate())
	s, data := export(t, tr, nil)
	c := check(t, data)
	x := expect(t, tr, func(v int64) int64 { return (v - 10) * 1_000_000 })
	assert.Equal(t, 6, x.colls)
	assert.Equal(t, x.colls, c.coll)
	assert.Equal(t, x.enters, c.regions)
	assert.Empty(t, c.flows)
	require.Len(t, s.LeftOut, 1)
	assert.Contains(t, s.LeftOut[0], "1 regions were not left")
	str := string(data)
	assert.Contains(t, str, `"name":"allreduce","cat":"collective","args":{"instance":`)
	assert.Contains(t, str, `"name":"allreduce start"`)
	assert.Contains(t, str, `"name":"allreduce complete"`)
	assert.Contains(t, str, `"unmatched":true`)
	assert.Contains(t, str, `"unclosed":true`)
	// 1 µs per tick: main on rank 0 runs from 10 to its last event, 62.
	assert.Contains(t, str, `"ts":0.000,"dur":52000.000,"name":"main"`)
}

// WriteFile compresses with gzip when the name says so; the result is read
// by Python's json module too (an independent parser).
func TestWriteFileGzipAndPython(t *testing.T) {
	tr := corrected(t, 8, 4, 8_000)
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "trace.json.gz")
	s, err := WriteFile(context.Background(), path, tr, g, &Options{Creator: "test"})
	require.NoError(t, err)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	var b bytes.Buffer
	_, err = b.ReadFrom(zr)
	require.NoError(t, err)
	c := check(t, b.Bytes())
	assert.Equal(t, s.Flows, int64(len(c.flows)))
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "no temporary file left")

	py := testenv.Tool(t, "python3", "python3")
	script := `import gzip, json, sys
d = json.load(gzip.open(sys.argv[1], "rt", encoding="utf-8"))
ev = d["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
outs = {e["bind_id"] for e in x if e.get("flow_out")}
ins = {e["bind_id"] for e in x if e.get("flow_in")}
assert outs == ins, "unpaired flows"
print(len(x), len(outs))`
	out, err := exec.Command(py, "-c", script, path).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, fmt.Sprintf("%d %d", s.Events(), s.Flows), strings.TrimSpace(string(out)))
}

func TestNanoseconds(t *testing.T) {
	x := &exporter{t: &trace.Trace{Resolution: 3}, t0: 10}
	assert.Equal(t, int64(333_333_333), x.ns(11))
	x.t.Resolution = 2_095_197_216
	assert.Equal(t, int64(1_000_000_000), x.ns(10+2_095_197_216))
	assert.Equal(t, "0.001", string(appendMicros(nil, 1)))
	assert.Equal(t, "-1.234", string(appendMicros(nil, -1234)))
	assert.Equal(t, "12345.678", string(appendMicros(nil, 12_345_678)))
}

func TestSecs(t *testing.T) {
	assert.Equal(t, "49.06s", secs(49.059890271))
	assert.Equal(t, "2m7.506s", secs(127.505907522))
	assert.Equal(t, "4.699ms", secs(0.004698863))
	assert.Equal(t, "85.833ms", secs(0.085832902))
	assert.Equal(t, "0s", secs(0))
}

// cancelWriter cancels its context once it has received after bytes, and
// counts what it receives from then on.
type cancelWriter struct {
	cancel       func()
	after, total int64
	late         int64 // bytes received after the cancellation
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	if w.total >= w.after {
		w.late += int64(len(p))
	} else if w.total += int64(len(p)); w.total >= w.after {
		w.cancel()
	}
	return len(p), nil
}

// The export looked at its context every 64 locations only: a trace of
// few locations was written whole after a SIGINT (up to 1.8 s; issue 33).
// Cancelled when its first megabyte is out, it stops within a few
// thousand events.
func TestWriteStopsWhenCancelled(t *testing.T) {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "f"}}}
	l := &trace.Location{Name: "rank 0"}
	const pairs = 300_000
	for i := range int64(pairs) {
		l.Events.AppendRegion(trace.KindEnter, 10*i, 0)
		l.Events.AppendRegion(trace.KindLeave, 10*i+5, 0)
	}
	tr.Locations = []*trace.Location{l}
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	var whole bytes.Buffer
	_, err = Write(context.Background(), &whole, tr, g, &Options{MaxEvents: -1})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelWriter{cancel: cancel, after: 1}
	_, err = Write(ctx, w, tr, g, &Options{MaxEvents: -1})
	assert.ErrorIs(t, err, context.Canceled)
	// What the writer's buffer (1 MiB) held, and cancelEvery events more.
	perEvent := int64(whole.Len()) / pairs
	assert.Less(t, w.late, int64(1<<20)+2*cancelEvery*perEvent, "bytes written after the cancellation, of %d", whole.Len())
}
