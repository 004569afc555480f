/* clc-trace PMPI library: the Fortran layer, built for Open MPI only.
 *
 * Open MPI's Fortran bindings (mpi_send_ in libmpi_mpifh) do not call the C
 * functions MPI_Send & co., so a C wrapper never sees a Fortran program's
 * calls. The wrappers in fortran_gen.c (generated from the table
 * tracer/mpifn/functions.tbl) take the place of every name Open MPI exports
 * for mpif.h and "use mpi" (MPI_SEND, mpi_send, mpi_send_, mpi_send__) and
 * of the entry points its "use mpi_f08" module calls (ompi_send_f, and
 * pmpi_test_ & co. for the functions with LOGICAL arguments): they record
 * and call the real function, found with dlsym(RTLD_NEXT), with the
 * arguments they were given. MPICH's Fortran bindings call the C
 * functions, so this layer is not built for MPICH (it would count twice).
 *
 * This file holds the helpers and the Fortran wrappers of MPI_Init,
 * MPI_Init_thread, MPI_Finalize and MPI_Abort, which share what they do
 * with the C wrappers (clc_after_init & co. in hooks.c). */
#define _GNU_SOURCE
#include "fortran.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Open MPI's Fortran sentinels; weak, so that C programs (which do not
 * load the Fortran libraries) still load this library. */
#define W __attribute__((weak))
extern MPI_Fint mpi_fortran_status_ignore_[] W;
extern MPI_Fint mpi_fortran_statuses_ignore_[] W;
extern MPI_Fint mpi_fortran_in_place_[] W;
extern MPI_Fint mpi_fortran_bottom_[] W;

void *clc_fsym(const char *name) {
  char buf[128];
  const char *forms[] = {"pmpi_%s_", "mpi_%s_", "ompi_%s_f"};
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    snprintf(buf, sizeof buf, forms[i], name);
    void *p = dlsym(RTLD_NEXT, buf);
    if (p) return p;
  }
  char msg[256];
  int n = snprintf(msg, sizeof msg, "clc-trace: no Fortran MPI function pmpi_%s_ to call (is this Open MPI's libmpi_mpifh?)\n", name);
  ssize_t w = write(2, msg, (size_t)n);
  (void)w;
  abort();
}

void *clc_fbuf(void *p) {
  if (p && p == (void *)mpi_fortran_in_place_) return MPI_IN_PLACE;
  if (p && p == (void *)mpi_fortran_bottom_) return MPI_BOTTOM;
  return p;
}

int clc_fstatus_ignored(const MPI_Fint *s) { return s && s == mpi_fortran_status_ignore_; }
int clc_fstatuses_ignored(const MPI_Fint *s) { return s && s == mpi_fortran_statuses_ignore_; }

static void *grow(void *p, int *cap, int n, size_t size) {
  if (n <= *cap) return p;
  free(p);
  *cap = n + 64;
  return malloc(size * (size_t)*cap);
}

MPI_Fint *clc_fstatus_scratch(int n) {
  static MPI_Fint *s;
  static int cap;
  s = grow(s, &cap, n, sizeof(MPI_Fint) * (size_t)CLC_FSTATUS_SIZE);
  return s;
}

MPI_Status *clc_f2c_statuses(const MPI_Fint *f, int n) {
  static MPI_Status *s;
  static int cap;
  s = grow(s, &cap, n, sizeof *s);
  for (int i = 0; i < n; i++) MPI_Status_f2c(f + (size_t)i * (size_t)CLC_FSTATUS_SIZE, &s[i]);
  return s;
}

int *clc_f2c_indices(const MPI_Fint *f, const int *outcount) {
  static int *s;
  static int cap;
  int n = (*outcount == MPI_UNDEFINED || *outcount < 0) ? 0 : *outcount;
  s = grow(s, &cap, n, sizeof *s);
  for (int i = 0; i < n; i++) s[i] = (int)f[i] - 1;
  return s;
}

MPI_Request *clc_f2c_requests(const MPI_Fint *f, int n) {
  static MPI_Request *s;
  static int cap;
  s = grow(s, &cap, n, sizeof *s);
  for (int i = 0; i < n; i++) s[i] = MPI_Request_f2c(f[i]);
  return s;
}

const MPI_Datatype *clc_f2c_types(const MPI_Fint *f, int n, int slot) {
  static MPI_Datatype *s[2];
  static int cap[2];
  slot &= 1;
  s[slot] = grow(s[slot], &cap[slot], n, sizeof(MPI_Datatype));
  for (int i = 0; i < n; i++) s[slot][i] = MPI_Type_f2c(f[i]);
  return s[slot];
}

/* ---------------------------------------------------------------- life cycle */

/* The wrappers of the life cycle: the Fortran call, the shared part in
 * hooks.c (as the C wrappers). */

CLC_FREAL(init, (MPI_Fint *ierr))
void clc_f_init(MPI_Fint *ierr) {
  CLC_FRESOLVE(init);
  const int64_t t0 = clc_now();
  real_init(ierr);
  clc_after_init(t0, (int)*ierr, R_MPI_Init);
}
CLC_FALIAS(clc_f_init, MPI_INIT);
CLC_FALIAS(clc_f_init, mpi_init);
CLC_FALIAS(clc_f_init, mpi_init_);
CLC_FALIAS(clc_f_init, mpi_init__);
CLC_FALIAS(clc_f_init, ompi_init_f);
CLC_FALIAS(clc_f_init, pmpi_init_);

CLC_FREAL(init_thread, (MPI_Fint *req, MPI_Fint *prov, MPI_Fint *ierr))
void clc_f_init_thread(MPI_Fint *req, MPI_Fint *prov, MPI_Fint *ierr) {
  CLC_FRESOLVE(init_thread);
  const int64_t t0 = clc_now();
  real_init_thread(req, prov, ierr);
  clc_after_init(t0, (int)*ierr, R_MPI_Init_thread);
}
CLC_FALIAS(clc_f_init_thread, MPI_INIT_THREAD);
CLC_FALIAS(clc_f_init_thread, mpi_init_thread);
CLC_FALIAS(clc_f_init_thread, mpi_init_thread_);
CLC_FALIAS(clc_f_init_thread, mpi_init_thread__);
CLC_FALIAS(clc_f_init_thread, ompi_init_thread_f);
CLC_FALIAS(clc_f_init_thread, pmpi_init_thread_);

CLC_FREAL(finalize, (MPI_Fint *ierr))
void clc_f_finalize(MPI_Fint *ierr) {
  CLC_FRESOLVE(finalize);
  clc_before_finalize();
  real_finalize(ierr);
}
CLC_FALIAS(clc_f_finalize, MPI_FINALIZE);
CLC_FALIAS(clc_f_finalize, mpi_finalize);
CLC_FALIAS(clc_f_finalize, mpi_finalize_);
CLC_FALIAS(clc_f_finalize, mpi_finalize__);
CLC_FALIAS(clc_f_finalize, ompi_finalize_f);
CLC_FALIAS(clc_f_finalize, pmpi_finalize_);

CLC_FREAL(abort, (MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr))
void clc_f_abort(MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr) {
  CLC_FRESOLVE(abort);
  clc_before_abort();
  real_abort(comm, code, ierr);
}
CLC_FALIAS(clc_f_abort, MPI_ABORT);
CLC_FALIAS(clc_f_abort, mpi_abort);
CLC_FALIAS(clc_f_abort, mpi_abort_);
CLC_FALIAS(clc_f_abort, mpi_abort__);
CLC_FALIAS(clc_f_abort, ompi_abort_f);
CLC_FALIAS(clc_f_abort, pmpi_abort_);
