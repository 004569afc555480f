/* colls: every blocking collective of MPI-3.1, with v-variants whose counts
 * include zero-byte members and MPI_IN_PLACE; then every non-blocking
 * collective, on MPI_COMM_WORLD and on a split communicator, interleaved
 * with blocking ones on the same communicator and completed by every
 * completion function (Wait, Waitall, Waitany, Waitsome, Test, Testall,
 * Testany, Testsome; the tests poll). Alltoallw and Ialltoallw move types
 * of two sizes (what r and i exchange is MPI_DOUBLE when r + i is odd, else
 * MPI_INT), Alltoallw also in place; the program counts their bytes.
 * Usage: colls [iterations] */
#include <stdlib.h>
#include "expect.h"

/* nonblocking runs every non-blocking collective on comm once. */
static void nonblocking(MPI_Comm comm, int it) {
  int r, n;
  C(MPI_Comm_rank)(comm, &r);
  C(MPI_Comm_size)(comm, &n);
  int root = it % n, big = 4 * n + 8;
  int *B[17], cnt[64], dsp[64], sym[64];
  MPI_Datatype types[64];
  long wsize[64], wbytes = 0;
  for (int i = 0; i < 17; i++) B[i] = calloc((size_t)(2 * big * n), sizeof(int));
  /* some members move nothing; sym[i] = (r + i) % 3 is what r and i exchange */
  for (int i = 0; i < n; i++) {
    cnt[i] = i % 3; sym[i] = (r + i) % 3; dsp[i] = i * big;
    types[i] = (r + i) % 2 ? MPI_DOUBLE : MPI_INT;
    wsize[i] = (r + i) % 2 ? (long)sizeof(double) : (long)sizeof(int);
    if (i != r) wbytes += sym[i] * wsize[i];
  }
  int *S = B[16] + big * n; /* a send buffer no operation writes */
  MPI_Request q[8];
  int idx, done, flag, ids[8];
  /* Waitall; a blocking barrier between the starts: one sequence in call order */
  C(MPI_Ibarrier)(comm, &q[0]);
  C(MPI_Ibcast)(B[0], 5, MPI_INT, root, comm, &q[1]);
  C(MPI_Barrier)(comm); COLLOP("barrier");
  C(MPI_Igather)(S, 2, MPI_INT, B[1], 2, MPI_INT, root, comm, &q[2]);
  C(MPI_Igatherv)(S, cnt[r], MPI_INT, B[2], cnt, dsp, MPI_INT, root, comm, &q[3]);
  C(MPI_Iscatter)(S, 3, MPI_INT, B[3], 3, MPI_INT, root, comm, &q[4]);
  C(MPI_Iscatterv)(S, cnt, dsp, MPI_INT, B[4], cnt[r], MPI_INT, root, comm, &q[5]);
  C(MPI_Waitall)(6, q, MPI_STATUSES_IGNORE);
  NBCOLLOP("barrier"); NBCOLLOP("bcast"); NBCOLLOP("gather"); NBCOLLOP("gatherv"); NBCOLLOP("scatter"); NBCOLLOP("scatterv");
  /* Waitany */
  C(MPI_Iallgather)(S, 2, MPI_INT, B[5], 2, MPI_INT, comm, &q[0]);
  C(MPI_Iallgatherv)(S, cnt[r], MPI_INT, B[6], cnt, dsp, MPI_INT, comm, &q[1]);
  C(MPI_Allreduce)(S, B[7], 1, MPI_INT, MPI_SUM, comm); COLLOP("allreduce");
  C(MPI_Ialltoall)(S, 2, MPI_INT, B[8], 2, MPI_INT, comm, &q[2]);
  for (done = 0; done < 3; done++) C(MPI_Waitany)(3, q, &idx, MPI_STATUS_IGNORE);
  NBCOLLOP("allgather"); NBCOLLOP("allgatherv"); NBCOLLOP("alltoall");
  /* Waitsome */
  C(MPI_Ialltoallv)(S, sym, dsp, MPI_INT, B[9], sym, dsp, MPI_INT, comm, &q[0]);
  int bdsp[64];
  for (int i = 0; i < n; i++) bdsp[i] = dsp[i] * (int)sizeof(int);
  C(MPI_Ialltoallw)(S, sym, bdsp, types, B[10], sym, bdsp, types, comm, &q[1]);
  C(MPI_Iallreduce)(S, B[11], 4, MPI_INT, MPI_SUM, comm, &q[2]);
  for (done = 0; done < 3; done += idx) C(MPI_Waitsome)(3, q, &idx, ids, MPI_STATUSES_IGNORE);
  NBCOLLOP("alltoallv"); NBCOLLOP("alltoallw"); NBCOLLOP("allreduce");
  COLLBYTES("alltoallw", wbytes, wbytes);
  /* Test and Wait */
  C(MPI_Ireduce)(S, B[12], 3, MPI_INT, MPI_MAX, root, comm, &q[0]);
  C(MPI_Ireduce_scatter)(S, B[13], cnt, MPI_INT, MPI_SUM, comm, &q[1]);
  do { C(MPI_Test)(&q[0], &flag, MPI_STATUS_IGNORE); } while (!flag);
  C(MPI_Wait)(&q[1], MPI_STATUS_IGNORE);
  NBCOLLOP("reduce"); NBCOLLOP("reduce_scatter");
  /* Testall, Testany, Testsome */
  C(MPI_Ireduce_scatter_block)(S, B[14], 2, MPI_INT, MPI_SUM, comm, &q[0]);
  do { C(MPI_Testall)(1, q, &flag, MPI_STATUSES_IGNORE); } while (!flag);
  C(MPI_Iscan)(S, B[15], 3, MPI_INT, MPI_SUM, comm, &q[0]);
  C(MPI_Iexscan)(S, B[16], 3, MPI_INT, MPI_SUM, comm, &q[1]);
  do { C(MPI_Testany)(1, q, &idx, &flag, MPI_STATUS_IGNORE); } while (!flag);
  do { C(MPI_Testsome)(1, q + 1, &idx, ids, MPI_STATUSES_IGNORE); } while (idx == 0);
  NBCOLLOP("reduce_scatter_block"); NBCOLLOP("scan"); NBCOLLOP("exscan");
  for (int i = 0; i < 17; i++) free(B[i]);
}

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  int iters = ex_arg(argc, argv, 1, 3);
  int big = 4 * n + 8;
  int *sb = calloc((size_t)big * (size_t)n, sizeof(int)), *rb = calloc((size_t)big * (size_t)n, sizeof(int));
  int *cnt = calloc((size_t)n, sizeof(int)), *dsp = calloc((size_t)n, sizeof(int));
  int *rcnt = calloc((size_t)n, sizeof(int)), *rdsp = calloc((size_t)n, sizeof(int));
  MPI_Datatype *types = calloc((size_t)n, sizeof(MPI_Datatype));
  int *sym = calloc((size_t)n, sizeof(int));
  long wsent = 0, wrecvd = 0, winplace = 0; /* bytes of one Alltoallw, one in place */
  for (int i = 0; i < n; i++) {
    cnt[i] = (i == 1) ? 0 : i + 1; /* rank 1 contributes nothing */
    dsp[i] = i * big;
    rcnt[i] = (r == 1) ? 0 : r + 1;
    rdsp[i] = i * big;
    sym[i] = (r + i) % 3;
    types[i] = (r + i) % 2 ? MPI_DOUBLE : MPI_INT;
    long size = (r + i) % 2 ? (long)sizeof(double) : (long)sizeof(int);
    if (i != r) { wsent += rcnt[i] * size; wrecvd += cnt[i] * size; winplace += sym[i] * size; }
  }
  MPI_Comm half;
  C(MPI_Comm_split)(MPI_COMM_WORLD, r % 2, n - r, &half); COMM(1);
  for (int it = 0; it < iters; it++) {
    int root = it % n;
    C(MPI_Barrier)(MPI_COMM_WORLD); COLLOP("barrier");
    C(MPI_Bcast)(sb, 4, MPI_INT, root, MPI_COMM_WORLD); COLLOP("bcast");
    C(MPI_Gather)(sb, 2, MPI_INT, rb, 2, MPI_INT, root, MPI_COMM_WORLD); COLLOP("gather");
    C(MPI_Gatherv)(sb, cnt[r], MPI_INT, rb, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD); COLLOP("gatherv");
    C(MPI_Scatter)(sb, 3, MPI_INT, rb, 3, MPI_INT, root, MPI_COMM_WORLD); COLLOP("scatter");
    C(MPI_Scatterv)(sb, cnt, dsp, MPI_INT, rb, cnt[r], MPI_INT, root, MPI_COMM_WORLD); COLLOP("scatterv");
    C(MPI_Allgather)(sb, 2, MPI_INT, rb, 2, MPI_INT, MPI_COMM_WORLD); COLLOP("allgather");
    C(MPI_Allgatherv)(sb, cnt[r], MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD); COLLOP("allgatherv");
    C(MPI_Alltoall)(sb, 2, MPI_INT, rb, 2, MPI_INT, MPI_COMM_WORLD); COLLOP("alltoall");
    /* alltoallv: rank r sends rcnt[.] = r+1 (0 for rank 1) to everyone, receives cnt[i] from i */
    C(MPI_Alltoallv)(sb, rcnt, rdsp, MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD); COLLOP("alltoallv");
    int *sdb = calloc((size_t)n, sizeof(int)), *rdb = calloc((size_t)n, sizeof(int));
    for (int i = 0; i < n; i++) { sdb[i] = rdsp[i] * (int)sizeof(int); rdb[i] = dsp[i] * (int)sizeof(int); }
    C(MPI_Alltoallw)(sb, rcnt, sdb, types, rb, cnt, rdb, types, MPI_COMM_WORLD); COLLOP("alltoallw");
    COLLBYTES("alltoallw", wsent, wrecvd);
    /* in place: the send arguments are ignored */
    C(MPI_Alltoallw)(MPI_IN_PLACE, sym, rdb, types, rb, sym, rdb, types, MPI_COMM_WORLD); COLLOP("alltoallw");
    COLLBYTES("alltoallw", winplace, winplace);
    free(sdb);
    free(rdb);
    C(MPI_Allreduce)(sb, rb, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLLOP("allreduce");
    C(MPI_Allreduce)(MPI_IN_PLACE, rb, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLLOP("allreduce");
    C(MPI_Reduce)(sb, rb, 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD); COLLOP("reduce");
    C(MPI_Reduce_scatter)(sb, rb, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLLOP("reduce_scatter");
    C(MPI_Reduce_scatter_block)(sb, rb, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLLOP("reduce_scatter_block");
    C(MPI_Scan)(sb, rb, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLLOP("scan");
    C(MPI_Exscan)(sb, rb, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLLOP("exscan");
    for (int c = 0; c < 2; c++) nonblocking(c ? half : MPI_COMM_WORLD, it);
  }
  C(MPI_Comm_free)(&half);
  free(sb); free(rb); free(cnt); free(dsp); free(rcnt); free(rdsp); free(types); free(sym);
  ex_print("colls");
  C(MPI_Finalize)();
  return 0;
}
