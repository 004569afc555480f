/* clc-trace PMPI library: shared declarations.
 *
 * The library records MPI calls of one process into the clc native trace
 * format (docs/format.md) and is built by clc-trace on first use with the
 * user's MPI C compiler. Nothing runs before MPI_Init: no constructors.
 * Only the thread that called MPI_Init records (MPI_THREAD_FUNNELED at most).
 */
#ifndef CLC_H
#define CLC_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* Every wrapped MPI function, in the order of the manifest's region table. */
#define CLC_REGIONS(X) \
  X(MPI_Init) X(MPI_Init_thread) X(MPI_Finalize) X(MPI_Abort) \
  X(MPI_Send) X(MPI_Ssend) X(MPI_Bsend) X(MPI_Rsend) X(MPI_Recv) \
  X(MPI_Sendrecv) X(MPI_Sendrecv_replace) X(MPI_Probe) X(MPI_Iprobe) \
  X(MPI_Mprobe) X(MPI_Improbe) X(MPI_Mrecv) \
  X(MPI_Isend) X(MPI_Issend) X(MPI_Ibsend) X(MPI_Irsend) X(MPI_Irecv) \
  X(MPI_Send_init) X(MPI_Ssend_init) X(MPI_Bsend_init) X(MPI_Rsend_init) \
  X(MPI_Recv_init) X(MPI_Start) X(MPI_Startall) X(MPI_Request_free) \
  X(MPI_Wait) X(MPI_Waitall) X(MPI_Waitany) X(MPI_Waitsome) \
  X(MPI_Test) X(MPI_Testall) X(MPI_Testany) X(MPI_Testsome) X(MPI_Cancel) \
  X(MPI_Barrier) X(MPI_Bcast) X(MPI_Gather) X(MPI_Gatherv) X(MPI_Scatter) \
  X(MPI_Scatterv) X(MPI_Allgather) X(MPI_Allgatherv) X(MPI_Alltoall) \
  X(MPI_Alltoallv) X(MPI_Alltoallw) X(MPI_Allreduce) X(MPI_Reduce) \
  X(MPI_Reduce_scatter) X(MPI_Reduce_scatter_block) X(MPI_Scan) X(MPI_Exscan) \
  X(MPI_Ibarrier) X(MPI_Ibcast) X(MPI_Ireduce) X(MPI_Iallreduce) \
  X(MPI_Comm_dup) X(MPI_Comm_dup_with_info) X(MPI_Comm_split) \
  X(MPI_Comm_split_type) X(MPI_Comm_create) X(MPI_Comm_create_group) \
  X(MPI_Cart_create) X(MPI_Cart_sub) X(MPI_Comm_free)

#define CLC_X_ENUM(n) R_##n,
enum clc_region { CLC_REGIONS(CLC_X_ENUM) R_COUNT };
#undef CLC_X_ENUM

/* Event kinds (docs/format.md). */
enum clc_kind {
  K_ENTER = 1, K_LEAVE = 2, K_SEND = 3, K_ISEND = 4, K_ISEND_COMPLETE = 5,
  K_IRECV_REQUEST = 6, K_RECV = 7, K_IRECV = 8, K_REQUEST_TEST = 9,
  K_REQUEST_CANCELLED = 10, K_COLL_BEGIN = 11, K_COLL_END = 12,
  K_NBCOLL_REQUEST = 13, K_NBCOLL_COMPLETE = 14, K_COMM_CREATE = 15,
  K_COMM_DESTROY = 16
};

/* Collective operations, OTF2's numbering. */
enum clc_op {
  OP_BARRIER = 0, OP_BCAST, OP_GATHER, OP_GATHERV, OP_SCATTER, OP_SCATTERV,
  OP_ALLGATHER, OP_ALLGATHERV, OP_ALLTOALL, OP_ALLTOALLV, OP_ALLTOALLW,
  OP_ALLREDUCE, OP_REDUCE, OP_REDUCE_SCATTER, OP_SCAN, OP_EXSCAN,
  OP_REDUCE_SCATTER_BLOCK
};

/* Thread state: 1 = the recording thread, outside any wrapper; anything
 * else (0 = not recording, 2 = inside a wrapper) passes calls through. */
extern __thread int clc_t __attribute__((tls_model("initial-exec")));
#define CLC_ON() (clc_t == 1)

/* Timer: raw TSC ticks (true time). */
#if defined(__x86_64__) || defined(__i386__)
static inline int64_t clc_now(void) {
  unsigned lo, hi, aux;
  __asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
  return (int64_t)(((uint64_t)hi << 32) | lo);
}
#else
#include <time.h>
static inline int64_t clc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
#endif

/* Communicators known to the tracer. */
typedef struct clc_comm {
  uint64_t key;   /* the handle's bits */
  uint32_t pos;   /* position in the manifest's communicators */
  int size, rank; /* size of and own rank in the communicator */
} clc_comm;

/* Requests known to the tracer. */
enum { RQ_SEND = 1, RQ_RECV = 2, RQ_NBCOLL = 3 };
typedef struct clc_req {
  uint64_t key;      /* the handle's bits; 0 = empty slot */
  uint64_t id;       /* request id in the trace */
  uint64_t bytes;    /* send: message bytes; nbcoll: bytes sent */
  uint64_t rbytes;   /* nbcoll: bytes received */
  MPI_Datatype dtype;/* recv: datatype for the byte count at completion */
  int kind;          /* RQ_* */
  int persistent, active;
  uint32_t comm;     /* communicator position */
  int peer, tag;     /* persistent sends: destination and tag */
  int op, root1;     /* nbcoll */
} clc_req;

/* Recording. */
void clc_region(int kind, int64_t t, int region);
void clc_msg(int kind, int64_t t, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t bytes, uint64_t req);
void clc_reqev(int kind, int64_t t, uint64_t req);
void clc_collbegin(int64_t t);
void clc_collend(int kind, int64_t t, int op, uint32_t comm, uint32_t root1, uint64_t sent, uint64_t recvd, uint64_t req);
void clc_commev(int kind, int64_t t, uint32_t comm);

/* Communicators. */
clc_comm *clc_comm_find(MPI_Comm c);
void clc_comm_register(MPI_Comm c, const char *how, int64_t t);
void clc_comm_forget(MPI_Comm c, int64_t t);
extern uint64_t clc_unknown_comm;

/* Requests. */
clc_req *clc_req_add(MPI_Request r, int kind, uint32_t comm);
clc_req *clc_req_find(MPI_Request r);
void clc_req_del(clc_req *q);
uint64_t clc_next_req_id(void);
/* Records the completion of the request whose handle was r, with status st. */
void clc_complete(MPI_Request r, MPI_Status *st, int64_t t);
/* Records request-test events for unsuccessful tests of reqs[0..n). */
void clc_tested(const MPI_Request *reqs, int n, int64_t t);

/* Scratch space owned by the recording thread. */
MPI_Request *clc_scratch_reqs(int n);
MPI_Status *clc_scratch_status(int n);
int *clc_scratch_ints(int n);

uint64_t clc_tsize(MPI_Datatype d);

/* Life cycle. */
void clc_init(int64_t t_enter, int region);
void clc_finalize(int64_t t_enter);
void clc_abort(void);
extern int clc_world_rank, clc_world_size;

#endif
