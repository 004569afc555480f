/* clc-trace PMPI library: the Fortran symbol layer, built for Open MPI only.
 *
 * Open MPI's Fortran bindings (mpi_send_ in libmpi_mpifh) do not call the C
 * functions MPI_Send & co., so a C wrapper never sees a Fortran program's
 * calls. These symbols take their place: they record and call the profiling
 * Fortran entry points (pmpi_send_). MPICH's Fortran bindings do call the C
 * functions, so this file is not built for MPICH (it would count twice).
 *
 * Covered (gfortran's mpif.h / "use mpi" names): init, init_thread,
 * finalize, abort, send, ssend, bsend, rsend, recv, isend, issend, irecv,
 * wait, waitall, sendrecv, barrier, bcast, reduce, allreduce, comm_split,
 * comm_dup, comm_free. "use mpi_f08" (mpi_send_f08 …) is not covered. */
#include "clc.h"

#include <stdlib.h>

#define ENTER(name) const int64_t t0 = clc_now(); clc_t = 2; clc_region(K_ENTER, t0, R_##name)
#define LEAVE(name, t) do { clc_region(K_LEAVE, (t), R_##name); clc_t = 1; } while (0)
#define F MPI_Fint

/* The Fortran profiling entry points; weak, so that C programs (which do
 * not load libmpi_mpifh) still load this library. */
