/* clc-trace PMPI library: the C wrappers. Each records enter, its message
 * or collective events, and leave, then returns what PMPI returned. Calls
 * from other threads and nested calls (the re-entry guard) pass through. */
#include "clc.h"

#include <string.h>

#define ENTER(name) const int64_t t0 = clc_now(); clc_t = 2; clc_region(K_ENTER, t0, R_##name)
#define LEAVE(name, t) do { clc_region(K_LEAVE, (t), R_##name); clc_t = 1; } while (0)

static int inited;

/* ------------------------------------------------------------------ helpers */

static inline void rec_send(int kind, int64_t t, int dest, int count, MPI_Datatype dt, int tag, MPI_Comm comm, uint64_t req) {
  if (dest == MPI_PROC_NULL) return;
  clc_comm *c = clc_comm_find(comm);
  if (!c) return;
  clc_msg(kind, t, (uint32_t)dest, c->pos, (uint32_t)tag, (uint64_t)count * clc_tsize(dt), req);
}

static inline void rec_recv(int64_t t, const MPI_Status *st, MPI_Datatype dt, MPI_Comm comm) {
  if (st->MPI_SOURCE < 0) return; /* MPI_PROC_NULL */
  clc_comm *c = clc_comm_find(comm);
  if (!c) return;
  int cnt = 0;
  uint64_t bytes = 0;
  if (PMPI_Get_count(st, dt, &cnt) == MPI_SUCCESS && cnt != MPI_UNDEFINED) bytes = (uint64_t)cnt * clc_tsize(dt);
  clc_msg(K_RECV, t, (uint32_t)st->MPI_SOURCE, c->pos, (uint32_t)st->MPI_TAG, bytes, 0);
}

/* coll holds what a collective wrapper learns before the call. */
typedef struct { int known; uint32_t pos; int n, me; } coll;

static inline coll coll_begin(int64_t t, MPI_Comm comm) {
  coll k = {0, 0, 0, 0};
  clc_comm *c = clc_comm_find(comm);
  if (!c) return k;
  k.known = 1; k.pos = c->pos; k.n = c->size; k.me = c->rank;
  clc_collbegin(t);
  return k;
}

static inline void coll_end(const coll *k, int64_t t, int op, int root, uint64_t sent, uint64_t recvd) {
  if (!k->known) return;
  clc_collend(K_COLL_END, t, op, k->pos, root >= 0 ? (uint32_t)root + 1 : 0, sent, recvd, 0);
}

static inline int64_t comm_size_of(MPI_Comm comm, int *me) {
  clc_comm *c = clc_comm_find(comm);
  if (!c) { *me = 0; return 0; }
  *me = c->rank;
  return c->size;
}

/* ---------------------------------------------------------------- life cycle */

int MPI_Init(int *argc, char ***argv) {
  int64_t t0 = clc_now();
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS && !inited && clc_t == 0) {
    inited = 1;
    clc_t = 2;
    clc_init(t0, R_MPI_Init);
    if (clc_t != 1) clc_t = 0;
  }
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int64_t t0 = clc_now();
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS && !inited && clc_t == 0) {
    inited = 1;
    clc_t = 2;
    clc_init(t0, R_MPI_Init_thread);
    if (clc_t != 1) clc_t = 0;
  }
  return rc;
}

int MPI_Finalize(void) {
  if (clc_t == 1) clc_finalize(clc_now());
  return PMPI_Finalize();
}

int MPI_Abort(MPI_Comm comm, int code) {
  if (clc_t == 1) {
    clc_t = 2;
    clc_region(K_ENTER, clc_now(), R_MPI_Abort);
    clc_abort();
  }
  return PMPI_Abort(comm, code);
}

/* ------------------------------------------------------------ point to point */

#define BLOCKING_SEND(NAME)                                                                 \
  int NAME(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) { \
    if (!CLC_ON()) return P##NAME(buf, count, dt, dest, tag, comm);                        \
    ENTER(NAME);                                                                            \
    rec_send(K_SEND, t0, dest, count, dt, tag, comm, 0);                                    \
    int rc = P##NAME(buf, count, dt, dest, tag, comm);                                      \
    LEAVE(NAME, clc_now());                                                                 \
    return rc;                                                                              \
  }
BLOCKING_SEND(MPI_Send)
BLOCKING_SEND(MPI_Ssend)
BLOCKING_SEND(MPI_Bsend)
BLOCKING_SEND(MPI_Rsend)

