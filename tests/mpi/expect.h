/* expect.h: each test program counts what it does, so that tests can compare
 * the trace with it. Every rank prints one line before MPI_Finalize (into
 * $CLC_EXPECT_DIR/expect.<rank> when that is set: launchers may split long
 * lines of several ranks into each other on stdout):
 *   CLC-EXPECT {"program": "ring", "rank": 0, "size": 4, "calls": {"MPI_Send": 10, ...},
 *               "sends": 10, "recvs": 10, "colls": 3, "comms": 1, "cancelled": 0}
 * calls: wrapped MPI functions called (MPI_Init and MPI_Finalize included);
 * sends/recvs: point-to-point messages sent/received (completed receives);
 * colls: collective operations completed (blocking and non-blocking);
 * comms: communicators created; cancelled: receives cancelled;
 * ops / nbops: blocking / non-blocking collectives completed per operation
 * (OTF2's names: "allreduce" …), when the program counts them;
 * nbr_msgs: logical messages of neighbourhood collectives sent (also in sends);
 * bytes: bytes of MPI-IO and one-sided calls per function;
 * coll_sent / coll_recvd: bytes collectives sent to and received from other
 * members (docs/tracer.md), blocking and non-blocking together, per
 * operation, for the operations the program counts them of;
 * regions: user regions entered, by the name the trace gives them. */
#ifndef EXPECT_H
#define EXPECT_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *name; long n; } ex_counter;
static ex_counter ex_calls[96], ex_ops[32], ex_nbops[32], ex_bytes[32], ex_csent[32], ex_crecvd[32], ex_regions[32];
static int ex_ncalls, ex_nops, ex_nnbops, ex_nbytes, ex_ncsent, ex_ncrecvd, ex_nregions;
static long ex_sends, ex_recvs, ex_colls, ex_comms, ex_cancelled, ex_nbr;

static void ex_count(ex_counter *c, int *n, const char *name, long by) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(c[i].name, name)) { c[i].n += by; return; }
  c[*n].name = name;
  c[(*n)++].n = by;
}
__attribute__((unused)) static void ex_call(const char *name) { ex_count(ex_calls, &ex_ncalls, name, 1); }

/* C(MPI_Send)(args) counts the call and makes it. */
#define C(fn) (ex_call(#fn), fn)
#define SENT(n) (ex_sends += (n))
#define RECVD(n) (ex_recvs += (n))
#define COLL(n) (ex_colls += (n))
#define COMM(n) (ex_comms += (n))
/* a blocking / non-blocking collective completed, by OTF2's operation name */
#define COLLOP(op) (ex_colls++, ex_count(ex_ops, &ex_nops, op, 1))
#define NBCOLLOP(op) (ex_colls++, ex_count(ex_nbops, &ex_nnbops, op, 1))
/* n logical messages of a neighbourhood collective sent */
#define NBR(n) (ex_nbr += (n), ex_sends += (n))
#define BYTES(fn, b) ex_count(ex_bytes, &ex_nbytes, #fn, (long)(b))
/* bytes a collective of operation op sent to and received from other members */
#define COLLBYTES(op, s, r) (ex_count(ex_csent, &ex_ncsent, op, (long)(s)), ex_count(ex_crecvd, &ex_ncrecvd, op, (long)(r)))
/* a user region entered (0 times: a region the trace must not hold) */
#define REGION(name, n) ex_count(ex_regions, &ex_nregions, name, n)

static int ex_json(char *buf, size_t size, const char *key, const ex_counter *c, int n) {
  int k = snprintf(buf, size, ", \"%s\": {", key);
  for (int i = 0; i < n; i++) k += snprintf(buf + k, size - (size_t)k, "%s\"%s\": %ld", i ? ", " : "", c[i].name, c[i].n);
  return k + snprintf(buf + k, size - (size_t)k, "}");
}

/* ex_write writes rank r's CLC-EXPECT line: into $CLC_EXPECT_DIR/expect.<r>
 * when that is set, whole or not at all (written under a hidden name, then
 * renamed: a test that waits for every rank's file, and then kills the run,
 * never reads one half-written), else to stdout. */
__attribute__((unused)) static void ex_write(int r, const char *line) {
  const char *dir = getenv("CLC_EXPECT_DIR");
  if (!dir || !*dir) {
    fputs(line, stdout);
    fflush(stdout);
    return;
  }
  char tmp[4096], path[4096];
  snprintf(tmp, sizeof tmp, "%s/.expect.%d", dir, r);
  snprintf(path, sizeof path, "%s/expect.%d", dir, r);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    perror(tmp);
    fputs(line, stdout);
    fflush(stdout);
    return;
  }
  fputs(line, f);
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    perror(path);
    fputs(line, stdout);
    fflush(stdout);
  }
}

__attribute__((unused)) static void ex_print(const char *prog) {
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  ex_call("MPI_Finalize");
  char buf[16384];
  int k = snprintf(buf, sizeof buf, "CLC-EXPECT {\"program\": \"%s\", \"rank\": %d, \"size\": %d", prog, r, n);
  k += ex_json(buf + k, sizeof buf - (size_t)k, "calls", ex_calls, ex_ncalls);
  if (ex_nops) k += ex_json(buf + k, sizeof buf - (size_t)k, "ops", ex_ops, ex_nops);
  if (ex_nnbops) k += ex_json(buf + k, sizeof buf - (size_t)k, "nbops", ex_nbops, ex_nnbops);
  if (ex_nbytes) k += ex_json(buf + k, sizeof buf - (size_t)k, "bytes", ex_bytes, ex_nbytes);
  if (ex_ncsent) k += ex_json(buf + k, sizeof buf - (size_t)k, "coll_sent", ex_csent, ex_ncsent);
  if (ex_ncrecvd) k += ex_json(buf + k, sizeof buf - (size_t)k, "coll_recvd", ex_crecvd, ex_ncrecvd);
  if (ex_nregions) k += ex_json(buf + k, sizeof buf - (size_t)k, "regions", ex_regions, ex_nregions);
  k += snprintf(buf + k, sizeof buf - (size_t)k,
                ", \"sends\": %ld, \"recvs\": %ld, \"colls\": %ld, \"comms\": %ld, \"cancelled\": %ld, \"nbr_msgs\": %ld}\n",
                ex_sends, ex_recvs, ex_colls, ex_comms, ex_cancelled, ex_nbr);
  ex_write(r, buf);
}

static int ex_arg(int argc, char **argv, int i, int def) {
  if (argc > i) {
    int v = 0;
    if (sscanf(argv[i], "%d", &v) == 1) return v;
  }
  return def;
}
#endif
