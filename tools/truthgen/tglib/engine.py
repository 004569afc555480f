"""A discrete-event simulation of MPI point-to-point semantics in true time.

Every rank runs a program: a Python generator that yields either a delay in
seconds (compute, software overhead) or a wait on requests. The engine keeps
one heap of actions ordered by true time, so every matching decision is taken
in the order things happen: an ANY_SOURCE receive takes whichever message
arrived first, and a receive posted at time t sees exactly the envelopes that
arrived before t.

Matching follows the MPI standard and how MPI libraries implement it: each
rank has a queue of posted receives and a queue of unexpected messages. An
arriving envelope is matched against the posted receives in posting order; a
newly posted receive against the unexpected messages in arrival order. With
in-order channels (see network.py) this is the non-overtaking rule per
(source, tag, communicator).

Protocols: a message of at most `eager_limit` bytes travels with its envelope
(eager): the send completes when the data has left the sender, the receive
when the data is there and copied out. A larger message (rendezvous) sends a
request-to-send envelope; when it is matched the receiver answers with
clear-to-send, and only then does the sender put the data on the wire: the
sender's completion waits for the receiver's post.

Recording follows Score-P: Enter/Leave of the MPI call's region, MpiSend /
MpiIsend at the call, MpiRecv at the blocking receive's completion,
MpiIrecvRequest at MPI_Irecv, MpiIsendComplete / MpiIrecv when a Wait or Test
call reports the completion, MpiRequestTest for a request a Test call found
incomplete, MpiCollectiveBegin after entering a collective and
MpiCollectiveEnd before leaving it. Events are (true time, code, fields...).
"""

import heapq

ANY = -1

# event codes
E_ENTER, E_LEAVE, E_SEND, E_ISEND, E_ISEND_C, E_IRECV_REQ, E_IRECV, E_RECV, \
    E_REQ_TEST, E_COLL_BEGIN, E_COLL_END = range(11)

HEADER = 64          # bytes of an envelope / control message

# internal contexts (never in the trace): MPI_Init/Finalize synchronisation
CTX_SYNC = -2


class DeadlockError(RuntimeError):
    pass


class Comm:
    __slots__ = ("id", "name", "members", "rank_of", "parent", "ctx_p2p", "ctx_coll")

    def __init__(self, cid, name, members, parent=None):
        self.id = cid
        self.name = name
        self.members = list(members)          # comm rank -> world rank
        self.rank_of = {w: i for i, w in enumerate(self.members)}
        self.parent = parent
        self.ctx_p2p = 2 * cid                # user point-to-point
        self.ctx_coll = 2 * cid + 1           # the collectives' own messages

    @property
    def size(self):
        return len(self.members)


class Msg:
    __slots__ = ("src", "dst", "ctx", "tag", "size", "eager", "send_req", "recv_req",
                 "t_send", "t_data", "send_ev", "recv_ev", "inst", "payload",
                 "lmin", "recv_post_ev", "send_done_ev")

    def __init__(self, src, dst, ctx, tag, size, eager, t_send, lmin):
        self.src = src
        self.dst = dst
        self.ctx = ctx
        self.tag = tag
        self.size = size
        self.eager = eager
        self.t_send = t_send
        self.t_data = None
        self.send_req = None
        self.recv_req = None
        self.send_ev = None
        self.recv_ev = None
        self.inst = None
        self.payload = None
        self.lmin = lmin
        self.recv_post_ev = None
        self.send_done_ev = None


class Req:
    __slots__ = ("send", "proc", "rid", "done", "t_done", "msg", "src", "tag", "ctx",
                 "comm", "post_ev")

    def __init__(self, send, proc, src, tag, ctx, comm):
        self.send = send
        self.proc = proc
        self.rid = None
        self.done = False
        self.t_done = None
        self.msg = None
        self.src = src
        self.tag = tag
        self.ctx = ctx
        self.comm = comm
        self.post_ev = None


class CollInstance:
    __slots__ = ("comm", "k", "op", "begin", "end", "root")

    def __init__(self, comm, k, op, root):
        self.comm = comm
        self.k = k
        self.op = op
        self.root = root
        self.begin = {}
        self.end = {}


