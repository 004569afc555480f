package otf

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
)

// Names of the opaque record types the reference archives contain, as the
// Python reader calls them.
var opaqueNames = map[uint32]string{
	10: "BufferFlush", 11: "MeasurementOnOff", 31: "Metric", 35: "RmaWinCreate",
	36: "RmaWinDestroy", 46: "RmaPut", 49: "RmaOpCompleteBlocking", 53: "ThreadFork",
	54: "ThreadJoin", 83: "ProgramBegin", 84: "ProgramEnd",
}

// modelLines formats the model's events as testdata/otf2/dumpevents.py
// prints them.
func modelLines(t *trace.Trace) []string {
	idx := make([]int, len(t.Locations))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return t.Locations[idx[a]].ID < t.Locations[idx[b]].ID })
	var out []string
	for _, li := range idx {
		l := t.Locations[li]
		ev := &l.Events
		for i, k := range ev.Kind {
			var f []string
			var name string
			switch k {
			case trace.KindEnter, trace.KindLeave:
				name = map[trace.Kind]string{trace.KindEnter: "Enter", trace.KindLeave: "Leave"}[k]
				f = append(f, t.Regions[ev.Ref[i]].Name)
			case trace.KindSend, trace.KindIsend, trace.KindRecv, trace.KindIrecv:
				name = map[trace.Kind]string{trace.KindSend: "MpiSend", trace.KindIsend: "MpiIsend", trace.KindRecv: "MpiRecv", trace.KindIrecv: "MpiIrecv"}[k]
				m := ev.Msg(i)
				f = append(f, fmt.Sprint(m.Peer), t.Comms[m.Comm].Name, fmt.Sprint(m.Tag), fmt.Sprint(m.Bytes))
				if k == trace.KindIsend || k == trace.KindIrecv {
					f = append(f, fmt.Sprint(m.Request))
				}
			case trace.KindIsendComplete, trace.KindIrecvRequest, trace.KindRequestTest, trace.KindRequestCancelled, trace.KindNBCollRequest:
				name = map[trace.Kind]string{trace.KindIsendComplete: "MpiIsendComplete", trace.KindIrecvRequest: "MpiIrecvRequest",
					trace.KindRequestTest: "MpiRequestTest", trace.KindRequestCancelled: "MpiRequestCancelled",
					trace.KindNBCollRequest: "NonBlockingCollectiveRequest"}[k]
				f = append(f, fmt.Sprint(ev.Req(i)))
			case trace.KindCollBegin:
				name = "MpiCollectiveBegin"
			case trace.KindCollEnd, trace.KindNBCollComplete:
				name = "MpiCollectiveEnd"
				if k == trace.KindNBCollComplete {
					name = "NonBlockingCollectiveComplete"
				}
				c := ev.Coll(i)
				f = append(f, t.Comms[c.Comm].Name, fmt.Sprint(uint8(c.Op)), fmt.Sprint(c.Root), fmt.Sprint(c.Sent), fmt.Sprint(c.Received))
				if k == trace.KindNBCollComplete {
					f = append(f, fmt.Sprint(c.Request))
				}
			case trace.KindCommCreate, trace.KindCommDestroy:
				name = map[trace.Kind]string{trace.KindCommCreate: "CommCreate", trace.KindCommDestroy: "CommDestroy"}[k]
				f = append(f, t.Comms[ev.Ref[i]].Name)
			case trace.KindThreadFork, trace.KindThreadJoin, trace.KindThreadTeamBegin, trace.KindThreadTeamEnd,
				trace.KindThreadAcquireLock, trace.KindThreadReleaseLock, trace.KindThreadTaskCreate,
				trace.KindThreadTaskSwitch, trace.KindThreadTaskComplete, trace.KindThreadCreate,
				trace.KindThreadBegin, trace.KindThreadWait, trace.KindThreadEnd:
				name = threadRecordName(k, ev.Thread(i).Legacy)
			case trace.KindOther:
				name = opaqueNames[ev.Opaque[ev.Ref[i]].Type]
				if name == "" {
					name = fmt.Sprintf("type%d", ev.Opaque[ev.Ref[i]].Type)
				}
			}
			out = append(out, strings.Join(append([]string{fmt.Sprint(l.ID), fmt.Sprint(ev.Time[i]), name}, f...), " "))
		}
	}
	return out
}

// threadRecordName is the OTF2 record name of a thread event, as the
// reference library's Python module names its event class.
func threadRecordName(k trace.Kind, legacy bool) string {
	name := map[trace.Kind]string{
		trace.KindThreadFork: "Fork", trace.KindThreadJoin: "Join", trace.KindThreadTeamBegin: "TeamBegin",
		trace.KindThreadTeamEnd: "TeamEnd", trace.KindThreadAcquireLock: "AcquireLock",
		trace.KindThreadReleaseLock: "ReleaseLock", trace.KindThreadTaskCreate: "TaskCreate",
		trace.KindThreadTaskSwitch: "TaskSwitch", trace.KindThreadTaskComplete: "TaskComplete",
		trace.KindThreadCreate: "Create", trace.KindThreadBegin: "Begin", trace.KindThreadWait: "Wait",
		trace.KindThreadEnd: "End",
	}[k]
	if legacy {
		return "Omp" + name
	}
	return "Thread" + name
}

// pyDump prints an archive's events through the reference library.
func pyDump(t testing.TB, anchor string) []string {
	t.Helper()
	py := testenv.PythonOTF2(t)
	out, err := exec.Command(py, "../testdata/otf2/dumpevents.py", anchor).Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	require.NoError(t, err, "dumpevents.py %s\n%s", anchor, stderr)
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
}

