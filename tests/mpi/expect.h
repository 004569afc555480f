/* expect.h: each test program counts what it does, so that tests can compare
 * the trace with it. Every rank prints one line before MPI_Finalize:
 *   CLC-EXPECT {"program": "ring", "rank": 0, "size": 4, "calls": {"MPI_Send": 10, ...},
 *               "sends": 10, "recvs": 10, "colls": 3, "comms": 1, "cancelled": 0}
 * calls: wrapped MPI functions called (MPI_Init and MPI_Finalize included);
 * sends/recvs: point-to-point messages sent/received (completed receives);
 * colls: collective operations completed (blocking and non-blocking);
 * comms: communicators created; cancelled: receives cancelled. */
#ifndef EXPECT_H
#define EXPECT_H
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static struct { const char *name; long n; } ex_calls[64];
static int ex_ncalls;
static long ex_sends, ex_recvs, ex_colls, ex_comms, ex_cancelled;

__attribute__((unused)) static void ex_call(const char *name) {
  for (int i = 0; i < ex_ncalls; i++)
    if (!strcmp(ex_calls[i].name, name)) { ex_calls[i].n++; return; }
  ex_calls[ex_ncalls].name = name;
  ex_calls[ex_ncalls++].n = 1;
}

/* C(MPI_Send)(args) counts the call and makes it. */
#define C(fn) (ex_call(#fn), fn)
#define SENT(n) (ex_sends += (n))
#define RECVD(n) (ex_recvs += (n))
#define COLL(n) (ex_colls += (n))
#define COMM(n) (ex_comms += (n))

__attribute__((unused)) static void ex_print(const char *prog) {
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  ex_call("MPI_Finalize");
  char buf[8192];
  int k = snprintf(buf, sizeof buf, "CLC-EXPECT {\"program\": \"%s\", \"rank\": %d, \"size\": %d, \"calls\": {", prog, r, n);
  for (int i = 0; i < ex_ncalls; i++)
    k += snprintf(buf + k, sizeof buf - (size_t)k, "%s\"%s\": %ld", i ? ", " : "", ex_calls[i].name, ex_calls[i].n);
  k += snprintf(buf + k, sizeof buf - (size_t)k,
                "}, \"sends\": %ld, \"recvs\": %ld, \"colls\": %ld, \"comms\": %ld, \"cancelled\": %ld}\n", ex_sends,
                ex_recvs, ex_colls, ex_comms, ex_cancelled);
  fputs(buf, stdout);
  fflush(stdout);
}

static int ex_arg(int argc, char **argv, int i, int def) {
  if (argc > i) {
    int v = 0;
    if (sscanf(argv[i], "%d", &v) == 1) return v;
  }
  return def;
}
#endif
