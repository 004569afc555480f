/* abort: a ring that dies mid-run: the last rank calls MPI_Abort ("abort")
 * or kills itself with SIGKILL ("kill") after the given iterations; with
 * "segv" it crashes. Usage: abort abort|kill|segv [iterations] */
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "expect.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const char *how = argc > 1 ? argv[1] : "abort";
  int iters = ex_arg(argc, argv, 2, 2000);
  double x[4] = {0};
  for (int it = 0; it < iters; it++) {
    MPI_Sendrecv(x, 4, MPI_DOUBLE, (r + 1) % n, 1, x, 4, MPI_DOUBLE, (r + n - 1) % n, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (r == n - 1) {
    if (!strcmp(how, "kill")) kill(getpid(), SIGKILL);
    else if (!strcmp(how, "segv")) { volatile int *p = 0; *p = 1; }
    else MPI_Abort(MPI_COMM_WORLD, 3);
  }
  /* the others wait to be killed by the launcher */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
