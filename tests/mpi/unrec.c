/* unrec: imports communicating MPI functions clc-trace does not record
 * (MPI_Comm_spawn, MPI_Comm_accept; under MPI-4.0 also MPI_Isendrecv and
 * the large-count MPI_Send_c) without calling them, and does one
 * allreduce. Usage: unrec */
#include "expect.h"

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int x = 1, y = 0;
  if (argc > 100) { /* never: the functions are only imported */
    MPI_Comm c;
    MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c, MPI_ERRCODES_IGNORE);
    MPI_Comm_accept("port", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c);
#if MPI_VERSION >= 4
    MPI_Request q;
    MPI_Isendrecv(&x, 1, MPI_INT, 0, 0, &y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &q);
    MPI_Send_c(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
#endif
  }
  C(MPI_Allreduce)(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); COLLOP("allreduce");
  ex_print("unrec");
  C(MPI_Finalize)();
  return 0;
}
