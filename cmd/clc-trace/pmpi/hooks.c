/* clc-trace PMPI library: the hooks the generated wrappers call (see
 * tracer/mpifn/functions.tbl) and the hand-written wrappers of MPI_Init,
 * MPI_Init_thread, MPI_Finalize and MPI_Abort. */
#include "clc.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- life cycle */

/* The life cycle, shared by the C wrappers below and the Fortran ones in
 * fortran.c (Open MPI): each wrapper calls the MPI function its own way
 * (PMPI_Init, or the real Fortran function and its ierr) and hands these
 * what differs: the enter time, the return code and its region. */

static int inited;

/* clc_after_init starts tracing after MPI_Init or MPI_Init_thread
 * (region), entered at t0, returned rc: at most once per process, whichever
 * binding initialises MPI (a start that failed, say without
 * CLC_TRACE_DIR, is not tried again); the calling thread records. */
void clc_after_init(int64_t t0, int rc, int region) {
  if (rc != MPI_SUCCESS || inited || clc_t != 0) return;
  inited = 1;
  clc_t = 2;
  clc_init(t0, region);
  if (clc_t != 1) clc_t = 0;
}

/* clc_before_finalize ends the trace before MPI_Finalize runs. */
void clc_before_finalize(void) {
  if (clc_t == 1) clc_finalize(clc_now());
}

/* clc_before_abort records MPI_Abort's enter and writes what was recorded
 * before MPI_Abort runs (it does not return). */
void clc_before_abort(void) {
  if (clc_t != 1) return;
  const int64_t t = clc_enter(R_MPI_Abort);
  clc_cur.mute = 0;
  clc_cur.enter_pending = 0;
  clc_region(K_ENTER, t, R_MPI_Abort);
  clc_abort();
}

CLC_EXPORT int MPI_Init(int *argc, char ***argv) {
  const int64_t t0 = clc_now();
  const int rc = PMPI_Init(argc, argv);
  clc_after_init(t0, rc, R_MPI_Init);
  return rc;
}

CLC_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  const int64_t t0 = clc_now();
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  clc_after_init(t0, rc, R_MPI_Init_thread);
  return rc;
}

CLC_EXPORT int MPI_Finalize(void) {
  clc_before_finalize();
  return PMPI_Finalize();
}

CLC_EXPORT int MPI_Abort(MPI_Comm comm, int code) {
  clc_before_abort();
  return PMPI_Abort(comm, code);
}

/* ------------------------------------------------------------ point to point */

static inline uint64_t nbytes(int count, MPI_Datatype dt) { return count > 0 ? (uint64_t)count * clc_tsize(dt) : 0; }

/* nbytes_sum is the sum of nbytes(cnt[i], dt) over i in [0, n) but skip:
 * the positive counts are summed (all, then skip's taken off: a loop the
 * compiler vectorises) and multiplied by the type's size, asked for once
 * (and, as nbytes does, only when some count is positive), not once per
 * member. Equal in uint64_t arithmetic, which is modular. */
static uint64_t nbytes_sum(const int *cnt, uint64_t n, uint64_t skip, MPI_Datatype dt) {
  uint64_t s = 0;
  for (uint64_t i = 0; i < n; i++) s += cnt[i] > 0 ? (uint64_t)cnt[i] : 0;
  if (skip < n && cnt[skip] > 0) s -= (uint64_t)cnt[skip];
  return s ? s * clc_tsize(dt) : 0;
}

/* nbytes_w is the sum of nbytes(cnt[i], dt[i]) over i in [0, n) but skip,
 * for the w-collectives, whose types are per member: a type's size is
 * asked for only where a member's type differs from the last one asked
 * for (so once when all members have one type), and, as nbytes does, only
 * for positive counts. Equal to the sum of nbytes: a handle means one type
 * for the length of the call, and MPI_DATATYPE_NULL, where the cache
 * starts, has size 0 as clc_tsize says. */
