// Package trace is the in-memory model of a multi-rank MPI event trace.
// Its on-disk formats live in packages native (clc's own) and otf (OTF2).
//
// A Trace holds definitions (nodes, processes, locations, regions,
// communicators, the timer resolution) and, per location, an ordered event
// sequence stored column-wise (see Events). Times are integer ticks. All
// cross references are indices: an event's communicator is an index into
// Trace.Comms, a communicator's members are indices into Trace.Locations, a
// location's node an index into Trace.Nodes and its process an index into
// Trace.Processes. Readers of other formats translate their ids.
//
// A location is one event stream: an MPI rank's master thread, another
// thread of the process, an accelerator stream or a metric stream. The
// locations of one process share one clock (one address space, one
// node); a trace without Processes has one process per location.
//
// The package imports nothing else of this module.
package trace

import (
	"errors"
	"fmt"
	"strings"
)

// Trace is a multi-location event trace.
type Trace struct {
	// Resolution is the number of timer ticks per second.
	Resolution uint64
	Nodes      []Node
	// Processes groups the locations by process (OTF2 location groups). A
	// trace without processes has one process per location: location i
	// is process i (see ProcessOf).
	Processes []Process
	Locations []*Location
	Regions   []Region
	Comms     []Comm
	// Properties are free-form key/value metadata (creator, command line …).
	Properties map[string]string
	// Carried is what the trace's source format defines beyond the model
	// (for OTF2: the anchor and every definition, mapping tables
	// included), carried along so that writing the trace back in that
	// format loses nothing; nil when there is none (see Carried).
	Carried Carried
}

// Node is a shared-memory node (host). Messages between locations on the
// same node have the intra-node latency.
type Node struct {
	Name string
}

// Process is a process: an address space whose locations (its threads,
// and accelerator and metric streams it owns) share one clock.
type Process struct {
	Name string
}

// LocationKind is what a location records, in OTF2's numbering
// (OTF2_LocationType).
type LocationKind uint8

// Location kinds.
const (
	// LocationUnknown: not said (traces of clc-trace and clc-sim's MPI
	// ranks, formats that do not record it); treated as a CPU thread.
	LocationUnknown LocationKind = 0
	// LocationCPUThread is a thread of a process (an MPI rank's master
	// thread, an OpenMP or pthread thread).
	LocationCPUThread LocationKind = 1
	// LocationAccelerator is an accelerator stream (a CUDA stream, …).
	LocationAccelerator LocationKind = 2
	// LocationMetric records metric samples only.
	LocationMetric LocationKind = 3
)

var locationKindNames = [...]string{"unknown", "cpu-thread", "accelerator-stream", "metric"}

// String returns the kind's name ("cpu-thread", …).
func (k LocationKind) String() string {
	if int(k) < len(locationKindNames) {
		return locationKindNames[k]
	}
	return fmt.Sprintf("location-kind(%d)", uint8(k))
}

// Passive reports whether locations of kind k follow their process's clock
// rather than take part in the happened-before relation themselves
// (accelerator and metric streams; docs/algorithm.md).
func (k LocationKind) Passive() bool {
	return k == LocationAccelerator || k == LocationMetric
}

// Location is one event stream: a thread of a process (an MPI rank's
// master thread or another), an accelerator stream or a metric stream.
type Location struct {
	// ID is the location's identifier in its source format (the OTF2
	// location id; the world rank for the native format).
	ID   uint64
	Name string
	// Node is an index into Trace.Nodes.
	Node int32
	// Process is an index into Trace.Processes; ignored when the trace
	// has no processes.
	Process int32
	Kind    LocationKind
	// Offsets are clock-offset measurements against the reference clock, in
	// ascending order of Time. Pre-synchronisation consumes them.
	Offsets []ClockOffset
	Events  Events
}

// ClockOffset is one measurement of a location's clock against the
// reference clock (rank 0's).
type ClockOffset struct {
	// Time is the local time of the measurement in ticks.
	Time int64
	// Offset is reference time minus local time, in ticks.
	Offset int64
	// RTT is the round-trip time of the measurement in ticks; 0 if unknown.
	RTT int64
	// StdDev is the standard deviation of the offset as OTF2 stores it; 0 if unknown.
	StdDev float64
}

// Region is a code region entered and left by events (a function, an MPI
// call, an OpenMP construct).
type Region struct {
	Name string
	// Role and Paradigm say what the region is (OTF2's numbering; 0 when
	// unknown). Shared-memory barriers are regions of role RoleBarrier or
	// RoleImplicitBarrier and paradigm ParadigmOpenMP or ParadigmPthread.
	Role     RegionRole
	Paradigm Paradigm
}

// IsThreadBarrier reports whether the region is an OpenMP or pthread
// barrier (explicit or implicit).
func (r *Region) IsThreadBarrier() bool {
	return (r.Role == RoleBarrier || r.Role == RoleImplicitBarrier) &&
		(r.Paradigm == ParadigmOpenMP || r.Paradigm == ParadigmPthread)
}

