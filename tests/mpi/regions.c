/* regions: user regions, marked with clc-trace's API (clc_user.h) and by
 * the compiler (built with -finstrument-functions, expect.h and mpi.h
 * excluded); compiled as C or as C++ (then its functions' names are
 * demangled: "work(int)"). The region filter of the test leaves out the
 * function helper_skipped and the API region "noise". Each rank runs
 * "phase" once, in it ITER iterations of work() and helper_skipped(), of
 * "exchange" around an MPI_Sendrecv with its neighbours and of "noise".
 * Usage: regions [iterations] */
#include <math.h>
#include "clc_user.h"
#include "expect.h"

/* the functions' names in the trace */
#ifdef __cplusplus
#define WORK "work(int)"
#define HELPER "helper_skipped(double)"
#else
#define WORK "work"
#define HELPER "helper_skipped"
#endif

__attribute__((noinline)) static double work(int i) {
  double s = 0;
  for (int k = 0; k < 50; k++) s += sin(i + k);
  return s;
}

__attribute__((noinline)) double helper_skipped(double x) { return x * 0.5; }

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  int iters = ex_arg(argc, argv, 1, 20);
  double x = 0, y = 0;
  CLC_REGION_BEGIN("phase");
  REGION("phase", 1);
  for (int i = 0; i < iters; i++) {
    x += work(i);
    REGION(WORK, 1);
    x = helper_skipped(x);
    REGION(HELPER, 0);
    CLC_REGION_BEGIN("exchange");
    REGION("exchange", 1);
    C(MPI_Sendrecv)(&x, 1, MPI_DOUBLE, (r + 1) % n, 1, &y, 1, MPI_DOUBLE, (r + n - 1) % n, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    SENT(1);
    RECVD(1);
    CLC_REGION_END("exchange");
    CLC_REGION_BEGIN("noise");
    REGION("noise", 0);
    CLC_REGION_END("noise");
  }
  CLC_REGION_END("phase");
  ex_print("regions");
  C(MPI_Finalize)();
  return x == 12345.678;
}
