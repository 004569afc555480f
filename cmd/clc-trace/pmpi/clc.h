/* clc-trace PMPI library: shared declarations.
 *
 * The library records MPI calls of one process into the clc native trace
 * format (docs/format.md) and is built by clc-trace on first use with the
 * user's MPI C compiler. Nothing runs before MPI_Init: no constructors.
 * Only the thread that called MPI_Init records (MPI_THREAD_FUNNELED at most).
 *
 * The wrappers (wrap_gen.c, fortran_gen.c) are generated from the table
 * tracer/mpifn/functions.tbl: each calls clc_enter, the table's pre hook,
 * the PMPI function, the post hook and clc_leave. The hooks (h_*, in
 * hooks.c) record the call's events. */
#ifndef CLC_H
#define CLC_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "format_gen.h"
#include "regions_gen.h"

/* The library is built with -fvisibility=hidden: only the MPI functions it
 * defines are exported, and its own functions and data are reached
 * directly, not through the PLT and GOT. */
#define CLC_EXPORT __attribute__((visibility("default")))

#define CLC_X_ENUM(n, g) R_##n,
enum clc_region { CLC_REGIONS(CLC_X_ENUM) R_COUNT };
#undef CLC_X_ENUM

/* The tag of the logical messages a neighbourhood collective is recorded
 * as: above any MPI tag (tags are non-negative ints). */
#define CLC_NBR_TAG 0x80000000u

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

/* ------------------------------------------------------------ the call */

/* The wrapped call in progress. Its enter event is written lazily, with
 * its first other event or its leave, so that a call whose group is
 * filtered out or an unsuccessful poll that a run absorbs leaves no
 * trace. */
typedef struct clc_call {
  int64_t t0;
  int region;
  int enter_pending;
  int mute;        /* the function's group is filtered out */
  int poll_failed; /* an unsuccessful test or probe */
  int has_bytes;   /* bytes (IO, RMA) to attach to the leave */
  uint64_t bytes;
  int ntested;     /* request ids tested by the unsuccessful poll */
  int tested_cap;
  uint64_t *tested;
} clc_call;
extern clc_call clc_cur;
extern unsigned clc_groups; /* enabled groups: bit 1 << G_X */
extern const unsigned char clc_region_group[R_COUNT];

static inline int clc_group_on(int g) { return (clc_groups >> g) & 1u; }

/* clc_enter starts a wrapped call of region r and returns its enter time. */
static inline int64_t clc_enter(int r) {
  const int64_t t = clc_now();
  clc_t = 2;
  clc_cur.t0 = t;
  clc_cur.region = r;
  clc_cur.enter_pending = 1;
  clc_cur.mute = !clc_group_on(clc_region_group[r]);
  clc_cur.poll_failed = 0;
  clc_cur.has_bytes = 0;
  clc_cur.ntested = 0;
  return t;
}
/* clc_leave ends the call at t (writing what it recorded). */
void clc_leave(int64_t t);
/* clc_poll_fail marks the call as an unsuccessful test or probe that
 * tested the n requests reqs (request-test events for the tracked ones). */
void clc_poll_fail(const MPI_Request *reqs, int n);
/* clc_add_bytes adds bytes moved by the call (IO, RMA): attached to its leave. */
void clc_add_bytes(uint64_t b);

/* Recording (no-ops in a muted call). */
void clc_region(int kind, int64_t t, int region);
void clc_msg(int kind, int64_t t, uint32_t peer, uint32_t comm, uint32_t tag, uint64_t bytes, uint64_t req);
void clc_reqev(int kind, int64_t t, uint64_t req);
void clc_collbegin(int64_t t);
void clc_collend(int kind, int64_t t, int op, uint32_t comm, uint32_t root1, uint64_t sent, uint64_t recvd, uint64_t req);
void clc_commev(int kind, int64_t t, uint32_t comm);

/* ------------------------------------------------------- communicators */

/* Neighbours of a process topology, as comm-local ranks in the order of
 * the neighbourhood collectives' buffers (MPI_PROC_NULL included). */
typedef struct clc_nbrs {
  int nin, nout;
  int *in, *out;
} clc_nbrs;

/* Communicators known to the tracer. */
typedef struct clc_comm {
  uint64_t key;   /* the handle's bits */
  uint32_t pos;   /* position in the manifest's communicators */
  int size, rank; /* size of and own rank in the communicator */
  clc_nbrs *nbrs; /* made on first use by a neighbourhood collective */
} clc_comm;

/* clc_comm_find finds a communicator (MPI_COMM_SELF is defined on first
 * use) and counts a miss in clc_unknown_comm: the lookup of the hook that
 * records the call's events, once per event it cannot record.
 * clc_comm_lookup, and so clc_comm_nbrs, clc_comm_n, clc_nbr_in and
 * clc_nbr_out, find it without counting: for the other lookups of the
 * same call (its byte counts, the length of its datatype arrays). */
