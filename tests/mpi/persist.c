/* persist: persistent requests (Send_init/Recv_init/Ssend_init, Start,
 * Startall, Request_free), Issend, and a cancelled Irecv; started with
 * MPI_Init_thread(MPI_THREAD_FUNNELED).
 * Usage: persist [iterations] */
#include "expect.h"

int main(int argc, char **argv) {
  int provided;
  C(MPI_Init_thread)(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  int iters = ex_arg(argc, argv, 1, 10);
  int right = (r + 1) % n, left = (r + n - 1) % n;
  double a[8] = {0}, b[8] = {0}, c[8] = {0}, d[8] = {0};
  MPI_Request rq[4];
  C(MPI_Recv_init)(b, 8, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[0]);
  C(MPI_Send_init)(a, 8, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[1]);
  C(MPI_Recv_init)(d, 4, MPI_DOUBLE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &rq[2]);
  C(MPI_Ssend_init)(c, 4, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &rq[3]);
  for (int it = 0; it < iters; it++) {
    if (it % 2 == 0) {
      C(MPI_Startall)(4, rq);
      C(MPI_Waitall)(4, rq, MPI_STATUSES_IGNORE);
    } else {
      C(MPI_Start)(&rq[0]);
      C(MPI_Start)(&rq[2]);
      C(MPI_Start)(&rq[1]);
      C(MPI_Start)(&rq[3]);
      for (int i = 0; i < 4; i++) C(MPI_Wait)(&rq[i], MPI_STATUS_IGNORE);
    }
    SENT(2);
    RECVD(2);
  }
  for (int i = 0; i < 4; i++) C(MPI_Request_free)(&rq[i]);
  /* synchronous non-blocking send */
  MPI_Request s, q;
  C(MPI_Irecv)(b, 2, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &q);
  C(MPI_Issend)(a, 2, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &s);
  C(MPI_Wait)(&s, MPI_STATUS_IGNORE);
  C(MPI_Wait)(&q, MPI_STATUS_IGNORE);
  SENT(1);
  RECVD(1);
  /* a receive nobody sends to, cancelled */
  MPI_Status st;
  C(MPI_Irecv)(b, 1, MPI_DOUBLE, left, 999, MPI_COMM_WORLD, &q);
  C(MPI_Cancel)(&q);
  C(MPI_Wait)(&q, &st);
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  if (cancelled) ex_cancelled++;
  else RECVD(1);
  C(MPI_Barrier)(MPI_COMM_WORLD); COLL(1);
  ex_print("persist");
  C(MPI_Finalize)();
  return 0;
}