#define NONBLOCKING_SEND(NAME)                                                                                  \
  int NAME(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req) { \
    if (!CLC_ON()) return P##NAME(buf, count, dt, dest, tag, comm, req);                                       \
    ENTER(NAME);                                                                                                \
    int rc = P##NAME(buf, count, dt, dest, tag, comm, req);                                                    \
    if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL) {                                                           \
      clc_comm *c = clc_comm_find(comm);                                                                        \
      clc_req *q = c ? clc_req_add(*req, RQ_SEND, c->pos) : NULL;                                               \
      if (q) clc_msg(K_ISEND, t0, (uint32_t)dest, c->pos, (uint32_t)tag, (uint64_t)count * clc_tsize(dt), q->id); \
    }                                                                                                           \
    LEAVE(NAME, clc_now());                                                                                     \
    return rc;                                                                                                  \
  }
NONBLOCKING_SEND(MPI_Isend)
NONBLOCKING_SEND(MPI_Issend)
NONBLOCKING_SEND(MPI_Ibsend)
NONBLOCKING_SEND(MPI_Irsend)

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Recv(buf, count, dt, src, tag, comm, st);
  ENTER(MPI_Recv);
  MPI_Status tmp, *s = st == MPI_STATUS_IGNORE ? &tmp : st;
  int rc = PMPI_Recv(buf, count, dt, src, tag, comm, s);
  int64_t t1 = clc_now();
  if (rc == MPI_SUCCESS) rec_recv(t1, s, dt, comm);
  LEAVE(MPI_Recv, t1);
  return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Request *req) {
  if (!CLC_ON()) return PMPI_Irecv(buf, count, dt, src, tag, comm, req);
  ENTER(MPI_Irecv);
  int rc = PMPI_Irecv(buf, count, dt, src, tag, comm, req);
  if (rc == MPI_SUCCESS && src != MPI_PROC_NULL) {
    clc_comm *c = clc_comm_find(comm);
    clc_req *q = c ? clc_req_add(*req, RQ_RECV, c->pos) : NULL;
    if (q) {
      q->dtype = dt;
      clc_reqev(K_IRECV_REQUEST, t0, q->id);
    }
  }
  LEAVE(MPI_Irecv, clc_now());
  return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf, int rcount,
                 MPI_Datatype rdt, int src, int rtag, MPI_Comm comm, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, st);
  ENTER(MPI_Sendrecv);
  rec_send(K_SEND, t0, dest, scount, sdt, stag, comm, 0);
  MPI_Status tmp, *s = st == MPI_STATUS_IGNORE ? &tmp : st;
  int rc = PMPI_Sendrecv(sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, src, rtag, comm, s);
  int64_t t1 = clc_now();
  if (rc == MPI_SUCCESS) rec_recv(t1, s, rdt, comm);
  LEAVE(MPI_Sendrecv, t1);
  return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int stag, int src, int rtag, MPI_Comm comm,
                         MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Sendrecv_replace(buf, count, dt, dest, stag, src, rtag, comm, st);
  ENTER(MPI_Sendrecv_replace);
  rec_send(K_SEND, t0, dest, count, dt, stag, comm, 0);
  MPI_Status tmp, *s = st == MPI_STATUS_IGNORE ? &tmp : st;
  int rc = PMPI_Sendrecv_replace(buf, count, dt, dest, stag, src, rtag, comm, s);
  int64_t t1 = clc_now();
  if (rc == MPI_SUCCESS) rec_recv(t1, s, dt, comm);
  LEAVE(MPI_Sendrecv_replace, t1);
  return rc;
}

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Probe(src, tag, comm, st);
  ENTER(MPI_Probe);
  int rc = PMPI_Probe(src, tag, comm, st);
  LEAVE(MPI_Probe, clc_now());
  return rc;
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Iprobe(src, tag, comm, flag, st);
  ENTER(MPI_Iprobe);
  int rc = PMPI_Iprobe(src, tag, comm, flag, st);
  LEAVE(MPI_Iprobe, clc_now());
  return rc;
}

/* Matched probes: the message's communicator is remembered from the probe
 * (one outstanding matched message at a time is tracked per handle). */
static MPI_Message last_msg = MPI_MESSAGE_NULL;
static MPI_Comm last_msg_comm = MPI_COMM_NULL;

int MPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Mprobe(src, tag, comm, msg, st);
  ENTER(MPI_Mprobe);
  int rc = PMPI_Mprobe(src, tag, comm, msg, st);
  if (rc == MPI_SUCCESS) { last_msg = *msg; last_msg_comm = comm; }
  LEAVE(MPI_Mprobe, clc_now());
  return rc;
}

int MPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *msg, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Improbe(src, tag, comm, flag, msg, st);
  ENTER(MPI_Improbe);
  int rc = PMPI_Improbe(src, tag, comm, flag, msg, st);
  if (rc == MPI_SUCCESS && *flag) { last_msg = *msg; last_msg_comm = comm; }
  LEAVE(MPI_Improbe, clc_now());
  return rc;
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *msg, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Mrecv(buf, count, dt, msg, st);
  ENTER(MPI_Mrecv);
  MPI_Comm comm = (*msg == last_msg) ? last_msg_comm : MPI_COMM_NULL;
  MPI_Status tmp, *s = st == MPI_STATUS_IGNORE ? &tmp : st;
  int rc = PMPI_Mrecv(buf, count, dt, msg, s);
  int64_t t1 = clc_now();
  if (rc == MPI_SUCCESS && comm != MPI_COMM_NULL) rec_recv(t1, s, dt, comm);
  LEAVE(MPI_Mrecv, t1);
  return rc;
}

/* --------------------------------------------------------------- persistent */

#define PERSISTENT_SEND(NAME)                                                                                   \
  int NAME(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req) { \
    if (!CLC_ON()) return P##NAME(buf, count, dt, dest, tag, comm, req);                                       \
    ENTER(NAME);                                                                                                \
    int rc = P##NAME(buf, count, dt, dest, tag, comm, req);                                                    \
    if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL) {                                                           \
      clc_comm *c = clc_comm_find(comm);                                                                        \
      clc_req *q = c ? clc_req_add(*req, RQ_SEND, c->pos) : NULL;                                               \
      if (q) {                                                                                                  \
        q->persistent = 1; q->active = 0; q->peer = dest; q->tag = tag;                                         \
        q->bytes = (uint64_t)count * clc_tsize(dt);                                                             \
      }                                                                                                         \
    }                                                                                                           \
    LEAVE(NAME, clc_now());                                                                                     \
    return rc;                                                                                                  \
  }
PERSISTENT_SEND(MPI_Send_init)
PERSISTENT_SEND(MPI_Ssend_init)
PERSISTENT_SEND(MPI_Bsend_init)
PERSISTENT_SEND(MPI_Rsend_init)

int MPI_Recv_init(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Request *req) {
  if (!CLC_ON()) return PMPI_Recv_init(buf, count, dt, src, tag, comm, req);
  ENTER(MPI_Recv_init);
  int rc = PMPI_Recv_init(buf, count, dt, src, tag, comm, req);
  if (rc == MPI_SUCCESS && src != MPI_PROC_NULL) {
    clc_comm *c = clc_comm_find(comm);
    clc_req *q = c ? clc_req_add(*req, RQ_RECV, c->pos) : NULL;
    if (q) { q->persistent = 1; q->active = 0; q->dtype = dt; }
  }
  LEAVE(MPI_Recv_init, clc_now());
  return rc;
}

static void start_one(MPI_Request r, int64_t t) {
  clc_req *q = clc_req_find(r);
  if (!q || !q->persistent) return;
  q->active = 1;
  q->id = clc_next_req_id();
  if (q->kind == RQ_SEND) clc_msg(K_ISEND, t, (uint32_t)q->peer, q->comm, (uint32_t)q->tag, q->bytes, q->id);
  else if (q->kind == RQ_RECV) clc_reqev(K_IRECV_REQUEST, t, q->id);
}

int MPI_Start(MPI_Request *req) {
  if (!CLC_ON()) return PMPI_Start(req);
  ENTER(MPI_Start);
  MPI_Request h = *req;
  int rc = PMPI_Start(req);
  if (rc == MPI_SUCCESS) start_one(h, t0);
  LEAVE(MPI_Start, clc_now());
  return rc;
}

int MPI_Startall(int n, MPI_Request reqs[]) {
  if (!CLC_ON()) return PMPI_Startall(n, reqs);
  ENTER(MPI_Startall);
  int rc = PMPI_Startall(n, reqs);
  if (rc == MPI_SUCCESS)
    for (int i = 0; i < n; i++) start_one(reqs[i], t0);
  LEAVE(MPI_Startall, clc_now());
  return rc;
}

int MPI_Request_free(MPI_Request *req) {
  if (!CLC_ON()) return PMPI_Request_free(req);
  ENTER(MPI_Request_free);
  clc_req *q = clc_req_find(*req);
  if (q) clc_req_del(q);
  int rc = PMPI_Request_free(req);
  LEAVE(MPI_Request_free, clc_now());
  return rc;
}

