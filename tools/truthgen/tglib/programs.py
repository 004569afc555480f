"""The simulated MPI applications (SPMD: every rank runs the same code).

Decisions every rank must agree on (the size of this iteration's halo, which
collective comes next, the counts of a v-variant) come from a random stream
seeded by (seed, iteration) that every rank recreates; noise that differs per
rank (compute imbalance, OS noise, the order a rank passes its requests to
MPI_Waitall) comes from the rank's own stream.

Programs:

mixed          compute; halo exchange with Isend/Irecv completed by a shuffled
               Waitall, a Waitany loop or a Testsome polling loop; a small
               allreduce; every few iterations a blocking ring shift on a
               sub-communicator (Sendrecv or odd/even Send/Recv, large
               messages: rendezvous) and a collective from the rotating set.
collectives    compute; two to four collectives per iteration from the full
               set, on MPI_COMM_WORLD or on split communicators, v-variants
               with zero-byte members.
master_worker  rounds of: bcast of parameters; rank 0 hands out tasks
               (MPI_Send), receives results with MPI_Recv(ANY_SOURCE), gives
               the sender the next task or a stop message; workers receive
               with ANY_TAG; a reduce closes the round.
"""

import math
import random

from .engine import ANY

COLL_OPS = ("barrier", "bcast", "reduce", "allreduce", "allreduce_large", "allgather",
            "allgatherv", "gatherv", "scatterv", "alltoall", "alltoallv", "scan", "exscan",
            "reduce_scatter")


def shared_rng(seed, it, salt=0):
    return random.Random((seed * 1000003 + it) * 7919 + salt)


class App:
    """What a program needs besides its Proc: communicators, parameters, seed."""

    def __init__(self, params, seed, world, families, iterations):
        self.params = params
        self.seed = seed
        self.world = world
        self.families = families      # name -> {world rank: Comm}
        self.iterations = iterations


def compute_time(p, app, it, sh):
    pr = app.params
    base = pr["iter_mean"] * math.exp(sh.gauss(0.0, pr.get("iter_sigma", 0.3)))
    t = base * math.exp(p.rng.gauss(0.0, pr.get("imbalance", 0.05)))
    if p.rng.random() < pr.get("noise_prob", 0.02):
        t += p.rng.expovariate(1.0 / pr.get("noise_mean", 1e-3))
    return t


def neighbours(p, app):
    """(send-to, receive-from, tag) per direction of the halo."""
    n = app.world.size
    r = p.rank
    if app.params.get("halo", "ring") == "grid":
        px = app.params["grid"][0]
        py = n // px
        x, y = r % px, r // px
        out = []
        for d, (dx, dy) in enumerate(((1, 0), (-1, 0), (0, 1), (0, -1))):
            to = ((x + dx) % px) + ((y + dy) % py) * px
            fr = ((x - dx) % px) + ((y - dy) % py) * px
            if to != r:
                out.append((to, fr, 10 + d))
        return out
    return [((r + 1) % n, (r - 1) % n, 10), ((r - 1) % n, (r + 1) % n, 11)]


def halo(p, app, it, sh):
    w = app.world
    size = sh.choice(app.params["halo_sizes"])
    nb = neighbours(p, app)
    reqs = []
    for _, fr, tag in nb:
        reqs.append((yield from p.irecv(w, fr, tag)))
    for to, _, tag in nb:
        reqs.append((yield from p.isend(w, to, tag, size)))
    mode = sh.choice(app.params.get("completion", ("waitall", "waitany", "testsome")))
    if mode == "waitall":
        p.rng.shuffle(reqs)
        yield from p.waitall(reqs)
    elif mode == "waitany":
        p.rng.shuffle(reqs)
        pending = list(reqs)
        while pending:
            i = yield from p.waitany(pending)
            pending.pop(i)
    else:
        pending = list(reqs)
        polls = 0
        while pending:
            done = yield from p.testsome(pending)
            for i in reversed(done):
                pending.pop(i)
            if pending:
                polls += 1
                if polls >= 4:
                    p.rng.shuffle(pending)
                    yield from p.waitall(pending)
                    break
                yield from p.compute(p.rng.uniform(2e-6, 20e-6))


def ring_shift(p, app, it, sh):
    """A blocking shift on this rank's 'parity' communicator (world without one).

    With odd/even ordering it cannot deadlock under rendezvous."""
    fam = app.families.get("parity")
    c = fam[p.rank] if fam else app.world
    n = c.size
    if n < 2:
        return
    me = c.rank_of[p.rank]
    size = sh.choice(app.params.get("ring_sizes", (1024, 131072)))
    right, left = (me + 1) % n, (me - 1) % n
    if sh.random() < 0.5:
        yield from p.sendrecv(c, right, 21, size, left, 21)
    elif me % 2 == 0:
        yield from p.send(c, right, 22, size)
        yield from p.recv(c, left, 22)
    else:
        yield from p.recv(c, left, 22)
        yield from p.send(c, right, 22, size)


def _counts(sh, n, mean, zero_frac):
    counts = [0 if sh.random() < zero_frac else max(1, int(sh.expovariate(1.0 / mean)))
              for _ in range(n)]
    if all(c == 0 for c in counts):
        counts[sh.randrange(n)] = int(mean)
    return counts


