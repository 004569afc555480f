"""Tests of truthgen. Run from this directory:

    /usr/bin/python3 -m unittest -v

They need Debian's python3-otf2 (and otf2-print for the archive checks);
without them the tests that need them skip, unless CI=true, where they fail.
"""

import gzip
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from tglib import collectives as coll  # noqa: E402
from tglib.clock import NodeClock, monotone_ticks, ou_rate  # noqa: E402
from tglib.engine import ANY, E_LEAVE, E_RECV, Comm, DeadlockError, Engine  # noqa: E402
from tglib.mpi import Overheads, Proc  # noqa: E402
from tglib.network import Network  # noqa: E402
from tglib.regions import REGION_ID  # noqa: E402

try:
    import otf2  # noqa: F401
    HAVE_OTF2 = True
except ImportError:
    HAVE_OTF2 = False
HAVE_PRINT = shutil.which("otf2-print") is not None
IN_CI = os.environ.get("CI") == "true"


def truthgen(*args):
    """Run the command line tool; returns the CompletedProcess."""
    cmd = [sys.executable, os.path.join(HERE, "truthgen.py")] + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True)


def need_tools(test):
    missing = [n for n, ok in (("python3-otf2", HAVE_OTF2), ("otf2-print", HAVE_PRINT)) if not ok]
    if missing and not IN_CI:
        return unittest.skip("needs %s (run with /usr/bin/python3)" % ", ".join(missing))(test)
    return test


# -- a small cluster to drive the engine by hand ----------------------------------

class Mini:
    """nodes_of: node per rank; lmin[a][b] seconds; no jitter unless asked."""

    def __init__(self, nodes_of, lmin, intra=0.4e-6, jitter=0.0, eager=16384, clocks=None,
                 seed=1):
        self.net = Network(random.Random(seed), nodes_of, lmin, [intra] * (max(nodes_of) + 1),
                           10e9, 20e9, jitter, 2.5, 0.0)
        self.eng = Engine(self.net, len(nodes_of), eager, 8e9)
        self.world = Comm(0, "MPI_COMM_WORLD", range(len(nodes_of)))
        nn = max(nodes_of) + 1
        clocks = clocks or [NodeClock(1e9, 100.0) for _ in range(nn)]
        self.procs = [Proc(self.eng, r, nodes_of[r], clocks[nodes_of[r]], random.Random(r),
                           Overheads(sync_rounds=5), REGION_ID) for r in range(len(nodes_of))]

    def run(self, prog):
        for p in self.procs:
            self.eng.start(p, prog(p))
        self.eng.run()
        return self


def sym(n, lat):
    return [[0.0 if a == b else lat for b in range(n)] for a in range(n)]


class TestClock(unittest.TestCase):
    def test_perfect_clock_reads_base_plus_t(self):
        c = NodeClock(2e9, 50.0)
        for t in (0.0, 1e-9, 0.5, 123.456789):
            self.assertEqual(c.ticks(t), math.floor((50.0 + t) * 2e9))

    def test_wander_integral_matches_rate(self):
        rng = random.Random(3)
        c = NodeClock(1e9, 10.0, 1e-3, 12e-6, sines=[(2e-6, 1.3, 0.4), (5e-7, 17.0, 2.0)],
                      rw_dt=0.05, rw_rate=ou_rate(rng, 30.0, 0.05, 3e-7, 5.0),
                      slews=[(4.0, 6.0, -40e-6)])
        h = 1e-4
        for t in (0.3, 2.0, 4.5, 5.99, 7.7, 20.0):
            num = (c.seconds(t + h) - c.seconds(t - h)) / (2 * h)
            self.assertAlmostEqual(num, 1.0 + c.rate(t), delta=2e-8, msg="t=%g" % t)

    def test_steps_are_forward_only(self):
        with self.assertRaises(ValueError):
            NodeClock(1e9, 1.0, steps=[(1.0, -1e-6)])
        c = NodeClock(1e9, 1.0, steps=[(1.0, 25e-6)])
        self.assertEqual(c.ticks(1.0) - c.ticks(1.0 - 1e-9), 25001)

    def test_monotone_ticks(self):
        c = NodeClock(3e9, 7.0, 0.0, 0.0, sines=[(3e-6, 0.5, 0.0)])
        ts = sorted(random.Random(5).uniform(0, 3) for _ in range(2000))
        v = monotone_ticks(c, ts)
        self.assertTrue(all(b >= a for a, b in zip(v, v[1:])))