static uint64_t nbytes_w(const int *cnt, const MPI_Datatype *dt, uint64_t n, uint64_t skip) {
  uint64_t s = 0, size = 0;
  MPI_Datatype last = MPI_DATATYPE_NULL;
  for (uint64_t i = 0; i < n; i++) {
    if (i == skip || cnt[i] <= 0) continue;
    if (dt[i] != last) {
      last = dt[i];
      size = clc_tsize(last);
    }
    s += (uint64_t)cnt[i] * size;
  }
  return s;
}

void h_send(int64_t t0, int dest, int count, MPI_Datatype dt, int tag, MPI_Comm comm) {
  if (dest == MPI_PROC_NULL) return;
  clc_comm *c = clc_comm_find(comm);
  if (c) clc_msg(K_SEND, t0, (uint32_t)dest, c->pos, (uint32_t)tag, nbytes(count, dt), 0);
}

void h_isend(int64_t t0, int rc, MPI_Request req, int dest, int count, MPI_Datatype dt, int tag, MPI_Comm comm) {
  if (rc != MPI_SUCCESS || dest == MPI_PROC_NULL) return;
  clc_comm *c = clc_comm_find(comm);
  clc_req *q = c ? clc_req_add(req, RQ_SEND, c->pos) : NULL;
  if (q) clc_msg(K_ISEND, t0, (uint32_t)dest, c->pos, (uint32_t)tag, nbytes(count, dt), q->id);
}

void h_recv(int64_t t1, int rc, const MPI_Status *st, MPI_Datatype dt, MPI_Comm comm) {
  if (rc != MPI_SUCCESS || comm == MPI_COMM_NULL || st->MPI_SOURCE < 0) return; /* MPI_PROC_NULL */
  clc_comm *c = clc_comm_find(comm);
  if (!c) return;
  clc_msg(K_RECV, t1, (uint32_t)st->MPI_SOURCE, c->pos, (uint32_t)st->MPI_TAG, clc_status_bytes(st, dt), 0);
}

void h_irecv(int64_t t0, int rc, MPI_Request req, int src, MPI_Datatype dt, MPI_Comm comm) {
  if (rc != MPI_SUCCESS || src == MPI_PROC_NULL || comm == MPI_COMM_NULL) return;
  clc_comm *c = clc_comm_find(comm);
  clc_req *q = c ? clc_req_add(req, RQ_RECV, c->pos) : NULL;
  if (!q) return;
  q->dtype = dt;
  clc_reqev(K_IRECV_REQUEST, t0, q->id);
}

void h_send_init(int rc, MPI_Request req, int dest, int count, MPI_Datatype dt, int tag, MPI_Comm comm) {
  if (rc != MPI_SUCCESS || dest == MPI_PROC_NULL) return;
  clc_comm *c = clc_comm_find(comm);
  clc_req *q = c ? clc_req_add(req, RQ_SEND, c->pos) : NULL;
  if (!q) return;
  q->persistent = 1;
  q->active = 0;
  q->peer = dest;
  q->tag = tag;
  q->bytes = nbytes(count, dt);
}

void h_recv_init(int rc, MPI_Request req, int src, MPI_Datatype dt, MPI_Comm comm) {
  if (rc != MPI_SUCCESS || src == MPI_PROC_NULL) return;
  clc_comm *c = clc_comm_find(comm);
  clc_req *q = c ? clc_req_add(req, RQ_RECV, c->pos) : NULL;
  if (!q) return;
  q->persistent = 1;
  q->active = 0;
  q->dtype = dt;
}

