"""Build a scenario's cluster, run its program, describe the result."""

import random

from . import scenarios as S
from .engine import Comm, Engine
from .mpi import Overheads, Proc
from .network import Network
from .programs import PROGRAMS, App
from .regions import REGION_ID

VERSION = 1


def family_comms(cfg, n, first_id, world):
    """The communicators MPI_Comm_split makes for each family, in order."""
    comms, families = [], {}
    px = cfg["params"].get("grid", (n, 1))[0]
    rpn = cfg["rpn"]
    for fam in cfg["families"]:
        if fam == "node":
            color, label = (lambda r: r // rpn), (lambda c: "node %d" % c)
        elif fam == "parity":
            color, label = (lambda r: r % 2), (lambda c: ("even", "odd")[c])
        elif fam == "row":
            color, label = (lambda r: r // px), (lambda c: "row %d" % c)
        elif fam == "col":
            color, label = (lambda r: r % px), (lambda c: "col %d" % c)
        else:
            raise ValueError("unknown communicator family %r" % fam)
        by = {}
        for r in range(n):
            by.setdefault(color(r), []).append(r)
        families[fam] = {}
        for c in sorted(by):
            comm = Comm(first_id + len(comms), label(c), by[c], parent=world)
            comms.append(comm)
            for r in by[c]:
                families[fam][r] = comm
    return comms, families


class Sim:
    def __init__(self, name, seed, scale=1.0):
        self.name = name
        self.seed = seed
        self.scale = scale
        self.cfg = cfg = S.config(name)
        self.sseed = sseed = S.scenario_seed(name, seed)
        self.duration = cfg["duration"] * scale
        n = cfg["nodes"] * cfg["rpn"]
        self.n = n
        self.node_of = [r // cfg["rpn"] for r in range(n)]
        self.clocks = S.make_clocks(cfg, random.Random(sseed + 1), self.duration + 5.0)
        self.lmin, self.intra, self.congestion = S.make_network_params(
            cfg, random.Random(sseed + 2), self.duration)
        nt = cfg["net"]
        self.net = Network(random.Random(sseed + 3), self.node_of, self.lmin, self.intra,
                           nt["bw_inter"], nt["bw_intra"], nt["jitter_ns"] * 1e-9, nt["alpha"],
                           nt["intra_jitter_ns"] * 1e-9, self.congestion)
        self.eng = Engine(self.net, n, cfg["eager_limit"], cfg["copy_bw"])
        self.world = Comm(0, "MPI_COMM_WORLD", range(n))
        sub, self.families = family_comms(cfg, n, 1, self.world)
        self.comms = [self.world] + sub
        self.ov = Overheads()
        self.procs = [Proc(self.eng, r, self.node_of[r], self.clocks[self.node_of[r]],
                           random.Random(sseed * 97 + 11 + r), self.ov, REGION_ID)
                      for r in range(n)]
        self.iterations = S.iterations(cfg, self.duration)
        self.app = App(cfg["params"], sseed, self.world, self.families, self.iterations)

    def run(self):
        prog = PROGRAMS[self.cfg["program"]]
        launch = random.Random(self.sseed + 4)
        for p in self.procs:
            p.t = launch.uniform(0.0, 0.02)      # processes start at slightly different times
            self.eng.start(p, prog(p, self.app))
        self.eng.run()
        return self

    # -- description ----------------------------------------------------------
    def stats(self, local, truth):
        R = self.cfg["resolution"]
        ev = {str(p.rank): len(p.ev) for p in self.procs}
        total = sum(ev.values())
        end = max(p.ev[-1][0] for p in self.procs)
        p2p = self.eng.user_msgs
        # clock error of each node relative to the reference, sampled over the run
        spread = []
        for n, c in enumerate(self.clocks):
            diffs = []
            k = 200
            for i in range(k + 1):
                t = end * i / k
                diffs.append((c.seconds(t) - self.clocks[0].seconds(t)))
            # what linear interpolation between the ends leaves of it
            a, b = diffs[0], diffs[-1]
            resid = [abs(d - (a + (b - a) * i / k)) for i, d in enumerate(diffs)]
            spread.append({"node": n, "offset_start_us": a * 1e6, "offset_end_us": b * 1e6,
                           "max_nonlinear_us": max(resid) * 1e6})
        meas = []
        for p in self.procs:
            errs = []
            for L, off, sd, t in p.offsets:
                true_off = (self.clocks[0].seconds(t) - p.clock.seconds(t)) * R
                errs.append(round((off - true_off) / R * 1e9, 1))
            meas.append({"loc": p.rank, "error_ns": errs,
                         "stddev_ticks": [o[2] for o in p.offsets]})
        return {
            "events": total,
            "events_per_location": ev,
            "true_duration_s": end,
            "p2p_messages": len(p2p),
            "p2p_rendezvous": sum(1 for m in p2p if not m.eager),
            "collective_instances": len(self.eng.instances),
            "collective_algorithm_messages": len(self.eng.coll_msgs),
            "clock_vs_reference": spread,
            "offset_measurement_errors": meas,
        }

    def describe(self, stats):
        cfg = self.cfg
        return {
            "generator": "truthgen %d" % VERSION,
            "scenario": self.name,
            "description": cfg["description"],
            "seed": self.seed,
            "scenario_seed": self.sseed,
            "duration_scale": self.scale,
            "resolution": int(round(cfg["resolution"])),
            "reference": "rank 0's node clock (truth = floor(C_0(true time)))",
            "nodes": cfg["nodes"],
            "ranks_per_node": cfg["rpn"],
            "node_of_location": {str(r): self.node_of[r] for r in range(self.n)},
            "program": cfg["program"],
            "program_params": cfg["params"],
            "iterations": self.iterations,
            "communicators": [{"id": c.id, "name": c.name, "members": c.members}
                              for c in self.comms],
            "clock_config": cfg["clock"],
            "clocks": [dict(node=i, **c.to_json()) for i, c in enumerate(self.clocks)],
            "network": {
                "config": cfg["net"],
                "lmin_us": [[round(x * 1e6, 4) for x in row] for row in self.lmin],
                "intra_lmin_us": [round(x * 1e6, 4) for x in self.intra],
                "congestion_phases": [{"from_s": a, "to_s": b, "extra_mean_us": e * 1e6,
                                       "bandwidth_factor": f}
                                      for a, b, e, f in self.congestion],
                "eager_limit": cfg["eager_limit"],
            },
            "overheads": vars(self.ov),
            "stats": stats,
        }

    def readme(self, stats):
        cfg = self.cfg
        lm = [x for row in self.lmin for x in row if x > 0]
        return """# truthgen scenario `{name}` (seed {seed})

{desc}

An OTF2 archive written with the reference OTF2 library (python3-otf2) of a
simulated MPI program: {n} ranks on {nodes} nodes ({rpn} per node, one clock per
node), {events:,} events, {dur:.1f} s of simulated time, timer resolution
{res:,} ticks/s. ClockOffset records (start and end only) come from a
simulated ping-pong with rank 0 (minimum round trip of {rounds} rounds).
Minimum inter-node latency {lmin:.2f}-{lmax:.2f} us per direction.

Files: `traces.otf2`, `traces.def`, `traces/` (the archive), `truth.json`
(`{{"resolution": ticks per second, "<location id>": [the true time of each of
that location's events, in file order, in ticks of rank 0's clock]}}`),
`scenario.json` (every parameter, the clocks, the latency matrix, statistics),
`messages.json.gz` (the generator's record of every message, for validation).

Written by tools/truthgen of clc; regenerate with
`/usr/bin/python3 tools/truthgen/truthgen.py OUTDIR --scenario {name} --seed {seed}`.
""".format(name=self.name, seed=self.seed, desc=cfg["description"], n=self.n,
           nodes=cfg["nodes"], rpn=cfg["rpn"], events=stats["events"],
           dur=stats["true_duration_s"], res=int(round(cfg["resolution"])),
           rounds=self.ov.sync_rounds, lmin=min(lm) * 1e6 if lm else 0.0,
           lmax=max(lm) * 1e6 if lm else 0.0)


def simulate(name, seed, scale=1.0):
    return Sim(name, seed, scale).run()
