"""The named scenarios and how a scenario becomes a simulation.

Units in the tables: seconds unless the key says _us, _ns or _ppm; sizes in
bytes; bandwidths in bytes per second.
"""

import math
import random
import zlib

from .clock import NodeClock, ou_rate

# Defaults every scenario starts from.
BASE = {
    "resolution": 2.4e9,
    "clock": {
        "perfect": False,
        "offset_max": 5e-3,          # initial offsets uniform in +-offset_max
        "drift_max_ppm": 20.0,       # constant frequency errors uniform in +-
        "sines": None,               # (count min, max, period min, max s, amplitude min, max ppm)
        "ou": None,                  # (stationary sigma ppm, correlation time s, grid s)
        "steps": (),                 # (node, at fraction of the run, seconds)
        "slews": (),                 # (node, from fraction of the run, duration s, ppm)
    },
    "net": {
        "inter_us": (1.5, 3.0),      # per node pair minimum latency range
        "asym_us": 0.0,              # extra latency per direction, uniform in [0, asym]
        "intra_us": (0.3, 0.6),
        "bw_inter": 10e9,
        "bw_intra": 20e9,
        "jitter_ns": 100.0,          # scale of the Pareto jitter
        "alpha": 2.5,                # its tail index
        "intra_jitter_ns": 20.0,
        "congestion": None,          # (fraction of time, phase length min, max s, extra mean us, bw factor)
    },
    "eager_limit": 16384,
    "copy_bw": 8e9,
    "program": "mixed",
    "families": ("node", "parity"),
    "params": {
        "iter_mean": 0.2,
        "iter_sigma": 0.3,
        "imbalance": 0.05,
        "halo": "ring",
        "halo_sizes": (256, 4096, 65536),
        "ring_sizes": (1024, 131072),
        "coll_comms": ("world", "world", "node", "parity"),
    },
}


def _merge(base, over):
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(base.get(k), dict):
            out[k] = _merge(base[k], v)
        else:
            out[k] = v
    return out


