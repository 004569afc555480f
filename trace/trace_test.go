package trace

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func hybrid() *Trace {
	t := &Trace{Resolution: 1, Nodes: []Node{{}, {}}, Processes: []Process{{Name: "p0"}, {Name: "p1"}},
		Comms: []Comm{{Name: "team", Paradigm: ParadigmOpenMP, Members: []int32{0, 1}}}}
	for i := range 3 {
		t.Locations = append(t.Locations, &Location{ID: uint64(i), Node: int32(i / 2), Process: int32(i / 2)})
	}
	t.Locations[0].Events.AppendThread(KindThreadTeamBegin, 5, Thread{Team: 0})
	return t
}

// Validate checks what the hybrid model adds: processes in range, the
// locations of a process on one node, thread payloads' communicators.
func TestValidateHybrid(t *testing.T) {
	require.NoError(t, hybrid().Validate())
	for name, f := range map[string]func(*Trace){
		"process out of range": func(t *Trace) { t.Locations[2].Process = 2 },
		"negative process":     func(t *Trace) { t.Locations[2].Process = -1 },
		"process on two nodes": func(t *Trace) { t.Locations[1].Node = 1 },
		"team out of range":    func(t *Trace) { t.Locations[0].Events.Threads[0].Team = 1 },
		"thread index":         func(t *Trace) { t.Locations[0].Events.Threads = nil },
	} {
		tr := hybrid()
		f(tr)
		require.ErrorIs(t, tr.Validate(), ErrInvalid, name)
	}
	tr := hybrid()
	tr.Locations[0].Events.Threads[0].Team = NoComm
	require.NoError(t, tr.Validate(), "an undefined team")
}

// Threaded is true exactly when a trace uses something beyond the MPI
// model; ProcessOf falls back to one process per location.
func TestThreadedAndProcessOf(t *testing.T) {
	tr := hybrid()
	require.True(t, tr.Threaded())
	require.Equal(t, int32(1), tr.ProcessOf(2))
	require.Equal(t, 2, tr.NumProcesses())
	mpi := &Trace{Resolution: 1, Nodes: []Node{{}}, Regions: []Region{{Name: "MPI_Send"}},
		Comms: []Comm{{Name: "world", Members: []int32{0, 1}}}}
	for i := range 2 {
		mpi.Locations = append(mpi.Locations, &Location{ID: uint64(i), Process: 7})
	}
	require.False(t, mpi.Threaded())
	require.Equal(t, int32(1), mpi.ProcessOf(1), "without processes, location i is process i")
	require.Equal(t, 2, mpi.NumProcesses())
	for _, f := range []func(*Trace){
		func(t *Trace) { t.Regions[0].Role = RoleBarrier },
		func(t *Trace) { t.Regions[0].Paradigm = ParadigmMPI },
		func(t *Trace) { t.Comms[0].Paradigm = ParadigmMPI },
		func(t *Trace) { t.Locations[1].Kind = LocationCPUThread },
		func(t *Trace) { t.Locations[1].Events.AppendThread(KindThreadJoin, 1, Thread{Team: NoComm}) },
	} {
		c := *mpi
		c.Regions = append([]Region(nil), mpi.Regions...)
		c.Comms = append([]Comm(nil), mpi.Comms...)
		c.Locations = []*Location{mpi.Locations[0], {ID: 1}}
		f(&c)
		require.True(t, c.Threaded())
	}
	require.True(t, LocationMetric.Passive())
	require.True(t, LocationAccelerator.Passive())
	require.False(t, LocationCPUThread.Passive())
	require.False(t, LocationUnknown.Passive())
}

type rangedSink struct {
	Sink
	b []int
}

func (s rangedSink) Ranges() []int { return s.b }

// AppendRanges gives one range per location to a sink whose order does not
// matter, and a ranged sink's own ranges only when they cover the
// locations.
func TestAppendRanges(t *testing.T) {
	b, err := AppendRanges(nil, 3)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 3}, b)
	b, err = AppendRanges(rangedSink{b: []int{0, 2, 3}}, 3)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 2, 3}, b)
	for _, bad := range [][]int{{0, 2}, {1, 3}, {0, 2, 2, 3}, {0}, {0, 4, 3}} {
		_, err := AppendRanges(rangedSink{b: bad}, 3)
		assert.Error(t, err, "%v", bad)
	}
}
