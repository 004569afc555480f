package job

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"fmt"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/partition"
	"github.com/clc-tools/clc/trace"
)

// A run divided among the processes of a group (Options.Comm of more than
// one process) reads, on each process, the event files of a block of
// whole nodes only, and writes the OTF2 event files of those locations;
// process 0 claims the outputs, writes the global definitions, the anchor
// and the reports, and commits once every process has written its part.
//
// The messages are matched divided (replay.Matcher.FinishDivided: each
// process scans its locations, the messages between processes cross in
// an all-to-all).
//
// Each process keeps only its own locations' times and dependency lists
// and the clock offsets of every location (gathered), and repair.Correct
// runs divided (repair.Correction.Comm): pre-synchronisation, the clock
// model (on a view with a halo of the messages' other ends; its solve on
// every process alike), the CLC and the measures. A native output and a
// conversion are written whole by process 0, to which the corrected times
// go (gatherTimesTo0). The HTML report is made by every process of what
// it saw (repair.View), and written by process 0 (htmlreport.Input.Group).

// rankOf returns this process's number in c (nil: 0).
func rankOf(c comm.Comm) int {
	if c == nil {
		return 0
	}
	return c.Rank()
}

// divided reports whether c is a group of more than one process.
func divided(c comm.Comm) bool { return c != nil && c.Size() > 1 }

// agree returns, on every process of c, an error when any process's err
// is one: this process's own, else the first other's, named by its
// process. A stage that fails on one process so fails on all, and none
// goes on to a collective operation that the failed one never reaches.
// With one process (c nil or of size 1) it returns err.
func agree(ctx context.Context, c comm.Comm, err error) error {
	if !divided(c) {
		return err
	}
	var msg []byte
	if err != nil {
		msg = []byte(err.Error())
		if len(msg) == 0 {
			msg = []byte("failed")
		}
	}
	all, gerr := c.Allgather(ctx, msg)
	if err != nil {
		return err
	}
	if gerr != nil {
		return fmt.Errorf("process %d of %d: %w", c.Rank(), c.Size(), gerr)
	}
	for p, m := range all {
		if len(m) > 0 {
			return fmt.Errorf("process %d of %d failed: %s", p, len(all), m)
		}
	}
	return nil
}

// divide returns the process of parts that reads each location: a
// contiguous block of whole nodes, the nodes in their order cut into runs
// of about equal declared events (partition.Block). With more processes
// than nodes, the processes past the nodes' count read none.
func divide(defs *trace.Trace, declared []int64, parts int) ([]int32, error) {
	n := len(defs.Locations)
	if n == 0 {
		return nil, nil
	}
	if len(declared) != n {
		return nil, fmt.Errorf("division among processes: %d locations declare events, the definitions have %d", len(declared), n)
	}
	node := make([]int32, n)
	nodes := map[int32]bool{}
	for li, l := range defs.Locations {
		node[li] = l.Node
		nodes[l.Node] = true
	}
	plan, err := partition.NewPlan(partition.Block, min(parts, len(nodes)), node, declared, nil)
	if err != nil {
		return nil, fmt.Errorf("division among processes: %w", err)
	}
	return plan.Of, nil
}

// ownLocations returns which locations process rank reads of those part
// divides (divide).
func ownLocations(part []int32, rank int) []bool {
	own := make([]bool, len(part))
	for li, p := range part {
		own[li] = int(p) == rank
	}
	return own
}

// partLocation is what a process sends of one of its locations when the
// processes gather the trace (gatherTrace): its clock offsets.
type partLocation struct {
	Loc     int
	Offsets []trace.ClockOffset
}

// part is what a process sends of its block when the processes gather
// the trace.
type part struct {
	Locations []partLocation
	// Truncated lists the locations whose native streams were cut.
	Truncated string
}

