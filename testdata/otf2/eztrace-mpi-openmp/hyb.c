#include <mpi.h>
#include <omp.h>
#include <stdio.h>
int main(int argc, char **argv) {
  int rank, size, provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double buf[64] = {0}, sum = 0;
  for (int it = 0; it < 4; it++) {
    #pragma omp parallel for reduction(+:sum) num_threads(2)
    for (int i = 0; i < 100000; i++) sum += i * 1e-9 * (rank + 1);
    if (rank == 0) {
      MPI_Send(buf, 64, MPI_DOUBLE, 1, it, MPI_COMM_WORLD);
      MPI_Recv(buf, 64, MPI_DOUBLE, 1, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, 64, MPI_DOUBLE, 0, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 64, MPI_DOUBLE, 0, it, MPI_COMM_WORLD);
    }
    MPI_Request r[2];
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Irecv(buf + 32, 8, MPI_DOUBLE, from, 100 + it, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(buf, 8, MPI_DOUBLE, peer, 100 + it, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Bcast(buf, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("sum %g\n", sum);
  MPI_Finalize();
  return 0;
}
