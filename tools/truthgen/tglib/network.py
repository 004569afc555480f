"""The interconnect: when a message injected at true time t arrives.

Delivery time of a message of `size` bytes from rank a (on node A) to rank b
(on node B), injected at true time t:

    start   = max(t, when A's network interface is free)      (inter-node only)
    inject  = start + size / bandwidth                         (the NIC is busy)
    arrival = start + lmin(A -> B) + size / bandwidth + jitter

lmin(A -> B) is the per-direction minimum latency (it may differ from
lmin(B -> A): different cable lengths, switch ports, adapter firmware).
Intra-node messages go through shared memory: a lower lmin, a higher
bandwidth, tiny jitter, no NIC. The jitter is heavy-tailed (a Pareto
variate minus one, scaled: most messages are close to lmin, a few are much
later), and during congestion phases inter-node messages get an extra
exponential delay and a reduced bandwidth.

Each directed rank pair is a FIFO channel: a message never arrives before a
message sent earlier on the same channel (an in-order transport, which is how
MPI libraries keep the non-overtaking rule on networks that do not reorder
per connection).
"""

import math


class Network:
    def __init__(self, rng, node_of, lmin, intra_lmin, bw_inter, bw_intra,
                 jitter_scale, jitter_alpha, intra_jitter, congestion=(),
                 jitter_cap=2e-3):
        self.rng = rng
        self.node_of = node_of            # world rank -> node index
        self.lmin = lmin                  # lmin[A][B] seconds, A != B
        self.intra_lmin = intra_lmin      # per node, seconds
        self.bw_inter = float(bw_inter)   # bytes per second
        self.bw_intra = float(bw_intra)
        self.jitter_scale = float(jitter_scale)
        self.jitter_alpha = float(jitter_alpha)
        self.intra_jitter = float(intra_jitter)
        # (t0, t1, extra mean delay s, bandwidth factor)
        self.congestion = tuple(congestion)
        self.jitter_cap = jitter_cap
        self.nic_free = [0.0] * (max(node_of) + 1)
        self.chan_last = {}

    def min_latency(self, a, b):
        """Smallest possible arrival - injection of a zero-byte message a -> b."""
        na, nb = self.node_of[a], self.node_of[b]
        return self.intra_lmin[na] if na == nb else self.lmin[na][nb]

    def _congestion(self, t):
        for t0, t1, extra, bwf in self.congestion:
            if t0 <= t < t1:
                return extra, bwf
        return 0.0, 1.0

    def transfer(self, a, b, size, t):
        """Send size bytes from rank a to rank b at true time t.

        Returns (inject_end, arrival): when the sender's buffer is free and
        when the last byte is at the receiver.
        """
        na, nb = self.node_of[a], self.node_of[b]
        rng = self.rng
        if na == nb:
            start = t
            wire = size / self.bw_intra
            jit = self.intra_jitter * rng.expovariate(1.0)
            lat = self.intra_lmin[na]
        else:
            extra, bwf = self._congestion(t)
            start = max(t, self.nic_free[na])
            wire = size / (self.bw_inter * bwf)
            self.nic_free[na] = start + wire
            jit = self.jitter_scale * (rng.paretovariate(self.jitter_alpha) - 1.0)
            if extra > 0.0:
                # congested switch buffers: heavy tail again
                jit += extra * rng.expovariate(1.0) * (1.0 + 0.5 * (rng.paretovariate(2.5) - 1.0))
            jit = min(jit, self.jitter_cap)
            lat = self.lmin[na][nb]
        inject_end = start + wire
        arrival = start + lat + wire + jit
        key = (a, b)
        last = self.chan_last.get(key)
        if last is not None and arrival <= last:
            arrival = math.nextafter(last, math.inf)
        self.chan_last[key] = arrival
        return inject_end, arrival
