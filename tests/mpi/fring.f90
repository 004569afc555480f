! fring: the Fortran test program (use mpi): a blocking ring, Isend/Irecv with
! Waitall, Sendrecv, collectives and a split communicator. Like the C programs
! it prints what it did as a CLC-EXPECT line. Usage: fring
program fring
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, right, left, it, half, hr, hn, tag
  integer :: reqs(2), st(MPI_STATUS_SIZE)
  double precision :: x(8), y(8)
  integer :: n_init, n_send, n_recv, n_isend, n_irecv, n_waitall, n_sendrecv, n_allreduce, n_bcast, n_reduce, n_barrier
  integer :: n_split, n_free, n_ssend, n_rank, n_size, sends, recvs, colls, comms
  character(len=1024) :: line
  character(len=4096) :: dir
  integer :: en, est, u

  n_send = 0; n_recv = 0; n_isend = 0; n_irecv = 0; n_waitall = 0; n_sendrecv = 0; n_allreduce = 0
  n_bcast = 0; n_reduce = 0; n_barrier = 0; n_split = 0; n_free = 0; n_ssend = 0
  sends = 0; recvs = 0; colls = 0; comms = 0
  call MPI_Init(ierr); n_init = 1
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr); n_rank = 1
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr); n_size = 1
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  x = rank
  do it = 1, 10
    tag = mod(it, 3)
    if (mod(rank, 2) == 0) then
      call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, right, tag, MPI_COMM_WORLD, ierr); n_send = n_send + 1; sends = sends + 1
      call MPI_Recv(y, 4, MPI_DOUBLE_PRECISION, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr); n_recv = n_recv + 1
      recvs = recvs + 1
    else
      call MPI_Recv(y, 4, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, st, ierr); n_recv = n_recv + 1
      recvs = recvs + 1
      call MPI_Ssend(x, 4, MPI_DOUBLE_PRECISION, right, tag, MPI_COMM_WORLD, ierr); n_ssend = n_ssend + 1; sends = sends + 1
    end if
    call MPI_Irecv(y, 8, MPI_DOUBLE_PRECISION, left, 50, MPI_COMM_WORLD, reqs(1), ierr); n_irecv = n_irecv + 1
    call MPI_Isend(x, 8, MPI_DOUBLE_PRECISION, right, 50, MPI_COMM_WORLD, reqs(2), ierr); n_isend = n_isend + 1
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr); n_waitall = n_waitall + 1
    sends = sends + 1; recvs = recvs + 1
    call MPI_Sendrecv(x, 2, MPI_DOUBLE_PRECISION, left, 60, y, 2, MPI_DOUBLE_PRECISION, right, 60, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
    n_sendrecv = n_sendrecv + 1; sends = sends + 1; recvs = recvs + 1
    call MPI_Allreduce(x, y, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr); n_allreduce = n_allreduce + 1
    colls = colls + 1
  end do
  call MPI_Bcast(x, 3, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr); n_bcast = n_bcast + 1; colls = colls + 1
  call MPI_Reduce(x, y, 3, MPI_DOUBLE_PRECISION, MPI_MAX, nprocs - 1, MPI_COMM_WORLD, ierr); n_reduce = n_reduce + 1
  colls = colls + 1
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr); n_split = n_split + 1; comms = comms + 1
  call MPI_Comm_rank(half, hr, ierr); n_rank = n_rank + 1
  call MPI_Comm_size(half, hn, ierr); n_size = n_size + 1
  call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, half, ierr); n_allreduce = n_allreduce + 1; colls = colls + 1
  call MPI_Barrier(half, ierr); n_barrier = n_barrier + 1; colls = colls + 1
  call MPI_Comm_free(half, ierr); n_free = n_free + 1
  line = 'CLC-EXPECT {"program": "fring", "rank": ' // str(rank) // ', "size": ' // str(nprocs) // &
    ', "calls": {"MPI_Init": ' // str(n_init) // ', "MPI_Send": ' // str(n_send) // ', "MPI_Ssend": ' // str(n_ssend) // &
    ', "MPI_Recv": ' // str(n_recv) // ', "MPI_Isend": ' // str(n_isend) // ', "MPI_Irecv": ' // str(n_irecv) // &
    ', "MPI_Waitall": ' // str(n_waitall) // ', "MPI_Sendrecv": ' // str(n_sendrecv) // &
    ', "MPI_Allreduce": ' // str(n_allreduce) // ', "MPI_Bcast": ' // str(n_bcast) // ', "MPI_Reduce": ' // str(n_reduce) // &
    ', "MPI_Barrier": ' // str(n_barrier) // ', "MPI_Comm_split": ' // str(n_split) // ', "MPI_Comm_free": ' // str(n_free) // &
    ', "MPI_Comm_rank": ' // str(n_rank) // ', "MPI_Comm_size": ' // str(n_size) // &
    ', "MPI_Finalize": 1}, "sends": ' // str(sends) // ', "recvs": ' // str(recvs) // ', "colls": ' // str(colls) // &
    ', "comms": ' // str(comms) // ', "cancelled": 0}'
  call get_environment_variable('CLC_EXPECT_DIR', dir, en, est)
  if (est == 0 .and. en > 0) then
    open(newunit=u, file=dir(1:en) // '/expect.' // str(rank), action='write', status='replace')
    write(u, '(A)') trim(line)
    close(u)
  else
    write(*, '(A)') trim(line)
  end if
  call MPI_Finalize(ierr)
contains
  function str(i) result(s)
    integer, intent(in) :: i
    character(len=:), allocatable :: s
    character(len=20) :: buf
    write(buf, '(I0)') i
    s = trim(buf)
  end function str
end program fring