void h_start(int64_t t0, int rc, int n, const MPI_Request *reqs) {
  if (rc != MPI_SUCCESS) return;
  for (int i = 0; i < n; i++) {
    clc_req *q = clc_req_find(reqs[i]);
    if (!q || !q->persistent) continue;
    q->active = 1;
    q->id = clc_next_req_id();
    int mute = clc_cur.mute;
    clc_cur.mute = !clc_group_on(q->group);
    if (q->kind == RQ_SEND) clc_msg(K_ISEND, t0, (uint32_t)q->peer, q->comm, (uint32_t)q->tag, q->bytes, q->id);
    else if (q->kind == RQ_RECV) clc_reqev(K_IRECV_REQUEST, t0, q->id);
    clc_cur.mute = mute;
  }
}

void h_request_free(MPI_Request r) {
  clc_req *q = clc_req_find(r);
  if (q) clc_req_del(q);
}

/* Matched probes: the communicator of each matched message, until it is
 * received (a small table; a message received by a function the tracer
 * does not see stays until the table is full and is then replaced). */
#define NMSG 64
static struct { MPI_Message m; MPI_Comm c; int used; } msgs[NMSG];
static int msg_next;

void h_mprobe(int rc, int flag, MPI_Message msg, MPI_Comm comm) {
  if (rc != MPI_SUCCESS || !flag || msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC) return;
  int i;
  for (i = 0; i < NMSG && msgs[i].used; i++) {}
  if (i == NMSG) {
    i = msg_next;
    msg_next = (msg_next + 1) % NMSG;
  }
  msgs[i].m = msg;
  msgs[i].c = comm;
  msgs[i].used = 1;
}

MPI_Comm h_msg_comm(MPI_Message msg) {
  for (int i = 0; i < NMSG; i++)
    if (msgs[i].used && msgs[i].m == msg) {
      msgs[i].used = 0;
      return msgs[i].c;
    }
  return MPI_COMM_NULL;
}

/* --------------------------------------------------------------- completion */

void h_polled(int rc, int flag) {
  if (rc == MPI_SUCCESS && !flag) clc_poll_fail(NULL, 0);
}

void h_test(int64_t t1, int rc, MPI_Request h, int flag, MPI_Status *st) {
  (void)rc;
  if (flag) clc_complete(h, st, t1);
  else clc_poll_fail(&h, 1);
}

void h_waitall(int64_t t1, int rc, int n, const MPI_Request *h, MPI_Status *sts) {
  (void)rc;
  for (int i = 0; i < n; i++) clc_complete(h[i], &sts[i], t1);
}

void h_testall(int64_t t1, int rc, int n, const MPI_Request *h, int flag, MPI_Status *sts) {
  if (flag) h_waitall(t1, rc, n, h, sts);
  else clc_poll_fail(h, n);
}

void h_waitany(int64_t t1, int rc, int n, const MPI_Request *h, int index, MPI_Status *st) {
  (void)rc;
  if (index != MPI_UNDEFINED && index >= 0 && index < n) clc_complete(h[index], st, t1);
}

void h_testany(int64_t t1, int rc, int n, const MPI_Request *h, int index, int flag, MPI_Status *st) {
  if (flag) h_waitany(t1, rc, n, h, index, st);
  else clc_poll_fail(h, n);
}

void h_waitsome(int64_t t1, int rc, int n, const MPI_Request *h, int outcount, const int *indices, MPI_Status *sts) {
  (void)rc;
  if (outcount == MPI_UNDEFINED) return;
  for (int i = 0; i < outcount; i++)
    if (indices[i] >= 0 && indices[i] < n) clc_complete(h[indices[i]], &sts[i], t1);
}

void h_testsome(int64_t t1, int rc, int n, const MPI_Request *h, int outcount, const int *indices, MPI_Status *sts) {
  if (outcount == 0) clc_poll_fail(h, n);
  else h_waitsome(t1, rc, n, h, outcount, indices, sts);
}

void h_get_status(int64_t t1, int rc, MPI_Request h, int flag, MPI_Status *st) {
  (void)rc;
  if (flag) clc_complete_keep(h, st, t1);
  else clc_poll_fail(&h, 1);
}

/* -------------------------------------------------------------- collectives */