int MPI_Cancel(MPI_Request *req) {
  if (!CLC_ON()) return PMPI_Cancel(req);
  ENTER(MPI_Cancel);
  int rc = PMPI_Cancel(req);
  LEAVE(MPI_Cancel, clc_now());
  return rc;
}

/* --------------------------------------------------------------- completion */

int MPI_Wait(MPI_Request *req, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Wait(req, st);
  ENTER(MPI_Wait);
  MPI_Request h = *req;
  MPI_Status tmp, *s = st == MPI_STATUS_IGNORE ? &tmp : st;
  int rc = PMPI_Wait(req, s);
  int64_t t1 = clc_now();
  clc_complete(h, s, t1);
  LEAVE(MPI_Wait, t1);
  return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Test(req, flag, st);
  ENTER(MPI_Test);
  MPI_Request h = *req;
  MPI_Status tmp, *s = st == MPI_STATUS_IGNORE ? &tmp : st;
  int rc = PMPI_Test(req, flag, s);
  int64_t t1 = clc_now();
  if (*flag) clc_complete(h, s, t1);
  else clc_tested(&h, 1, t1);
  LEAVE(MPI_Test, t1);
  return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[]) {
  if (!CLC_ON()) return PMPI_Waitall(n, reqs, sts);
  ENTER(MPI_Waitall);
  MPI_Request *h = clc_scratch_reqs(n);
  memcpy(h, reqs, sizeof *h * (size_t)n);
  MPI_Status *s = sts == MPI_STATUSES_IGNORE ? clc_scratch_status(n) : sts;
  int rc = PMPI_Waitall(n, reqs, s);
  int64_t t1 = clc_now();
  for (int i = 0; i < n; i++) clc_complete(h[i], &s[i], t1);
  LEAVE(MPI_Waitall, t1);
  return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status sts[]) {
  if (!CLC_ON()) return PMPI_Testall(n, reqs, flag, sts);
  ENTER(MPI_Testall);
  MPI_Request *h = clc_scratch_reqs(n);
  memcpy(h, reqs, sizeof *h * (size_t)n);
  MPI_Status *s = sts == MPI_STATUSES_IGNORE ? clc_scratch_status(n) : sts;
  int rc = PMPI_Testall(n, reqs, flag, s);
  int64_t t1 = clc_now();
  if (*flag) for (int i = 0; i < n; i++) clc_complete(h[i], &s[i], t1);
  else clc_tested(h, n, t1);
  LEAVE(MPI_Testall, t1);
  return rc;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Waitany(n, reqs, index, st);
  ENTER(MPI_Waitany);
  MPI_Request *h = clc_scratch_reqs(n);
  memcpy(h, reqs, sizeof *h * (size_t)n);
  MPI_Status tmp, *s = st == MPI_STATUS_IGNORE ? &tmp : st;
  int rc = PMPI_Waitany(n, reqs, index, s);
  int64_t t1 = clc_now();
  if (*index != MPI_UNDEFINED && *index >= 0 && *index < n) clc_complete(h[*index], s, t1);
  LEAVE(MPI_Waitany, t1);
  return rc;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *st) {
  if (!CLC_ON()) return PMPI_Testany(n, reqs, index, flag, st);
  ENTER(MPI_Testany);
  MPI_Request *h = clc_scratch_reqs(n);
  memcpy(h, reqs, sizeof *h * (size_t)n);
  MPI_Status tmp, *s = st == MPI_STATUS_IGNORE ? &tmp : st;
  int rc = PMPI_Testany(n, reqs, index, flag, s);
  int64_t t1 = clc_now();
  if (*flag && *index != MPI_UNDEFINED && *index >= 0 && *index < n) clc_complete(h[*index], s, t1);
  else if (!*flag) clc_tested(h, n, t1);
  LEAVE(MPI_Testany, t1);
  return rc;
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status sts[]) {
  if (!CLC_ON()) return PMPI_Waitsome(n, reqs, outcount, indices, sts);
  ENTER(MPI_Waitsome);
  MPI_Request *h = clc_scratch_reqs(n);
  memcpy(h, reqs, sizeof *h * (size_t)n);
  MPI_Status *s = sts == MPI_STATUSES_IGNORE ? clc_scratch_status(n) : sts;
  int rc = PMPI_Waitsome(n, reqs, outcount, indices, s);
  int64_t t1 = clc_now();
  if (*outcount != MPI_UNDEFINED)
    for (int i = 0; i < *outcount; i++) clc_complete(h[indices[i]], &s[i], t1);
  LEAVE(MPI_Waitsome, t1);
  return rc;
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status sts[]) {
  if (!CLC_ON()) return PMPI_Testsome(n, reqs, outcount, indices, sts);
  ENTER(MPI_Testsome);
  MPI_Request *h = clc_scratch_reqs(n);
  memcpy(h, reqs, sizeof *h * (size_t)n);
  MPI_Status *s = sts == MPI_STATUSES_IGNORE ? clc_scratch_status(n) : sts;
  int rc = PMPI_Testsome(n, reqs, outcount, indices, s);
  int64_t t1 = clc_now();
  if (*outcount == 0) clc_tested(h, n, t1);
  else if (*outcount != MPI_UNDEFINED)
    for (int i = 0; i < *outcount; i++) clc_complete(h[indices[i]], &s[i], t1);
  LEAVE(MPI_Testsome, t1);
  return rc;
}

