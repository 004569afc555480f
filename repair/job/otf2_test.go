package job

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clc-tools/clc/repair"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

type printedEvent struct {
	name  string
	time  uint64
	attrs string
}

// otf2Print runs the reference reader's otf2-print on an archive and
// returns the events per location, in each location's order.
func otf2Print(t *testing.T, archive string) map[string][]printedEvent {
	t.Helper()
	out, err := exec.Command("otf2-print", archive).Output()
	require.NoError(t, err, "otf2-print %s", archive)
	locs := map[string][]printedEvent{}
	var last *printedEvent
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "=") || strings.HasPrefix(line, "-") || strings.HasPrefix(line, "Event ") {
			continue
		}
		if strings.HasPrefix(line, " ") {
			if last != nil {
				last.attrs += "\n" + strings.TrimSpace(line)
			}
			continue
		}
		f := strings.Fields(line)
		require.GreaterOrEqual(t, len(f), 3, "otf2-print line %q", line)
		ts, err := strconv.ParseUint(f[2], 10, 64)
		require.NoError(t, err, "otf2-print line %q", line)
		// The attributes: the rest of the line after the timestamp.
		rest := line[strings.Index(line, f[2])+len(f[2]):]
		locs[f[1]] = append(locs[f[1]], printedEvent{name: f[0], time: ts, attrs: strings.TrimSpace(rest)})
		l := locs[f[1]]
		last = &l[len(l)-1]
	}
	return locs
}

// needOTF2Print skips the test where the reference reader's otf2-print is
// not installed, and fails it in CI.
func needOTF2Print(t *testing.T) {
	t.Helper()
	testenv.Tool(t, "otf2-print", "otf2-tools")
}

// wanderingTrace simulates 8 ranks on 4 nodes whose clocks wander by 10 µs:
// after pre-synchronisation, messages violate the clock condition.
func wanderingTrace(t *testing.T) *trace.Trace {
	t.Helper()
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Events, c.Compute, c.ClockWander = 8, 2, 20000, 2*time.Millisecond, 10*time.Microsecond
	rec, _, err := sim.Generate(c)
	require.NoError(t, err)
	return rec
}

// The reference reader's view of an OTF2 archive corrected by the pure CLC
// (--method clc): every event is
// there with the same record and attributes, in the same order; events the
// correction did not move show exactly the time the reference reader showed
// for the input (which it pre-synchronised itself); moved ones only later;
// times never decrease; and the number of moved events is the report's.
func TestOTF2CorrectionAsTheReferenceReaderSeesIt(t *testing.T) {
	needOTF2Print(t)
	rec := wanderingTrace(t)
	in := filepath.Join(t.TempDir(), "in")
	require.NoError(t, otf.WriteTrace(context.Background(), in, rec, nil))
	out := filepath.Join(t.TempDir(), "out")
	// The archive declares one clock per node (CLC::CLOCK_DOMAIN), which
	// Auto would pool; the reference reader interpolates each location's
	// own measurements, and this test compares with what it shows.
	rep, err := Run(context.Background(), in, Options{Output: out, Correction: repair.Correction{
		Presync:    presync.Interpolate,
		ClockModel: repair.ClockModelOptions{Method: clockmodel.MethodCLC},
	}})
	require.NoError(t, err)
	require.Positive(t, rep.Correction.EventsMoved, "the scenario must move events")
	require.Zero(t, rep.After.Violations)

	before := otf2Print(t, filepath.Join(in, "traces.otf2"))
	after := otf2Print(t, filepath.Join(out, "traces.otf2"))
	require.Equal(t, len(before), len(after))
	var moved int64
	for loc, evs := range before {
		got := after[loc]
		require.Len(t, got, len(evs), "location %s", loc)
		for i, e := range evs {
			g := got[i]
			require.Equal(t, e.name, g.name, "location %s event %d", loc, i)
			if e.name != "BUFFER_FLUSH" {
				require.Equal(t, e.attrs, g.attrs, "location %s event %d", loc, i)
			}
			require.GreaterOrEqual(t, g.time, e.time, "location %s event %d moved earlier", loc, i)
			if g.time != e.time {
				moved++
			}
			if i > 0 {
				require.GreaterOrEqual(t, g.time, got[i-1].time, "location %s event %d before its predecessor", loc, i)
			}
		}
	}
	assert.Equal(t, rep.Correction.EventsMoved, moved)
	msg, err := exec.Command("otf2-print", "--silent", "-Werror", filepath.Join(out, "traces.otf2")).CombinedOutput()
	require.NoError(t, err, "%s", msg)
}

// A correction written as OTF2 and as native holds, per location, the same
// events with the same times: as the reference reader sees the archive and
// our reader the native trace. Inputs in either format stream into an
// output of the other (no whole read): a simulated trace and one read from
// a Score-P archive (whose OTF2 definitions and records a native trace
// carries) in each.
func TestConversionsAsTheReferenceReaderSeesThem(t *testing.T) {
	needOTF2Print(t)
	d := t.TempDir()
	rec := wanderingTrace(t)
	simNative, simOTF2 := filepath.Join(d, "sim-native"), filepath.Join(d, "sim-otf2")
	require.NoError(t, native.WriteDir(context.Background(), simNative, rec, nil))
	require.NoError(t, otf.WriteTrace(context.Background(), simOTF2, rec, nil))
	scorepNative := filepath.Join(d, "scorep-native")
	_, err := Run(context.Background(), "../../testdata/scorep-pingpong", Options{Output: scorepNative, Format: FormatNative})
	require.NoError(t, err)
	for _, in := range []string{simNative, simOTF2, scorepNative, "../../testdata/scorep-pingpong"} {
		name := filepath.Base(in)
		nat, arc := filepath.Join(d, name+"-to-native"), filepath.Join(d, name+"-to-otf2")
		repN, err := Run(context.Background(), in, Options{Output: nat, Format: FormatNative})
		require.NoError(t, err)
		repO, err := Run(context.Background(), in, Options{Output: arc, Format: FormatOTF2})
		require.NoError(t, err)
		if strings.HasPrefix(name, "sim") {
			require.Positive(t, repO.Before.Violations, "the trace must need a correction")
		}
		assert.Equal(t, repN.Events, repO.Events, name)

		want, err := native.ReadDir(nat, nil)
		require.NoError(t, err)
		got := otf2Print(t, filepath.Join(arc, "traces.otf2"))
		require.Len(t, got, len(want.Locations), name)
		for li, l := range want.Locations {
			evs := got[strconv.FormatUint(l.ID, 10)]
			require.Len(t, evs, l.Events.Len(), "%s location %d", name, li)
			for i, e := range evs {
				require.Equal(t, uint64(l.Events.Time[i]), e.time, "%s location %d event %d", name, li, i)
			}
		}
		msg, err := exec.Command("otf2-print", "--silent", "-Werror", filepath.Join(arc, "traces.otf2")).CombinedOutput()
		require.NoError(t, err, "%s: %s", name, msg)
	}
}