static inline uint32_t root1(int root) { return root >= 0 ? (uint32_t)root + 1 : 0; }

void h_coll(int64_t t0, int64_t t1, MPI_Comm comm, int op, int root, clc_bytes b) {
  clc_comm *c = clc_comm_find(comm);
  if (!c) return;
  clc_collbegin(t0);
  clc_collend(K_COLL_END, t1, op, c->pos, root1(root), b.sent, b.recvd, 0);
}

void h_nbc(int64_t t0, int rc, MPI_Request req, MPI_Comm comm, int op, int root, clc_bytes b) {
  if (rc != MPI_SUCCESS) return;
  clc_comm *c = clc_comm_find(comm);
  clc_req *q = c ? clc_req_add(req, RQ_NBCOLL, c->pos) : NULL;
  if (!q) return;
  q->op = op;
  q->root1 = (int)root1(root);
  q->bytes = b.sent;
  q->rbytes = b.recvd;
  clc_reqev(K_NBCOLL_REQUEST, t0, q->id);
}

/* Bytes that move to or from *other* members (docs/tracer.md). The
 * communicator's size n and own rank me come from the tracer's table: an
 * unknown communicator gives zeros (and is not recorded; h_coll or h_nbc
 * counts it). So does a muted call (its group filtered out), whose bytes
 * are never written — h_coll records nothing, and h_nbc's request has the
 * call's group, so its completion is muted too: the v-collectives skip
 * their per-member sums. */
typedef struct { uint64_t n, me; int known; } who;
static inline who who_of(MPI_Comm comm) {
  clc_comm *c = clc_comm_lookup(comm); /* first, as before: may define MPI_COMM_SELF */
  who w = {0, 0, 0};
  if (c && !clc_cur.mute) { w.n = (uint64_t)c->size; w.me = (uint64_t)c->rank; w.known = 1; }
  return w;
}
static inline uint64_t others(who w) { return w.n > 0 ? w.n - 1 : 0; }

clc_bytes b_none(void) { clc_bytes b = {0, 0}; return b; }

clc_bytes b_bcast(MPI_Comm comm, int count, MPI_Datatype dt, int root) {
  who w = who_of(comm);
  clc_bytes b = {0, 0};
  if (w.me == (uint64_t)root) b.sent = nbytes(count, dt) * others(w);
  else b.recvd = nbytes(count, dt);
  return b;
}

clc_bytes b_gather(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, int rc, MPI_Datatype rt, int root) {
  (void)sb;
  who w = who_of(comm);
  clc_bytes b = {0, 0};
  if (w.me == (uint64_t)root) b.recvd = nbytes(rc, rt) * others(w);
  else b.sent = nbytes(sc, st);
  return b;
}

clc_bytes b_gatherv(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, const int *rcs, MPI_Datatype rt, int root) {
  (void)sb;
  who w = who_of(comm);
  clc_bytes b = {0, 0};
  if (!w.known) return b;
  if (w.me == (uint64_t)root) {
    b.recvd = nbytes_sum(rcs, w.n, (uint64_t)root, rt);
  } else {
    b.sent = nbytes(sc, st);
  }
  return b;
}

clc_bytes b_scatter(MPI_Comm comm, int sc, MPI_Datatype st, const void *rb, int rc, MPI_Datatype rt, int root) {
  (void)rb;
  who w = who_of(comm);
  clc_bytes b = {0, 0};
  if (w.me == (uint64_t)root) b.sent = nbytes(sc, st) * others(w);
  else b.recvd = nbytes(rc, rt);
  return b;
}

clc_bytes b_scatterv(MPI_Comm comm, const int *scs, MPI_Datatype st, const void *rb, int rc, MPI_Datatype rt, int root) {
  (void)rb;
  who w = who_of(comm);
  clc_bytes b = {0, 0};
  if (!w.known) return b;
  if (w.me == (uint64_t)root) {
    b.sent = nbytes_sum(scs, w.n, (uint64_t)root, st);
  } else {
    b.recvd = nbytes(rc, rt);
  }
  return b;
}