/* -------------------------------------------------------------- collectives */

int MPI_Barrier(MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Barrier(comm);
  ENTER(MPI_Barrier);
  coll k = coll_begin(t0, comm);
  int rc = PMPI_Barrier(comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_BARRIER, -1, 0, 0);
  LEAVE(MPI_Barrier, t1);
  return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Bcast(buf, count, dt, root, comm);
  ENTER(MPI_Bcast);
  coll k = coll_begin(t0, comm);
  uint64_t b = (uint64_t)count * clc_tsize(dt);
  int rc = PMPI_Bcast(buf, count, dt, root, comm);
  int64_t t1 = clc_now();
  if (k.me == root) coll_end(&k, t1, OP_BCAST, root, b * (uint64_t)(k.n - 1), 0);
  else coll_end(&k, t1, OP_BCAST, root, 0, b);
  LEAVE(MPI_Bcast, t1);
  return rc;
}

int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Gather(sb, sc, st, rb, rc_, rt, root, comm);
  ENTER(MPI_Gather);
  coll k = coll_begin(t0, comm);
  uint64_t sent = 0, recvd = 0;
  if (k.me == root) recvd = (uint64_t)rc_ * clc_tsize(rt) * (uint64_t)(k.n - 1);
  else sent = (uint64_t)sc * clc_tsize(st);
  int rc = PMPI_Gather(sb, sc, st, rb, rc_, rt, root, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_GATHER, root, sent, recvd);
  LEAVE(MPI_Gather, t1);
  return rc;
}

int MPI_Gatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[], const int displs[], MPI_Datatype rt,
                int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Gatherv(sb, sc, st, rb, rcs, displs, rt, root, comm);
  ENTER(MPI_Gatherv);
  coll k = coll_begin(t0, comm);
  uint64_t sent = 0, recvd = 0;
  if (k.me == root) {
    uint64_t ts = clc_tsize(rt);
    for (int i = 0; i < k.n; i++) if (i != root) recvd += (uint64_t)rcs[i] * ts;
  } else {
    sent = (uint64_t)sc * clc_tsize(st);
  }
  int rc = PMPI_Gatherv(sb, sc, st, rb, rcs, displs, rt, root, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_GATHERV, root, sent, recvd);
  LEAVE(MPI_Gatherv, t1);
  return rc;
}

int MPI_Scatter(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Scatter(sb, sc, st, rb, rc_, rt, root, comm);
  ENTER(MPI_Scatter);
  coll k = coll_begin(t0, comm);
  uint64_t sent = 0, recvd = 0;
  if (k.me == root) sent = (uint64_t)sc * clc_tsize(st) * (uint64_t)(k.n - 1);
  else recvd = (uint64_t)rc_ * clc_tsize(rt);
  int rc = PMPI_Scatter(sb, sc, st, rb, rc_, rt, root, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_SCATTER, root, sent, recvd);
  LEAVE(MPI_Scatter, t1);
  return rc;
}

