"""The MPI calls a simulated program makes, recorded as Score-P records them.

Proc is one MPI rank (one OTF2 location). Its methods are generators: a
program calls them with `yield from`. `self.t` is the rank's own progress in
true time; recording an event stamps it with `self.t`, and overheads advance
`self.t` without a trip through the event heap. Before anything that touches
shared state (starting a send, posting a receive, waiting, testing) the rank
synchronises: it yields until the engine's clock reaches `self.t`, so every
interaction happens at its true time in global order.

The collectives run the algorithms of collectives.py over the engine's
point-to-point layer on the communicator's own context (so they never match
user messages), and are recorded as Enter, MpiCollectiveBegin, ...,
MpiCollectiveEnd, Leave with root and the bytes sent and received as Score-P
counts them (non-in-place calls).
"""

from . import collectives as coll
from .engine import (ANY, CTX_SYNC, E_COLL_BEGIN, E_COLL_END, E_ENTER, E_IRECV,
                     E_IRECV_REQ, E_ISEND, E_ISEND_C, E_LEAVE, E_RECV, E_REQ_TEST, E_SEND)

UNDEF_ROOT = 0xFFFFFFFF


class Overheads:
    """Software costs in seconds (true time)."""

    def __init__(self, call=(0.15e-6, 0.45e-6), record=(15e-9, 60e-9), internal=0.12e-6,
                 reduce_bw=4e9, init=0.25, sync_rounds=10):
        self.call = call            # entering/leaving an MPI call (uniform range)
        self.record = record        # the tracer writing one record (uniform range)
        self.internal = internal    # one step of a collective algorithm
        self.reduce_bw = reduce_bw  # bytes per second combined by a reduction
        self.init = init            # MPI_Init's own start-up work
        self.sync_rounds = sync_rounds  # ping-pong rounds per offset measurement


