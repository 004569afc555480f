// Package replay derives the happened-before relation of a trace — MPI's
// (point-to-point message matching and collective instances) and the
// shared-memory relations between the threads of a process (fork, join,
// barriers, locks, tasks, thread creation) — and runs a parallel replay
// over it: each location walks its events in order, and a logical receive
// waits only for the corrected times of its logical sends, which travel
// through an Exchange.
//
// The package knows nothing of the controlled logical clock; package clc
// supplies the per-event computation.
package replay

import (
	"fmt"

	"github.com/clc-tools/clc/trace"
)

// Role says what an event is in the happened-before relation.
type Role uint8

// Roles of an event. An event has at most one role.
const (
	// RoleSend is a point-to-point send with a matched receive.
	RoleSend Role = iota + 1
	// RoleRecv is a point-to-point receive with a matched send.
	RoleRecv
	// RoleCollSend is the logical send of a member of a collective instance
	// (its begin event, or the request of a non-blocking collective, or the
	// enter of MPI_Init/MPI_Finalize).
	RoleCollSend
	// RoleCollRecv is the logical receive of a member of a collective
	// instance (its end event, the completion, or the leave).
	RoleCollRecv
	// RoleSyncSend and RoleSyncRecv are the two ends of a one-to-one
	// shared-memory relation (Dep.Sync says which): a lock release and the
	// next acquisition, a task's creation and a first switch into it, a
	// thread's creation and its begin, its end and the wait for it.
	RoleSyncSend
	RoleSyncRecv
)

// IsRecv reports whether r waits for sends (a receive of any kind).
func (r Role) IsRecv() bool { return r == RoleRecv || r == RoleCollRecv || r == RoleSyncRecv }

// Dep is one logical send or receive of a location.
type Dep struct {
	// Idx is the event's index on its location.
	Idx  uint32
	Role Role
	// Sync is the shared-memory relation of a RoleSyncSend or RoleSyncRecv
	// (0 for the others; an instance's Kind says it for instance roles).
	Sync SyncKind
	// Peer is the partner location of a point-to-point event, or the
	// member's rank within its collective instance.
	Peer int32
	// Ref is the partner's event index (point-to-point) or the instance
	// index (collective).
	Ref uint32
}

// SyncKind is a shared-memory happened-before relation between the
// threads of a process (docs/algorithm.md, "Shared memory").
type SyncKind uint8

// Shared-memory relations.
const (
	// SyncFork: a fork precedes every team begin of the team it forks
	// (an instance of class ClassOneToN).
	SyncFork SyncKind = iota + 1
	// SyncJoin: every team end precedes the join (ClassNToOne).
	SyncJoin
	// SyncBarrier: in a barrier instance every entry — or the last task
	// completion inside the barrier on that thread — precedes every exit
	// (ClassBarrier).
	SyncBarrier
	// SyncLock: the release of a lock's k-th acquisition precedes its
	// (k+1)-th acquisition (one to one).
	SyncLock
	// SyncTaskCreate: a task's creation precedes the first switch into it
	// on every location that runs it (one to one).
	SyncTaskCreate
	// SyncTaskWait: the completion of every child task precedes the end of
	// the taskwait of its parent that follows the child's creation
	// (ClassNToOne).
	SyncTaskWait
	// SyncThreadCreate: a thread's creation precedes its begin (one to one).
	SyncThreadCreate
	// SyncThreadJoin: a thread's end precedes the wait for it (one to one).
	SyncThreadJoin

	// NumSyncKinds is one more than the largest kind.
	NumSyncKinds
)

var syncNames = [...]string{"", "fork", "join", "barrier", "lock", "task-create", "taskwait", "thread-create", "thread-join"}

// String returns the relation's name ("fork", "barrier", …).
func (k SyncKind) String() string {
	if k > 0 && int(k) < len(syncNames) {
		return syncNames[k]
	}
	return fmt.Sprintf("sync(%d)", uint8(k))
}

// NoEvent marks the absence of an event index.
const NoEvent = ^uint32(0)

// Class is the message pattern of a collective instance (docs/algorithm.md, "Logical messages").
type Class uint8

// Collective classes.
const (
	ClassBarrier Class = iota + 1 // all members send and receive
	ClassOneToN                   // the root sends, the others receive
	ClassNToOne                   // the members send, the root receives
	ClassNToN                     // every member sends and receives
	ClassScan                     // rank k's begin precedes the end of every rank i > k
)

var classNames = [...]string{"", "barrier", "1-to-N", "N-to-1", "N-to-N", "scan"}

