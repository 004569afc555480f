#!/usr/bin/python3
"""Print every event of an OTF2 archive through the reference library.

Usage: /usr/bin/python3 dumpevents.py ANCHOR

One line per event, ordered by location id and then by position:
  <location id> <time> <record> <fields...>
with the MPI fields in OTF2's order (communicators by name, regions by
name). The otf/ tests compare this with the model they wrote.
"""
import sys

import otf2

lines = {}
with otf2.reader.open(sys.argv[1]) as tr:
    for loc, ev in tr.events:
        name = type(ev).__name__
        f = []
        if hasattr(ev, "region"):
            f.append(ev.region.name)
        for a in ("receiver", "sender"):
            if hasattr(ev, a):
                f.append(str(getattr(ev, a)))
        if hasattr(ev, "communicator"):
            f.append(ev.communicator.name)
        for a in ("msg_tag", "msg_length", "collective_op", "root", "size_sent",
                  "size_received", "request_id"):
            if hasattr(ev, a):
                v = getattr(ev, a)
                if isinstance(v, bytes):
                    v = v[0]
                elif hasattr(v, "value"):
                    v = v.value
                f.append(str(int(v)))
        lines.setdefault(loc._ref, []).append(" ".join([str(loc._ref), str(ev.time), name] + f))
for ref in sorted(lines):
    for l in lines[ref]:
        print(l)
