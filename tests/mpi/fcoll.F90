! fcoll: the Fortran test program of non-blocking collectives and polling,
! compiled with "use mpi" or, with -DF08, "use mpi_f08": Ialltoall, Ibcast,
! Iallreduce completed by MPI_Waitany; Ibarrier polled with MPI_Test;
! Alltoall; a ring of Irecv/Isend polled with MPI_Testany and finished with
! MPI_Waitsome; MPI_Iprobe polling. With "use mpi" it starts with MPI_Init,
! with "use mpi_f08" with MPI_Init_thread. It prints what it did as a
! CLC-EXPECT line, like the C programs. Usage: fcoll [iterations]
#ifdef F08
#define MPIMOD mpi_f08
#define REQ type(MPI_Request)
#define STATUS type(MPI_Status) :: st
#define STATUSES type(MPI_Status) :: sts(2)
#else
#define MPIMOD mpi
#define REQ integer
#define STATUS integer :: st(MPI_STATUS_SIZE)
#define STATUSES integer :: sts(MPI_STATUS_SIZE, 2)
#endif
module fexpect
  implicit none
  integer, parameter :: maxc = 64
  character(len=32) :: cname(maxc), oname(maxc), nname(maxc)
  integer :: ccount(maxc) = 0, ocount(maxc) = 0, ncount(maxc) = 0
  integer :: nc = 0, no = 0, nn = 0
  integer :: sends = 0, recvs = 0, colls = 0
contains
  subroutine bump(names, counts, n, name, by)
    character(len=32), intent(inout) :: names(maxc)
    integer, intent(inout) :: counts(maxc), n
    character(len=*), intent(in) :: name
    integer, intent(in) :: by
    integer :: i
    do i = 1, n
      if (names(i) == name) then
        counts(i) = counts(i) + by
        return
      end if
    end do
    n = n + 1
    names(n) = name
    counts(n) = by
  end subroutine bump
  subroutine call(name)
    character(len=*), intent(in) :: name
    call bump(cname, ccount, nc, name, 1)
  end subroutine call
  subroutine op(name)
    character(len=*), intent(in) :: name
    call bump(oname, ocount, no, name, 1)
    colls = colls + 1
  end subroutine op
  subroutine nbop(name)
    character(len=*), intent(in) :: name
    call bump(nname, ncount, nn, name, 1)
    colls = colls + 1
  end subroutine nbop
  function str(i) result(s)
    integer, intent(in) :: i
    character(len=:), allocatable :: s
    character(len=20) :: buf
    write(buf, '(I0)') i
    s = trim(buf)
  end function str
  function obj(names, counts, n) result(s)
    character(len=32), intent(in) :: names(maxc)
    integer, intent(in) :: counts(maxc), n
    character(len=:), allocatable :: s
    integer :: i
    s = '{'
    do i = 1, n
      if (i > 1) s = s // ', '
      s = s // '"' // trim(names(i)) // '": ' // str(counts(i))
    end do
    s = s // '}'
  end function obj
  ! expect_out writes the CLC-EXPECT line into $CLC_EXPECT_DIR/expect.<rank>
  ! when that is set (launchers may mix long lines of several ranks), else
  ! to standard output.
  subroutine expect_out(rank, line)
    integer, intent(in) :: rank
    character(len=*), intent(in) :: line
    character(len=4096) :: dir
    integer :: n, st, u
    call get_environment_variable('CLC_EXPECT_DIR', dir, n, st)
    if (st == 0 .and. n > 0) then
      open(newunit=u, file=dir(1:n) // '/expect.' // str(rank), action='write', status='replace')
      write(u, '(A)') line
      close(u)
    else
      write(*, '(A)') line
    end if
  end subroutine expect_out
end module fexpect

program fcoll
  use MPIMOD
  use fexpect
  implicit none
  integer :: ierr, rank, nprocs, it, iters, i, idx, outc, done, right, left, provided
  integer :: sb(64), rb(64), ab(64), x(4), y(8), ids(2)
  logical :: flag
  REQ :: q(3), p(2)
  STATUS
  STATUSES
  character(len=16) :: arg

  iters = 2
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read(arg, *) iters
  end if
#ifdef F08
  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr); call call('MPI_Init_thread')
#else
  call MPI_Init(ierr); call call('MPI_Init')
#endif
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr); call call('MPI_Comm_rank')
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr); call call('MPI_Comm_size')
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  sb = rank
  do it = 1, iters
    call MPI_Ialltoall(sb, 2, MPI_INTEGER, rb, 2, MPI_INTEGER, MPI_COMM_WORLD, q(1), ierr); call call('MPI_Ialltoall')
    call MPI_Ibcast(ab, 4, MPI_INTEGER, mod(it, nprocs), MPI_COMM_WORLD, q(2), ierr); call call('MPI_Ibcast')
    call MPI_Iallreduce(sb, y, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, q(3), ierr); call call('MPI_Iallreduce')
    do i = 1, 3
      call MPI_Waitany(3, q, idx, st, ierr); call call('MPI_Waitany')
    end do
    call nbop('alltoall'); call nbop('bcast'); call nbop('allreduce')
    call MPI_Ibarrier(MPI_COMM_WORLD, q(1), ierr); call call('MPI_Ibarrier')
    flag = .false.
    do while (.not. flag)
      call MPI_Test(q(1), flag, MPI_STATUS_IGNORE, ierr); call call('MPI_Test')
    end do
    call nbop('barrier')
    call MPI_Alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr); call call('MPI_Alltoall')
    call op('alltoall')
    ! a ring polled with Testany, finished with Waitsome
    call MPI_Irecv(y, 8, MPI_INTEGER, left, it, MPI_COMM_WORLD, p(1), ierr); call call('MPI_Irecv')
    call MPI_Isend(x, 4, MPI_INTEGER, right, it, MPI_COMM_WORLD, p(2), ierr); call call('MPI_Isend')
    sends = sends + 1; recvs = recvs + 1
    flag = .false.
    do while (.not. flag)
      call MPI_Testany(2, p, idx, flag, st, ierr); call call('MPI_Testany')
    end do
    done = 1
    do while (done < 2)
      call MPI_Waitsome(2, p, outc, ids, sts, ierr); call call('MPI_Waitsome')
      if (outc /= MPI_UNDEFINED) done = done + outc
    end do
  end do
  ! polling with Iprobe: the left neighbour sends after a barrier
  call MPI_Barrier(MPI_COMM_WORLD, ierr); call call('MPI_Barrier'); call op('barrier')
  call MPI_Send(x, 2, MPI_INTEGER, right, 99, MPI_COMM_WORLD, ierr); call call('MPI_Send'); sends = sends + 1
  flag = .false.
  do while (.not. flag)
    call MPI_Iprobe(left, 99, MPI_COMM_WORLD, flag, st, ierr); call call('MPI_Iprobe')
  end do
  call MPI_Recv(y, 2, MPI_INTEGER, left, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr); call call('MPI_Recv')
  recvs = recvs + 1
  call call('MPI_Finalize')
  call expect_out(rank, 'CLC-EXPECT {"program": "fcoll", "rank": ' // str(rank) // ', "size": ' // str(nprocs) // &
    ', "calls": ' // obj(cname, ccount, nc) // ', "ops": ' // obj(oname, ocount, no) // &
    ', "nbops": ' // obj(nname, ncount, nn) // ', "sends": ' // str(sends) // ', "recvs": ' // str(recvs) // &
    ', "colls": ' // str(colls) // ', "comms": 0, "cancelled": 0, "nbr_msgs": 0}')
  call MPI_Finalize(ierr)
end program fcoll