SCENARIOS = {
    "perfect": {
        "description": "Perfect clocks: every node's timer reads the reference exactly. "
                       "The recorded times are the truth; any correction should leave them.",
        "nodes": 4, "rpn": 2, "duration": 30.0, "resolution": 1e9,
        "clock": {"perfect": True},
        "params": {"iter_mean": 0.05},
    },
    "linear": {
        "description": "Offsets and constant drifts only (no wander, no steps): linear "
                       "interpolation of the start and end offsets is exact up to the "
                       "measurements' own error.",
        "nodes": 8, "rpn": 2, "duration": 60.0, "resolution": 2.4e9,
        "clock": {"drift_max_ppm": 30.0},
        "params": {"iter_mean": 0.15},
    },
    "slow-wander": {
        "description": "Frequency wander with periods of 5-30 s (sinusoids plus a slow "
                       "random walk of the rate), 32 ranks on 8 nodes, 120 s.",
        "nodes": 8, "rpn": 4, "duration": 120.0, "resolution": 2.1e9,
        "clock": {"sines": (2, 3, 5.0, 30.0, 0.05, 0.4), "ou": (0.05, 20.0, 0.05)},
        "params": {"iter_mean": 0.6},
    },
    "fast-wander": {
        "description": "Fast frequency wander, periods 0.5-2 s and amplitudes up to 3 ppm "
                       "(thermal cycling of a throttling CPU).",
        "nodes": 8, "rpn": 2, "duration": 60.0, "resolution": 3e9,
        "clock": {"sines": (2, 3, 0.5, 2.0, 0.5, 3.0)},
        "params": {"iter_mean": 0.15},
    },
    "asymmetric": {
        "description": "Asymmetric minimum latencies (each direction of a node pair gets "
                       "up to 1.5 us extra, e.g. A->B 2 us, B->A 3.2 us), one rank per "
                       "node, mild wander. The offset measurements are biased by half the "
                       "asymmetry, as real ones are.",
        "nodes": 6, "rpn": 1, "duration": 60.0, "resolution": 2e9,
        "clock": {"sines": (1, 2, 5.0, 20.0, 0.05, 0.2)},
        "net": {"inter_us": (1.8, 2.5), "asym_us": 1.5},
        "families": ("parity",),
        "params": {"iter_mean": 0.06, "coll_comms": ("world", "world", "parity")},
    },
    "congested": {
        "description": "Congested network phases (a quarter of the run: extra delays with "
                       "a heavy tail, a third of the bandwidth) and heavy-tailed jitter "
                       "everywhere, 32 ranks on 16 nodes.",
        "nodes": 16, "rpn": 2, "duration": 60.0, "resolution": 2.5e9,
        "clock": {"sines": (1, 3, 3.0, 20.0, 0.05, 0.3)},
        "net": {"jitter_ns": 300.0, "alpha": 1.8,
                "congestion": (0.25, 0.3, 3.0, 15.0, 0.33)},
        "params": {"iter_mean": 0.35},
    },
    "master-worker": {
        "description": "Master-worker: rank 0 hands out tasks and takes results with "
                       "MPI_Recv(MPI_ANY_SOURCE); workers receive with MPI_ANY_TAG; rounds "
                       "open with a bcast and close with a reduce. 32 ranks on 8 nodes.",
        "nodes": 8, "rpn": 4, "duration": 60.0, "resolution": 1.8e9,
        "program": "master_worker", "families": (),
        "clock": {"sines": (1, 3, 3.0, 30.0, 0.05, 0.3)},
        "params": {"iter_mean": 0.05, "tasks_per_worker": 6, "task_mean": 0.08},
    },
    "collectives": {
        "description": "Collectives only: every algorithm (binomial bcast/reduce, recursive "
                       "doubling and ring allreduce, dissemination barrier, ring allgather(v), "
                       "linear gatherv/scatterv, pairwise alltoall(v), recursive-doubling "
                       "scan, linear exscan, reduce_scatter) on MPI_COMM_WORLD and split "
                       "communicators, v-variants with zero-byte members. 64 ranks on 16 "
                       "nodes.",
        "nodes": 16, "rpn": 4, "duration": 30.0, "resolution": 2.2e9,
        "program": "collectives", "families": ("node", "parity", "row", "col"),
        "clock": {"sines": (1, 3, 3.0, 30.0, 0.05, 0.3)},
        "params": {"iter_mean": 0.25, "grid": (8, 8),
                   "coll_comms": ("world", "world", "node", "parity", "row", "col")},
    },
    "halo-shuffled": {
        "description": "2-D periodic halo exchange (6x6 ranks) with Isend/Irecv completed "
                       "by Waitall in shuffled order, Waitany loops and Testsome polling; "
                       "messages from 512 B to 256 KiB (eager and rendezvous).",
        "nodes": 12, "rpn": 3, "duration": 60.0, "resolution": 2.6e9,
        "clock": {"sines": (1, 3, 2.0, 20.0, 0.05, 0.5)},
        "params": {"iter_mean": 0.45, "halo": "grid", "grid": (6, 6),
                   "halo_sizes": (512, 8192, 65536, 262144)},
    },
    "long-sparse": {
        "description": "A long run: 300 s of sparse iterations (compute phases of 1-5 s), "
                       "random-walk wander plus sinusoids of 20-100 s, 8 ranks on 2 nodes.",
        "nodes": 2, "rpn": 4, "duration": 300.0, "resolution": 1e9,
        "clock": {"sines": (1, 2, 20.0, 100.0, 0.05, 0.3), "ou": (0.1, 30.0, 0.1)},
        "params": {"iter_mean": 2.5, "iter_sigma": 0.4},
    },
    "clock-step": {
        "description": "NTP-like corrections mid-run: node 3 steps forward by 25 us at 40 % "
                       "of the run, node 5 slews at -50 ppm for 1 s at 60 % (-50 us), node 6 "
                       "at +20 ppm for 2 s at 30 % (+40 us); mild wander elsewhere.",
        "nodes": 8, "rpn": 2, "duration": 60.0, "resolution": 2.4e9,
        "clock": {"sines": (1, 2, 5.0, 20.0, 0.05, 0.2),
                  "steps": ((3, 0.4, 25e-6),),
                  "slews": ((5, 0.6, 1.0, -50.0), (6, 0.3, 2.0, 20.0))},
        "params": {"iter_mean": 0.2},
    },
}


def names():
    return list(SCENARIOS)


def config(name):
    if name not in SCENARIOS:
        raise KeyError("unknown scenario %r (known: %s)" % (name, ", ".join(SCENARIOS)))
    return _merge(BASE, SCENARIOS[name])