class TestEngine(unittest.TestCase):
    def test_non_overtaking_with_jitter(self):
        """Messages on one (source, tag, comm) are received in sending order even
        when the network would deliver a later one sooner."""
        m = Mini([0, 1], sym(2, 2e-6), jitter=5e-6)
        got = []

        def prog(p):
            if p.rank == 0:
                for k in range(30):
                    yield from p.send(m.world, 1, 7, 10 + (30 - k) * 400)
            else:
                yield from p.compute(1e-3)
                for _ in range(30):
                    msg = yield from p.recv(m.world, ANY, ANY)
                    got.append(msg.size)
        m.run(prog)
        self.assertEqual(got, [10 + (30 - k) * 400 for k in range(30)])

    def test_any_source_takes_the_first_arrival(self):
        m = Mini([0, 1, 2], sym(3, 2e-6))
        order = []

        def prog(p):
            if p.rank == 0:
                for _ in range(2):
                    msg = yield from p.recv(m.world, ANY, 3)
                    order.append(msg.src)
            else:
                yield from p.compute(5e-3 if p.rank == 1 else 1e-3)
                yield from p.send(m.world, 0, 3, 8)
        m.run(prog)
        self.assertEqual(order, [2, 1])

    def test_rendezvous_waits_for_the_receiver(self):
        lat = 3e-6
        for size, rendezvous in ((1000, False), (100000, True)):
            m = Mini([0, 1], sym(2, lat))

            def prog(p):
                if p.rank == 0:
                    yield from p.send(m.world, 1, 1, size)
                else:
                    yield from p.compute(2e-3)
                    yield from p.recv(m.world, 0, 1)
            m.run(prog)
            send_leave = [e[0] for e in m.procs[0].ev if e[1] == E_LEAVE][-1]
            recv_enter = [e[0] for e in m.procs[1].ev if e[1] == E_RECV][0]
            if rendezvous:
                self.assertGreater(send_leave, 2e-3 + lat, "rendezvous send returned early")
            else:
                self.assertLess(send_leave, 1e-3, "eager send waited for the receiver")
            self.assertGreaterEqual(recv_enter, m.eng.user_msgs[0].t_data)

    def test_offset_measurement_bias_is_half_the_asymmetry(self):
        """Rank 1's clock is rank 0's + 1 ms. With A->B 2 us and B->A 3 us (no
        jitter) the minimum-RTT estimate is off by (3 - 2) / 2 = +0.5 us, plus
        a few tens of ns of software overhead; with 2.5 us both ways by only
        that overhead."""
        for lat, bias in (([[0.0, 2e-6], [3e-6, 0.0]], 500), ([[0.0, 2.5e-6], [2.5e-6, 0.0]], 0)):
            clocks = [NodeClock(1e9, 100.0), NodeClock(1e9, 100.0, offset=1e-3)]
            m = Mini([0, 1], lat, clocks=clocks)

            def prog(p):
                yield from p.mpi_init(m.world)
                yield from p.mpi_finalize(m.world)
            m.run(prog)
            self.assertEqual(len(m.procs[1].offsets), 2)
            for loc, off, sd, _ in m.procs[1].offsets:
                self.assertTrue(-1_000_000 + bias <= off <= -1_000_000 + bias + 60, off)
                self.assertGreaterEqual(sd, 2500)       # RTT/2 >= (2 + 3) / 2 us
            self.assertEqual([o[1] for o in m.procs[0].offsets], [0, 0])

    def test_deadlock_is_reported(self):
        m = Mini([0, 1], sym(2, 2e-6))

        def prog(p):
            yield from p.recv(m.world, 1 - p.rank, 0)
        with self.assertRaises(DeadlockError):
            m.run(prog)


