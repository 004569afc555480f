/* ring: blocking point-to-point around a ring: Send/Recv, Ssend, Bsend, Rsend,
 * Sendrecv, Sendrecv_replace, Probe-then-Recv with ANY_SOURCE/ANY_TAG.
 * Usage: ring [iterations] */
#include <stdlib.h>
#include "expect.h"

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  int iters = ex_arg(argc, argv, 1, 20);
  int right = (r + 1) % n, left = (r + n - 1) % n;
  double x[16] = {0};
  int bsize = 1 << 16;
  void *bbuf = malloc((size_t)bsize);
  C(MPI_Buffer_attach)(bbuf, bsize);
  for (int it = 0; it < iters; it++) {
    int tag = it % 7;
    /* plain and synchronous sends, even ranks first */
    if (r % 2 == 0) {
      C(MPI_Send)(x, 4, MPI_DOUBLE, right, tag, MPI_COMM_WORLD); SENT(1);
      C(MPI_Recv)(x, 4, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); RECVD(1);
      C(MPI_Ssend)(x, 2, MPI_DOUBLE, right, 100, MPI_COMM_WORLD); SENT(1);
      C(MPI_Recv)(x, 2, MPI_DOUBLE, left, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE); RECVD(1);
    } else {
      C(MPI_Recv)(x, 4, MPI_DOUBLE, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE); RECVD(1);
      C(MPI_Send)(x, 4, MPI_DOUBLE, right, tag, MPI_COMM_WORLD); SENT(1);
      C(MPI_Recv)(x, 2, MPI_DOUBLE, left, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE); RECVD(1);
      C(MPI_Ssend)(x, 2, MPI_DOUBLE, right, 100, MPI_COMM_WORLD); SENT(1);
    }
    /* buffered send: cannot deadlock */
    C(MPI_Bsend)(x, 3, MPI_DOUBLE, right, 200, MPI_COMM_WORLD); SENT(1);
    /* probe first, then receive what the probe found */
    MPI_Status st;
    C(MPI_Probe)(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    int cnt;
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    C(MPI_Recv)(x, cnt, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); RECVD(1);
    /* ready send: the receive is posted before the barrier */
    MPI_Request rq;
    C(MPI_Irecv)(x + 8, 1, MPI_DOUBLE, left, 300, MPI_COMM_WORLD, &rq);
    C(MPI_Barrier)(MPI_COMM_WORLD); COLL(1);
    C(MPI_Rsend)(x, 1, MPI_DOUBLE, right, 300, MPI_COMM_WORLD); SENT(1);
    C(MPI_Wait)(&rq, MPI_STATUS_IGNORE); RECVD(1);
    /* combined send and receive (any tag: from the left only tag 400 can be pending) */
    C(MPI_Sendrecv)(x, 5, MPI_DOUBLE, right, 400, x + 8, 5, MPI_DOUBLE, left, MPI_ANY_TAG, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE); SENT(1); RECVD(1);
    C(MPI_Sendrecv_replace)(x, 6, MPI_DOUBLE, left, 500, right, 500, MPI_COMM_WORLD, &st); SENT(1); RECVD(1);
    /* messages to MPI_PROC_NULL are no messages */
    C(MPI_Send)(x, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  }
  C(MPI_Buffer_detach)(&bbuf, &bsize);
  free(bbuf);
  ex_print("ring");
  C(MPI_Finalize)();
  return 0;
}