def scenario_seed(name, seed):
    """Each scenario gets its own seed, derived from the base seed and its name."""
    return (zlib.crc32(name.encode()) ^ (seed * 2654435761)) & 0x7FFFFFFF


def make_clocks(cfg, rng, duration):
    """One NodeClock per node; node 0's clock is the reference."""
    c = cfg["clock"]
    res = cfg["resolution"]
    base = rng.uniform(100.0, 5000.0)
    nodes = cfg["nodes"]
    if c["perfect"]:
        return [NodeClock(res, base) for _ in range(nodes)]
    clocks = []
    for n in range(nodes):
        off = rng.uniform(-c["offset_max"], c["offset_max"])
        drift = rng.uniform(-c["drift_max_ppm"], c["drift_max_ppm"]) * 1e-6
        sines = []
        if c["sines"]:
            kmin, kmax, pmin, pmax, amin, amax = c["sines"]
            for _ in range(rng.randint(kmin, kmax)):
                period = math.exp(rng.uniform(math.log(pmin), math.log(pmax)))
                sines.append((rng.uniform(amin, amax) * 1e-6, period,
                              rng.uniform(0.0, 2.0 * math.pi)))
        rw_dt, rw = 0.0, ()
        if c["ou"]:
            sigma, tau, grid = c["ou"]
            rw_dt = grid
            rw = ou_rate(rng, duration * 1.5 + 10.0, grid, sigma * 1e-6, tau)
        steps = [(frac * duration, sec) for node, frac, sec in c["steps"] if node == n]
        slews = [(frac * duration, frac * duration + length, ppm * 1e-6)
                 for node, frac, length, ppm in c["slews"] if node == n]
        clocks.append(NodeClock(res, base, off, drift, sines, rw_dt, rw, steps, slews))
    return clocks


def make_network_params(cfg, rng, duration):
    """Latency matrix, intra-node latencies and congestion phases."""
    nt = cfg["net"]
    nodes = cfg["nodes"]
    lo, hi = nt["inter_us"]
    sym = [[0.0] * nodes for _ in range(nodes)]
    for a in range(nodes):
        for b in range(a + 1, nodes):
            # two switch levels: nodes 0-3, 4-7, ... share a leaf switch
            hop = 1.0 if a // 4 == b // 4 else 1.35
            sym[a][b] = sym[b][a] = rng.uniform(lo, hi) * hop * 1e-6
    lmin = [[0.0] * nodes for _ in range(nodes)]
    for a in range(nodes):
        for b in range(nodes):
            if a != b:
                lmin[a][b] = sym[a][b] + rng.uniform(0.0, nt["asym_us"]) * 1e-6
    ilo, ihi = nt["intra_us"]
    intra = [rng.uniform(ilo, ihi) * 1e-6 for _ in range(nodes)]
    congestion = []
    if nt["congestion"]:
        frac, plo, phi, extra_us, bwf = nt["congestion"]
        t = rng.uniform(0.0, 2.0)
        while t < duration * 1.2:
            length = rng.uniform(plo, phi)
            congestion.append((t, t + length, extra_us * 1e-6 * rng.uniform(0.5, 1.5), bwf))
            mean_gap = length * (1.0 - frac) / frac
            t += length + rng.expovariate(1.0 / mean_gap)
    return lmin, intra, congestion


def iterations(cfg, duration):
    pr = cfg["params"]
    if cfg["program"] == "master_worker":
        # mean task size exp(U(ln 256, ln 65536)) is (65536 - 256) / ln 256 bytes;
        # a round ends with the last task, on average half the longest (8 task_mean)
        mean_task = pr["task_mean"] * (65536 - 256) / math.log(256) / 8192.0
        per_round = pr["tasks_per_worker"] * mean_task + 4.0 * pr["task_mean"] + pr["iter_mean"]
    else:
        # lognormal mean of the iteration, and the slowest rank sets the pace
        per_round = pr["iter_mean"] * math.exp(pr.get("iter_sigma", 0.3) ** 2 / 2.0) * \
            (1.0 + 2.0 * pr.get("imbalance", 0.05))
    return max(2, int(round(duration / per_round)))


def rng_for(seed):
    return random.Random(seed)
