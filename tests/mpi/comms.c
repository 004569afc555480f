/* comms: communicators made by split, dup, create, create_group, cart_create
 * and cart_sub, with point-to-point messages (peers are ranks within the
 * communicator) and collectives on them; MPI_COMM_SELF. Usage: comms [iterations] */
#include "expect.h"

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  int iters = ex_arg(argc, argv, 1, 5);
  MPI_Comm half, dup, first, grp, cart, sub;
  C(MPI_Comm_split)(MPI_COMM_WORLD, r % 2, n - r, &half); COMM(1); /* reversed order within each half */
  C(MPI_Comm_dup)(MPI_COMM_WORLD, &dup); COMM(1);
  MPI_Group wg, fg;
  C(MPI_Comm_group)(MPI_COMM_WORLD, &wg);
  int range[1][3] = {{0, (n - 1) / 2, 1}};
  C(MPI_Group_range_incl)(wg, 1, range, &fg);
  C(MPI_Comm_create)(MPI_COMM_WORLD, fg, &first);
  if (first != MPI_COMM_NULL) COMM(1);
  grp = MPI_COMM_NULL;
  if (first != MPI_COMM_NULL) { C(MPI_Comm_create_group)(MPI_COMM_WORLD, fg, 7, &grp); COMM(1); }
  int dims[1] = {n}, periods[1] = {1}, remain[1] = {1};
  C(MPI_Cart_create)(MPI_COMM_WORLD, 1, dims, periods, 0, &cart); COMM(1);
  C(MPI_Cart_sub)(cart, remain, &sub); COMM(1);
  int hr, hn;
  C(MPI_Comm_rank)(half, &hr);
  C(MPI_Comm_size)(half, &hn);
  double v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int it = 0; it < iters; it++) {
    /* a ring inside each half, with ranks of the half */
    C(MPI_Sendrecv)(v, 2, MPI_DOUBLE, (hr + 1) % hn, it, v + 4, 2, MPI_DOUBLE, (hr + hn - 1) % hn, it, half, MPI_STATUS_IGNORE);
    SENT(1); RECVD(1);
    C(MPI_Allreduce)(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_SUM, half); COLL(1);
    C(MPI_Bcast)(v, 3, MPI_DOUBLE, hn > 1 ? 1 : 0, half); COLL(1);
    C(MPI_Barrier)(dup); COLL(1);
    C(MPI_Reduce)(v, v + 4, 2, MPI_DOUBLE, MPI_MAX, n - 1, dup); COLL(1);
    if (first != MPI_COMM_NULL) { C(MPI_Allreduce)(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, first); COLL(1); }
    if (grp != MPI_COMM_NULL) { C(MPI_Barrier)(grp); COLL(1); }
    C(MPI_Allgather)(v, 1, MPI_DOUBLE, v + 0, 0, MPI_DOUBLE, sub); COLL(1); /* zero bytes received */
    C(MPI_Allreduce)(MPI_IN_PLACE, v, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF); COLL(1);
    /* a message to oneself on MPI_COMM_SELF */
    C(MPI_Sendrecv)(v, 1, MPI_DOUBLE, 0, 3, v + 1, 1, MPI_DOUBLE, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    SENT(1); RECVD(1);
  }
  C(MPI_Comm_free)(&half);
  C(MPI_Comm_free)(&dup);
  if (first != MPI_COMM_NULL) C(MPI_Comm_free)(&first);
  if (grp != MPI_COMM_NULL) C(MPI_Comm_free)(&grp);
  C(MPI_Comm_free)(&sub);
  C(MPI_Comm_free)(&cart);
  C(MPI_Group_free)(&fg);
  C(MPI_Group_free)(&wg);
  ex_print("comms");
  C(MPI_Finalize)();
  return 0;
}
