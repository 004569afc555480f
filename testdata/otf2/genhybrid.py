#!/usr/bin/python3
"""Write a hybrid MPI + OpenMP + pthread trace with the reference library
(python3-otf2), laid out as Score-P writes one, together with its truth.

Usage: /usr/bin/python3 genhybrid.py OUTDIR [PROCS] [THREADS] [ITERATIONS] [SEED]

The program runs in true time (nanosecond ticks): PROCS MPI processes of
THREADS OpenMP threads on PROCS/2 nodes; per iteration every process runs a
parallel region (fork, team begin, work, a critical section as lock
acquisitions with their order, tasks created by the master and run by any
thread, inside a taskwait or the implicit barrier, an explicit barrier,
team end, join), then the masters exchange messages in a ring and run an
allreduce; every other iteration the master creates a pthread on a worker
location (create, begin, end, wait). Each process has a metric location.

Definitions follow Score-P: one location group per process under its
node, an MPI COMM_LOCATIONS group of the master threads, an OpenMP
COMM_LOCATIONS group of all threads with one COMM_GROUP team per process
(ranks into that list), likewise a pthread contingent per process;
regions with their OpenMP roles. Node clocks read
t + offset + drift*t + wander(t) (node 0 exact); the same two ClockOffset
records (at "MPI_Init" and "MPI_Finalize") go to every location of a
process, as Score-P writes them.

Writes OUTDIR/rec (the recorded archive) and OUTDIR/truth (the same events
with the true times, no offsets). Nothing here uses clc's code.
"""
import math
import random
import sys

import _otf2
import otf2
from otf2.enums import (CollectiveOp, GroupType, LocationType, Paradigm,
                        RegionRole)

out = sys.argv[1]
NP = int(sys.argv[2]) if len(sys.argv) > 2 else 4
NT = int(sys.argv[3]) if len(sys.argv) > 3 else 4
ITERS = int(sys.argv[4]) if len(sys.argv) > 4 else 20
SEED = int(sys.argv[5]) if len(sys.argv) > 5 else 1
rng = random.Random(SEED)

