/* nbr: neighbourhood collectives (blocking and non-blocking, all five
 * kinds) on a periodic 1-D and a non-periodic 2-D Cartesian topology, a
 * graph and a distributed graph; matched probes (Mprobe/Mrecv,
 * Improbe/Imrecv); polling with Iprobe and MPI_Request_get_status.
 * Usage: nbr [iterations] */
#include <stdlib.h>
#include "expect.h"

/* out/in neighbours that are not MPI_PROC_NULL, counted with MPI's own
 * functions (the oracle for the tracer's neighbour lists). */
static void degrees(MPI_Comm c, int *out, int *in) {
  int topo;
  C(MPI_Topo_test)(c, &topo);
  *out = *in = 0;
  if (topo == MPI_CART) {
    int nd;
    C(MPI_Cartdim_get)(c, &nd);
    for (int d = 0; d < nd; d++) {
      int lo, hi;
      C(MPI_Cart_shift)(c, d, 1, &lo, &hi);
      *out += (lo != MPI_PROC_NULL) + (hi != MPI_PROC_NULL);
    }
    *in = *out;
  } else if (topo == MPI_GRAPH) {
    int me, k;
    C(MPI_Comm_rank)(c, &me);
    C(MPI_Graph_neighbors_count)(c, me, &k);
    *out = *in = k;
  } else {
    int w;
    C(MPI_Dist_graph_neighbors_count)(c, in, out, &w);
  }
}

/* exchange runs all ten neighbourhood collectives on c; max is an upper
 * bound of the neighbour counts (buffer positions). */