clc_bytes b_allgather(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, int rc, MPI_Datatype rt) {
  who w = who_of(comm);
  uint64_t own = sb == MPI_IN_PLACE ? nbytes(rc, rt) : nbytes(sc, st);
  clc_bytes b = {own * others(w), nbytes(rc, rt) * others(w)};
  return b;
}

clc_bytes b_allgatherv(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, const int *rcs, MPI_Datatype rt) {
  who w = who_of(comm);
  clc_bytes b = {0, 0};
  if (!w.known) return b;
  uint64_t own = sb == MPI_IN_PLACE ? nbytes(rcs[w.me], rt) : nbytes(sc, st);
  b.recvd = nbytes_sum(rcs, w.n, w.me, rt);
  b.sent = own * others(w);
  return b;
}

clc_bytes b_alltoall(MPI_Comm comm, const void *sb, int sc, MPI_Datatype st, int rc, MPI_Datatype rt) {
  who w = who_of(comm);
  uint64_t s = sb == MPI_IN_PLACE ? nbytes(rc, rt) : nbytes(sc, st);
  clc_bytes b = {s * others(w), nbytes(rc, rt) * others(w)};
  return b;
}

clc_bytes b_alltoallv(MPI_Comm comm, const void *sb, const int *scs, MPI_Datatype st, const int *rcs, MPI_Datatype rt) {
  who w = who_of(comm);
  clc_bytes b = {0, 0};
  if (!w.known) return b;
  int inplace = sb == MPI_IN_PLACE;
  b.sent = nbytes_sum(inplace ? rcs : scs, w.n, w.me, inplace ? rt : st);
  b.recvd = nbytes_sum(rcs, w.n, w.me, rt);
  return b;
}

clc_bytes b_alltoallw(MPI_Comm comm, const void *sb, const int *scs, const MPI_Datatype *sts, const int *rcs,
                      const MPI_Datatype *rts) {
  who w = who_of(comm);
  clc_bytes b = {0, 0};
  if (!w.known) return b;
  b.recvd = nbytes_w(rcs, rts, w.n, w.me);
  /* in place, each member sends what it receives */
  b.sent = sb == MPI_IN_PLACE ? b.recvd : nbytes_w(scs, sts, w.n, w.me);
  return b;
}

clc_bytes b_allreduce(MPI_Comm comm, int count, MPI_Datatype dt) {
  who w = who_of(comm);
  uint64_t x = w.n > 1 ? nbytes(count, dt) : 0;
  clc_bytes b = {x, x};
  return b;
}

clc_bytes b_reduce(MPI_Comm comm, int count, MPI_Datatype dt, int root) {
  who w = who_of(comm);
  uint64_t x = w.n > 1 ? nbytes(count, dt) : 0;
  clc_bytes b = {0, 0};
  if (w.me == (uint64_t)root) b.recvd = x;
  else b.sent = x;
  return b;
}

clc_bytes b_reduce_scatter(MPI_Comm comm, const int *rcs, MPI_Datatype dt) {
  who w = who_of(comm);
  clc_bytes b = {0, 0};
  if (!w.known || w.n < 2) return b;
  b.sent = nbytes_sum(rcs, w.n, w.me, dt);
  b.recvd = nbytes(rcs[w.me], dt);
  return b;
}

clc_bytes b_reduce_scatter_block(MPI_Comm comm, int rc, MPI_Datatype dt) {
  who w = who_of(comm);
  uint64_t x = w.n > 1 ? nbytes(rc, dt) : 0;
  clc_bytes b = {x * others(w), x};
  return b;
}

clc_bytes b_exscan(MPI_Comm comm, int count, MPI_Datatype dt) {
  who w = who_of(comm);
  uint64_t x = w.n > 1 ? nbytes(count, dt) : 0;
  clc_bytes b = {x, w.me > 0 ? x : 0};
  return b;
}

