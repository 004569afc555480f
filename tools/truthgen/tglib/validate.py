"""Read a written scenario back with the reference readers and check it.

What is checked (each a named check with a count of failures):

counts              per location: events the Python reader delivers = the
                    Location definition's count = events otf2-print prints =
                    entries of truth.json
reference_reader    `otf2-print --silent -Werror` accepts the archive
truth_monotone      truth is non-decreasing per location
local_monotone      the recorded (raw, local-clock) times are non-decreasing
                    per location (read with the reader's clock-offset
                    correction switched off)
p2p_matching        the messages matched from the archive's records alone
                    (MPI order per sender, receiver, communicator and tag,
                    receives ordered by their posting) are exactly the
                    messages the generator sent
p2p_causal          every matched message: truth(receive) - truth(send) is at
                    least its actual latency (messages.json.gz) in reference
                    ticks, and at least the pair's minimum latency
                    (scenario.json)
rendezvous_causal   every rendezvous message: the sender's completion (Leave
                    of MPI_Send / MpiIsendComplete) is at least one minimum
                    latency after the receiver posted the receive
coll_instances      every member of a communicator records the same sequence
                    of collectives (op, root); the k-th instance per
                    communicator is the generator's (same begin/end events)
coll_bytes          per instance, the bytes sent sum to the bytes received
coll_messages       every message a collective algorithm delivered is causal:
                    truth(end of the receiving member) - truth(begin of the
                    sending member) is at least the message's latency
coll_semantics      from the records alone: each member's end is after the
                    begin of every member its result depends on (all of them
                    for barrier/allreduce/allgather(v)/alltoall/comm_split,
                    the root for bcast and the non-empty members of a
                    scatterv, every member for the root of a reduce, the
                    non-empty members for the root of a gatherv, the lower
                    ranks for scan/exscan)
presync_bound       only for scenarios whose clocks are exactly linear: the
                    reference reader's own offset interpolation is within the
                    measurements' RTT/2 of the truth (the measured offset is
                    bracketed by its round trip); for perfect clocks the raw
                    times equal the truth

It also reports pre-synchronisation's error against the truth (mean, p99,
max), the figure a correction is measured against.
"""

import gzip
import json
import os
import shutil
import subprocess
from collections import defaultdict
from contextlib import closing

import _otf2
import otf2
from otf2.enums import GroupType

ALL_DEP = {"BARRIER", "ALLREDUCE", "ALLGATHER", "ALLGATHERV", "ALLTOALL", "CREATE_HANDLE"}
SLACK_TICKS = 2
RATE_MARGIN = 1e-3       # the reference clock's rate is within 0.1 % of nominal


class ValidationError(Exception):
    pass


class RawReader(otf2.reader.Reader):
    """The reference Python reader, optionally without clock-offset correction,
    also collecting each location's ClockOffset records."""

    def __init__(self, path, apply_offsets):
        self.apply_offsets = apply_offsets
        self.clock_offsets = defaultdict(list)
        super().__init__(path)

    def _get_global_evt_reader_handle(self, locations):
        if locations is None:
            locations = self._locations
        for location in locations:
            _otf2.Reader_SelectLocation(self._handle, location._ref)
        _otf2.Reader_OpenDefFiles(self._handle)
        _otf2.Reader_OpenEvtFiles(self._handle)
        for location in locations:
            _otf2.Reader_GetEvtReader(self._handle, location._ref)
            if not self.apply_offsets:
                # With OTF2 3.0.2, OTF2_EvtReader_ApplyClockOffsets(false) before or
                # after reading the local definitions still left the offsets
                # applied; without the local definitions the reader knows none
                # (these archives have no mapping tables).
                continue
            def_reader = _otf2.Reader_GetDefReader(self._handle, location._ref)
            if def_reader:
                cbs = _otf2.DefReaderCallbacks_New()
                store = self.clock_offsets[location._ref]

                def on_offset(_user, t, off, sd, store=store):
                    store.append((t, off, sd))
                _otf2.DefReaderCallbacks_SetClockOffsetCallback(cbs, on_offset)
                _otf2.Reader_RegisterDefCallbacks(self._handle, def_reader, cbs, None)
                _otf2.DefReaderCallbacks_Delete(cbs)
                _otf2.Reader_ReadAllLocalDefinitions(self._handle, def_reader)
                _otf2.Reader_CloseDefReader(self._handle, def_reader)
        _otf2.Reader_CloseDefFiles(self._handle)
        self._global_evt_reader_handle = _otf2.Reader_GetGlobalEvtReader(self._handle)
        return self._global_evt_reader_handle