static void exchange(MPI_Comm c, int max) {
  int out, in;
  degrees(c, &out, &in);
  int cnt[16], dsp[16];
  MPI_Aint wdsp[16];
  MPI_Datatype types[16];
  for (int i = 0; i < max; i++) { cnt[i] = 2; dsp[i] = 4 * i; wdsp[i] = 4 * i * (MPI_Aint)sizeof(int); types[i] = MPI_INT; }
  int sb[64] = {0}, rb[64], rb2[64];
  MPI_Request q[2];
  C(MPI_Neighbor_allgather)(sb, 2, MPI_INT, rb, 2, MPI_INT, c); NBR(out); RECVD(in);
  C(MPI_Neighbor_allgatherv)(sb, 2, MPI_INT, rb, cnt, dsp, MPI_INT, c); NBR(out); RECVD(in);
  C(MPI_Neighbor_alltoall)(sb, 2, MPI_INT, rb, 2, MPI_INT, c); NBR(out); RECVD(in);
  C(MPI_Neighbor_alltoallv)(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, c); NBR(out); RECVD(in);
  C(MPI_Neighbor_alltoallw)(sb, cnt, wdsp, types, rb, cnt, wdsp, types, c); NBR(out); RECVD(in);
  C(MPI_Ineighbor_allgather)(sb, 1, MPI_INT, rb, 1, MPI_INT, c, &q[0]); NBR(out); RECVD(in);
  C(MPI_Ineighbor_alltoall)(sb, 1, MPI_INT, rb2, 1, MPI_INT, c, &q[1]); NBR(out); RECVD(in);
  C(MPI_Waitall)(2, q, MPI_STATUSES_IGNORE);
  C(MPI_Ineighbor_allgatherv)(sb, 2, MPI_INT, rb, cnt, dsp, MPI_INT, c, &q[0]); NBR(out); RECVD(in);
  C(MPI_Wait)(&q[0], MPI_STATUS_IGNORE);
  C(MPI_Ineighbor_alltoallv)(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, c, &q[0]); NBR(out); RECVD(in);
  C(MPI_Neighbor_alltoall)(sb, 1, MPI_INT, rb2, 1, MPI_INT, c); NBR(out); RECVD(in); /* while one is pending */
  C(MPI_Wait)(&q[0], MPI_STATUS_IGNORE);
  C(MPI_Ineighbor_alltoallw)(sb, cnt, wdsp, types, rb, cnt, wdsp, types, c, &q[0]); NBR(out); RECVD(in);
  int flag = 0;
  do { C(MPI_Test)(&q[0], &flag, MPI_STATUS_IGNORE); } while (!flag);
}

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  int iters = ex_arg(argc, argv, 1, 2);
  MPI_Comm ring, grid, graph, dist;
  int dims1[1] = {n}, per1[1] = {1};
  C(MPI_Cart_create)(MPI_COMM_WORLD, 1, dims1, per1, 0, &ring); COMM(1);
  int dims2[2] = {0, 0}, per2[2] = {0, 0};
  C(MPI_Dims_create)(n, 2, dims2);
  C(MPI_Cart_create)(MPI_COMM_WORLD, 2, dims2, per2, 0, &grid); COMM(1);
  int index[64], edges[128];
  for (int i = 0; i < n; i++) { index[i] = 2 * (i + 1); edges[2 * i] = (i + 1) % n; edges[2 * i + 1] = (i + n - 1) % n; }
  C(MPI_Graph_create)(MPI_COMM_WORLD, n, index, edges, 0, &graph); COMM(1);
  int src[2] = {(r + n - 1) % n, (r + n - 2) % n}, dst[2] = {(r + 1) % n, (r + 2) % n};
  C(MPI_Dist_graph_create_adjacent)(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2, dst, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist); COMM(1);
  for (int it = 0; it < iters; it++) {
    exchange(ring, 2);
    exchange(grid, 4);
    exchange(graph, 2);
    exchange(dist, 2);
  }
  /* matched probes: everyone sends two messages to its right neighbour */
  int right = (r + 1) % n, left = (r + n - 1) % n, x[4] = {r, r, r, r}, y[4];
  MPI_Request q[2];
  C(MPI_Isend)(x, 2, MPI_INT, right, 7, MPI_COMM_WORLD, &q[0]); SENT(1);
  C(MPI_Isend)(x, 3, MPI_INT, right, 8, MPI_COMM_WORLD, &q[1]); SENT(1);
  MPI_Message m;
  MPI_Status st;
  C(MPI_Mprobe)(left, 7, MPI_COMM_WORLD, &m, &st);
  C(MPI_Mrecv)(y, 2, MPI_INT, &m, MPI_STATUS_IGNORE); RECVD(1);
  int flag = 0;
  do { C(MPI_Improbe)(left, 8, MPI_COMM_WORLD, &flag, &m, &st); } while (!flag);
  MPI_Request rq;
  C(MPI_Imrecv)(y, 3, MPI_INT, &m, &rq);
  C(MPI_Wait)(&rq, MPI_STATUS_IGNORE); RECVD(1);
  C(MPI_Waitall)(2, q, MPI_STATUSES_IGNORE);
  /* polling: rank 0 waits with Iprobe for a message the last rank sends
   * after a barrier, and with MPI_Request_get_status for another */
  C(MPI_Barrier)(MPI_COMM_WORLD); COLLOP("barrier");
  if (r == 0) {
    C(MPI_Irecv)(y, 1, MPI_INT, n - 1, 11, MPI_COMM_WORLD, &rq);
    do { C(MPI_Iprobe)(n - 1, 10, MPI_COMM_WORLD, &flag, &st); } while (!flag);
    C(MPI_Recv)(y, 1, MPI_INT, n - 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE); RECVD(1);
    do { C(MPI_Request_get_status)(rq, &flag, &st); } while (!flag);
    C(MPI_Wait)(&rq, MPI_STATUS_IGNORE); RECVD(1);
  }
  if (r == n - 1) {
    volatile double s = 0;
    for (int i = 0; i < 2000000; i++) s += i * 1e-9;
    C(MPI_Send)(x, 1, MPI_INT, 0, 10, MPI_COMM_WORLD); SENT(1);
    for (int i = 0; i < 2000000; i++) s += i * 1e-9;
    C(MPI_Send)(x, 1, MPI_INT, 0, 11, MPI_COMM_WORLD); SENT(1);
  }
  C(MPI_Comm_free)(&ring);
  C(MPI_Comm_free)(&grid);
  C(MPI_Comm_free)(&graph);
  C(MPI_Comm_free)(&dist);
  ex_print("nbr");
  C(MPI_Finalize)();
  return 0;
}