/* ---------------------------------------- neighbourhood collectives */

/* A neighbourhood collective is recorded as the logical messages it
 * moves: a send to every out-neighbour at the call, a receive from every
 * in-neighbour at the end (blocking) or at completion (non-blocking), all
 * with tag CLC_NBR_TAG, in the order of the neighbour lists; so the k-th
 * exchange between two neighbours matches by MPI's non-overtaking rule. */
static void nbr_sends(int64_t t0, const clc_comm *c, const clc_nbrs *nb, int sc, const int *scs, MPI_Datatype st,
                      const MPI_Datatype *sts) {
  for (int k = 0; k < nb->nout; k++) {
    if (nb->out[k] == MPI_PROC_NULL) continue;
    uint64_t b = nbytes(scs ? scs[k] : sc, sts ? sts[k] : st);
    clc_msg(K_SEND, t0, (uint32_t)nb->out[k], c->pos, CLC_NBR_TAG, b, 0);
  }
}

void h_nbr(int64_t t0, int64_t t1, MPI_Comm comm, int sc, const int *scs, MPI_Datatype st, const MPI_Datatype *sts,
           int rc, const int *rcs, MPI_Datatype rt, const MPI_Datatype *rts) {
  clc_comm *c = clc_comm_find(comm);
  const clc_nbrs *nb = c ? clc_comm_nbrs(comm) : NULL;
  if (!nb) return;
  nbr_sends(t0, c, nb, sc, scs, st, sts);
  for (int k = 0; k < nb->nin; k++) {
    if (nb->in[k] == MPI_PROC_NULL) continue;
    uint64_t b = nbytes(rcs ? rcs[k] : rc, rts ? rts[k] : rt);
    clc_msg(K_RECV, t1, (uint32_t)nb->in[k], c->pos, CLC_NBR_TAG, b, 0);
  }
}

void h_inbr(int64_t t0, int rc_, MPI_Request req, MPI_Comm comm, int sc, const int *scs, MPI_Datatype st,
            const MPI_Datatype *sts, int rc, const int *rcs, MPI_Datatype rt, const MPI_Datatype *rts) {
  if (rc_ != MPI_SUCCESS) return;
  clc_comm *c = clc_comm_find(comm);
  const clc_nbrs *nb = c ? clc_comm_nbrs(comm) : NULL;
  if (!nb) return;
  uint32_t pos = c->pos;
  nbr_sends(t0, c, nb, sc, scs, st, sts);
  clc_req *q = clc_req_add(req, RQ_NBR, pos);
  if (!q) return;
  q->recv = malloc(sizeof *q->recv * (size_t)(nb->nin + 1));
  if (!q->recv) return;
  for (int k = 0; k < nb->nin; k++) {
    if (nb->in[k] == MPI_PROC_NULL) continue;
    struct clc_nbrecv *r = &q->recv[q->nrecv++];
    r->src = (uint32_t)nb->in[k];
    r->bytes = nbytes(rcs ? rcs[k] : rc, rts ? rts[k] : rt);
    r->id = clc_next_req_id();
    clc_reqev(K_IRECV_REQUEST, t0, r->id);
  }
}

/* ------------------------------------------------------------ communicators */

void h_newcomm(int64_t t1, int rc, MPI_Comm c, const char *how) {
  if (rc == MPI_SUCCESS) clc_comm_register(c, how, t1);
}

void h_comm_free(MPI_Comm c, int64_t t0) { clc_comm_forget(c, t0); }

/* ------------------------------------------------------------ MPI-IO and RMA */

void h_io(int rc, const MPI_Status *st, MPI_Datatype dt) { clc_add_bytes(rc == MPI_SUCCESS ? clc_status_bytes(st, dt) : 0); }

void h_bytes(int count, MPI_Datatype dt) { clc_add_bytes(nbytes(count, dt)); }
