"""Write a simulated run: the OTF2 archive (through the reference library's
Python writer), truth.json, scenario.json, messages.json.gz and README.md.

Times: every event's true time t becomes floor(C_node(t)) in the archive (the
timer of the rank's node) and floor(C_0(t)) in truth.json (the timer of rank
0's node, the reference). Both are made non-decreasing per location, as a
timer is.
"""

import gzip
import json
import os
import shutil

import _otf2
import otf2
from otf2.enums import CollectiveOp, GroupType, Paradigm, RegionRole

from . import engine as E
from .clock import monotone_ticks
from .regions import REGIONS


class OutputError(Exception):
    pass


def prepare_outdir(outdir, force):
    """Check OUTDIR up front; returns the temporary sibling to write into."""
    outdir = os.path.abspath(outdir)
    if os.path.exists(outdir):
        if not os.path.isdir(outdir):
            raise OutputError("%s: exists and is not a directory" % outdir)
        if os.listdir(outdir) and not force:
            raise OutputError("%s: exists and is not empty (use --force to replace it)" % outdir)
    parent = os.path.dirname(outdir)
    if not os.path.isdir(parent):
        raise OutputError("%s: parent directory does not exist" % parent)
    tmp = os.path.join(parent, ".%s.tmp-%d" % (os.path.basename(outdir), os.getpid()))
    if os.path.exists(tmp):
        shutil.rmtree(tmp)
    return outdir, tmp


def commit_outdir(tmp, outdir):
    if os.path.exists(outdir):
        shutil.rmtree(outdir)
    os.rename(tmp, outdir)


def event_times(sim):
    """(local ticks, truth ticks) per rank."""
    ref = sim.clocks[0]
    local, truth = [], []
    for p in sim.procs:
        ts = [e[0] for e in p.ev]
        local.append(monotone_ticks(p.clock, ts))
        truth.append(monotone_ticks(ref, ts))
    return local, truth


def write_archive(sim, path, local):
    R = int(round(sim.cfg["resolution"]))
    with otf2.writer.open(path, archive_name="traces", timer_resolution=R) as tr:
        tr.creator = "truthgen (clc tools/truthgen)"
        d = tr.definitions
        root = d.system_tree_node("cluster", class_name="machine")
        nodes = [d.system_tree_node("node%02d" % i, class_name="node", parent=root)
                 for i in range(sim.cfg["nodes"])]
        lgs = [d.location_group("MPI Rank %d" % p.rank, system_tree_parent=nodes[p.node])
               for p in sim.procs]
        locs = [d.location("Master thread", group=lg) for lg in lgs]
        for r, loc in enumerate(locs):
            if loc._ref != r:
                raise AssertionError("location id %d for rank %d" % (loc._ref, r))
        regions = []
        for name, role, paradigm in REGIONS:
            regions.append(d.region(name, canonical_name=name, region_role=getattr(RegionRole, role),
                                    paradigm=getattr(Paradigm, paradigm),
                                    source_file="MPI" if paradigm == "MPI" else None))
        d.group("MPI_COMM_WORLD locations", group_type=GroupType.COMM_LOCATIONS,
                paradigm=Paradigm.MPI, members=locs)
        comms = {}
        world_def = None
        for c in sim.comms:
            g = d.group(c.name, group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI,
                        members=list(c.members))
            cd = d.comm(c.name, group=g, parent=world_def if c.parent is not None else None)
            if c.parent is None:
                world_def = cd
            comms[c.id] = cd
        for p, loc in zip(sim.procs, locs):
            w = tr.event_writer_from_location(loc)
            for t, off, sd, _ in sorted(p.offsets):
                _otf2.DefWriter_WriteClockOffset(w._def_handle, t, off, sd)
            _write_events(w, p.ev, local[p.rank], regions, comms)


