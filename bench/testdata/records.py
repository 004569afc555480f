#!/usr/bin/python3
"""Write an OTF2 archive with the record types other test archives lack.

Usage: /usr/bin/python3 records.py OUTDIR

Written with the reference library's Python bindings (python3-otf2), as an
independent writer for bench/otf2copy_test.go. testdata/otf2/genref.py covers
the MPI records, attributes, metrics, BufferFlush, MeasurementOnOff, RMA and
thread fork/join; the Score-P archives in testdata/ cover mapping tables and
clock offsets. This archive adds: every Thread* record (teams, locks, tasks,
create/begin/wait/end), the OpenMP records, calling contexts (CallingContext,
CallingContextProperty, SourceCodeLocation, InterruptGenerator definitions;
enter, leave and sample events), parameters (Parameter definitions, string,
int and unsigned events), I/O handles and operations, and the property
definitions (SystemTreeNodeProperty, SystemTreeNodeDomain,
LocationGroupProperty, LocationProperty), MetricClassRecorder and
CartTopology.
"""
import sys

import otf2
from otf2.enums import (GroupType, InterruptGeneratorMode, IoAccessMode,
                        IoCreationFlag, IoOperationFlag, IoOperationMode,
                        IoParadigmClass, IoParadigmFlag, IoSeekOption,
                        IoStatusFlag, LocationType, LockType, Paradigm,
                        ParameterType, SystemTreeDomain, Type)

out = sys.argv[1]

with otf2.writer.open(out, timer_resolution=1000000000) as tr:
    d = tr.definitions
    machine = d.system_tree_node("machine")
    node = d.system_tree_node("node0", parent=machine)
    d.system_tree_node_property(node, "CPU", value="x86_64")
    d.system_tree_node_domain(node, SystemTreeDomain.SHARED_MEMORY)
    proc = d.location_group("Process 0", system_tree_parent=node)
    d.location_group_property(proc, "PID", value=4242)
    master = d.location("Master thread", type=LocationType.CPU_THREAD, group=proc)
    worker = d.location("Worker thread", type=LocationType.CPU_THREAD, group=proc)
    d.location_property(worker, "affinity", value="core 1")
    threads = d.group("threads", group_type=GroupType.COMM_LOCATIONS,
                      paradigm=Paradigm.OPENMP, members=[master, worker])
    team = d.comm("team", group=d.group("team", group_type=GroupType.COMM_GROUP,
                                        paradigm=Paradigm.OPENMP, members=[0, 1]))
    r_main = d.region("main")
    r_par = d.region("parallel region", paradigm=Paradigm.OPENMP)
    src = d.source_code_location("main.c", 42)
    cc_main = d.calling_context(r_main, src, parent=None)
    cc_par = d.calling_context(r_par, src, parent=cc_main)
    d.calling_context_property(cc_par, "inlined", value=1)
    sampler = d.interrupt_generator("sampler", InterruptGeneratorMode.TIME, period=1000000)
    p_size = d.parameter("size", ParameterType.INT64)
    p_count = d.parameter("count", ParameterType.UINT64)
    p_name = d.parameter("name", ParameterType.STRING)
    io_posix = d.io_paradigm("POSIX", "POSIX I/O", IoParadigmClass.SERIAL,
                             IoParadigmFlag.OS)
    f = d.io_regular_file("/tmp/data", scope=node)
    d.io_file_property(f, "size", value=1024)
    h = d.io_handle("fd 3", file=f, io_paradigm=io_posix, comm=team)
    h2 = d.io_handle("fd 4", file=f, io_paradigm=io_posix, comm=team)
    metric = d.metric("cycles", unit="#")
    d.metric_class_recorder(metric.metric_class if hasattr(metric, "metric_class") else metric,
                            master)
    dims = [d.cart_dimension("x", 2, otf2.definitions.CartPeriodicity.FALSE)]
    topo = d.cart_topology("grid", team, dims)
    d.cart_coordinate(topo, 0, [0])
    d.cart_coordinate(topo, 1, [1])

    for i, loc in enumerate([master, worker]):
        w = tr.event_writer_from_location(loc)
        t = 1000 + i
        w.enter(t, r_main)
        w.calling_context_enter(t + 1, cc_main, 1)
        w.parameter_int(t + 2, p_size, -5)
        w.parameter_unsigned_int(t + 3, p_count, 7)
        w.parameter_string(t + 4, p_name, "x")
        w.thread_fork(t + 5, Paradigm.OPENMP, 2)
        w.thread_team_begin(t + 6, team)
        w.thread_acquire_lock(t + 7, Paradigm.OPENMP, 1, 1)
        w.thread_release_lock(t + 8, Paradigm.OPENMP, 1, 1)
        w.thread_task_create(t + 9, team, i, 1)
        w.thread_task_switch(t + 10, team, i, 1)
        w.thread_task_complete(t + 11, team, i, 1)
        w.thread_create(t + 12, team, 1)
        w.thread_begin(t + 13, team, 1)
        w.thread_wait(t + 14, team, 1)
        w.thread_end(t + 15, team, 1)
        w.thread_team_end(t + 16, team)
        w.thread_join(t + 17, Paradigm.OPENMP)
        w.omp_fork(t + 18, 2)
        w.omp_acquire_lock(t + 19, 3, 1)
        w.omp_release_lock(t + 20, 3, 1)
        w.omp_task_create(t + 21, 9)
        w.omp_task_switch(t + 22, 9)
        w.omp_task_complete(t + 23, 9)
        w.omp_join(t + 24)
        w.calling_context_sample(t + 25, cc_par, 2, sampler)
        w.calling_context_leave(t + 26, cc_main)
        w.io_create_handle(t + 27, h, IoAccessMode.READ_WRITE, IoCreationFlag.CREATE,
                           IoStatusFlag.NONE)
        w.io_duplicate_handle(t + 28, h, h2, IoStatusFlag.NONE)
        w.io_seek(t + 29, h, 10, IoSeekOption.FROM_START, 10)
        w.io_change_status_flags(t + 30, h, IoStatusFlag.APPEND)
        w.io_operation_begin(t + 31, h, IoOperationMode.WRITE, IoOperationFlag.NON_BLOCKING,
                             64, 5)
        w.io_operation_issued(t + 32, h, 5)
        w.io_operation_test(t + 33, h, 5)
        w.io_operation_complete(t + 34, h, 64, 5)
        w.io_operation_begin(t + 35, h, IoOperationMode.READ, IoOperationFlag.NON_BLOCKING,
                             8, 6)
        w.io_operation_cancelled(t + 36, h, 6)
        w.io_acquire_lock(t + 37, h, LockType.EXCLUSIVE)
        w.io_try_lock(t + 38, h, LockType.SHARED)
        w.io_release_lock(t + 39, h, LockType.EXCLUSIVE)
        w.io_destroy_handle(t + 40, h2)
        w.io_destroy_handle(t + 41, h)
        w.io_delete_file(t + 42, io_posix, f)
        w.metric(t + 43, metric, 12345)
        w.leave(t + 44, r_main, attributes={d.attribute("note", "", Type.STRING): "end"})
