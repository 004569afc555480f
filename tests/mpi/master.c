/* master: rank 0 hands out tasks and collects results with
 * MPI_ANY_SOURCE/MPI_ANY_TAG; workers answer with task-dependent tags and
 * sizes. Usage: master [tasks] */
#include "expect.h"

enum { TAG_TASK = 1, TAG_STOP = 2, TAG_RESULT = 10 };

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  int tasks = ex_arg(argc, argv, 1, 40);
  int buf[64] = {0};
  if (n == 1) tasks = 0;
  if (r == 0) {
    int next = 0, active = 0;
    for (int w = 1; w < n; w++) {
      if (next < tasks) { buf[0] = next++; C(MPI_Send)(buf, 1, MPI_INT, w, TAG_TASK, MPI_COMM_WORLD); SENT(1); active++; }
      else { C(MPI_Send)(buf, 0, MPI_INT, w, TAG_STOP, MPI_COMM_WORLD); SENT(1); }
    }
    while (active > 0) {
      MPI_Status st;
      C(MPI_Recv)(buf, 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st); RECVD(1);
      active--;
      if (next < tasks) { buf[0] = next++; C(MPI_Send)(buf, 1, MPI_INT, st.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD); SENT(1); active++; }
      else { C(MPI_Send)(buf, 0, MPI_INT, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD); SENT(1); }
    }
  } else {
    for (;;) {
      MPI_Status st;
      C(MPI_Recv)(buf, 64, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st); RECVD(1);
      if (st.MPI_TAG == TAG_STOP) break;
      int t = buf[0];
      volatile double s = 0;
      for (int i = 0; i < 2000 * (1 + t % 5); i++) s += i * 1e-9;
      C(MPI_Send)(buf, 1 + t % 17, MPI_INT, 0, TAG_RESULT + t % 5, MPI_COMM_WORLD); SENT(1);
    }
  }
  C(MPI_Barrier)(MPI_COMM_WORLD); COLL(1);
  ex_print("master");
  C(MPI_Finalize)();
  return 0;
}