def _write_events(w, evs, ticks, regions, comms):
    for e, ts in zip(evs, ticks):
        code = e[1]
        if code == E.E_ENTER:
            w.enter(ts, regions[e[2]])
        elif code == E.E_LEAVE:
            w.leave(ts, regions[e[2]])
        elif code == E.E_SEND:
            w.mpi_send(ts, e[3], comms[e[2]], e[4], e[5])
        elif code == E.E_ISEND:
            w.mpi_isend(ts, e[3], comms[e[2]], e[4], e[5], e[6])
        elif code == E.E_ISEND_C:
            w.mpi_isend_complete(ts, e[2])
        elif code == E.E_IRECV_REQ:
            w.mpi_irecv_request(ts, e[2])
        elif code == E.E_IRECV:
            w.mpi_irecv(ts, e[3], comms[e[2]], e[4], e[5], e[6])
        elif code == E.E_RECV:
            w.mpi_recv(ts, e[3], comms[e[2]], e[4], e[5])
        elif code == E.E_REQ_TEST:
            w.mpi_request_test(ts, e[2])
        elif code == E.E_COLL_BEGIN:
            w.mpi_collective_begin(ts)
        elif code == E.E_COLL_END:
            w.mpi_collective_end(ts, getattr(CollectiveOp, e[2]), comms[e[3]], e[4], e[5], e[6])
        else:
            raise AssertionError("unknown event code %r" % code)


def messages_doc(sim):
    """The generator's own record of every message, for the validator."""
    p2p = []
    for m in sim.eng.user_msgs:
        if m.recv_ev is None:
            raise AssertionError("message %d->%d never received" % (m.src, m.dst))
        p2p.append([m.send_ev[0], m.send_ev[1], m.recv_ev[0], m.recv_ev[1],
                    m.recv_post_ev[1], m.size, 1 if m.eager else 0,
                    m.t_send, m.t_data, m.lmin])
    cm = []
    for m in sim.eng.coll_msgs:
        inst = m.inst
        cm.append([inst.comm.id, inst.k, m.src, m.dst, m.size, m.t_send, m.t_data, m.lmin])
    insts = []
    for (cid, k), inst in sorted(sim.eng.instances.items()):
        insts.append([cid, k, inst.op, [[r, inst.begin[r], inst.end[r]]
                                        for r in sorted(inst.begin)]])
    return {
        "format": "truthgen messages 1",
        "fields_p2p": ["send_loc", "send_idx", "recv_loc", "recv_idx", "recv_post_idx",
                       "bytes", "eager", "t_send_s", "t_data_arrival_s", "lmin_s"],
        "fields_collective_messages": ["comm", "instance", "src_loc", "dst_loc", "bytes",
                                       "t_send_s", "t_data_arrival_s", "lmin_s"],
        "fields_instances": ["comm", "instance", "op", "[[loc, begin_idx, end_idx], ...]"],
        "p2p": p2p,
        "collective_messages": cm,
        "instances": insts,
    }


def write_all(sim, outdir, force=False):
    """Write every output of sim into outdir (atomically). Returns the stats."""
    outdir, tmp = prepare_outdir(outdir, force)
    try:
        local, truth = event_times(sim)
        write_archive(sim, tmp, local)
        tdoc = {"resolution": int(round(sim.cfg["resolution"]))}
        for p in sim.procs:
            tdoc[str(p.rank)] = truth[p.rank]
        with open(os.path.join(tmp, "truth.json"), "w") as f:
            json.dump(tdoc, f)
        with gzip.open(os.path.join(tmp, "messages.json.gz"), "wt", compresslevel=6) as f:
            json.dump(messages_doc(sim), f)
        stats = sim.stats(local, truth)
        with open(os.path.join(tmp, "scenario.json"), "w") as f:
            json.dump(sim.describe(stats), f, indent=1)
        with open(os.path.join(tmp, "README.md"), "w") as f:
            f.write(sim.readme(stats))
        commit_outdir(tmp, outdir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return stats