class TestCollectives(unittest.TestCase):
    def count(self, n, algo, *args, nodes=None):
        m = Mini(nodes or list(range(n)), sym(n, 2e-6), jitter=1e-7)

        def prog(p):
            yield from p._collective(m.world, "X", "MPI_Barrier", None, 0, 0, algo, *args)
        m.run(prog)
        return m

    def test_message_counts_of_the_algorithms(self):
        for n in (2, 5, 8, 13):
            logn = math.ceil(math.log2(n))
            self.assertEqual(len(self.count(n, coll.barrier_dissemination).eng.coll_msgs), n * logn)
            self.assertEqual(len(self.count(n, coll.bcast_binomial, n // 2, 64).eng.coll_msgs), n - 1)
            self.assertEqual(len(self.count(n, coll.reduce_binomial, 1, 64).eng.coll_msgs), n - 1)
            pof2 = 1 << (n.bit_length() - 1)
            rem = n - pof2
            self.assertEqual(len(self.count(n, coll.allreduce_recursive_doubling, 8).eng.coll_msgs),
                             2 * rem + pof2 * int(math.log2(pof2)))
            self.assertEqual(len(self.count(n, coll.allgather_ring, [4] * n).eng.coll_msgs), n * (n - 1))
            self.assertEqual(len(self.count(n, coll.scan_recursive_doubling, 8).eng.coll_msgs),
                             sum(1 for r in range(n) for k in range(logn) if r ^ (1 << k) < n))
            self.assertEqual(len(self.count(n, coll.exscan_linear, 8).eng.coll_msgs), n - 1)

    def test_zero_byte_members_send_nothing(self):
        counts = [0, 5, 0, 7, 0, 1]
        m = self.count(6, coll.gatherv_linear, 3, counts)
        self.assertEqual(sorted(msg.src for msg in m.eng.coll_msgs), [1, 5])
        m = self.count(6, coll.scatterv_linear, 0, counts)
        self.assertEqual(sorted(msg.dst for msg in m.eng.coll_msgs), [1, 3, 5])
        mat = [[0, 3, 0], [0, 0, 0], [2, 2, 0]]
        m = self.count(3, coll.alltoallv_pairwise, mat)
        self.assertEqual(sorted((x.src, x.dst) for x in m.eng.coll_msgs), [(0, 1), (2, 0), (2, 1)])

    def test_all_to_all_ends_after_every_begin(self):
        for algo, args in ((coll.barrier_dissemination, ()), (coll.allreduce_ring, (1 << 20,)),
                           (coll.allreduce_recursive_doubling, (8,))):
            m = self.count(7, algo, *args, nodes=[0, 0, 1, 1, 2, 2, 3])
            inst = m.eng.instances[(0, 0)]
            begins = [m.procs[r].ev[inst.begin[r]][0] for r in range(7)]
            ends = [m.procs[r].ev[inst.end[r]][0] for r in range(7)]
            self.assertGreater(min(ends), max(begins), algo.__name__)


@need_tools
class TestScenarios(unittest.TestCase):
    """Every scenario, shortened, written and validated through the reference readers."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="truthgen-test-")
        cls.root = os.path.join(cls.tmp, "all")
        cls.proc = truthgen(cls.root, "--all", "--seed", 7, "--duration-scale", 0.03)
        # long enough for the collectives program to call every operation
        cls.coll = os.path.join(cls.tmp, "collectives")
        cls.proc_coll = truthgen(cls.coll, "--scenario", "collectives", "--seed", 7,
                                 "--duration-scale", 0.3)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_all_scenarios_validate(self):
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr)
        from tglib import scenarios
        lines = [json.loads(x) for x in self.proc.stdout.splitlines()]
        self.assertEqual([x["scenario"] for x in lines], scenarios.names())
        self.assertGreaterEqual(len(lines), 8)
        for x in lines:
            self.assertEqual(x["checks_failed"], {}, x["scenario"])
            self.assertGreater(x["events"], 500, x["scenario"])

    def test_layout_and_truth_format(self):
        d = os.path.join(self.root, "linear")
        for f in ("traces.otf2", "traces.def", "traces", "truth.json", "scenario.json",
                  "messages.json.gz", "README.md"):
            self.assertTrue(os.path.exists(os.path.join(d, f)), f)
        with open(os.path.join(d, "truth.json")) as f:
            t = json.load(f)
        self.assertEqual(t["resolution"], 2400000000)
        self.assertEqual(sorted(int(k) for k in t if k != "resolution"), list(range(16)))
        self.assertEqual(sorted(os.listdir(os.path.join(d, "traces"))),
                         sorted(["%d.evt" % i for i in range(16)] + ["%d.def" % i for i in range(16)]))

    def test_rank0_truth_is_its_own_clock(self):
        """truth is rank 0's clock: rank 0's recorded times equal its truth (and so
        do those of the other ranks on node 0, which share the clock)."""
        from tglib.validate import read_archive
        d = os.path.join(self.root, "slow-wander")
        raw, *_ = read_archive(os.path.join(d, "traces.otf2"), apply_offsets=False)
        with open(os.path.join(d, "truth.json")) as f:
            t = json.load(f)
        for loc in (0, 1, 2, 3):         # 4 ranks per node
            self.assertEqual([e.time for e in raw[loc]], t[str(loc)])
        self.assertNotEqual([e.time for e in raw[4]], t["4"])

    def test_scenario_features_present(self):
        from tglib.validate import derive_collectives, read_archive
        seen = {}
        self.assertEqual(self.proc_coll.returncode, 0, self.proc_coll.stderr)
        dirs = {"master-worker": os.path.join(self.root, "master-worker"),
                "halo-shuffled": os.path.join(self.root, "halo-shuffled"),
                "collectives": self.coll}
        for name, d in dirs.items():
            raw, _, members, _, _ = read_archive(os.path.join(d, "traces.otf2"),
                                                 apply_offsets=False)
            kinds = {type(e).__name__ for evs in raw.values() for e in evs}
            colls, _ = derive_collectives(raw)
            ops = {c[2] for v in colls.values() for c in v}
            seen[name] = (kinds, ops, members)
        self.assertIn("MpiRequestTest", seen["halo-shuffled"][0])
        self.assertIn("MpiIrecv", seen["halo-shuffled"][0])
        # ANY_SOURCE: rank 0's results come from several workers
        with gzip.open(os.path.join(self.root, "master-worker", "messages.json.gz"), "rt") as f:
            msgs = json.load(f)
        self.assertGreater(len({m[0] for m in msgs["p2p"] if m[2] == 0}), 5)
        self.assertTrue({"BCAST", "REDUCE", "ALLREDUCE", "BARRIER", "GATHERV", "SCATTERV",
                         "ALLTOALL", "ALLTOALLV", "SCAN", "EXSCAN", "ALLGATHER",
                         "REDUCE_SCATTER"} <= seen["collectives"][1], seen["collectives"][1])
        self.assertGreater(len(seen["collectives"][2]), 10)     # split communicators

    def test_deterministic_for_a_seed(self):
        a = os.path.join(self.tmp, "a")
        b = os.path.join(self.tmp, "b")
        c = os.path.join(self.tmp, "c")
        for d, seed in ((a, "7"), (b, "7"), (c, "8")):
            r = truthgen(d, "--scenario", "asymmetric", "--seed", seed, "--duration-scale", 0.02,
                         "--no-validate")
            self.assertEqual(r.returncode, 0, r.stderr)

        def events(d):
            out = subprocess.run(["otf2-print", os.path.join(d, "traces.otf2")],
                                 capture_output=True, text=True).stdout
            return out

        def read(d, f):
            with open(os.path.join(d, f), "rb") as fh:
                return fh.read()
        self.assertEqual(read(a, "truth.json"), read(b, "truth.json"))
        self.assertEqual(read(a, "scenario.json"), read(b, "scenario.json"))
        self.assertEqual(events(a), events(b))
        self.assertNotEqual(read(a, "truth.json"), read(c, "truth.json"))


@need_tools
class TestValidatorCatches(unittest.TestCase):
    """The validator fails on broken outputs (so its passes mean something)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="truthgen-val-")
        cls.good = os.path.join(cls.tmp, "good")
        r = truthgen(cls.good, "--scenario", "linear", "--duration-scale", 0.02, "--no-validate")
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def broken(self, name, edit_truth=None, edit_msgs=None):
        from tglib.validate import validate
        d = os.path.join(self.tmp, name)
        shutil.copytree(self.good, d)
        if edit_truth:
            with open(os.path.join(d, "truth.json")) as f:
                t = json.load(f)
            edit_truth(t, self.msgs(d))
            with open(os.path.join(d, "truth.json"), "w") as f:
                json.dump(t, f)
        if edit_msgs:
            m = self.msgs(d)
            edit_msgs(m)
            with gzip.open(os.path.join(d, "messages.json.gz"), "wt") as f:
                json.dump(m, f)
        rep, _ = validate(d)
        return {k for k, v in rep.checks.items() if v["failed"]}

    @staticmethod
    def msgs(d):
        with gzip.open(os.path.join(d, "messages.json.gz"), "rt") as f:
            return json.load(f)

    def test_good_passes(self):
        from tglib.validate import validate
        rep, summ = validate(self.good)
        self.assertTrue(rep.ok(), rep.checks)
        self.assertGreater(rep.checks["p2p_causal"]["checked"], 50)
        self.assertGreater(rep.checks["coll_semantics"]["checked"], 50)

    def test_receive_before_send(self):
        def edit(t, m):
            sl, si, rl, ri = m["p2p"][len(m["p2p"]) // 2][:4]
            t[str(rl)][ri] = t[str(sl)][si] - 10
        self.assertIn("p2p_causal", self.broken("causal", edit_truth=edit))

    def test_truth_goes_backwards(self):
        def edit(t, m):
            t["3"][10], t["3"][11] = t["3"][11], t["3"][10] - 1
        self.assertIn("truth_monotone", self.broken("mono", edit_truth=edit))

    def test_missing_truth_entry(self):
        def edit(t, m):
            t["5"].pop()
        self.assertIn("counts", self.broken("count", edit_truth=edit))

    def test_wrong_matching(self):
        def edit(m):
            p = m["p2p"]
            i = next(k for k in range(1, len(p)) if p[k][2] == p[0][2] and p[k][0] != p[0][0])
            p[0][2:4], p[i][2:4] = p[i][2:4], p[0][2:4]
        self.assertIn("p2p_matching", self.broken("match", edit_msgs=edit))

    def test_collective_end_too_early(self):
        def edit(t, m):
            c, k, src, dst = m["collective_messages"][0][:4]
            inst = next(x for x in m["instances"] if x[0] == c and x[1] == k)
            end = {loc: e for loc, b, e in inst[3]}[dst]
            begin = {loc: b for loc, b, e in inst[3]}[src]
            # pull the end (and what precedes it) before the sender's begin
            new = t[str(src)][begin] - 5
            for i in range(end + 1):
                t[str(dst)][i] = min(t[str(dst)][i], new)
        self.assertIn("coll_messages", self.broken("coll", edit_truth=edit))


class TestCLI(unittest.TestCase):
    def test_list(self):
        r = truthgen("--list")
        self.assertEqual(r.returncode, 0)
        self.assertGreaterEqual(len(r.stdout.splitlines()), 8)

    def test_unknown_scenario(self):
        r = truthgen(tempfile.gettempdir() + "/never", "--scenario", "nope")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown scenario", r.stderr)

    @need_tools
    def test_validate_names_a_broken_archive(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "s")
            r = truthgen(out, "--scenario", "perfect", "--duration-scale", 0.01, "--no-validate")
            self.assertEqual(r.returncode, 0, r.stderr)
            evt = os.path.join(out, "traces", "3.evt")
            with open(evt, "r+b") as f:
                f.truncate(os.path.getsize(evt) // 2)
            r = truthgen("--validate", out)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertIn(out, r.stderr)
            self.assertNotIn("Traceback", r.stderr)

    @need_tools
    def test_refuses_non_empty_outdir(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "keep"), "w") as f:
                f.write("x")
            r = truthgen(d, "--scenario", "perfect", "--duration-scale", "0.01")
            self.assertEqual(r.returncode, 1)
            self.assertIn("not empty", r.stderr)
            self.assertEqual(os.listdir(d), ["keep"])
            self.assertEqual([x for x in os.listdir(os.path.dirname(d))
                              if x.startswith("." + os.path.basename(d))], [])


if __name__ == "__main__":
    unittest.main()