def read_archive(anchor, apply_offsets):
    """Events per location id (in file order), event counts announced by the
    Location definitions, members of each communicator as location ids, the
    ClockOffset records per location, the timer resolution."""
    per = defaultdict(list)
    with closing(RawReader(anchor, apply_offsets)) as r:
        defs = r.definitions
        announced = {loc._ref: loc.number_of_events for loc in defs.locations}
        world_locs = None
        for g in defs.groups:
            if g.group_type == GroupType.COMM_LOCATIONS:
                world_locs = [m._ref for m in g.members]
        if world_locs is None:
            raise ValidationError("%s: no COMM_LOCATIONS group" % anchor)
        # a COMM_GROUP lists ranks (indices into COMM_LOCATIONS); the Python
        # reader hands them over as Location objects whose id is the rank
        comm_members = {c._ref: [world_locs[getattr(m, "_ref", m)] for m in c.group.members]
                        for c in defs.comms}
        for loc, ev in r.events:
            per[loc._ref].append(ev)
        offsets = {k: sorted(v) for k, v in r.clock_offsets.items()}
        res = r.timer_resolution
    return per, announced, comm_members, offsets, res


def otf2_print(anchor):
    """(accepted by -Werror, its stderr, events per location as otf2-print prints
    them), or None when otf2-print is not installed."""
    exe = shutil.which("otf2-print")
    if exe is None:
        return None
    strict = subprocess.run([exe, "--silent", "-Werror", anchor], capture_output=True, text=True)
    full = subprocess.run([exe, anchor], capture_output=True, text=True)
    counts = defaultdict(int)
    started = False
    for line in full.stdout.splitlines():
        if not started:
            started = line.startswith("-----")
            continue
        parts = line.split(None, 3)
        if len(parts) >= 3 and parts[1].isdigit():
            counts[int(parts[1])] += 1
    ok = strict.returncode == 0 and full.returncode == 0
    return ok, (strict.stderr + full.stderr).strip(), dict(counts)


class Report:
    def __init__(self):
        self.checks = {}

    def count(self, name, n=1):
        c = self.checks.setdefault(name, {"checked": 0, "failed": 0, "examples": []})
        c["checked"] += n

    def fail(self, name, msg):
        c = self.checks.setdefault(name, {"checked": 0, "failed": 0, "examples": []})
        c["failed"] += 1
        if len(c["examples"]) < 5:
            c["examples"].append(msg)

    def ok(self):
        return all(c["failed"] == 0 for c in self.checks.values())


def _name(ev):
    return type(ev).__name__


def _op(ev):
    return str(ev.collective_op).rsplit(".", 1)[-1]


def derive_p2p(raw, members):
    """Match messages from the records alone (MPI semantics).

    Returns (pairs, post, send_done): pairs maps (send loc, send idx) to
    (recv loc, recv idx, bytes); post maps (recv loc, recv idx) to the index
    of the event that posted the receive (MpiIrecvRequest, or the Enter of the
    blocking call); send_done maps (send loc, send idx) to the index of the
    event that completed the send (Leave of the blocking call,
    MpiIsendComplete)."""
    sends = defaultdict(list)
    recvs = defaultdict(list)
    send_done = {}
    post = {}
    problems = []
    for loc, evs in raw.items():
        pending = {}
        isends = {}
        last_enter = None
        open_sends = []
        for i, ev in enumerate(evs):
            n = _name(ev)
            if n == "Enter":
                last_enter = i
            elif n == "Leave":
                for s in open_sends:
                    send_done[(loc, s)] = i
                open_sends = []
            elif n in ("MpiSend", "MpiIsend"):
                dst = members[ev.communicator._ref][ev.receiver]
                sends[(loc, dst, ev.communicator._ref, ev.msg_tag)].append((i, ev.msg_length))
                if n == "MpiSend":
                    open_sends.append(i)
                else:
                    isends[ev.request_id] = i
            elif n == "MpiIsendComplete":
                if ev.request_id not in isends:
                    problems.append("loc %d event %d: completes unknown send request %d"
                                    % (loc, i, ev.request_id))
                    continue
                send_done[(loc, isends.pop(ev.request_id))] = i
            elif n == "MpiIrecvRequest":
                pending[ev.request_id] = i
            elif n in ("MpiIrecv", "MpiRecv"):
                if n == "MpiIrecv":
                    if ev.request_id not in pending:
                        problems.append("loc %d event %d: completes unknown receive request %d"
                                        % (loc, i, ev.request_id))
                        continue
                    p = pending.pop(ev.request_id)
                else:
                    p = last_enter
                src = members[ev.communicator._ref][ev.sender]
                recvs[(src, loc, ev.communicator._ref, ev.msg_tag)].append((p, i, ev.msg_length))
                post[(loc, i)] = p
    pairs = {}
    for key in set(sends) | set(recvs):
        ss = sends.get(key, [])
        rr = sorted(recvs.get(key, []))
        if len(ss) != len(rr):
            problems.append("src %d dst %d comm %d tag %d: %d sends, %d receives"
                            % (key + (len(ss), len(rr))))
        for (si, slen), (_, ri, rlen) in zip(ss, rr):
            if slen != rlen:
                problems.append("loc %d event %d -> loc %d event %d: %d bytes sent, %d received"
                                % (key[0], si, key[1], ri, slen, rlen))
            pairs[(key[0], si)] = (key[1], ri, slen)
    return pairs, post, send_done, problems