int MPI_Scatterv(const void *sb, const int scs[], const int displs[], MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt,
                 int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Scatterv(sb, scs, displs, st, rb, rc_, rt, root, comm);
  ENTER(MPI_Scatterv);
  coll k = coll_begin(t0, comm);
  uint64_t sent = 0, recvd = 0;
  if (k.me == root) {
    uint64_t ts = clc_tsize(st);
    for (int i = 0; i < k.n; i++) if (i != root) sent += (uint64_t)scs[i] * ts;
  } else {
    recvd = (uint64_t)rc_ * clc_tsize(rt);
  }
  int rc = PMPI_Scatterv(sb, scs, displs, st, rb, rc_, rt, root, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_SCATTERV, root, sent, recvd);
  LEAVE(MPI_Scatterv, t1);
  return rc;
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Allgather(sb, sc, st, rb, rc_, rt, comm);
  ENTER(MPI_Allgather);
  coll k = coll_begin(t0, comm);
  uint64_t other = (uint64_t)(k.n > 0 ? k.n - 1 : 0);
  uint64_t own = sb == MPI_IN_PLACE ? (uint64_t)rc_ * clc_tsize(rt) : (uint64_t)sc * clc_tsize(st);
  uint64_t recvd = (uint64_t)rc_ * clc_tsize(rt) * other;
  int rc = PMPI_Allgather(sb, sc, st, rb, rc_, rt, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_ALLGATHER, -1, own * other, recvd);
  LEAVE(MPI_Allgather, t1);
  return rc;
}

int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb, const int rcs[], const int displs[], MPI_Datatype rt,
                   MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Allgatherv(sb, sc, st, rb, rcs, displs, rt, comm);
  ENTER(MPI_Allgatherv);
  coll k = coll_begin(t0, comm);
  uint64_t ts = clc_tsize(rt), recvd = 0, own = 0;
  if (k.known) {
    own = sb == MPI_IN_PLACE ? (uint64_t)rcs[k.me] * ts : (uint64_t)sc * clc_tsize(st);
    for (int i = 0; i < k.n; i++) if (i != k.me) recvd += (uint64_t)rcs[i] * ts;
  }
  int rc = PMPI_Allgatherv(sb, sc, st, rb, rcs, displs, rt, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_ALLGATHERV, -1, own * (uint64_t)(k.n > 0 ? k.n - 1 : 0), recvd);
  LEAVE(MPI_Allgatherv, t1);
  return rc;
}

int MPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Alltoall(sb, sc, st, rb, rc_, rt, comm);
  ENTER(MPI_Alltoall);
  coll k = coll_begin(t0, comm);
  uint64_t other = (uint64_t)(k.n > 0 ? k.n - 1 : 0);
  uint64_t sent = sb == MPI_IN_PLACE ? (uint64_t)rc_ * clc_tsize(rt) : (uint64_t)sc * clc_tsize(st);
  uint64_t recvd = (uint64_t)rc_ * clc_tsize(rt);
  int rc = PMPI_Alltoall(sb, sc, st, rb, rc_, rt, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_ALLTOALL, -1, sent * other, recvd * other);
  LEAVE(MPI_Alltoall, t1);
  return rc;
}

int MPI_Alltoallv(const void *sb, const int scs[], const int sd[], MPI_Datatype st, void *rb, const int rcs[],
                  const int rd[], MPI_Datatype rt, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Alltoallv(sb, scs, sd, st, rb, rcs, rd, rt, comm);
  ENTER(MPI_Alltoallv);
  coll k = coll_begin(t0, comm);
  uint64_t sent = 0, recvd = 0;
  if (k.known) {
    const int *c = sb == MPI_IN_PLACE ? rcs : scs;
    uint64_t sts = sb == MPI_IN_PLACE ? clc_tsize(rt) : clc_tsize(st), rts = clc_tsize(rt);
    for (int i = 0; i < k.n; i++) {
      if (i == k.me) continue;
      sent += (uint64_t)c[i] * sts;
      recvd += (uint64_t)rcs[i] * rts;
    }
  }
  int rc = PMPI_Alltoallv(sb, scs, sd, st, rb, rcs, rd, rt, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_ALLTOALLV, -1, sent, recvd);
  LEAVE(MPI_Alltoallv, t1);
  return rc;
}

int MPI_Alltoallw(const void *sb, const int scs[], const int sd[], const MPI_Datatype sts[], void *rb, const int rcs[],
                  const int rd[], const MPI_Datatype rts[], MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Alltoallw(sb, scs, sd, sts, rb, rcs, rd, rts, comm);
  ENTER(MPI_Alltoallw);
  coll k = coll_begin(t0, comm);
  uint64_t sent = 0, recvd = 0;
  if (k.known) {
    int inplace = sb == MPI_IN_PLACE;
    for (int i = 0; i < k.n; i++) {
      if (i == k.me) continue;
      sent += inplace ? (uint64_t)rcs[i] * clc_tsize(rts[i]) : (uint64_t)scs[i] * clc_tsize(sts[i]);
      recvd += (uint64_t)rcs[i] * clc_tsize(rts[i]);
    }
  }
  int rc = PMPI_Alltoallw(sb, scs, sd, sts, rb, rcs, rd, rts, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_ALLTOALLW, -1, sent, recvd);
  LEAVE(MPI_Alltoallw, t1);
  return rc;
}

