#!/usr/bin/python3
"""truthgen: MPI traces (OTF2) of simulated runs on clusters with drifting
clocks, with the true time of every event.

  truthgen.py --list
  truthgen.py OUTDIR --scenario NAME [--seed N] [--duration-scale X] [--force]
  truthgen.py OUTROOT --all [--seed N] [--duration-scale X] [--force]
  truthgen.py --validate DIR [DIR ...]          (a scenario directory or an OUTROOT)

Generating also validates what it wrote unless --no-validate is given. Exit
status: 0 when everything was written and every check passed, 1 on an error
(nothing is left behind for the scenario that failed), 2 when a check failed.
Run it with /usr/bin/python3 (Debian's python3-otf2).
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tglib import scenarios  # noqa: E402
from tglib.generate import simulate  # noqa: E402

try:
    from tglib.otf2out import OutputError, write_all
    from tglib.validate import ValidationError, validate
    OTF2_ERROR = None
except ImportError as e:            # python3-otf2 missing: only --list works
    OTF2_ERROR = e

    class OutputError(Exception):
        pass

    class ValidationError(Exception):
        pass


def generate_one(name, outdir, seed, scale, force, check):
    t0 = time.time()
    sim = simulate(name, seed, scale)
    t1 = time.time()
    stats = write_all(sim, outdir, force=force)
    t2 = time.time()
    line = {"scenario": name, "dir": outdir, "events": stats["events"],
            "locations": sim.n, "nodes": sim.cfg["nodes"],
            "true_duration_s": round(stats["true_duration_s"], 1),
            "simulate_s": round(t1 - t0, 1), "write_s": round(t2 - t1, 1)}
    ok = True
    if check:
        rep, summ = validate(outdir)
        line["validate_s"] = round(time.time() - t2, 1)
        line["checks_failed"] = {k: v["failed"] for k, v in rep.checks.items() if v["failed"]}
        line["presync_error_ns"] = summ["presync_error_ns"]
        line["violations_after_presync"] = summ["violations_after_presync"]
        ok = rep.ok()
        if not ok:
            for k, v in rep.checks.items():
                for ex in v["examples"]:
                    print("  FAIL %s: %s" % (k, ex), file=sys.stderr)
    print(json.dumps(line), flush=True)
    return ok


def validate_dirs(dirs):
    ok = True
    for d in dirs:
        if os.path.exists(os.path.join(d, "scenario.json")):
            targets = [d]
        else:
            targets = sorted(os.path.join(d, x) for x in os.listdir(d)
                             if os.path.exists(os.path.join(d, x, "scenario.json")))
            if not targets:
                raise ValidationError("%s: neither a scenario directory nor a directory of them" % d)
        for t in targets:
            t0 = time.time()
            try:
                rep, summ = validate(t)
            except ValidationError:
                raise
            except Exception as e:      # the reader's errors, broken JSON: name the place
                raise ValidationError("%s: cannot be read: %s: %s" % (t, type(e).__name__, e))
            summ["validate_s"] = round(time.time() - t0, 1)
            summ["checks"] = {k: "%d/%d failed" % (v["failed"], v["checked"])
                              for k, v in rep.checks.items()}
            print(json.dumps(summ), flush=True)
            for k, v in rep.checks.items():
                for ex in v["examples"]:
                    print("  FAIL %s: %s" % (k, ex), file=sys.stderr)
            ok = ok and rep.ok()
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="*", help="OUTDIR (one scenario), OUTROOT (--all), or dirs to --validate")
    ap.add_argument("--scenario", help="scenario name (see --list)")
    ap.add_argument("--all", action="store_true", help="every scenario, each into OUTROOT/NAME")
    ap.add_argument("--list", action="store_true", help="list the scenarios")
    ap.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    ap.add_argument("--duration-scale", type=float, default=1.0,
                    help="multiply every scenario's duration (and so its iterations)")
    ap.add_argument("--force", action="store_true", help="replace a non-empty OUTDIR")
    ap.add_argument("--no-validate", action="store_true", help="skip reading the output back")
    ap.add_argument("--validate", action="store_true", help="only validate the given directories")
    a = ap.parse_args(argv)
    try:
        if a.list:
            for name in scenarios.names():
                c = scenarios.config(name)
                print("%-14s %2d nodes x %d ranks, %5.0f s, %s: %s" % (
                    name, c["nodes"], c["rpn"], c["duration"], c["program"], c["description"]))
            return 0
        if a.validate:
            if not a.out:
                ap.error("--validate needs at least one directory")
        else:
            if len(a.out) != 1:
                ap.error("give exactly one OUTDIR (or OUTROOT with --all)")
            if not (a.duration_scale > 0):
                ap.error("--duration-scale must be positive")
            if a.all == bool(a.scenario):
                ap.error("give either --scenario NAME or --all")
            if a.scenario and a.scenario not in scenarios.SCENARIOS:
                ap.error("unknown scenario %r (see --list)" % a.scenario)
        if OTF2_ERROR is not None:
            print("truthgen: needs Debian's python3-otf2 (run it with /usr/bin/python3): %s"
                  % OTF2_ERROR, file=sys.stderr)
            return 1
        if a.validate:
            return 0 if validate_dirs(a.out) else 2
        check = not a.no_validate
        if a.all:
            root = a.out[0]
            os.makedirs(root, exist_ok=True)
            ok = True
            for name in scenarios.names():
                ok = generate_one(name, os.path.join(root, name), a.seed, a.duration_scale,
                                  a.force, check) and ok
            return 0 if ok else 2
        ok = generate_one(a.scenario, a.out[0], a.seed, a.duration_scale, a.force, check)
        return 0 if ok else 2
    except (OutputError, ValidationError, OSError) as e:
        print("truthgen: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
