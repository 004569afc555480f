package tracer

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
	"testing"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// counts is what a trace says one location did, in the terms of a test
// program's CLC-EXPECT line.
type counts struct {
	// Calls per function: enters, plus the calls a collapsed run of
	// unsuccessful polls left out (its last call's clc::calls − 2).
	Calls     map[string]int   `json:"calls"`
	Sends     int              `json:"sends"`
	Recvs     int              `json:"recvs"`
	NbrSends  int              `json:"nbr_sends"`
	Ops       map[string]int   `json:"ops"`
	NBOps     map[string]int   `json:"nbops"`
	Comms     int              `json:"comms"`
	Cancelled int              `json:"cancelled"`
	Bytes     map[string]int64 `json:"bytes"`
	// CollSent and CollRecvd are the bytes of collectives (coll-end and
	// nbcoll-complete events) per operation.
	CollSent  map[string]int64 `json:"coll_sent"`
	CollRecvd map[string]int64 `json:"coll_recvd"`
	// Runs is the number of collapsed runs (calls with clc::calls).
	Runs int `json:"runs"`
}

func newCounts() *counts {
	return &counts{Calls: map[string]int{}, Ops: map[string]int{}, NBOps: map[string]int{}, Bytes: map[string]int64{},
		CollSent: map[string]int64{}, CollRecvd: map[string]int64{}}
}

// nbrTag is the tag of the logical messages of neighbourhood collectives.
const nbrTag = 0x80000000

// otf2Compressed reads one of OTF2's compressed integers.
func otf2Compressed(b []byte) (uint64, []byte, error) {
	if len(b) == 0 {
		return 0, nil, fmt.Errorf("truncated")
	}
	n := int(b[0])
	switch {
	case n == 0:
		return 0, b[1:], nil
	case n == 0xff:
		return ^uint64(0), b[1:], nil
	case n > 8 || len(b) < 1+n:
		return 0, nil, fmt.Errorf("bad compressed integer")
	}
	var v uint64
	for i := 0; i < n; i++ {
		v |= uint64(b[1+i]) << (8 * i)
	}
	return v, b[1+n:], nil
}

// parseAttrs reads an OTF2 attribute list of uint64 attributes.
func parseAttrs(b []byte) (map[uint64]uint64, error) {
	n, b, err := otf2Compressed(b)
	if err != nil {
		return nil, err
	}
	out := map[uint64]uint64{}
	for i := uint64(0); i < n; i++ {
		var id, v uint64
		if id, b, err = otf2Compressed(b); err != nil {
			return nil, err
		}
		if len(b) == 0 || b[0] != 4 {
			return nil, fmt.Errorf("attribute %d is not a uint64", id)
		}
		if v, b, err = otf2Compressed(b[1:]); err != nil {
			return nil, err
		}
		out[id] = v
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%d bytes after the attribute list", len(b))
	}
	return out, nil
}

// countTrace counts what each location of tr did.
func countTrace(tr *trace.Trace) ([]*counts, error) {
	out := make([]*counts, len(tr.Locations))
	for li, l := range tr.Locations {
		c := newCounts()
		out[li] = c
		ev := &l.Events
		att := map[uint32][]byte{}
		for _, a := range ev.Attach {
			if a.Format == trace.FormatOTF2 {
				att[a.Event] = a.Data
			}
		}
		for i, k := range ev.Kind {
			switch {
			case k == trace.KindEnter:
				c.Calls[tr.Regions[ev.Ref[i]].Name]++
			case k == trace.KindLeave:
				data, ok := att[uint32(i)]
				if !ok {
					continue
				}
				attrs, err := parseAttrs(data)
				if err != nil {
					return nil, fmt.Errorf("location %d event %d: %v", li, i, err)
				}
				name := tr.Regions[ev.Ref[i]].Name
				if v, ok := attrs[0]; ok {
					c.Calls[name] += int(v) - 2
					c.Runs++
				}
				if v, ok := attrs[1]; ok {
					c.Bytes[name] += int64(v)
				}
			case k.IsSend():
				c.Sends++
				if ev.Msg(i).Tag == nbrTag {
					c.NbrSends++
				}
			case k.IsRecv():
				c.Recvs++
			case k == trace.KindCollEnd, k == trace.KindNBCollComplete:
				co := ev.Coll(i)
				op := co.Op.String()
				if k == trace.KindCollEnd {
					c.Ops[op]++
				} else {
					c.NBOps[op]++
				}
				c.CollSent[op] += int64(co.Sent)
				c.CollRecvd[op] += int64(co.Received)
			case k == trace.KindCommCreate:
				c.Comms++
			case k == trace.KindRequestCancelled:
				c.Cancelled++
			}
		}
	}
	return out, nil
}

