/* iorma: MPI-IO (independent, collective, non-blocking, split collective)
 * into a file in DIR, and one-sided communication (Put, Get, Accumulate,
 * Get_accumulate, Fetch_and_op, Compare_and_swap, Rput/Rget with fences,
 * and passive target with Win_lock); counts the bytes of each call.
 * Usage: iorma DIR [iterations] */
#include <stdio.h>
#include <stdlib.h>
#include "expect.h"

int main(int argc, char **argv) {
  C(MPI_Init)(&argc, &argv);
  int r, n;
  C(MPI_Comm_rank)(MPI_COMM_WORLD, &r);
  C(MPI_Comm_size)(MPI_COMM_WORLD, &n);
  if (argc < 2) {
    fprintf(stderr, "usage: iorma DIR [iterations]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int iters = ex_arg(argc, argv, 2, 2);
  char path[4096];
  snprintf(path, sizeof path, "%s/iorma.dat", argv[1]);
  double buf[64];
  for (int i = 0; i < 64; i++) buf[i] = r + i;
  MPI_File fh;
  MPI_Status st;
  MPI_Request q;
  C(MPI_File_open)(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  for (int it = 0; it < iters; it++) {
    MPI_Offset off = (MPI_Offset)(r + it * n) * 64 * (MPI_Offset)sizeof(double);
    C(MPI_File_write_at)(fh, off, buf, 8, MPI_DOUBLE, &st); BYTES(MPI_File_write_at, 8 * sizeof(double));
    C(MPI_File_write_at_all)(fh, off + 64, buf, 4, MPI_DOUBLE, MPI_STATUS_IGNORE); BYTES(MPI_File_write_at_all, 4 * sizeof(double));
    C(MPI_File_iwrite_at)(fh, off + 128, buf, 2, MPI_DOUBLE, &q); BYTES(MPI_File_iwrite_at, 2 * sizeof(double));
    C(MPI_Wait)(&q, MPI_STATUS_IGNORE);
    C(MPI_File_sync)(fh);
    C(MPI_Barrier)(MPI_COMM_WORLD); COLLOP("barrier");
    C(MPI_File_read_at)(fh, off, buf, 8, MPI_DOUBLE, &st); BYTES(MPI_File_read_at, 8 * sizeof(double));
    C(MPI_File_read_at_all_begin)(fh, off + 64, buf, 4, MPI_DOUBLE); BYTES(MPI_File_read_at_all_begin, 4 * sizeof(double));
    C(MPI_File_read_at_all_end)(fh, buf, MPI_STATUS_IGNORE);
  }
  C(MPI_File_close)(&fh);
  /* one-sided */
  double *base;
  MPI_Win win;
  C(MPI_Win_allocate)(64 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  int right = (r + 1) % n;
  for (int it = 0; it < iters; it++) {
    C(MPI_Win_fence)(0, win);
    C(MPI_Put)(buf, 4, MPI_DOUBLE, right, 0, 4, MPI_DOUBLE, win); BYTES(MPI_Put, 4 * sizeof(double));
    C(MPI_Get)(buf + 8, 2, MPI_DOUBLE, right, 8, 2, MPI_DOUBLE, win); BYTES(MPI_Get, 2 * sizeof(double));
    C(MPI_Win_fence)(0, win);
    C(MPI_Accumulate)(buf, 3, MPI_DOUBLE, right, 16, 3, MPI_DOUBLE, MPI_SUM, win); BYTES(MPI_Accumulate, 3 * sizeof(double));
    C(MPI_Win_fence)(0, win);
    C(MPI_Win_lock)(MPI_LOCK_SHARED, right, 0, win);
    C(MPI_Get_accumulate)(buf, 1, MPI_DOUBLE, buf + 20, 1, MPI_DOUBLE, right, 24, 1, MPI_DOUBLE, MPI_SUM, win);
    BYTES(MPI_Get_accumulate, 2 * sizeof(double));
    long long a[3] = {1, 0, 0};
    C(MPI_Fetch_and_op)(&a[0], &a[1], MPI_LONG_LONG, right, 25, MPI_SUM, win); BYTES(MPI_Fetch_and_op, sizeof(long long));
    C(MPI_Compare_and_swap)(&a[0], &a[1], &a[2], MPI_LONG_LONG, right, 26, win); BYTES(MPI_Compare_and_swap, sizeof(long long));
    C(MPI_Rput)(buf, 5, MPI_DOUBLE, right, 30, 5, MPI_DOUBLE, win, &q); BYTES(MPI_Rput, 5 * sizeof(double));
    C(MPI_Wait)(&q, MPI_STATUS_IGNORE);
    C(MPI_Win_flush)(right, win);
    C(MPI_Win_unlock)(right, win);
  }
  C(MPI_Win_free)(&win);
  ex_print("iorma");
  C(MPI_Finalize)();
  return 0;
}