// Comm is a communicator: of MPI ranks, or a thread team or contingent of
// the threads of one process.
type Comm struct {
	Name string
	// Paradigm is the communicator's paradigm (OTF2's numbering; 0 when
	// unknown, which readers and writers take as MPI).
	Paradigm Paradigm
	// Members lists, by rank within the communicator, the location indices
	// of its members.
	Members []int32
}

// Size returns the number of members.
func (c *Comm) Size() int { return len(c.Members) }

// MPI region names with barrier semantics on the world communicator.
const (
	RegionMPIInit       = "MPI_Init"
	RegionMPIInitThread = "MPI_Init_thread"
	RegionMPIFinalize   = "MPI_Finalize"
)

// IsMPIInit reports whether the region is MPI_Init or MPI_Init_thread (any case).
func (r *Region) IsMPIInit() bool {
	return strings.EqualFold(r.Name, RegionMPIInit) || strings.EqualFold(r.Name, RegionMPIInitThread)
}

// IsMPIFinalize reports whether the region is MPI_Finalize (any case).
func (r *Region) IsMPIFinalize() bool { return strings.EqualFold(r.Name, RegionMPIFinalize) }

// NumEvents returns the total number of events over all locations.
func (t *Trace) NumEvents() int64 {
	var n int64
	for _, l := range t.Locations {
		n += int64(l.Events.Len())
	}
	return n
}

// ProcessOf returns the process of location li: Locations[li].Process, or
// li itself when the trace has no processes.
func (t *Trace) ProcessOf(li int) int32 {
	if len(t.Processes) == 0 {
		return int32(li)
	}
	return t.Locations[li].Process
}

// NumProcesses returns the number of processes: len(Processes), or the
// number of locations when the trace has no processes.
func (t *Trace) NumProcesses() int {
	if len(t.Processes) == 0 {
		return len(t.Locations)
	}
	return len(t.Processes)
}

// Threaded reports whether the trace uses anything beyond the MPI model:
// processes, location kinds, region roles or paradigms, communicator
// paradigms or thread events. Writers of the native format write version 3
// then (docs/format.md).
func (t *Trace) Threaded() bool {
	if len(t.Processes) > 0 {
		return true
	}
	for _, r := range t.Regions {
		if r.Role != 0 || r.Paradigm != 0 {
			return true
		}
	}
	for _, c := range t.Comms {
		if c.Paradigm != 0 {
			return true
		}
	}
	for _, l := range t.Locations {
		if l != nil && (l.Kind != 0 || len(l.Events.Threads) > 0) {
			return true
		}
	}
	return false
}

// SameNode reports whether locations a and b are on the same node.
func (t *Trace) SameNode(a, b int) bool {
	return t.Locations[a].Node == t.Locations[b].Node
}

// EventError reports a problem with one event of a trace.
type EventError struct {
	// Location is the location index; Event the event index within it
	// (-1 when the problem is not bound to an event).
	Location int
	Event    int
	Err      error
}

func (e *EventError) Error() string {
	if e.Event < 0 {
		return fmt.Sprintf("location %d: %v", e.Location, e.Err)
	}
	return fmt.Sprintf("location %d, event %d: %v", e.Location, e.Event, e.Err)
}

func (e *EventError) Unwrap() error { return e.Err }

// ErrInvalid is wrapped by every error Validate returns.
var ErrInvalid = errors.New("invalid trace")

// Validate checks the trace's internal consistency: every reference in
// range, payload tables consistent with the event columns, communicator
// members distinct, message peers within their communicator, offsets in
// order, the locations of a process on one node. It does not require times
// to be ordered (Unordered reports that).
func (t *Trace) Validate() error {
	if err := t.ValidateDefs(); err != nil {
		return err
	}
	for li := range t.Locations {
		if err := t.ValidateEvents(li); err != nil {
			return err
		}
	}
	return nil
}

// invalid returns an EventError wrapping ErrInvalid.
func invalid(loc, ev int, format string, args ...any) error {
	return &EventError{Location: loc, Event: ev, Err: fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)}
}

// ValidateDefs is the part of Validate that does not look at events:
// communicators, locations, processes, nodes and clock offsets.
func (t *Trace) ValidateDefs() error {
	if err := t.ValidateSharedDefs(); err != nil {
		return err
	}
	for li := range t.Locations {
		if err := t.ValidateOffsets(li); err != nil {
			return err
		}
	}
	return nil
}

// ValidateOffsets checks location li's clock offsets: in ascending order
// of time. A reader that fills them location by location checks each
// location's when it is read (ValidateSharedDefs checks the rest).
func (t *Trace) ValidateOffsets(li int) error {
	offs := t.Locations[li].Offsets
	for k := 1; k < len(offs); k++ {
		if offs[k].Time <= offs[k-1].Time {
			return invalid(li, -1, "clock offsets %d and %d not in ascending order of time", k-1, k)
		}
	}
	return nil
}

