package presync

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/trace"
)

func offs(pairs ...int64) []trace.ClockOffset {
	var out []trace.ClockOffset
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, trace.ClockOffset{Time: pairs[i], Offset: pairs[i+1]})
	}
	return out
}

func TestFewerThanTwoIsIdentity(t *testing.T) {
	for _, o := range [][]trace.ClockOffset{nil, offs(100, 7)} {
		f, err := New(o, Interpolate)
		require.NoError(t, err)
		assert.True(t, f.Identity())
		assert.Equal(t, int64(12345), f.At(12345))
	}
}

// Hand-computed values: offsets 0 at t=1000 and 10 at t=1020 give slope 0.5.
func TestInterpolateHandChecked(t *testing.T) {
	f, err := New(offs(1000, 0, 1020, 10), Interpolate)
	require.NoError(t, err)
	cases := []struct{ in, want int64 }{
		{1000, 1000}, // at the first measurement
		{1020, 1030}, // at the second
		{1001, 1001}, // 0.5 rounds to even 0
		{1003, 1005}, // 1.5 rounds to even 2
		{1005, 1007}, // 2.5 rounds to even 2
		{1040, 1060}, // extrapolated after: offset 20
		{990, 985},   // extrapolated before: −5
		{999, 999},   // −0.5 rounds to even 0
		{997, 995},   // −1.5 rounds to even −2
	}
	for _, c := range cases {
		assert.Equal(t, c.want, f.At(c.in), "t=%d", c.in)
	}
}

func TestInterpolatePiecewise(t *testing.T) {
	// Three measurements: slope 1 on [0,10], slope −0.5 on [10,30].
	f, err := New(offs(0, 0, 10, 10, 30, 0), Interpolate)
	require.NoError(t, err)
	c := f.Cursor()
	got := []int64{c.At(5), c.At(10), c.At(11), c.At(20), c.At(40)}
	// t=5: 5+5; t=10: 10+10 (first interval whose end ≥ t); t=11: 11+10−0.5→10;
	// t=20: 20+10−5; t=40: 40+10−15.
	assert.Equal(t, []int64{10, 20, 21, 25, 35}, got)
}

func TestSameTimeIsError(t *testing.T) {
	_, err := New(offs(5, 1, 5, 2), Interpolate)
	assert.ErrorIs(t, err, ErrSameTime)
	_, err = New(offs(6, 1, 5, 2), Interpolate)
	assert.Error(t, err)
}

func TestRegressionDownweightsPoorRTT(t *testing.T) {
	// True offset is 100 + 0.001·t. The middle measurement has a poor RTT
	// and an error of 50 ticks.
	o := []trace.ClockOffset{
		{Time: 0, Offset: 100, RTT: 10},
		{Time: 500000, Offset: 650, RTT: 10000},
		{Time: 1000000, Offset: 1100, RTT: 10},
	}
	f, err := New(o, Regression)
	require.NoError(t, err)
	assert.InDelta(t, 500000+600, f.At(500000), 1)
	g, err := New(o, Interpolate)
	require.NoError(t, err)
	assert.Equal(t, int64(500000+650), g.At(500000))
}

