"""Collective algorithms as MPI libraries implement them, over point-to-point.

Each function is a generator run by one member (`p`, a mpi.Proc) of `comm`;
`ctx` is the context its messages travel on and `inst` the collective
instance they belong to (None for MPI_Init's internal barrier). Ranks are
ranks in `comm`. Blocking sends are `p.xfer(sends=[...])`: an eager send
returns when its data has left, a rendezvous send when the receiver has
posted and the data is out. Messages of zero bytes that the v-variants would
send are skipped, as Open MPI's and MPICH's linear and pairwise algorithms
skip them: a member that contributes nothing to the root of a gatherv sends
no message at all, so nothing orders its call before the root's return.
"""


def barrier_dissemination(p, comm, ctx, inst):
    """Dissemination barrier (Hensgen, Finkel, Manber): ceil(log2 n) rounds."""
    n = comm.size
    me = comm.rank_of[p.rank]
    k = 1
    while k < n:
        yield from p.xfer(comm, ctx, inst, sends=[((me + k) % n, 0)], recvs=[(me - k) % n])
        k <<= 1


def bcast_binomial(p, comm, ctx, inst, root, size):
    """Binomial tree broadcast (MPICH's short-message algorithm)."""
    n = comm.size
    me = comm.rank_of[p.rank]
    vr = (me - root) % n
    mask = 1
    while mask < n:
        if vr & mask:
            yield from p.xfer(comm, ctx, inst, recvs=[(vr - mask + root) % n])
            break
        mask <<= 1
    mask >>= 1
    while mask > 0:
        if vr + mask < n:
            yield from p.xfer(comm, ctx, inst, sends=[((vr + mask + root) % n, size)])
        mask >>= 1


def reduce_binomial(p, comm, ctx, inst, root, size):
    """Binomial tree reduction to root (commutative operation)."""
    n = comm.size
    me = comm.rank_of[p.rank]
    vr = (me - root) % n
    mask = 1
    while mask < n:
        if vr & mask == 0:
            src = vr | mask
            if src < n:
                yield from p.xfer(comm, ctx, inst, recvs=[(src + root) % n])
                p.reduce_cost(size)
        else:
            yield from p.xfer(comm, ctx, inst, sends=[(((vr & ~mask) + root) % n, size)])
            break
        mask <<= 1


def allreduce_recursive_doubling(p, comm, ctx, inst, size):
    """Recursive doubling; a non-power-of-two size folds the extra ranks first."""
    n = comm.size
    me = comm.rank_of[p.rank]
    pof2 = 1
    while pof2 * 2 <= n:
        pof2 *= 2
    rem = n - pof2
    if me < 2 * rem:
        if me % 2 == 0:
            yield from p.xfer(comm, ctx, inst, sends=[(me + 1, size)])
            newrank = -1
        else:
            yield from p.xfer(comm, ctx, inst, recvs=[me - 1])
            p.reduce_cost(size)
            newrank = me // 2
    else:
        newrank = me - rem
    if newrank != -1:
        mask = 1
        while mask < pof2:
            nd = newrank ^ mask
            dst = nd * 2 + 1 if nd < rem else nd + rem
            yield from p.xfer(comm, ctx, inst, sends=[(dst, size)], recvs=[dst])
            p.reduce_cost(size)
            mask <<= 1
    if me < 2 * rem:
        if me % 2 == 1:
            yield from p.xfer(comm, ctx, inst, sends=[(me - 1, size)])
        else:
            yield from p.xfer(comm, ctx, inst, recvs=[me + 1])


def allreduce_ring(p, comm, ctx, inst, size):
    """Ring allreduce: a reduce-scatter ring then an allgather ring."""
    n = comm.size
    me = comm.rank_of[p.rank]
    chunk = max(1, size // n)
    right, left = (me + 1) % n, (me - 1) % n
    for _ in range(n - 1):
        yield from p.xfer(comm, ctx, inst, sends=[(right, chunk)], recvs=[left])
        p.reduce_cost(chunk)
    for _ in range(n - 1):
        yield from p.xfer(comm, ctx, inst, sends=[(right, chunk)], recvs=[left])


def allgather_ring(p, comm, ctx, inst, counts):
    """Ring allgather(v): in step s a rank forwards the block it got in step s-1."""
    n = comm.size
    me = comm.rank_of[p.rank]
    right, left = (me + 1) % n, (me - 1) % n
    for s in range(n - 1):
        blk = (me - s) % n
        yield from p.xfer(comm, ctx, inst, sends=[(right, counts[blk])], recvs=[left])


def gatherv_linear(p, comm, ctx, inst, root, counts):
    """The root receives every non-empty block directly; empty blocks send nothing."""
    n = comm.size
    me = comm.rank_of[p.rank]
    if me == root:
        srcs = [i for i in range(n) if i != root and counts[i] > 0]
        if srcs:
            yield from p.xfer(comm, ctx, inst, recvs=srcs)
    elif counts[me] > 0:
        yield from p.xfer(comm, ctx, inst, sends=[(root, counts[me])])


def scatterv_linear(p, comm, ctx, inst, root, counts):
    """The root sends every non-empty block directly; empty blocks send nothing."""
    n = comm.size
    me = comm.rank_of[p.rank]
    if me == root:
        sends = [(i, counts[i]) for i in range(n) if i != root and counts[i] > 0]
        if sends:
            yield from p.xfer(comm, ctx, inst, sends=sends)
    elif counts[me] > 0:
        yield from p.xfer(comm, ctx, inst, recvs=[root])


def alltoallv_pairwise(p, comm, ctx, inst, matrix):
    """Pairwise exchange: in step k send to me+k and receive from me-k.

    Empty blocks are neither sent nor received (both sides know the matrix)."""
    n = comm.size
    me = comm.rank_of[p.rank]
    for k in range(1, n):
        dst, src = (me + k) % n, (me - k) % n
        sends = [(dst, matrix[me][dst])] if matrix[me][dst] > 0 else []
        recvs = [src] if matrix[src][me] > 0 else []
        if sends or recvs:
            yield from p.xfer(comm, ctx, inst, sends=sends, recvs=recvs)


def scan_recursive_doubling(p, comm, ctx, inst, size):
    """Inclusive scan by recursive doubling (MPICH)."""
    n = comm.size
    me = comm.rank_of[p.rank]
    mask = 1
    while mask < n:
        dst = me ^ mask
        if dst < n:
            yield from p.xfer(comm, ctx, inst, sends=[(dst, size)], recvs=[dst])
            p.reduce_cost(size)
        mask <<= 1


def exscan_linear(p, comm, ctx, inst, size):
    """Exclusive scan along a chain: receive the prefix from me-1, pass it on."""
    n = comm.size
    me = comm.rank_of[p.rank]
    if me > 0:
        yield from p.xfer(comm, ctx, inst, recvs=[me - 1])
        p.reduce_cost(size)
    if me < n - 1:
        yield from p.xfer(comm, ctx, inst, sends=[(me + 1, size)])


def reduce_scatter_basic(p, comm, ctx, inst, counts):
    """Reduce the whole vector to rank 0 (binomial), then scatterv its blocks."""
    yield from reduce_binomial(p, comm, ctx, inst, 0, sum(counts))
    yield from scatterv_linear(p, comm, ctx, inst, 0, counts)