#define W __attribute__((weak))
extern void pmpi_init_(F *) W;
extern void pmpi_init_thread_(F *, F *, F *) W;
extern void pmpi_finalize_(F *) W;
extern void pmpi_abort_(F *, F *, F *) W;
extern void pmpi_send_(void *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_ssend_(void *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_bsend_(void *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_rsend_(void *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_recv_(void *, F *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_isend_(void *, F *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_issend_(void *, F *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_irecv_(void *, F *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_wait_(F *, F *, F *) W;
extern void pmpi_waitall_(F *, F *, F *, F *) W;
extern void pmpi_sendrecv_(void *, F *, F *, F *, F *, void *, F *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_barrier_(F *, F *) W;
extern void pmpi_bcast_(void *, F *, F *, F *, F *, F *) W;
extern void pmpi_reduce_(void *, void *, F *, F *, F *, F *, F *, F *) W;
extern void pmpi_allreduce_(void *, void *, F *, F *, F *, F *, F *) W;
extern void pmpi_comm_split_(F *, F *, F *, F *, F *) W;
extern void pmpi_comm_dup_(F *, F *, F *) W;
extern void pmpi_comm_free_(F *, F *) W;
/* Open MPI's Fortran MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE. */
extern F mpi_fortran_status_ignore_[] W;
extern F mpi_fortran_statuses_ignore_[] W;

#define FSTATUS ((int)(sizeof(MPI_Status) / sizeof(F)) + 2)

static F *fstatus_scratch(int n) {
  static F *s;
  static int cap;
  if (n > cap) { free(s); cap = n + 16; s = malloc(sizeof(F) * (size_t)FSTATUS * (size_t)cap); }
  return s;
}

static void f_send(int kind, int64_t t, F dest, F count, F dt, F tag, F comm, uint64_t req) {
  if (dest == MPI_PROC_NULL) return;
  clc_comm *c = clc_comm_find(MPI_Comm_f2c(comm));
  if (!c) return;
  clc_msg(kind, t, (uint32_t)dest, c->pos, (uint32_t)tag, (uint64_t)count * clc_tsize(MPI_Type_f2c(dt)), req);
}

static void f_recv(int64_t t, F *fst, F dt, F comm) {
  MPI_Status st;
  MPI_Status_f2c(fst, &st);
  if (st.MPI_SOURCE < 0) return;
  clc_comm *c = clc_comm_find(MPI_Comm_f2c(comm));
  if (!c) return;
  MPI_Datatype d = MPI_Type_f2c(dt);
  int cnt = 0;
  uint64_t bytes = 0;
  if (PMPI_Get_count(&st, d, &cnt) == MPI_SUCCESS && cnt != MPI_UNDEFINED) bytes = (uint64_t)cnt * clc_tsize(d);
  clc_msg(K_RECV, t, (uint32_t)st.MPI_SOURCE, c->pos, (uint32_t)st.MPI_TAG, bytes, 0);
}

static F *own_status(F *s, F *tmp) {
  return (s == mpi_fortran_status_ignore_ && s) ? tmp : s;
}

void mpi_init_(F *ierr) {
  int64_t t0 = clc_now();
  pmpi_init_(ierr);
  if (*ierr == MPI_SUCCESS && clc_t == 0) {
    clc_t = 2;
    clc_init(t0, R_MPI_Init);
    if (clc_t != 1) clc_t = 0;
  }
}

void mpi_init_thread_(F *req, F *prov, F *ierr) {
  int64_t t0 = clc_now();
  pmpi_init_thread_(req, prov, ierr);
  if (*ierr == MPI_SUCCESS && clc_t == 0) {
    clc_t = 2;
    clc_init(t0, R_MPI_Init_thread);
    if (clc_t != 1) clc_t = 0;
  }
}

void mpi_finalize_(F *ierr) {
  if (clc_t == 1) clc_finalize(clc_now());
  pmpi_finalize_(ierr);
}

void mpi_abort_(F *comm, F *code, F *ierr) {
  if (clc_t == 1) {
    clc_t = 2;
    clc_region(K_ENTER, clc_now(), R_MPI_Abort);
    clc_abort();
  }
  pmpi_abort_(comm, code, ierr);
}

#define F_SEND(lname, NAME)                                                            \
  void lname##_(void *buf, F *count, F *dt, F *dest, F *tag, F *comm, F *ierr) {       \
    if (!CLC_ON()) { p##lname##_(buf, count, dt, dest, tag, comm, ierr); return; }     \
    ENTER(NAME);                                                                       \
    f_send(K_SEND, t0, *dest, *count, *dt, *tag, *comm, 0);                            \
    p##lname##_(buf, count, dt, dest, tag, comm, ierr);                                \
    LEAVE(NAME, clc_now());                                                            \
  }
F_SEND(mpi_send, MPI_Send)
F_SEND(mpi_ssend, MPI_Ssend)
F_SEND(mpi_bsend, MPI_Bsend)
F_SEND(mpi_rsend, MPI_Rsend)

void mpi_recv_(void *buf, F *count, F *dt, F *src, F *tag, F *comm, F *st, F *ierr) {
  if (!CLC_ON()) { pmpi_recv_(buf, count, dt, src, tag, comm, st, ierr); return; }
  ENTER(MPI_Recv);
  F tmp[FSTATUS], *s = own_status(st, tmp);
  pmpi_recv_(buf, count, dt, src, tag, comm, s, ierr);
  int64_t t1 = clc_now();
  if (*ierr == MPI_SUCCESS) f_recv(t1, s, *dt, *comm);
  LEAVE(MPI_Recv, t1);
}

#define F_ISEND(lname, NAME)                                                                   \
  void lname##_(void *buf, F *count, F *dt, F *dest, F *tag, F *comm, F *req, F *ierr) {       \
    if (!CLC_ON()) { p##lname##_(buf, count, dt, dest, tag, comm, req, ierr); return; }        \
    ENTER(NAME);                                                                               \
    p##lname##_(buf, count, dt, dest, tag, comm, req, ierr);                                   \
    if (*ierr == MPI_SUCCESS && *dest != MPI_PROC_NULL) {                                      \
      clc_comm *c = clc_comm_find(MPI_Comm_f2c(*comm));                                        \
      clc_req *q = c ? clc_req_add(MPI_Request_f2c(*req), RQ_SEND, c->pos) : NULL;             \
      if (q) f_send(K_ISEND, t0, *dest, *count, *dt, *tag, *comm, q->id);                      \
    }                                                                                          \
    LEAVE(NAME, clc_now());                                                                    \
  }
F_ISEND(mpi_isend, MPI_Isend)
F_ISEND(mpi_issend, MPI_Issend)

void mpi_irecv_(void *buf, F *count, F *dt, F *src, F *tag, F *comm, F *req, F *ierr) {
  if (!CLC_ON()) { pmpi_irecv_(buf, count, dt, src, tag, comm, req, ierr); return; }
  ENTER(MPI_Irecv);
  pmpi_irecv_(buf, count, dt, src, tag, comm, req, ierr);
  if (*ierr == MPI_SUCCESS && *src != MPI_PROC_NULL) {
    clc_comm *c = clc_comm_find(MPI_Comm_f2c(*comm));
    clc_req *q = c ? clc_req_add(MPI_Request_f2c(*req), RQ_RECV, c->pos) : NULL;
    if (q) {
      q->dtype = MPI_Type_f2c(*dt);
      clc_reqev(K_IRECV_REQUEST, t0, q->id);
    }
  }
  LEAVE(MPI_Irecv, clc_now());
}

void mpi_wait_(F *req, F *st, F *ierr) {
  if (!CLC_ON()) { pmpi_wait_(req, st, ierr); return; }
  ENTER(MPI_Wait);
  MPI_Request h = MPI_Request_f2c(*req);
  F tmp[FSTATUS], *s = own_status(st, tmp);
  pmpi_wait_(req, s, ierr);
  int64_t t1 = clc_now();
  MPI_Status cs;
  MPI_Status_f2c(s, &cs);
  clc_complete(h, &cs, t1);
  LEAVE(MPI_Wait, t1);
}

void mpi_waitall_(F *count, F *reqs, F *sts, F *ierr) {
  if (!CLC_ON()) { pmpi_waitall_(count, reqs, sts, ierr); return; }
  ENTER(MPI_Waitall);
  int n = *count;
  MPI_Request *h = clc_scratch_reqs(n);
  for (int i = 0; i < n; i++) h[i] = MPI_Request_f2c(reqs[i]);
  F *s = (sts == mpi_fortran_statuses_ignore_ && sts) ? fstatus_scratch(n) : sts;
  pmpi_waitall_(count, reqs, s, ierr);
  int64_t t1 = clc_now();
  int fsz = (int)(sizeof(MPI_Status) / sizeof(F)); /* Open MPI's MPI_STATUS_SIZE */
  for (int i = 0; i < n; i++) {
    MPI_Status cs;
    MPI_Status_f2c(s + (size_t)i * (size_t)fsz, &cs);
    clc_complete(h[i], &cs, t1);
  }
  LEAVE(MPI_Waitall, t1);
}

void mpi_sendrecv_(void *sb, F *sc, F *sdt, F *dest, F *stag, void *rb, F *rc, F *rdt, F *src, F *rtag, F *comm, F *st,
                   F *ierr) {
  if (!CLC_ON()) { pmpi_sendrecv_(sb, sc, sdt, dest, stag, rb, rc, rdt, src, rtag, comm, st, ierr); return; }
  ENTER(MPI_Sendrecv);
  f_send(K_SEND, t0, *dest, *sc, *sdt, *stag, *comm, 0);
  F tmp[FSTATUS], *s = own_status(st, tmp);
  pmpi_sendrecv_(sb, sc, sdt, dest, stag, rb, rc, rdt, src, rtag, comm, s, ierr);
  int64_t t1 = clc_now();
  if (*ierr == MPI_SUCCESS) f_recv(t1, s, *rdt, *comm);
  LEAVE(MPI_Sendrecv, t1);
}

typedef struct { int known; uint32_t pos; int n, me; } fcoll;

static fcoll f_begin(int64_t t, F comm) {
  fcoll k = {0, 0, 0, 0};
  clc_comm *c = clc_comm_find(MPI_Comm_f2c(comm));
  if (!c) return k;
  k.known = 1; k.pos = c->pos; k.n = c->size; k.me = c->rank;
  clc_collbegin(t);
  return k;
}

static void f_end(const fcoll *k, int64_t t, int op, int root, uint64_t sent, uint64_t recvd) {
  if (k->known) clc_collend(K_COLL_END, t, op, k->pos, root >= 0 ? (uint32_t)root + 1 : 0, sent, recvd, 0);
}

void mpi_barrier_(F *comm, F *ierr) {
  if (!CLC_ON()) { pmpi_barrier_(comm, ierr); return; }
  ENTER(MPI_Barrier);
  fcoll k = f_begin(t0, *comm);
  pmpi_barrier_(comm, ierr);
  int64_t t1 = clc_now();
  f_end(&k, t1, OP_BARRIER, -1, 0, 0);
  LEAVE(MPI_Barrier, t1);
}

void mpi_bcast_(void *buf, F *count, F *dt, F *root, F *comm, F *ierr) {
  if (!CLC_ON()) { pmpi_bcast_(buf, count, dt, root, comm, ierr); return; }
  ENTER(MPI_Bcast);
  fcoll k = f_begin(t0, *comm);
  uint64_t b = (uint64_t)*count * clc_tsize(MPI_Type_f2c(*dt));
  pmpi_bcast_(buf, count, dt, root, comm, ierr);
  int64_t t1 = clc_now();
  if (k.me == *root) f_end(&k, t1, OP_BCAST, *root, b * (uint64_t)(k.n > 0 ? k.n - 1 : 0), 0);
  else f_end(&k, t1, OP_BCAST, *root, 0, b);
  LEAVE(MPI_Bcast, t1);
}

void mpi_reduce_(void *sb, void *rb, F *count, F *dt, F *op, F *root, F *comm, F *ierr) {
  if (!CLC_ON()) { pmpi_reduce_(sb, rb, count, dt, op, root, comm, ierr); return; }
  ENTER(MPI_Reduce);
  fcoll k = f_begin(t0, *comm);
  uint64_t b = k.n > 1 ? (uint64_t)*count * clc_tsize(MPI_Type_f2c(*dt)) : 0;
  pmpi_reduce_(sb, rb, count, dt, op, root, comm, ierr);
  int64_t t1 = clc_now();
  if (k.me == *root) f_end(&k, t1, OP_REDUCE, *root, 0, b);
  else f_end(&k, t1, OP_REDUCE, *root, b, 0);
  LEAVE(MPI_Reduce, t1);
}

void mpi_allreduce_(void *sb, void *rb, F *count, F *dt, F *op, F *comm, F *ierr) {
  if (!CLC_ON()) { pmpi_allreduce_(sb, rb, count, dt, op, comm, ierr); return; }
  ENTER(MPI_Allreduce);
  fcoll k = f_begin(t0, *comm);
  uint64_t b = k.n > 1 ? (uint64_t)*count * clc_tsize(MPI_Type_f2c(*dt)) : 0;
  pmpi_allreduce_(sb, rb, count, dt, op, comm, ierr);
  int64_t t1 = clc_now();
  f_end(&k, t1, OP_ALLREDUCE, -1, b, b);
  LEAVE(MPI_Allreduce, t1);
}

void mpi_comm_split_(F *comm, F *color, F *key, F *out, F *ierr) {
  if (!CLC_ON()) { pmpi_comm_split_(comm, color, key, out, ierr); return; }
  ENTER(MPI_Comm_split);
  pmpi_comm_split_(comm, color, key, out, ierr);
  int64_t t1 = clc_now();
  if (*ierr == MPI_SUCCESS) clc_comm_register(MPI_Comm_f2c(*out), "MPI_Comm_split", t1);
  LEAVE(MPI_Comm_split, t1);
}

void mpi_comm_dup_(F *comm, F *out, F *ierr) {
  if (!CLC_ON()) { pmpi_comm_dup_(comm, out, ierr); return; }
  ENTER(MPI_Comm_dup);
  pmpi_comm_dup_(comm, out, ierr);
  int64_t t1 = clc_now();
  if (*ierr == MPI_SUCCESS) clc_comm_register(MPI_Comm_f2c(*out), "MPI_Comm_dup", t1);
  LEAVE(MPI_Comm_dup, t1);
}

void mpi_comm_free_(F *comm, F *ierr) {
  if (!CLC_ON()) { pmpi_comm_free_(comm, ierr); return; }
  ENTER(MPI_Comm_free);
  clc_comm_forget(MPI_Comm_f2c(*comm), t0);
  pmpi_comm_free_(comm, ierr);
  LEAVE(MPI_Comm_free, clc_now());
}