int MPI_Allreduce(const void *sb, void *rb, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Allreduce(sb, rb, count, dt, op, comm);
  ENTER(MPI_Allreduce);
  coll k = coll_begin(t0, comm);
  uint64_t b = k.n > 1 ? (uint64_t)count * clc_tsize(dt) : 0;
  int rc = PMPI_Allreduce(sb, rb, count, dt, op, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_ALLREDUCE, -1, b, b);
  LEAVE(MPI_Allreduce, t1);
  return rc;
}

int MPI_Reduce(const void *sb, void *rb, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Reduce(sb, rb, count, dt, op, root, comm);
  ENTER(MPI_Reduce);
  coll k = coll_begin(t0, comm);
  uint64_t b = k.n > 1 ? (uint64_t)count * clc_tsize(dt) : 0;
  int rc = PMPI_Reduce(sb, rb, count, dt, op, root, comm);
  int64_t t1 = clc_now();
  if (k.me == root) coll_end(&k, t1, OP_REDUCE, root, 0, b);
  else coll_end(&k, t1, OP_REDUCE, root, b, 0);
  LEAVE(MPI_Reduce, t1);
  return rc;
}

int MPI_Reduce_scatter(const void *sb, void *rb, const int rcs[], MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Reduce_scatter(sb, rb, rcs, dt, op, comm);
  ENTER(MPI_Reduce_scatter);
  coll k = coll_begin(t0, comm);
  uint64_t sent = 0, recvd = 0, ts = clc_tsize(dt);
  if (k.known && k.n > 1) {
    for (int i = 0; i < k.n; i++) if (i != k.me) sent += (uint64_t)rcs[i] * ts;
    recvd = (uint64_t)rcs[k.me] * ts;
  }
  int rc = PMPI_Reduce_scatter(sb, rb, rcs, dt, op, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_REDUCE_SCATTER, -1, sent, recvd);
  LEAVE(MPI_Reduce_scatter, t1);
  return rc;
}

int MPI_Reduce_scatter_block(const void *sb, void *rb, int rc_, MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Reduce_scatter_block(sb, rb, rc_, dt, op, comm);
  ENTER(MPI_Reduce_scatter_block);
  coll k = coll_begin(t0, comm);
  uint64_t b = k.n > 1 ? (uint64_t)rc_ * clc_tsize(dt) : 0;
  int rc = PMPI_Reduce_scatter_block(sb, rb, rc_, dt, op, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_REDUCE_SCATTER_BLOCK, -1, b * (uint64_t)(k.n > 0 ? k.n - 1 : 0), b);
  LEAVE(MPI_Reduce_scatter_block, t1);
  return rc;
}

int MPI_Scan(const void *sb, void *rb, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Scan(sb, rb, count, dt, op, comm);
  ENTER(MPI_Scan);
  coll k = coll_begin(t0, comm);
  uint64_t b = k.n > 1 ? (uint64_t)count * clc_tsize(dt) : 0;
  int rc = PMPI_Scan(sb, rb, count, dt, op, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_SCAN, -1, b, b);
  LEAVE(MPI_Scan, t1);
  return rc;
}

int MPI_Exscan(const void *sb, void *rb, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Exscan(sb, rb, count, dt, op, comm);
  ENTER(MPI_Exscan);
  coll k = coll_begin(t0, comm);
  uint64_t b = k.n > 1 ? (uint64_t)count * clc_tsize(dt) : 0;
  int rc = PMPI_Exscan(sb, rb, count, dt, op, comm);
  int64_t t1 = clc_now();
  coll_end(&k, t1, OP_EXSCAN, -1, b, k.me > 0 ? b : 0);
  LEAVE(MPI_Exscan, t1);
  return rc;
}

/* ------------------------------------------------- non-blocking collectives */