def derive_collectives(raw):
    """Per (comm, loc): [(begin idx, end idx, op, root, sent, received)]."""
    colls = defaultdict(list)
    problems = []
    for loc, evs in raw.items():
        stack = []
        for i, ev in enumerate(evs):
            n = _name(ev)
            if n == "MpiCollectiveBegin":
                stack.append(i)
            elif n == "MpiCollectiveEnd":
                if not stack:
                    problems.append("loc %d event %d: collective end without begin" % (loc, i))
                    continue
                colls[(ev.communicator._ref, loc)].append(
                    (stack.pop(), i, _op(ev), ev.root, ev.size_sent, ev.size_received))
        if stack:
            problems.append("loc %d: %d collectives never end" % (loc, len(stack)))
    return colls, problems


def lmin_ticks(scen, res):
    """Minimum latency between two locations, in reference ticks (lower bound)."""
    node = {int(k): v for k, v in scen["node_of_location"].items()}
    lm = scen["network"]["lmin_us"]
    intra = scen["network"]["intra_lmin_us"]
    f = res * (1.0 - RATE_MARGIN) * 1e-6

    def get(a, b):
        na, nb = node[a], node[b]
        return (intra[na] if na == nb else lm[na][nb]) * f
    return get


def _pct(sorted_vals, q):
    if not sorted_vals:
        return 0.0
    return sorted_vals[min(len(sorted_vals) - 1, int(q * len(sorted_vals)))]


