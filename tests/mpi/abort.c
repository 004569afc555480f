/* abort: a ring that dies mid-run. After the given iterations of
 * MPI_Sendrecv and a barrier, the last rank
 *   abort   calls MPI_Abort,
 *   kill    kills itself with SIGKILL,
 *   term    kills itself with SIGTERM (as a launcher kills),
 *   hup     kills itself with SIGHUP (as a closing terminal does),
 *   segv    crashes (SIGSEGV),
 *   sigabrt calls abort() (SIGABRT),
 *   bus     dies of SIGBUS (raised),
 *   exit    calls exit(0) without MPI_Finalize,
 * and the others wait in a barrier to be killed; with
 *   return  every rank returns from main without MPI_Finalize,
 *   hang    the last rank sleeps and the others wait in the barrier, until
 *           someone kills them.
 * Every rank first writes what it did (CLC_EXPECT_DIR) and waits in a
 * barrier for the others to have done so. Usage: abort HOW [iterations] */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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
  /* what the trace holds before the rank dies (the calls so far) */
  char line[512];
  snprintf(line, sizeof line, "CLC-EXPECT {\"program\": \"abort\", \"rank\": %d, \"size\": %d, \"calls\": {\"MPI_Init\": 1, "
           "\"MPI_Comm_rank\": 1, \"MPI_Comm_size\": 1, \"MPI_Sendrecv\": %d, \"MPI_Barrier\": 1}, \"sends\": %d, "
           "\"recvs\": %d, \"colls\": 1}\n", r, n, iters, iters, iters);
  ex_write(r, line);
  /* every rank has said what it did before one dies */
  MPI_Barrier(MPI_COMM_WORLD);
  if (!strcmp(how, "return")) return 0;
  if (r == n - 1) {
    if (!strcmp(how, "kill")) kill(getpid(), SIGKILL);
    else if (!strcmp(how, "term")) kill(getpid(), SIGTERM);
    else if (!strcmp(how, "hup")) kill(getpid(), SIGHUP);
    else if (!strcmp(how, "sigabrt")) abort();
    else if (!strcmp(how, "segv")) { volatile int *p = 0; *p = 1; }
    else if (!strcmp(how, "bus")) raise(SIGBUS);
    else if (!strcmp(how, "exit")) exit(0);
    else if (!strcmp(how, "hang")) for (;;) pause();
    else MPI_Abort(MPI_COMM_WORLD, 3);
  }
  /* the others wait to be killed by the launcher */
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