class Engine:
    def __init__(self, net, nranks, eager_limit, copy_bw, o_match=0.1e-6):
        self.net = net
        self.n = nranks
        self.eager_limit = eager_limit
        self.copy_bw = copy_bw
        self.o_match = o_match
        self.heap = []
        self.seq = 0
        self.now = 0.0
        self.procs = []
        self.posted = [[] for _ in range(nranks)]
        self.unexpected = [[] for _ in range(nranks)]
        self.user_msgs = []
        self.coll_msgs = []
        self.instances = {}
        self.steps = 0

    # -- the event loop ---------------------------------------------------
    def push(self, t, fn, arg):
        if t < self.now:
            raise AssertionError("action scheduled in the past: %r < %r" % (t, self.now))
        self.seq += 1
        heapq.heappush(self.heap, (t, self.seq, fn, arg))

    def start(self, proc, gen):
        proc.gen = gen
        self.push(proc.t, self._resume, (proc, None))

    def run(self):
        heap = self.heap
        pop = heapq.heappop
        while heap:
            t, _, fn, arg = pop(heap)
            self.now = t
            self.steps += 1
            fn(arg)
        stuck = [p for p in self.procs if not p.finished]
        if stuck:
            desc = []
            for p in stuck[:8]:
                w = p.waiting
                desc.append("rank %d waits on %s" % (
                    p.rank, [("send" if q.send else "recv", q.src, q.tag, q.ctx) for q in w[1]]
                    if w else "nothing"))
            raise DeadlockError("simulation deadlocked at t=%.6f s: %s" % (self.now, "; ".join(desc)))

    def _resume(self, arg):
        proc, val = arg
        gen = proc.gen
        while True:
            try:
                cmd = gen.send(val)
            except StopIteration:
                proc.finished = True
                return
            if cmd.__class__ is float:
                if cmd > 0.0:
                    self.push(self.now + cmd, self._resume, (proc, None))
                    return
                val = None
                continue
            mode, reqs = cmd
            res = self._satisfied(mode, reqs)
            if res is not None:
                val = res
                continue
            proc.waiting = cmd
            return

    @staticmethod
    def _satisfied(mode, reqs):
        if mode == "all":
            for q in reqs:
                if not q.done:
                    return None
            return True
        for i, q in enumerate(reqs):     # "any": the lowest completed index
            if q.done:
                return i
        return None

    def _complete(self, req):
        req.done = True
        req.t_done = self.now
        proc = req.proc
        w = proc.waiting
        if w is not None:
            res = self._satisfied(w[0], w[1])
            if res is not None:
                proc.waiting = None
                self.push(self.now, self._resume, (proc, res))

    # -- point to point -----------------------------------------------------
    def start_send(self, proc, dst, ctx, tag, size, comm, inst=None, payload=None):
        """Start a send at self.now from proc to world rank dst."""
        src = proc.rank
        eager = size <= self.eager_limit
        msg = Msg(src, dst, ctx, tag, size, eager, self.now, self.net.min_latency(src, dst))
        msg.inst = inst
        msg.payload = payload
        req = Req(True, proc, dst, tag, ctx, comm)
        req.msg = msg
        msg.send_req = req
        if eager:
            inj, arr = self.net.transfer(src, dst, size + HEADER, self.now)
            msg.t_data = arr
            self.push(inj, self._complete, req)
        else:
            inj, arr = self.net.transfer(src, dst, HEADER, self.now)
        self.push(arr, self._arrive, msg)
        if ctx >= 0:
            if inst is None:
                self.user_msgs.append(msg)
            else:
                self.coll_msgs.append(msg)
        return req

    def post_recv(self, proc, src, ctx, tag, comm):
        """Post a receive at self.now; src and tag may be ANY."""
        req = Req(False, proc, src, tag, ctx, comm)
        q = self.unexpected[proc.rank]
        for i, msg in enumerate(q):
            if msg.ctx == ctx and (src == ANY or src == msg.src) and (tag == ANY or tag == msg.tag):
                del q[i]
                self._match(msg, req)
                return req
        self.posted[proc.rank].append(req)
        return req

    def _arrive(self, msg):
        q = self.posted[msg.dst]
        for i, req in enumerate(q):
            if req.ctx == msg.ctx and (req.src == ANY or req.src == msg.src) and \
                    (req.tag == ANY or req.tag == msg.tag):
                del q[i]
                self._match(msg, req)
                return
        self.unexpected[msg.dst].append(msg)

    def _match(self, msg, req):
        req.msg = msg
        msg.recv_req = req
        if msg.eager:
            # the data is here (it came with the envelope); copy it out
            self.push(self.now + self.o_match + msg.size / self.copy_bw, self._complete, req)
        else:
            # clear-to-send back to the sender
            _, arr = self.net.transfer(msg.dst, msg.src, HEADER, self.now + self.o_match)
            self.push(arr, self._cts, msg)

    def _cts(self, msg):
        inj, arr = self.net.transfer(msg.src, msg.dst, msg.size, self.now + self.o_match)
        msg.t_data = arr
        self.push(inj, self._complete, msg.send_req)
        self.push(arr + self.o_match, self._complete, msg.recv_req)

    # -- collectives ------------------------------------------------------
    def instance(self, comm, k, op, root):
        key = (comm.id, k)
        inst = self.instances.get(key)
        if inst is None:
            inst = CollInstance(comm, k, op, root)
            self.instances[key] = inst
        elif inst.op != op or inst.root != root:
            raise AssertionError("collective %d on %s: ranks disagree (%s/%s vs %s/%s)" % (
                k, comm.name, inst.op, inst.root, op, root))
        return inst