clc_comm *clc_comm_find(MPI_Comm c);
clc_comm *clc_comm_lookup(MPI_Comm c);
void clc_comm_register(MPI_Comm c, const char *how, int64_t t);
void clc_comm_forget(MPI_Comm c, int64_t t);
const clc_nbrs *clc_comm_nbrs(MPI_Comm c);
int clc_comm_n(MPI_Comm c);
int clc_nbr_in(MPI_Comm c);
int clc_nbr_out(MPI_Comm c);
extern uint64_t clc_unknown_comm;

/* ------------------------------------------------------------ requests */

enum { RQ_SEND = 1, RQ_RECV = 2, RQ_NBCOLL = 3, RQ_NBR = 4 };
typedef struct clc_req {
  uint64_t key;      /* the handle's bits; 0 = empty slot */
  uint64_t id;       /* request id in the trace */
  uint64_t bytes;    /* send: message bytes; nbcoll: bytes sent */
  uint64_t rbytes;   /* nbcoll: bytes received */
  MPI_Datatype dtype;/* recv: datatype for the byte count at completion */
  int kind;          /* RQ_* */
  int group;         /* G_* of the call that made it */
  int persistent, active;
  uint32_t comm;     /* communicator position */
  int peer, tag;     /* persistent sends: destination and tag */
  int op, root1;     /* nbcoll */
  int nrecv;         /* RQ_NBR: the logical receives, completed together */
  struct clc_nbrecv { uint32_t src; uint64_t bytes, id; } *recv;
  struct clc_req *more; /* requests MPI gave the same handle, in call order */
} clc_req;

clc_req *clc_req_add(MPI_Request r, int kind, uint32_t comm);
clc_req *clc_req_find(MPI_Request r);
void clc_req_del(clc_req *q);
uint64_t clc_next_req_id(void);
/* clc_complete records the completion of the request whose handle was r,
 * with status st, unless it was recorded before; a persistent request then
 * becomes inactive, any other is forgotten (MPI freed it). */
void clc_complete(MPI_Request r, MPI_Status *st, int64_t t);
/* clc_complete_keep records a completion that leaves the request allocated
 * (MPI_Request_get_status): the request stays in the table, inactive, until
 * the Wait, Test or MPI_Request_free that frees it. */
void clc_complete_keep(MPI_Request r, MPI_Status *st, int64_t t);
/* clc_copy_reqs copies n request handles (MPI overwrites them). */
const MPI_Request *clc_copy_reqs(const MPI_Request *r, int n);

/* Scratch space owned by the recording thread. */
MPI_Status *clc_scratch_status(int n);

uint64_t clc_tsize(MPI_Datatype d);
/* clc_status_bytes is the size of what a status says arrived or was moved:
 * its count of dt times dt's size (0 when MPI cannot tell, MPI_UNDEFINED). */
uint64_t clc_status_bytes(const MPI_Status *st, MPI_Datatype dt);

/* ---------------------------------------------------------------- hooks */

/* Bytes a collective member sends to and receives from other members. */
typedef struct { uint64_t sent, recvd; } clc_bytes;

void h_send(int64_t t0, int dest, int count, MPI_Datatype dt, int tag, MPI_Comm comm);
void h_isend(int64_t t0, int rc, MPI_Request req, int dest, int count, MPI_Datatype dt, int tag, MPI_Comm comm);
void h_recv(int64_t t1, int rc, const MPI_Status *st, MPI_Datatype dt, MPI_Comm comm);
void h_irecv(int64_t t0, int rc, MPI_Request req, int src, MPI_Datatype dt, MPI_Comm comm);
void h_send_init(int rc, MPI_Request req, int dest, int count, MPI_Datatype dt, int tag, MPI_Comm comm);
void h_recv_init(int rc, MPI_Request req, int src, MPI_Datatype dt, MPI_Comm comm);
void h_start(int64_t t0, int rc, int n, const MPI_Request *reqs);
void h_request_free(MPI_Request r);
void h_mprobe(int rc, int flag, MPI_Message msg, MPI_Comm comm);
MPI_Comm h_msg_comm(MPI_Message msg);
void h_polled(int rc, int flag);
void h_test(int64_t t1, int rc, MPI_Request h, int flag, MPI_Status *st);
void h_waitall(int64_t t1, int rc, int n, const MPI_Request *h, MPI_Status *sts);
void h_testall(int64_t t1, int rc, int n, const MPI_Request *h, int flag, MPI_Status *sts);
void h_waitany(int64_t t1, int rc, int n, const MPI_Request *h, int index, MPI_Status *st);
void h_testany(int64_t t1, int rc, int n, const MPI_Request *h, int index, int flag, MPI_Status *st);
void h_waitsome(int64_t t1, int rc, int n, const MPI_Request *h, int outcount, const int *indices, MPI_Status *sts);
void h_testsome(int64_t t1, int rc, int n, const MPI_Request *h, int outcount, const int *indices, MPI_Status *sts);
void h_get_status(int64_t t1, int rc, MPI_Request h, int flag, MPI_Status *st);
void h_coll(int64_t t0, int64_t t1, MPI_Comm comm, int op, int root, clc_bytes b);
void h_nbc(int64_t t0, int rc, MPI_Request req, MPI_Comm comm, int op, int root, clc_bytes b);
void h_nbr(int64_t t0, int64_t t1, MPI_Comm comm, int sc, const int *scs, MPI_Datatype st, const MPI_Datatype *sts,
           int rc, const int *rcs, MPI_Datatype rt, const MPI_Datatype *rts);
