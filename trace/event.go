package trace

import "fmt"

// Kind is the type of an event. The numeric values are stable: the native
// format stores them as they are (docs/format.md).
type Kind uint8

// Event kinds. The comment after each kind says what its Ref column holds.
const (
	KindInvalid Kind = iota
	// KindEnter enters a code region. Ref: region index.
	KindEnter
	// KindLeave leaves a code region. Ref: region index.
	KindLeave
	// KindSend is a blocking send (MPI_Send, Ssend, Bsend, Rsend). Ref: index into Msgs.
	KindSend
	// KindIsend is the call of a non-blocking send. Ref: index into Msgs (Request set).
	KindIsend
	// KindIsendComplete completes an isend inside Wait/Test. Ref: index into Reqs.
	KindIsendComplete
	// KindIrecvRequest posts a non-blocking receive (the MPI_Irecv call). Ref: index into Reqs.
	KindIrecvRequest
	// KindRecv is a completed blocking receive. Ref: index into Msgs.
	KindRecv
	// KindIrecv is the completion of a non-blocking receive. Ref: index into Msgs (Request set).
	KindIrecv
	// KindRequestTest is an unsuccessful test of a request. Ref: index into Reqs.
	KindRequestTest
	// KindRequestCancelled marks a cancelled request. Ref: index into Reqs.
	KindRequestCancelled
	// KindCollBegin begins a blocking collective operation. Ref: unused (0).
	KindCollBegin
	// KindCollEnd ends a blocking collective operation. Ref: index into Colls.
	KindCollEnd
	// KindNBCollRequest starts a non-blocking collective (MPI_Iallreduce …). Ref: index into Reqs.
	KindNBCollRequest
	// KindNBCollComplete completes a non-blocking collective. Ref: index into Colls (Request set).
	KindNBCollComplete
	// KindCommCreate marks the creation of a communicator. Ref: communicator index.
	KindCommCreate
	// KindCommDestroy marks the destruction of a communicator. Ref: communicator index.
	KindCommDestroy
	// KindOther is any other record, kept so that nothing is lost. Ref: index into Opaque.
	KindOther

	// The shared-memory (thread) kinds below have their payload in
	// Events.Threads (Ref: index into Threads); docs/algorithm.md says
	// which happened-before relation each takes part in.

	// KindThreadFork: a thread forks a team (OTF2 ThreadFork, OmpFork).
	// Payload: Model, Threads.
	KindThreadFork
	// KindThreadJoin: the team is joined (OTF2 ThreadJoin, OmpJoin). Payload: Model.
	KindThreadJoin
	// KindThreadTeamBegin: the location begins its part in a thread team.
	// Payload: Team.
	KindThreadTeamBegin
	// KindThreadTeamEnd: the location ends its part in a thread team. Payload: Team.
	KindThreadTeamEnd
	// KindThreadAcquireLock: a lock was acquired (OTF2 ThreadAcquireLock,
	// OmpAcquireLock). Payload: Model, Lock, Order.
	KindThreadAcquireLock
	// KindThreadReleaseLock: a lock is released. Payload: Model, Lock, Order
	// (the order of the acquisition it releases).
	KindThreadReleaseLock
	// KindThreadTaskCreate: a task is created. Payload: Team, Creator,
	// Generation (legacy OmpTaskCreate: Sequence holds the task id).
	KindThreadTaskCreate
	// KindThreadTaskSwitch: the location switches to (begins or resumes) a
	// task. Payload as for KindThreadTaskCreate.
	KindThreadTaskSwitch
	// KindThreadTaskComplete: a task completes. Payload as for KindThreadTaskCreate.
	KindThreadTaskComplete
	// KindThreadCreate: a thread is created (OTF2 ThreadCreate,
	// pthread_create). Payload: Team (the thread contingent), Sequence.
	KindThreadCreate
	// KindThreadBegin: the created thread begins. Payload: Team, Sequence.
	KindThreadBegin
	// KindThreadWait: a thread is waited for (pthread_join returns).
	// Payload: Team, Sequence.
	KindThreadWait
	// KindThreadEnd: the created thread ends. Payload: Team, Sequence.
	KindThreadEnd

	// NumKinds is the number of kinds, KindInvalid included: every valid
	// kind is below it.
	NumKinds
)

