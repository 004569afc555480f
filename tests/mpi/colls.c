/* colls: every collective operation of the design table, with v-variants
 * whose counts include zero-byte members, MPI_IN_PLACE, and the
 * non-blocking Ibarrier/Ibcast/Ireduce/Iallreduce. Usage: colls [iterations] */
#include <stdlib.h>
#include "expect.h"

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int iters = ex_arg(argc, argv, 1, 3);
  int big = 4 * n + 8;
  int *sb = calloc((size_t)big * (size_t)n, sizeof(int)), *rb = calloc((size_t)big * (size_t)n, sizeof(int));
  int *cnt = calloc((size_t)n, sizeof(int)), *dsp = calloc((size_t)n, sizeof(int));
  int *rcnt = calloc((size_t)n, sizeof(int)), *rdsp = calloc((size_t)n, sizeof(int));
  MPI_Datatype *types = calloc((size_t)n, sizeof(MPI_Datatype));
  for (int i = 0; i < n; i++) {
    cnt[i] = (i == 1) ? 0 : i + 1; /* rank 1 contributes nothing */
    dsp[i] = i * big;
    rcnt[i] = (r == 1) ? 0 : r + 1;
    rdsp[i] = i * big;
    types[i] = MPI_INT;
  }
  for (int it = 0; it < iters; it++) {
    int root = it % n;
    C(MPI_Barrier)(MPI_COMM_WORLD); COLL(1);
    C(MPI_Bcast)(sb, 4, MPI_INT, root, MPI_COMM_WORLD); COLL(1);
    C(MPI_Gather)(sb, 2, MPI_INT, rb, 2, MPI_INT, root, MPI_COMM_WORLD); COLL(1);
    C(MPI_Gatherv)(sb, cnt[r], MPI_INT, rb, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD); COLL(1);
    C(MPI_Scatter)(sb, 3, MPI_INT, rb, 3, MPI_INT, root, MPI_COMM_WORLD); COLL(1);
    C(MPI_Scatterv)(sb, cnt, dsp, MPI_INT, rb, cnt[r], MPI_INT, root, MPI_COMM_WORLD); COLL(1);
    C(MPI_Allgather)(sb, 2, MPI_INT, rb, 2, MPI_INT, MPI_COMM_WORLD); COLL(1);
    C(MPI_Allgatherv)(sb, cnt[r], MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD); COLL(1);
    C(MPI_Alltoall)(sb, 2, MPI_INT, rb, 2, MPI_INT, MPI_COMM_WORLD); COLL(1);
    /* alltoallv: rank r sends rcnt[.] = r+1 (0 for rank 1) to everyone, receives cnt[i] from i */
    C(MPI_Alltoallv)(sb, rcnt, rdsp, MPI_INT, rb, cnt, dsp, MPI_INT, MPI_COMM_WORLD); COLL(1);
    int *sdb = calloc((size_t)n, sizeof(int)), *rdb = calloc((size_t)n, sizeof(int));
    for (int i = 0; i < n; i++) { sdb[i] = rdsp[i] * (int)sizeof(int); rdb[i] = dsp[i] * (int)sizeof(int); }
    C(MPI_Alltoallw)(sb, rcnt, sdb, types, rb, cnt, rdb, types, MPI_COMM_WORLD); COLL(1);
    free(sdb);
    free(rdb);
    C(MPI_Allreduce)(sb, rb, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLL(1);
    C(MPI_Allreduce)(MPI_IN_PLACE, rb, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLL(1);
    C(MPI_Reduce)(sb, rb, 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD); COLL(1);
    C(MPI_Reduce_scatter)(sb, rb, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLL(1);
    C(MPI_Reduce_scatter_block)(sb, rb, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLL(1);
    C(MPI_Scan)(sb, rb, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLL(1);
    C(MPI_Exscan)(sb, rb, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLL(1);
    MPI_Request rq[4];
    C(MPI_Ibarrier)(MPI_COMM_WORLD, &rq[0]);
    C(MPI_Ibcast)(sb, 5, MPI_INT, root, MPI_COMM_WORLD, &rq[1]);
    C(MPI_Ireduce)(sb + 8, rb + 8, 2, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD, &rq[2]);
    C(MPI_Iallreduce)(sb + 16, rb + 16, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &rq[3]);
    C(MPI_Wait)(&rq[0], MPI_STATUS_IGNORE);
    C(MPI_Waitall)(3, rq + 1, MPI_STATUSES_IGNORE);
    COLL(4);
  }
  free(sb); free(rb); free(cnt); free(dsp); free(rcnt); free(rdsp); free(types);
  ex_print("colls");
  C(MPI_Finalize)();
  return 0;
}