void h_inbr(int64_t t0, int rc_, MPI_Request req, MPI_Comm comm, int sc, const int *scs, MPI_Datatype st,
            const MPI_Datatype *sts, int rc, const int *rcs, MPI_Datatype rt, const MPI_Datatype *rts);
void h_newcomm(int64_t t1, int rc, MPI_Comm c, const char *how);
void h_comm_free(MPI_Comm c, int64_t t0);
void h_io(int rc, const MPI_Status *st, MPI_Datatype dt);
void h_bytes(int count, MPI_Datatype dt);

clc_bytes b_none(void);
clc_bytes b_bcast(MPI_Comm comm, int count, MPI_Datatype dt, int root);
clc_bytes b_gather(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, int rc, MPI_Datatype rt, int root);
clc_bytes b_gatherv(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, const int *rcs, MPI_Datatype rt, int root);
clc_bytes b_scatter(MPI_Comm comm, int sc, MPI_Datatype st, const void *rb, int rc, MPI_Datatype rt, int root);
clc_bytes b_scatterv(MPI_Comm comm, const int *scs, MPI_Datatype st, const void *rb, int rc, MPI_Datatype rt, int root);
clc_bytes b_allgather(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, int rc, MPI_Datatype rt);
clc_bytes b_allgatherv(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, const int *rcs, MPI_Datatype rt);
clc_bytes b_alltoall(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, int rc, MPI_Datatype rt);
clc_bytes b_alltoallv(MPI_Comm comm, const void *sb, const int *scs, MPI_Datatype st, const int *rcs, MPI_Datatype rt);
clc_bytes b_alltoallw(MPI_Comm comm, const void *sb, const int *scs, const MPI_Datatype *sts, const int *rcs,
                      const MPI_Datatype *rts);
clc_bytes b_allreduce(MPI_Comm comm, int count, MPI_Datatype dt);
clc_bytes b_reduce(MPI_Comm comm, int count, MPI_Datatype dt, int root);
clc_bytes b_reduce_scatter(MPI_Comm comm, const int *rcs, MPI_Datatype dt);
clc_bytes b_reduce_scatter_block(MPI_Comm comm, int rc, MPI_Datatype dt);
clc_bytes b_exscan(MPI_Comm comm, int count, MPI_Datatype dt);

/* --------------------------------------------------------- user regions */

/* clc_user_init reads the region filter (user.c). */
void clc_user_init(void);
/* clc_filter_valid reports whether a CLC_TRACE_FILTER value holds only
 * rules (user.c). */
int clc_filter_valid(const char *spec);
/* clc_user_close leaves the user regions still open, at t. */
void clc_user_close(int64_t t);
/* clc_user_event records the enter or leave of a user region (core.c). */
void clc_user_event(int kind, int64_t t, uint32_t region);
/* clc_define_user_region writes a region's definition into the metadata. */
void clc_define_user_region(uint32_t id, const char *name);

/* ----------------------------------------------------------- life cycle */

/* The wrappers of MPI_Init, MPI_Init_thread, MPI_Finalize and MPI_Abort,
 * C (hooks.c) and Fortran (fortran.c), share these (hooks.c). */
void clc_after_init(int64_t t0, int rc, int region);
void clc_before_finalize(void);
void clc_before_abort(void);
/* What they run (core.c). */
void clc_init(int64_t t_enter, int region);
void clc_finalize(int64_t t_enter);
void clc_abort(void);
extern int clc_world_rank, clc_world_size;

/* Signals (signals.c): clc_signals_install hands crashes and terminating
 * signals to the library first; clc_signals_restore undoes it. */
void clc_signals_install(void);
void clc_signals_restore(void);
/* clc_signal_note records a signal and the events written in the
 * metadata (async-signal-safe). */
void clc_signal_note(int sig, uint64_t events);
/* clc_trace_dir is the (native) trace directory, clc_trace_out the
 * directory clc-trace was given (of an OTF2 run: the archive's). */
const char *clc_trace_dir(void);
const char *clc_trace_out(void);

#endif
