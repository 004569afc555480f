/* clc-trace PMPI library: helpers of the Fortran wrappers (Open MPI only;
 * see fortran.c). */
#ifndef CLC_FORTRAN_H
#define CLC_FORTRAN_H

#include "clc.h"

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "clc-trace assumes a Fortran INTEGER is a C int");

/* Open MPI's MPI_STATUS_SIZE. */
#define CLC_FSTATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))

/* clc_fsym returns the real Fortran function <name> (pmpi_<name>_ of the
 * next library, normally libmpi_mpifh); it aborts with a message if there
 * is none. */
void *clc_fsym(const char *name);

/* The real function of a wrapper: its type and a pointer found on first use. */
#define CLC_FREAL(name, params) \
  typedef void(*clc_ft_##name) params; \
  static clc_ft_##name real_##name;
#define CLC_FRESOLVE(name) \
  if (!real_##name) real_##name = (clc_ft_##name)clc_fsym(#name)
/* One more symbol for a wrapper (all the names Open MPI exports). */
#define CLC_FALIAS(target, name) extern __typeof__(target) name __attribute__((alias(#target), visibility("default")))

/* clc_fbuf maps Open MPI's Fortran MPI_IN_PLACE and MPI_BOTTOM to C's. */
void *clc_fbuf(void *p);
int clc_fstatus_ignored(const MPI_Fint *s);
int clc_fstatuses_ignored(const MPI_Fint *s);
/* clc_fstatus_scratch is room for n Fortran statuses. */
MPI_Fint *clc_fstatus_scratch(int n);
/* Conversions into scratch space of the recording thread. */
MPI_Status *clc_f2c_statuses(const MPI_Fint *f, int n);
int *clc_f2c_indices(const MPI_Fint *f, const int *outcount);
MPI_Request *clc_f2c_requests(const MPI_Fint *f, int n);
const MPI_Datatype *clc_f2c_types(const MPI_Fint *f, int n, int slot);
/* A Fortran index (1-based) as C's. */
static inline int clc_f2c_index(MPI_Fint i) { return i == MPI_UNDEFINED ? MPI_UNDEFINED : (int)i - 1; }

#endif