var kindNames = [NumKinds]string{
	"invalid", "enter", "leave", "send", "isend", "isend-complete", "irecv-request",
	"recv", "irecv", "request-test", "request-cancelled", "coll-begin", "coll-end",
	"nbcoll-request", "nbcoll-complete", "comm-create", "comm-destroy", "other",
	"thread-fork", "thread-join", "thread-team-begin", "thread-team-end",
	"thread-acquire-lock", "thread-release-lock", "thread-task-create",
	"thread-task-switch", "thread-task-complete", "thread-create", "thread-begin",
	"thread-wait", "thread-end",
}

// String returns the kind's name.
func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Valid reports whether k is a defined kind other than KindInvalid.
func (k Kind) Valid() bool { return k > KindInvalid && k < NumKinds }

// IsSend reports whether k sends a point-to-point message (the send call of
// a blocking or non-blocking send).
func (k Kind) IsSend() bool { return k == KindSend || k == KindIsend }

// IsRecv reports whether k completes the receipt of a point-to-point message.
func (k Kind) IsRecv() bool { return k == KindRecv || k == KindIrecv }

// HasMsg reports whether the Ref of an event of kind k indexes Msgs.
func (k Kind) HasMsg() bool { return k.IsSend() || k.IsRecv() }

// HasReq reports whether the Ref of an event of kind k indexes Reqs.
func (k Kind) HasReq() bool {
	switch k {
	case KindIsendComplete, KindIrecvRequest, KindRequestTest, KindRequestCancelled, KindNBCollRequest:
		return true
	}
	return false
}

// HasColl reports whether the Ref of an event of kind k indexes Colls.
func (k Kind) HasColl() bool { return k == KindCollEnd || k == KindNBCollComplete }

// HasThread reports whether k is a shared-memory (thread) kind, whose Ref
// indexes Threads.
func (k Kind) HasThread() bool { return k >= KindThreadFork && k <= KindThreadEnd }

// CollOp is the operation of a collective. The values are OTF2's.
type CollOp uint8

// Collective operations (OTF2_CollectiveOp).
const (
	OpBarrier            CollOp = 0
	OpBcast              CollOp = 1
	OpGather             CollOp = 2
	OpGatherv            CollOp = 3
	OpScatter            CollOp = 4
	OpScatterv           CollOp = 5
	OpAllgather          CollOp = 6
	OpAllgatherv         CollOp = 7
	OpAlltoall           CollOp = 8
	OpAlltoallv          CollOp = 9
	OpAlltoallw          CollOp = 10
	OpAllreduce          CollOp = 11
	OpReduce             CollOp = 12
	OpReduceScatter      CollOp = 13
	OpScan               CollOp = 14
	OpExscan             CollOp = 15
	OpReduceScatterBlock CollOp = 16
	// 17–22 are OTF2's create/destroy-handle and allocate/deallocate
	// variants; they are kept but have no message semantics.
	OpCreateHandle               CollOp = 17
	OpDestroyHandle              CollOp = 18
	OpAllocate                   CollOp = 19
	OpDeallocate                 CollOp = 20
	OpCreateHandleAndAllocate    CollOp = 21
	OpDestroyHandleAndDeallocate CollOp = 22
)

var opNames = [...]string{
	"barrier", "bcast", "gather", "gatherv", "scatter", "scatterv", "allgather",
	"allgatherv", "alltoall", "alltoallv", "alltoallw", "allreduce", "reduce",
	"reduce_scatter", "scan", "exscan", "reduce_scatter_block", "create_handle",
	"destroy_handle", "allocate", "deallocate", "create_handle_and_allocate",
	"destroy_handle_and_deallocate",
}

// String returns the operation's name in lower case (e.g. "allreduce").
func (o CollOp) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// NoRoot is the Root of a collective that has none (OTF2_COLLECTIVE_ROOT_NONE).
const NoRoot = ^uint32(0)

