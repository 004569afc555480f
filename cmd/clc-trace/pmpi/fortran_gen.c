/* Generated from tracer/mpifn/functions.tbl by go generate (cmd/clc-trace); DO NOT EDIT. */
/* The Fortran wrappers for Open MPI (mpif.h, "use mpi", "use mpi_f08"); see
 * fortran.c. */
#include "clc.h"
#include "fortran.h"

CLC_FREAL(send, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_send(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(send);
  if (!CLC_ON()) { real_send(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Send);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_send(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_send(t0, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_send, MPI_SEND);
CLC_FALIAS(clc_f_send, mpi_send);
CLC_FALIAS(clc_f_send, mpi_send_);
CLC_FALIAS(clc_f_send, mpi_send__);
CLC_FALIAS(clc_f_send, ompi_send_f);
CLC_FALIAS(clc_f_send, pmpi_send_);

CLC_FREAL(ssend, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_ssend(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(ssend);
  if (!CLC_ON()) { real_ssend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ssend);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_ssend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_send(t0, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ssend, MPI_SSEND);
CLC_FALIAS(clc_f_ssend, mpi_ssend);
CLC_FALIAS(clc_f_ssend, mpi_ssend_);
CLC_FALIAS(clc_f_ssend, mpi_ssend__);
CLC_FALIAS(clc_f_ssend, ompi_ssend_f);
CLC_FALIAS(clc_f_ssend, pmpi_ssend_);

CLC_FREAL(bsend, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_bsend(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(bsend);
  if (!CLC_ON()) { real_bsend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Bsend);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_bsend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_send(t0, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_bsend, MPI_BSEND);
CLC_FALIAS(clc_f_bsend, mpi_bsend);
CLC_FALIAS(clc_f_bsend, mpi_bsend_);
CLC_FALIAS(clc_f_bsend, mpi_bsend__);
CLC_FALIAS(clc_f_bsend, ompi_bsend_f);
CLC_FALIAS(clc_f_bsend, pmpi_bsend_);

CLC_FREAL(rsend, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_rsend(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(rsend);
  if (!CLC_ON()) { real_rsend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Rsend);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_rsend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_send(t0, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_rsend, MPI_RSEND);
CLC_FALIAS(clc_f_rsend, mpi_rsend);
CLC_FALIAS(clc_f_rsend, mpi_rsend_);
CLC_FALIAS(clc_f_rsend, mpi_rsend__);
CLC_FALIAS(clc_f_rsend, ompi_rsend_f);
CLC_FALIAS(clc_f_rsend, pmpi_rsend_);

CLC_FREAL(recv, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_recv(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(recv);
  if (!CLC_ON()) { real_recv(f_buf, f_count, f_datatype, f_source, f_tag, f_comm, f_status, ierr); return; }
  clc_enter(R_MPI_Recv);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_recv(f_buf, f_count, f_datatype, f_source, f_tag, f_comm, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_recv(t1, rc, status, datatype, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_recv, MPI_RECV);
CLC_FALIAS(clc_f_recv, mpi_recv);
CLC_FALIAS(clc_f_recv, mpi_recv_);
CLC_FALIAS(clc_f_recv, mpi_recv__);
CLC_FALIAS(clc_f_recv, ompi_recv_f);
CLC_FALIAS(clc_f_recv, pmpi_recv_);

CLC_FREAL(sendrecv, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, MPI_Fint *f_dest, MPI_Fint *f_sendtag, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_source, MPI_Fint *f_recvtag, MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_sendrecv(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, MPI_Fint *f_dest, MPI_Fint *f_sendtag, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_source, MPI_Fint *f_recvtag, MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(sendrecv);
  if (!CLC_ON()) { real_sendrecv(f_sendbuf, f_sendcount, f_sendtype, f_dest, f_sendtag, f_recvbuf, f_recvcount, f_recvtype, f_source, f_recvtag, f_comm, f_status, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Sendrecv);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int dest = (int)*f_dest;
  const int sendtag = (int)*f_sendtag;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_sendrecv(f_sendbuf, f_sendcount, f_sendtype, f_dest, f_sendtag, f_recvbuf, f_recvcount, f_recvtype, f_source, f_recvtag, f_comm, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_send(t0, dest, sendcount, sendtype, sendtag, comm); h_recv(t1, rc, status, recvtype, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_sendrecv, MPI_SENDRECV);
CLC_FALIAS(clc_f_sendrecv, mpi_sendrecv);
CLC_FALIAS(clc_f_sendrecv, mpi_sendrecv_);
CLC_FALIAS(clc_f_sendrecv, mpi_sendrecv__);
CLC_FALIAS(clc_f_sendrecv, ompi_sendrecv_f);
CLC_FALIAS(clc_f_sendrecv, pmpi_sendrecv_);

CLC_FREAL(sendrecv_replace, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_sendtag, MPI_Fint *f_source, MPI_Fint *f_recvtag, MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_sendrecv_replace(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_sendtag, MPI_Fint *f_source, MPI_Fint *f_recvtag, MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(sendrecv_replace);
  if (!CLC_ON()) { real_sendrecv_replace(f_buf, f_count, f_datatype, f_dest, f_sendtag, f_source, f_recvtag, f_comm, f_status, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Sendrecv_replace);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int sendtag = (int)*f_sendtag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_sendrecv_replace(f_buf, f_count, f_datatype, f_dest, f_sendtag, f_source, f_recvtag, f_comm, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_send(t0, dest, count, datatype, sendtag, comm); h_recv(t1, rc, status, datatype, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_sendrecv_replace, MPI_SENDRECV_REPLACE);
CLC_FALIAS(clc_f_sendrecv_replace, mpi_sendrecv_replace);
CLC_FALIAS(clc_f_sendrecv_replace, mpi_sendrecv_replace_);
CLC_FALIAS(clc_f_sendrecv_replace, mpi_sendrecv_replace__);
CLC_FALIAS(clc_f_sendrecv_replace, ompi_sendrecv_replace_f);
CLC_FALIAS(clc_f_sendrecv_replace, pmpi_sendrecv_replace_);

CLC_FREAL(isend, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_isend(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(isend);
  if (!CLC_ON()) { real_isend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Isend);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_isend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_isend(t0, rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_isend, MPI_ISEND);
CLC_FALIAS(clc_f_isend, mpi_isend);
CLC_FALIAS(clc_f_isend, mpi_isend_);
CLC_FALIAS(clc_f_isend, mpi_isend__);
CLC_FALIAS(clc_f_isend, ompi_isend_f);
CLC_FALIAS(clc_f_isend, pmpi_isend_);

CLC_FREAL(issend, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_issend(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(issend);
  if (!CLC_ON()) { real_issend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Issend);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_issend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_isend(t0, rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_issend, MPI_ISSEND);
CLC_FALIAS(clc_f_issend, mpi_issend);
CLC_FALIAS(clc_f_issend, mpi_issend_);
CLC_FALIAS(clc_f_issend, mpi_issend__);
CLC_FALIAS(clc_f_issend, ompi_issend_f);
CLC_FALIAS(clc_f_issend, pmpi_issend_);

CLC_FREAL(ibsend, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ibsend(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ibsend);
  if (!CLC_ON()) { real_ibsend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ibsend);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_ibsend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_isend(t0, rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ibsend, MPI_IBSEND);
CLC_FALIAS(clc_f_ibsend, mpi_ibsend);
CLC_FALIAS(clc_f_ibsend, mpi_ibsend_);
CLC_FALIAS(clc_f_ibsend, mpi_ibsend__);
CLC_FALIAS(clc_f_ibsend, ompi_ibsend_f);
CLC_FALIAS(clc_f_ibsend, pmpi_ibsend_);

CLC_FREAL(irsend, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_irsend(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(irsend);
  if (!CLC_ON()) { real_irsend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Irsend);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_irsend(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_isend(t0, rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_irsend, MPI_IRSEND);
CLC_FALIAS(clc_f_irsend, mpi_irsend);
CLC_FALIAS(clc_f_irsend, mpi_irsend_);
CLC_FALIAS(clc_f_irsend, mpi_irsend__);
CLC_FALIAS(clc_f_irsend, ompi_irsend_f);
CLC_FALIAS(clc_f_irsend, pmpi_irsend_);

CLC_FREAL(irecv, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_irecv(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(irecv);
  if (!CLC_ON()) { real_irecv(f_buf, f_count, f_datatype, f_source, f_tag, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Irecv);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int source = (int)*f_source;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_irecv(f_buf, f_count, f_datatype, f_source, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_irecv(t0, rc, *request, source, datatype, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_irecv, MPI_IRECV);
CLC_FALIAS(clc_f_irecv, mpi_irecv);
CLC_FALIAS(clc_f_irecv, mpi_irecv_);
CLC_FALIAS(clc_f_irecv, mpi_irecv__);
CLC_FALIAS(clc_f_irecv, ompi_irecv_f);
CLC_FALIAS(clc_f_irecv, pmpi_irecv_);

CLC_FREAL(send_init, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_send_init(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(send_init);
  if (!CLC_ON()) { real_send_init(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr); return; }
  clc_enter(R_MPI_Send_init);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_send_init(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_send_init(rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_send_init, MPI_SEND_INIT);
CLC_FALIAS(clc_f_send_init, mpi_send_init);
CLC_FALIAS(clc_f_send_init, mpi_send_init_);
CLC_FALIAS(clc_f_send_init, mpi_send_init__);
CLC_FALIAS(clc_f_send_init, ompi_send_init_f);
CLC_FALIAS(clc_f_send_init, pmpi_send_init_);

CLC_FREAL(ssend_init, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ssend_init(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ssend_init);
  if (!CLC_ON()) { real_ssend_init(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr); return; }
  clc_enter(R_MPI_Ssend_init);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_ssend_init(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_send_init(rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ssend_init, MPI_SSEND_INIT);
CLC_FALIAS(clc_f_ssend_init, mpi_ssend_init);
CLC_FALIAS(clc_f_ssend_init, mpi_ssend_init_);
CLC_FALIAS(clc_f_ssend_init, mpi_ssend_init__);
CLC_FALIAS(clc_f_ssend_init, ompi_ssend_init_f);
CLC_FALIAS(clc_f_ssend_init, pmpi_ssend_init_);

CLC_FREAL(bsend_init, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_bsend_init(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(bsend_init);
  if (!CLC_ON()) { real_bsend_init(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr); return; }
  clc_enter(R_MPI_Bsend_init);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_bsend_init(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_send_init(rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_bsend_init, MPI_BSEND_INIT);
CLC_FALIAS(clc_f_bsend_init, mpi_bsend_init);
CLC_FALIAS(clc_f_bsend_init, mpi_bsend_init_);
CLC_FALIAS(clc_f_bsend_init, mpi_bsend_init__);
CLC_FALIAS(clc_f_bsend_init, ompi_bsend_init_f);
CLC_FALIAS(clc_f_bsend_init, pmpi_bsend_init_);

CLC_FREAL(rsend_init, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_rsend_init(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_dest, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(rsend_init);
  if (!CLC_ON()) { real_rsend_init(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr); return; }
  clc_enter(R_MPI_Rsend_init);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int dest = (int)*f_dest;
  const int tag = (int)*f_tag;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_rsend_init(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_send_init(rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_rsend_init, MPI_RSEND_INIT);
CLC_FALIAS(clc_f_rsend_init, mpi_rsend_init);
CLC_FALIAS(clc_f_rsend_init, mpi_rsend_init_);
CLC_FALIAS(clc_f_rsend_init, mpi_rsend_init__);
CLC_FALIAS(clc_f_rsend_init, ompi_rsend_init_f);
CLC_FALIAS(clc_f_rsend_init, pmpi_rsend_init_);

CLC_FREAL(recv_init, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_recv_init(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(recv_init);
  if (!CLC_ON()) { real_recv_init(f_buf, f_count, f_datatype, f_source, f_tag, f_comm, f_request, ierr); return; }
  clc_enter(R_MPI_Recv_init);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int source = (int)*f_source;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_recv_init(f_buf, f_count, f_datatype, f_source, f_tag, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_recv_init(rc, *request, source, datatype, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_recv_init, MPI_RECV_INIT);
CLC_FALIAS(clc_f_recv_init, mpi_recv_init);
CLC_FALIAS(clc_f_recv_init, mpi_recv_init_);
CLC_FALIAS(clc_f_recv_init, mpi_recv_init__);
CLC_FALIAS(clc_f_recv_init, ompi_recv_init_f);
CLC_FALIAS(clc_f_recv_init, pmpi_recv_init_);

CLC_FREAL(start, (MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_start(MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(start);
  if (!CLC_ON()) { real_start(f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Start);
  MPI_Request request_v, *request = &request_v;
  real_start(f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_start(t0, rc, 1, request);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_start, MPI_START);
CLC_FALIAS(clc_f_start, mpi_start);
CLC_FALIAS(clc_f_start, mpi_start_);
CLC_FALIAS(clc_f_start, mpi_start__);
CLC_FALIAS(clc_f_start, ompi_start_f);
CLC_FALIAS(clc_f_start, pmpi_start_);

CLC_FREAL(startall, (MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *ierr))
void clc_f_startall(MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *ierr) {
  CLC_FRESOLVE(startall);
  if (!CLC_ON()) { real_startall(f_count, f_array_of_requests, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Startall);
  const int count = (int)*f_count;
  MPI_Request *array_of_requests = clc_f2c_requests(f_array_of_requests, count);
  real_startall(f_count, f_array_of_requests, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  h_start(t0, rc, count, array_of_requests);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_startall, MPI_STARTALL);
CLC_FALIAS(clc_f_startall, mpi_startall);
CLC_FALIAS(clc_f_startall, mpi_startall_);
CLC_FALIAS(clc_f_startall, mpi_startall__);
CLC_FALIAS(clc_f_startall, ompi_startall_f);
CLC_FALIAS(clc_f_startall, pmpi_startall_);

CLC_FREAL(request_free, (MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_request_free(MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(request_free);
  if (!CLC_ON()) { real_request_free(f_request, ierr); return; }
  clc_enter(R_MPI_Request_free);
  MPI_Request request_v, *request = &request_v;
  request_v = MPI_Request_f2c(*f_request);
  h_request_free(*request);
  real_request_free(f_request, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_request_free, MPI_REQUEST_FREE);
CLC_FALIAS(clc_f_request_free, mpi_request_free);
CLC_FALIAS(clc_f_request_free, mpi_request_free_);
CLC_FALIAS(clc_f_request_free, mpi_request_free__);
CLC_FALIAS(clc_f_request_free, ompi_request_free_f);
CLC_FALIAS(clc_f_request_free, pmpi_request_free_);

CLC_FREAL(cancel, (MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_cancel(MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(cancel);
  if (!CLC_ON()) { real_cancel(f_request, ierr); return; }
  clc_enter(R_MPI_Cancel);
  real_cancel(f_request, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_cancel, MPI_CANCEL);
CLC_FALIAS(clc_f_cancel, mpi_cancel);
CLC_FALIAS(clc_f_cancel, mpi_cancel_);
CLC_FALIAS(clc_f_cancel, mpi_cancel__);
CLC_FALIAS(clc_f_cancel, ompi_cancel_f);
CLC_FALIAS(clc_f_cancel, pmpi_cancel_);

CLC_FREAL(probe, (MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_probe(MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(probe);
  if (!CLC_ON()) { real_probe(f_source, f_tag, f_comm, f_status, ierr); return; }
  clc_enter(R_MPI_Probe);
  real_probe(f_source, f_tag, f_comm, f_status, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_probe, MPI_PROBE);
CLC_FALIAS(clc_f_probe, mpi_probe);
CLC_FALIAS(clc_f_probe, mpi_probe_);
CLC_FALIAS(clc_f_probe, mpi_probe__);
CLC_FALIAS(clc_f_probe, ompi_probe_f);
CLC_FALIAS(clc_f_probe, pmpi_probe_);

CLC_FREAL(iprobe, (MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_flag, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_iprobe(MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_flag, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(iprobe);
  if (!CLC_ON()) { real_iprobe(f_source, f_tag, f_comm, f_flag, f_status, ierr); return; }
  clc_enter(R_MPI_Iprobe);
  int flag_v, *flag = &flag_v;
  real_iprobe(f_source, f_tag, f_comm, f_flag, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  flag_v = (*f_flag != 0);
  h_polled(rc, *flag);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_iprobe, MPI_IPROBE);
CLC_FALIAS(clc_f_iprobe, mpi_iprobe);
CLC_FALIAS(clc_f_iprobe, mpi_iprobe_);
CLC_FALIAS(clc_f_iprobe, mpi_iprobe__);
CLC_FALIAS(clc_f_iprobe, ompi_iprobe_f);
CLC_FALIAS(clc_f_iprobe, pmpi_iprobe_);

CLC_FREAL(mprobe, (MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_message, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_mprobe(MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_message, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(mprobe);
  if (!CLC_ON()) { real_mprobe(f_source, f_tag, f_comm, f_message, f_status, ierr); return; }
  clc_enter(R_MPI_Mprobe);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Message message_v, *message = &message_v;
  real_mprobe(f_source, f_tag, f_comm, f_message, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  message_v = MPI_Message_f2c(*f_message);
  h_mprobe(rc, 1, *message, comm);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_mprobe, MPI_MPROBE);
CLC_FALIAS(clc_f_mprobe, mpi_mprobe);
CLC_FALIAS(clc_f_mprobe, mpi_mprobe_);
CLC_FALIAS(clc_f_mprobe, mpi_mprobe__);
CLC_FALIAS(clc_f_mprobe, ompi_mprobe_f);
CLC_FALIAS(clc_f_mprobe, pmpi_mprobe_);

CLC_FREAL(improbe, (MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_flag, MPI_Fint *f_message, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_improbe(MPI_Fint *f_source, MPI_Fint *f_tag, MPI_Fint *f_comm, MPI_Fint *f_flag, MPI_Fint *f_message, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(improbe);
  if (!CLC_ON()) { real_improbe(f_source, f_tag, f_comm, f_flag, f_message, f_status, ierr); return; }
  clc_enter(R_MPI_Improbe);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  int flag_v, *flag = &flag_v;
  MPI_Message message_v, *message = &message_v;
  real_improbe(f_source, f_tag, f_comm, f_flag, f_message, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  flag_v = (*f_flag != 0);
  message_v = MPI_Message_f2c(*f_message);
  h_mprobe(rc, *flag, *message, comm); h_polled(rc, *flag);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_improbe, MPI_IMPROBE);
CLC_FALIAS(clc_f_improbe, mpi_improbe);
CLC_FALIAS(clc_f_improbe, mpi_improbe_);
CLC_FALIAS(clc_f_improbe, mpi_improbe__);
CLC_FALIAS(clc_f_improbe, ompi_improbe_f);
CLC_FALIAS(clc_f_improbe, pmpi_improbe_);

CLC_FREAL(mrecv, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_message, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_mrecv(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_message, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(mrecv);
  if (!CLC_ON()) { real_mrecv(f_buf, f_count, f_datatype, f_message, f_status, ierr); return; }
  clc_enter(R_MPI_Mrecv);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Message message_v, *message = &message_v;
  message_v = MPI_Message_f2c(*f_message);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  MPI_Comm mc = h_msg_comm(*message);
  real_mrecv(f_buf, f_count, f_datatype, f_message, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_recv(t1, rc, status, datatype, mc);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_mrecv, MPI_MRECV);
CLC_FALIAS(clc_f_mrecv, mpi_mrecv);
CLC_FALIAS(clc_f_mrecv, mpi_mrecv_);
CLC_FALIAS(clc_f_mrecv, mpi_mrecv__);
CLC_FALIAS(clc_f_mrecv, ompi_mrecv_f);
CLC_FALIAS(clc_f_mrecv, pmpi_mrecv_);

CLC_FREAL(imrecv, (void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_message, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_imrecv(void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_message, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(imrecv);
  if (!CLC_ON()) { real_imrecv(f_buf, f_count, f_datatype, f_message, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Imrecv);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Message message_v, *message = &message_v;
  message_v = MPI_Message_f2c(*f_message);
  MPI_Request request_v, *request = &request_v;
  MPI_Comm mc = h_msg_comm(*message);
  real_imrecv(f_buf, f_count, f_datatype, f_message, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_irecv(t0, rc, *request, 0, datatype, mc);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_imrecv, MPI_IMRECV);
CLC_FALIAS(clc_f_imrecv, mpi_imrecv);
CLC_FALIAS(clc_f_imrecv, mpi_imrecv_);
CLC_FALIAS(clc_f_imrecv, mpi_imrecv__);
CLC_FALIAS(clc_f_imrecv, ompi_imrecv_f);
CLC_FALIAS(clc_f_imrecv, pmpi_imrecv_);

CLC_FREAL(wait, (MPI_Fint *f_request, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_wait(MPI_Fint *f_request, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(wait);
  if (!CLC_ON()) { real_wait(f_request, f_status, ierr); return; }
  clc_enter(R_MPI_Wait);
  MPI_Request request_v, *request = &request_v;
  request_v = MPI_Request_f2c(*f_request);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  MPI_Request h = *request;
  real_wait(f_request, f_status, ierr);
  const int64_t t1 = clc_now();
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  clc_complete(h, status, t1);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_wait, MPI_WAIT);
CLC_FALIAS(clc_f_wait, mpi_wait);
CLC_FALIAS(clc_f_wait, mpi_wait_);
CLC_FALIAS(clc_f_wait, mpi_wait__);
CLC_FALIAS(clc_f_wait, ompi_wait_f);
CLC_FALIAS(clc_f_wait, pmpi_wait_);

CLC_FREAL(waitall, (MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *f_array_of_statuses, MPI_Fint *ierr))
void clc_f_waitall(MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *f_array_of_statuses, MPI_Fint *ierr) {
  CLC_FRESOLVE(waitall);
  if (!CLC_ON()) { real_waitall(f_count, f_array_of_requests, f_array_of_statuses, ierr); return; }
  clc_enter(R_MPI_Waitall);
  const int count = (int)*f_count;
  if (clc_fstatuses_ignored(f_array_of_statuses)) f_array_of_statuses = clc_fstatus_scratch(count);
  MPI_Request *array_of_requests = clc_f2c_requests(f_array_of_requests, count);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, count);
  real_waitall(f_count, f_array_of_requests, f_array_of_statuses, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status *array_of_statuses = clc_f2c_statuses(f_array_of_statuses, count);
  h_waitall(t1, rc, count, h, array_of_statuses);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_waitall, MPI_WAITALL);
CLC_FALIAS(clc_f_waitall, mpi_waitall);
CLC_FALIAS(clc_f_waitall, mpi_waitall_);
CLC_FALIAS(clc_f_waitall, mpi_waitall__);
CLC_FALIAS(clc_f_waitall, ompi_waitall_f);
CLC_FALIAS(clc_f_waitall, pmpi_waitall_);

CLC_FREAL(waitany, (MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *f_index, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_waitany(MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *f_index, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(waitany);
  if (!CLC_ON()) { real_waitany(f_count, f_array_of_requests, f_index, f_status, ierr); return; }
  clc_enter(R_MPI_Waitany);
  const int count = (int)*f_count;
  int index_v, *index = &index_v;
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  MPI_Request *array_of_requests = clc_f2c_requests(f_array_of_requests, count);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, count);
  real_waitany(f_count, f_array_of_requests, f_index, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  index_v = clc_f2c_index(*f_index);
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_waitany(t1, rc, count, h, *index, status);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_waitany, MPI_WAITANY);
CLC_FALIAS(clc_f_waitany, mpi_waitany);
CLC_FALIAS(clc_f_waitany, mpi_waitany_);
CLC_FALIAS(clc_f_waitany, mpi_waitany__);
CLC_FALIAS(clc_f_waitany, ompi_waitany_f);
CLC_FALIAS(clc_f_waitany, pmpi_waitany_);

CLC_FREAL(waitsome, (MPI_Fint *f_incount, MPI_Fint *f_array_of_requests, MPI_Fint *f_outcount, MPI_Fint *f_array_of_indices, MPI_Fint *f_array_of_statuses, MPI_Fint *ierr))
void clc_f_waitsome(MPI_Fint *f_incount, MPI_Fint *f_array_of_requests, MPI_Fint *f_outcount, MPI_Fint *f_array_of_indices, MPI_Fint *f_array_of_statuses, MPI_Fint *ierr) {
  CLC_FRESOLVE(waitsome);
  if (!CLC_ON()) { real_waitsome(f_incount, f_array_of_requests, f_outcount, f_array_of_indices, f_array_of_statuses, ierr); return; }
  clc_enter(R_MPI_Waitsome);
  const int incount = (int)*f_incount;
  int outcount_v, *outcount = &outcount_v;
  if (clc_fstatuses_ignored(f_array_of_statuses)) f_array_of_statuses = clc_fstatus_scratch(incount);
  MPI_Request *array_of_requests = clc_f2c_requests(f_array_of_requests, incount);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, incount);
  real_waitsome(f_incount, f_array_of_requests, f_outcount, f_array_of_indices, f_array_of_statuses, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  outcount_v = (int)*f_outcount;
  MPI_Status *array_of_statuses = clc_f2c_statuses(f_array_of_statuses, incount);
  int *array_of_indices = clc_f2c_indices(f_array_of_indices, outcount);
  h_waitsome(t1, rc, incount, h, *outcount, array_of_indices, array_of_statuses);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_waitsome, MPI_WAITSOME);
CLC_FALIAS(clc_f_waitsome, mpi_waitsome);
CLC_FALIAS(clc_f_waitsome, mpi_waitsome_);
CLC_FALIAS(clc_f_waitsome, mpi_waitsome__);
CLC_FALIAS(clc_f_waitsome, ompi_waitsome_f);
CLC_FALIAS(clc_f_waitsome, pmpi_waitsome_);

CLC_FREAL(test, (MPI_Fint *f_request, MPI_Fint *f_flag, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_test(MPI_Fint *f_request, MPI_Fint *f_flag, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(test);
  if (!CLC_ON()) { real_test(f_request, f_flag, f_status, ierr); return; }
  clc_enter(R_MPI_Test);
  MPI_Request request_v, *request = &request_v;
  request_v = MPI_Request_f2c(*f_request);
  int flag_v, *flag = &flag_v;
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  MPI_Request h = *request;
  real_test(f_request, f_flag, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  flag_v = (*f_flag != 0);
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_test(t1, rc, h, *flag, status);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_test, MPI_TEST);
CLC_FALIAS(clc_f_test, mpi_test);
CLC_FALIAS(clc_f_test, mpi_test_);
CLC_FALIAS(clc_f_test, mpi_test__);
CLC_FALIAS(clc_f_test, ompi_test_f);
CLC_FALIAS(clc_f_test, pmpi_test_);

CLC_FREAL(testall, (MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *f_flag, MPI_Fint *f_array_of_statuses, MPI_Fint *ierr))
void clc_f_testall(MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *f_flag, MPI_Fint *f_array_of_statuses, MPI_Fint *ierr) {
  CLC_FRESOLVE(testall);
  if (!CLC_ON()) { real_testall(f_count, f_array_of_requests, f_flag, f_array_of_statuses, ierr); return; }
  clc_enter(R_MPI_Testall);
  const int count = (int)*f_count;
  int flag_v, *flag = &flag_v;
  if (clc_fstatuses_ignored(f_array_of_statuses)) f_array_of_statuses = clc_fstatus_scratch(count);
  MPI_Request *array_of_requests = clc_f2c_requests(f_array_of_requests, count);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, count);
  real_testall(f_count, f_array_of_requests, f_flag, f_array_of_statuses, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  flag_v = (*f_flag != 0);
  MPI_Status *array_of_statuses = clc_f2c_statuses(f_array_of_statuses, count);
  h_testall(t1, rc, count, h, *flag, array_of_statuses);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_testall, MPI_TESTALL);
CLC_FALIAS(clc_f_testall, mpi_testall);
CLC_FALIAS(clc_f_testall, mpi_testall_);
CLC_FALIAS(clc_f_testall, mpi_testall__);
CLC_FALIAS(clc_f_testall, ompi_testall_f);
CLC_FALIAS(clc_f_testall, pmpi_testall_);

CLC_FREAL(testany, (MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *f_index, MPI_Fint *f_flag, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_testany(MPI_Fint *f_count, MPI_Fint *f_array_of_requests, MPI_Fint *f_index, MPI_Fint *f_flag, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(testany);
  if (!CLC_ON()) { real_testany(f_count, f_array_of_requests, f_index, f_flag, f_status, ierr); return; }
  clc_enter(R_MPI_Testany);
  const int count = (int)*f_count;
  int index_v, *index = &index_v;
  int flag_v, *flag = &flag_v;
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  MPI_Request *array_of_requests = clc_f2c_requests(f_array_of_requests, count);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, count);
  real_testany(f_count, f_array_of_requests, f_index, f_flag, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  index_v = clc_f2c_index(*f_index);
  flag_v = (*f_flag != 0);
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_testany(t1, rc, count, h, *index, *flag, status);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_testany, MPI_TESTANY);
CLC_FALIAS(clc_f_testany, mpi_testany);
CLC_FALIAS(clc_f_testany, mpi_testany_);
CLC_FALIAS(clc_f_testany, mpi_testany__);
CLC_FALIAS(clc_f_testany, ompi_testany_f);
CLC_FALIAS(clc_f_testany, pmpi_testany_);

CLC_FREAL(testsome, (MPI_Fint *f_incount, MPI_Fint *f_array_of_requests, MPI_Fint *f_outcount, MPI_Fint *f_array_of_indices, MPI_Fint *f_array_of_statuses, MPI_Fint *ierr))
void clc_f_testsome(MPI_Fint *f_incount, MPI_Fint *f_array_of_requests, MPI_Fint *f_outcount, MPI_Fint *f_array_of_indices, MPI_Fint *f_array_of_statuses, MPI_Fint *ierr) {
  CLC_FRESOLVE(testsome);
  if (!CLC_ON()) { real_testsome(f_incount, f_array_of_requests, f_outcount, f_array_of_indices, f_array_of_statuses, ierr); return; }
  clc_enter(R_MPI_Testsome);
  const int incount = (int)*f_incount;
  int outcount_v, *outcount = &outcount_v;
  if (clc_fstatuses_ignored(f_array_of_statuses)) f_array_of_statuses = clc_fstatus_scratch(incount);
  MPI_Request *array_of_requests = clc_f2c_requests(f_array_of_requests, incount);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, incount);
  real_testsome(f_incount, f_array_of_requests, f_outcount, f_array_of_indices, f_array_of_statuses, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  outcount_v = (int)*f_outcount;
  MPI_Status *array_of_statuses = clc_f2c_statuses(f_array_of_statuses, incount);
  int *array_of_indices = clc_f2c_indices(f_array_of_indices, outcount);
  h_testsome(t1, rc, incount, h, *outcount, array_of_indices, array_of_statuses);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_testsome, MPI_TESTSOME);
CLC_FALIAS(clc_f_testsome, mpi_testsome);
CLC_FALIAS(clc_f_testsome, mpi_testsome_);
CLC_FALIAS(clc_f_testsome, mpi_testsome__);
CLC_FALIAS(clc_f_testsome, ompi_testsome_f);
CLC_FALIAS(clc_f_testsome, pmpi_testsome_);

CLC_FREAL(request_get_status, (MPI_Fint *f_request, MPI_Fint *f_flag, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_request_get_status(MPI_Fint *f_request, MPI_Fint *f_flag, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(request_get_status);
  if (!CLC_ON()) { real_request_get_status(f_request, f_flag, f_status, ierr); return; }
  clc_enter(R_MPI_Request_get_status);
  const MPI_Request request = MPI_Request_f2c(*f_request);
  int flag_v, *flag = &flag_v;
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_request_get_status(f_request, f_flag, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  flag_v = (*f_flag != 0);
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_get_status(t1, rc, request, *flag, status);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_request_get_status, MPI_REQUEST_GET_STATUS);
CLC_FALIAS(clc_f_request_get_status, mpi_request_get_status);
CLC_FALIAS(clc_f_request_get_status, mpi_request_get_status_);
CLC_FALIAS(clc_f_request_get_status, mpi_request_get_status__);
CLC_FALIAS(clc_f_request_get_status, ompi_request_get_status_f);
CLC_FALIAS(clc_f_request_get_status, pmpi_request_get_status_);

CLC_FREAL(buffer_attach, (void *f_buffer, MPI_Fint *f_size, MPI_Fint *ierr))
void clc_f_buffer_attach(void *f_buffer, MPI_Fint *f_size, MPI_Fint *ierr) {
  CLC_FRESOLVE(buffer_attach);
  if (!CLC_ON()) { real_buffer_attach(f_buffer, f_size, ierr); return; }
  clc_enter(R_MPI_Buffer_attach);
  real_buffer_attach(f_buffer, f_size, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_buffer_attach, MPI_BUFFER_ATTACH);
CLC_FALIAS(clc_f_buffer_attach, mpi_buffer_attach);
CLC_FALIAS(clc_f_buffer_attach, mpi_buffer_attach_);
CLC_FALIAS(clc_f_buffer_attach, mpi_buffer_attach__);
CLC_FALIAS(clc_f_buffer_attach, ompi_buffer_attach_f);
CLC_FALIAS(clc_f_buffer_attach, pmpi_buffer_attach_);

CLC_FREAL(buffer_detach, (void *f_buffer, MPI_Fint *f_size, MPI_Fint *ierr))
void clc_f_buffer_detach(void *f_buffer, MPI_Fint *f_size, MPI_Fint *ierr) {
  CLC_FRESOLVE(buffer_detach);
  if (!CLC_ON()) { real_buffer_detach(f_buffer, f_size, ierr); return; }
  clc_enter(R_MPI_Buffer_detach);
  real_buffer_detach(f_buffer, f_size, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_buffer_detach, MPI_BUFFER_DETACH);
CLC_FALIAS(clc_f_buffer_detach, mpi_buffer_detach);
CLC_FALIAS(clc_f_buffer_detach, mpi_buffer_detach_);
CLC_FALIAS(clc_f_buffer_detach, mpi_buffer_detach__);
CLC_FALIAS(clc_f_buffer_detach, ompi_buffer_detach_f);
CLC_FALIAS(clc_f_buffer_detach, pmpi_buffer_detach_);

CLC_FREAL(barrier, (MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_barrier(MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(barrier);
  if (!CLC_ON()) { real_barrier(f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Barrier);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_barrier(f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_BARRIER, -1, b_none());
  clc_leave(t1);
}
CLC_FALIAS(clc_f_barrier, MPI_BARRIER);
CLC_FALIAS(clc_f_barrier, mpi_barrier);
CLC_FALIAS(clc_f_barrier, mpi_barrier_);
CLC_FALIAS(clc_f_barrier, mpi_barrier__);
CLC_FALIAS(clc_f_barrier, ompi_barrier_f);
CLC_FALIAS(clc_f_barrier, pmpi_barrier_);

CLC_FREAL(bcast, (void *f_buffer, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_bcast(void *f_buffer, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(bcast);
  if (!CLC_ON()) { real_bcast(f_buffer, f_count, f_datatype, f_root, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Bcast);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_bcast(f_buffer, f_count, f_datatype, f_root, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_BCAST, root, b_bcast(comm, count, datatype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_bcast, MPI_BCAST);
CLC_FALIAS(clc_f_bcast, mpi_bcast);
CLC_FALIAS(clc_f_bcast, mpi_bcast_);
CLC_FALIAS(clc_f_bcast, mpi_bcast__);
CLC_FALIAS(clc_f_bcast, ompi_bcast_f);
CLC_FALIAS(clc_f_bcast, pmpi_bcast_);

CLC_FREAL(gather, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_gather(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(gather);
  if (!CLC_ON()) { real_gather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Gather);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_gather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_GATHER, root, b_gather(comm, sendbuf, sendcount, sendtype, recvcount, recvtype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_gather, MPI_GATHER);
CLC_FALIAS(clc_f_gather, mpi_gather);
CLC_FALIAS(clc_f_gather, mpi_gather_);
CLC_FALIAS(clc_f_gather, mpi_gather__);
CLC_FALIAS(clc_f_gather, ompi_gather_f);
CLC_FALIAS(clc_f_gather, pmpi_gather_);

CLC_FREAL(gatherv, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_gatherv(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(gatherv);
  if (!CLC_ON()) { real_gatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_root, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Gatherv);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  const int * recvcounts = (const int *)f_recvcounts;
  real_gatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_root, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_GATHERV, root, b_gatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_gatherv, MPI_GATHERV);
CLC_FALIAS(clc_f_gatherv, mpi_gatherv);
CLC_FALIAS(clc_f_gatherv, mpi_gatherv_);
CLC_FALIAS(clc_f_gatherv, mpi_gatherv__);
CLC_FALIAS(clc_f_gatherv, ompi_gatherv_f);
CLC_FALIAS(clc_f_gatherv, pmpi_gatherv_);

CLC_FREAL(scatter, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_scatter(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(scatter);
  if (!CLC_ON()) { real_scatter(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Scatter);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  void * recvbuf = clc_fbuf(f_recvbuf);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_scatter(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_SCATTER, root, b_scatter(comm, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_scatter, MPI_SCATTER);
CLC_FALIAS(clc_f_scatter, mpi_scatter);
CLC_FALIAS(clc_f_scatter, mpi_scatter_);
CLC_FALIAS(clc_f_scatter, mpi_scatter__);
CLC_FALIAS(clc_f_scatter, ompi_scatter_f);
CLC_FALIAS(clc_f_scatter, pmpi_scatter_);

CLC_FREAL(scatterv, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_displs, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_scatterv(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_displs, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(scatterv);
  if (!CLC_ON()) { real_scatterv(f_sendbuf, f_sendcounts, f_displs, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Scatterv);
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  void * recvbuf = clc_fbuf(f_recvbuf);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  const int * sendcounts = (const int *)f_sendcounts;
  real_scatterv(f_sendbuf, f_sendcounts, f_displs, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_SCATTERV, root, b_scatterv(comm, sendcounts, sendtype, recvbuf, recvcount, recvtype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_scatterv, MPI_SCATTERV);
CLC_FALIAS(clc_f_scatterv, mpi_scatterv);
CLC_FALIAS(clc_f_scatterv, mpi_scatterv_);
CLC_FALIAS(clc_f_scatterv, mpi_scatterv__);
CLC_FALIAS(clc_f_scatterv, ompi_scatterv_f);
CLC_FALIAS(clc_f_scatterv, pmpi_scatterv_);

CLC_FREAL(allgather, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_allgather(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(allgather);
  if (!CLC_ON()) { real_allgather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Allgather);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_allgather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLGATHER, -1, b_allgather(comm, sendbuf, sendcount, sendtype, recvcount, recvtype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_allgather, MPI_ALLGATHER);
CLC_FALIAS(clc_f_allgather, mpi_allgather);
CLC_FALIAS(clc_f_allgather, mpi_allgather_);
CLC_FALIAS(clc_f_allgather, mpi_allgather__);
CLC_FALIAS(clc_f_allgather, ompi_allgather_f);
CLC_FALIAS(clc_f_allgather, pmpi_allgather_);

CLC_FREAL(allgatherv, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_allgatherv(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(allgatherv);
  if (!CLC_ON()) { real_allgatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Allgatherv);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  const int * recvcounts = (const int *)f_recvcounts;
  real_allgatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLGATHERV, -1, b_allgatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_allgatherv, MPI_ALLGATHERV);
CLC_FALIAS(clc_f_allgatherv, mpi_allgatherv);
CLC_FALIAS(clc_f_allgatherv, mpi_allgatherv_);
CLC_FALIAS(clc_f_allgatherv, mpi_allgatherv__);
CLC_FALIAS(clc_f_allgatherv, ompi_allgatherv_f);
CLC_FALIAS(clc_f_allgatherv, pmpi_allgatherv_);

CLC_FREAL(alltoall, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_alltoall(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(alltoall);
  if (!CLC_ON()) { real_alltoall(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Alltoall);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_alltoall(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLTOALL, -1, b_alltoall(comm, sendbuf, sendcount, sendtype, recvcount, recvtype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_alltoall, MPI_ALLTOALL);
CLC_FALIAS(clc_f_alltoall, mpi_alltoall);
CLC_FALIAS(clc_f_alltoall, mpi_alltoall_);
CLC_FALIAS(clc_f_alltoall, mpi_alltoall__);
CLC_FALIAS(clc_f_alltoall, ompi_alltoall_f);
CLC_FALIAS(clc_f_alltoall, pmpi_alltoall_);

CLC_FREAL(alltoallv, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_alltoallv(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(alltoallv);
  if (!CLC_ON()) { real_alltoallv(f_sendbuf, f_sendcounts, f_sdispls, f_sendtype, f_recvbuf, f_recvcounts, f_rdispls, f_recvtype, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Alltoallv);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  const int * sendcounts = (const int *)f_sendcounts;
  const int * recvcounts = (const int *)f_recvcounts;
  real_alltoallv(f_sendbuf, f_sendcounts, f_sdispls, f_sendtype, f_recvbuf, f_recvcounts, f_rdispls, f_recvtype, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLTOALLV, -1, b_alltoallv(comm, sendbuf, sendcounts, sendtype, recvcounts, recvtype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_alltoallv, MPI_ALLTOALLV);
CLC_FALIAS(clc_f_alltoallv, mpi_alltoallv);
CLC_FALIAS(clc_f_alltoallv, mpi_alltoallv_);
CLC_FALIAS(clc_f_alltoallv, mpi_alltoallv__);
CLC_FALIAS(clc_f_alltoallv, ompi_alltoallv_f);
CLC_FALIAS(clc_f_alltoallv, pmpi_alltoallv_);

CLC_FREAL(alltoallw, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtypes, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtypes, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_alltoallw(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtypes, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtypes, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(alltoallw);
  if (!CLC_ON()) { real_alltoallw(f_sendbuf, f_sendcounts, f_sdispls, f_sendtypes, f_recvbuf, f_recvcounts, f_rdispls, f_recvtypes, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Alltoallw);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  const int * sendcounts = (const int *)f_sendcounts;
  const MPI_Datatype * sendtypes = clc_f2c_types(f_sendtypes, clc_comm_n(comm), 0);
  const int * recvcounts = (const int *)f_recvcounts;
  const MPI_Datatype * recvtypes = clc_f2c_types(f_recvtypes, clc_comm_n(comm), 1);
  real_alltoallw(f_sendbuf, f_sendcounts, f_sdispls, f_sendtypes, f_recvbuf, f_recvcounts, f_rdispls, f_recvtypes, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLTOALLW, -1, b_alltoallw(comm, sendbuf, sendcounts, sendtypes, recvcounts, recvtypes));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_alltoallw, MPI_ALLTOALLW);
CLC_FALIAS(clc_f_alltoallw, mpi_alltoallw);
CLC_FALIAS(clc_f_alltoallw, mpi_alltoallw_);
CLC_FALIAS(clc_f_alltoallw, mpi_alltoallw__);
CLC_FALIAS(clc_f_alltoallw, ompi_alltoallw_f);
CLC_FALIAS(clc_f_alltoallw, pmpi_alltoallw_);

CLC_FREAL(allreduce, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_allreduce(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(allreduce);
  if (!CLC_ON()) { real_allreduce(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Allreduce);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_allreduce(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLREDUCE, -1, b_allreduce(comm, count, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_allreduce, MPI_ALLREDUCE);
CLC_FALIAS(clc_f_allreduce, mpi_allreduce);
CLC_FALIAS(clc_f_allreduce, mpi_allreduce_);
CLC_FALIAS(clc_f_allreduce, mpi_allreduce__);
CLC_FALIAS(clc_f_allreduce, ompi_allreduce_f);
CLC_FALIAS(clc_f_allreduce, pmpi_allreduce_);

CLC_FREAL(reduce, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_reduce(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(reduce);
  if (!CLC_ON()) { real_reduce(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_root, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Reduce);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_reduce(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_root, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_REDUCE, root, b_reduce(comm, count, datatype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_reduce, MPI_REDUCE);
CLC_FALIAS(clc_f_reduce, mpi_reduce);
CLC_FALIAS(clc_f_reduce, mpi_reduce_);
CLC_FALIAS(clc_f_reduce, mpi_reduce__);
CLC_FALIAS(clc_f_reduce, ompi_reduce_f);
CLC_FALIAS(clc_f_reduce, pmpi_reduce_);

CLC_FREAL(reduce_scatter, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_reduce_scatter(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(reduce_scatter);
  if (!CLC_ON()) { real_reduce_scatter(f_sendbuf, f_recvbuf, f_recvcounts, f_datatype, f_op, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Reduce_scatter);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  const int * recvcounts = (const int *)f_recvcounts;
  real_reduce_scatter(f_sendbuf, f_recvbuf, f_recvcounts, f_datatype, f_op, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_REDUCE_SCATTER, -1, b_reduce_scatter(comm, recvcounts, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_reduce_scatter, MPI_REDUCE_SCATTER);
CLC_FALIAS(clc_f_reduce_scatter, mpi_reduce_scatter);
CLC_FALIAS(clc_f_reduce_scatter, mpi_reduce_scatter_);
CLC_FALIAS(clc_f_reduce_scatter, mpi_reduce_scatter__);
CLC_FALIAS(clc_f_reduce_scatter, ompi_reduce_scatter_f);
CLC_FALIAS(clc_f_reduce_scatter, pmpi_reduce_scatter_);

CLC_FREAL(reduce_scatter_block, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_reduce_scatter_block(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(reduce_scatter_block);
  if (!CLC_ON()) { real_reduce_scatter_block(f_sendbuf, f_recvbuf, f_recvcount, f_datatype, f_op, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Reduce_scatter_block);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_reduce_scatter_block(f_sendbuf, f_recvbuf, f_recvcount, f_datatype, f_op, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_REDUCE_SCATTER_BLOCK, -1, b_reduce_scatter_block(comm, recvcount, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK);
CLC_FALIAS(clc_f_reduce_scatter_block, mpi_reduce_scatter_block);
CLC_FALIAS(clc_f_reduce_scatter_block, mpi_reduce_scatter_block_);
CLC_FALIAS(clc_f_reduce_scatter_block, mpi_reduce_scatter_block__);
CLC_FALIAS(clc_f_reduce_scatter_block, ompi_reduce_scatter_block_f);
CLC_FALIAS(clc_f_reduce_scatter_block, pmpi_reduce_scatter_block_);

CLC_FREAL(scan, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_scan(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(scan);
  if (!CLC_ON()) { real_scan(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Scan);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_scan(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_SCAN, -1, b_allreduce(comm, count, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_scan, MPI_SCAN);
CLC_FALIAS(clc_f_scan, mpi_scan);
CLC_FALIAS(clc_f_scan, mpi_scan_);
CLC_FALIAS(clc_f_scan, mpi_scan__);
CLC_FALIAS(clc_f_scan, ompi_scan_f);
CLC_FALIAS(clc_f_scan, pmpi_scan_);

CLC_FREAL(exscan, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_exscan(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(exscan);
  if (!CLC_ON()) { real_exscan(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Exscan);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_exscan(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_EXSCAN, -1, b_exscan(comm, count, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_exscan, MPI_EXSCAN);
CLC_FALIAS(clc_f_exscan, mpi_exscan);
CLC_FALIAS(clc_f_exscan, mpi_exscan_);
CLC_FALIAS(clc_f_exscan, mpi_exscan__);
CLC_FALIAS(clc_f_exscan, ompi_exscan_f);
CLC_FALIAS(clc_f_exscan, pmpi_exscan_);

CLC_FREAL(ibarrier, (MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ibarrier(MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ibarrier);
  if (!CLC_ON()) { real_ibarrier(f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ibarrier);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_ibarrier(f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_BARRIER, -1, b_none());
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ibarrier, MPI_IBARRIER);
CLC_FALIAS(clc_f_ibarrier, mpi_ibarrier);
CLC_FALIAS(clc_f_ibarrier, mpi_ibarrier_);
CLC_FALIAS(clc_f_ibarrier, mpi_ibarrier__);
CLC_FALIAS(clc_f_ibarrier, ompi_ibarrier_f);
CLC_FALIAS(clc_f_ibarrier, pmpi_ibarrier_);

CLC_FREAL(ibcast, (void *f_buffer, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ibcast(void *f_buffer, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ibcast);
  if (!CLC_ON()) { real_ibcast(f_buffer, f_count, f_datatype, f_root, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ibcast);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_ibcast(f_buffer, f_count, f_datatype, f_root, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_BCAST, root, b_bcast(comm, count, datatype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ibcast, MPI_IBCAST);
CLC_FALIAS(clc_f_ibcast, mpi_ibcast);
CLC_FALIAS(clc_f_ibcast, mpi_ibcast_);
CLC_FALIAS(clc_f_ibcast, mpi_ibcast__);
CLC_FALIAS(clc_f_ibcast, ompi_ibcast_f);
CLC_FALIAS(clc_f_ibcast, pmpi_ibcast_);

CLC_FREAL(igather, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_igather(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(igather);
  if (!CLC_ON()) { real_igather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Igather);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_igather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_GATHER, root, b_gather(comm, sendbuf, sendcount, sendtype, recvcount, recvtype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_igather, MPI_IGATHER);
CLC_FALIAS(clc_f_igather, mpi_igather);
CLC_FALIAS(clc_f_igather, mpi_igather_);
CLC_FALIAS(clc_f_igather, mpi_igather__);
CLC_FALIAS(clc_f_igather, ompi_igather_f);
CLC_FALIAS(clc_f_igather, pmpi_igather_);

CLC_FREAL(igatherv, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_igatherv(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(igatherv);
  if (!CLC_ON()) { real_igatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_root, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Igatherv);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  const int * recvcounts = (const int *)f_recvcounts;
  real_igatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_root, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_GATHERV, root, b_gatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_igatherv, MPI_IGATHERV);
CLC_FALIAS(clc_f_igatherv, mpi_igatherv);
CLC_FALIAS(clc_f_igatherv, mpi_igatherv_);
CLC_FALIAS(clc_f_igatherv, mpi_igatherv__);
CLC_FALIAS(clc_f_igatherv, ompi_igatherv_f);
CLC_FALIAS(clc_f_igatherv, pmpi_igatherv_);

CLC_FREAL(iscatter, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_iscatter(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(iscatter);
  if (!CLC_ON()) { real_iscatter(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Iscatter);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  void * recvbuf = clc_fbuf(f_recvbuf);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_iscatter(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_SCATTER, root, b_scatter(comm, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_iscatter, MPI_ISCATTER);
CLC_FALIAS(clc_f_iscatter, mpi_iscatter);
CLC_FALIAS(clc_f_iscatter, mpi_iscatter_);
CLC_FALIAS(clc_f_iscatter, mpi_iscatter__);
CLC_FALIAS(clc_f_iscatter, ompi_iscatter_f);
CLC_FALIAS(clc_f_iscatter, pmpi_iscatter_);

CLC_FREAL(iscatterv, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_displs, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_iscatterv(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_displs, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(iscatterv);
  if (!CLC_ON()) { real_iscatterv(f_sendbuf, f_sendcounts, f_displs, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Iscatterv);
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  void * recvbuf = clc_fbuf(f_recvbuf);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  const int * sendcounts = (const int *)f_sendcounts;
  real_iscatterv(f_sendbuf, f_sendcounts, f_displs, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_root, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_SCATTERV, root, b_scatterv(comm, sendcounts, sendtype, recvbuf, recvcount, recvtype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_iscatterv, MPI_ISCATTERV);
CLC_FALIAS(clc_f_iscatterv, mpi_iscatterv);
CLC_FALIAS(clc_f_iscatterv, mpi_iscatterv_);
CLC_FALIAS(clc_f_iscatterv, mpi_iscatterv__);
CLC_FALIAS(clc_f_iscatterv, ompi_iscatterv_f);
CLC_FALIAS(clc_f_iscatterv, pmpi_iscatterv_);

CLC_FREAL(iallgather, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_iallgather(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(iallgather);
  if (!CLC_ON()) { real_iallgather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Iallgather);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_iallgather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_ALLGATHER, -1, b_allgather(comm, sendbuf, sendcount, sendtype, recvcount, recvtype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_iallgather, MPI_IALLGATHER);
CLC_FALIAS(clc_f_iallgather, mpi_iallgather);
CLC_FALIAS(clc_f_iallgather, mpi_iallgather_);
CLC_FALIAS(clc_f_iallgather, mpi_iallgather__);
CLC_FALIAS(clc_f_iallgather, ompi_iallgather_f);
CLC_FALIAS(clc_f_iallgather, pmpi_iallgather_);

CLC_FREAL(iallgatherv, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_iallgatherv(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(iallgatherv);
  if (!CLC_ON()) { real_iallgatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Iallgatherv);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  const int * recvcounts = (const int *)f_recvcounts;
  real_iallgatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_ALLGATHERV, -1, b_allgatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_iallgatherv, MPI_IALLGATHERV);
CLC_FALIAS(clc_f_iallgatherv, mpi_iallgatherv);
CLC_FALIAS(clc_f_iallgatherv, mpi_iallgatherv_);
CLC_FALIAS(clc_f_iallgatherv, mpi_iallgatherv__);
CLC_FALIAS(clc_f_iallgatherv, ompi_iallgatherv_f);
CLC_FALIAS(clc_f_iallgatherv, pmpi_iallgatherv_);

CLC_FREAL(ialltoall, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ialltoall(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ialltoall);
  if (!CLC_ON()) { real_ialltoall(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ialltoall);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_ialltoall(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_ALLTOALL, -1, b_alltoall(comm, sendbuf, sendcount, sendtype, recvcount, recvtype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ialltoall, MPI_IALLTOALL);
CLC_FALIAS(clc_f_ialltoall, mpi_ialltoall);
CLC_FALIAS(clc_f_ialltoall, mpi_ialltoall_);
CLC_FALIAS(clc_f_ialltoall, mpi_ialltoall__);
CLC_FALIAS(clc_f_ialltoall, ompi_ialltoall_f);
CLC_FALIAS(clc_f_ialltoall, pmpi_ialltoall_);

CLC_FREAL(ialltoallv, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ialltoallv(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ialltoallv);
  if (!CLC_ON()) { real_ialltoallv(f_sendbuf, f_sendcounts, f_sdispls, f_sendtype, f_recvbuf, f_recvcounts, f_rdispls, f_recvtype, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ialltoallv);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  const int * sendcounts = (const int *)f_sendcounts;
  const int * recvcounts = (const int *)f_recvcounts;
  real_ialltoallv(f_sendbuf, f_sendcounts, f_sdispls, f_sendtype, f_recvbuf, f_recvcounts, f_rdispls, f_recvtype, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_ALLTOALLV, -1, b_alltoallv(comm, sendbuf, sendcounts, sendtype, recvcounts, recvtype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ialltoallv, MPI_IALLTOALLV);
CLC_FALIAS(clc_f_ialltoallv, mpi_ialltoallv);
CLC_FALIAS(clc_f_ialltoallv, mpi_ialltoallv_);
CLC_FALIAS(clc_f_ialltoallv, mpi_ialltoallv__);
CLC_FALIAS(clc_f_ialltoallv, ompi_ialltoallv_f);
CLC_FALIAS(clc_f_ialltoallv, pmpi_ialltoallv_);

CLC_FREAL(ialltoallw, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtypes, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtypes, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ialltoallw(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtypes, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtypes, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ialltoallw);
  if (!CLC_ON()) { real_ialltoallw(f_sendbuf, f_sendcounts, f_sdispls, f_sendtypes, f_recvbuf, f_recvcounts, f_rdispls, f_recvtypes, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ialltoallw);
  const void * sendbuf = clc_fbuf(f_sendbuf);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  const int * sendcounts = (const int *)f_sendcounts;
  const MPI_Datatype * sendtypes = clc_f2c_types(f_sendtypes, clc_comm_n(comm), 0);
  const int * recvcounts = (const int *)f_recvcounts;
  const MPI_Datatype * recvtypes = clc_f2c_types(f_recvtypes, clc_comm_n(comm), 1);
  real_ialltoallw(f_sendbuf, f_sendcounts, f_sdispls, f_sendtypes, f_recvbuf, f_recvcounts, f_rdispls, f_recvtypes, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_ALLTOALLW, -1, b_alltoallw(comm, sendbuf, sendcounts, sendtypes, recvcounts, recvtypes));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ialltoallw, MPI_IALLTOALLW);
CLC_FALIAS(clc_f_ialltoallw, mpi_ialltoallw);
CLC_FALIAS(clc_f_ialltoallw, mpi_ialltoallw_);
CLC_FALIAS(clc_f_ialltoallw, mpi_ialltoallw__);
CLC_FALIAS(clc_f_ialltoallw, ompi_ialltoallw_f);
CLC_FALIAS(clc_f_ialltoallw, pmpi_ialltoallw_);

CLC_FREAL(iallreduce, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_iallreduce(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(iallreduce);
  if (!CLC_ON()) { real_iallreduce(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Iallreduce);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_iallreduce(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_ALLREDUCE, -1, b_allreduce(comm, count, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_iallreduce, MPI_IALLREDUCE);
CLC_FALIAS(clc_f_iallreduce, mpi_iallreduce);
CLC_FALIAS(clc_f_iallreduce, mpi_iallreduce_);
CLC_FALIAS(clc_f_iallreduce, mpi_iallreduce__);
CLC_FALIAS(clc_f_iallreduce, ompi_iallreduce_f);
CLC_FALIAS(clc_f_iallreduce, pmpi_iallreduce_);

CLC_FREAL(ireduce, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ireduce(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_root, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ireduce);
  if (!CLC_ON()) { real_ireduce(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_root, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ireduce);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const int root = (int)*f_root;
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_ireduce(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_root, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_REDUCE, root, b_reduce(comm, count, datatype, root));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ireduce, MPI_IREDUCE);
CLC_FALIAS(clc_f_ireduce, mpi_ireduce);
CLC_FALIAS(clc_f_ireduce, mpi_ireduce_);
CLC_FALIAS(clc_f_ireduce, mpi_ireduce__);
CLC_FALIAS(clc_f_ireduce, ompi_ireduce_f);
CLC_FALIAS(clc_f_ireduce, pmpi_ireduce_);

CLC_FREAL(ireduce_scatter, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ireduce_scatter(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ireduce_scatter);
  if (!CLC_ON()) { real_ireduce_scatter(f_sendbuf, f_recvbuf, f_recvcounts, f_datatype, f_op, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ireduce_scatter);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  const int * recvcounts = (const int *)f_recvcounts;
  real_ireduce_scatter(f_sendbuf, f_recvbuf, f_recvcounts, f_datatype, f_op, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_REDUCE_SCATTER, -1, b_reduce_scatter(comm, recvcounts, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ireduce_scatter, MPI_IREDUCE_SCATTER);
CLC_FALIAS(clc_f_ireduce_scatter, mpi_ireduce_scatter);
CLC_FALIAS(clc_f_ireduce_scatter, mpi_ireduce_scatter_);
CLC_FALIAS(clc_f_ireduce_scatter, mpi_ireduce_scatter__);
CLC_FALIAS(clc_f_ireduce_scatter, ompi_ireduce_scatter_f);
CLC_FALIAS(clc_f_ireduce_scatter, pmpi_ireduce_scatter_);

CLC_FREAL(ireduce_scatter_block, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ireduce_scatter_block(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ireduce_scatter_block);
  if (!CLC_ON()) { real_ireduce_scatter_block(f_sendbuf, f_recvbuf, f_recvcount, f_datatype, f_op, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ireduce_scatter_block);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_ireduce_scatter_block(f_sendbuf, f_recvbuf, f_recvcount, f_datatype, f_op, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_REDUCE_SCATTER_BLOCK, -1, b_reduce_scatter_block(comm, recvcount, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ireduce_scatter_block, MPI_IREDUCE_SCATTER_BLOCK);
CLC_FALIAS(clc_f_ireduce_scatter_block, mpi_ireduce_scatter_block);
CLC_FALIAS(clc_f_ireduce_scatter_block, mpi_ireduce_scatter_block_);
CLC_FALIAS(clc_f_ireduce_scatter_block, mpi_ireduce_scatter_block__);
CLC_FALIAS(clc_f_ireduce_scatter_block, ompi_ireduce_scatter_block_f);
CLC_FALIAS(clc_f_ireduce_scatter_block, pmpi_ireduce_scatter_block_);

CLC_FREAL(iscan, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_iscan(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(iscan);
  if (!CLC_ON()) { real_iscan(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Iscan);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_iscan(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_SCAN, -1, b_allreduce(comm, count, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_iscan, MPI_ISCAN);
CLC_FALIAS(clc_f_iscan, mpi_iscan);
CLC_FALIAS(clc_f_iscan, mpi_iscan_);
CLC_FALIAS(clc_f_iscan, mpi_iscan__);
CLC_FALIAS(clc_f_iscan, ompi_iscan_f);
CLC_FALIAS(clc_f_iscan, pmpi_iscan_);

CLC_FREAL(iexscan, (void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_iexscan(void *f_sendbuf, void *f_recvbuf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_op, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(iexscan);
  if (!CLC_ON()) { real_iexscan(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Iexscan);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_iexscan(f_sendbuf, f_recvbuf, f_count, f_datatype, f_op, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_nbc(t0, rc, *request, comm, OP_EXSCAN, -1, b_exscan(comm, count, datatype));
  clc_leave(t1);
}
CLC_FALIAS(clc_f_iexscan, MPI_IEXSCAN);
CLC_FALIAS(clc_f_iexscan, mpi_iexscan);
CLC_FALIAS(clc_f_iexscan, mpi_iexscan_);
CLC_FALIAS(clc_f_iexscan, mpi_iexscan__);
CLC_FALIAS(clc_f_iexscan, ompi_iexscan_f);
CLC_FALIAS(clc_f_iexscan, pmpi_iexscan_);

CLC_FREAL(neighbor_allgather, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_neighbor_allgather(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(neighbor_allgather);
  if (!CLC_ON()) { real_neighbor_allgather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Neighbor_allgather);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_neighbor_allgather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, sendcount, NULL, sendtype, NULL, recvcount, NULL, recvtype, NULL);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_neighbor_allgather, MPI_NEIGHBOR_ALLGATHER);
CLC_FALIAS(clc_f_neighbor_allgather, mpi_neighbor_allgather);
CLC_FALIAS(clc_f_neighbor_allgather, mpi_neighbor_allgather_);
CLC_FALIAS(clc_f_neighbor_allgather, mpi_neighbor_allgather__);
CLC_FALIAS(clc_f_neighbor_allgather, ompi_neighbor_allgather_f);
CLC_FALIAS(clc_f_neighbor_allgather, pmpi_neighbor_allgather_);

CLC_FREAL(neighbor_allgatherv, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_neighbor_allgatherv(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(neighbor_allgatherv);
  if (!CLC_ON()) { real_neighbor_allgatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Neighbor_allgatherv);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  const int * recvcounts = (const int *)f_recvcounts;
  real_neighbor_allgatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, sendcount, NULL, sendtype, NULL, 0, recvcounts, recvtype, NULL);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_neighbor_allgatherv, MPI_NEIGHBOR_ALLGATHERV);
CLC_FALIAS(clc_f_neighbor_allgatherv, mpi_neighbor_allgatherv);
CLC_FALIAS(clc_f_neighbor_allgatherv, mpi_neighbor_allgatherv_);
CLC_FALIAS(clc_f_neighbor_allgatherv, mpi_neighbor_allgatherv__);
CLC_FALIAS(clc_f_neighbor_allgatherv, ompi_neighbor_allgatherv_f);
CLC_FALIAS(clc_f_neighbor_allgatherv, pmpi_neighbor_allgatherv_);

CLC_FREAL(neighbor_alltoall, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_neighbor_alltoall(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(neighbor_alltoall);
  if (!CLC_ON()) { real_neighbor_alltoall(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Neighbor_alltoall);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  real_neighbor_alltoall(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, sendcount, NULL, sendtype, NULL, recvcount, NULL, recvtype, NULL);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_neighbor_alltoall, MPI_NEIGHBOR_ALLTOALL);
CLC_FALIAS(clc_f_neighbor_alltoall, mpi_neighbor_alltoall);
CLC_FALIAS(clc_f_neighbor_alltoall, mpi_neighbor_alltoall_);
CLC_FALIAS(clc_f_neighbor_alltoall, mpi_neighbor_alltoall__);
CLC_FALIAS(clc_f_neighbor_alltoall, ompi_neighbor_alltoall_f);
CLC_FALIAS(clc_f_neighbor_alltoall, pmpi_neighbor_alltoall_);

CLC_FREAL(neighbor_alltoallv, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_neighbor_alltoallv(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(neighbor_alltoallv);
  if (!CLC_ON()) { real_neighbor_alltoallv(f_sendbuf, f_sendcounts, f_sdispls, f_sendtype, f_recvbuf, f_recvcounts, f_rdispls, f_recvtype, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Neighbor_alltoallv);
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  const int * sendcounts = (const int *)f_sendcounts;
  const int * recvcounts = (const int *)f_recvcounts;
  real_neighbor_alltoallv(f_sendbuf, f_sendcounts, f_sdispls, f_sendtype, f_recvbuf, f_recvcounts, f_rdispls, f_recvtype, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, 0, sendcounts, sendtype, NULL, 0, recvcounts, recvtype, NULL);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_neighbor_alltoallv, MPI_NEIGHBOR_ALLTOALLV);
CLC_FALIAS(clc_f_neighbor_alltoallv, mpi_neighbor_alltoallv);
CLC_FALIAS(clc_f_neighbor_alltoallv, mpi_neighbor_alltoallv_);
CLC_FALIAS(clc_f_neighbor_alltoallv, mpi_neighbor_alltoallv__);
CLC_FALIAS(clc_f_neighbor_alltoallv, ompi_neighbor_alltoallv_f);
CLC_FALIAS(clc_f_neighbor_alltoallv, pmpi_neighbor_alltoallv_);

CLC_FREAL(neighbor_alltoallw, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Aint *f_sdispls, MPI_Fint *f_sendtypes, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Aint *f_rdispls, MPI_Fint *f_recvtypes, MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_neighbor_alltoallw(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Aint *f_sdispls, MPI_Fint *f_sendtypes, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Aint *f_rdispls, MPI_Fint *f_recvtypes, MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(neighbor_alltoallw);
  if (!CLC_ON()) { real_neighbor_alltoallw(f_sendbuf, f_sendcounts, f_sdispls, f_sendtypes, f_recvbuf, f_recvcounts, f_rdispls, f_recvtypes, f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Neighbor_alltoallw);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  const int * sendcounts = (const int *)f_sendcounts;
  const MPI_Datatype * sendtypes = clc_f2c_types(f_sendtypes, clc_nbr_out(comm), 0);
  const int * recvcounts = (const int *)f_recvcounts;
  const MPI_Datatype * recvtypes = clc_f2c_types(f_recvtypes, clc_nbr_in(comm), 1);
  real_neighbor_alltoallw(f_sendbuf, f_sendcounts, f_sdispls, f_sendtypes, f_recvbuf, f_recvcounts, f_rdispls, f_recvtypes, f_comm, ierr);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, 0, sendcounts, MPI_DATATYPE_NULL, sendtypes, 0, recvcounts, MPI_DATATYPE_NULL, recvtypes);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_neighbor_alltoallw, MPI_NEIGHBOR_ALLTOALLW);
CLC_FALIAS(clc_f_neighbor_alltoallw, mpi_neighbor_alltoallw);
CLC_FALIAS(clc_f_neighbor_alltoallw, mpi_neighbor_alltoallw_);
CLC_FALIAS(clc_f_neighbor_alltoallw, mpi_neighbor_alltoallw__);
CLC_FALIAS(clc_f_neighbor_alltoallw, ompi_neighbor_alltoallw_f);
CLC_FALIAS(clc_f_neighbor_alltoallw, pmpi_neighbor_alltoallw_);

CLC_FREAL(ineighbor_allgather, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ineighbor_allgather(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ineighbor_allgather);
  if (!CLC_ON()) { real_ineighbor_allgather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_allgather);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_ineighbor_allgather(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_inbr(t0, rc, *request, comm, sendcount, NULL, sendtype, NULL, recvcount, NULL, recvtype, NULL);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ineighbor_allgather, MPI_INEIGHBOR_ALLGATHER);
CLC_FALIAS(clc_f_ineighbor_allgather, mpi_ineighbor_allgather);
CLC_FALIAS(clc_f_ineighbor_allgather, mpi_ineighbor_allgather_);
CLC_FALIAS(clc_f_ineighbor_allgather, mpi_ineighbor_allgather__);
CLC_FALIAS(clc_f_ineighbor_allgather, ompi_ineighbor_allgather_f);
CLC_FALIAS(clc_f_ineighbor_allgather, pmpi_ineighbor_allgather_);

CLC_FREAL(ineighbor_allgatherv, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ineighbor_allgatherv(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_displs, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ineighbor_allgatherv);
  if (!CLC_ON()) { real_ineighbor_allgatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_allgatherv);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  const int * recvcounts = (const int *)f_recvcounts;
  real_ineighbor_allgatherv(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcounts, f_displs, f_recvtype, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_inbr(t0, rc, *request, comm, sendcount, NULL, sendtype, NULL, 0, recvcounts, recvtype, NULL);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ineighbor_allgatherv, MPI_INEIGHBOR_ALLGATHERV);
CLC_FALIAS(clc_f_ineighbor_allgatherv, mpi_ineighbor_allgatherv);
CLC_FALIAS(clc_f_ineighbor_allgatherv, mpi_ineighbor_allgatherv_);
CLC_FALIAS(clc_f_ineighbor_allgatherv, mpi_ineighbor_allgatherv__);
CLC_FALIAS(clc_f_ineighbor_allgatherv, ompi_ineighbor_allgatherv_f);
CLC_FALIAS(clc_f_ineighbor_allgatherv, pmpi_ineighbor_allgatherv_);

CLC_FREAL(ineighbor_alltoall, (void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ineighbor_alltoall(void *f_sendbuf, MPI_Fint *f_sendcount, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcount, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ineighbor_alltoall);
  if (!CLC_ON()) { real_ineighbor_alltoall(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_alltoall);
  const int sendcount = (int)*f_sendcount;
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const int recvcount = (int)*f_recvcount;
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  real_ineighbor_alltoall(f_sendbuf, f_sendcount, f_sendtype, f_recvbuf, f_recvcount, f_recvtype, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_inbr(t0, rc, *request, comm, sendcount, NULL, sendtype, NULL, recvcount, NULL, recvtype, NULL);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ineighbor_alltoall, MPI_INEIGHBOR_ALLTOALL);
CLC_FALIAS(clc_f_ineighbor_alltoall, mpi_ineighbor_alltoall);
CLC_FALIAS(clc_f_ineighbor_alltoall, mpi_ineighbor_alltoall_);
CLC_FALIAS(clc_f_ineighbor_alltoall, mpi_ineighbor_alltoall__);
CLC_FALIAS(clc_f_ineighbor_alltoall, ompi_ineighbor_alltoall_f);
CLC_FALIAS(clc_f_ineighbor_alltoall, pmpi_ineighbor_alltoall_);

CLC_FREAL(ineighbor_alltoallv, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ineighbor_alltoallv(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Fint *f_sdispls, MPI_Fint *f_sendtype, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Fint *f_rdispls, MPI_Fint *f_recvtype, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ineighbor_alltoallv);
  if (!CLC_ON()) { real_ineighbor_alltoallv(f_sendbuf, f_sendcounts, f_sdispls, f_sendtype, f_recvbuf, f_recvcounts, f_rdispls, f_recvtype, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_alltoallv);
  const MPI_Datatype sendtype = MPI_Type_f2c(*f_sendtype);
  const MPI_Datatype recvtype = MPI_Type_f2c(*f_recvtype);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  const int * sendcounts = (const int *)f_sendcounts;
  const int * recvcounts = (const int *)f_recvcounts;
  real_ineighbor_alltoallv(f_sendbuf, f_sendcounts, f_sdispls, f_sendtype, f_recvbuf, f_recvcounts, f_rdispls, f_recvtype, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_inbr(t0, rc, *request, comm, 0, sendcounts, sendtype, NULL, 0, recvcounts, recvtype, NULL);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ineighbor_alltoallv, MPI_INEIGHBOR_ALLTOALLV);
CLC_FALIAS(clc_f_ineighbor_alltoallv, mpi_ineighbor_alltoallv);
CLC_FALIAS(clc_f_ineighbor_alltoallv, mpi_ineighbor_alltoallv_);
CLC_FALIAS(clc_f_ineighbor_alltoallv, mpi_ineighbor_alltoallv__);
CLC_FALIAS(clc_f_ineighbor_alltoallv, ompi_ineighbor_alltoallv_f);
CLC_FALIAS(clc_f_ineighbor_alltoallv, pmpi_ineighbor_alltoallv_);

CLC_FREAL(ineighbor_alltoallw, (void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Aint *f_sdispls, MPI_Fint *f_sendtypes, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Aint *f_rdispls, MPI_Fint *f_recvtypes, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_ineighbor_alltoallw(void *f_sendbuf, MPI_Fint *f_sendcounts, MPI_Aint *f_sdispls, MPI_Fint *f_sendtypes, void *f_recvbuf, MPI_Fint *f_recvcounts, MPI_Aint *f_rdispls, MPI_Fint *f_recvtypes, MPI_Fint *f_comm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(ineighbor_alltoallw);
  if (!CLC_ON()) { real_ineighbor_alltoallw(f_sendbuf, f_sendcounts, f_sdispls, f_sendtypes, f_recvbuf, f_recvcounts, f_rdispls, f_recvtypes, f_comm, f_request, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_alltoallw);
  const MPI_Comm comm = MPI_Comm_f2c(*f_comm);
  MPI_Request request_v, *request = &request_v;
  const int * sendcounts = (const int *)f_sendcounts;
  const MPI_Datatype * sendtypes = clc_f2c_types(f_sendtypes, clc_nbr_out(comm), 0);
  const int * recvcounts = (const int *)f_recvcounts;
  const MPI_Datatype * recvtypes = clc_f2c_types(f_recvtypes, clc_nbr_in(comm), 1);
  real_ineighbor_alltoallw(f_sendbuf, f_sendcounts, f_sdispls, f_sendtypes, f_recvbuf, f_recvcounts, f_rdispls, f_recvtypes, f_comm, f_request, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  request_v = MPI_Request_f2c(*f_request);
  h_inbr(t0, rc, *request, comm, 0, sendcounts, MPI_DATATYPE_NULL, sendtypes, 0, recvcounts, MPI_DATATYPE_NULL, recvtypes);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_ineighbor_alltoallw, MPI_INEIGHBOR_ALLTOALLW);
CLC_FALIAS(clc_f_ineighbor_alltoallw, mpi_ineighbor_alltoallw);
CLC_FALIAS(clc_f_ineighbor_alltoallw, mpi_ineighbor_alltoallw_);
CLC_FALIAS(clc_f_ineighbor_alltoallw, mpi_ineighbor_alltoallw__);
CLC_FALIAS(clc_f_ineighbor_alltoallw, ompi_ineighbor_alltoallw_f);
CLC_FALIAS(clc_f_ineighbor_alltoallw, pmpi_ineighbor_alltoallw_);

CLC_FREAL(cart_create, (MPI_Fint *f_comm_old, MPI_Fint *f_ndims, MPI_Fint *f_dims, MPI_Fint *f_periods, MPI_Fint *f_reorder, MPI_Fint *f_comm_cart, MPI_Fint *ierr))
void clc_f_cart_create(MPI_Fint *f_comm_old, MPI_Fint *f_ndims, MPI_Fint *f_dims, MPI_Fint *f_periods, MPI_Fint *f_reorder, MPI_Fint *f_comm_cart, MPI_Fint *ierr) {
  CLC_FRESOLVE(cart_create);
  if (!CLC_ON()) { real_cart_create(f_comm_old, f_ndims, f_dims, f_periods, f_reorder, f_comm_cart, ierr); return; }
  clc_enter(R_MPI_Cart_create);
  MPI_Comm comm_cart_v, *comm_cart = &comm_cart_v;
  real_cart_create(f_comm_old, f_ndims, f_dims, f_periods, f_reorder, f_comm_cart, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  comm_cart_v = MPI_Comm_f2c(*f_comm_cart);
  h_newcomm(t1, rc, *comm_cart, "MPI_Cart_create");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_cart_create, MPI_CART_CREATE);
CLC_FALIAS(clc_f_cart_create, mpi_cart_create);
CLC_FALIAS(clc_f_cart_create, mpi_cart_create_);
CLC_FALIAS(clc_f_cart_create, mpi_cart_create__);
CLC_FALIAS(clc_f_cart_create, ompi_cart_create_f);
CLC_FALIAS(clc_f_cart_create, pmpi_cart_create_);

CLC_FREAL(cart_sub, (MPI_Fint *f_comm, MPI_Fint *f_remain_dims, MPI_Fint *f_new_comm, MPI_Fint *ierr))
void clc_f_cart_sub(MPI_Fint *f_comm, MPI_Fint *f_remain_dims, MPI_Fint *f_new_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(cart_sub);
  if (!CLC_ON()) { real_cart_sub(f_comm, f_remain_dims, f_new_comm, ierr); return; }
  clc_enter(R_MPI_Cart_sub);
  MPI_Comm new_comm_v, *new_comm = &new_comm_v;
  real_cart_sub(f_comm, f_remain_dims, f_new_comm, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  new_comm_v = MPI_Comm_f2c(*f_new_comm);
  h_newcomm(t1, rc, *new_comm, "MPI_Cart_sub");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_cart_sub, MPI_CART_SUB);
CLC_FALIAS(clc_f_cart_sub, mpi_cart_sub);
CLC_FALIAS(clc_f_cart_sub, mpi_cart_sub_);
CLC_FALIAS(clc_f_cart_sub, mpi_cart_sub__);
CLC_FALIAS(clc_f_cart_sub, ompi_cart_sub_f);
CLC_FALIAS(clc_f_cart_sub, pmpi_cart_sub_);

CLC_FREAL(graph_create, (MPI_Fint *f_comm_old, MPI_Fint *f_nnodes, MPI_Fint *f_index, MPI_Fint *f_edges, MPI_Fint *f_reorder, MPI_Fint *f_comm_graph, MPI_Fint *ierr))
void clc_f_graph_create(MPI_Fint *f_comm_old, MPI_Fint *f_nnodes, MPI_Fint *f_index, MPI_Fint *f_edges, MPI_Fint *f_reorder, MPI_Fint *f_comm_graph, MPI_Fint *ierr) {
  CLC_FRESOLVE(graph_create);
  if (!CLC_ON()) { real_graph_create(f_comm_old, f_nnodes, f_index, f_edges, f_reorder, f_comm_graph, ierr); return; }
  clc_enter(R_MPI_Graph_create);
  MPI_Comm comm_graph_v, *comm_graph = &comm_graph_v;
  real_graph_create(f_comm_old, f_nnodes, f_index, f_edges, f_reorder, f_comm_graph, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  comm_graph_v = MPI_Comm_f2c(*f_comm_graph);
  h_newcomm(t1, rc, *comm_graph, "MPI_Graph_create");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_graph_create, MPI_GRAPH_CREATE);
CLC_FALIAS(clc_f_graph_create, mpi_graph_create);
CLC_FALIAS(clc_f_graph_create, mpi_graph_create_);
CLC_FALIAS(clc_f_graph_create, mpi_graph_create__);
CLC_FALIAS(clc_f_graph_create, ompi_graph_create_f);
CLC_FALIAS(clc_f_graph_create, pmpi_graph_create_);

CLC_FREAL(dist_graph_create, (MPI_Fint *f_comm_old, MPI_Fint *f_n, MPI_Fint *f_nodes, MPI_Fint *f_degrees, MPI_Fint *f_targets, MPI_Fint *f_weights, MPI_Fint *f_info, MPI_Fint *f_reorder, MPI_Fint *f_newcomm, MPI_Fint *ierr))
void clc_f_dist_graph_create(MPI_Fint *f_comm_old, MPI_Fint *f_n, MPI_Fint *f_nodes, MPI_Fint *f_degrees, MPI_Fint *f_targets, MPI_Fint *f_weights, MPI_Fint *f_info, MPI_Fint *f_reorder, MPI_Fint *f_newcomm, MPI_Fint *ierr) {
  CLC_FRESOLVE(dist_graph_create);
  if (!CLC_ON()) { real_dist_graph_create(f_comm_old, f_n, f_nodes, f_degrees, f_targets, f_weights, f_info, f_reorder, f_newcomm, ierr); return; }
  clc_enter(R_MPI_Dist_graph_create);
  MPI_Comm newcomm_v, *newcomm = &newcomm_v;
  real_dist_graph_create(f_comm_old, f_n, f_nodes, f_degrees, f_targets, f_weights, f_info, f_reorder, f_newcomm, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  newcomm_v = MPI_Comm_f2c(*f_newcomm);
  h_newcomm(t1, rc, *newcomm, "MPI_Dist_graph_create");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_dist_graph_create, MPI_DIST_GRAPH_CREATE);
CLC_FALIAS(clc_f_dist_graph_create, mpi_dist_graph_create);
CLC_FALIAS(clc_f_dist_graph_create, mpi_dist_graph_create_);
CLC_FALIAS(clc_f_dist_graph_create, mpi_dist_graph_create__);
CLC_FALIAS(clc_f_dist_graph_create, ompi_dist_graph_create_f);
CLC_FALIAS(clc_f_dist_graph_create, pmpi_dist_graph_create_);

CLC_FREAL(dist_graph_create_adjacent, (MPI_Fint *f_comm_old, MPI_Fint *f_indegree, MPI_Fint *f_sources, MPI_Fint *f_sourceweights, MPI_Fint *f_outdegree, MPI_Fint *f_destinations, MPI_Fint *f_destweights, MPI_Fint *f_info, MPI_Fint *f_reorder, MPI_Fint *f_comm_dist_graph, MPI_Fint *ierr))
void clc_f_dist_graph_create_adjacent(MPI_Fint *f_comm_old, MPI_Fint *f_indegree, MPI_Fint *f_sources, MPI_Fint *f_sourceweights, MPI_Fint *f_outdegree, MPI_Fint *f_destinations, MPI_Fint *f_destweights, MPI_Fint *f_info, MPI_Fint *f_reorder, MPI_Fint *f_comm_dist_graph, MPI_Fint *ierr) {
  CLC_FRESOLVE(dist_graph_create_adjacent);
  if (!CLC_ON()) { real_dist_graph_create_adjacent(f_comm_old, f_indegree, f_sources, f_sourceweights, f_outdegree, f_destinations, f_destweights, f_info, f_reorder, f_comm_dist_graph, ierr); return; }
  clc_enter(R_MPI_Dist_graph_create_adjacent);
  MPI_Comm comm_dist_graph_v, *comm_dist_graph = &comm_dist_graph_v;
  real_dist_graph_create_adjacent(f_comm_old, f_indegree, f_sources, f_sourceweights, f_outdegree, f_destinations, f_destweights, f_info, f_reorder, f_comm_dist_graph, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  comm_dist_graph_v = MPI_Comm_f2c(*f_comm_dist_graph);
  h_newcomm(t1, rc, *comm_dist_graph, "MPI_Dist_graph_create_adjacent");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_dist_graph_create_adjacent, MPI_DIST_GRAPH_CREATE_ADJACENT);
CLC_FALIAS(clc_f_dist_graph_create_adjacent, mpi_dist_graph_create_adjacent);
CLC_FALIAS(clc_f_dist_graph_create_adjacent, mpi_dist_graph_create_adjacent_);
CLC_FALIAS(clc_f_dist_graph_create_adjacent, mpi_dist_graph_create_adjacent__);
CLC_FALIAS(clc_f_dist_graph_create_adjacent, ompi_dist_graph_create_adjacent_f);
CLC_FALIAS(clc_f_dist_graph_create_adjacent, pmpi_dist_graph_create_adjacent_);

CLC_FREAL(cart_coords, (MPI_Fint *f_comm, MPI_Fint *f_rank, MPI_Fint *f_maxdims, MPI_Fint *f_coords, MPI_Fint *ierr))
void clc_f_cart_coords(MPI_Fint *f_comm, MPI_Fint *f_rank, MPI_Fint *f_maxdims, MPI_Fint *f_coords, MPI_Fint *ierr) {
  CLC_FRESOLVE(cart_coords);
  if (!CLC_ON()) { real_cart_coords(f_comm, f_rank, f_maxdims, f_coords, ierr); return; }
  clc_enter(R_MPI_Cart_coords);
  real_cart_coords(f_comm, f_rank, f_maxdims, f_coords, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_cart_coords, MPI_CART_COORDS);
CLC_FALIAS(clc_f_cart_coords, mpi_cart_coords);
CLC_FALIAS(clc_f_cart_coords, mpi_cart_coords_);
CLC_FALIAS(clc_f_cart_coords, mpi_cart_coords__);
CLC_FALIAS(clc_f_cart_coords, ompi_cart_coords_f);
CLC_FALIAS(clc_f_cart_coords, pmpi_cart_coords_);

CLC_FREAL(cart_get, (MPI_Fint *f_comm, MPI_Fint *f_maxdims, MPI_Fint *f_dims, MPI_Fint *f_periods, MPI_Fint *f_coords, MPI_Fint *ierr))
void clc_f_cart_get(MPI_Fint *f_comm, MPI_Fint *f_maxdims, MPI_Fint *f_dims, MPI_Fint *f_periods, MPI_Fint *f_coords, MPI_Fint *ierr) {
  CLC_FRESOLVE(cart_get);
  if (!CLC_ON()) { real_cart_get(f_comm, f_maxdims, f_dims, f_periods, f_coords, ierr); return; }
  clc_enter(R_MPI_Cart_get);
  real_cart_get(f_comm, f_maxdims, f_dims, f_periods, f_coords, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_cart_get, MPI_CART_GET);
CLC_FALIAS(clc_f_cart_get, mpi_cart_get);
CLC_FALIAS(clc_f_cart_get, mpi_cart_get_);
CLC_FALIAS(clc_f_cart_get, mpi_cart_get__);
CLC_FALIAS(clc_f_cart_get, ompi_cart_get_f);
CLC_FALIAS(clc_f_cart_get, pmpi_cart_get_);

CLC_FREAL(cart_map, (MPI_Fint *f_comm, MPI_Fint *f_ndims, MPI_Fint *f_dims, MPI_Fint *f_periods, MPI_Fint *f_newrank, MPI_Fint *ierr))
void clc_f_cart_map(MPI_Fint *f_comm, MPI_Fint *f_ndims, MPI_Fint *f_dims, MPI_Fint *f_periods, MPI_Fint *f_newrank, MPI_Fint *ierr) {
  CLC_FRESOLVE(cart_map);
  if (!CLC_ON()) { real_cart_map(f_comm, f_ndims, f_dims, f_periods, f_newrank, ierr); return; }
  clc_enter(R_MPI_Cart_map);
  real_cart_map(f_comm, f_ndims, f_dims, f_periods, f_newrank, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_cart_map, MPI_CART_MAP);
CLC_FALIAS(clc_f_cart_map, mpi_cart_map);
CLC_FALIAS(clc_f_cart_map, mpi_cart_map_);
CLC_FALIAS(clc_f_cart_map, mpi_cart_map__);
CLC_FALIAS(clc_f_cart_map, ompi_cart_map_f);
CLC_FALIAS(clc_f_cart_map, pmpi_cart_map_);

CLC_FREAL(cart_rank, (MPI_Fint *f_comm, MPI_Fint *f_coords, MPI_Fint *f_rank, MPI_Fint *ierr))
void clc_f_cart_rank(MPI_Fint *f_comm, MPI_Fint *f_coords, MPI_Fint *f_rank, MPI_Fint *ierr) {
  CLC_FRESOLVE(cart_rank);
  if (!CLC_ON()) { real_cart_rank(f_comm, f_coords, f_rank, ierr); return; }
  clc_enter(R_MPI_Cart_rank);
  real_cart_rank(f_comm, f_coords, f_rank, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_cart_rank, MPI_CART_RANK);
CLC_FALIAS(clc_f_cart_rank, mpi_cart_rank);
CLC_FALIAS(clc_f_cart_rank, mpi_cart_rank_);
CLC_FALIAS(clc_f_cart_rank, mpi_cart_rank__);
CLC_FALIAS(clc_f_cart_rank, ompi_cart_rank_f);
CLC_FALIAS(clc_f_cart_rank, pmpi_cart_rank_);

CLC_FREAL(cart_shift, (MPI_Fint *f_comm, MPI_Fint *f_direction, MPI_Fint *f_disp, MPI_Fint *f_rank_source, MPI_Fint *f_rank_dest, MPI_Fint *ierr))
void clc_f_cart_shift(MPI_Fint *f_comm, MPI_Fint *f_direction, MPI_Fint *f_disp, MPI_Fint *f_rank_source, MPI_Fint *f_rank_dest, MPI_Fint *ierr) {
  CLC_FRESOLVE(cart_shift);
  if (!CLC_ON()) { real_cart_shift(f_comm, f_direction, f_disp, f_rank_source, f_rank_dest, ierr); return; }
  clc_enter(R_MPI_Cart_shift);
  real_cart_shift(f_comm, f_direction, f_disp, f_rank_source, f_rank_dest, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_cart_shift, MPI_CART_SHIFT);
CLC_FALIAS(clc_f_cart_shift, mpi_cart_shift);
CLC_FALIAS(clc_f_cart_shift, mpi_cart_shift_);
CLC_FALIAS(clc_f_cart_shift, mpi_cart_shift__);
CLC_FALIAS(clc_f_cart_shift, ompi_cart_shift_f);
CLC_FALIAS(clc_f_cart_shift, pmpi_cart_shift_);

CLC_FREAL(cartdim_get, (MPI_Fint *f_comm, MPI_Fint *f_ndims, MPI_Fint *ierr))
void clc_f_cartdim_get(MPI_Fint *f_comm, MPI_Fint *f_ndims, MPI_Fint *ierr) {
  CLC_FRESOLVE(cartdim_get);
  if (!CLC_ON()) { real_cartdim_get(f_comm, f_ndims, ierr); return; }
  clc_enter(R_MPI_Cartdim_get);
  real_cartdim_get(f_comm, f_ndims, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_cartdim_get, MPI_CARTDIM_GET);
CLC_FALIAS(clc_f_cartdim_get, mpi_cartdim_get);
CLC_FALIAS(clc_f_cartdim_get, mpi_cartdim_get_);
CLC_FALIAS(clc_f_cartdim_get, mpi_cartdim_get__);
CLC_FALIAS(clc_f_cartdim_get, ompi_cartdim_get_f);
CLC_FALIAS(clc_f_cartdim_get, pmpi_cartdim_get_);

CLC_FREAL(dims_create, (MPI_Fint *f_nnodes, MPI_Fint *f_ndims, MPI_Fint *f_dims, MPI_Fint *ierr))
void clc_f_dims_create(MPI_Fint *f_nnodes, MPI_Fint *f_ndims, MPI_Fint *f_dims, MPI_Fint *ierr) {
  CLC_FRESOLVE(dims_create);
  if (!CLC_ON()) { real_dims_create(f_nnodes, f_ndims, f_dims, ierr); return; }
  clc_enter(R_MPI_Dims_create);
  real_dims_create(f_nnodes, f_ndims, f_dims, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_dims_create, MPI_DIMS_CREATE);
CLC_FALIAS(clc_f_dims_create, mpi_dims_create);
CLC_FALIAS(clc_f_dims_create, mpi_dims_create_);
CLC_FALIAS(clc_f_dims_create, mpi_dims_create__);
CLC_FALIAS(clc_f_dims_create, ompi_dims_create_f);
CLC_FALIAS(clc_f_dims_create, pmpi_dims_create_);

CLC_FREAL(graph_get, (MPI_Fint *f_comm, MPI_Fint *f_maxindex, MPI_Fint *f_maxedges, MPI_Fint *f_index, MPI_Fint *f_edges, MPI_Fint *ierr))
void clc_f_graph_get(MPI_Fint *f_comm, MPI_Fint *f_maxindex, MPI_Fint *f_maxedges, MPI_Fint *f_index, MPI_Fint *f_edges, MPI_Fint *ierr) {
  CLC_FRESOLVE(graph_get);
  if (!CLC_ON()) { real_graph_get(f_comm, f_maxindex, f_maxedges, f_index, f_edges, ierr); return; }
  clc_enter(R_MPI_Graph_get);
  real_graph_get(f_comm, f_maxindex, f_maxedges, f_index, f_edges, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_graph_get, MPI_GRAPH_GET);
CLC_FALIAS(clc_f_graph_get, mpi_graph_get);
CLC_FALIAS(clc_f_graph_get, mpi_graph_get_);
CLC_FALIAS(clc_f_graph_get, mpi_graph_get__);
CLC_FALIAS(clc_f_graph_get, ompi_graph_get_f);
CLC_FALIAS(clc_f_graph_get, pmpi_graph_get_);

CLC_FREAL(graph_map, (MPI_Fint *f_comm, MPI_Fint *f_nnodes, MPI_Fint *f_index, MPI_Fint *f_edges, MPI_Fint *f_newrank, MPI_Fint *ierr))
void clc_f_graph_map(MPI_Fint *f_comm, MPI_Fint *f_nnodes, MPI_Fint *f_index, MPI_Fint *f_edges, MPI_Fint *f_newrank, MPI_Fint *ierr) {
  CLC_FRESOLVE(graph_map);
  if (!CLC_ON()) { real_graph_map(f_comm, f_nnodes, f_index, f_edges, f_newrank, ierr); return; }
  clc_enter(R_MPI_Graph_map);
  real_graph_map(f_comm, f_nnodes, f_index, f_edges, f_newrank, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_graph_map, MPI_GRAPH_MAP);
CLC_FALIAS(clc_f_graph_map, mpi_graph_map);
CLC_FALIAS(clc_f_graph_map, mpi_graph_map_);
CLC_FALIAS(clc_f_graph_map, mpi_graph_map__);
CLC_FALIAS(clc_f_graph_map, ompi_graph_map_f);
CLC_FALIAS(clc_f_graph_map, pmpi_graph_map_);

CLC_FREAL(graph_neighbors, (MPI_Fint *f_comm, MPI_Fint *f_rank, MPI_Fint *f_maxneighbors, MPI_Fint *f_neighbors, MPI_Fint *ierr))
void clc_f_graph_neighbors(MPI_Fint *f_comm, MPI_Fint *f_rank, MPI_Fint *f_maxneighbors, MPI_Fint *f_neighbors, MPI_Fint *ierr) {
  CLC_FRESOLVE(graph_neighbors);
  if (!CLC_ON()) { real_graph_neighbors(f_comm, f_rank, f_maxneighbors, f_neighbors, ierr); return; }
  clc_enter(R_MPI_Graph_neighbors);
  real_graph_neighbors(f_comm, f_rank, f_maxneighbors, f_neighbors, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_graph_neighbors, MPI_GRAPH_NEIGHBORS);
CLC_FALIAS(clc_f_graph_neighbors, mpi_graph_neighbors);
CLC_FALIAS(clc_f_graph_neighbors, mpi_graph_neighbors_);
CLC_FALIAS(clc_f_graph_neighbors, mpi_graph_neighbors__);
CLC_FALIAS(clc_f_graph_neighbors, ompi_graph_neighbors_f);
CLC_FALIAS(clc_f_graph_neighbors, pmpi_graph_neighbors_);

CLC_FREAL(graph_neighbors_count, (MPI_Fint *f_comm, MPI_Fint *f_rank, MPI_Fint *f_nneighbors, MPI_Fint *ierr))
void clc_f_graph_neighbors_count(MPI_Fint *f_comm, MPI_Fint *f_rank, MPI_Fint *f_nneighbors, MPI_Fint *ierr) {
  CLC_FRESOLVE(graph_neighbors_count);
  if (!CLC_ON()) { real_graph_neighbors_count(f_comm, f_rank, f_nneighbors, ierr); return; }
  clc_enter(R_MPI_Graph_neighbors_count);
  real_graph_neighbors_count(f_comm, f_rank, f_nneighbors, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_graph_neighbors_count, MPI_GRAPH_NEIGHBORS_COUNT);
CLC_FALIAS(clc_f_graph_neighbors_count, mpi_graph_neighbors_count);
CLC_FALIAS(clc_f_graph_neighbors_count, mpi_graph_neighbors_count_);
CLC_FALIAS(clc_f_graph_neighbors_count, mpi_graph_neighbors_count__);
CLC_FALIAS(clc_f_graph_neighbors_count, ompi_graph_neighbors_count_f);
CLC_FALIAS(clc_f_graph_neighbors_count, pmpi_graph_neighbors_count_);

CLC_FREAL(graphdims_get, (MPI_Fint *f_comm, MPI_Fint *f_nnodes, MPI_Fint *f_nedges, MPI_Fint *ierr))
void clc_f_graphdims_get(MPI_Fint *f_comm, MPI_Fint *f_nnodes, MPI_Fint *f_nedges, MPI_Fint *ierr) {
  CLC_FRESOLVE(graphdims_get);
  if (!CLC_ON()) { real_graphdims_get(f_comm, f_nnodes, f_nedges, ierr); return; }
  clc_enter(R_MPI_Graphdims_get);
  real_graphdims_get(f_comm, f_nnodes, f_nedges, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_graphdims_get, MPI_GRAPHDIMS_GET);
CLC_FALIAS(clc_f_graphdims_get, mpi_graphdims_get);
CLC_FALIAS(clc_f_graphdims_get, mpi_graphdims_get_);
CLC_FALIAS(clc_f_graphdims_get, mpi_graphdims_get__);
CLC_FALIAS(clc_f_graphdims_get, ompi_graphdims_get_f);
CLC_FALIAS(clc_f_graphdims_get, pmpi_graphdims_get_);

CLC_FREAL(dist_graph_neighbors, (MPI_Fint *f_comm, MPI_Fint *f_maxindegree, MPI_Fint *f_sources, MPI_Fint *f_sourceweights, MPI_Fint *f_maxoutdegree, MPI_Fint *f_destinations, MPI_Fint *f_destweights, MPI_Fint *ierr))
void clc_f_dist_graph_neighbors(MPI_Fint *f_comm, MPI_Fint *f_maxindegree, MPI_Fint *f_sources, MPI_Fint *f_sourceweights, MPI_Fint *f_maxoutdegree, MPI_Fint *f_destinations, MPI_Fint *f_destweights, MPI_Fint *ierr) {
  CLC_FRESOLVE(dist_graph_neighbors);
  if (!CLC_ON()) { real_dist_graph_neighbors(f_comm, f_maxindegree, f_sources, f_sourceweights, f_maxoutdegree, f_destinations, f_destweights, ierr); return; }
  clc_enter(R_MPI_Dist_graph_neighbors);
  real_dist_graph_neighbors(f_comm, f_maxindegree, f_sources, f_sourceweights, f_maxoutdegree, f_destinations, f_destweights, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_dist_graph_neighbors, MPI_DIST_GRAPH_NEIGHBORS);
CLC_FALIAS(clc_f_dist_graph_neighbors, mpi_dist_graph_neighbors);
CLC_FALIAS(clc_f_dist_graph_neighbors, mpi_dist_graph_neighbors_);
CLC_FALIAS(clc_f_dist_graph_neighbors, mpi_dist_graph_neighbors__);
CLC_FALIAS(clc_f_dist_graph_neighbors, ompi_dist_graph_neighbors_f);
CLC_FALIAS(clc_f_dist_graph_neighbors, pmpi_dist_graph_neighbors_);

CLC_FREAL(dist_graph_neighbors_count, (MPI_Fint *f_comm, MPI_Fint *f_inneighbors, MPI_Fint *f_outneighbors, MPI_Fint *f_weighted, MPI_Fint *ierr))
void clc_f_dist_graph_neighbors_count(MPI_Fint *f_comm, MPI_Fint *f_inneighbors, MPI_Fint *f_outneighbors, MPI_Fint *f_weighted, MPI_Fint *ierr) {
  CLC_FRESOLVE(dist_graph_neighbors_count);
  if (!CLC_ON()) { real_dist_graph_neighbors_count(f_comm, f_inneighbors, f_outneighbors, f_weighted, ierr); return; }
  clc_enter(R_MPI_Dist_graph_neighbors_count);
  real_dist_graph_neighbors_count(f_comm, f_inneighbors, f_outneighbors, f_weighted, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_dist_graph_neighbors_count, MPI_DIST_GRAPH_NEIGHBORS_COUNT);
CLC_FALIAS(clc_f_dist_graph_neighbors_count, mpi_dist_graph_neighbors_count);
CLC_FALIAS(clc_f_dist_graph_neighbors_count, mpi_dist_graph_neighbors_count_);
CLC_FALIAS(clc_f_dist_graph_neighbors_count, mpi_dist_graph_neighbors_count__);
CLC_FALIAS(clc_f_dist_graph_neighbors_count, ompi_dist_graph_neighbors_count_f);
CLC_FALIAS(clc_f_dist_graph_neighbors_count, pmpi_dist_graph_neighbors_count_);

CLC_FREAL(topo_test, (MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_topo_test(MPI_Fint *f_comm, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(topo_test);
  if (!CLC_ON()) { real_topo_test(f_comm, f_status, ierr); return; }
  clc_enter(R_MPI_Topo_test);
  real_topo_test(f_comm, f_status, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_topo_test, MPI_TOPO_TEST);
CLC_FALIAS(clc_f_topo_test, mpi_topo_test);
CLC_FALIAS(clc_f_topo_test, mpi_topo_test_);
CLC_FALIAS(clc_f_topo_test, mpi_topo_test__);
CLC_FALIAS(clc_f_topo_test, ompi_topo_test_f);
CLC_FALIAS(clc_f_topo_test, pmpi_topo_test_);

CLC_FREAL(comm_dup, (MPI_Fint *f_comm, MPI_Fint *f_newcomm, MPI_Fint *ierr))
void clc_f_comm_dup(MPI_Fint *f_comm, MPI_Fint *f_newcomm, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_dup);
  if (!CLC_ON()) { real_comm_dup(f_comm, f_newcomm, ierr); return; }
  clc_enter(R_MPI_Comm_dup);
  MPI_Comm newcomm_v, *newcomm = &newcomm_v;
  real_comm_dup(f_comm, f_newcomm, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  newcomm_v = MPI_Comm_f2c(*f_newcomm);
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_dup");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_dup, MPI_COMM_DUP);
CLC_FALIAS(clc_f_comm_dup, mpi_comm_dup);
CLC_FALIAS(clc_f_comm_dup, mpi_comm_dup_);
CLC_FALIAS(clc_f_comm_dup, mpi_comm_dup__);
CLC_FALIAS(clc_f_comm_dup, ompi_comm_dup_f);
CLC_FALIAS(clc_f_comm_dup, pmpi_comm_dup_);

CLC_FREAL(comm_dup_with_info, (MPI_Fint *f_comm, MPI_Fint *f_info, MPI_Fint *f_newcomm, MPI_Fint *ierr))
void clc_f_comm_dup_with_info(MPI_Fint *f_comm, MPI_Fint *f_info, MPI_Fint *f_newcomm, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_dup_with_info);
  if (!CLC_ON()) { real_comm_dup_with_info(f_comm, f_info, f_newcomm, ierr); return; }
  clc_enter(R_MPI_Comm_dup_with_info);
  MPI_Comm newcomm_v, *newcomm = &newcomm_v;
  real_comm_dup_with_info(f_comm, f_info, f_newcomm, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  newcomm_v = MPI_Comm_f2c(*f_newcomm);
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_dup_with_info");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_dup_with_info, MPI_COMM_DUP_WITH_INFO);
CLC_FALIAS(clc_f_comm_dup_with_info, mpi_comm_dup_with_info);
CLC_FALIAS(clc_f_comm_dup_with_info, mpi_comm_dup_with_info_);
CLC_FALIAS(clc_f_comm_dup_with_info, mpi_comm_dup_with_info__);
CLC_FALIAS(clc_f_comm_dup_with_info, ompi_comm_dup_with_info_f);
CLC_FALIAS(clc_f_comm_dup_with_info, pmpi_comm_dup_with_info_);

CLC_FREAL(comm_idup, (MPI_Fint *f_comm, MPI_Fint *f_newcomm, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_comm_idup(MPI_Fint *f_comm, MPI_Fint *f_newcomm, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_idup);
  if (!CLC_ON()) { real_comm_idup(f_comm, f_newcomm, f_request, ierr); return; }
  clc_enter(R_MPI_Comm_idup);
  real_comm_idup(f_comm, f_newcomm, f_request, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_idup, MPI_COMM_IDUP);
CLC_FALIAS(clc_f_comm_idup, mpi_comm_idup);
CLC_FALIAS(clc_f_comm_idup, mpi_comm_idup_);
CLC_FALIAS(clc_f_comm_idup, mpi_comm_idup__);
CLC_FALIAS(clc_f_comm_idup, ompi_comm_idup_f);
CLC_FALIAS(clc_f_comm_idup, pmpi_comm_idup_);

CLC_FREAL(comm_split, (MPI_Fint *f_comm, MPI_Fint *f_color, MPI_Fint *f_key, MPI_Fint *f_newcomm, MPI_Fint *ierr))
void clc_f_comm_split(MPI_Fint *f_comm, MPI_Fint *f_color, MPI_Fint *f_key, MPI_Fint *f_newcomm, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_split);
  if (!CLC_ON()) { real_comm_split(f_comm, f_color, f_key, f_newcomm, ierr); return; }
  clc_enter(R_MPI_Comm_split);
  MPI_Comm newcomm_v, *newcomm = &newcomm_v;
  real_comm_split(f_comm, f_color, f_key, f_newcomm, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  newcomm_v = MPI_Comm_f2c(*f_newcomm);
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_split");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_split, MPI_COMM_SPLIT);
CLC_FALIAS(clc_f_comm_split, mpi_comm_split);
CLC_FALIAS(clc_f_comm_split, mpi_comm_split_);
CLC_FALIAS(clc_f_comm_split, mpi_comm_split__);
CLC_FALIAS(clc_f_comm_split, ompi_comm_split_f);
CLC_FALIAS(clc_f_comm_split, pmpi_comm_split_);

CLC_FREAL(comm_split_type, (MPI_Fint *f_comm, MPI_Fint *f_split_type, MPI_Fint *f_key, MPI_Fint *f_info, MPI_Fint *f_newcomm, MPI_Fint *ierr))
void clc_f_comm_split_type(MPI_Fint *f_comm, MPI_Fint *f_split_type, MPI_Fint *f_key, MPI_Fint *f_info, MPI_Fint *f_newcomm, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_split_type);
  if (!CLC_ON()) { real_comm_split_type(f_comm, f_split_type, f_key, f_info, f_newcomm, ierr); return; }
  clc_enter(R_MPI_Comm_split_type);
  MPI_Comm newcomm_v, *newcomm = &newcomm_v;
  real_comm_split_type(f_comm, f_split_type, f_key, f_info, f_newcomm, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  newcomm_v = MPI_Comm_f2c(*f_newcomm);
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_split_type");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_split_type, MPI_COMM_SPLIT_TYPE);
CLC_FALIAS(clc_f_comm_split_type, mpi_comm_split_type);
CLC_FALIAS(clc_f_comm_split_type, mpi_comm_split_type_);
CLC_FALIAS(clc_f_comm_split_type, mpi_comm_split_type__);
CLC_FALIAS(clc_f_comm_split_type, ompi_comm_split_type_f);
CLC_FALIAS(clc_f_comm_split_type, pmpi_comm_split_type_);

CLC_FREAL(comm_create, (MPI_Fint *f_comm, MPI_Fint *f_group, MPI_Fint *f_newcomm, MPI_Fint *ierr))
void clc_f_comm_create(MPI_Fint *f_comm, MPI_Fint *f_group, MPI_Fint *f_newcomm, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_create);
  if (!CLC_ON()) { real_comm_create(f_comm, f_group, f_newcomm, ierr); return; }
  clc_enter(R_MPI_Comm_create);
  MPI_Comm newcomm_v, *newcomm = &newcomm_v;
  real_comm_create(f_comm, f_group, f_newcomm, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  newcomm_v = MPI_Comm_f2c(*f_newcomm);
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_create");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_create, MPI_COMM_CREATE);
CLC_FALIAS(clc_f_comm_create, mpi_comm_create);
CLC_FALIAS(clc_f_comm_create, mpi_comm_create_);
CLC_FALIAS(clc_f_comm_create, mpi_comm_create__);
CLC_FALIAS(clc_f_comm_create, ompi_comm_create_f);
CLC_FALIAS(clc_f_comm_create, pmpi_comm_create_);

CLC_FREAL(comm_create_group, (MPI_Fint *f_comm, MPI_Fint *f_group, MPI_Fint *f_tag, MPI_Fint *f_newcomm, MPI_Fint *ierr))
void clc_f_comm_create_group(MPI_Fint *f_comm, MPI_Fint *f_group, MPI_Fint *f_tag, MPI_Fint *f_newcomm, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_create_group);
  if (!CLC_ON()) { real_comm_create_group(f_comm, f_group, f_tag, f_newcomm, ierr); return; }
  clc_enter(R_MPI_Comm_create_group);
  MPI_Comm newcomm_v, *newcomm = &newcomm_v;
  real_comm_create_group(f_comm, f_group, f_tag, f_newcomm, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  newcomm_v = MPI_Comm_f2c(*f_newcomm);
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_create_group");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_create_group, MPI_COMM_CREATE_GROUP);
CLC_FALIAS(clc_f_comm_create_group, mpi_comm_create_group);
CLC_FALIAS(clc_f_comm_create_group, mpi_comm_create_group_);
CLC_FALIAS(clc_f_comm_create_group, mpi_comm_create_group__);
CLC_FALIAS(clc_f_comm_create_group, ompi_comm_create_group_f);
CLC_FALIAS(clc_f_comm_create_group, pmpi_comm_create_group_);

CLC_FREAL(comm_free, (MPI_Fint *f_comm, MPI_Fint *ierr))
void clc_f_comm_free(MPI_Fint *f_comm, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_free);
  if (!CLC_ON()) { real_comm_free(f_comm, ierr); return; }
  const int64_t t0 = clc_enter(R_MPI_Comm_free);
  MPI_Comm comm_v, *comm = &comm_v;
  comm_v = MPI_Comm_f2c(*f_comm);
  h_comm_free(*comm, t0);
  real_comm_free(f_comm, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_free, MPI_COMM_FREE);
CLC_FALIAS(clc_f_comm_free, mpi_comm_free);
CLC_FALIAS(clc_f_comm_free, mpi_comm_free_);
CLC_FALIAS(clc_f_comm_free, mpi_comm_free__);
CLC_FALIAS(clc_f_comm_free, ompi_comm_free_f);
CLC_FALIAS(clc_f_comm_free, pmpi_comm_free_);

CLC_FREAL(comm_compare, (MPI_Fint *f_comm1, MPI_Fint *f_comm2, MPI_Fint *f_result, MPI_Fint *ierr))
void clc_f_comm_compare(MPI_Fint *f_comm1, MPI_Fint *f_comm2, MPI_Fint *f_result, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_compare);
  if (!CLC_ON()) { real_comm_compare(f_comm1, f_comm2, f_result, ierr); return; }
  clc_enter(R_MPI_Comm_compare);
  real_comm_compare(f_comm1, f_comm2, f_result, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_compare, MPI_COMM_COMPARE);
CLC_FALIAS(clc_f_comm_compare, mpi_comm_compare);
CLC_FALIAS(clc_f_comm_compare, mpi_comm_compare_);
CLC_FALIAS(clc_f_comm_compare, mpi_comm_compare__);
CLC_FALIAS(clc_f_comm_compare, ompi_comm_compare_f);
CLC_FALIAS(clc_f_comm_compare, pmpi_comm_compare_);

CLC_FREAL(comm_group, (MPI_Fint *f_comm, MPI_Fint *f_group, MPI_Fint *ierr))
void clc_f_comm_group(MPI_Fint *f_comm, MPI_Fint *f_group, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_group);
  if (!CLC_ON()) { real_comm_group(f_comm, f_group, ierr); return; }
  clc_enter(R_MPI_Comm_group);
  real_comm_group(f_comm, f_group, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_group, MPI_COMM_GROUP);
CLC_FALIAS(clc_f_comm_group, mpi_comm_group);
CLC_FALIAS(clc_f_comm_group, mpi_comm_group_);
CLC_FALIAS(clc_f_comm_group, mpi_comm_group__);
CLC_FALIAS(clc_f_comm_group, ompi_comm_group_f);
CLC_FALIAS(clc_f_comm_group, pmpi_comm_group_);

CLC_FREAL(comm_rank, (MPI_Fint *f_comm, MPI_Fint *f_rank, MPI_Fint *ierr))
void clc_f_comm_rank(MPI_Fint *f_comm, MPI_Fint *f_rank, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_rank);
  if (!CLC_ON()) { real_comm_rank(f_comm, f_rank, ierr); return; }
  clc_enter(R_MPI_Comm_rank);
  real_comm_rank(f_comm, f_rank, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_rank, MPI_COMM_RANK);
CLC_FALIAS(clc_f_comm_rank, mpi_comm_rank);
CLC_FALIAS(clc_f_comm_rank, mpi_comm_rank_);
CLC_FALIAS(clc_f_comm_rank, mpi_comm_rank__);
CLC_FALIAS(clc_f_comm_rank, ompi_comm_rank_f);
CLC_FALIAS(clc_f_comm_rank, pmpi_comm_rank_);

CLC_FREAL(comm_size, (MPI_Fint *f_comm, MPI_Fint *f_size, MPI_Fint *ierr))
void clc_f_comm_size(MPI_Fint *f_comm, MPI_Fint *f_size, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_size);
  if (!CLC_ON()) { real_comm_size(f_comm, f_size, ierr); return; }
  clc_enter(R_MPI_Comm_size);
  real_comm_size(f_comm, f_size, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_size, MPI_COMM_SIZE);
CLC_FALIAS(clc_f_comm_size, mpi_comm_size);
CLC_FALIAS(clc_f_comm_size, mpi_comm_size_);
CLC_FALIAS(clc_f_comm_size, mpi_comm_size__);
CLC_FALIAS(clc_f_comm_size, ompi_comm_size_f);
CLC_FALIAS(clc_f_comm_size, pmpi_comm_size_);

CLC_FREAL(comm_remote_group, (MPI_Fint *f_comm, MPI_Fint *f_group, MPI_Fint *ierr))
void clc_f_comm_remote_group(MPI_Fint *f_comm, MPI_Fint *f_group, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_remote_group);
  if (!CLC_ON()) { real_comm_remote_group(f_comm, f_group, ierr); return; }
  clc_enter(R_MPI_Comm_remote_group);
  real_comm_remote_group(f_comm, f_group, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_remote_group, MPI_COMM_REMOTE_GROUP);
CLC_FALIAS(clc_f_comm_remote_group, mpi_comm_remote_group);
CLC_FALIAS(clc_f_comm_remote_group, mpi_comm_remote_group_);
CLC_FALIAS(clc_f_comm_remote_group, mpi_comm_remote_group__);
CLC_FALIAS(clc_f_comm_remote_group, ompi_comm_remote_group_f);
CLC_FALIAS(clc_f_comm_remote_group, pmpi_comm_remote_group_);

CLC_FREAL(comm_remote_size, (MPI_Fint *f_comm, MPI_Fint *f_size, MPI_Fint *ierr))
void clc_f_comm_remote_size(MPI_Fint *f_comm, MPI_Fint *f_size, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_remote_size);
  if (!CLC_ON()) { real_comm_remote_size(f_comm, f_size, ierr); return; }
  clc_enter(R_MPI_Comm_remote_size);
  real_comm_remote_size(f_comm, f_size, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_remote_size, MPI_COMM_REMOTE_SIZE);
CLC_FALIAS(clc_f_comm_remote_size, mpi_comm_remote_size);
CLC_FALIAS(clc_f_comm_remote_size, mpi_comm_remote_size_);
CLC_FALIAS(clc_f_comm_remote_size, mpi_comm_remote_size__);
CLC_FALIAS(clc_f_comm_remote_size, ompi_comm_remote_size_f);
CLC_FALIAS(clc_f_comm_remote_size, pmpi_comm_remote_size_);

CLC_FREAL(comm_test_inter, (MPI_Fint *f_comm, MPI_Fint *f_flag, MPI_Fint *ierr))
void clc_f_comm_test_inter(MPI_Fint *f_comm, MPI_Fint *f_flag, MPI_Fint *ierr) {
  CLC_FRESOLVE(comm_test_inter);
  if (!CLC_ON()) { real_comm_test_inter(f_comm, f_flag, ierr); return; }
  clc_enter(R_MPI_Comm_test_inter);
  real_comm_test_inter(f_comm, f_flag, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_comm_test_inter, MPI_COMM_TEST_INTER);
CLC_FALIAS(clc_f_comm_test_inter, mpi_comm_test_inter);
CLC_FALIAS(clc_f_comm_test_inter, mpi_comm_test_inter_);
CLC_FALIAS(clc_f_comm_test_inter, mpi_comm_test_inter__);
CLC_FALIAS(clc_f_comm_test_inter, ompi_comm_test_inter_f);
CLC_FALIAS(clc_f_comm_test_inter, pmpi_comm_test_inter_);

CLC_FREAL(intercomm_create, (MPI_Fint *f_local_comm, MPI_Fint *f_local_leader, MPI_Fint *f_bridge_comm, MPI_Fint *f_remote_leader, MPI_Fint *f_tag, MPI_Fint *f_newintercomm, MPI_Fint *ierr))
void clc_f_intercomm_create(MPI_Fint *f_local_comm, MPI_Fint *f_local_leader, MPI_Fint *f_bridge_comm, MPI_Fint *f_remote_leader, MPI_Fint *f_tag, MPI_Fint *f_newintercomm, MPI_Fint *ierr) {
  CLC_FRESOLVE(intercomm_create);
  if (!CLC_ON()) { real_intercomm_create(f_local_comm, f_local_leader, f_bridge_comm, f_remote_leader, f_tag, f_newintercomm, ierr); return; }
  clc_enter(R_MPI_Intercomm_create);
  real_intercomm_create(f_local_comm, f_local_leader, f_bridge_comm, f_remote_leader, f_tag, f_newintercomm, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_intercomm_create, MPI_INTERCOMM_CREATE);
CLC_FALIAS(clc_f_intercomm_create, mpi_intercomm_create);
CLC_FALIAS(clc_f_intercomm_create, mpi_intercomm_create_);
CLC_FALIAS(clc_f_intercomm_create, mpi_intercomm_create__);
CLC_FALIAS(clc_f_intercomm_create, ompi_intercomm_create_f);
CLC_FALIAS(clc_f_intercomm_create, pmpi_intercomm_create_);

CLC_FREAL(intercomm_merge, (MPI_Fint *f_intercomm, MPI_Fint *f_high, MPI_Fint *f_newintercomm, MPI_Fint *ierr))
void clc_f_intercomm_merge(MPI_Fint *f_intercomm, MPI_Fint *f_high, MPI_Fint *f_newintercomm, MPI_Fint *ierr) {
  CLC_FRESOLVE(intercomm_merge);
  if (!CLC_ON()) { real_intercomm_merge(f_intercomm, f_high, f_newintercomm, ierr); return; }
  clc_enter(R_MPI_Intercomm_merge);
  MPI_Comm newintercomm_v, *newintercomm = &newintercomm_v;
  real_intercomm_merge(f_intercomm, f_high, f_newintercomm, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  newintercomm_v = MPI_Comm_f2c(*f_newintercomm);
  h_newcomm(t1, rc, *newintercomm, "MPI_Intercomm_merge");
  clc_leave(t1);
}
CLC_FALIAS(clc_f_intercomm_merge, MPI_INTERCOMM_MERGE);
CLC_FALIAS(clc_f_intercomm_merge, mpi_intercomm_merge);
CLC_FALIAS(clc_f_intercomm_merge, mpi_intercomm_merge_);
CLC_FALIAS(clc_f_intercomm_merge, mpi_intercomm_merge__);
CLC_FALIAS(clc_f_intercomm_merge, ompi_intercomm_merge_f);
CLC_FALIAS(clc_f_intercomm_merge, pmpi_intercomm_merge_);

CLC_FREAL(group_compare, (MPI_Fint *f_group1, MPI_Fint *f_group2, MPI_Fint *f_result, MPI_Fint *ierr))
void clc_f_group_compare(MPI_Fint *f_group1, MPI_Fint *f_group2, MPI_Fint *f_result, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_compare);
  if (!CLC_ON()) { real_group_compare(f_group1, f_group2, f_result, ierr); return; }
  clc_enter(R_MPI_Group_compare);
  real_group_compare(f_group1, f_group2, f_result, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_compare, MPI_GROUP_COMPARE);
CLC_FALIAS(clc_f_group_compare, mpi_group_compare);
CLC_FALIAS(clc_f_group_compare, mpi_group_compare_);
CLC_FALIAS(clc_f_group_compare, mpi_group_compare__);
CLC_FALIAS(clc_f_group_compare, ompi_group_compare_f);
CLC_FALIAS(clc_f_group_compare, pmpi_group_compare_);

CLC_FREAL(group_difference, (MPI_Fint *f_group1, MPI_Fint *f_group2, MPI_Fint *f_newgroup, MPI_Fint *ierr))
void clc_f_group_difference(MPI_Fint *f_group1, MPI_Fint *f_group2, MPI_Fint *f_newgroup, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_difference);
  if (!CLC_ON()) { real_group_difference(f_group1, f_group2, f_newgroup, ierr); return; }
  clc_enter(R_MPI_Group_difference);
  real_group_difference(f_group1, f_group2, f_newgroup, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_difference, MPI_GROUP_DIFFERENCE);
CLC_FALIAS(clc_f_group_difference, mpi_group_difference);
CLC_FALIAS(clc_f_group_difference, mpi_group_difference_);
CLC_FALIAS(clc_f_group_difference, mpi_group_difference__);
CLC_FALIAS(clc_f_group_difference, ompi_group_difference_f);
CLC_FALIAS(clc_f_group_difference, pmpi_group_difference_);

CLC_FREAL(group_excl, (MPI_Fint *f_group, MPI_Fint *f_n, MPI_Fint *f_ranks, MPI_Fint *f_newgroup, MPI_Fint *ierr))
void clc_f_group_excl(MPI_Fint *f_group, MPI_Fint *f_n, MPI_Fint *f_ranks, MPI_Fint *f_newgroup, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_excl);
  if (!CLC_ON()) { real_group_excl(f_group, f_n, f_ranks, f_newgroup, ierr); return; }
  clc_enter(R_MPI_Group_excl);
  real_group_excl(f_group, f_n, f_ranks, f_newgroup, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_excl, MPI_GROUP_EXCL);
CLC_FALIAS(clc_f_group_excl, mpi_group_excl);
CLC_FALIAS(clc_f_group_excl, mpi_group_excl_);
CLC_FALIAS(clc_f_group_excl, mpi_group_excl__);
CLC_FALIAS(clc_f_group_excl, ompi_group_excl_f);
CLC_FALIAS(clc_f_group_excl, pmpi_group_excl_);

CLC_FREAL(group_free, (MPI_Fint *f_group, MPI_Fint *ierr))
void clc_f_group_free(MPI_Fint *f_group, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_free);
  if (!CLC_ON()) { real_group_free(f_group, ierr); return; }
  clc_enter(R_MPI_Group_free);
  real_group_free(f_group, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_free, MPI_GROUP_FREE);
CLC_FALIAS(clc_f_group_free, mpi_group_free);
CLC_FALIAS(clc_f_group_free, mpi_group_free_);
CLC_FALIAS(clc_f_group_free, mpi_group_free__);
CLC_FALIAS(clc_f_group_free, ompi_group_free_f);
CLC_FALIAS(clc_f_group_free, pmpi_group_free_);

CLC_FREAL(group_incl, (MPI_Fint *f_group, MPI_Fint *f_n, MPI_Fint *f_ranks, MPI_Fint *f_newgroup, MPI_Fint *ierr))
void clc_f_group_incl(MPI_Fint *f_group, MPI_Fint *f_n, MPI_Fint *f_ranks, MPI_Fint *f_newgroup, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_incl);
  if (!CLC_ON()) { real_group_incl(f_group, f_n, f_ranks, f_newgroup, ierr); return; }
  clc_enter(R_MPI_Group_incl);
  real_group_incl(f_group, f_n, f_ranks, f_newgroup, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_incl, MPI_GROUP_INCL);
CLC_FALIAS(clc_f_group_incl, mpi_group_incl);
CLC_FALIAS(clc_f_group_incl, mpi_group_incl_);
CLC_FALIAS(clc_f_group_incl, mpi_group_incl__);
CLC_FALIAS(clc_f_group_incl, ompi_group_incl_f);
CLC_FALIAS(clc_f_group_incl, pmpi_group_incl_);

CLC_FREAL(group_intersection, (MPI_Fint *f_group1, MPI_Fint *f_group2, MPI_Fint *f_newgroup, MPI_Fint *ierr))
void clc_f_group_intersection(MPI_Fint *f_group1, MPI_Fint *f_group2, MPI_Fint *f_newgroup, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_intersection);
  if (!CLC_ON()) { real_group_intersection(f_group1, f_group2, f_newgroup, ierr); return; }
  clc_enter(R_MPI_Group_intersection);
  real_group_intersection(f_group1, f_group2, f_newgroup, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_intersection, MPI_GROUP_INTERSECTION);
CLC_FALIAS(clc_f_group_intersection, mpi_group_intersection);
CLC_FALIAS(clc_f_group_intersection, mpi_group_intersection_);
CLC_FALIAS(clc_f_group_intersection, mpi_group_intersection__);
CLC_FALIAS(clc_f_group_intersection, ompi_group_intersection_f);
CLC_FALIAS(clc_f_group_intersection, pmpi_group_intersection_);

CLC_FREAL(group_range_excl, (MPI_Fint *f_group, MPI_Fint *f_n, MPI_Fint *f_ranges, MPI_Fint *f_newgroup, MPI_Fint *ierr))
void clc_f_group_range_excl(MPI_Fint *f_group, MPI_Fint *f_n, MPI_Fint *f_ranges, MPI_Fint *f_newgroup, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_range_excl);
  if (!CLC_ON()) { real_group_range_excl(f_group, f_n, f_ranges, f_newgroup, ierr); return; }
  clc_enter(R_MPI_Group_range_excl);
  real_group_range_excl(f_group, f_n, f_ranges, f_newgroup, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_range_excl, MPI_GROUP_RANGE_EXCL);
CLC_FALIAS(clc_f_group_range_excl, mpi_group_range_excl);
CLC_FALIAS(clc_f_group_range_excl, mpi_group_range_excl_);
CLC_FALIAS(clc_f_group_range_excl, mpi_group_range_excl__);
CLC_FALIAS(clc_f_group_range_excl, ompi_group_range_excl_f);
CLC_FALIAS(clc_f_group_range_excl, pmpi_group_range_excl_);

CLC_FREAL(group_range_incl, (MPI_Fint *f_group, MPI_Fint *f_n, MPI_Fint *f_ranges, MPI_Fint *f_newgroup, MPI_Fint *ierr))
void clc_f_group_range_incl(MPI_Fint *f_group, MPI_Fint *f_n, MPI_Fint *f_ranges, MPI_Fint *f_newgroup, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_range_incl);
  if (!CLC_ON()) { real_group_range_incl(f_group, f_n, f_ranges, f_newgroup, ierr); return; }
  clc_enter(R_MPI_Group_range_incl);
  real_group_range_incl(f_group, f_n, f_ranges, f_newgroup, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_range_incl, MPI_GROUP_RANGE_INCL);
CLC_FALIAS(clc_f_group_range_incl, mpi_group_range_incl);
CLC_FALIAS(clc_f_group_range_incl, mpi_group_range_incl_);
CLC_FALIAS(clc_f_group_range_incl, mpi_group_range_incl__);
CLC_FALIAS(clc_f_group_range_incl, ompi_group_range_incl_f);
CLC_FALIAS(clc_f_group_range_incl, pmpi_group_range_incl_);

CLC_FREAL(group_rank, (MPI_Fint *f_group, MPI_Fint *f_rank, MPI_Fint *ierr))
void clc_f_group_rank(MPI_Fint *f_group, MPI_Fint *f_rank, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_rank);
  if (!CLC_ON()) { real_group_rank(f_group, f_rank, ierr); return; }
  clc_enter(R_MPI_Group_rank);
  real_group_rank(f_group, f_rank, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_rank, MPI_GROUP_RANK);
CLC_FALIAS(clc_f_group_rank, mpi_group_rank);
CLC_FALIAS(clc_f_group_rank, mpi_group_rank_);
CLC_FALIAS(clc_f_group_rank, mpi_group_rank__);
CLC_FALIAS(clc_f_group_rank, ompi_group_rank_f);
CLC_FALIAS(clc_f_group_rank, pmpi_group_rank_);

CLC_FREAL(group_size, (MPI_Fint *f_group, MPI_Fint *f_size, MPI_Fint *ierr))
void clc_f_group_size(MPI_Fint *f_group, MPI_Fint *f_size, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_size);
  if (!CLC_ON()) { real_group_size(f_group, f_size, ierr); return; }
  clc_enter(R_MPI_Group_size);
  real_group_size(f_group, f_size, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_size, MPI_GROUP_SIZE);
CLC_FALIAS(clc_f_group_size, mpi_group_size);
CLC_FALIAS(clc_f_group_size, mpi_group_size_);
CLC_FALIAS(clc_f_group_size, mpi_group_size__);
CLC_FALIAS(clc_f_group_size, ompi_group_size_f);
CLC_FALIAS(clc_f_group_size, pmpi_group_size_);

CLC_FREAL(group_translate_ranks, (MPI_Fint *f_group1, MPI_Fint *f_n, MPI_Fint *f_ranks1, MPI_Fint *f_group2, MPI_Fint *f_ranks2, MPI_Fint *ierr))
void clc_f_group_translate_ranks(MPI_Fint *f_group1, MPI_Fint *f_n, MPI_Fint *f_ranks1, MPI_Fint *f_group2, MPI_Fint *f_ranks2, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_translate_ranks);
  if (!CLC_ON()) { real_group_translate_ranks(f_group1, f_n, f_ranks1, f_group2, f_ranks2, ierr); return; }
  clc_enter(R_MPI_Group_translate_ranks);
  real_group_translate_ranks(f_group1, f_n, f_ranks1, f_group2, f_ranks2, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_translate_ranks, MPI_GROUP_TRANSLATE_RANKS);
CLC_FALIAS(clc_f_group_translate_ranks, mpi_group_translate_ranks);
CLC_FALIAS(clc_f_group_translate_ranks, mpi_group_translate_ranks_);
CLC_FALIAS(clc_f_group_translate_ranks, mpi_group_translate_ranks__);
CLC_FALIAS(clc_f_group_translate_ranks, ompi_group_translate_ranks_f);
CLC_FALIAS(clc_f_group_translate_ranks, pmpi_group_translate_ranks_);

CLC_FREAL(group_union, (MPI_Fint *f_group1, MPI_Fint *f_group2, MPI_Fint *f_newgroup, MPI_Fint *ierr))
void clc_f_group_union(MPI_Fint *f_group1, MPI_Fint *f_group2, MPI_Fint *f_newgroup, MPI_Fint *ierr) {
  CLC_FRESOLVE(group_union);
  if (!CLC_ON()) { real_group_union(f_group1, f_group2, f_newgroup, ierr); return; }
  clc_enter(R_MPI_Group_union);
  real_group_union(f_group1, f_group2, f_newgroup, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_group_union, MPI_GROUP_UNION);
CLC_FALIAS(clc_f_group_union, mpi_group_union);
CLC_FALIAS(clc_f_group_union, mpi_group_union_);
CLC_FALIAS(clc_f_group_union, mpi_group_union__);
CLC_FALIAS(clc_f_group_union, ompi_group_union_f);
CLC_FALIAS(clc_f_group_union, pmpi_group_union_);

CLC_FREAL(file_open, (MPI_Fint *f_comm, char *f_filename, MPI_Fint *f_amode, MPI_Fint *f_info, MPI_Fint *f_fh, MPI_Fint *ierr, size_t f_filename_len))
void clc_f_file_open(MPI_Fint *f_comm, char *f_filename, MPI_Fint *f_amode, MPI_Fint *f_info, MPI_Fint *f_fh, MPI_Fint *ierr, size_t f_filename_len) {
  CLC_FRESOLVE(file_open);
  if (!CLC_ON()) { real_file_open(f_comm, f_filename, f_amode, f_info, f_fh, ierr, f_filename_len); return; }
  clc_enter(R_MPI_File_open);
  real_file_open(f_comm, f_filename, f_amode, f_info, f_fh, ierr, f_filename_len);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_open, MPI_FILE_OPEN);
CLC_FALIAS(clc_f_file_open, mpi_file_open);
CLC_FALIAS(clc_f_file_open, mpi_file_open_);
CLC_FALIAS(clc_f_file_open, mpi_file_open__);
CLC_FALIAS(clc_f_file_open, ompi_file_open_f);
CLC_FALIAS(clc_f_file_open, pmpi_file_open_);

CLC_FREAL(file_close, (MPI_Fint *f_fh, MPI_Fint *ierr))
void clc_f_file_close(MPI_Fint *f_fh, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_close);
  if (!CLC_ON()) { real_file_close(f_fh, ierr); return; }
  clc_enter(R_MPI_File_close);
  real_file_close(f_fh, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_close, MPI_FILE_CLOSE);
CLC_FALIAS(clc_f_file_close, mpi_file_close);
CLC_FALIAS(clc_f_file_close, mpi_file_close_);
CLC_FALIAS(clc_f_file_close, mpi_file_close__);
CLC_FALIAS(clc_f_file_close, ompi_file_close_f);
CLC_FALIAS(clc_f_file_close, pmpi_file_close_);

CLC_FREAL(file_delete, (char *f_filename, MPI_Fint *f_info, MPI_Fint *ierr, size_t f_filename_len))
void clc_f_file_delete(char *f_filename, MPI_Fint *f_info, MPI_Fint *ierr, size_t f_filename_len) {
  CLC_FRESOLVE(file_delete);
  if (!CLC_ON()) { real_file_delete(f_filename, f_info, ierr, f_filename_len); return; }
  clc_enter(R_MPI_File_delete);
  real_file_delete(f_filename, f_info, ierr, f_filename_len);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_delete, MPI_FILE_DELETE);
CLC_FALIAS(clc_f_file_delete, mpi_file_delete);
CLC_FALIAS(clc_f_file_delete, mpi_file_delete_);
CLC_FALIAS(clc_f_file_delete, mpi_file_delete__);
CLC_FALIAS(clc_f_file_delete, ompi_file_delete_f);
CLC_FALIAS(clc_f_file_delete, pmpi_file_delete_);

CLC_FREAL(file_set_size, (MPI_Fint *f_fh, MPI_Offset *f_size, MPI_Fint *ierr))
void clc_f_file_set_size(MPI_Fint *f_fh, MPI_Offset *f_size, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_set_size);
  if (!CLC_ON()) { real_file_set_size(f_fh, f_size, ierr); return; }
  clc_enter(R_MPI_File_set_size);
  real_file_set_size(f_fh, f_size, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_set_size, MPI_FILE_SET_SIZE);
CLC_FALIAS(clc_f_file_set_size, mpi_file_set_size);
CLC_FALIAS(clc_f_file_set_size, mpi_file_set_size_);
CLC_FALIAS(clc_f_file_set_size, mpi_file_set_size__);
CLC_FALIAS(clc_f_file_set_size, ompi_file_set_size_f);
CLC_FALIAS(clc_f_file_set_size, pmpi_file_set_size_);

CLC_FREAL(file_preallocate, (MPI_Fint *f_fh, MPI_Offset *f_size, MPI_Fint *ierr))
void clc_f_file_preallocate(MPI_Fint *f_fh, MPI_Offset *f_size, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_preallocate);
  if (!CLC_ON()) { real_file_preallocate(f_fh, f_size, ierr); return; }
  clc_enter(R_MPI_File_preallocate);
  real_file_preallocate(f_fh, f_size, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_preallocate, MPI_FILE_PREALLOCATE);
CLC_FALIAS(clc_f_file_preallocate, mpi_file_preallocate);
CLC_FALIAS(clc_f_file_preallocate, mpi_file_preallocate_);
CLC_FALIAS(clc_f_file_preallocate, mpi_file_preallocate__);
CLC_FALIAS(clc_f_file_preallocate, ompi_file_preallocate_f);
CLC_FALIAS(clc_f_file_preallocate, pmpi_file_preallocate_);

CLC_FREAL(file_sync, (MPI_Fint *f_fh, MPI_Fint *ierr))
void clc_f_file_sync(MPI_Fint *f_fh, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_sync);
  if (!CLC_ON()) { real_file_sync(f_fh, ierr); return; }
  clc_enter(R_MPI_File_sync);
  real_file_sync(f_fh, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_sync, MPI_FILE_SYNC);
CLC_FALIAS(clc_f_file_sync, mpi_file_sync);
CLC_FALIAS(clc_f_file_sync, mpi_file_sync_);
CLC_FALIAS(clc_f_file_sync, mpi_file_sync__);
CLC_FALIAS(clc_f_file_sync, ompi_file_sync_f);
CLC_FALIAS(clc_f_file_sync, pmpi_file_sync_);

CLC_FREAL(file_set_view, (MPI_Fint *f_fh, MPI_Offset *f_disp, MPI_Fint *f_etype, MPI_Fint *f_filetype, char *f_datarep, MPI_Fint *f_info, MPI_Fint *ierr, size_t f_datarep_len))
void clc_f_file_set_view(MPI_Fint *f_fh, MPI_Offset *f_disp, MPI_Fint *f_etype, MPI_Fint *f_filetype, char *f_datarep, MPI_Fint *f_info, MPI_Fint *ierr, size_t f_datarep_len) {
  CLC_FRESOLVE(file_set_view);
  if (!CLC_ON()) { real_file_set_view(f_fh, f_disp, f_etype, f_filetype, f_datarep, f_info, ierr, f_datarep_len); return; }
  clc_enter(R_MPI_File_set_view);
  real_file_set_view(f_fh, f_disp, f_etype, f_filetype, f_datarep, f_info, ierr, f_datarep_len);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_set_view, MPI_FILE_SET_VIEW);
CLC_FALIAS(clc_f_file_set_view, mpi_file_set_view);
CLC_FALIAS(clc_f_file_set_view, mpi_file_set_view_);
CLC_FALIAS(clc_f_file_set_view, mpi_file_set_view__);
CLC_FALIAS(clc_f_file_set_view, ompi_file_set_view_f);
CLC_FALIAS(clc_f_file_set_view, pmpi_file_set_view_);

CLC_FREAL(file_read_at, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_read_at(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_at);
  if (!CLC_ON()) { real_file_read_at(f_fh, f_offset, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_read_at);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_read_at(f_fh, f_offset, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_at, MPI_FILE_READ_AT);
CLC_FALIAS(clc_f_file_read_at, mpi_file_read_at);
CLC_FALIAS(clc_f_file_read_at, mpi_file_read_at_);
CLC_FALIAS(clc_f_file_read_at, mpi_file_read_at__);
CLC_FALIAS(clc_f_file_read_at, ompi_file_read_at_f);
CLC_FALIAS(clc_f_file_read_at, pmpi_file_read_at_);

CLC_FREAL(file_read_at_all, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_read_at_all(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_at_all);
  if (!CLC_ON()) { real_file_read_at_all(f_fh, f_offset, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_read_at_all);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_read_at_all(f_fh, f_offset, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_at_all, MPI_FILE_READ_AT_ALL);
CLC_FALIAS(clc_f_file_read_at_all, mpi_file_read_at_all);
CLC_FALIAS(clc_f_file_read_at_all, mpi_file_read_at_all_);
CLC_FALIAS(clc_f_file_read_at_all, mpi_file_read_at_all__);
CLC_FALIAS(clc_f_file_read_at_all, ompi_file_read_at_all_f);
CLC_FALIAS(clc_f_file_read_at_all, pmpi_file_read_at_all_);

CLC_FREAL(file_write_at, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_write_at(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_at);
  if (!CLC_ON()) { real_file_write_at(f_fh, f_offset, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_write_at);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_write_at(f_fh, f_offset, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_at, MPI_FILE_WRITE_AT);
CLC_FALIAS(clc_f_file_write_at, mpi_file_write_at);
CLC_FALIAS(clc_f_file_write_at, mpi_file_write_at_);
CLC_FALIAS(clc_f_file_write_at, mpi_file_write_at__);
CLC_FALIAS(clc_f_file_write_at, ompi_file_write_at_f);
CLC_FALIAS(clc_f_file_write_at, pmpi_file_write_at_);

CLC_FREAL(file_write_at_all, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_write_at_all(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_at_all);
  if (!CLC_ON()) { real_file_write_at_all(f_fh, f_offset, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_write_at_all);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_write_at_all(f_fh, f_offset, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_at_all, MPI_FILE_WRITE_AT_ALL);
CLC_FALIAS(clc_f_file_write_at_all, mpi_file_write_at_all);
CLC_FALIAS(clc_f_file_write_at_all, mpi_file_write_at_all_);
CLC_FALIAS(clc_f_file_write_at_all, mpi_file_write_at_all__);
CLC_FALIAS(clc_f_file_write_at_all, ompi_file_write_at_all_f);
CLC_FALIAS(clc_f_file_write_at_all, pmpi_file_write_at_all_);

CLC_FREAL(file_iread_at, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iread_at(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iread_at);
  if (!CLC_ON()) { real_file_iread_at(f_fh, f_offset, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iread_at);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iread_at(f_fh, f_offset, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iread_at, MPI_FILE_IREAD_AT);
CLC_FALIAS(clc_f_file_iread_at, mpi_file_iread_at);
CLC_FALIAS(clc_f_file_iread_at, mpi_file_iread_at_);
CLC_FALIAS(clc_f_file_iread_at, mpi_file_iread_at__);
CLC_FALIAS(clc_f_file_iread_at, ompi_file_iread_at_f);
CLC_FALIAS(clc_f_file_iread_at, pmpi_file_iread_at_);

CLC_FREAL(file_iwrite_at, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iwrite_at(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iwrite_at);
  if (!CLC_ON()) { real_file_iwrite_at(f_fh, f_offset, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iwrite_at);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iwrite_at(f_fh, f_offset, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iwrite_at, MPI_FILE_IWRITE_AT);
CLC_FALIAS(clc_f_file_iwrite_at, mpi_file_iwrite_at);
CLC_FALIAS(clc_f_file_iwrite_at, mpi_file_iwrite_at_);
CLC_FALIAS(clc_f_file_iwrite_at, mpi_file_iwrite_at__);
CLC_FALIAS(clc_f_file_iwrite_at, ompi_file_iwrite_at_f);
CLC_FALIAS(clc_f_file_iwrite_at, pmpi_file_iwrite_at_);

CLC_FREAL(file_iread_at_all, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iread_at_all(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iread_at_all);
  if (!CLC_ON()) { real_file_iread_at_all(f_fh, f_offset, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iread_at_all);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iread_at_all(f_fh, f_offset, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iread_at_all, MPI_FILE_IREAD_AT_ALL);
CLC_FALIAS(clc_f_file_iread_at_all, mpi_file_iread_at_all);
CLC_FALIAS(clc_f_file_iread_at_all, mpi_file_iread_at_all_);
CLC_FALIAS(clc_f_file_iread_at_all, mpi_file_iread_at_all__);
CLC_FALIAS(clc_f_file_iread_at_all, ompi_file_iread_at_all_f);
CLC_FALIAS(clc_f_file_iread_at_all, pmpi_file_iread_at_all_);

CLC_FREAL(file_iwrite_at_all, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iwrite_at_all(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iwrite_at_all);
  if (!CLC_ON()) { real_file_iwrite_at_all(f_fh, f_offset, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iwrite_at_all);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iwrite_at_all(f_fh, f_offset, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iwrite_at_all, MPI_FILE_IWRITE_AT_ALL);
CLC_FALIAS(clc_f_file_iwrite_at_all, mpi_file_iwrite_at_all);
CLC_FALIAS(clc_f_file_iwrite_at_all, mpi_file_iwrite_at_all_);
CLC_FALIAS(clc_f_file_iwrite_at_all, mpi_file_iwrite_at_all__);
CLC_FALIAS(clc_f_file_iwrite_at_all, ompi_file_iwrite_at_all_f);
CLC_FALIAS(clc_f_file_iwrite_at_all, pmpi_file_iwrite_at_all_);

CLC_FREAL(file_read, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_read(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read);
  if (!CLC_ON()) { real_file_read(f_fh, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_read);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_read(f_fh, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read, MPI_FILE_READ);
CLC_FALIAS(clc_f_file_read, mpi_file_read);
CLC_FALIAS(clc_f_file_read, mpi_file_read_);
CLC_FALIAS(clc_f_file_read, mpi_file_read__);
CLC_FALIAS(clc_f_file_read, ompi_file_read_f);
CLC_FALIAS(clc_f_file_read, pmpi_file_read_);

CLC_FREAL(file_read_all, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_read_all(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_all);
  if (!CLC_ON()) { real_file_read_all(f_fh, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_read_all);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_read_all(f_fh, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_all, MPI_FILE_READ_ALL);
CLC_FALIAS(clc_f_file_read_all, mpi_file_read_all);
CLC_FALIAS(clc_f_file_read_all, mpi_file_read_all_);
CLC_FALIAS(clc_f_file_read_all, mpi_file_read_all__);
CLC_FALIAS(clc_f_file_read_all, ompi_file_read_all_f);
CLC_FALIAS(clc_f_file_read_all, pmpi_file_read_all_);

CLC_FREAL(file_write, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_write(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write);
  if (!CLC_ON()) { real_file_write(f_fh, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_write);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_write(f_fh, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write, MPI_FILE_WRITE);
CLC_FALIAS(clc_f_file_write, mpi_file_write);
CLC_FALIAS(clc_f_file_write, mpi_file_write_);
CLC_FALIAS(clc_f_file_write, mpi_file_write__);
CLC_FALIAS(clc_f_file_write, ompi_file_write_f);
CLC_FALIAS(clc_f_file_write, pmpi_file_write_);

CLC_FREAL(file_write_all, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_write_all(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_all);
  if (!CLC_ON()) { real_file_write_all(f_fh, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_write_all);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_write_all(f_fh, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_all, MPI_FILE_WRITE_ALL);
CLC_FALIAS(clc_f_file_write_all, mpi_file_write_all);
CLC_FALIAS(clc_f_file_write_all, mpi_file_write_all_);
CLC_FALIAS(clc_f_file_write_all, mpi_file_write_all__);
CLC_FALIAS(clc_f_file_write_all, ompi_file_write_all_f);
CLC_FALIAS(clc_f_file_write_all, pmpi_file_write_all_);

CLC_FREAL(file_iread, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iread(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iread);
  if (!CLC_ON()) { real_file_iread(f_fh, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iread);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iread(f_fh, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iread, MPI_FILE_IREAD);
CLC_FALIAS(clc_f_file_iread, mpi_file_iread);
CLC_FALIAS(clc_f_file_iread, mpi_file_iread_);
CLC_FALIAS(clc_f_file_iread, mpi_file_iread__);
CLC_FALIAS(clc_f_file_iread, ompi_file_iread_f);
CLC_FALIAS(clc_f_file_iread, pmpi_file_iread_);

CLC_FREAL(file_iwrite, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iwrite(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iwrite);
  if (!CLC_ON()) { real_file_iwrite(f_fh, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iwrite);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iwrite(f_fh, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iwrite, MPI_FILE_IWRITE);
CLC_FALIAS(clc_f_file_iwrite, mpi_file_iwrite);
CLC_FALIAS(clc_f_file_iwrite, mpi_file_iwrite_);
CLC_FALIAS(clc_f_file_iwrite, mpi_file_iwrite__);
CLC_FALIAS(clc_f_file_iwrite, ompi_file_iwrite_f);
CLC_FALIAS(clc_f_file_iwrite, pmpi_file_iwrite_);

CLC_FREAL(file_iread_all, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iread_all(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iread_all);
  if (!CLC_ON()) { real_file_iread_all(f_fh, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iread_all);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iread_all(f_fh, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iread_all, MPI_FILE_IREAD_ALL);
CLC_FALIAS(clc_f_file_iread_all, mpi_file_iread_all);
CLC_FALIAS(clc_f_file_iread_all, mpi_file_iread_all_);
CLC_FALIAS(clc_f_file_iread_all, mpi_file_iread_all__);
CLC_FALIAS(clc_f_file_iread_all, ompi_file_iread_all_f);
CLC_FALIAS(clc_f_file_iread_all, pmpi_file_iread_all_);

CLC_FREAL(file_iwrite_all, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iwrite_all(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iwrite_all);
  if (!CLC_ON()) { real_file_iwrite_all(f_fh, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iwrite_all);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iwrite_all(f_fh, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iwrite_all, MPI_FILE_IWRITE_ALL);
CLC_FALIAS(clc_f_file_iwrite_all, mpi_file_iwrite_all);
CLC_FALIAS(clc_f_file_iwrite_all, mpi_file_iwrite_all_);
CLC_FALIAS(clc_f_file_iwrite_all, mpi_file_iwrite_all__);
CLC_FALIAS(clc_f_file_iwrite_all, ompi_file_iwrite_all_f);
CLC_FALIAS(clc_f_file_iwrite_all, pmpi_file_iwrite_all_);

CLC_FREAL(file_seek, (MPI_Fint *f_fh, MPI_Offset *f_offset, MPI_Fint *f_whence, MPI_Fint *ierr))
void clc_f_file_seek(MPI_Fint *f_fh, MPI_Offset *f_offset, MPI_Fint *f_whence, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_seek);
  if (!CLC_ON()) { real_file_seek(f_fh, f_offset, f_whence, ierr); return; }
  clc_enter(R_MPI_File_seek);
  real_file_seek(f_fh, f_offset, f_whence, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_seek, MPI_FILE_SEEK);
CLC_FALIAS(clc_f_file_seek, mpi_file_seek);
CLC_FALIAS(clc_f_file_seek, mpi_file_seek_);
CLC_FALIAS(clc_f_file_seek, mpi_file_seek__);
CLC_FALIAS(clc_f_file_seek, ompi_file_seek_f);
CLC_FALIAS(clc_f_file_seek, pmpi_file_seek_);

CLC_FREAL(file_read_shared, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_read_shared(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_shared);
  if (!CLC_ON()) { real_file_read_shared(f_fh, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_read_shared);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_read_shared(f_fh, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_shared, MPI_FILE_READ_SHARED);
CLC_FALIAS(clc_f_file_read_shared, mpi_file_read_shared);
CLC_FALIAS(clc_f_file_read_shared, mpi_file_read_shared_);
CLC_FALIAS(clc_f_file_read_shared, mpi_file_read_shared__);
CLC_FALIAS(clc_f_file_read_shared, ompi_file_read_shared_f);
CLC_FALIAS(clc_f_file_read_shared, pmpi_file_read_shared_);

CLC_FREAL(file_write_shared, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_write_shared(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_shared);
  if (!CLC_ON()) { real_file_write_shared(f_fh, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_write_shared);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_write_shared(f_fh, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_shared, MPI_FILE_WRITE_SHARED);
CLC_FALIAS(clc_f_file_write_shared, mpi_file_write_shared);
CLC_FALIAS(clc_f_file_write_shared, mpi_file_write_shared_);
CLC_FALIAS(clc_f_file_write_shared, mpi_file_write_shared__);
CLC_FALIAS(clc_f_file_write_shared, ompi_file_write_shared_f);
CLC_FALIAS(clc_f_file_write_shared, pmpi_file_write_shared_);

CLC_FREAL(file_iread_shared, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iread_shared(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iread_shared);
  if (!CLC_ON()) { real_file_iread_shared(f_fh, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iread_shared);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iread_shared(f_fh, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iread_shared, MPI_FILE_IREAD_SHARED);
CLC_FALIAS(clc_f_file_iread_shared, mpi_file_iread_shared);
CLC_FALIAS(clc_f_file_iread_shared, mpi_file_iread_shared_);
CLC_FALIAS(clc_f_file_iread_shared, mpi_file_iread_shared__);
CLC_FALIAS(clc_f_file_iread_shared, ompi_file_iread_shared_f);
CLC_FALIAS(clc_f_file_iread_shared, pmpi_file_iread_shared_);

CLC_FREAL(file_iwrite_shared, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_file_iwrite_shared(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_iwrite_shared);
  if (!CLC_ON()) { real_file_iwrite_shared(f_fh, f_buf, f_count, f_datatype, f_request, ierr); return; }
  clc_enter(R_MPI_File_iwrite_shared);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_iwrite_shared(f_fh, f_buf, f_count, f_datatype, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_iwrite_shared, MPI_FILE_IWRITE_SHARED);
CLC_FALIAS(clc_f_file_iwrite_shared, mpi_file_iwrite_shared);
CLC_FALIAS(clc_f_file_iwrite_shared, mpi_file_iwrite_shared_);
CLC_FALIAS(clc_f_file_iwrite_shared, mpi_file_iwrite_shared__);
CLC_FALIAS(clc_f_file_iwrite_shared, ompi_file_iwrite_shared_f);
CLC_FALIAS(clc_f_file_iwrite_shared, pmpi_file_iwrite_shared_);

CLC_FREAL(file_read_ordered, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_read_ordered(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_ordered);
  if (!CLC_ON()) { real_file_read_ordered(f_fh, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_read_ordered);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_read_ordered(f_fh, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_ordered, MPI_FILE_READ_ORDERED);
CLC_FALIAS(clc_f_file_read_ordered, mpi_file_read_ordered);
CLC_FALIAS(clc_f_file_read_ordered, mpi_file_read_ordered_);
CLC_FALIAS(clc_f_file_read_ordered, mpi_file_read_ordered__);
CLC_FALIAS(clc_f_file_read_ordered, ompi_file_read_ordered_f);
CLC_FALIAS(clc_f_file_read_ordered, pmpi_file_read_ordered_);

CLC_FREAL(file_write_ordered, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_write_ordered(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_ordered);
  if (!CLC_ON()) { real_file_write_ordered(f_fh, f_buf, f_count, f_datatype, f_status, ierr); return; }
  clc_enter(R_MPI_File_write_ordered);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  MPI_Fint clc_fst_status[CLC_FSTATUS_SIZE];
  if (clc_fstatus_ignored(f_status)) f_status = clc_fst_status;
  real_file_write_ordered(f_fh, f_buf, f_count, f_datatype, f_status, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  MPI_Status status_v, *status = &status_v;
  MPI_Status_f2c(f_status, status);
  h_io(rc, status, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_ordered, MPI_FILE_WRITE_ORDERED);
CLC_FALIAS(clc_f_file_write_ordered, mpi_file_write_ordered);
CLC_FALIAS(clc_f_file_write_ordered, mpi_file_write_ordered_);
CLC_FALIAS(clc_f_file_write_ordered, mpi_file_write_ordered__);
CLC_FALIAS(clc_f_file_write_ordered, ompi_file_write_ordered_f);
CLC_FALIAS(clc_f_file_write_ordered, pmpi_file_write_ordered_);

CLC_FREAL(file_seek_shared, (MPI_Fint *f_fh, MPI_Offset *f_offset, MPI_Fint *f_whence, MPI_Fint *ierr))
void clc_f_file_seek_shared(MPI_Fint *f_fh, MPI_Offset *f_offset, MPI_Fint *f_whence, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_seek_shared);
  if (!CLC_ON()) { real_file_seek_shared(f_fh, f_offset, f_whence, ierr); return; }
  clc_enter(R_MPI_File_seek_shared);
  real_file_seek_shared(f_fh, f_offset, f_whence, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_seek_shared, MPI_FILE_SEEK_SHARED);
CLC_FALIAS(clc_f_file_seek_shared, mpi_file_seek_shared);
CLC_FALIAS(clc_f_file_seek_shared, mpi_file_seek_shared_);
CLC_FALIAS(clc_f_file_seek_shared, mpi_file_seek_shared__);
CLC_FALIAS(clc_f_file_seek_shared, ompi_file_seek_shared_f);
CLC_FALIAS(clc_f_file_seek_shared, pmpi_file_seek_shared_);

CLC_FREAL(file_read_at_all_begin, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr))
void clc_f_file_read_at_all_begin(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_at_all_begin);
  if (!CLC_ON()) { real_file_read_at_all_begin(f_fh, f_offset, f_buf, f_count, f_datatype, ierr); return; }
  clc_enter(R_MPI_File_read_at_all_begin);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_read_at_all_begin(f_fh, f_offset, f_buf, f_count, f_datatype, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_at_all_begin, MPI_FILE_READ_AT_ALL_BEGIN);
CLC_FALIAS(clc_f_file_read_at_all_begin, mpi_file_read_at_all_begin);
CLC_FALIAS(clc_f_file_read_at_all_begin, mpi_file_read_at_all_begin_);
CLC_FALIAS(clc_f_file_read_at_all_begin, mpi_file_read_at_all_begin__);
CLC_FALIAS(clc_f_file_read_at_all_begin, ompi_file_read_at_all_begin_f);
CLC_FALIAS(clc_f_file_read_at_all_begin, pmpi_file_read_at_all_begin_);

CLC_FREAL(file_read_at_all_end, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_read_at_all_end(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_at_all_end);
  if (!CLC_ON()) { real_file_read_at_all_end(f_fh, f_buf, f_status, ierr); return; }
  clc_enter(R_MPI_File_read_at_all_end);
  real_file_read_at_all_end(f_fh, f_buf, f_status, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_at_all_end, MPI_FILE_READ_AT_ALL_END);
CLC_FALIAS(clc_f_file_read_at_all_end, mpi_file_read_at_all_end);
CLC_FALIAS(clc_f_file_read_at_all_end, mpi_file_read_at_all_end_);
CLC_FALIAS(clc_f_file_read_at_all_end, mpi_file_read_at_all_end__);
CLC_FALIAS(clc_f_file_read_at_all_end, ompi_file_read_at_all_end_f);
CLC_FALIAS(clc_f_file_read_at_all_end, pmpi_file_read_at_all_end_);

CLC_FREAL(file_write_at_all_begin, (MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr))
void clc_f_file_write_at_all_begin(MPI_Fint *f_fh, MPI_Offset *f_offset, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_at_all_begin);
  if (!CLC_ON()) { real_file_write_at_all_begin(f_fh, f_offset, f_buf, f_count, f_datatype, ierr); return; }
  clc_enter(R_MPI_File_write_at_all_begin);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_write_at_all_begin(f_fh, f_offset, f_buf, f_count, f_datatype, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_at_all_begin, MPI_FILE_WRITE_AT_ALL_BEGIN);
CLC_FALIAS(clc_f_file_write_at_all_begin, mpi_file_write_at_all_begin);
CLC_FALIAS(clc_f_file_write_at_all_begin, mpi_file_write_at_all_begin_);
CLC_FALIAS(clc_f_file_write_at_all_begin, mpi_file_write_at_all_begin__);
CLC_FALIAS(clc_f_file_write_at_all_begin, ompi_file_write_at_all_begin_f);
CLC_FALIAS(clc_f_file_write_at_all_begin, pmpi_file_write_at_all_begin_);

CLC_FREAL(file_write_at_all_end, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_write_at_all_end(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_at_all_end);
  if (!CLC_ON()) { real_file_write_at_all_end(f_fh, f_buf, f_status, ierr); return; }
  clc_enter(R_MPI_File_write_at_all_end);
  real_file_write_at_all_end(f_fh, f_buf, f_status, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_at_all_end, MPI_FILE_WRITE_AT_ALL_END);
CLC_FALIAS(clc_f_file_write_at_all_end, mpi_file_write_at_all_end);
CLC_FALIAS(clc_f_file_write_at_all_end, mpi_file_write_at_all_end_);
CLC_FALIAS(clc_f_file_write_at_all_end, mpi_file_write_at_all_end__);
CLC_FALIAS(clc_f_file_write_at_all_end, ompi_file_write_at_all_end_f);
CLC_FALIAS(clc_f_file_write_at_all_end, pmpi_file_write_at_all_end_);

CLC_FREAL(file_read_all_begin, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr))
void clc_f_file_read_all_begin(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_all_begin);
  if (!CLC_ON()) { real_file_read_all_begin(f_fh, f_buf, f_count, f_datatype, ierr); return; }
  clc_enter(R_MPI_File_read_all_begin);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_read_all_begin(f_fh, f_buf, f_count, f_datatype, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_all_begin, MPI_FILE_READ_ALL_BEGIN);
CLC_FALIAS(clc_f_file_read_all_begin, mpi_file_read_all_begin);
CLC_FALIAS(clc_f_file_read_all_begin, mpi_file_read_all_begin_);
CLC_FALIAS(clc_f_file_read_all_begin, mpi_file_read_all_begin__);
CLC_FALIAS(clc_f_file_read_all_begin, ompi_file_read_all_begin_f);
CLC_FALIAS(clc_f_file_read_all_begin, pmpi_file_read_all_begin_);

CLC_FREAL(file_read_all_end, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_read_all_end(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_all_end);
  if (!CLC_ON()) { real_file_read_all_end(f_fh, f_buf, f_status, ierr); return; }
  clc_enter(R_MPI_File_read_all_end);
  real_file_read_all_end(f_fh, f_buf, f_status, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_all_end, MPI_FILE_READ_ALL_END);
CLC_FALIAS(clc_f_file_read_all_end, mpi_file_read_all_end);
CLC_FALIAS(clc_f_file_read_all_end, mpi_file_read_all_end_);
CLC_FALIAS(clc_f_file_read_all_end, mpi_file_read_all_end__);
CLC_FALIAS(clc_f_file_read_all_end, ompi_file_read_all_end_f);
CLC_FALIAS(clc_f_file_read_all_end, pmpi_file_read_all_end_);

CLC_FREAL(file_write_all_begin, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr))
void clc_f_file_write_all_begin(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_all_begin);
  if (!CLC_ON()) { real_file_write_all_begin(f_fh, f_buf, f_count, f_datatype, ierr); return; }
  clc_enter(R_MPI_File_write_all_begin);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_write_all_begin(f_fh, f_buf, f_count, f_datatype, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_all_begin, MPI_FILE_WRITE_ALL_BEGIN);
CLC_FALIAS(clc_f_file_write_all_begin, mpi_file_write_all_begin);
CLC_FALIAS(clc_f_file_write_all_begin, mpi_file_write_all_begin_);
CLC_FALIAS(clc_f_file_write_all_begin, mpi_file_write_all_begin__);
CLC_FALIAS(clc_f_file_write_all_begin, ompi_file_write_all_begin_f);
CLC_FALIAS(clc_f_file_write_all_begin, pmpi_file_write_all_begin_);

CLC_FREAL(file_write_all_end, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_write_all_end(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_all_end);
  if (!CLC_ON()) { real_file_write_all_end(f_fh, f_buf, f_status, ierr); return; }
  clc_enter(R_MPI_File_write_all_end);
  real_file_write_all_end(f_fh, f_buf, f_status, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_all_end, MPI_FILE_WRITE_ALL_END);
CLC_FALIAS(clc_f_file_write_all_end, mpi_file_write_all_end);
CLC_FALIAS(clc_f_file_write_all_end, mpi_file_write_all_end_);
CLC_FALIAS(clc_f_file_write_all_end, mpi_file_write_all_end__);
CLC_FALIAS(clc_f_file_write_all_end, ompi_file_write_all_end_f);
CLC_FALIAS(clc_f_file_write_all_end, pmpi_file_write_all_end_);

CLC_FREAL(file_read_ordered_begin, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr))
void clc_f_file_read_ordered_begin(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_ordered_begin);
  if (!CLC_ON()) { real_file_read_ordered_begin(f_fh, f_buf, f_count, f_datatype, ierr); return; }
  clc_enter(R_MPI_File_read_ordered_begin);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_read_ordered_begin(f_fh, f_buf, f_count, f_datatype, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_ordered_begin, MPI_FILE_READ_ORDERED_BEGIN);
CLC_FALIAS(clc_f_file_read_ordered_begin, mpi_file_read_ordered_begin);
CLC_FALIAS(clc_f_file_read_ordered_begin, mpi_file_read_ordered_begin_);
CLC_FALIAS(clc_f_file_read_ordered_begin, mpi_file_read_ordered_begin__);
CLC_FALIAS(clc_f_file_read_ordered_begin, ompi_file_read_ordered_begin_f);
CLC_FALIAS(clc_f_file_read_ordered_begin, pmpi_file_read_ordered_begin_);

CLC_FREAL(file_read_ordered_end, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_read_ordered_end(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_read_ordered_end);
  if (!CLC_ON()) { real_file_read_ordered_end(f_fh, f_buf, f_status, ierr); return; }
  clc_enter(R_MPI_File_read_ordered_end);
  real_file_read_ordered_end(f_fh, f_buf, f_status, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_read_ordered_end, MPI_FILE_READ_ORDERED_END);
CLC_FALIAS(clc_f_file_read_ordered_end, mpi_file_read_ordered_end);
CLC_FALIAS(clc_f_file_read_ordered_end, mpi_file_read_ordered_end_);
CLC_FALIAS(clc_f_file_read_ordered_end, mpi_file_read_ordered_end__);
CLC_FALIAS(clc_f_file_read_ordered_end, ompi_file_read_ordered_end_f);
CLC_FALIAS(clc_f_file_read_ordered_end, pmpi_file_read_ordered_end_);

CLC_FREAL(file_write_ordered_begin, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr))
void clc_f_file_write_ordered_begin(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_count, MPI_Fint *f_datatype, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_ordered_begin);
  if (!CLC_ON()) { real_file_write_ordered_begin(f_fh, f_buf, f_count, f_datatype, ierr); return; }
  clc_enter(R_MPI_File_write_ordered_begin);
  const int count = (int)*f_count;
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_file_write_ordered_begin(f_fh, f_buf, f_count, f_datatype, ierr);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_ordered_begin, MPI_FILE_WRITE_ORDERED_BEGIN);
CLC_FALIAS(clc_f_file_write_ordered_begin, mpi_file_write_ordered_begin);
CLC_FALIAS(clc_f_file_write_ordered_begin, mpi_file_write_ordered_begin_);
CLC_FALIAS(clc_f_file_write_ordered_begin, mpi_file_write_ordered_begin__);
CLC_FALIAS(clc_f_file_write_ordered_begin, ompi_file_write_ordered_begin_f);
CLC_FALIAS(clc_f_file_write_ordered_begin, pmpi_file_write_ordered_begin_);

CLC_FREAL(file_write_ordered_end, (MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr))
void clc_f_file_write_ordered_end(MPI_Fint *f_fh, void *f_buf, MPI_Fint *f_status, MPI_Fint *ierr) {
  CLC_FRESOLVE(file_write_ordered_end);
  if (!CLC_ON()) { real_file_write_ordered_end(f_fh, f_buf, f_status, ierr); return; }
  clc_enter(R_MPI_File_write_ordered_end);
  real_file_write_ordered_end(f_fh, f_buf, f_status, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_file_write_ordered_end, MPI_FILE_WRITE_ORDERED_END);
CLC_FALIAS(clc_f_file_write_ordered_end, mpi_file_write_ordered_end);
CLC_FALIAS(clc_f_file_write_ordered_end, mpi_file_write_ordered_end_);
CLC_FALIAS(clc_f_file_write_ordered_end, mpi_file_write_ordered_end__);
CLC_FALIAS(clc_f_file_write_ordered_end, ompi_file_write_ordered_end_f);
CLC_FALIAS(clc_f_file_write_ordered_end, pmpi_file_write_ordered_end_);

CLC_FREAL(win_create, (void *f_base, MPI_Aint *f_size, MPI_Fint *f_disp_unit, MPI_Fint *f_info, MPI_Fint *f_comm, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_create(void *f_base, MPI_Aint *f_size, MPI_Fint *f_disp_unit, MPI_Fint *f_info, MPI_Fint *f_comm, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_create);
  if (!CLC_ON()) { real_win_create(f_base, f_size, f_disp_unit, f_info, f_comm, f_win, ierr); return; }
  clc_enter(R_MPI_Win_create);
  real_win_create(f_base, f_size, f_disp_unit, f_info, f_comm, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_create, MPI_WIN_CREATE);
CLC_FALIAS(clc_f_win_create, mpi_win_create);
CLC_FALIAS(clc_f_win_create, mpi_win_create_);
CLC_FALIAS(clc_f_win_create, mpi_win_create__);
CLC_FALIAS(clc_f_win_create, ompi_win_create_f);
CLC_FALIAS(clc_f_win_create, pmpi_win_create_);

CLC_FREAL(win_allocate, (MPI_Aint *f_size, MPI_Fint *f_disp_unit, MPI_Fint *f_info, MPI_Fint *f_comm, void *f_baseptr, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_allocate(MPI_Aint *f_size, MPI_Fint *f_disp_unit, MPI_Fint *f_info, MPI_Fint *f_comm, void *f_baseptr, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_allocate);
  if (!CLC_ON()) { real_win_allocate(f_size, f_disp_unit, f_info, f_comm, f_baseptr, f_win, ierr); return; }
  clc_enter(R_MPI_Win_allocate);
  real_win_allocate(f_size, f_disp_unit, f_info, f_comm, f_baseptr, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_allocate, MPI_WIN_ALLOCATE);
CLC_FALIAS(clc_f_win_allocate, mpi_win_allocate);
CLC_FALIAS(clc_f_win_allocate, mpi_win_allocate_);
CLC_FALIAS(clc_f_win_allocate, mpi_win_allocate__);
CLC_FALIAS(clc_f_win_allocate, ompi_win_allocate_f);
CLC_FALIAS(clc_f_win_allocate, pmpi_win_allocate_);

CLC_FREAL(win_allocate_shared, (MPI_Aint *f_size, MPI_Fint *f_disp_unit, MPI_Fint *f_info, MPI_Fint *f_comm, void *f_baseptr, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_allocate_shared(MPI_Aint *f_size, MPI_Fint *f_disp_unit, MPI_Fint *f_info, MPI_Fint *f_comm, void *f_baseptr, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_allocate_shared);
  if (!CLC_ON()) { real_win_allocate_shared(f_size, f_disp_unit, f_info, f_comm, f_baseptr, f_win, ierr); return; }
  clc_enter(R_MPI_Win_allocate_shared);
  real_win_allocate_shared(f_size, f_disp_unit, f_info, f_comm, f_baseptr, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_allocate_shared, MPI_WIN_ALLOCATE_SHARED);
CLC_FALIAS(clc_f_win_allocate_shared, mpi_win_allocate_shared);
CLC_FALIAS(clc_f_win_allocate_shared, mpi_win_allocate_shared_);
CLC_FALIAS(clc_f_win_allocate_shared, mpi_win_allocate_shared__);
CLC_FALIAS(clc_f_win_allocate_shared, ompi_win_allocate_shared_f);
CLC_FALIAS(clc_f_win_allocate_shared, pmpi_win_allocate_shared_);

CLC_FREAL(win_create_dynamic, (MPI_Fint *f_info, MPI_Fint *f_comm, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_create_dynamic(MPI_Fint *f_info, MPI_Fint *f_comm, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_create_dynamic);
  if (!CLC_ON()) { real_win_create_dynamic(f_info, f_comm, f_win, ierr); return; }
  clc_enter(R_MPI_Win_create_dynamic);
  real_win_create_dynamic(f_info, f_comm, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_create_dynamic, MPI_WIN_CREATE_DYNAMIC);
CLC_FALIAS(clc_f_win_create_dynamic, mpi_win_create_dynamic);
CLC_FALIAS(clc_f_win_create_dynamic, mpi_win_create_dynamic_);
CLC_FALIAS(clc_f_win_create_dynamic, mpi_win_create_dynamic__);
CLC_FALIAS(clc_f_win_create_dynamic, ompi_win_create_dynamic_f);
CLC_FALIAS(clc_f_win_create_dynamic, pmpi_win_create_dynamic_);

CLC_FREAL(win_attach, (MPI_Fint *f_win, void *f_base, MPI_Aint *f_size, MPI_Fint *ierr))
void clc_f_win_attach(MPI_Fint *f_win, void *f_base, MPI_Aint *f_size, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_attach);
  if (!CLC_ON()) { real_win_attach(f_win, f_base, f_size, ierr); return; }
  clc_enter(R_MPI_Win_attach);
  real_win_attach(f_win, f_base, f_size, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_attach, MPI_WIN_ATTACH);
CLC_FALIAS(clc_f_win_attach, mpi_win_attach);
CLC_FALIAS(clc_f_win_attach, mpi_win_attach_);
CLC_FALIAS(clc_f_win_attach, mpi_win_attach__);
CLC_FALIAS(clc_f_win_attach, ompi_win_attach_f);
CLC_FALIAS(clc_f_win_attach, pmpi_win_attach_);

CLC_FREAL(win_detach, (MPI_Fint *f_win, void *f_base, MPI_Fint *ierr))
void clc_f_win_detach(MPI_Fint *f_win, void *f_base, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_detach);
  if (!CLC_ON()) { real_win_detach(f_win, f_base, ierr); return; }
  clc_enter(R_MPI_Win_detach);
  real_win_detach(f_win, f_base, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_detach, MPI_WIN_DETACH);
CLC_FALIAS(clc_f_win_detach, mpi_win_detach);
CLC_FALIAS(clc_f_win_detach, mpi_win_detach_);
CLC_FALIAS(clc_f_win_detach, mpi_win_detach__);
CLC_FALIAS(clc_f_win_detach, ompi_win_detach_f);
CLC_FALIAS(clc_f_win_detach, pmpi_win_detach_);

CLC_FREAL(win_free, (MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_free(MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_free);
  if (!CLC_ON()) { real_win_free(f_win, ierr); return; }
  clc_enter(R_MPI_Win_free);
  real_win_free(f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_free, MPI_WIN_FREE);
CLC_FALIAS(clc_f_win_free, mpi_win_free);
CLC_FALIAS(clc_f_win_free, mpi_win_free_);
CLC_FALIAS(clc_f_win_free, mpi_win_free__);
CLC_FALIAS(clc_f_win_free, ompi_win_free_f);
CLC_FALIAS(clc_f_win_free, pmpi_win_free_);

CLC_FREAL(win_fence, (MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_fence(MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_fence);
  if (!CLC_ON()) { real_win_fence(f_assert, f_win, ierr); return; }
  clc_enter(R_MPI_Win_fence);
  real_win_fence(f_assert, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_fence, MPI_WIN_FENCE);
CLC_FALIAS(clc_f_win_fence, mpi_win_fence);
CLC_FALIAS(clc_f_win_fence, mpi_win_fence_);
CLC_FALIAS(clc_f_win_fence, mpi_win_fence__);
CLC_FALIAS(clc_f_win_fence, ompi_win_fence_f);
CLC_FALIAS(clc_f_win_fence, pmpi_win_fence_);

CLC_FREAL(win_start, (MPI_Fint *f_group, MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_start(MPI_Fint *f_group, MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_start);
  if (!CLC_ON()) { real_win_start(f_group, f_assert, f_win, ierr); return; }
  clc_enter(R_MPI_Win_start);
  real_win_start(f_group, f_assert, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_start, MPI_WIN_START);
CLC_FALIAS(clc_f_win_start, mpi_win_start);
CLC_FALIAS(clc_f_win_start, mpi_win_start_);
CLC_FALIAS(clc_f_win_start, mpi_win_start__);
CLC_FALIAS(clc_f_win_start, ompi_win_start_f);
CLC_FALIAS(clc_f_win_start, pmpi_win_start_);

CLC_FREAL(win_complete, (MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_complete(MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_complete);
  if (!CLC_ON()) { real_win_complete(f_win, ierr); return; }
  clc_enter(R_MPI_Win_complete);
  real_win_complete(f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_complete, MPI_WIN_COMPLETE);
CLC_FALIAS(clc_f_win_complete, mpi_win_complete);
CLC_FALIAS(clc_f_win_complete, mpi_win_complete_);
CLC_FALIAS(clc_f_win_complete, mpi_win_complete__);
CLC_FALIAS(clc_f_win_complete, ompi_win_complete_f);
CLC_FALIAS(clc_f_win_complete, pmpi_win_complete_);

CLC_FREAL(win_post, (MPI_Fint *f_group, MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_post(MPI_Fint *f_group, MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_post);
  if (!CLC_ON()) { real_win_post(f_group, f_assert, f_win, ierr); return; }
  clc_enter(R_MPI_Win_post);
  real_win_post(f_group, f_assert, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_post, MPI_WIN_POST);
CLC_FALIAS(clc_f_win_post, mpi_win_post);
CLC_FALIAS(clc_f_win_post, mpi_win_post_);
CLC_FALIAS(clc_f_win_post, mpi_win_post__);
CLC_FALIAS(clc_f_win_post, ompi_win_post_f);
CLC_FALIAS(clc_f_win_post, pmpi_win_post_);

CLC_FREAL(win_wait, (MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_wait(MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_wait);
  if (!CLC_ON()) { real_win_wait(f_win, ierr); return; }
  clc_enter(R_MPI_Win_wait);
  real_win_wait(f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_wait, MPI_WIN_WAIT);
CLC_FALIAS(clc_f_win_wait, mpi_win_wait);
CLC_FALIAS(clc_f_win_wait, mpi_win_wait_);
CLC_FALIAS(clc_f_win_wait, mpi_win_wait__);
CLC_FALIAS(clc_f_win_wait, ompi_win_wait_f);
CLC_FALIAS(clc_f_win_wait, pmpi_win_wait_);

CLC_FREAL(win_test, (MPI_Fint *f_win, MPI_Fint *f_flag, MPI_Fint *ierr))
void clc_f_win_test(MPI_Fint *f_win, MPI_Fint *f_flag, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_test);
  if (!CLC_ON()) { real_win_test(f_win, f_flag, ierr); return; }
  clc_enter(R_MPI_Win_test);
  int flag_v, *flag = &flag_v;
  real_win_test(f_win, f_flag, ierr);
  const int64_t t1 = clc_now();
  const int rc = (int)*ierr;
  flag_v = (*f_flag != 0);
  h_polled(rc, *flag);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_test, MPI_WIN_TEST);
CLC_FALIAS(clc_f_win_test, mpi_win_test);
CLC_FALIAS(clc_f_win_test, mpi_win_test_);
CLC_FALIAS(clc_f_win_test, mpi_win_test__);
CLC_FALIAS(clc_f_win_test, ompi_win_test_f);
CLC_FALIAS(clc_f_win_test, pmpi_win_test_);

CLC_FREAL(win_lock, (MPI_Fint *f_lock_type, MPI_Fint *f_rank, MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_lock(MPI_Fint *f_lock_type, MPI_Fint *f_rank, MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_lock);
  if (!CLC_ON()) { real_win_lock(f_lock_type, f_rank, f_assert, f_win, ierr); return; }
  clc_enter(R_MPI_Win_lock);
  real_win_lock(f_lock_type, f_rank, f_assert, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_lock, MPI_WIN_LOCK);
CLC_FALIAS(clc_f_win_lock, mpi_win_lock);
CLC_FALIAS(clc_f_win_lock, mpi_win_lock_);
CLC_FALIAS(clc_f_win_lock, mpi_win_lock__);
CLC_FALIAS(clc_f_win_lock, ompi_win_lock_f);
CLC_FALIAS(clc_f_win_lock, pmpi_win_lock_);

CLC_FREAL(win_unlock, (MPI_Fint *f_rank, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_unlock(MPI_Fint *f_rank, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_unlock);
  if (!CLC_ON()) { real_win_unlock(f_rank, f_win, ierr); return; }
  clc_enter(R_MPI_Win_unlock);
  real_win_unlock(f_rank, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_unlock, MPI_WIN_UNLOCK);
CLC_FALIAS(clc_f_win_unlock, mpi_win_unlock);
CLC_FALIAS(clc_f_win_unlock, mpi_win_unlock_);
CLC_FALIAS(clc_f_win_unlock, mpi_win_unlock__);
CLC_FALIAS(clc_f_win_unlock, ompi_win_unlock_f);
CLC_FALIAS(clc_f_win_unlock, pmpi_win_unlock_);

CLC_FREAL(win_lock_all, (MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_lock_all(MPI_Fint *f_assert, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_lock_all);
  if (!CLC_ON()) { real_win_lock_all(f_assert, f_win, ierr); return; }
  clc_enter(R_MPI_Win_lock_all);
  real_win_lock_all(f_assert, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_lock_all, MPI_WIN_LOCK_ALL);
CLC_FALIAS(clc_f_win_lock_all, mpi_win_lock_all);
CLC_FALIAS(clc_f_win_lock_all, mpi_win_lock_all_);
CLC_FALIAS(clc_f_win_lock_all, mpi_win_lock_all__);
CLC_FALIAS(clc_f_win_lock_all, ompi_win_lock_all_f);
CLC_FALIAS(clc_f_win_lock_all, pmpi_win_lock_all_);

CLC_FREAL(win_unlock_all, (MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_unlock_all(MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_unlock_all);
  if (!CLC_ON()) { real_win_unlock_all(f_win, ierr); return; }
  clc_enter(R_MPI_Win_unlock_all);
  real_win_unlock_all(f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_unlock_all, MPI_WIN_UNLOCK_ALL);
CLC_FALIAS(clc_f_win_unlock_all, mpi_win_unlock_all);
CLC_FALIAS(clc_f_win_unlock_all, mpi_win_unlock_all_);
CLC_FALIAS(clc_f_win_unlock_all, mpi_win_unlock_all__);
CLC_FALIAS(clc_f_win_unlock_all, ompi_win_unlock_all_f);
CLC_FALIAS(clc_f_win_unlock_all, pmpi_win_unlock_all_);

CLC_FREAL(win_flush, (MPI_Fint *f_rank, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_flush(MPI_Fint *f_rank, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_flush);
  if (!CLC_ON()) { real_win_flush(f_rank, f_win, ierr); return; }
  clc_enter(R_MPI_Win_flush);
  real_win_flush(f_rank, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_flush, MPI_WIN_FLUSH);
CLC_FALIAS(clc_f_win_flush, mpi_win_flush);
CLC_FALIAS(clc_f_win_flush, mpi_win_flush_);
CLC_FALIAS(clc_f_win_flush, mpi_win_flush__);
CLC_FALIAS(clc_f_win_flush, ompi_win_flush_f);
CLC_FALIAS(clc_f_win_flush, pmpi_win_flush_);

CLC_FREAL(win_flush_all, (MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_flush_all(MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_flush_all);
  if (!CLC_ON()) { real_win_flush_all(f_win, ierr); return; }
  clc_enter(R_MPI_Win_flush_all);
  real_win_flush_all(f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_flush_all, MPI_WIN_FLUSH_ALL);
CLC_FALIAS(clc_f_win_flush_all, mpi_win_flush_all);
CLC_FALIAS(clc_f_win_flush_all, mpi_win_flush_all_);
CLC_FALIAS(clc_f_win_flush_all, mpi_win_flush_all__);
CLC_FALIAS(clc_f_win_flush_all, ompi_win_flush_all_f);
CLC_FALIAS(clc_f_win_flush_all, pmpi_win_flush_all_);

CLC_FREAL(win_flush_local, (MPI_Fint *f_rank, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_flush_local(MPI_Fint *f_rank, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_flush_local);
  if (!CLC_ON()) { real_win_flush_local(f_rank, f_win, ierr); return; }
  clc_enter(R_MPI_Win_flush_local);
  real_win_flush_local(f_rank, f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_flush_local, MPI_WIN_FLUSH_LOCAL);
CLC_FALIAS(clc_f_win_flush_local, mpi_win_flush_local);
CLC_FALIAS(clc_f_win_flush_local, mpi_win_flush_local_);
CLC_FALIAS(clc_f_win_flush_local, mpi_win_flush_local__);
CLC_FALIAS(clc_f_win_flush_local, ompi_win_flush_local_f);
CLC_FALIAS(clc_f_win_flush_local, pmpi_win_flush_local_);

CLC_FREAL(win_flush_local_all, (MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_flush_local_all(MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_flush_local_all);
  if (!CLC_ON()) { real_win_flush_local_all(f_win, ierr); return; }
  clc_enter(R_MPI_Win_flush_local_all);
  real_win_flush_local_all(f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_flush_local_all, MPI_WIN_FLUSH_LOCAL_ALL);
CLC_FALIAS(clc_f_win_flush_local_all, mpi_win_flush_local_all);
CLC_FALIAS(clc_f_win_flush_local_all, mpi_win_flush_local_all_);
CLC_FALIAS(clc_f_win_flush_local_all, mpi_win_flush_local_all__);
CLC_FALIAS(clc_f_win_flush_local_all, ompi_win_flush_local_all_f);
CLC_FALIAS(clc_f_win_flush_local_all, pmpi_win_flush_local_all_);

CLC_FREAL(win_sync, (MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_win_sync(MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(win_sync);
  if (!CLC_ON()) { real_win_sync(f_win, ierr); return; }
  clc_enter(R_MPI_Win_sync);
  real_win_sync(f_win, ierr);
  const int64_t t1 = clc_now();
  clc_leave(t1);
}
CLC_FALIAS(clc_f_win_sync, MPI_WIN_SYNC);
CLC_FALIAS(clc_f_win_sync, mpi_win_sync);
CLC_FALIAS(clc_f_win_sync, mpi_win_sync_);
CLC_FALIAS(clc_f_win_sync, mpi_win_sync__);
CLC_FALIAS(clc_f_win_sync, ompi_win_sync_f);
CLC_FALIAS(clc_f_win_sync, pmpi_win_sync_);

CLC_FREAL(put, (void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_put(void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(put);
  if (!CLC_ON()) { real_put(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_win, ierr); return; }
  clc_enter(R_MPI_Put);
  const int origin_count = (int)*f_origin_count;
  const MPI_Datatype origin_datatype = MPI_Type_f2c(*f_origin_datatype);
  real_put(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_win, ierr);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_put, MPI_PUT);
CLC_FALIAS(clc_f_put, mpi_put);
CLC_FALIAS(clc_f_put, mpi_put_);
CLC_FALIAS(clc_f_put, mpi_put__);
CLC_FALIAS(clc_f_put, ompi_put_f);
CLC_FALIAS(clc_f_put, pmpi_put_);

CLC_FREAL(get, (void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_get(void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(get);
  if (!CLC_ON()) { real_get(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_win, ierr); return; }
  clc_enter(R_MPI_Get);
  const int origin_count = (int)*f_origin_count;
  const MPI_Datatype origin_datatype = MPI_Type_f2c(*f_origin_datatype);
  real_get(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_win, ierr);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_get, MPI_GET);
CLC_FALIAS(clc_f_get, mpi_get);
CLC_FALIAS(clc_f_get, mpi_get_);
CLC_FALIAS(clc_f_get, mpi_get__);
CLC_FALIAS(clc_f_get, ompi_get_f);
CLC_FALIAS(clc_f_get, pmpi_get_);

CLC_FREAL(accumulate, (void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_accumulate(void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(accumulate);
  if (!CLC_ON()) { real_accumulate(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_op, f_win, ierr); return; }
  clc_enter(R_MPI_Accumulate);
  const int origin_count = (int)*f_origin_count;
  const MPI_Datatype origin_datatype = MPI_Type_f2c(*f_origin_datatype);
  real_accumulate(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_op, f_win, ierr);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_accumulate, MPI_ACCUMULATE);
CLC_FALIAS(clc_f_accumulate, mpi_accumulate);
CLC_FALIAS(clc_f_accumulate, mpi_accumulate_);
CLC_FALIAS(clc_f_accumulate, mpi_accumulate__);
CLC_FALIAS(clc_f_accumulate, ompi_accumulate_f);
CLC_FALIAS(clc_f_accumulate, pmpi_accumulate_);

CLC_FREAL(get_accumulate, (void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, void *f_result_addr, MPI_Fint *f_result_count, MPI_Fint *f_result_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_get_accumulate(void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, void *f_result_addr, MPI_Fint *f_result_count, MPI_Fint *f_result_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(get_accumulate);
  if (!CLC_ON()) { real_get_accumulate(f_origin_addr, f_origin_count, f_origin_datatype, f_result_addr, f_result_count, f_result_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_op, f_win, ierr); return; }
  clc_enter(R_MPI_Get_accumulate);
  const int origin_count = (int)*f_origin_count;
  const MPI_Datatype origin_datatype = MPI_Type_f2c(*f_origin_datatype);
  const int result_count = (int)*f_result_count;
  const MPI_Datatype result_datatype = MPI_Type_f2c(*f_result_datatype);
  real_get_accumulate(f_origin_addr, f_origin_count, f_origin_datatype, f_result_addr, f_result_count, f_result_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_op, f_win, ierr);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype); h_bytes(result_count, result_datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_get_accumulate, MPI_GET_ACCUMULATE);
CLC_FALIAS(clc_f_get_accumulate, mpi_get_accumulate);
CLC_FALIAS(clc_f_get_accumulate, mpi_get_accumulate_);
CLC_FALIAS(clc_f_get_accumulate, mpi_get_accumulate__);
CLC_FALIAS(clc_f_get_accumulate, ompi_get_accumulate_f);
CLC_FALIAS(clc_f_get_accumulate, pmpi_get_accumulate_);

CLC_FREAL(fetch_and_op, (void *f_origin_addr, void *f_result_addr, MPI_Fint *f_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_fetch_and_op(void *f_origin_addr, void *f_result_addr, MPI_Fint *f_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(fetch_and_op);
  if (!CLC_ON()) { real_fetch_and_op(f_origin_addr, f_result_addr, f_datatype, f_target_rank, f_target_disp, f_op, f_win, ierr); return; }
  clc_enter(R_MPI_Fetch_and_op);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_fetch_and_op(f_origin_addr, f_result_addr, f_datatype, f_target_rank, f_target_disp, f_op, f_win, ierr);
  const int64_t t1 = clc_now();
  h_bytes(1, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_fetch_and_op, MPI_FETCH_AND_OP);
CLC_FALIAS(clc_f_fetch_and_op, mpi_fetch_and_op);
CLC_FALIAS(clc_f_fetch_and_op, mpi_fetch_and_op_);
CLC_FALIAS(clc_f_fetch_and_op, mpi_fetch_and_op__);
CLC_FALIAS(clc_f_fetch_and_op, ompi_fetch_and_op_f);
CLC_FALIAS(clc_f_fetch_and_op, pmpi_fetch_and_op_);

CLC_FREAL(compare_and_swap, (void *f_origin_addr, void *f_compare_addr, void *f_result_addr, MPI_Fint *f_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_win, MPI_Fint *ierr))
void clc_f_compare_and_swap(void *f_origin_addr, void *f_compare_addr, void *f_result_addr, MPI_Fint *f_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_win, MPI_Fint *ierr) {
  CLC_FRESOLVE(compare_and_swap);
  if (!CLC_ON()) { real_compare_and_swap(f_origin_addr, f_compare_addr, f_result_addr, f_datatype, f_target_rank, f_target_disp, f_win, ierr); return; }
  clc_enter(R_MPI_Compare_and_swap);
  const MPI_Datatype datatype = MPI_Type_f2c(*f_datatype);
  real_compare_and_swap(f_origin_addr, f_compare_addr, f_result_addr, f_datatype, f_target_rank, f_target_disp, f_win, ierr);
  const int64_t t1 = clc_now();
  h_bytes(1, datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_compare_and_swap, MPI_COMPARE_AND_SWAP);
CLC_FALIAS(clc_f_compare_and_swap, mpi_compare_and_swap);
CLC_FALIAS(clc_f_compare_and_swap, mpi_compare_and_swap_);
CLC_FALIAS(clc_f_compare_and_swap, mpi_compare_and_swap__);
CLC_FALIAS(clc_f_compare_and_swap, ompi_compare_and_swap_f);
CLC_FALIAS(clc_f_compare_and_swap, pmpi_compare_and_swap_);

CLC_FREAL(rput, (void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_win, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_rput(void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_win, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(rput);
  if (!CLC_ON()) { real_rput(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_win, f_request, ierr); return; }
  clc_enter(R_MPI_Rput);
  const int origin_count = (int)*f_origin_count;
  const MPI_Datatype origin_datatype = MPI_Type_f2c(*f_origin_datatype);
  real_rput(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_win, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_rput, MPI_RPUT);
CLC_FALIAS(clc_f_rput, mpi_rput);
CLC_FALIAS(clc_f_rput, mpi_rput_);
CLC_FALIAS(clc_f_rput, mpi_rput__);
CLC_FALIAS(clc_f_rput, ompi_rput_f);
CLC_FALIAS(clc_f_rput, pmpi_rput_);

CLC_FREAL(rget, (void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_win, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_rget(void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_win, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(rget);
  if (!CLC_ON()) { real_rget(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_win, f_request, ierr); return; }
  clc_enter(R_MPI_Rget);
  const int origin_count = (int)*f_origin_count;
  const MPI_Datatype origin_datatype = MPI_Type_f2c(*f_origin_datatype);
  real_rget(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_win, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_rget, MPI_RGET);
CLC_FALIAS(clc_f_rget, mpi_rget);
CLC_FALIAS(clc_f_rget, mpi_rget_);
CLC_FALIAS(clc_f_rget, mpi_rget__);
CLC_FALIAS(clc_f_rget, ompi_rget_f);
CLC_FALIAS(clc_f_rget, pmpi_rget_);

CLC_FREAL(raccumulate, (void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_raccumulate(void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(raccumulate);
  if (!CLC_ON()) { real_raccumulate(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_op, f_win, f_request, ierr); return; }
  clc_enter(R_MPI_Raccumulate);
  const int origin_count = (int)*f_origin_count;
  const MPI_Datatype origin_datatype = MPI_Type_f2c(*f_origin_datatype);
  real_raccumulate(f_origin_addr, f_origin_count, f_origin_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_op, f_win, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_raccumulate, MPI_RACCUMULATE);
CLC_FALIAS(clc_f_raccumulate, mpi_raccumulate);
CLC_FALIAS(clc_f_raccumulate, mpi_raccumulate_);
CLC_FALIAS(clc_f_raccumulate, mpi_raccumulate__);
CLC_FALIAS(clc_f_raccumulate, ompi_raccumulate_f);
CLC_FALIAS(clc_f_raccumulate, pmpi_raccumulate_);

CLC_FREAL(rget_accumulate, (void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, void *f_result_addr, MPI_Fint *f_result_count, MPI_Fint *f_result_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *f_request, MPI_Fint *ierr))
void clc_f_rget_accumulate(void *f_origin_addr, MPI_Fint *f_origin_count, MPI_Fint *f_origin_datatype, void *f_result_addr, MPI_Fint *f_result_count, MPI_Fint *f_result_datatype, MPI_Fint *f_target_rank, MPI_Aint *f_target_disp, MPI_Fint *f_target_count, MPI_Fint *f_target_datatype, MPI_Fint *f_op, MPI_Fint *f_win, MPI_Fint *f_request, MPI_Fint *ierr) {
  CLC_FRESOLVE(rget_accumulate);
  if (!CLC_ON()) { real_rget_accumulate(f_origin_addr, f_origin_count, f_origin_datatype, f_result_addr, f_result_count, f_result_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_op, f_win, f_request, ierr); return; }
  clc_enter(R_MPI_Rget_accumulate);
  const int origin_count = (int)*f_origin_count;
  const MPI_Datatype origin_datatype = MPI_Type_f2c(*f_origin_datatype);
  const int result_count = (int)*f_result_count;
  const MPI_Datatype result_datatype = MPI_Type_f2c(*f_result_datatype);
  real_rget_accumulate(f_origin_addr, f_origin_count, f_origin_datatype, f_result_addr, f_result_count, f_result_datatype, f_target_rank, f_target_disp, f_target_count, f_target_datatype, f_op, f_win, f_request, ierr);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype); h_bytes(result_count, result_datatype);
  clc_leave(t1);
}
CLC_FALIAS(clc_f_rget_accumulate, MPI_RGET_ACCUMULATE);
CLC_FALIAS(clc_f_rget_accumulate, mpi_rget_accumulate);
CLC_FALIAS(clc_f_rget_accumulate, mpi_rget_accumulate_);
CLC_FALIAS(clc_f_rget_accumulate, mpi_rget_accumulate__);
CLC_FALIAS(clc_f_rget_accumulate, ompi_rget_accumulate_f);
CLC_FALIAS(clc_f_rget_accumulate, pmpi_rget_accumulate_);
