/* poll: an HPCC-like polling loop (RandomAccess's pattern): every rank
 * keeps a wildcard receive posted and polls it and its outstanding send
 * with MPI_Testany between slices of local work, sending its messages to
 * the other ranks in turn. Usage: poll [messages per rank] [work per poll] */
#include <stdlib.h>
#include "expect.h"

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  int msgs = ex_arg(argc, argv, 1, 200), work = ex_arg(argc, argv, 2, 200), every = ex_arg(argc, argv, 3, 20);
  if (n == 1) msgs = 0;
  /* message j of rank s goes to (s + 1 + j % (n - 1)) % n */
  int expect = 0;
  for (int s = 0; s < n; s++)
    for (int j = 0; j < msgs; j++)
      if (s != r && (s + 1 + j % (n - 1)) % n == r) expect++;
  long inb[4], outb[4] = {r, 0, 0, 0};
  MPI_Request q[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int got = 0, sent = 0, idx, flag;
  long polls = 0;
  if (expect > 0) C(MPI_Irecv)(inb, 4, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &q[0]);
  volatile double acc = 0;
  while (got < expect || sent < msgs || q[1] != MPI_REQUEST_NULL) {
    for (int i = 0; i < work; i++) acc += i * 1e-9; /* local work */
    if (q[1] == MPI_REQUEST_NULL && sent < msgs && polls++ % every == 0) {
      int dest = (r + 1 + sent % (n - 1)) % n;
      outb[1] = sent++;
      C(MPI_Isend)(outb, 4, MPI_LONG, dest, 5, MPI_COMM_WORLD, &q[1]); SENT(1);
    }
    C(MPI_Testany)(2, q, &idx, &flag, MPI_STATUS_IGNORE);
    if (flag && idx == 0) {
      got++;
      RECVD(1);
      if (got < expect) C(MPI_Irecv)(inb, 4, MPI_LONG, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &q[0]);
    }
  }
  C(MPI_Barrier)(MPI_COMM_WORLD); COLLOP("barrier");
  ex_print("poll");
  C(MPI_Finalize)();
  return 0;
}