// Message is the payload of a point-to-point event.
type Message struct {
	// Peer is the rank of the partner (receiver of a send, sender of a
	// receive) within Comm.
	Peer uint32
	// Comm is an index into Trace.Comms.
	Comm uint32
	// Tag is the message tag.
	Tag uint32
	// Bytes is the message length.
	Bytes uint64
	// Request is the request id of an Isend or Irecv; 0 otherwise.
	Request uint64
}

// Collective is the payload of a collective end event.
type Collective struct {
	Op CollOp
	// Comm is an index into Trace.Comms.
	Comm uint32
	// Root is the root's rank within Comm, or NoRoot.
	Root uint32
	// Sent and Received are the numbers of bytes this member sent and received.
	Sent     uint64
	Received uint64
	// Request is the request id of a non-blocking collective; 0 otherwise.
	Request uint64
}

// NoComm marks the absence of a communicator (a thread record whose team
// or contingent is undefined).
const NoComm = ^uint32(0)

// Thread is the payload of a shared-memory (thread) event. Which fields
// a kind uses is said at the kind; the others are zero.
type Thread struct {
	// Model is the threading paradigm of a fork, join or lock event, in
	// OTF2's numbering (ParadigmOpenMP, ParadigmPthread, …).
	Model Paradigm
	// Legacy is set for an event read from one of OTF2 1.0's OpenMP records
	// (OmpFork, OmpJoin, OmpAcquireLock, OmpReleaseLock, OmpTaskCreate,
	// OmpTaskSwitch, OmpTaskComplete); an OTF2 writer writes it back as one.
	Legacy bool
	// Team is the thread team (team begin and end, task events) or the
	// thread contingent (thread create, begin, wait, end): an index into
	// Trace.Comms, or NoComm.
	Team uint32
	// Lock and Order are a lock event's lock id and acquisition order.
	Lock, Order uint32
	// Threads is a fork's requested number of threads.
	Threads uint32
	// Creator (the creating thread's rank in Team) and Generation identify
	// a task.
	Creator, Generation uint32
	// Sequence is the sequence count of a thread create, begin, wait or
	// end, and the task id of a legacy OpenMP task event.
	Sequence uint64
}

// Paradigm is a programming model, in OTF2's numbering (OTF2_Paradigm).
type Paradigm uint8

// Paradigms clc distinguishes (OTF2_Paradigm values).
const (
	ParadigmUnknown Paradigm = 0
	ParadigmUser    Paradigm = 1
	ParadigmOpenMP  Paradigm = 3
	ParadigmMPI     Paradigm = 4
	ParadigmCUDA    Paradigm = 5
	ParadigmPthread Paradigm = 7
)

// RegionRole is what a region is, in OTF2's numbering (OTF2_RegionRole).
type RegionRole uint8

// Region roles clc uses (OTF2_RegionRole values); the others are kept as
// they are.
const (
	RoleUnknown         RegionRole = 0
	RoleFunction        RegionRole = 1
	RoleParallel        RegionRole = 5
	RoleCritical        RegionRole = 12
	RoleCriticalSblock  RegionRole = 13
	RoleBarrier         RegionRole = 15
	RoleImplicitBarrier RegionRole = 16
	RoleTask            RegionRole = 20
	RoleTaskCreate      RegionRole = 21
	RoleTaskWait        RegionRole = 22
	RoleThreadCreate    RegionRole = 32
	RoleThreadWait      RegionRole = 33
)

// Opaque is a record this package does not interpret, kept so that a round
// trip loses nothing. Type and Data are meaningful to the format that
// produced them (for OTF2: the record type id and its encoded payload).
type Opaque struct {
	Format uint8
	Type   uint32
	Data   []byte
}

// Formats an Opaque record may come from.
const (
	FormatNative uint8 = 0
	FormatOTF2   uint8 = 1
)

// Attachment is extra data bound to one event, such as an OTF2 attribute
// list. It does not count as an event of its own.
type Attachment struct {
	// Event is the index of the event the data belongs to.
	Event  uint32
	Format uint8
	Data   []byte
}