static void nbcoll(MPI_Request r, int64_t t, MPI_Comm comm, int op, int root, uint64_t sent, uint64_t recvd) {
  clc_comm *c = clc_comm_find(comm);
  if (!c) return;
  clc_req *q = clc_req_add(r, RQ_NBCOLL, c->pos);
  if (!q) return;
  q->op = op;
  q->root1 = root >= 0 ? root + 1 : 0;
  q->bytes = sent;
  q->rbytes = recvd;
  clc_reqev(K_NBCOLL_REQUEST, t, q->id);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req) {
  if (!CLC_ON()) return PMPI_Ibarrier(comm, req);
  ENTER(MPI_Ibarrier);
  int rc = PMPI_Ibarrier(comm, req);
  if (rc == MPI_SUCCESS) nbcoll(*req, t0, comm, OP_BARRIER, -1, 0, 0);
  LEAVE(MPI_Ibarrier, clc_now());
  return rc;
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req) {
  if (!CLC_ON()) return PMPI_Ibcast(buf, count, dt, root, comm, req);
  ENTER(MPI_Ibcast);
  int me;
  int64_t n = comm_size_of(comm, &me);
  uint64_t b = (uint64_t)count * clc_tsize(dt);
  int rc = PMPI_Ibcast(buf, count, dt, root, comm, req);
  if (rc == MPI_SUCCESS) {
    if (me == root) nbcoll(*req, t0, comm, OP_BCAST, root, b * (uint64_t)(n > 0 ? n - 1 : 0), 0);
    else nbcoll(*req, t0, comm, OP_BCAST, root, 0, b);
  }
  LEAVE(MPI_Ibcast, clc_now());
  return rc;
}

int MPI_Ireduce(const void *sb, void *rb, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *req) {
  if (!CLC_ON()) return PMPI_Ireduce(sb, rb, count, dt, op, root, comm, req);
  ENTER(MPI_Ireduce);
  int me;
  int64_t n = comm_size_of(comm, &me);
  uint64_t b = n > 1 ? (uint64_t)count * clc_tsize(dt) : 0;
  int rc = PMPI_Ireduce(sb, rb, count, dt, op, root, comm, req);
  if (rc == MPI_SUCCESS) {
    if (me == root) nbcoll(*req, t0, comm, OP_REDUCE, root, 0, b);
    else nbcoll(*req, t0, comm, OP_REDUCE, root, b, 0);
  }
  LEAVE(MPI_Ireduce, clc_now());
  return rc;
}

int MPI_Iallreduce(const void *sb, void *rb, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  if (!CLC_ON()) return PMPI_Iallreduce(sb, rb, count, dt, op, comm, req);
  ENTER(MPI_Iallreduce);
  int me;
  int64_t n = comm_size_of(comm, &me);
  uint64_t b = n > 1 ? (uint64_t)count * clc_tsize(dt) : 0;
  int rc = PMPI_Iallreduce(sb, rb, count, dt, op, comm, req);
  if (rc == MPI_SUCCESS) nbcoll(*req, t0, comm, OP_ALLREDUCE, -1, b, b);
  LEAVE(MPI_Iallreduce, clc_now());
  return rc;
}

/* ------------------------------------------------------------ communicators */

/* A wrapper for a call that creates a communicator *out: it is recorded
 * with its members once the call returned. */
#define COMM_CREATOR(NAME, PARAMS, ARGS)                             \
  int NAME PARAMS {                                                  \
    if (!CLC_ON()) return P##NAME ARGS;                              \
    ENTER(NAME);                                                     \
    int rc = P##NAME ARGS;                                           \
    int64_t t1 = clc_now();                                          \
    if (rc == MPI_SUCCESS) clc_comm_register(*out, #NAME, t1);       \
    LEAVE(NAME, t1);                                                 \
    return rc;                                                       \
  }

COMM_CREATOR(MPI_Comm_dup, (MPI_Comm comm, MPI_Comm *out), (comm, out))

COMM_CREATOR(MPI_Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *out), (comm, info, out))

COMM_CREATOR(MPI_Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *out), (comm, color, key, out))

COMM_CREATOR(MPI_Comm_split_type, (MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *out), (comm, type, key, info, out))

COMM_CREATOR(MPI_Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *out), (comm, group, out))

COMM_CREATOR(MPI_Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *out), (comm, group, tag, out))

COMM_CREATOR(MPI_Cart_create, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *out), (comm, ndims, dims, periods, reorder, out))

COMM_CREATOR(MPI_Cart_sub, (MPI_Comm comm, const int remain[], MPI_Comm *out), (comm, remain, out))

int MPI_Comm_free(MPI_Comm *comm) {
  if (!CLC_ON()) return PMPI_Comm_free(comm);
  ENTER(MPI_Comm_free);
  clc_comm_forget(*comm, t0);
  int rc = PMPI_Comm_free(comm);
  LEAVE(MPI_Comm_free, clc_now());
  return rc;
}