class Proc:
    def __init__(self, eng, rank, node, clock, rng, ov, regions):
        self.eng = eng
        self.rank = rank
        self.node = node
        self.clock = clock
        self.rng = rng
        self.ov = ov
        self.R = regions            # region name -> id
        self.t = 0.0
        self.ev = []                # (true time, code, fields...)
        self.gen = None
        self.finished = False
        self.waiting = None
        self.rid = 0
        self.coll_k = {}
        self.offsets = []           # (local ticks, reference - local ticks, stddev ticks, true s)
        eng.procs.append(self)

    # -- time and recording ---------------------------------------------------
    def adv(self, dt):
        self.t += dt

    def call_ov(self):
        a, b = self.ov.call
        self.t += self.rng.uniform(a, b)

    def rec(self, code, *fields):
        a, b = self.ov.record
        self.t += self.rng.uniform(a, b)
        self.ev.append((self.t, code) + fields)
        return len(self.ev) - 1

    def enter(self, name):
        return self.rec(E_ENTER, self.R[name])

    def leave(self, name):
        return self.rec(E_LEAVE, self.R[name])

    def sync(self):
        d = self.t - self.eng.now
        if d > 0.0:
            yield d

    def wait_reqs(self, mode, reqs):
        yield from self.sync()
        res = yield (mode, reqs)
        if self.eng.now > self.t:
            self.t = self.eng.now
        return res

    def new_rid(self):
        self.rid += 1
        return self.rid

    def compute(self, dt, region="compute"):
        self.enter(region)
        self.t += dt
        self.leave(region)
        yield from self.sync()

    # -- point to point -------------------------------------------------------
    def send(self, comm, dst, tag, size, region="MPI_Send"):
        self.enter(region)
        self.call_ov()
        idx = self.rec(E_SEND, comm.id, dst, tag, size)
        yield from self.sync()
        req = self.eng.start_send(self, comm.members[dst], comm.ctx_p2p, tag, size, comm)
        req.msg.send_ev = (self.rank, idx)
        yield from self.wait_reqs("all", [req])
        self.call_ov()
        self.leave(region)

    def recv(self, comm, src, tag, region="MPI_Recv"):
        self.enter(region)
        self.call_ov()
        yield from self.sync()
        wsrc = ANY if src == ANY else comm.members[src]
        req = self.eng.post_recv(self, wsrc, comm.ctx_p2p, tag, comm)
        yield from self.wait_reqs("all", [req])
        self.call_ov()
        msg = req.msg
        idx = self.rec(E_RECV, comm.id, comm.rank_of[msg.src], msg.tag, msg.size)
        msg.recv_ev = (self.rank, idx)
        msg.recv_post_ev = (self.rank, idx)
        self.leave(region)
        return msg

    def sendrecv(self, comm, dst, stag, size, src, rtag):
        self.enter("MPI_Sendrecv")
        self.call_ov()
        sidx = self.rec(E_SEND, comm.id, dst, stag, size)
        yield from self.sync()
        sreq = self.eng.start_send(self, comm.members[dst], comm.ctx_p2p, stag, size, comm)
        sreq.msg.send_ev = (self.rank, sidx)
        wsrc = ANY if src == ANY else comm.members[src]
        rreq = self.eng.post_recv(self, wsrc, comm.ctx_p2p, rtag, comm)
        yield from self.wait_reqs("all", [sreq, rreq])
        self.call_ov()
        msg = rreq.msg
        idx = self.rec(E_RECV, comm.id, comm.rank_of[msg.src], msg.tag, msg.size)
        msg.recv_ev = (self.rank, idx)
        msg.recv_post_ev = (self.rank, idx)
        self.leave("MPI_Sendrecv")
        return msg

    def isend(self, comm, dst, tag, size):
        self.enter("MPI_Isend")
        self.call_ov()
        rid = self.new_rid()
        idx = self.rec(E_ISEND, comm.id, dst, tag, size, rid)
        yield from self.sync()
        req = self.eng.start_send(self, comm.members[dst], comm.ctx_p2p, tag, size, comm)
        req.rid = rid
        req.msg.send_ev = (self.rank, idx)
        self.call_ov()
        self.leave("MPI_Isend")
        return req

    def irecv(self, comm, src, tag):
        self.enter("MPI_Irecv")
        self.call_ov()
        yield from self.sync()
        wsrc = ANY if src == ANY else comm.members[src]
        req = self.eng.post_recv(self, wsrc, comm.ctx_p2p, tag, comm)
        req.rid = self.new_rid()
        req.post_ev = (self.rank, self.rec(E_IRECV_REQ, req.rid))
        self.call_ov()
        self.leave("MPI_Irecv")
        return req

    def _record_completion(self, req):
        if req.send:
            self.rec(E_ISEND_C, req.rid)
        else:
            msg = req.msg
            idx = self.rec(E_IRECV, req.comm.id, req.comm.rank_of[msg.src], msg.tag,
                           msg.size, req.rid)
            msg.recv_ev = (self.rank, idx)
            msg.recv_post_ev = req.post_ev

    def wait(self, req):
        yield from self.waitall([req], region="MPI_Wait")

    def waitall(self, reqs, region="MPI_Waitall"):
        """Completes reqs, recording completions in the array order given."""
        self.enter(region)
        self.call_ov()
        yield from self.wait_reqs("all", reqs)
        for q in reqs:
            self._record_completion(q)
        self.call_ov()
        self.leave(region)

    def waitany(self, reqs):
        self.enter("MPI_Waitany")
        self.call_ov()
        i = yield from self.wait_reqs("any", reqs)
        self._record_completion(reqs[i])
        self.call_ov()
        self.leave("MPI_Waitany")
        return i

    def testsome(self, reqs):
        """Returns the indices of reqs completed by now (in array order)."""
        self.enter("MPI_Testsome")
        self.call_ov()
        yield from self.sync()
        done = []
        for i, q in enumerate(reqs):
            if q.done:
                done.append(i)
                self._record_completion(q)
            else:
                self.rec(E_REQ_TEST, q.rid)
        self.call_ov()
        self.leave("MPI_Testsome")
        return done

    # -- the collectives' own messages (not recorded as p2p) -------------------
    def xfer(self, comm, ctx, inst, sends=(), recvs=(), payload=None):
        """Start sends [(comm rank, bytes)] and receives [comm rank], wait for all.

        Returns the received messages in the order of recvs."""
        self.t += self.ov.internal
        yield from self.sync()
        eng = self.eng
        reqs = []
        rreqs = []
        for src in recvs:
            q = eng.post_recv(self, comm.members[src], ctx, 0, comm)
            rreqs.append(q)
            reqs.append(q)
        for dst, size in sends:
            reqs.append(eng.start_send(self, comm.members[dst], ctx, 0, size, comm, inst, payload))
        if reqs:
            yield from self.wait_reqs("all", reqs)
        return [q.msg for q in rreqs]

    def reduce_cost(self, size):
        self.t += size / self.ov.reduce_bw

    # -- recorded collectives -------------------------------------------------
    def _collective(self, comm, op, region, root, sent, recvd, algo, *args):
        k = self.coll_k.get(comm.id, 0)
        self.coll_k[comm.id] = k + 1
        inst = self.eng.instance(comm, k, op, root)
        self.enter(region)
        inst.begin[self.rank] = self.rec(E_COLL_BEGIN)
        self.call_ov()
        yield from algo(self, comm, comm.ctx_coll, inst, *args)
        self.call_ov()
        r = UNDEF_ROOT if root is None else root
        inst.end[self.rank] = self.rec(E_COLL_END, op, comm.id, r, sent, recvd)
        self.leave(region)

    def barrier(self, comm):
        yield from self._collective(comm, "BARRIER", "MPI_Barrier", None, 0, 0,
                                    coll.barrier_dissemination)

    def bcast(self, comm, root, size):
        me = comm.rank_of[self.rank]
        n = comm.size
        sent, recvd = (n * size, size) if me == root else (0, size)
        yield from self._collective(comm, "BCAST", "MPI_Bcast", root, sent, recvd,
                                    coll.bcast_binomial, root, size)

    def reduce(self, comm, root, size):
        me = comm.rank_of[self.rank]
        sent, recvd = (size, comm.size * size) if me == root else (size, 0)
        yield from self._collective(comm, "REDUCE", "MPI_Reduce", root, sent, recvd,
                                    coll.reduce_binomial, root, size)

    def allreduce(self, comm, size, ring_threshold=65536):
        n = comm.size
        algo = coll.allreduce_ring if size >= ring_threshold and n > 2 else \
            coll.allreduce_recursive_doubling
        yield from self._collective(comm, "ALLREDUCE", "MPI_Allreduce", None, n * size,
                                    n * size, algo, size)

    def allgather(self, comm, size):
        n = comm.size
        yield from self._collective(comm, "ALLGATHER", "MPI_Allgather", None, n * size,
                                    n * size, coll.allgather_ring, [size] * n)

    def allgatherv(self, comm, counts):
        n = comm.size
        me = comm.rank_of[self.rank]
        yield from self._collective(comm, "ALLGATHERV", "MPI_Allgatherv", None, n * counts[me],
                                    sum(counts), coll.allgather_ring, counts)

    def gatherv(self, comm, root, counts):
        me = comm.rank_of[self.rank]
        sent, recvd = (counts[me], sum(counts)) if me == root else (counts[me], 0)
        yield from self._collective(comm, "GATHERV", "MPI_Gatherv", root, sent, recvd,
                                    coll.gatherv_linear, root, counts)

    def scatterv(self, comm, root, counts):
        me = comm.rank_of[self.rank]
        sent, recvd = (sum(counts), counts[me]) if me == root else (0, counts[me])
        yield from self._collective(comm, "SCATTERV", "MPI_Scatterv", root, sent, recvd,
                                    coll.scatterv_linear, root, counts)

    def alltoall(self, comm, size):
        n = comm.size
        yield from self._collective(comm, "ALLTOALL", "MPI_Alltoall", None, n * size, n * size,
                                    coll.alltoallv_pairwise, [[size] * n for _ in range(n)])

    def alltoallv(self, comm, matrix):
        """matrix[i][j]: bytes comm rank i sends to comm rank j."""
        me = comm.rank_of[self.rank]
        sent = sum(matrix[me])
        recvd = sum(row[me] for row in matrix)
        yield from self._collective(comm, "ALLTOALLV", "MPI_Alltoallv", None, sent, recvd,
                                    coll.alltoallv_pairwise, matrix)

    def scan(self, comm, size):
        me = comm.rank_of[self.rank]
        n = comm.size
        yield from self._collective(comm, "SCAN", "MPI_Scan", None, (n - me) * size,
                                    (me + 1) * size, coll.scan_recursive_doubling, size)

    def exscan(self, comm, size):
        me = comm.rank_of[self.rank]
        n = comm.size
        yield from self._collective(comm, "EXSCAN", "MPI_Exscan", None, (n - me - 1) * size,
                                    me * size, coll.exscan_linear, size)

    def reduce_scatter(self, comm, counts):
        me = comm.rank_of[self.rank]
        n = comm.size
        yield from self._collective(comm, "REDUCE_SCATTER", "MPI_Reduce_scatter", None,
                                    sum(counts), n * counts[me], coll.reduce_scatter_basic,
                                    counts)

    def comm_split(self, parent):
        """MPI_Comm_split: an allgather of (color, key) on the parent."""
        n = parent.size
        yield from self._collective(parent, "CREATE_HANDLE", "MPI_Comm_split", None, 0, 0,
                                    coll.allgather_ring, [8] * n)

    # -- MPI_Init / MPI_Finalize with clock-offset measurements ----------------
    def _measure_offsets(self, world):
        """Rank 0 measures every other rank's offset, one after the other.

        Per round rank 0 reads its clock (M1), sends a ping; the other rank
        reads its clock on arrival (L) and answers at once; rank 0 reads its
        clock again on the answer's arrival (M2). The round with the smallest
        M2 - M1 gives offset = (M1 + M2) / 2 - L at local time L, with
        standard deviation (M2 - M1) / 2 (all in ticks).
        """
        rounds = self.ov.sync_rounds
        if self.rank == 0:
            t_first = None
            for w in world.members[1:]:
                best = None
                for _ in range(rounds):
                    yield from self.sync()
                    m1 = self.clock.ticks(self.eng.now)
                    if t_first is None:
                        t_first = (m1, self.eng.now)
                    (ans,) = yield from self.xfer(world, CTX_SYNC, None, sends=[(w, 8)],
                                                  recvs=[w])
                    m2 = self.clock.ticks(self.eng.now)
                    rtt = m2 - m1
                    if best is None or rtt < best[0]:
                        best = (rtt, m1, m2, ans.payload)
                    self.t += 0.2e-6
                rtt, m1, m2, (loc, t_loc) = best
                self.eng.procs[w].offsets.append(
                    (loc, int(round((m1 + m2) / 2.0 - loc)), rtt / 2.0, t_loc))
            if t_first is None:
                t_first = (self.clock.ticks(self.t), self.t)
            self.offsets.append((t_first[0], 0, 0.0, t_first[1]))
        else:
            for _ in range(rounds):
                yield from self.xfer(world, CTX_SYNC, None, recvs=[0])
                t_read = self.eng.now
                loc = self.clock.ticks(t_read)
                self.t += 0.05e-6
                yield from self.xfer(world, CTX_SYNC, None, sends=[(0, 8)],
                                     payload=(loc, t_read))

    def mpi_init(self, world):
        self.enter("main")
        self.enter("MPI_Init")
        self.t += self.ov.init * (1.0 + 0.1 * self.rng.random())
        yield from coll.barrier_dissemination(self, world, CTX_SYNC, None)
        yield from self._measure_offsets(world)
        yield from coll.barrier_dissemination(self, world, CTX_SYNC, None)
        self.call_ov()
        self.leave("MPI_Init")

    def mpi_finalize(self, world):
        self.enter("MPI_Finalize")
        self.call_ov()
        yield from coll.barrier_dissemination(self, world, CTX_SYNC, None)
        yield from self._measure_offsets(world)
        yield from coll.barrier_dissemination(self, world, CTX_SYNC, None)
        self.t += 2e-3 * (1.0 + self.rng.random())
        self.leave("MPI_Finalize")
        self.leave("main")
        yield from self.sync()