func (c Class) String() string {
	if int(c) < len(classNames) && c > 0 {
		return classNames[c]
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// Instance is one collective operation instance: the k-th collective on a
// communicator at every member; or, with Kind set, one instance of a
// shared-memory relation among the threads of a process (a fork, join,
// barrier or taskwait).
type Instance struct {
	Comm  uint32 // communicator index (the thread team); NoEvent for MPI_Init/Finalize over all locations and for taskwaits
	Seq   uint32 // k
	Op    trace.CollOp
	Class Class
	// Kind is the shared-memory relation of the instance, 0 for MPI.
	Kind SyncKind
	// Parts[First:First+N] are the members, in rank order.
	First, N uint32
	// Senders is the number of members with a logical send.
	Senders uint32
}

// Part is one member of an instance.
type Part struct {
	Loc int32
	// Send and Recv are the member's logical send and receive events, or
	// NoEvent when it has none in this instance.
	Send, Recv uint32
}

// Graph is the happened-before relation of a trace.
type Graph struct {
	// Deps lists, per location, its logical sends and receives in ascending
	// order of event index.
	Deps      [][]Dep
	Instances []Instance
	Parts     []Part
	// Issues lists what could not be matched; those events are internal.
	Issues Issues
	// Messages is the number of matched point-to-point messages.
	Messages int64
	// LogicalMessages is the number of logical (sender, receiver) pairs of
	// collective instances, self pairs excluded.
	LogicalMessages int64
	// Ignored counts the ALLTOALLV/W instances kept internal by
	// AlltoallvIgnore: the trace cannot tell which members exchanged data.
	Ignored int64
	// Single counts the collective instances on one-member communicators
	// (MPI_COMM_SELF and the like): a process exchanges nothing with
	// itself, so they are internal.
	Single int64
	// Sync counts the shared-memory relations by kind: (sender, receiver)
	// pairs of events on distinct locations. LogicalMessages leaves them
	// out.
	Sync [NumSyncKinds]int64
}

// SyncTotal returns the number of shared-memory relations of all kinds.
func (g *Graph) SyncTotal() int64 {
	var n int64
	for _, c := range g.Sync {
		n += c
	}
	return n
}

// InstanceParts returns the members of instance i.
func (g *Graph) InstanceParts(i uint32) []Part {
	in := &g.Instances[i]
	return g.Parts[in.First : in.First+in.N]
}

// IssueKind classifies a matching problem.
type IssueKind uint8

// Kinds of issues.
const (
	UnmatchedSend IssueKind = iota + 1
	UnmatchedRecv
	// IncompleteCollective: not every member of the communicator has the
	// instance (a trace cut mid-run, partial tracing).
	IncompleteCollective
	// InconsistentCollective: the members disagree on the operation or root.
	InconsistentCollective
	// UnpairedRegion: MPI_Init or MPI_Finalize not entered and left exactly
	// once on every location.
	UnpairedRegion
	// DroppedDependency: a receive whose send could never be replayed
	// (a happened-before cycle), treated as internal.
	DroppedDependency
	// UnmatchedThread: a shared-memory event whose partner is missing (a
	// fork without a team, a lock acquisition whose predecessor was not
	// released, a task never run, a thread begin without its create, …).
	UnmatchedThread
	// IncompleteThread: a thread team or barrier instance that not every
	// member of the team has.
	IncompleteThread
	// InconsistentThread: shared-memory events that contradict each other
	// (members in different barrier regions, a lock order or a task
	// created twice, …).
	InconsistentThread
	// ForeignCollective: a collective posted on a communicator whose
	// members do not include its location, or that has none.
	ForeignCollective
	// EmptyProcess: a process (a location, in a trace without processes)
	// none of whose locations has an event; found by the reader of the
	// trace, not by matching.
	EmptyProcess
	// EmptyTrace: a trace without any event (or without locations); found
	// by the reader of the trace, not by matching.
	EmptyTrace
	// BackwardTime: an event whose time is before its predecessor's on
	// the same location in the input (a timer that went backwards, a
	// corrupt record); the correction makes the times non-decreasing.
	// Found before pre-synchronisation, not by matching.
	BackwardTime
)

var issueNames = [...]string{"", "unmatched send", "unmatched receive", "incomplete collective",
	"inconsistent collective", "unpaired MPI_Init/MPI_Finalize", "dropped dependency (cycle)",
	"unmatched thread event", "incomplete thread instance", "inconsistent thread events",
	"collective outside its communicator", "process without events", "trace without events",
	"time going backward"}

func (k IssueKind) String() string {
	if int(k) < len(issueNames) && k > 0 {
		return issueNames[k]
	}
	return fmt.Sprintf("issue(%d)", uint8(k))
}

// Issue is one example of a matching problem.
type Issue struct {
	Kind     IssueKind
	Location int32
	Event    uint32
	Detail   string
}

func (i Issue) String() string {
	if i.Location < 0 {
		return fmt.Sprintf("%s: %s", i.Kind, i.Detail)
	}
	if i.Event == NoEvent {
		return fmt.Sprintf("%s: location %d: %s", i.Kind, i.Location, i.Detail)
	}
	return fmt.Sprintf("%s: location %d, event %d: %s", i.Kind, i.Location, i.Event, i.Detail)
}

// MaxExamples is the number of example issues kept per kind.
const MaxExamples = 10

// Issues counts matching problems by kind and keeps a few examples of each.
type Issues struct {
	Count    map[IssueKind]int64
	Examples []Issue
}

// Add records an issue.
func (s *Issues) Add(i Issue) {
	if s.Count == nil {
		s.Count = make(map[IssueKind]int64)
	}
	s.Count[i.Kind]++
	if s.Count[i.Kind] <= MaxExamples {
		s.Examples = append(s.Examples, i)
	}
}

// Merge adds the issues of o, keeping at most MaxExamples examples of
// each kind (the first ones in the order of merging).
func (s *Issues) Merge(o *Issues) {
	for _, e := range o.Examples {
		kept := 0
		for _, x := range s.Examples {
			if x.Kind == e.Kind {
				kept++
			}
		}
		if kept < MaxExamples {
			s.Examples = append(s.Examples, e)
		}
	}
	for k, n := range o.Count {
		if s.Count == nil {
			s.Count = make(map[IssueKind]int64)
		}
		s.Count[k] += n
	}
}

// Total returns the number of issues of all kinds.
func (s *Issues) Total() int64 {
	var n int64
	for _, c := range s.Count {
		n += c
	}
	return n
}