// gatherTrace completes, on every process, the definitions tr of which
// this process read the locations own (their clock offsets): every
// process sends what it read, and fills in what the others did.
func gatherTrace(ctx context.Context, c comm.Comm, tr *trace.Trace, own []bool) error {
	var mine part
	for li, o := range own {
		if o {
			mine.Locations = append(mine.Locations, partLocation{Loc: li, Offsets: tr.Locations[li].Offsets})
		}
	}
	mine.Truncated = tr.Properties[trace.PropTruncated]
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&mine); err != nil {
		return fmt.Errorf("gathering the trace: %w", err)
	}
	all, err := c.Allgather(ctx, buf.Bytes())
	if err != nil {
		return fmt.Errorf("gathering the trace: %w", err)
	}
	var truncated []int
	for p, b := range all {
		all[p] = nil // each part freed once decoded: the gather never holds two copies
		var got part
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&got); err != nil {
			return fmt.Errorf("gathering the trace: process %d's part: %w", p, err)
		}
		for _, pl := range got.Locations {
			if pl.Loc < 0 || pl.Loc >= len(tr.Locations) {
				return fmt.Errorf("gathering the trace: process %d sent location %d of %d", p, pl.Loc, len(tr.Locations))
			}
			if p != c.Rank() {
				tr.Locations[pl.Loc].Offsets = pl.Offsets
			}
		}
		cut, err := trace.ParseTruncated(got.Truncated)
		if err != nil {
			return fmt.Errorf("gathering the trace: process %d's part: %w", p, err)
		}
		truncated = append(truncated, cut...)
	}
	if len(truncated) > 0 {
		tr.Properties[trace.PropTruncated] = trace.TruncatedList(truncated)
	}
	return nil
}

// rewriteOTF2Part writes this process's locations (own) of the corrected
// archive into dir, and process 0 then the global definitions and the
// anchor, with the span of every process's times (allgather) and every
// location's event count.
func rewriteOTF2Part(ctx context.Context, c comm.Comm, a *otf.Archive, dir string, times [][]int64, own []bool, parallel int) error {
	span, err := a.RewritePart(ctx, dir, times, func(li int) bool { return own[li] }, &otf.WriteOptions{Parallel: parallel})
	if err = agree(ctx, c, err); err != nil {
		return err
	}
	b := binary.LittleEndian.AppendUint64(nil, span.Min)
	b = binary.LittleEndian.AppendUint64(b, span.Max)
	if span.Empty {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	all, err := c.Allgather(ctx, b)
	if err != nil {
		return fmt.Errorf("gathering the written times' span: %w", err)
	}
	merged := otf.Span{Empty: true}
	for p, s := range all {
		if len(s) != 17 {
			return fmt.Errorf("gathering the written times' span: process %d sent %d bytes", p, len(s))
		}
		merged.Merge(otf.Span{Min: binary.LittleEndian.Uint64(s), Max: binary.LittleEndian.Uint64(s[8:]), Empty: s[16] == 1})
	}
	// Every location's number of events, from its process.
	n := make([]int64, len(times))
	for li, ts := range times {
		if own[li] {
			n[li] = int64(len(ts))
		}
	}
	if n, err = c.AllreduceInt64(ctx, comm.Sum, n); err != nil {
		return fmt.Errorf("gathering the locations' events: %w", err)
	}
	if c.Rank() != 0 {
		return nil
	}
	counts := make([]uint64, len(n))
	for li, k := range n {
		counts[li] = uint64(k)
	}
	return a.RewriteGlobals(dir, merged, counts)
}

// gatherTimesTo0 sends this process's columns (own) to process 0 (one
// all-to-all), which fills times with every process's: the corrected
// times of a divided run for an output that process 0 writes whole.
func gatherTimesTo0(ctx context.Context, c comm.Comm, times [][]int64, own []bool) error {
	out := make([][]byte, c.Size())
	if c.Rank() != 0 {
		var b []byte
		for li, ts := range times {
			if !own[li] {
				continue
			}
			b = binary.LittleEndian.AppendUint32(b, uint32(li))
			b = binary.LittleEndian.AppendUint64(b, uint64(len(ts)))
			for _, t := range ts {
				b = binary.LittleEndian.AppendUint64(b, uint64(t))
			}
			times[li] = nil // sent: process 0 holds it now
		}
		out[0] = b
	}
	recv, err := c.Alltoall(ctx, out)
	if err != nil {
		return fmt.Errorf("gathering the corrected times: %w", err)
	}
	if c.Rank() != 0 {
		return nil
	}
	for q, b := range recv {
		for len(b) > 0 {
			if len(b) < 12 {
				return fmt.Errorf("gathering the corrected times: process %d sent a cut column", q)
			}
			li, n := int(binary.LittleEndian.Uint32(b)), binary.LittleEndian.Uint64(b[4:])
			b = b[12:]
			if li >= len(times) || own[li] || uint64(len(b)/8) < n {
				return fmt.Errorf("gathering the corrected times: process %d sent location %d with %d times in %d bytes", q, li, n, len(b))
			}
			ts := make([]int64, n)
			for j := range ts {
				ts[j] = int64(binary.LittleEndian.Uint64(b[8*j:]))
			}
			times[li], b = ts, b[8*n:]
		}
		recv[q] = nil
	}
	return nil
}