def one_collective(p, app, op, comm, sh):
    n = comm.size
    if op == "barrier":
        yield from p.barrier(comm)
    elif op == "bcast":
        yield from p.bcast(comm, sh.randrange(n), sh.choice((8, 256, 4096, 65536)))
    elif op == "reduce":
        yield from p.reduce(comm, sh.randrange(n), sh.choice((8, 1024, 32768)))
    elif op == "allreduce":
        yield from p.allreduce(comm, sh.choice((8, 64, 1024)))
    elif op == "allreduce_large":
        yield from p.allreduce(comm, sh.choice((65536, 524288)))
    elif op == "allgather":
        yield from p.allgather(comm, sh.choice((8, 512, 8192)))
    elif op == "allgatherv":
        yield from p.allgatherv(comm, _counts(sh, n, 2048, 0.25))
    elif op == "gatherv":
        yield from p.gatherv(comm, sh.randrange(n), _counts(sh, n, 4096, 0.35))
    elif op == "scatterv":
        yield from p.scatterv(comm, sh.randrange(n), _counts(sh, n, 4096, 0.35))
    elif op == "alltoall":
        yield from p.alltoall(comm, sh.choice((8, 1024, 16384)))
    elif op == "alltoallv":
        m = [_counts(sh, n, 2048, 0.4) for _ in range(n)]
        for i in range(n):
            m[i][i] = 0
        yield from p.alltoallv(comm, m)
    elif op == "scan":
        yield from p.scan(comm, sh.choice((8, 256)))
    elif op == "exscan":
        yield from p.exscan(comm, sh.choice((8, 256)))
    elif op == "reduce_scatter":
        yield from p.reduce_scatter(comm, _counts(sh, n, 1024, 0.3))
    else:
        raise ValueError("unknown collective %r" % op)


def pick_comm(p, app, sh):
    fams = app.params.get("coll_comms", ("world",))
    f = sh.choice(fams)
    if f == "world":
        return app.world, f
    return app.families[f][p.rank], f


def setup(p, app):
    """MPI_Init, then one MPI_Comm_split of MPI_COMM_WORLD per family."""
    yield from p.mpi_init(app.world)
    for _ in app.families:
        yield from p.comm_split(app.world)


def mixed(p, app):
    yield from setup(p, app)
    pr = app.params
    ops = pr.get("coll_ops", COLL_OPS)
    for it in range(app.iterations):
        sh = shared_rng(app.seed, it)
        yield from p.compute(compute_time(p, app, it, sh))
        yield from halo(p, app, it, sh)
        yield from p.allreduce(app.world, 8)
        if it % pr.get("ring_every", 3) == 0:
            yield from ring_shift(p, app, it, sh)
        if it % pr.get("coll_every", 2) == 0:
            comm, _ = pick_comm(p, app, sh)
            yield from one_collective(p, app, ops[(it // pr.get("coll_every", 2)) % len(ops)],
                                      comm, sh)
    yield from p.mpi_finalize(app.world)


def collectives(p, app):
    yield from setup(p, app)
    pr = app.params
    for it in range(app.iterations):
        sh = shared_rng(app.seed, it)
        yield from p.compute(compute_time(p, app, it, sh))
        for _ in range(sh.randint(2, 4)):
            comm, _ = pick_comm(p, app, sh)
            yield from one_collective(p, app, sh.choice(pr.get("coll_ops", COLL_OPS)), comm, sh)
    yield from p.mpi_finalize(app.world)


TAG_TASK, TAG_RESULT, TAG_STOP = 1, 2, 3


def master_worker(p, app):
    yield from setup(p, app)
    pr = app.params
    w = app.world
    n = w.size
    for rnd in range(app.iterations):
        sh = shared_rng(app.seed, rnd)
        yield from p.bcast(w, 0, 256)
        if p.rank == 0:
            mrng = random.Random(app.seed * 31 + rnd)
            ntasks = pr["tasks_per_worker"] * (n - 1)
            sizes = [int(math.exp(mrng.uniform(math.log(256), math.log(65536))))
                     for _ in range(ntasks)]
            handed = 0
            for wk in range(1, n):
                yield from p.send(w, wk, TAG_TASK, sizes[handed])
                handed += 1
            active = n - 1
            while active:
                msg = yield from p.recv(w, ANY, TAG_RESULT)
                src = w.rank_of[msg.src]
                yield from p.compute(mrng.uniform(5e-6, 40e-6), region="bookkeeping")
                if handed < ntasks:
                    yield from p.send(w, src, TAG_TASK, sizes[handed])
                    handed += 1
                else:
                    yield from p.send(w, src, TAG_STOP, 0)
                    active -= 1
        else:
            while True:
                msg = yield from p.recv(w, 0, ANY)
                if msg.tag == TAG_STOP:
                    break
                dur = pr["task_mean"] * msg.size / 8192.0 * math.exp(p.rng.gauss(0.0, 0.3))
                yield from p.compute(dur)
                yield from p.send(w, 0, TAG_RESULT, p.rng.choice((64, 2048, 40000)))
        yield from p.reduce(w, 0, 64)
        yield from p.compute(compute_time(p, app, rnd, sh))
    yield from p.mpi_finalize(w)


PROGRAMS = {"mixed": mixed, "collectives": collectives, "master_worker": master_worker}
