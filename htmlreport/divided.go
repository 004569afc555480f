package htmlreport

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/clc-tools/clc/comm"
)

// A page of a correction divided among the processes of a group
// (Input.Group) is made by all of them: each counts what it holds — its
// own locations' events (Input.Own), the messages they receive and the
// collective instances it counts (Input.Counted), whose other ends its
// halo holds — and the counts are completed over the group. They are
// integers, or sums of integers held exactly (errSums), so the page is
// the one a single process makes of the whole trace, byte for byte.
// Process 0 gets the page; the others take part and get none.

// SpanDivided returns Span of the times of the locations own marks (nil:
// all) over every process of g (nil: this one): the earliest and latest
// time of the whole trace, and whether it has any.
func SpanDivided(g *comm.Group, times [][]int64, own []bool) (lo, hi int64, ok bool) {
	var mine [][]int64
	if own == nil {
		mine = times
	} else {
		mine = make([][]int64, len(times))
		for l := range times {
			if own[l] {
				mine[l] = times[l]
			}
		}
	}
	lo, hi, ok = Span(mine)
	if g == nil {
		return lo, hi, ok
	}
	if !ok {
		lo, hi = math.MaxInt64, math.MinInt64
	}
	low := []int64{lo}
	high := []int64{hi}
	g.Int64("the trace's first time", comm.Min, low)
	g.Int64("the trace's last time", comm.Max, high)
	return low[0], high[0], low[0] <= high[0]
}

// gatherTo0 adds every other process's sums to process 0's (one
// all-to-all, each process sending its entries with events); the others'
// sums stay their own.
func (s *errSums) gatherTo0(g *comm.Group) {
	if g == nil {
		return
	}
	send := make([][]byte, g.Size())
	if g.Rank() != 0 {
		send[0] = s.encode()
	}
	got := g.Alltoall("the clock errors' sums", send)
	if g.Rank() != 0 {
		return
	}
	for q, b := range got {
		if err := s.mergeFrom(b); err != nil {
			g.Fail(fmt.Errorf("html report: the clock errors' sums of process %d: %w", q, err))
			return
		}
	}
}

// encode returns the entries with events: each its index, events and sum.
func (s *errSums) encode() []byte {
	var b []byte
	for k, n := range s.cnt {
		if n == 0 {
			continue
		}
		b = binary.AppendUvarint(b, uint64(k))
		b = binary.AppendVarint(b, n)
		b = binary.AppendVarint(b, s.hi[k])
		b = binary.LittleEndian.AppendUint64(b, s.lo[k])
	}
	return b
}

// mergeFrom adds the entries that encode wrote in b.
func (s *errSums) mergeFrom(b []byte) error {
	for len(b) > 0 {
		k, n := binary.Uvarint(b)
		if n <= 0 || k >= uint64(len(s.cnt)) {
			return fmt.Errorf("bad entry")
		}
		b = b[n:]
		cnt, n := binary.Varint(b)
		if n <= 0 || cnt <= 0 {
			return fmt.Errorf("bad count of entry %d", k)
		}
		b = b[n:]
		hi, n := binary.Varint(b)
		if n <= 0 || len(b) < n+8 {
			return fmt.Errorf("entry %d cut short", k)
		}
		lo := binary.LittleEndian.Uint64(b[n:])
		b = b[n+8:]
		s.merge(int(k), cnt, hi, lo)
	}
	return nil
}

// reduce completes p's counts over the processes of g: every process
// gets the sums.
func (p *PairCounts) reduce(g *comm.Group, what string) {
	if g == nil {
		return
	}
	v := make([]int64, 0, len(p.Messages)+len(p.Violations)+len(p.ByTime))
	v = append(append(append(v, p.Messages...), p.Violations...), p.ByTime...)
	g.Int64(what, comm.Sum, v)
	n := copy(p.Messages, v)
	n += copy(p.Violations, v[n:])
	copy(p.ByTime, v[n:])
}

// reduce completes s over the processes of g: the counts summed, the
// largest shifts the largest of all.
func (s *Shifts) reduce(g *comm.Group) {
	if g == nil {
		return
	}
	v := make([]int64, 0, 2+len(s.Later)+len(s.Earlier))
	v = append(append(append(v, s.Events, s.Unmoved), s.Later...), s.Earlier...)
	g.Int64("the shifts' histogram", comm.Sum, v)
	s.Events, s.Unmoved = v[0], v[1]
	n := 2 + copy(s.Later, v[2:])
	copy(s.Earlier, v[n:])
	m := []int64{s.MaxLater, s.MaxEarlier}
	g.Int64("the largest shifts", comm.Max, m)
	s.MaxLater, s.MaxEarlier = m[0], m[1]
}
