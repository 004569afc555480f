/* halo: 1-D periodic halo exchange with Irecv/Isend completed by Waitall,
 * Waitany, Waitsome, Testall and Testsome in turn (completion order differs
 * from posting order). Usage: halo [iterations] [doubles per message] */
#include <stdlib.h>
#include "expect.h"

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  int iters = ex_arg(argc, argv, 1, 20), len = ex_arg(argc, argv, 2, 64);
  int right = (r + 1) % n, left = (r + n - 1) % n;
  double *in = calloc((size_t)(2 * len), sizeof(double)), *out = calloc((size_t)(2 * len), sizeof(double));
  for (int it = 0; it < iters; it++) {
    MPI_Request rq[4];
    MPI_Status sts[4];
    C(MPI_Irecv)(in, len, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[0]);
    C(MPI_Irecv)(in + len, len, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &rq[1]);
    C(MPI_Isend)(out, len, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[2]);
    C(MPI_Isend)(out + len, len, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &rq[3]);
    SENT(2);
    RECVD(2);
    int left_reqs = 4, idx, cnt, flag, ids[4];
    switch (it % 5) {
    case 0:
      C(MPI_Waitall)(4, rq, MPI_STATUSES_IGNORE);
      break;
    case 1:
      while (left_reqs > 0) { C(MPI_Waitany)(4, rq, &idx, MPI_STATUS_IGNORE); left_reqs--; }
      break;
    case 2:
      while (left_reqs > 0) { C(MPI_Waitsome)(4, rq, &cnt, ids, sts); left_reqs -= cnt; }
      break;
    case 3:
      do { C(MPI_Testall)(4, rq, &flag, sts); } while (!flag);
      break;
    case 4:
      while (left_reqs > 0) { C(MPI_Testsome)(4, rq, &cnt, ids, MPI_STATUSES_IGNORE); left_reqs -= cnt; }
      break;
    }
    for (int i = 0; i < 2 * len; i++) out[i] = in[i] * 0.5 + r;
    if (it % 4 == 3) { C(MPI_Allreduce)(MPI_IN_PLACE, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); COLL(1); }
  }
  /* a test that fails before the message is there, then a wait */
  MPI_Request rq;
  int flag = 0;
  C(MPI_Irecv)(in, 1, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, &rq);
  C(MPI_Test)(&rq, &flag, MPI_STATUS_IGNORE);
  C(MPI_Barrier)(MPI_COMM_WORLD); COLL(1);
  C(MPI_Send)(out, 1, MPI_DOUBLE, right, 9, MPI_COMM_WORLD); SENT(1);
  if (!flag) C(MPI_Wait)(&rq, MPI_STATUS_IGNORE);
  RECVD(1);
  free(in);
  free(out);
  ex_print("halo");
  C(MPI_Finalize)();
  return 0;
}