func TestApplyClearsOffsets(t *testing.T) {
	tr := &trace.Trace{Resolution: 1, Nodes: []trace.Node{{}}}
	for i := 0; i < 3; i++ {
		l := &trace.Location{Offsets: offs(0, int64(i), 100, int64(i))}
		l.Events.AppendRegion(trace.KindEnter, 50, 0)
		tr.Locations = append(tr.Locations, l)
	}
	tr.Locations[2].Offsets = nil
	n, err := Apply(tr, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	for i, want := range []int64{50, 51, 50} {
		assert.Equal(t, want, tr.Locations[i].Events.Time[0])
		assert.Nil(t, tr.Locations[i].Offsets)
	}
}

// Node pooling: the locations of the reference node take location 0's
// correction; another node's locations share one built from their
// measurements averaged per epoch with weights 1/RTT².
func TestNodePooling(t *testing.T) {
	tr := &trace.Trace{Resolution: 1, Nodes: []trace.Node{{}, {}}}
	add := func(node int32, offs []trace.ClockOffset) {
		l := &trace.Location{Node: node, Offsets: offs}
		l.Events.AppendRegion(trace.KindEnter, 1_000_000, 0)
		tr.Locations = append(tr.Locations, l)
	}
	add(0, []trace.ClockOffset{{Time: 0, Offset: 0, RTT: 10}, {Time: 2_000_000, Offset: 0, RTT: 10}})
	add(0, []trace.ClockOffset{{Time: 0, Offset: 40, RTT: 10}, {Time: 2_000_000, Offset: -40, RTT: 10}}) // noise only
	// node 1: true offset 1000; one good (RTT 10) and one poor (RTT 100)
	// measurement per epoch; the poor ones are off by +500.
	add(1, []trace.ClockOffset{{Time: 100, Offset: 1000, RTT: 10}, {Time: 2_000_100, Offset: 1000, RTT: 10}})
	add(1, []trace.ClockOffset{{Time: 300, Offset: 1500, RTT: 100}, {Time: 2_000_300, Offset: 1500, RTT: 100}})
	_, err := Apply(tr, &Options{Method: Node})
	require.NoError(t, err)
	assert.Equal(t, int64(1_000_000), tr.Locations[0].Events.Time[0])
	assert.Equal(t, int64(1_000_000), tr.Locations[1].Events.Time[0], "the reference node follows location 0")
	// weights 1/100 and 1/10000: offset 1000 + 500/101 ≈ 1005
	assert.Equal(t, int64(1_001_005), tr.Locations[2].Events.Time[0])
	assert.Equal(t, tr.Locations[2].Events.Time[0], tr.Locations[3].Events.Time[0], "one clock per node")
}

// A single measurement is a constant offset for the methods that are not
// bound to the OTF2 reader's rule, and the locations it corrects are
// counted (issue 13: a trace with one offset record per location reported
// no location corrected and kept its clock errors).
func TestSingleMeasurementIsConstant(t *testing.T) {
	for _, m := range []Method{Regression, Node} {
		f, err := New(offs(100, 7), m)
		require.NoError(t, err)
		assert.False(t, f.Identity(), m)
		assert.Equal(t, int64(12345+7), f.At(12345), m)
		assert.Equal(t, int64(50+7), f.At(50), m)
	}
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "a"}, {Name: "b"}},
		Properties: map[string]string{trace.PropClockDomain: "node"}}
	for i := range 4 {
		l := &trace.Location{ID: uint64(i), Node: int32(i / 2)}
		l.Offsets = offs(1000+int64(i), int64(40*(i/2))+int64(i%2))
		l.Events.AppendRegion(trace.KindEnter, 5000, 0)
		tr.Locations = append(tr.Locations, l)
	}
	n, err := Apply(tr, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the two locations of the second node")
	assert.Equal(t, int64(5000), tr.Locations[0].Events.Time[0], "reference node")
	assert.Equal(t, int64(5000), tr.Locations[1].Events.Time[0], "reference node")
	// Node b pools its two measurements (offsets 40 and 41) into one epoch.
	assert.InDelta(t, 5040.5, float64(tr.Locations[2].Events.Time[0]), 0.5)
	assert.Equal(t, tr.Locations[2].Events.Time[0], tr.Locations[3].Events.Time[0])
}

