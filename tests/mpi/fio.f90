! fio: Fortran MPI-IO and one-sided calls with known byte counts (8 and 4 doubles
! written and read, 3 doubles put), for the Fortran wrappers of file and window
! functions (strings with hidden lengths, MPI_Offset and MPI_Aint arguments).
! With "abort", rank 1 then calls MPI_Abort and rank 0 waits to be killed.
! Usage: fio DIR [abort]
program fio
  use mpi
  implicit none
  integer :: ierr, rank, fh, st(MPI_STATUS_SIZE), win
  integer(kind=MPI_OFFSET_KIND) :: off
  integer(kind=MPI_ADDRESS_KIND) :: sz, disp
  double precision :: buf(8), wbuf(8)
  character(len=4096) :: dir
  character(len=16) :: how
  call get_command_argument(1, dir)
  call get_command_argument(2, how)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  buf = rank
  call MPI_File_open(MPI_COMM_WORLD, trim(dir) // '/fio.dat', MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  off = rank * 64
  call MPI_File_write_at(fh, off, buf, 8, MPI_DOUBLE_PRECISION, st, ierr)
  call MPI_File_read_at_all(fh, off, buf, 4, MPI_DOUBLE_PRECISION, MPI_STATUS_IGNORE, ierr)
  call MPI_File_close(fh, ierr)
  sz = 64
  call MPI_Win_create(wbuf, sz, 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  disp = 0
  call MPI_Put(buf, 3, MPI_DOUBLE_PRECISION, mod(rank + 1, 2), disp, 3, MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_free(win, ierr)
  if (how == 'abort') then
    ! every rank is done with the file and the window before rank 1 aborts
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 1) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end if
  call MPI_Finalize(ierr)
end program