def validate(outdir, use_otf2_print=True):
    """Validate one scenario directory. Returns (Report, summary dict)."""
    anchor = os.path.join(outdir, "traces.otf2")
    for f in ("traces.otf2", "truth.json", "scenario.json", "messages.json.gz"):
        if not os.path.exists(os.path.join(outdir, f)):
            raise ValidationError("%s: missing %s" % (outdir, f))
    with open(os.path.join(outdir, "truth.json")) as f:
        truth_doc = json.load(f)
    with open(os.path.join(outdir, "scenario.json")) as f:
        scen = json.load(f)
    with gzip.open(os.path.join(outdir, "messages.json.gz"), "rt") as f:
        msgs = json.load(f)
    res = truth_doc["resolution"]
    truth = {int(k): v for k, v in truth_doc.items() if k != "resolution"}
    rep = Report()

    raw, announced, members, _, rres = read_archive(anchor, apply_offsets=False)
    if rres != res:
        rep.fail("counts", "timer resolution %d in the archive, %d in truth.json" % (rres, res))

    # counts ---------------------------------------------------------------------
    printed = otf2_print(anchor) if use_otf2_print else None
    if printed is not None:
        rep.count("reference_reader")
        if not printed[0]:
            rep.fail("reference_reader", "otf2-print: %s" % printed[1][:500])
    for loc in sorted(set(announced) | set(truth) | set(raw)):
        rep.count("counts")
        n_read = len(raw.get(loc, ()))
        got = {"python reader": n_read, "Location definition": announced.get(loc),
               "truth.json": len(truth.get(loc, ()))}
        if printed is not None:
            got["otf2-print"] = printed[2].get(loc, 0)
        if len(set(got.values())) != 1:
            rep.fail("counts", "location %d: %s" % (loc, got))

    if rep.checks["counts"]["failed"]:
        # the truth cannot be aligned with the events: nothing else is meaningful
        return rep, {"scenario": scen.get("scenario"), "error": "event counts differ"}

    # monotonicity ---------------------------------------------------------------
    for loc, evs in raw.items():
        rep.count("local_monotone", len(evs))
        prev = None
        for i, ev in enumerate(evs):
            if prev is not None and ev.time < prev:
                rep.fail("local_monotone", "location %d event %d: %d after %d" % (loc, i, ev.time, prev))
            prev = ev.time
    for loc, ts in truth.items():
        rep.count("truth_monotone", len(ts))
        for i in range(1, len(ts)):
            if ts[i] < ts[i - 1]:
                rep.fail("truth_monotone", "location %d event %d: %d after %d" % (loc, i, ts[i], ts[i - 1]))

    lmin = lmin_ticks(scen, res)
    margin = res * (1.0 - RATE_MARGIN)

    # point to point --------------------------------------------------------------
    pairs, post, send_done, problems = derive_p2p(raw, members)
    for p in problems:
        rep.fail("p2p_matching", p)
    gen = {(m[0], m[1]): (m[2], m[3]) for m in msgs["p2p"]}
    rep.count("p2p_matching", len(gen))
    derived = {k: v[:2] for k, v in pairs.items()}
    if derived != gen:
        missing = [k for k in gen if derived.get(k) != gen[k]]
        extra = [k for k in derived if k not in gen]
        for k in missing[:3]:
            rep.fail("p2p_matching", "send %s: generator %s, records %s" % (k, gen[k], derived.get(k)))
        for k in extra[:3]:
            rep.fail("p2p_matching", "send %s matched to %s by the records only" % (k, derived[k]))
        if not missing and not extra:
            rep.fail("p2p_matching", "pairings differ")
    for sl, si, rl, ri, _, size, eager, t_send, t_data, _ in msgs["p2p"]:
        rep.count("p2p_causal")
        d = truth[rl][ri] - truth[sl][si]
        need = max((t_data - t_send) * margin, lmin(sl, rl)) - SLACK_TICKS
        if d < need:
            rep.fail("p2p_causal", "loc %d ev %d -> loc %d ev %d: %d ticks, latency %.0f"
                     % (sl, si, rl, ri, d, need))
        if not eager:
            rep.count("rendezvous_causal")
            done = send_done.get((sl, si))
            p = post.get((rl, ri))
            if done is None or p is None:
                rep.fail("rendezvous_causal", "loc %d ev %d: no completion or post found" % (sl, si))
                continue
            d2 = truth[sl][done] - truth[rl][p]
            if d2 < lmin(rl, sl) - SLACK_TICKS:
                rep.fail("rendezvous_causal", "loc %d ev %d completes %d ticks after loc %d "
                         "posted (ev %d)" % (sl, done, d2, rl, p))

    # collectives -----------------------------------------------------------------
    colls, problems = derive_collectives(raw)
    for p in problems:
        rep.fail("coll_instances", p)
    inst = {}
    for cid, mem in members.items():
        seqs = [colls.get((cid, loc), []) for loc in mem]
        lens = {len(s) for s in seqs}
        rep.count("coll_instances", max(lens) if lens else 0)
        if len(lens) > 1:
            rep.fail("coll_instances", "comm %d: members record %s collectives" % (cid, sorted(lens)))
            continue
        for k in range(lens.pop() if lens else 0):
            recs = [s[k] for s in seqs]
            if len({(r[2], r[3]) for r in recs}) != 1:
                rep.fail("coll_instances", "comm %d instance %d: ops/roots %s"
                         % (cid, k, sorted({(r[2], r[3]) for r in recs})))
            inst[(cid, k)] = (recs[0][2], recs[0][3], dict(zip(mem, recs)), mem)
    gen_inst = {(c, k): (op, {m[0]: (m[1], m[2]) for m in ms}) for c, k, op, ms in msgs["instances"]}
    if set(gen_inst) != set(inst):
        rep.fail("coll_instances", "%d instances in the records, %d in the generator"
                 % (len(inst), len(gen_inst)))
    for key, (op, ms) in gen_inst.items():
        have = inst.get(key)
        if have is None:
            continue
        if have[0] != op or {l: r[:2] for l, r in have[2].items()} != ms:
            rep.fail("coll_instances", "comm %d instance %d differs from the generator's" % key)
    for key, (op, root, recs, mem) in inst.items():
        rep.count("coll_bytes")
        if sum(r[4] for r in recs.values()) != sum(r[5] for r in recs.values()):
            rep.fail("coll_bytes", "comm %d instance %d (%s): %d bytes sent, %d received"
                     % (key + (op, sum(r[4] for r in recs.values()),
                               sum(r[5] for r in recs.values()))))
    for cid, k, src, dst, size, t_send, t_data, _ in msgs["collective_messages"]:
        rep.count("coll_messages")
        have = inst.get((cid, k))
        if have is None:
            rep.fail("coll_messages", "comm %d instance %d not in the records" % (cid, k))
            continue
        b = have[2][src][0]
        e = have[2][dst][1]
        d = truth[dst][e] - truth[src][b]
        need = (t_data - t_send) * margin - SLACK_TICKS
        if d < need:
            rep.fail("coll_messages", "comm %d instance %d: loc %d begin -> loc %d end %d ticks, "
                     "message latency %.0f" % (cid, k, src, dst, d, need))
    lmin_all = min(lmin(a, b) for a in truth for b in truth if a != b) if len(truth) > 1 else 0
    for key, (op, root, recs, mem) in inst.items():
        begin = {l: truth[l][r[0]] for l, r in recs.items()}
        end = {l: truth[l][r[1]] for l, r in recs.items()}
        deps = []        # (waiting member, members it depends on)
        n = len(mem)
        if op in ALL_DEP:
            deps = [(m, mem) for m in mem]
        elif op == "BCAST":
            deps = [(m, [mem[root]]) for m in mem]
        elif op == "SCATTERV":
            deps = [(m, [mem[root]]) for m in mem if recs[m][5] > 0]
        elif op == "REDUCE":
            deps = [(mem[root], mem)]
        elif op == "GATHERV":
            deps = [(mem[root], [m for m in mem if m == mem[root] or recs[m][4] > 0])]
        elif op == "SCAN":
            deps = [(mem[i], mem[:i + 1]) for i in range(n)]
        elif op == "EXSCAN":
            deps = [(mem[i], mem[:i + 1]) for i in range(n)]
        elif op == "REDUCE_SCATTER":
            deps = [(m, mem) for m in mem if recs[m][5] > 0 or m == mem[0]]
        for m, ds in deps:
            rep.count("coll_semantics")
            latest = max(ds, key=lambda j: begin[j])
            need = begin[latest] + (lmin_all if latest != m else 0) - SLACK_TICKS
            if end[m] < need:
                rep.fail("coll_semantics", "comm %d instance %d (%s): loc %d ends %d ticks before "
                         "loc %d began" % (key + (op, m, need - end[m], latest)))

    # pre-synchronisation with the reference reader -----------------------------------
    applied, _, _, offsets, _ = read_archive(anchor, apply_offsets=True)
    errs = []
    cc = scen["clock_config"]
    linear = cc["perfect"] or (not cc["sines"] and not cc["ou"] and not cc["steps"]
                               and not cc["slews"])
    for loc, evs in applied.items():
        tl = truth[loc]
        sd = max([o[2] for o in offsets.get(loc, [])] + [0.0])
        bound = sd * 1.05 + 3
        for i, ev in enumerate(evs):
            e = ev.time - tl[i]
            errs.append(abs(e))
            if linear:
                rep.count("presync_bound")
                if abs(e) > bound:
                    rep.fail("presync_bound", "location %d event %d: %d ticks from the truth, "
                             "RTT/2 bound %.0f" % (loc, i, e, bound))
        if cc["perfect"]:
            rep.count("perfect_equals_truth", len(evs))
            bad = sum(1 for i, ev in enumerate(raw[loc]) if ev.time != tl[i])
            if bad:
                rep.fail("perfect_equals_truth", "location %d: %d raw times differ from the "
                         "truth" % (loc, bad))
    errs.sort()
    ns = 1e9 / res
    summary = {
        "scenario": scen["scenario"],
        "locations": len(truth),
        "events": sum(len(v) for v in truth.values()),
        "p2p_messages": len(msgs["p2p"]),
        "collective_instances": len(inst),
        "collective_algorithm_messages": len(msgs["collective_messages"]),
        "presync_error_ns": {
            "mean": round(sum(errs) / len(errs) * ns, 1) if errs else 0.0,
            "p99": round(_pct(errs, 0.99) * ns, 1),
            "max": round((errs[-1] if errs else 0) * ns, 1),
        },
        "violations_after_presync": _violations(applied, msgs),
    }
    return rep, summary


def _violations(applied, msgs):
    """Messages whose receive is recorded before its send after the reference
    reader's offset correction (what a viewer would show as backward arrows)."""
    n = 0
    for sl, si, rl, ri, *_ in msgs["p2p"]:
        if applied[rl][ri].time < applied[sl][si].time:
            n += 1
    return n