// Funcs returns what Apply applies, without changing the trace; with Node
// the locations of a node share one function.
func TestFuncsIsWhatApplyApplies(t *testing.T) {
	// Microsecond ticks: offsets 7 µs apart over 1 ms are measurement
	// noise (checkOffsets).
	tr := &trace.Trace{Resolution: 1e6, Nodes: []trace.Node{{}, {}}}
	for i := 0; i < 4; i++ {
		l := &trace.Location{Node: int32(i / 2), Offsets: offs(0, int64(100*i), 1000, int64(100*i+7*i))}
		for _, t := range []int64{-50, 10, 500, 2000} {
			l.Events.AppendRegion(trace.KindEnter, t, 0)
		}
		tr.Locations = append(tr.Locations, l)
	}
	for _, m := range []Method{Interpolate, Node} {
		funcs, err := Funcs(tr, m)
		require.NoError(t, err)
		require.NotNil(t, tr.Locations[0].Offsets, "Funcs leaves the measurements")
		if m == Node {
			assert.Same(t, funcs[2], funcs[3])
		}
		c := cloneTimes(tr)
		_, err = Apply(c, &Options{Method: m})
		require.NoError(t, err)
		for i, l := range tr.Locations {
			for j, v := range l.Events.Time {
				assert.Equal(t, c.Locations[i].Events.Time[j], funcs[i].At(v), "%s: location %d event %d", m, i, j)
			}
		}
	}
}

// Measured puts each clock-offset measurement where its location's
// correction puts its time; a location without measurements has none.
func TestMeasured(t *testing.T) {
	tr := &trace.Trace{Resolution: 1, Nodes: []trace.Node{{}}}
	tr.Locations = []*trace.Location{
		{ID: 0, Offsets: offs(0, 100, 1000, 110)},
		{ID: 1},
	}
	funcs, err := Funcs(tr, Interpolate)
	require.NoError(t, err)
	m := Measured(tr, funcs)
	require.Len(t, m, 2)
	assert.Equal(t, []int64{funcs[0].At(0), funcs[0].At(1000)}, m[0])
	assert.NotEqual(t, []int64{0, 1000}, m[0], "the correction is not the identity")
	assert.Nil(t, m[1])
}

func cloneTimes(tr *trace.Trace) *trace.Trace {
	c := *tr
	c.Locations = nil
	for _, l := range tr.Locations {
		k := *l
		k.Events.Time = append([]int64(nil), l.Events.Time...)
		c.Locations = append(c.Locations, &k)
	}
	return &c
}

// The threads of a process get the correction of its first location with
// measurements, whatever measurements they have themselves; a trace
// without processes keeps one correction per location.
func TestOneCorrectionPerProcess(t *testing.T) {
	mk := func(procs bool) *trace.Trace {
		tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{}}}
		for i, o := range [][]trace.ClockOffset{offs(0, 100, 1000, 200), nil, offs(0, 5, 1000, 5), offs(0, -7, 1000, 13)} {
			l := &trace.Location{ID: uint64(i), Offsets: o}
			if procs {
				l.Process = int32(i / 3) // locations 0–2 one process, 3 another
			}
			l.Events.AppendRegion(trace.KindEnter, 500, 0)
			tr.Locations = append(tr.Locations, l)
		}
		tr.Regions = []trace.Region{{Name: "r"}}
		if procs {
			tr.Processes = []trace.Process{{Name: "p0"}, {Name: "p1"}}
		}
		return tr
	}
	for _, m := range []Method{Interpolate, Regression} {
		tr := mk(true)
		n, err := Apply(tr, &Options{Method: m})
		require.NoError(t, err)
		assert.Equal(t, 4, n)
		got := []int64{tr.Locations[0].Events.Time[0], tr.Locations[1].Events.Time[0], tr.Locations[2].Events.Time[0], tr.Locations[3].Events.Time[0]}
		assert.Equal(t, []int64{650, 650, 650, 503}, got, "method %s", m)

		tr = mk(false)
		_, err = Apply(tr, &Options{Method: m})
		require.NoError(t, err)
		got = []int64{tr.Locations[0].Events.Time[0], tr.Locations[1].Events.Time[0], tr.Locations[2].Events.Time[0], tr.Locations[3].Events.Time[0]}
		assert.Equal(t, []int64{650, 500, 505, 503}, got, "method %s without processes", m)
	}
}
