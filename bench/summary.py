#!/usr/bin/python3
"""Summarise bench/run.sh's runs as Markdown tables.

Usage: summary.py RESULTS.tsv DATADIR REPORTDIR

RESULTS.tsv has one line per run: trace, tool, run, wall s, user s, sys s,
peak RSS KB, exit status, 1-minute load average before the run. DATADIR/TRACE.events holds a trace's event count;
REPORTDIR/TRACE.TOOL.RUN.json is clc-correct's report of that run, whose
timing_s gives its stages.
"""
import json
import os
import statistics
import sys
from collections import OrderedDict


def load(path):
    runs, loads = OrderedDict(), []
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) < 8:
                continue
            trace, tool, run = p[0], p[1], int(p[2])
            if len(p) > 8:
                try:
                    loads.append(float(p[8]))
                except ValueError:
                    pass
            try:
                wall, user, sys_, rss = float(p[3]), float(p[4]), float(p[5]), int(p[6])
                status = int(p[7])
            except ValueError:  # /usr/bin/time printed no figures (killed)
                wall = user = sys_ = rss = None
                status = 1
            runs.setdefault(trace, OrderedDict()).setdefault(tool, []).append(
                dict(run=run, wall=wall, cpu=None if user is None else user + sys_,
                     rss=rss, status=status))
    return runs, loads


def events_of(data, trace):
    try:
        with open(os.path.join(data, trace + ".events")) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def stats(rs):
    ok = [r for r in rs if r["status"] == 0 and r["wall"] is not None]
    if not ok:
        return None
    walls = [r["wall"] for r in ok]
    return dict(n=len(ok), failed=len(rs) - len(ok), best=min(walls),
                median=statistics.median(walls),
                cpu=statistics.median(r["cpu"] for r in ok),
                rss=statistics.median(r["rss"] for r in ok),
                best_run=min(ok, key=lambda r: r["wall"])["run"])


def ratio(a, b):
    if a is None or b is None:
        return "–"
    return "%.2f / %.2f (CPU %.2f)" % (a["best"] / b["best"], a["median"] / b["median"],
                                        a["cpu"] / b["cpu"])


def main():
    results, data, reports = sys.argv[1:4]
    runs, loads = load(results)
    if loads:
        print("1-minute load average before each run: min %.1f, median %.1f, max %.1f" %
              (min(loads), statistics.median(loads), max(loads)))
        print()
    refs = [("lib-copy", "/ lib-copy"), ("lib-copy-nodef", "/ lib-copy-nodef"),
            ("base-correct", "/ baseline")]
    present = [(t, h) for t, h in refs if any(t in tools for tools in runs.values())]

    print("Wall seconds best / median of the runs; events/s from the best; CPU (user + sys),")
    print("peak RSS and bytes/event (peak RSS / events) are medians; ratios are the tool's")
    print("best / the reference's best, median / median and (CPU) median CPU / median CPU")
    print("(below 1: faster than the reference).")
    print()
    head = ["trace", "events", "tool", "runs", "wall best / median s", "events/s",
            "CPU s", "peak RSS MB", "bytes/event"] + [h for _, h in present]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for trace, tools in runs.items():
        ev = events_of(data, trace)
        st = {tool: stats(rs) for tool, rs in tools.items()}
        for tool, s in st.items():
            if s is None:
                row = [trace, fmt_events(ev), tool, "0 of %d" % len(tools[tool]), "FAILED"]
                row += [""] * (len(head) - len(row))
            else:
                n = str(s["n"]) + (" (%d failed)" % s["failed"] if s["failed"] else "")
                row = [trace, fmt_events(ev), tool, n,
                       "%.3f / %.3f" % (s["best"], s["median"]),
                       "%.1f M" % (ev / s["best"] / 1e6) if ev else "–",
                       "%.2f" % s["cpu"], "%.0f" % (s["rss"] / 1024),
                       "%.1f" % (s["rss"] * 1024 / ev) if ev else "–"]
                for ref, _ in present:
                    if ref == "base-correct":
                        # The baseline's run of the same kind: clc-check
                        # against base-check, clc-otf2 against base-otf2.
                        ref = "base-" + tool[len("clc-"):] if tool.startswith("clc-") else ""
                    useful = not tool.startswith("lib-") and tool != ref and ref in st
                    row.append(ratio(s, st.get(ref)) if useful else "–")
            print("| " + " | ".join(row) + " |")
    stages(runs, reports)


def fmt_events(ev):
    if ev is None:
        return "?"
    return "{:,}".format(ev)


def stages(runs, reports):
    """clc-correct's stages (report timing_s) in its fastest successful run."""
    rows, keys = [], []
    for trace, tools in runs.items():
        for tool, rs in tools.items():
            if tool.startswith("lib-"):
                continue
            best = stats(rs)
            timings = []
            for r in rs:
                if best is None or r["run"] != best["best_run"]:
                    continue
                p = os.path.join(reports, "%s.%s.%d.json" % (trace, tool, r["run"]))
                try:
                    with open(p) as f:
                        t = json.load(f).get("timing_s")
                except (OSError, ValueError):
                    continue
                if r["status"] == 0 and isinstance(t, dict):
                    timings.append(t)
                    for k in t:
                        if k not in keys:
                            keys.append(k)
            if timings:
                rows.append((trace, tool, timings))
    if not rows:
        return
    print()
    print("clc-correct's stages in its fastest run (the report's timing_s, wall seconds):")
    print()
    print("| trace | tool | " + " | ".join(keys) + " |")
    print("|" + "---|" * (len(keys) + 2))
    for trace, tool, timings in rows:
        cells = []
        for k in keys:
            v = [t[k] for t in timings if isinstance(t.get(k), (int, float))]
            cells.append("%.3f" % v[0] if v else "–")
        print("| %s | %s | %s |" % (trace, tool, " | ".join(cells)))


if __name__ == "__main__":
    main()
