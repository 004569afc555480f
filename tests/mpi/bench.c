/* bench: tracing overhead; "timer" measures one rdtscp (the tracer's timer);
 * "procnull" calls MPI_Send to MPI_PROC_NULL (the wrapper records enter and
 * leave only) and "self" MPI_Sendrecv with itself (enter, send, receive,
 * leave): both isolate the wrapper's cost from the partner's scheduling. Mode "pingpong" bounces a 8-byte message between
 * ranks 0 and 1; "allreduce" runs MPI_Allreduce of one double on all ranks;
 * "test" calls MPI_Test on a receive from itself that is not yet sent
 * (unsuccessful: a run of polls), then completes it.
 * Prints CLC-BENCH {"mode": ..., "iters": N, "ns_per_iter": T, "calls_per_iter": C}
 * from rank 0 (the best of 5 repetitions). Usage: bench pingpong|allreduce [iterations] */
#include <string.h>
#include <time.h>
#include "expect.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const char *mode = argc > 1 ? argv[1] : "pingpong";
  int iters = ex_arg(argc, argv, 2, 100000);
  double x = 1, y = 0, best = 1e300;
  int pp = !strcmp(mode, "pingpong");
  if (!strcmp(mode, "timer")) {
#if defined(__x86_64__)
    unsigned lo, hi, aux;
    unsigned long long sum = 0;
    for (int rep = 0; rep < 5; rep++) {
      double t0 = now();
      for (int i = 0; i < iters; i++) {
        __asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
        sum += lo;
      }
      double t = (now() - t0) / iters;
      if (t < best) best = t;
    }
    if (r == 0) printf("CLC-BENCH {\"mode\": \"timer\", \"ranks\": %d, \"iters\": %d, \"ns_per_iter\": %.2f, \"calls_per_iter\": 1, \"sum\": %llu}\n", n, iters, best, sum & 1);
#endif
    MPI_Finalize();
    return 0;
  }
  for (int rep = 0; rep < 5; rep++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    for (int i = 0; i < iters; i++) {
      if (mode[0] == 'p' && mode[1] == 'r') {
        MPI_Send(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
      } else if (!strcmp(mode, "test")) {
        MPI_Request q;
        int flag = 0;
        MPI_Irecv(&y, 1, MPI_DOUBLE, r, 6, MPI_COMM_WORLD, &q);
        for (int j = 0; j < 1000 && i < iters; j++, i++) MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
        i--;
        MPI_Send(&x, 1, MPI_DOUBLE, r, 6, MPI_COMM_WORLD);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
      } else if (!strcmp(mode, "self")) {
        MPI_Sendrecv(&x, 1, MPI_DOUBLE, r, 5, &y, 1, MPI_DOUBLE, r, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (pp) {
        if (r == 0) {
          MPI_Send(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
          MPI_Recv(&y, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (r == 1) {
          MPI_Recv(&y, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
        }
      } else {
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      }
    }
    double t = (now() - t0) / iters;
    if (t < best) best = t;
  }
  if (r == 0)
    printf("CLC-BENCH {\"mode\": \"%s\", \"ranks\": %d, \"iters\": %d, \"ns_per_iter\": %.1f, \"calls_per_iter\": %d}\n", mode, n,
           iters, best, pp ? 2 : 1);
  MPI_Finalize();
  return 0;
}