NNODES = max(1, NP // 2)
LAT = 2000          # MPI latency between nodes, ns
LAT_INTRA = 500
SHM = 50            # thread hand-over, ns
T0 = 1000000000

# Node clocks: offset, drift, a wander sinusoid (node 0 exact).
clock = []
for n in range(NNODES):
    if n == 0:
        clock.append((0.0, 0.0, 0.0, 1.0, 0.0))
    else:
        clock.append((rng.uniform(-1e6, 1e6), rng.uniform(-2e-5, 2e-5),
                      rng.uniform(10000, 30000), rng.uniform(20e6, 60e6), rng.uniform(0, 6.28)))


def local(node, t):
    off, drift, amp, period, phase = clock[node]
    return int(t + off + drift * (t - T0) + amp * math.sin(2 * math.pi * (t - T0) / period + phase))


node_of = [p * NNODES // NP for p in range(NP)]

# events[(p, th)] = list of (true time, method name, args); th == NT is the
# metric location.
events = {(p, th): [] for p in range(NP) for th in range(NT + 1)}
now = {(p, th): T0 + rng.randint(0, 100000) for p in range(NP) for th in range(NT + 1)}


def emit(loc, t, name, *args):
    t = max(t, now[loc] + rng.randint(1, 40))
    now[loc] = t
    events[loc].append((t, name, args))
    return t


ORDER = {}   # (p, lock) -> next acquisition order
FREE = {}    # (p, lock) -> last release
GEN = {}     # (p, thread) -> last generation number
SEQ = {}     # p -> last pthread sequence count


def parallel(p):
    m = (p, 0)
    fork = emit(m, now[m] + rng.randint(100, 2000), "thread_fork", Paradigm.OPENMP, NT)
    for th in range(NT):
        loc = (p, th)
        emit(loc, fork + SHM, "thread_team_begin", "team")
        emit(loc, 0, "enter", "parallel")
        now[loc] += rng.randint(200000, 800000)  # work
    # critical section in arrival order
    for th in sorted(range(NT), key=lambda th: now[(p, th)]):
        loc, key = (p, th), (p, 1)
        o = ORDER.get(key, 0)
        ORDER[key] = o + 1
        emit(loc, 0, "enter", "critical")
        emit(loc, FREE.get(key, 0) + SHM, "thread_acquire_lock", Paradigm.OPENMP, 1, o)
        FREE[key] = emit(loc, now[loc] + rng.randint(100, 500), "thread_release_lock", Paradigm.OPENMP, 1, o)
        emit(loc, 0, "leave", "critical")
    tasks = []
    for _ in range(rng.randint(0, 3)):
        GEN[m] = GEN.get(m, 0) + 1
        emit(m, 0, "enter", "create task")
        c = emit(m, 0, "thread_task_create", "team", 0, GEN[m])
        emit(m, 0, "leave", "create task")
        tasks.append((c, GEN[m], (p, rng.randrange(NT))))

    def run(task):
        c, gen, loc = task
        emit(loc, c + SHM, "thread_task_switch", "team", 0, gen)
        emit(loc, 0, "enter", "task")
        now[loc] += rng.randint(1000, 10000)
        emit(loc, 0, "leave", "task")
        return emit(loc, 0, "thread_task_complete", "team", 0, gen)

    if tasks and rng.random() < 0.5:
        emit(m, 0, "enter", "taskwait")
        done = max(run(tk) for tk in tasks)
        emit(m, done + SHM, "leave", "taskwait")
        tasks = []

    def barrier(region, late):
        last = max(emit((p, th), 0, "enter", region) for th in range(NT))
        for tk in late:
            last = max(last, run(tk))
        for th in range(NT):
            emit((p, th), last + SHM, "leave", region)

    if rng.random() < 0.5:
        barrier("barrier", [])
    barrier("implicit barrier", tasks)
    ends = 0
    for th in range(NT):
        emit((p, th), 0, "leave", "parallel")
        ends = max(ends, emit((p, th), 0, "thread_team_end", "team"))
    emit(m, ends + SHM, "thread_join", Paradigm.OPENMP)
    emit((p, NT), now[m], "metric", float(now[m] % 1000))


def pthread(p):
    m, w = (p, 0), (p, rng.randrange(1, NT))
    SEQ[p] = SEQ.get(p, 0) + 1
    c = emit(m, 0, "thread_create", "contingent", SEQ[p])
    emit(w, c + SHM, "thread_begin", "contingent", SEQ[p])
    now[w] += rng.randint(1000, 20000)
    e = emit(w, 0, "thread_end", "contingent", SEQ[p])
    emit(m, e + SHM, "thread_wait", "contingent", SEQ[p])


def lat(a, b):
    return LAT_INTRA if node_of[a] == node_of[b] else LAT


def mpi_ring(tag):
    sends = {}
    for p in range(NP):
        m = (p, 0)
        emit(m, 0, "enter", "MPI_Send")
        sends[p] = emit(m, 0, "mpi_send", (p + 1) % NP, "world", tag, 64)
        emit(m, 0, "leave", "MPI_Send")
    for p in range(NP):
        m, src = (p, 0), (p - 1) % NP
        emit(m, 0, "enter", "MPI_Recv")
        emit(m, sends[src] + lat(src, p) + rng.randint(0, 300), "mpi_recv", src, "world", tag, 64)
        emit(m, 0, "leave", "MPI_Recv")


def mpi_allreduce():
    begins = {}
    for p in range(NP):
        m = (p, 0)
        emit(m, 0, "enter", "MPI_Allreduce")
        begins[p] = emit(m, 0, "mpi_collective_begin")
    for p in range(NP):
        m = (p, 0)
        dep = max(begins[q] + lat(q, p) for q in range(NP) if q != p) if NP > 1 else 0
        emit(m, dep + rng.randint(0, 300), "mpi_collective_end", CollectiveOp.ALLREDUCE, "world", 0xFFFFFFFF, 8, 8)
        emit(m, 0, "leave", "MPI_Allreduce")


def world_region(name):
    enters = {p: emit((p, 0), 0, "enter", name) for p in range(NP)}
    last = max(enters.values())
    for p in range(NP):
        emit((p, 0), last + LAT, "leave", name)
    return {p: now[(p, 0)] for p in range(NP)}


for p in range(NP):
    emit((p, 0), 0, "enter", "main")
init = world_region("MPI_Init")
for it in range(ITERS):
    for p in range(NP):
        parallel(p)
        if it % 2 == 1 and NT > 1:
            pthread(p)
    mpi_ring(it % 5)
    mpi_allreduce()
fin = world_region("MPI_Finalize")
for p in range(NP):
    emit((p, 0), 0, "leave", "main")


def write(path, recorded):
    with otf2.writer.open(path, timer_resolution=1000000000) as tr:
        d = tr.definitions
        machine = d.system_tree_node("machine")
        nodes = [d.system_tree_node("node%d" % n, parent=machine) for n in range(NNODES)]
        lgs = [d.location_group("MPI Rank %d" % p, system_tree_parent=nodes[node_of[p]]) for p in range(NP)]
        locs = {}
        for p in range(NP):
            for th in range(NT):
                locs[(p, th)] = d.location("Master thread" if th == 0 else "OMP thread %d" % th, group=lgs[p])
            locs[(p, NT)] = d.location("metrics", type=LocationType.METRIC, group=lgs[p])
        masters = [locs[(p, 0)] for p in range(NP)]
        threads = [locs[(p, th)] for p in range(NP) for th in range(NT)]
        d.group("MPI", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=masters)
        world = d.comm("MPI_COMM_WORLD", group=d.group("world", group_type=GroupType.COMM_GROUP,
                                                        paradigm=Paradigm.MPI, members=list(range(NP))))
        d.group("OpenMP", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.OPENMP, members=threads)
        teams = [d.comm("OpenMP thread team", group=d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.OPENMP,
                                                              members=[p * NT + th for th in range(NT)]))
                 for p in range(NP)]
        d.group("Pthread", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.PTHREAD, members=threads)
        conts = [d.comm("Pthread contingent", group=d.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.PTHREAD,
                                                              members=[p * NT + th for th in range(NT)]))
                 for p in range(NP)]
        reg = {}
        for name, role, par in [
                ("main", RegionRole.FUNCTION, Paradigm.USER),
                ("MPI_Init", RegionRole.FUNCTION, Paradigm.MPI),
                ("MPI_Finalize", RegionRole.FUNCTION, Paradigm.MPI),
                ("MPI_Send", RegionRole.POINT2POINT, Paradigm.MPI),
                ("MPI_Recv", RegionRole.POINT2POINT, Paradigm.MPI),
                ("MPI_Allreduce", RegionRole.COLL_ALL2ALL, Paradigm.MPI),
                ("parallel", RegionRole.PARALLEL, Paradigm.OPENMP),
                ("critical", RegionRole.CRITICAL, Paradigm.OPENMP),
                ("create task", RegionRole.TASK_CREATE, Paradigm.OPENMP),
                ("task", RegionRole.TASK, Paradigm.OPENMP),
                ("taskwait", RegionRole.TASK_WAIT, Paradigm.OPENMP),
                ("barrier", RegionRole.BARRIER, Paradigm.OPENMP),
                ("implicit barrier", RegionRole.IMPLICIT_BARRIER, Paradigm.OPENMP)]:
            full = name if name.startswith("MPI_") or name == "main" else "!$omp %s @hybrid.c:%d" % (name, len(reg) + 1)
            reg[name] = d.region(full, region_role=role, paradigm=par)
        metric = d.metric("counter", unit="#")
        writers = {}
        for (p, th), evs in events.items():
            w = writers[(p, th)] = tr.event_writer_from_location(locs[(p, th)])
            node = node_of[p]
            for t, name, args in evs:
                ts = local(node, t) if recorded else t
                if name in ("enter", "leave"):
                    args = (reg[args[0]],)
                elif name in ("thread_team_begin", "thread_team_end", "thread_task_create",
                              "thread_task_switch", "thread_task_complete"):
                    args = (teams[p],) + args[1:]
                elif name in ("thread_create", "thread_begin", "thread_end", "thread_wait"):
                    args = (conts[p],) + args[1:]
                elif name in ("mpi_send", "mpi_recv"):
                    args = (args[0], world) + args[2:]
                elif name == "mpi_collective_end":
                    args = (args[0], world) + args[2:]
                elif name == "metric":
                    args = (metric, args[0])
                getattr(w, name)(ts, *args)
        if recorded:
            # The offsets of each process, measured at its MPI_Init and
            # MPI_Finalize leave, written for every one of its locations.
            for p in range(NP):
                node = node_of[p]
                meas = [(local(node, t), t - local(node, t)) for t in (init[p], fin[p])]
                for th in range(NT + 1):
                    # the local definition writer the event writer holds
                    dw = writers[(p, th)]._def_handle
                    for lt, off in meas:
                        _otf2.DefWriter_WriteClockOffset(dw, lt, off, 0.0)


write(out + "/rec", True)
write(out + "/truth", False)
