package replay

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"fmt"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/trace"
)

// FinishDivided is Finish on one process of the group c, which divides
// the trace's locations among its processes: part[li] is the process of
// location li, and this process scanned (Scan) its own locations only,
// the others theirs. A shared-memory process (trace.Trace.ProcessOf) must
// lie in one part.
//
// Point-to-point messages with one end in another process are matched by
// the receiver's process: the crossing sends' records (20 bytes each) go
// to it in one all-to-all, and the matched receives' event indices (8
// bytes each) come back in a second. The collective participations and
// the MPI_Init/MPI_Finalize events of every location are gathered
// (allgather), so that every process forms every collective instance as
// Finish does; the shared-memory relations of each process are found by
// its part, their instances gathered. The counts (Messages, Sync) are
// summed and the issues gathered in Finish's order.
//
// The graph returned is Finish's on the whole trace, except that Deps
// holds this process's locations' lists only (the others nil).
func (m *Matcher) FinishDivided(ctx context.Context, c comm.Comm, part []int32) (*Graph, error) {
	t, o, scans := m.t, &m.o, m.scans
	n := len(t.Locations)
	if len(part) != n {
		return nil, fmt.Errorf("divided matching: %d locations' parts for %d locations", len(part), n)
	}
	partOf := map[int32]int32{} // each shared-memory process's part
	for li := range t.Locations {
		p := t.ProcessOf(li)
		if q, ok := partOf[p]; !ok {
			partOf[p] = part[li]
		} else if q != part[li] {
			return nil, fmt.Errorf("divided matching: process %d's locations lie in parts %d and %d", p, q, part[li])
		}
	}
	me := int32(c.Rank())
	own := func(li int) bool { return part[li] == me }
	maxLoc := uint32(max(n-1, 0))
	for li := range scans {
		if own(li) {
			ss := scans[li].sends
			scans[li].byDst = groupBy(len(ss), func(i int) uint32 { return uint32(ss[i].dst) }, maxLoc)
		}
	}
	cross, err := exchangeSends(ctx, c, scans, part)
	if err != nil {
		return nil, err
	}
	if err := par.Do(ctx, n, o.Parallel, func(li int) error {
		if own(li) {
			matchReceiver(scans, li, maxLoc)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := answerSends(ctx, c, scans, cross); err != nil {
		return nil, err
	}
	if err := gatherColls(ctx, c, scans, own); err != nil {
		return nil, err
	}

	g, msgs, err := assemble(ctx, t, scans, o, own)
	if err != nil {
		return nil, err
	}
	var sent int64
	for li, k := range msgs {
		if own(li) {
			sent += k
		}
	}
	sum, err := c.AllreduceInt64(ctx, comm.Sum, []int64{sent})
	if err != nil {
		return nil, fmt.Errorf("divided matching: messages: %w", err)
	}
	g.Messages = sum[0]
	if err := gatherIssues(ctx, c, g, n, own, func(li int) *Issues { return &scans[li].issues }); err != nil {
		return nil, err
	}
	for li := range g.Deps {
		if err := checkDeps(g.Deps[li]); err != nil {
			return nil, fmt.Errorf("location %d: %w", li, err)
		}
	}
	m.scans = nil
	ownProc := func(pi int, locs []int32) bool {
		return part[locs[0]] == me
	}
	err = matchSharedWith(t, g, m.threads, o.Parallel, ownProc, func(outs []syncOut) error {
		return shareSync(ctx, c, t, outs, ownProc)
	})
	m.threads = nil
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return g, nil
}

// crossing is a send record of a location of another process that this
// process matched, or one of its own that another process matched: the
// sender and the record's index in its sends.
type crossing struct {
	loc int32
	k   int32
}

// crossings lists the crossing send records per peer process, in the
// order their records travel (both ways).
type crossings struct {
	out [][]crossing // own sends, by the receiver's process
	in  [][]crossing // others' sends, by the sender's process
}

// exchangeSends sends every own location's sends addressed to another
// process's location to that process (all-to-all), in each sender's
// order by destination, and installs what arrives as the senders' send
// records there (grouped by destination, as Finish groups them).
func exchangeSends(ctx context.Context, c comm.Comm, scans []locScan, part []int32) (*crossings, error) {
	np, me := c.Size(), int32(c.Rank())
	x := &crossings{out: make([][]crossing, np), in: make([][]crossing, np)}
	send := make([][]byte, np)
	for li := range scans {
		if part[li] != me {
			continue
		}
		ss := scans[li].sends
		for _, k := range scans[li].byDst {
			sr := &ss[k]
			q := part[sr.dst]
			if q == me {
				continue
			}
			b := send[q]
			b = binary.LittleEndian.AppendUint32(b, uint32(li))
			b = binary.LittleEndian.AppendUint32(b, uint32(sr.dst))
			b = binary.LittleEndian.AppendUint32(b, sr.comm)
			b = binary.LittleEndian.AppendUint32(b, sr.tag)
			b = binary.LittleEndian.AppendUint32(b, sr.idx)
			send[q] = b
			x.out[q] = append(x.out[q], crossing{int32(li), k})
		}
	}
	recv, err := c.Alltoall(ctx, send)
	if err != nil {
		return nil, fmt.Errorf("divided matching: crossing sends: %w", err)
	}
	for q, b := range recv {
		if len(b)%20 != 0 {
			return nil, fmt.Errorf("divided matching: process %d sent %d bytes of send records", q, len(b))
		}
		for ; len(b) > 0; b = b[20:] {
			src := int32(binary.LittleEndian.Uint32(b))
			dst := int32(binary.LittleEndian.Uint32(b[4:]))
			if src < 0 || int(src) >= len(scans) || part[src] != int32(q) || dst < 0 || int(dst) >= len(scans) || part[dst] != me {
				return nil, fmt.Errorf("divided matching: process %d sent a send from location %d to %d", q, src, dst)
			}
			s := &scans[src]
			x.in[q] = append(x.in[q], crossing{src, int32(len(s.sends))})
			s.byDst = append(s.byDst, int32(len(s.sends)))
			s.sends = append(s.sends, sendRec{dst: dst, comm: binary.LittleEndian.Uint32(b[8:]), tag: binary.LittleEndian.Uint32(b[12:]),
				idx: binary.LittleEndian.Uint32(b[16:]), rloc: -1})
		}
	}
	return x, nil
}

// answerSends returns to each sender's process the receive its crossing
// sends were matched with (all-to-all), in the order they came.
func answerSends(ctx context.Context, c comm.Comm, scans []locScan, x *crossings) error {
	send := make([][]byte, c.Size())
	for q, in := range x.in {
		for _, cr := range in {
			sr := &scans[cr.loc].sends[cr.k]
			send[q] = binary.LittleEndian.AppendUint32(send[q], uint32(sr.rloc))
			send[q] = binary.LittleEndian.AppendUint32(send[q], sr.ridx)
		}
	}
	recv, err := c.Alltoall(ctx, send)
	if err != nil {
		return fmt.Errorf("divided matching: matched receives: %w", err)
	}
	for q, b := range recv {
		if len(b) != 8*len(x.out[q]) {
			return fmt.Errorf("divided matching: process %d answered %d bytes for %d sends", q, len(b), len(x.out[q]))
		}
		for i, cr := range x.out[q] {
			sr := &scans[cr.loc].sends[cr.k]
			sr.rloc = int32(binary.LittleEndian.Uint32(b[8*i:]))
			sr.ridx = binary.LittleEndian.Uint32(b[8*i+4:])
		}
	}
	for q, in := range x.in {
		for _, cr := range in { // the records were the senders' to answer
			scans[cr.loc].sends = scans[cr.loc].sends[:0]
			scans[cr.loc].byDst = scans[cr.loc].byDst[:0]
		}
		x.in[q] = nil
	}
	return nil
}

// wireColl is a collRec as it travels.
type wireColl struct {
	Comm, Post, Send, Recv uint32
	Op                     trace.CollOp
	Root                   uint32
	Sent, Rcvd             uint64
}

// wireLoc is what every process learns of a location: its collective
// participations and MPI_Init/MPI_Finalize events.
type wireLoc struct {
	Loc                                      int32
	Colls                                    []wireColl
	InitEnter, InitLeave, FinEnter, FinLeave uint32
	InitN, FinN                              int
}

// gatherColls gives every process every location's collective
// participations and MPI_Init/MPI_Finalize events (allgather).
func gatherColls(ctx context.Context, c comm.Comm, scans []locScan, own func(li int) bool) error {
	var mine []wireLoc
	for li := range scans {
		if !own(li) {
			continue
		}
		s := &scans[li]
		w := wireLoc{Loc: int32(li), InitEnter: s.initEnter, InitLeave: s.initLeave, FinEnter: s.finEnter, FinLeave: s.finLeave, InitN: s.initN, FinN: s.finN}
		for _, cr := range s.colls {
			w.Colls = append(w.Colls, wireColl{cr.comm, cr.post, cr.send, cr.recv, cr.op, cr.root, cr.sent, cr.rcvd})
		}
		mine = append(mine, w)
	}
	all, err := allgatherGob(ctx, c, mine)
	if err != nil {
		return fmt.Errorf("divided matching: collectives: %w", err)
	}
	for q, locs := range all {
		all[q] = nil // each part let go once copied
		if q == c.Rank() {
			continue
		}
		for _, w := range locs {
			if w.Loc < 0 || int(w.Loc) >= len(scans) || own(int(w.Loc)) {
				return fmt.Errorf("divided matching: process %d sent location %d's collectives", q, w.Loc)
			}
			s := &scans[w.Loc]
			s.initEnter, s.initLeave, s.finEnter, s.finLeave, s.initN, s.finN = w.InitEnter, w.InitLeave, w.FinEnter, w.FinLeave, w.InitN, w.FinN
			if cap(s.colls) < len(w.Colls) {
				// Held through the matching: no room beyond the records.
				s.colls = make([]collRec, 0, len(w.Colls))
			}
			s.colls = s.colls[:0]
			for _, cr := range w.Colls {
				s.colls = append(s.colls, collRec{comm: cr.Comm, post: cr.Post, send: cr.Send, recv: cr.Recv, op: cr.Op, root: cr.Root,
					sent: cr.Sent, rcvd: cr.Rcvd, inst: NoEvent, part: NoEvent})
			}
		}
	}
	return nil
}

// locIssues are one location's issues as they travel.
type locIssues struct {
	Loc    int32
	Issues Issues
}

// gatherIssues merges into g.Issues every location's issues (of, for
// this process's own), in location order, as Finish merges them.
func gatherIssues(ctx context.Context, c comm.Comm, g *Graph, n int, own func(li int) bool, of func(li int) *Issues) error {
	var mine []locIssues
	for li := range n {
		if own(li) {
			if is := of(li); is.Total() > 0 {
				mine = append(mine, locIssues{int32(li), *is})
			}
		}
	}
	all, err := allgatherGob(ctx, c, mine)
	if err != nil {
		return fmt.Errorf("divided matching: issues: %w", err)
	}
	byLoc := make(map[int32]*Issues)
	for _, part := range all {
		for i := range part {
			byLoc[part[i].Loc] = &part[i].Issues
		}
	}
	for li := range n {
		if is := byLoc[int32(li)]; is != nil {
			g.Issues.Merge(is)
		}
	}
	return nil
}

// wireSync is one shared-memory process's instances as they travel.
type wireSync struct {
	Proc   int32
	Inst   []Instance
	Parts  []Part
	Issues Issues
	Counts [NumSyncKinds]int64
}

// shareSync completes outs, the shared-memory relations of the processes
// own says, with the other processes' instances, parts, issues and counts
// (allgather).
func shareSync(ctx context.Context, c comm.Comm, t *trace.Trace, outs []syncOut, own func(pi int, locs []int32) bool) error {
	procs := make([][]int32, len(outs))
	for li := range t.Locations {
		p := t.ProcessOf(li)
		procs[p] = append(procs[p], int32(li))
	}
	var mine []wireSync
	for pi, o := range outs {
		if len(procs[pi]) > 0 && own(pi, procs[pi]) && (len(o.inst) > 0 || o.issues.Total() > 0 || o.counts != [NumSyncKinds]int64{}) {
			mine = append(mine, wireSync{int32(pi), o.inst, o.parts, o.issues, o.counts})
		}
	}
	all, err := allgatherGob(ctx, c, mine)
	if err != nil {
		return fmt.Errorf("divided matching: shared-memory relations: %w", err)
	}
	for q, ws := range all {
		if q == c.Rank() {
			continue
		}
		for _, w := range ws {
			if w.Proc < 0 || int(w.Proc) >= len(outs) || len(procs[w.Proc]) == 0 || own(int(w.Proc), procs[w.Proc]) {
				return fmt.Errorf("divided matching: process %d sent shared-memory process %d", q, w.Proc)
			}
			outs[w.Proc] = syncOut{inst: w.Inst, parts: w.Parts, issues: w.Issues, counts: w.Counts}
		}
	}
	return nil
}

// allgatherGob gathers every process's v (gob-encoded).
func allgatherGob[T any](ctx context.Context, c comm.Comm, v T) ([]T, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&v); err != nil {
		return nil, err
	}
	all, err := c.Allgather(ctx, buf.Bytes())
	if err != nil {
		return nil, err
	}
	out := make([]T, len(all))
	for q, b := range all {
		all[q] = nil // each part freed once decoded: the gather never holds two copies
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&out[q]); err != nil {
			return nil, fmt.Errorf("process %d's data: %w", q, err)
		}
	}
	return out, nil
}