// The reader, against the reference library's reader on the same archive.
func TestReadMatchesReferenceReader(t *testing.T) {
	dir, _, tr := readRef(t, 200)
	want := pyDump(t, filepath.Join(dir, "traces.otf2"))
	got := modelLines(tr)
	require.Equal(t, len(want), len(got))
	for i := range want {
		require.Equal(t, want[i], got[i], "event line %d", i)
	}
}

// dropOpaque returns a copy of t without opaque events and attachments.
func dropOpaque(t *trace.Trace) *trace.Trace {
	c := *t
	c.Locations = nil
	for _, l := range t.Locations {
		nl := *l
		nl.Events = trace.Events{}
		for i, k := range l.Events.Kind {
			if k != trace.KindOther {
				nl.Events.Append(&l.Events, i, nil)
			}
		}
		c.Locations = append(c.Locations, &nl)
	}
	return &c
}

// Path (b): a model written as a new archive reads back identically through
// the reference library, and otf2-print -Werror accepts it.
func TestWriteTraceReferenceReader(t *testing.T) {
	_, _, tr := readRef(t, 200)
	tr.Carried = nil // path (b): the model's definitions only
	m := dropOpaque(tr)
	m.Locations[1].Offsets = []trace.ClockOffset{{Time: 1000, Offset: 0}, {Time: 2000000, Offset: 0, StdDev: 1.5}}
	out := filepath.Join(t.TempDir(), "b")
	require.NoError(t, WriteTrace(context.Background(), out, m, &WriteOptions{EventChunkSize: MinChunkSize}))
	checkOTF2(t, filepath.Join(out, "traces.otf2"))
	want := modelLines(m)
	got := pyDump(t, filepath.Join(out, "traces.otf2"))
	require.Equal(t, len(want), len(got))
	for i := range want {
		require.Equal(t, want[i], got[i], "event line %d", i)
	}
	// And with the opaque records and attribute lists kept: the reference
	// tools accept it, and our reader gives back the same model.
	out2 := filepath.Join(t.TempDir(), "b2")
	require.NoError(t, WriteTrace(context.Background(), out2, tr, nil))
	checkOTF2(t, filepath.Join(out2, "traces.otf2"))
	otf2Print(t, filepath.Join(out2, "traces.otf2"))
	b, err := Open(out2)
	require.NoError(t, err)
	tr2, err := b.Read(context.Background(), nil)
	require.NoError(t, err)
	for li := range tr.Locations {
		assert.Equal(t, tr.Locations[li].Events, tr2.Locations[li].Events, "location %d", li)
	}
}

// A cancelled WriteTrace and a cancelled Read say so; the write leaves
// nothing behind.
func TestWriteTraceAndReadStopWhenCancelled(t *testing.T) {
	_, a, tr := readRef(t, 50)
	tr.Carried = nil
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := a.Read(ctx, nil)
	require.ErrorIs(t, err, context.Canceled)
	out := filepath.Join(t.TempDir(), "out")
	require.ErrorIs(t, WriteTrace(ctx, out, dropOpaque(tr), nil), context.Canceled)
	_, err = os.Stat(out)
	require.True(t, os.IsNotExist(err), "the cancelled write left %s", out)
}

// copySink keeps a deep copy of every location's events appended to it.
type copySink struct {
	defs *trace.Trace
	got  []trace.Events
}

func (s *copySink) Defs() *trace.Trace { return s.defs }
func (s *copySink) Close() error       { return nil }
func (s *copySink) Append(loc int, ev *trace.Events) error {
	att := 0
	for i := range ev.Kind {
		s.got[loc].Append(ev, i, &att)
	}
	return nil
}

// CopyTo streams an archive the reference library wrote into another sink:
// per location, the events a whole Read gives, with the times given or
// their own; it refuses time columns that do not fit and stops when
// cancelled.
func TestArchiveCopyToStreamsEveryEvent(t *testing.T) {
	_, a, want := readRef(t, 60)
	times := make([][]int64, len(want.Locations))
	for li, l := range want.Locations {
		for _, v := range l.Events.Time {
			times[li] = append(times[li], v+1000)
		}
	}
	for _, ts := range [][][]int64{nil, times} {
		s := &copySink{defs: want, got: make([]trace.Events, len(want.Locations))}
		require.NoError(t, a.CopyTo(context.Background(), s, ts, &ReadOptions{Parallel: 2}))
		for li, l := range want.Locations {
			w := l.Events
			if ts != nil {
				w.Time = ts[li]
			}
			require.Equal(t, w.Len(), s.got[li].Len(), "location %d", li)
			for i := range w.Kind {
				require.Equal(t, w.Kind[i], s.got[li].Kind[i], "location %d event %d", li, i)
				require.Equal(t, w.Time[i], s.got[li].Time[i], "location %d event %d", li, i)
			}
			require.Equal(t, w.Msgs, s.got[li].Msgs, "location %d", li)
			require.Equal(t, w.Colls, s.got[li].Colls, "location %d", li)
			require.Equal(t, len(w.Opaque), len(s.got[li].Opaque), "location %d", li)
		}
	}
	s := &copySink{defs: want, got: make([]trace.Events, len(want.Locations))}
	require.ErrorContains(t, a.CopyTo(context.Background(), s, times[1:], nil), "time columns")
	short := append([][]int64(nil), times...)
	short[0] = short[0][:len(short[0])-1]
	require.ErrorContains(t, a.CopyTo(context.Background(), s, short, nil), "location 0")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, a.CopyTo(ctx, s, nil, nil), context.Canceled)
}
