package clc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// builder makes small traces by hand: one node per location, one world
// communicator, regions "work" (0), "MPI_Send" (1), "MPI_Recv" (2).
type builder struct {
	t *trace.Trace
}

func newBuilder(n int) *builder {
	tr := &trace.Trace{Resolution: 1e9, Regions: []trace.Region{{Name: "work"}, {Name: "MPI_Send"}, {Name: "MPI_Recv"}}}
	world := trace.Comm{Name: "MPI_COMM_WORLD"}
	for i := 0; i < n; i++ {
		tr.Nodes = append(tr.Nodes, trace.Node{Name: "n"})
		tr.Locations = append(tr.Locations, &trace.Location{ID: uint64(i), Node: int32(i)})
		world.Members = append(world.Members, int32(i))
	}
	tr.Comms = []trace.Comm{world}
	return &builder{t: tr}
}

func (b *builder) ev(loc int) *trace.Events { return &b.t.Locations[loc].Events }

// internal appends an internal event (enter of "work").
func (b *builder) internal(loc int, t int64) { b.ev(loc).AppendRegion(trace.KindEnter, t, 0) }

func (b *builder) send(loc int, t int64, to int) {
	b.ev(loc).AppendMsg(trace.KindSend, t, trace.Message{Peer: uint32(to)})
}

func (b *builder) recv(loc int, t int64, from int) {
	b.ev(loc).AppendMsg(trace.KindRecv, t, trace.Message{Peer: uint32(from)})
}

func (b *builder) times(loc int) []int64 { return b.t.Locations[loc].Events.Time }

// correct runs match + correct with latency mu ticks (resolution 1 GHz).
func correct(t *testing.T, tr *trace.Trace, p Params) *Result {
	t.Helper()
	require.NoError(t, tr.Validate())
	g, err := replay.Match(tr, nil)
	require.NoError(t, err)
	res, err := Correct(tr, g, p, nil)
	require.NoError(t, err)
	return res
}

func handParams(mu int64, gamma, slope float64) Params {
	p := DefaultParams()
	p.LatencyIntra = time.Duration(mu)
	p.LatencyInter = time.Duration(mu)
	p.Gamma = gamma
	p.Slope = slope
	p.MaxPasses = 1
	p.TrustReference = false
	p.Delta = 0 // one tick
	return p
}

// TestFigure1 reproduces Fig. 1 of the paper: one message whose receive
// appears before its send; the receive is moved to send + μ (b), the event
// after it keeps its distance reduced by γ (c), the event before it is
// ramped up (d).
func TestFigure1(t *testing.T) {
	b := newBuilder(2)
	b.internal(0, 10) // E1
	b.send(0, 20, 1)  // S
	b.internal(0, 30) // E2
	b.internal(1, 5)  // E3
	b.recv(1, 12, 0)  // R: before S
	b.internal(1, 25) // E4
	res := correct(t, b.t, handParams(2, 0.9, 0.5))
	// Forward: R = S + μ = 22, a jump of 10 over its base 12.
	// E4: 22 + (25−12) − ⌊0.1·13⌋ = 34.
	// Backward: E3 is 7 before R's base 12: 10 − ⌈0.5·7⌉ = 6 → 11.
	require.Equal(t, []int64{10, 20, 30}, res.Times[0])
	require.Equal(t, []int64{11, 22, 34}, res.Times[1])
	require.Equal(t, int64(1), res.Jumps())
	// The input is untouched.
	require.Equal(t, []int64{5, 12, 25}, b.times(1))
}

// TestFigure2 reproduces Fig. 2: the backward amortization of a jump with
// two sends in the interval whose limits lie below the straight ramp; the
// ramp is bent at the steeper one, which is put exactly on its limit.
func TestFigure2(t *testing.T) {
	b := newBuilder(3)
	// Location 0: e0, s1 (to 2), e2, s2 (to 2), e4, r (from 1).
	b.internal(0, 0)
	b.send(0, 10, 2)
	b.internal(0, 20)
	b.send(0, 30, 2)
	b.internal(0, 40)
	b.recv(0, 50, 1)
	// Location 1 sends at 68: r must be at least 70, a jump of 20.
	b.send(1, 68, 0)
	// Location 2 receives s1 at 16 and s2 at 37: limits 14 and 35.
	b.recv(2, 16, 0)
	b.recv(2, 37, 0)
	res := correct(t, b.t, handParams(2, 1, 0.2))
	// Default ramp: 20 − ⌈0.2·d⌉ would give s2 16 > room 5 and s1 12 >
	// room 4. Slopes needed: s2 (20−5)/20 = 0.75, s1 (20−4)/40 = 0.4: s2 is
	// steeper. e4: 20 − ⌈15·10/20⌉ = 12 → 52; s2 → 30+5 = 35. Before s2: a
	// ramp of 5 with slope 0.2: e2 (10 before): 5 − 2 = 3 → 23; s1 (20
	// before): 5 − 4 = 1 ≤ room 4 → 11; e0 (30 before): nothing.
	require.Equal(t, []int64{0, 11, 23, 35, 52, 70}, res.Times[0])
	require.Equal(t, []int64{68}, res.Times[1])
	require.Equal(t, []int64{16, 37}, res.Times[2])
}

// TestNoViolationsUnchanged checks that a trace without violations comes
// out bit for bit, including equal times.
func TestNoViolationsUnchanged(t *testing.T) {
	b := newBuilder(2)
	b.internal(0, 100)
	b.internal(0, 100)
	b.send(0, 100, 1)
	b.internal(0, 150)
	b.internal(1, 0)
	b.recv(1, 101, 0)
	b.internal(1, 101)
	b.internal(1, 101)
	res := correct(t, b.t, handParams(1, 0.99, 0.01))
	require.Equal(t, b.times(0), res.Times[0])
	require.Equal(t, b.times(1), res.Times[1])
	require.Equal(t, int64(0), res.Jumps())
}
