/* long: a run of a given length (seconds) alternating computation, a ring
 * exchange and an allreduce, so that clock drift and wander show.
 * Usage: long [seconds] */
#include <time.h>
#include "expect.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  double secs = ex_arg(argc, argv, 1, 2);
  int right = (r + 1) % n, left = (r + n - 1) % n;
  double x[32] = {0}, t0 = now();
  int go = 1;
  while (go) {
    volatile double s = 0;
    for (int i = 0; i < 200000; i++) s += i * 1e-9; /* some compute */
    C(MPI_Sendrecv)(x, 32, MPI_DOUBLE, right, 1, x, 32, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    SENT(1); RECVD(1);
    int more = now() - t0 < secs;
    C(MPI_Allreduce)(&more, &go, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); COLL(1);
  }
  ex_print("long");
  C(MPI_Finalize)();
  return 0;
}
