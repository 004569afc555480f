/* Generated from tracer/mpifn/functions.tbl by go generate (cmd/clc-trace); DO NOT EDIT. */
/* The C wrappers: enter, the pre hook, the PMPI call, the post hook, leave
 * (see clc.h and hooks.c). */
#include "clc.h"

CLC_EXPORT int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Send(buf, count, datatype, dest, tag, comm);
  const int64_t t0 = clc_enter(R_MPI_Send);
  int rc = PMPI_Send(buf, count, datatype, dest, tag, comm);
  const int64_t t1 = clc_now();
  h_send(t0, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Ssend(buf, count, datatype, dest, tag, comm);
  const int64_t t0 = clc_enter(R_MPI_Ssend);
  int rc = PMPI_Ssend(buf, count, datatype, dest, tag, comm);
  const int64_t t1 = clc_now();
  h_send(t0, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Bsend(buf, count, datatype, dest, tag, comm);
  const int64_t t0 = clc_enter(R_MPI_Bsend);
  int rc = PMPI_Bsend(buf, count, datatype, dest, tag, comm);
  const int64_t t1 = clc_now();
  h_send(t0, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Rsend(buf, count, datatype, dest, tag, comm);
  const int64_t t0 = clc_enter(R_MPI_Rsend);
  int rc = PMPI_Rsend(buf, count, datatype, dest, tag, comm);
  const int64_t t1 = clc_now();
  h_send(t0, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
  clc_enter(R_MPI_Recv);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_Recv(buf, count, datatype, source, tag, comm, status);
  const int64_t t1 = clc_now();
  h_recv(t1, rc, status, datatype, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status);
  const int64_t t0 = clc_enter(R_MPI_Sendrecv);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status);
  const int64_t t1 = clc_now();
  h_send(t0, dest, sendcount, sendtype, sendtag, comm); h_recv(t1, rc, status, recvtype, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
  const int64_t t0 = clc_enter(R_MPI_Sendrecv_replace);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
  const int64_t t1 = clc_now();
  h_send(t0, dest, count, datatype, sendtag, comm); h_recv(t1, rc, status, datatype, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Isend);
  int rc = PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
  const int64_t t1 = clc_now();
  h_isend(t0, rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Issend(buf, count, datatype, dest, tag, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Issend);
  int rc = PMPI_Issend(buf, count, datatype, dest, tag, comm, request);
  const int64_t t1 = clc_now();
  h_isend(t0, rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ibsend(buf, count, datatype, dest, tag, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ibsend);
  int rc = PMPI_Ibsend(buf, count, datatype, dest, tag, comm, request);
  const int64_t t1 = clc_now();
  h_isend(t0, rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Irsend(buf, count, datatype, dest, tag, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Irsend);
  int rc = PMPI_Irsend(buf, count, datatype, dest, tag, comm, request);
  const int64_t t1 = clc_now();
  h_isend(t0, rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Irecv);
  int rc = PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
  const int64_t t1 = clc_now();
  h_irecv(t0, rc, *request, source, datatype, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Send_init(buf, count, datatype, dest, tag, comm, request);
  clc_enter(R_MPI_Send_init);
  int rc = PMPI_Send_init(buf, count, datatype, dest, tag, comm, request);
  const int64_t t1 = clc_now();
  h_send_init(rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ssend_init(buf, count, datatype, dest, tag, comm, request);
  clc_enter(R_MPI_Ssend_init);
  int rc = PMPI_Ssend_init(buf, count, datatype, dest, tag, comm, request);
  const int64_t t1 = clc_now();
  h_send_init(rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Bsend_init(buf, count, datatype, dest, tag, comm, request);
  clc_enter(R_MPI_Bsend_init);
  int rc = PMPI_Bsend_init(buf, count, datatype, dest, tag, comm, request);
  const int64_t t1 = clc_now();
  h_send_init(rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Rsend_init(buf, count, datatype, dest, tag, comm, request);
  clc_enter(R_MPI_Rsend_init);
  int rc = PMPI_Rsend_init(buf, count, datatype, dest, tag, comm, request);
  const int64_t t1 = clc_now();
  h_send_init(rc, *request, dest, count, datatype, tag, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Recv_init(buf, count, datatype, source, tag, comm, request);
  clc_enter(R_MPI_Recv_init);
  int rc = PMPI_Recv_init(buf, count, datatype, source, tag, comm, request);
  const int64_t t1 = clc_now();
  h_recv_init(rc, *request, source, datatype, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Start(MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Start(request);
  const int64_t t0 = clc_enter(R_MPI_Start);
  int rc = PMPI_Start(request);
  const int64_t t1 = clc_now();
  h_start(t0, rc, 1, request);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Startall(int count, MPI_Request array_of_requests[]) {
  if (!CLC_ON()) return PMPI_Startall(count, array_of_requests);
  const int64_t t0 = clc_enter(R_MPI_Startall);
  int rc = PMPI_Startall(count, array_of_requests);
  const int64_t t1 = clc_now();
  h_start(t0, rc, count, array_of_requests);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Request_free(MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Request_free(request);
  clc_enter(R_MPI_Request_free);
  h_request_free(*request);
  int rc = PMPI_Request_free(request);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Cancel(MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Cancel(request);
  clc_enter(R_MPI_Cancel);
  int rc = PMPI_Cancel(request);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Probe(source, tag, comm, status);
  clc_enter(R_MPI_Probe);
  int rc = PMPI_Probe(source, tag, comm, status);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Iprobe(source, tag, comm, flag, status);
  clc_enter(R_MPI_Iprobe);
  int rc = PMPI_Iprobe(source, tag, comm, flag, status);
  const int64_t t1 = clc_now();
  h_polled(rc, *flag);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Mprobe(source, tag, comm, message, status);
  clc_enter(R_MPI_Mprobe);
  int rc = PMPI_Mprobe(source, tag, comm, message, status);
  const int64_t t1 = clc_now();
  h_mprobe(rc, 1, *message, comm);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Improbe(source, tag, comm, flag, message, status);
  clc_enter(R_MPI_Improbe);
  int rc = PMPI_Improbe(source, tag, comm, flag, message, status);
  const int64_t t1 = clc_now();
  h_mprobe(rc, *flag, *message, comm); h_polled(rc, *flag);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Mrecv(buf, count, datatype, message, status);
  clc_enter(R_MPI_Mrecv);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  MPI_Comm mc = h_msg_comm(*message);
  int rc = PMPI_Mrecv(buf, count, datatype, message, status);
  const int64_t t1 = clc_now();
  h_recv(t1, rc, status, datatype, mc);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Imrecv(buf, count, datatype, message, request);
  const int64_t t0 = clc_enter(R_MPI_Imrecv);
  MPI_Comm mc = h_msg_comm(*message);
  int rc = PMPI_Imrecv(buf, count, datatype, message, request);
  const int64_t t1 = clc_now();
  h_irecv(t0, rc, *request, 0, datatype, mc);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Wait(request, status);
  clc_enter(R_MPI_Wait);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  MPI_Request h = *request;
  int rc = PMPI_Wait(request, status);
  const int64_t t1 = clc_now();
  clc_complete(h, status, t1);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  if (!CLC_ON()) return PMPI_Waitall(count, array_of_requests, array_of_statuses);
  clc_enter(R_MPI_Waitall);
  if (array_of_statuses == MPI_STATUSES_IGNORE) array_of_statuses = clc_scratch_status(count);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, count);
  int rc = PMPI_Waitall(count, array_of_requests, array_of_statuses);
  const int64_t t1 = clc_now();
  h_waitall(t1, rc, count, h, array_of_statuses);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Waitany(count, array_of_requests, index, status);
  clc_enter(R_MPI_Waitany);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  const MPI_Request *h = clc_copy_reqs(array_of_requests, count);
  int rc = PMPI_Waitany(count, array_of_requests, index, status);
  const int64_t t1 = clc_now();
  h_waitany(t1, rc, count, h, *index, status);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]) {
  if (!CLC_ON()) return PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
  clc_enter(R_MPI_Waitsome);
  if (array_of_statuses == MPI_STATUSES_IGNORE) array_of_statuses = clc_scratch_status(incount);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, incount);
  int rc = PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
  const int64_t t1 = clc_now();
  h_waitsome(t1, rc, incount, h, *outcount, array_of_indices, array_of_statuses);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Test(request, flag, status);
  clc_enter(R_MPI_Test);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  MPI_Request h = *request;
  int rc = PMPI_Test(request, flag, status);
  const int64_t t1 = clc_now();
  h_test(t1, rc, h, *flag, status);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]) {
  if (!CLC_ON()) return PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
  clc_enter(R_MPI_Testall);
  if (array_of_statuses == MPI_STATUSES_IGNORE) array_of_statuses = clc_scratch_status(count);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, count);
  int rc = PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
  const int64_t t1 = clc_now();
  h_testall(t1, rc, count, h, *flag, array_of_statuses);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Testany(count, array_of_requests, index, flag, status);
  clc_enter(R_MPI_Testany);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  const MPI_Request *h = clc_copy_reqs(array_of_requests, count);
  int rc = PMPI_Testany(count, array_of_requests, index, flag, status);
  const int64_t t1 = clc_now();
  h_testany(t1, rc, count, h, *index, *flag, status);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]) {
  if (!CLC_ON()) return PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
  clc_enter(R_MPI_Testsome);
  if (array_of_statuses == MPI_STATUSES_IGNORE) array_of_statuses = clc_scratch_status(incount);
  const MPI_Request *h = clc_copy_reqs(array_of_requests, incount);
  int rc = PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
  const int64_t t1 = clc_now();
  h_testsome(t1, rc, incount, h, *outcount, array_of_indices, array_of_statuses);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_Request_get_status(request, flag, status);
  clc_enter(R_MPI_Request_get_status);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_Request_get_status(request, flag, status);
  const int64_t t1 = clc_now();
  h_get_status(t1, rc, request, *flag, status);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Buffer_attach(void *buffer, int size) {
  if (!CLC_ON()) return PMPI_Buffer_attach(buffer, size);
  clc_enter(R_MPI_Buffer_attach);
  int rc = PMPI_Buffer_attach(buffer, size);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Buffer_detach(void *buffer, int *size) {
  if (!CLC_ON()) return PMPI_Buffer_detach(buffer, size);
  clc_enter(R_MPI_Buffer_detach);
  int rc = PMPI_Buffer_detach(buffer, size);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Barrier(MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Barrier(comm);
  const int64_t t0 = clc_enter(R_MPI_Barrier);
  int rc = PMPI_Barrier(comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_BARRIER, -1, b_none());
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Bcast(buffer, count, datatype, root, comm);
  const int64_t t0 = clc_enter(R_MPI_Bcast);
  int rc = PMPI_Bcast(buffer, count, datatype, root, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_BCAST, root, b_bcast(comm, count, datatype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const int64_t t0 = clc_enter(R_MPI_Gather);
  int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_GATHER, root, b_gather(comm, sendbuf, sendcount, sendtype, recvcount, recvtype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  const int64_t t0 = clc_enter(R_MPI_Gatherv);
  int rc = PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_GATHERV, root, b_gatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const int64_t t0 = clc_enter(R_MPI_Scatter);
  int rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_SCATTER, root, b_scatter(comm, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const int64_t t0 = clc_enter(R_MPI_Scatterv);
  int rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_SCATTERV, root, b_scatterv(comm, sendcounts, sendtype, recvbuf, recvcount, recvtype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const int64_t t0 = clc_enter(R_MPI_Allgather);
  int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLGATHER, -1, b_allgather(comm, sendbuf, sendcount, sendtype, recvcount, recvtype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  const int64_t t0 = clc_enter(R_MPI_Allgatherv);
  int rc = PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLGATHERV, -1, b_allgatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const int64_t t0 = clc_enter(R_MPI_Alltoall);
  int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLTOALL, -1, b_alltoall(comm, sendbuf, sendcount, sendtype, recvcount, recvtype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  const int64_t t0 = clc_enter(R_MPI_Alltoallv);
  int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLTOALLV, -1, b_alltoallv(comm, sendbuf, sendcounts, sendtype, recvcounts, recvtype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  const int64_t t0 = clc_enter(R_MPI_Alltoallw);
  int rc = PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLTOALLW, -1, b_alltoallw(comm, sendbuf, sendcounts, sendtypes, recvcounts, recvtypes));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  const int64_t t0 = clc_enter(R_MPI_Allreduce);
  int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_ALLREDUCE, -1, b_allreduce(comm, count, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  const int64_t t0 = clc_enter(R_MPI_Reduce);
  int rc = PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_REDUCE, root, b_reduce(comm, count, datatype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  const int64_t t0 = clc_enter(R_MPI_Reduce_scatter);
  int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_REDUCE_SCATTER, -1, b_reduce_scatter(comm, recvcounts, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  const int64_t t0 = clc_enter(R_MPI_Reduce_scatter_block);
  int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_REDUCE_SCATTER_BLOCK, -1, b_reduce_scatter_block(comm, recvcount, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
  const int64_t t0 = clc_enter(R_MPI_Scan);
  int rc = PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_SCAN, -1, b_allreduce(comm, count, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
  const int64_t t0 = clc_enter(R_MPI_Exscan);
  int rc = PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
  const int64_t t1 = clc_now();
  h_coll(t0, t1, comm, OP_EXSCAN, -1, b_exscan(comm, count, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ibarrier(comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ibarrier);
  int rc = PMPI_Ibarrier(comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_BARRIER, -1, b_none());
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ibcast(buffer, count, datatype, root, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ibcast);
  int rc = PMPI_Ibcast(buffer, count, datatype, root, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_BCAST, root, b_bcast(comm, count, datatype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Igather);
  int rc = PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_GATHER, root, b_gather(comm, sendbuf, sendcount, sendtype, recvcount, recvtype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Igatherv);
  int rc = PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_GATHERV, root, b_gatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Iscatter);
  int rc = PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_SCATTER, root, b_scatter(comm, sendcount, sendtype, recvbuf, recvcount, recvtype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Iscatterv);
  int rc = PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_SCATTERV, root, b_scatterv(comm, sendcounts, sendtype, recvbuf, recvcount, recvtype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Iallgather);
  int rc = PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_ALLGATHER, -1, b_allgather(comm, sendbuf, sendcount, sendtype, recvcount, recvtype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Iallgatherv);
  int rc = PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_ALLGATHERV, -1, b_allgatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ialltoall);
  int rc = PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_ALLTOALL, -1, b_alltoall(comm, sendbuf, sendcount, sendtype, recvcount, recvtype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ialltoallv);
  int rc = PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_ALLTOALLV, -1, b_alltoallv(comm, sendbuf, sendcounts, sendtype, recvcounts, recvtype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ialltoallw);
  int rc = PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_ALLTOALLW, -1, b_alltoallw(comm, sendbuf, sendcounts, sendtypes, recvcounts, recvtypes));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Iallreduce);
  int rc = PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_ALLREDUCE, -1, b_allreduce(comm, count, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ireduce);
  int rc = PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_REDUCE, root, b_reduce(comm, count, datatype, root));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ireduce_scatter);
  int rc = PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_REDUCE_SCATTER, -1, b_reduce_scatter(comm, recvcounts, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ireduce_scatter_block);
  int rc = PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_REDUCE_SCATTER_BLOCK, -1, b_reduce_scatter_block(comm, recvcount, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Iscan);
  int rc = PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_SCAN, -1, b_allreduce(comm, count, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Iexscan);
  int rc = PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
  const int64_t t1 = clc_now();
  h_nbc(t0, rc, *request, comm, OP_EXSCAN, -1, b_exscan(comm, count, datatype));
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const int64_t t0 = clc_enter(R_MPI_Neighbor_allgather);
  int rc = PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, sendcount, NULL, sendtype, NULL, recvcount, NULL, recvtype, NULL);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  const int64_t t0 = clc_enter(R_MPI_Neighbor_allgatherv);
  int rc = PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, sendcount, NULL, sendtype, NULL, 0, recvcounts, recvtype, NULL);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const int64_t t0 = clc_enter(R_MPI_Neighbor_alltoall);
  int rc = PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, sendcount, NULL, sendtype, NULL, recvcount, NULL, recvtype, NULL);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  const int64_t t0 = clc_enter(R_MPI_Neighbor_alltoallv);
  int rc = PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, 0, sendcounts, sendtype, NULL, 0, recvcounts, recvtype, NULL);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  if (!CLC_ON()) return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  const int64_t t0 = clc_enter(R_MPI_Neighbor_alltoallw);
  int rc = PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  const int64_t t1 = clc_now();
  h_nbr(t0, t1, comm, 0, sendcounts, MPI_DATATYPE_NULL, sendtypes, 0, recvcounts, MPI_DATATYPE_NULL, recvtypes);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_allgather);
  int rc = PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  const int64_t t1 = clc_now();
  h_inbr(t0, rc, *request, comm, sendcount, NULL, sendtype, NULL, recvcount, NULL, recvtype, NULL);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_allgatherv);
  int rc = PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
  const int64_t t1 = clc_now();
  h_inbr(t0, rc, *request, comm, sendcount, NULL, sendtype, NULL, 0, recvcounts, recvtype, NULL);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_alltoall);
  int rc = PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  const int64_t t1 = clc_now();
  h_inbr(t0, rc, *request, comm, sendcount, NULL, sendtype, NULL, recvcount, NULL, recvtype, NULL);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_alltoallv);
  int rc = PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request);
  const int64_t t1 = clc_now();
  h_inbr(t0, rc, *request, comm, 0, sendcounts, sendtype, NULL, 0, recvcounts, recvtype, NULL);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request);
  const int64_t t0 = clc_enter(R_MPI_Ineighbor_alltoallw);
  int rc = PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request);
  const int64_t t1 = clc_now();
  h_inbr(t0, rc, *request, comm, 0, sendcounts, MPI_DATATYPE_NULL, sendtypes, 0, recvcounts, MPI_DATATYPE_NULL, recvtypes);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart) {
  if (!CLC_ON()) return PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
  clc_enter(R_MPI_Cart_create);
  int rc = PMPI_Cart_create(comm_old, ndims, dims, periods, reorder, comm_cart);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *comm_cart, "MPI_Cart_create");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *new_comm) {
  if (!CLC_ON()) return PMPI_Cart_sub(comm, remain_dims, new_comm);
  clc_enter(R_MPI_Cart_sub);
  int rc = PMPI_Cart_sub(comm, remain_dims, new_comm);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *new_comm, "MPI_Cart_sub");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm *comm_graph) {
  if (!CLC_ON()) return PMPI_Graph_create(comm_old, nnodes, index, edges, reorder, comm_graph);
  clc_enter(R_MPI_Graph_create);
  int rc = PMPI_Graph_create(comm_old, nnodes, index, edges, reorder, comm_graph);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *comm_graph, "MPI_Graph_create");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int nodes[], const int degrees[], const int targets[], const int weights[], MPI_Info info, int reorder, MPI_Comm *newcomm) {
  if (!CLC_ON()) return PMPI_Dist_graph_create(comm_old, n, nodes, degrees, targets, weights, info, reorder, newcomm);
  clc_enter(R_MPI_Dist_graph_create);
  int rc = PMPI_Dist_graph_create(comm_old, n, nodes, degrees, targets, weights, info, reorder, newcomm);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *newcomm, "MPI_Dist_graph_create");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree, const int destinations[], const int destweights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph) {
  if (!CLC_ON()) return PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder, comm_dist_graph);
  clc_enter(R_MPI_Dist_graph_create_adjacent);
  int rc = PMPI_Dist_graph_create_adjacent(comm_old, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder, comm_dist_graph);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *comm_dist_graph, "MPI_Dist_graph_create_adjacent");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  if (!CLC_ON()) return PMPI_Cart_coords(comm, rank, maxdims, coords);
  clc_enter(R_MPI_Cart_coords);
  int rc = PMPI_Cart_coords(comm, rank, maxdims, coords);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  if (!CLC_ON()) return PMPI_Cart_get(comm, maxdims, dims, periods, coords);
  clc_enter(R_MPI_Cart_get);
  int rc = PMPI_Cart_get(comm, maxdims, dims, periods, coords);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank) {
  if (!CLC_ON()) return PMPI_Cart_map(comm, ndims, dims, periods, newrank);
  clc_enter(R_MPI_Cart_map);
  int rc = PMPI_Cart_map(comm, ndims, dims, periods, newrank);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank) {
  if (!CLC_ON()) return PMPI_Cart_rank(comm, coords, rank);
  clc_enter(R_MPI_Cart_rank);
  int rc = PMPI_Cart_rank(comm, coords, rank);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest) {
  if (!CLC_ON()) return PMPI_Cart_shift(comm, direction, disp, rank_source, rank_dest);
  clc_enter(R_MPI_Cart_shift);
  int rc = PMPI_Cart_shift(comm, direction, disp, rank_source, rank_dest);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Cartdim_get(MPI_Comm comm, int *ndims) {
  if (!CLC_ON()) return PMPI_Cartdim_get(comm, ndims);
  clc_enter(R_MPI_Cartdim_get);
  int rc = PMPI_Cartdim_get(comm, ndims);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  if (!CLC_ON()) return PMPI_Dims_create(nnodes, ndims, dims);
  clc_enter(R_MPI_Dims_create);
  int rc = PMPI_Dims_create(nnodes, ndims, dims);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  if (!CLC_ON()) return PMPI_Graph_get(comm, maxindex, maxedges, index, edges);
  clc_enter(R_MPI_Graph_get);
  int rc = PMPI_Graph_get(comm, maxindex, maxedges, index, edges);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank) {
  if (!CLC_ON()) return PMPI_Graph_map(comm, nnodes, index, edges, newrank);
  clc_enter(R_MPI_Graph_map);
  int rc = PMPI_Graph_map(comm, nnodes, index, edges, newrank);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  if (!CLC_ON()) return PMPI_Graph_neighbors(comm, rank, maxneighbors, neighbors);
  clc_enter(R_MPI_Graph_neighbors);
  int rc = PMPI_Graph_neighbors(comm, rank, maxneighbors, neighbors);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors) {
  if (!CLC_ON()) return PMPI_Graph_neighbors_count(comm, rank, nneighbors);
  clc_enter(R_MPI_Graph_neighbors_count);
  int rc = PMPI_Graph_neighbors_count(comm, rank, nneighbors);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges) {
  if (!CLC_ON()) return PMPI_Graphdims_get(comm, nnodes, nedges);
  clc_enter(R_MPI_Graphdims_get);
  int rc = PMPI_Graphdims_get(comm, nnodes, nedges);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree, int destinations[], int destweights[]) {
  if (!CLC_ON()) return PMPI_Dist_graph_neighbors(comm, maxindegree, sources, sourceweights, maxoutdegree, destinations, destweights);
  clc_enter(R_MPI_Dist_graph_neighbors);
  int rc = PMPI_Dist_graph_neighbors(comm, maxindegree, sources, sourceweights, maxoutdegree, destinations, destweights);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *inneighbors, int *outneighbors, int *weighted) {
  if (!CLC_ON()) return PMPI_Dist_graph_neighbors_count(comm, inneighbors, outneighbors, weighted);
  clc_enter(R_MPI_Dist_graph_neighbors_count);
  int rc = PMPI_Dist_graph_neighbors_count(comm, inneighbors, outneighbors, weighted);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Topo_test(MPI_Comm comm, int *status) {
  if (!CLC_ON()) return PMPI_Topo_test(comm, status);
  clc_enter(R_MPI_Topo_test);
  int rc = PMPI_Topo_test(comm, status);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  if (!CLC_ON()) return PMPI_Comm_dup(comm, newcomm);
  clc_enter(R_MPI_Comm_dup);
  int rc = PMPI_Comm_dup(comm, newcomm);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_dup");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
  if (!CLC_ON()) return PMPI_Comm_dup_with_info(comm, info, newcomm);
  clc_enter(R_MPI_Comm_dup_with_info);
  int rc = PMPI_Comm_dup_with_info(comm, info, newcomm);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_dup_with_info");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Comm_idup(comm, newcomm, request);
  clc_enter(R_MPI_Comm_idup);
  int rc = PMPI_Comm_idup(comm, newcomm, request);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
  if (!CLC_ON()) return PMPI_Comm_split(comm, color, key, newcomm);
  clc_enter(R_MPI_Comm_split);
  int rc = PMPI_Comm_split(comm, color, key, newcomm);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_split");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
  if (!CLC_ON()) return PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  clc_enter(R_MPI_Comm_split_type);
  int rc = PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_split_type");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
  if (!CLC_ON()) return PMPI_Comm_create(comm, group, newcomm);
  clc_enter(R_MPI_Comm_create);
  int rc = PMPI_Comm_create(comm, group, newcomm);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_create");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm) {
  if (!CLC_ON()) return PMPI_Comm_create_group(comm, group, tag, newcomm);
  clc_enter(R_MPI_Comm_create_group);
  int rc = PMPI_Comm_create_group(comm, group, tag, newcomm);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *newcomm, "MPI_Comm_create_group");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_free(MPI_Comm *comm) {
  if (!CLC_ON()) return PMPI_Comm_free(comm);
  const int64_t t0 = clc_enter(R_MPI_Comm_free);
  h_comm_free(*comm, t0);
  int rc = PMPI_Comm_free(comm);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result) {
  if (!CLC_ON()) return PMPI_Comm_compare(comm1, comm2, result);
  clc_enter(R_MPI_Comm_compare);
  int rc = PMPI_Comm_compare(comm1, comm2, result);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_group(MPI_Comm comm, MPI_Group *group) {
  if (!CLC_ON()) return PMPI_Comm_group(comm, group);
  clc_enter(R_MPI_Comm_group);
  int rc = PMPI_Comm_group(comm, group);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_rank(MPI_Comm comm, int *rank) {
  if (!CLC_ON()) return PMPI_Comm_rank(comm, rank);
  clc_enter(R_MPI_Comm_rank);
  int rc = PMPI_Comm_rank(comm, rank);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_size(MPI_Comm comm, int *size) {
  if (!CLC_ON()) return PMPI_Comm_size(comm, size);
  clc_enter(R_MPI_Comm_size);
  int rc = PMPI_Comm_size(comm, size);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group) {
  if (!CLC_ON()) return PMPI_Comm_remote_group(comm, group);
  clc_enter(R_MPI_Comm_remote_group);
  int rc = PMPI_Comm_remote_group(comm, group);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_remote_size(MPI_Comm comm, int *size) {
  if (!CLC_ON()) return PMPI_Comm_remote_size(comm, size);
  clc_enter(R_MPI_Comm_remote_size);
  int rc = PMPI_Comm_remote_size(comm, size);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Comm_test_inter(MPI_Comm comm, int *flag) {
  if (!CLC_ON()) return PMPI_Comm_test_inter(comm, flag);
  clc_enter(R_MPI_Comm_test_inter);
  int rc = PMPI_Comm_test_inter(comm, flag);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm bridge_comm, int remote_leader, int tag, MPI_Comm *newintercomm) {
  if (!CLC_ON()) return PMPI_Intercomm_create(local_comm, local_leader, bridge_comm, remote_leader, tag, newintercomm);
  clc_enter(R_MPI_Intercomm_create);
  int rc = PMPI_Intercomm_create(local_comm, local_leader, bridge_comm, remote_leader, tag, newintercomm);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintercomm) {
  if (!CLC_ON()) return PMPI_Intercomm_merge(intercomm, high, newintercomm);
  clc_enter(R_MPI_Intercomm_merge);
  int rc = PMPI_Intercomm_merge(intercomm, high, newintercomm);
  const int64_t t1 = clc_now();
  h_newcomm(t1, rc, *newintercomm, "MPI_Intercomm_merge");
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result) {
  if (!CLC_ON()) return PMPI_Group_compare(group1, group2, result);
  clc_enter(R_MPI_Group_compare);
  int rc = PMPI_Group_compare(group1, group2, result);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
  if (!CLC_ON()) return PMPI_Group_difference(group1, group2, newgroup);
  clc_enter(R_MPI_Group_difference);
  int rc = PMPI_Group_difference(group1, group2, newgroup);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) {
  if (!CLC_ON()) return PMPI_Group_excl(group, n, ranks, newgroup);
  clc_enter(R_MPI_Group_excl);
  int rc = PMPI_Group_excl(group, n, ranks, newgroup);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_free(MPI_Group *group) {
  if (!CLC_ON()) return PMPI_Group_free(group);
  clc_enter(R_MPI_Group_free);
  int rc = PMPI_Group_free(group);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup) {
  if (!CLC_ON()) return PMPI_Group_incl(group, n, ranks, newgroup);
  clc_enter(R_MPI_Group_incl);
  int rc = PMPI_Group_incl(group, n, ranks, newgroup);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
  if (!CLC_ON()) return PMPI_Group_intersection(group1, group2, newgroup);
  clc_enter(R_MPI_Group_intersection);
  int rc = PMPI_Group_intersection(group1, group2, newgroup);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) {
  if (!CLC_ON()) return PMPI_Group_range_excl(group, n, ranges, newgroup);
  clc_enter(R_MPI_Group_range_excl);
  int rc = PMPI_Group_range_excl(group, n, ranges, newgroup);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup) {
  if (!CLC_ON()) return PMPI_Group_range_incl(group, n, ranges, newgroup);
  clc_enter(R_MPI_Group_range_incl);
  int rc = PMPI_Group_range_incl(group, n, ranges, newgroup);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_rank(MPI_Group group, int *rank) {
  if (!CLC_ON()) return PMPI_Group_rank(group, rank);
  clc_enter(R_MPI_Group_rank);
  int rc = PMPI_Group_rank(group, rank);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_size(MPI_Group group, int *size) {
  if (!CLC_ON()) return PMPI_Group_size(group, size);
  clc_enter(R_MPI_Group_size);
  int rc = PMPI_Group_size(group, size);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]) {
  if (!CLC_ON()) return PMPI_Group_translate_ranks(group1, n, ranks1, group2, ranks2);
  clc_enter(R_MPI_Group_translate_ranks);
  int rc = PMPI_Group_translate_ranks(group1, n, ranks1, group2, ranks2);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup) {
  if (!CLC_ON()) return PMPI_Group_union(group1, group2, newgroup);
  clc_enter(R_MPI_Group_union);
  int rc = PMPI_Group_union(group1, group2, newgroup);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh) {
  if (!CLC_ON()) return PMPI_File_open(comm, filename, amode, info, fh);
  clc_enter(R_MPI_File_open);
  int rc = PMPI_File_open(comm, filename, amode, info, fh);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_close(MPI_File *fh) {
  if (!CLC_ON()) return PMPI_File_close(fh);
  clc_enter(R_MPI_File_close);
  int rc = PMPI_File_close(fh);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_delete(const char *filename, MPI_Info info) {
  if (!CLC_ON()) return PMPI_File_delete(filename, info);
  clc_enter(R_MPI_File_delete);
  int rc = PMPI_File_delete(filename, info);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_set_size(MPI_File fh, MPI_Offset size) {
  if (!CLC_ON()) return PMPI_File_set_size(fh, size);
  clc_enter(R_MPI_File_set_size);
  int rc = PMPI_File_set_size(fh, size);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_preallocate(MPI_File fh, MPI_Offset size) {
  if (!CLC_ON()) return PMPI_File_preallocate(fh, size);
  clc_enter(R_MPI_File_preallocate);
  int rc = PMPI_File_preallocate(fh, size);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_sync(MPI_File fh) {
  if (!CLC_ON()) return PMPI_File_sync(fh);
  clc_enter(R_MPI_File_sync);
  int rc = PMPI_File_sync(fh);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep, MPI_Info info) {
  if (!CLC_ON()) return PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
  clc_enter(R_MPI_File_set_view);
  int rc = PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_read_at(fh, offset, buf, count, datatype, status);
  clc_enter(R_MPI_File_read_at);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_read_at(fh, offset, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_read_at_all(fh, offset, buf, count, datatype, status);
  clc_enter(R_MPI_File_read_at_all);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_read_at_all(fh, offset, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_write_at(fh, offset, buf, count, datatype, status);
  clc_enter(R_MPI_File_write_at);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_write_at(fh, offset, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_write_at_all(fh, offset, buf, count, datatype, status);
  clc_enter(R_MPI_File_write_at_all);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_write_at_all(fh, offset, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iread_at(fh, offset, buf, count, datatype, request);
  clc_enter(R_MPI_File_iread_at);
  int rc = PMPI_File_iread_at(fh, offset, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iwrite_at(fh, offset, buf, count, datatype, request);
  clc_enter(R_MPI_File_iwrite_at);
  int rc = PMPI_File_iwrite_at(fh, offset, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iread_at_all(fh, offset, buf, count, datatype, request);
  clc_enter(R_MPI_File_iread_at_all);
  int rc = PMPI_File_iread_at_all(fh, offset, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iwrite_at_all(fh, offset, buf, count, datatype, request);
  clc_enter(R_MPI_File_iwrite_at_all);
  int rc = PMPI_File_iwrite_at_all(fh, offset, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_read(fh, buf, count, datatype, status);
  clc_enter(R_MPI_File_read);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_read(fh, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_read_all(fh, buf, count, datatype, status);
  clc_enter(R_MPI_File_read_all);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_read_all(fh, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_write(fh, buf, count, datatype, status);
  clc_enter(R_MPI_File_write);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_write(fh, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_write_all(fh, buf, count, datatype, status);
  clc_enter(R_MPI_File_write_all);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_write_all(fh, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iread(fh, buf, count, datatype, request);
  clc_enter(R_MPI_File_iread);
  int rc = PMPI_File_iread(fh, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iwrite(fh, buf, count, datatype, request);
  clc_enter(R_MPI_File_iwrite);
  int rc = PMPI_File_iwrite(fh, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iread_all(fh, buf, count, datatype, request);
  clc_enter(R_MPI_File_iread_all);
  int rc = PMPI_File_iread_all(fh, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iwrite_all(fh, buf, count, datatype, request);
  clc_enter(R_MPI_File_iwrite_all);
  int rc = PMPI_File_iwrite_all(fh, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  if (!CLC_ON()) return PMPI_File_seek(fh, offset, whence);
  clc_enter(R_MPI_File_seek);
  int rc = PMPI_File_seek(fh, offset, whence);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_read_shared(fh, buf, count, datatype, status);
  clc_enter(R_MPI_File_read_shared);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_read_shared(fh, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_write_shared(fh, buf, count, datatype, status);
  clc_enter(R_MPI_File_write_shared);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_write_shared(fh, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iread_shared(fh, buf, count, datatype, request);
  clc_enter(R_MPI_File_iread_shared);
  int rc = PMPI_File_iread_shared(fh, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_File_iwrite_shared(fh, buf, count, datatype, request);
  clc_enter(R_MPI_File_iwrite_shared);
  int rc = PMPI_File_iwrite_shared(fh, buf, count, datatype, request);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_read_ordered(fh, buf, count, datatype, status);
  clc_enter(R_MPI_File_read_ordered);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_read_ordered(fh, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_write_ordered(fh, buf, count, datatype, status);
  clc_enter(R_MPI_File_write_ordered);
  MPI_Status clc_st_status;
  if (status == MPI_STATUS_IGNORE) status = &clc_st_status;
  int rc = PMPI_File_write_ordered(fh, buf, count, datatype, status);
  const int64_t t1 = clc_now();
  h_io(rc, status, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  if (!CLC_ON()) return PMPI_File_seek_shared(fh, offset, whence);
  clc_enter(R_MPI_File_seek_shared);
  int rc = PMPI_File_seek_shared(fh, offset, whence);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype) {
  if (!CLC_ON()) return PMPI_File_read_at_all_begin(fh, offset, buf, count, datatype);
  clc_enter(R_MPI_File_read_at_all_begin);
  int rc = PMPI_File_read_at_all_begin(fh, offset, buf, count, datatype);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_read_at_all_end(fh, buf, status);
  clc_enter(R_MPI_File_read_at_all_end);
  int rc = PMPI_File_read_at_all_end(fh, buf, status);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype) {
  if (!CLC_ON()) return PMPI_File_write_at_all_begin(fh, offset, buf, count, datatype);
  clc_enter(R_MPI_File_write_at_all_begin);
  int rc = PMPI_File_write_at_all_begin(fh, offset, buf, count, datatype);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_write_at_all_end(fh, buf, status);
  clc_enter(R_MPI_File_write_at_all_end);
  int rc = PMPI_File_write_at_all_end(fh, buf, status);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype) {
  if (!CLC_ON()) return PMPI_File_read_all_begin(fh, buf, count, datatype);
  clc_enter(R_MPI_File_read_all_begin);
  int rc = PMPI_File_read_all_begin(fh, buf, count, datatype);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_read_all_end(fh, buf, status);
  clc_enter(R_MPI_File_read_all_end);
  int rc = PMPI_File_read_all_end(fh, buf, status);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype) {
  if (!CLC_ON()) return PMPI_File_write_all_begin(fh, buf, count, datatype);
  clc_enter(R_MPI_File_write_all_begin);
  int rc = PMPI_File_write_all_begin(fh, buf, count, datatype);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_write_all_end(fh, buf, status);
  clc_enter(R_MPI_File_write_all_end);
  int rc = PMPI_File_write_all_end(fh, buf, status);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype) {
  if (!CLC_ON()) return PMPI_File_read_ordered_begin(fh, buf, count, datatype);
  clc_enter(R_MPI_File_read_ordered_begin);
  int rc = PMPI_File_read_ordered_begin(fh, buf, count, datatype);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_read_ordered_end(fh, buf, status);
  clc_enter(R_MPI_File_read_ordered_end);
  int rc = PMPI_File_read_ordered_end(fh, buf, status);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype) {
  if (!CLC_ON()) return PMPI_File_write_ordered_begin(fh, buf, count, datatype);
  clc_enter(R_MPI_File_write_ordered_begin);
  int rc = PMPI_File_write_ordered_begin(fh, buf, count, datatype);
  const int64_t t1 = clc_now();
  h_bytes(count, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status) {
  if (!CLC_ON()) return PMPI_File_write_ordered_end(fh, buf, status);
  clc_enter(R_MPI_File_write_ordered_end);
  int rc = PMPI_File_write_ordered_end(fh, buf, status);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win) {
  if (!CLC_ON()) return PMPI_Win_create(base, size, disp_unit, info, comm, win);
  clc_enter(R_MPI_Win_create);
  int rc = PMPI_Win_create(base, size, disp_unit, info, comm, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win) {
  if (!CLC_ON()) return PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
  clc_enter(R_MPI_Win_allocate);
  int rc = PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win) {
  if (!CLC_ON()) return PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win);
  clc_enter(R_MPI_Win_allocate_shared);
  int rc = PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win) {
  if (!CLC_ON()) return PMPI_Win_create_dynamic(info, comm, win);
  clc_enter(R_MPI_Win_create_dynamic);
  int rc = PMPI_Win_create_dynamic(info, comm, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size) {
  if (!CLC_ON()) return PMPI_Win_attach(win, base, size);
  clc_enter(R_MPI_Win_attach);
  int rc = PMPI_Win_attach(win, base, size);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_detach(MPI_Win win, const void *base) {
  if (!CLC_ON()) return PMPI_Win_detach(win, base);
  clc_enter(R_MPI_Win_detach);
  int rc = PMPI_Win_detach(win, base);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_free(MPI_Win *win) {
  if (!CLC_ON()) return PMPI_Win_free(win);
  clc_enter(R_MPI_Win_free);
  int rc = PMPI_Win_free(win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_fence(int assert, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_fence(assert, win);
  clc_enter(R_MPI_Win_fence);
  int rc = PMPI_Win_fence(assert, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_start(group, assert, win);
  clc_enter(R_MPI_Win_start);
  int rc = PMPI_Win_start(group, assert, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_complete(MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_complete(win);
  clc_enter(R_MPI_Win_complete);
  int rc = PMPI_Win_complete(win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_post(group, assert, win);
  clc_enter(R_MPI_Win_post);
  int rc = PMPI_Win_post(group, assert, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_wait(MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_wait(win);
  clc_enter(R_MPI_Win_wait);
  int rc = PMPI_Win_wait(win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_test(MPI_Win win, int *flag) {
  if (!CLC_ON()) return PMPI_Win_test(win, flag);
  clc_enter(R_MPI_Win_test);
  int rc = PMPI_Win_test(win, flag);
  const int64_t t1 = clc_now();
  h_polled(rc, *flag);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_lock(lock_type, rank, assert, win);
  clc_enter(R_MPI_Win_lock);
  int rc = PMPI_Win_lock(lock_type, rank, assert, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_unlock(int rank, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_unlock(rank, win);
  clc_enter(R_MPI_Win_unlock);
  int rc = PMPI_Win_unlock(rank, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_lock_all(int assert, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_lock_all(assert, win);
  clc_enter(R_MPI_Win_lock_all);
  int rc = PMPI_Win_lock_all(assert, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_unlock_all(MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_unlock_all(win);
  clc_enter(R_MPI_Win_unlock_all);
  int rc = PMPI_Win_unlock_all(win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_flush(int rank, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_flush(rank, win);
  clc_enter(R_MPI_Win_flush);
  int rc = PMPI_Win_flush(rank, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_flush_all(MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_flush_all(win);
  clc_enter(R_MPI_Win_flush_all);
  int rc = PMPI_Win_flush_all(win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_flush_local(int rank, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_flush_local(rank, win);
  clc_enter(R_MPI_Win_flush_local);
  int rc = PMPI_Win_flush_local(rank, win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_flush_local_all(MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_flush_local_all(win);
  clc_enter(R_MPI_Win_flush_local_all);
  int rc = PMPI_Win_flush_local_all(win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Win_sync(MPI_Win win) {
  if (!CLC_ON()) return PMPI_Win_sync(win);
  clc_enter(R_MPI_Win_sync);
  int rc = PMPI_Win_sync(win);
  const int64_t t1 = clc_now();
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win);
  clc_enter(R_MPI_Put);
  int rc = PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win);
  clc_enter(R_MPI_Get);
  int rc = PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
  clc_enter(R_MPI_Accumulate);
  int rc = PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
  clc_enter(R_MPI_Get_accumulate);
  int rc = PMPI_Get_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype); h_bytes(result_count, result_datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Fetch_and_op(origin_addr, result_addr, datatype, target_rank, target_disp, op, win);
  clc_enter(R_MPI_Fetch_and_op);
  int rc = PMPI_Fetch_and_op(origin_addr, result_addr, datatype, target_rank, target_disp, op, win);
  const int64_t t1 = clc_now();
  h_bytes(1, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win) {
  if (!CLC_ON()) return PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win);
  clc_enter(R_MPI_Compare_and_swap);
  int rc = PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win);
  const int64_t t1 = clc_now();
  h_bytes(1, datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Rput(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request);
  clc_enter(R_MPI_Rput);
  int rc = PMPI_Rput(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Rget(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request);
  clc_enter(R_MPI_Rget);
  int rc = PMPI_Rget(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, win, request);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Raccumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request);
  clc_enter(R_MPI_Raccumulate);
  int rc = PMPI_Raccumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype);
  clc_leave(t1);
  return rc;
}

CLC_EXPORT int MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request) {
  if (!CLC_ON()) return PMPI_Rget_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request);
  clc_enter(R_MPI_Rget_accumulate);
  int rc = PMPI_Rget_accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp, target_count, target_datatype, op, win, request);
  const int64_t t1 = clc_now();
  h_bytes(origin_count, origin_datatype); h_bytes(result_count, result_datatype);
  clc_leave(t1);
  return rc;
}