// pyCount is a python3-otf2 script that prints, as JSON, the counts of
// every location of the archive given as its argument (the reference
// reader's view, in the terms of counts).
const pyCount = `
import json, sys, otf2
from collections import defaultdict
locs = {}
def loc(l):
    if l.name not in locs:
        locs[l.name] = {"calls": defaultdict(int), "sends": 0, "recvs": 0, "nbr_sends": 0, "ops": defaultdict(int),
                        "nbops": defaultdict(int), "comms": 0, "cancelled": 0, "bytes": defaultdict(int), "runs": 0,
                        "coll_sent": defaultdict(int), "coll_recvd": defaultdict(int)}
    return locs[l.name]
with otf2.reader.open(sys.argv[1]) as r:
    for l, ev in r.events:
        c = loc(l)
        n = type(ev).__name__
        if n == "Enter":
            c["calls"][ev.region.name] += 1
        elif n == "Leave" and ev.attributes:
            for a, v in ev.attributes.items():
                if a.name == "clc::calls":
                    c["calls"][ev.region.name] += v - 2
                    c["runs"] += 1
                elif a.name == "clc::bytes":
                    c["bytes"][ev.region.name] += v
        elif n in ("MpiSend", "MpiIsend"):
            c["sends"] += 1
            if ev.msg_tag == 0x80000000:
                c["nbr_sends"] += 1
        elif n in ("MpiRecv", "MpiIrecv"):
            c["recvs"] += 1
        elif n in ("MpiCollectiveEnd", "NonBlockingCollectiveComplete"):
            op = str(ev.collective_op).split(".")[-1].lower()
            c["ops" if n == "MpiCollectiveEnd" else "nbops"][op] += 1
            c["coll_sent"][op] += ev.size_sent
            c["coll_recvd"][op] += ev.size_received
        elif n == "CommCreate":
            c["comms"] += 1
        elif n == "MpiRequestCancelled":
            c["cancelled"] += 1
print(json.dumps(locs))
`

// countPython counts the archive with python3-otf2; the result is indexed
// like the trace's locations ("rank N").
func countPython(t testing.TB, anchor string, n int) []*counts {
	t.Helper()
	py := testenv.PythonOTF2(t)
	out, err := exec.Command(py, "-c", pyCount, anchor).Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	require.NoError(t, err, "python3-otf2 reading %s\n%s", anchor, stderr)
	byName := map[string]*counts{}
	require.NoError(t, json.Unmarshal(out, &byName), "python3-otf2 output:\n%s", out)
	res := make([]*counts, n)
	for r := range res {
		c := byName[fmt.Sprintf("rank %d", r)]
		if c == nil {
			c = newCounts()
		}
		res[r] = c
	}
	return res
}

// checkCounts compares what the trace says each rank did with what the
// program says it did, and returns the number of collapsed runs.
func checkCounts(t testing.TB, what string, got []*counts, exp map[int]*expectation) int {
	t.Helper()
	runs := 0
	for r, e := range exp {
		if !assert.Less(t, r, len(got), "%s: a location for rank %d", what, r) {
			continue
		}
		c := got[r]
		runs += c.Runs
		var diffs []string
		calls := map[string]int{} // MPI calls and user regions: both are enters
		for name, n := range e.Calls {
			calls[name] = n
		}
		for name, n := range e.Regions {
			calls[name] += n
		}
		for name, n := range calls {
			if c.Calls[name] != n {
				diffs = append(diffs, fmt.Sprintf("%s %d calls (the program made %d)", name, c.Calls[name], n))
			}
		}
		for name, n := range c.Calls {
			if _, ok := calls[name]; !ok && n != 0 {
				diffs = append(diffs, fmt.Sprintf("%s %d calls (the program made none)", name, n))
			}
		}
		ops := 0
		for _, n := range c.Ops {
			ops += n
		}
		for _, n := range c.NBOps {
			ops += n
		}
		if c.Sends != e.Sends || c.Recvs != e.Recvs || ops != e.Colls || c.Comms != e.Comms || c.Cancelled != e.Cancelled || c.NbrSends != e.NbrMsgs {
			diffs = append(diffs, fmt.Sprintf("sends %d recvs %d collectives %d comm-creates %d cancelled %d neighbourhood sends %d; the program: %d %d %d %d %d %d",
				c.Sends, c.Recvs, ops, c.Comms, c.Cancelled, c.NbrSends, e.Sends, e.Recvs, e.Colls, e.Comms, e.Cancelled, e.NbrMsgs))
		}
		if e.Ops != nil && !sameCounts(c.Ops, e.Ops) {
			diffs = append(diffs, fmt.Sprintf("blocking collectives %v, the program %v", c.Ops, e.Ops))
		}
		if e.NBOps != nil && !sameCounts(c.NBOps, e.NBOps) {
			diffs = append(diffs, fmt.Sprintf("non-blocking collectives %v, the program %v", c.NBOps, e.NBOps))
		}
		for name, b := range e.Bytes {
			if c.Bytes[name] != b {
				diffs = append(diffs, fmt.Sprintf("%s: %d bytes, the program %d", name, c.Bytes[name], b))
			}
		}
		for op, b := range e.CollSent {
			if c.CollSent[op] != b {
				diffs = append(diffs, fmt.Sprintf("%s: %d bytes sent, the program %d", op, c.CollSent[op], b))
			}
		}
		for op, b := range e.CollRecvd {
			if c.CollRecvd[op] != b {
				diffs = append(diffs, fmt.Sprintf("%s: %d bytes received, the program %d", op, c.CollRecvd[op], b))
			}
		}
		sort.Strings(diffs)
		assert.Empty(t, diffs, "%s, rank %d: what the trace says against what the program did", what, r)
	}
	return runs
}

func sameCounts(a, b map[string]int) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}
