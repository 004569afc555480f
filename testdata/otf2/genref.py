#!/usr/bin/python3
"""Write an OTF2 archive with the reference library (python3-otf2).

Usage: /usr/bin/python3 genref.py OUTDIR [ITERATIONS] [CHUNK_SIZE]

The archive has 4 ranks on 2 nodes whose location ids are above 2^32,
Enter/Leave, every MPI event record type, communicators (world, a split
one, MPI_COMM_SELF), attributes of several types, metrics, BufferFlush,
MeasurementOnOff, ProgramBegin/End, thread fork/join and RMA records, and
events sharing a timestamp. With many ITERATIONS and the smallest chunk
size (256 KiB) every event file spans several chunks. The otf/ tests read
and rewrite it and compare otf2-print's output of both.
"""
import sys

import otf2
from otf2.enums import (CollectiveOp, GroupType, MeasurementMode, Paradigm,
                        RegionRole, Type)

out = sys.argv[1]
iters = int(sys.argv[2]) if len(sys.argv) > 2 else 10
chunk = int(sys.argv[3]) if len(sys.argv) > 3 else 256 * 1024
NRANKS = 4

with otf2.writer.open(out, timer_resolution=1000000000, chunk_size_events=chunk,
                      chunk_size_definitions=chunk) as tr:
    d = tr.definitions
    # Location ids above 2^32, as Score-P's rank | thread << 32.
    d._locations._ref = (1 << 32) - 1
    machine = d.system_tree_node("machine")
    nodes = [d.system_tree_node("node%d" % i, parent=machine) for i in range(2)]
    lgs = [d.location_group("MPI Rank %d" % r, system_tree_parent=nodes[r // 2])
           for r in range(NRANKS)]
    locs = [d.location("Master thread", group=lgs[r]) for r in range(NRANKS)]
    d.group("world locations", group_type=GroupType.COMM_LOCATIONS,
            paradigm=Paradigm.MPI, members=locs)
    world = d.comm("MPI_COMM_WORLD", group=d.group(
        "world", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
        members=list(range(NRANKS))))
    # Ranks 3 and 1 of world, in that order: rank 0 of "odd" is world rank 3.
    odd = d.comm("odd", group=d.group(
        "odd", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=[3, 1]),
        parent=world)
    selfc = d.comm("MPI_COMM_SELF", group=d.group(
        "self", group_type=GroupType.COMM_SELF, paradigm=Paradigm.MPI, members=[]))

    def region(name, role=RegionRole.FUNCTION, paradigm=Paradigm.USER):
        return d.region(name, region_role=role, paradigm=paradigm)

    r_main = region("main")
    r_init = region("MPI_Init", RegionRole.FUNCTION, Paradigm.MPI)
    r_send = region("MPI_Send", RegionRole.POINT2POINT, Paradigm.MPI)
    r_recv = region("MPI_Recv", RegionRole.POINT2POINT, Paradigm.MPI)
    r_wait = region("MPI_Waitall", RegionRole.POINT2POINT, Paradigm.MPI)
    r_coll = region("MPI_Allreduce", RegionRole.COLL_ALL2ALL, Paradigm.MPI)
    r_fin = region("MPI_Finalize", RegionRole.FUNCTION, Paradigm.MPI)
    a_str = d.attribute("note", "a string attribute", Type.STRING)
    a_u64 = d.attribute("count", "an unsigned attribute", Type.UINT64)
    a_i64 = d.attribute("delta", "a signed attribute", Type.INT64)
    a_dbl = d.attribute("ratio", "a double attribute", Type.DOUBLE)
    a_u8 = d.attribute("flag", "a small attribute", Type.UINT8)
    metric = d.metric("temperature", unit="C")
    win = d.rma_win("window", world)

    ws = [tr.event_writer_from_location(l) for l in locs]
    for r, w in enumerate(ws):
        t = 1000000 + 1000 * r
        w.program_begin(t, "/bin/app", ["-n", "4"],
                        attributes={a_u64: 4242 + r})
        t += 10
        w.enter(t, r_main)
        w.enter(t, r_init)  # shares the timestamp of the previous event
        t += 100
        w.leave(t, r_init)
        for k in range(iters):
            peer = (r + 1) % NRANKS
            src = (r - 1) % NRANKS
            tag = k % 7
            t += 11
            w.enter(t, r_send)
            t += 3
            w.mpi_send(t, peer, world, tag, 64 * (k + 1), attributes={
                a_str: "hello", a_i64: -3 - k, a_dbl: 0.5 * k, a_u8: k % 256})
            w.leave(t, r_send)
            t += 5
            w.enter(t, r_recv)
            t += 7
            w.mpi_recv(t, src, world, tag, 64 * (k + 1))
            w.leave(t, r_recv)
            t += 2
            w.mpi_isend(t, peer, world, tag + 1, 8, 2 * k + 1)
            w.mpi_irecv_request(t, 2 * k + 2)
            t += 1
            w.mpi_request_test(t, 2 * k + 2)
            w.enter(t, r_wait)
            t += 4
            w.mpi_isend_complete(t, 2 * k + 1)
            w.mpi_irecv(t, src, world, tag + 1, 8, 2 * k + 2)
            w.leave(t, r_wait)
            t += 1
            w.mpi_irecv_request(t, 1 << 40)
            w.mpi_request_cancelled(t, 1 << 40)
            t += 3
            op = CollectiveOp(k % 23)
            w.enter(t, r_coll)
            w.mpi_collective_begin(t)
            t += 9
            root = 0xFFFFFFFF if k % 2 == 0 else k % NRANKS
            w.mpi_collective_end(t, op, world, root, 8 * k, 16 * k)
            w.leave(t, r_coll)
            if r in (1, 3):
                t += 2
                w.comm_create(t, odd)
                w.mpi_collective_begin(t)
                t += 1
                w.mpi_collective_end(t, CollectiveOp.BARRIER, odd, 0xFFFFFFFF, 0, 0)
                w.non_blocking_collective_request(t, 77 + k)
                t += 2
                w.non_blocking_collective_complete(t, CollectiveOp.ALLREDUCE, odd, 0xFFFFFFFF,
                                                  4, 4, 77 + k)
                w.comm_destroy(t, odd)
            t += 1
            w.mpi_send(t, 0, selfc, 5, 1)
            w.mpi_recv(t, 0, selfc, 5, 1)
            t += 1
            w.metric(t, metric, float(20 + k % 5))
            if k % 50 == 0:
                w.buffer_flush(t, t + 500)
                t += 500
                w.measurement_on_off(t, MeasurementMode.OFF)
                t += 5
                w.measurement_on_off(t, MeasurementMode.ON)
                w.rma_win_create(t, win)
                w.rma_put(t, win, peer, 128, 9)
                w.rma_op_complete_blocking(t, win, 9)
                w.rma_win_destroy(t, win)
                w.thread_fork(t, Paradigm.OPENMP, 2)
                w.thread_join(t, Paradigm.OPENMP)
        t += 10
        w.enter(t, r_fin)
        t += 50
        w.leave(t, r_fin)
        w.leave(t, r_main)
        w.program_end(t + 1, 0, attributes={a_str: "bye"})
