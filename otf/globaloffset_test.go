package otf

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/trace"
)

// offsetTrace is a two-location trace whose location 1's clock offsets
// map its times before every raw time of the trace (the offsets are
// negative) and, by their slope, after it (a jump of 89 µs between two
// measurements: measurement error, which presync lets pass up to 100 µs).
func offsetTrace() *trace.Trace {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "a"}, {Name: "b"}}, Regions: []trace.Region{{Name: "f"}}}
	for i := range 2 {
		l := &trace.Location{ID: uint64(i), Name: "rank " + strconv.Itoa(i), Node: int32(i)}
		for k := range 10 {
			l.Events.AppendRegion(trace.KindEnter+trace.Kind(k%2), int64(1_000_000+1000*k), 0)
		}
		tr.Locations = append(tr.Locations, l)
	}
	tr.Locations[1].Offsets = []trace.ClockOffset{{Time: 1_000_000, Offset: -70_000}, {Time: 1_004_000, Offset: -69_000}, {Time: 1_005_000, Offset: 20_000}}
	return tr
}

// The ClockProperties' global offset lies at or before every time a
// reader that applies the clock offsets sees, and the trace length covers
// them: clc-sim wrote the smallest raw time, 70.6 µs after offset-corrected
// times, and a reader that rebases on it (Scalasca's) underflows (issue 26).
func TestGlobalOffsetCoversSyncedTimes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a")
	require.NoError(t, WriteTrace(context.Background(), dir, offsetTrace(), nil))
	a, err := Open(dir)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	_, err = presync.Apply(tr, &presync.Options{Method: presync.Interpolate})
	require.NoError(t, err)
	lo, hi := tr.Locations[0].Events.Time[0], int64(0)
	for _, l := range tr.Locations {
		for _, v := range l.Events.Time {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	g := a.defs
	assert.Equal(t, uint64(lo), g.globalOffset, "the earliest synchronised time")
	assert.Equal(t, uint64(hi-lo), g.traceLength)

	// The reference reader applies the offsets as well.
	py := testenv.PythonOTF2(t)
	out, err := exec.Command(py, "-c", `
import otf2, sys
with otf2.reader.open(sys.argv[1]) as r:
    cp = r.definitions.clock_properties
    ts = [e.time for _, e in r.events]
    print(cp.global_offset, min(ts), max(ts), cp.global_offset + cp.trace_length)
`, filepath.Join(dir, "traces.otf2")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	f := strings.Fields(string(out))
	require.Len(t, f, 4)
	v := make([]uint64, 4)
	for i := range f {
		v[i], err = strconv.ParseUint(f[i], 10, 64)
		require.NoError(t, err)
	}
	assert.LessOrEqual(t, v[0], v[1], "an event before the global offset")
	assert.LessOrEqual(t, v[2], v[3], "an event after the trace's end")
}

// An archive without locations cannot be read by the reference reader (it
// has no event reader to select): none is written (issue 26).
func TestNoLocationsIsRefused(t *testing.T) {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "a"}}}
	err := WriteTrace(context.Background(), filepath.Join(t.TempDir(), "a"), tr, nil)
	require.True(t, errors.Is(err, ErrNoLocations), "%v", err)
}
