! fregions: user regions from Fortran through clc_user_f.c (use mpi): each
! rank runs "fphase" once and in it "fstep" around an MPI_Barrier, 5 times.
! It prints what it did as a CLC-EXPECT line. Usage: fregions
program fregions
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, i, en, est, u
  character(len=1024) :: line
  character(len=4096) :: dir
  character(len=8) :: step = 'fstep   '

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call clc_region_begin('fphase')
  do i = 1, 5
    call clc_region_begin(step)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call clc_region_end(step)
  end do
  call clc_region_end('fphase')
  line = 'CLC-EXPECT {"program": "fregions", "rank": ' // str(rank) // ', "size": ' // str(nprocs) // &
    ', "calls": {"MPI_Init": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1, "MPI_Barrier": 5, "MPI_Finalize": 1}' // &
    ', "sends": 0, "recvs": 0, "colls": 5, "comms": 0, "cancelled": 0, "regions": {"fphase": 1, "fstep": 5}}'
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
end program fregions