// ValidateSharedDefs is ValidateDefs without the locations' clock offsets:
// the definitions every location shares, and the locations' nodes and
// processes, which readers know before they read any location's own data.
func (t *Trace) ValidateSharedDefs() error {
	if t.Resolution == 0 {
		return fmt.Errorf("%w: timer resolution is 0", ErrInvalid)
	}
	for ci := range t.Comms {
		seen := make(map[int32]bool, len(t.Comms[ci].Members))
		for r, m := range t.Comms[ci].Members {
			if m < 0 || int(m) >= len(t.Locations) {
				return fmt.Errorf("%w: communicator %d (%q): member %d is location %d, out of range", ErrInvalid, ci, t.Comms[ci].Name, r, m)
			}
			if seen[m] {
				return fmt.Errorf("%w: communicator %d (%q): location %d is a member twice", ErrInvalid, ci, t.Comms[ci].Name, m)
			}
			seen[m] = true
		}
	}
	procNode := make([]int32, len(t.Processes))
	for i := range procNode {
		procNode[i] = -1
	}
	for li, l := range t.Locations {
		if l == nil {
			return invalid(li, -1, "nil location")
		}
		if l.Node < 0 || int(l.Node) >= len(t.Nodes) {
			return invalid(li, -1, "node %d out of range", l.Node)
		}
		if len(t.Processes) > 0 {
			if l.Process < 0 || int(l.Process) >= len(t.Processes) {
				return invalid(li, -1, "process %d out of range", l.Process)
			}
			if n := procNode[l.Process]; n >= 0 && n != l.Node {
				return invalid(li, -1, "on node %d, but process %d (%q) has a location on node %d", l.Node, l.Process, t.Processes[l.Process].Name, n)
			}
			procNode[l.Process] = l.Node
		}
	}
	return nil
}

// ValidateEvents is the part of Validate about location li's events:
// payload tables consistent with the columns, every reference in range,
// message peers and roots within their communicator. The definitions must
// be valid (ValidateDefs). Errors name the event by its position in the
// location's whole sequence (also in a selection).
func (t *Trace) ValidateEvents(li int) error {
	ev := &t.Locations[li].Events
	if err := ev.Check(); err != nil {
		return invalid(li, -1, "%v", err)
	}
	if ev.Len() > MaxEvents {
		return invalid(li, -1, "%d events, more than %d", ev.Len(), MaxEvents)
	}
	for i, k := range ev.Kind {
		switch {
		case k == KindEnter || k == KindLeave:
			if int(ev.Ref[i]) >= len(t.Regions) {
				return invalid(li, int(ev.Pos(i)), "%s: region %d out of range", k, ev.Ref[i])
			}
		case k == KindCommCreate || k == KindCommDestroy:
			if int(ev.Ref[i]) >= len(t.Comms) {
				return invalid(li, int(ev.Pos(i)), "%s: communicator %d out of range", k, ev.Ref[i])
			}
		case k.HasMsg():
			m := ev.Msg(i)
			if int(m.Comm) >= len(t.Comms) {
				return invalid(li, int(ev.Pos(i)), "%s: communicator %d out of range", k, m.Comm)
			}
			if int(m.Peer) >= t.Comms[m.Comm].Size() {
				return invalid(li, int(ev.Pos(i)), "%s: peer rank %d outside communicator %d of size %d", k, m.Peer, m.Comm, t.Comms[m.Comm].Size())
			}
		case k.HasColl():
			c := ev.Coll(i)
			if int(c.Comm) >= len(t.Comms) {
				return invalid(li, int(ev.Pos(i)), "%s: communicator %d out of range", k, c.Comm)
			}
			if c.Root != NoRoot && int(c.Root) >= t.Comms[c.Comm].Size() {
				return invalid(li, int(ev.Pos(i)), "%s: root rank %d outside communicator %d of size %d", k, c.Root, c.Comm, t.Comms[c.Comm].Size())
			}
		case k.HasThread():
			if tm := ev.Thread(i).Team; tm != NoComm && int(tm) >= len(t.Comms) {
				return invalid(li, int(ev.Pos(i)), "%s: communicator %d out of range", k, tm)
			}
		}
	}
	return nil
}

// Unordered returns an error naming the first event whose time is smaller
// than its predecessor's on the same location, or nil if every location's
// times never decrease.
func (t *Trace) Unordered() error {
	for li, l := range t.Locations {
		ts := l.Events.Time
		for i := 1; i < len(ts); i++ {
			if ts[i] < ts[i-1] {
				return &EventError{Location: li, Event: i, Err: fmt.Errorf("time %d is before the previous event's %d", ts[i], ts[i-1])}
			}
		}
	}
	return nil
}

// CommRank returns the rank of location loc in communicator c, or -1.
// It scans the member list; callers that need many lookups build an index.
func (c *Comm) CommRank(loc int32) int {
	for r, m := range c.Members {
		if m == loc {
			return r
		}
	}
	return -1
}
