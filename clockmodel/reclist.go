package clockmodel

import (
	"encoding/binary"
	"iter"
	"sort"
)

// recList is a sorted list of bounds (sortRecs' order: sending domain,
// receiving domain, time, delay) held compactly: per run of one ordered
// domain pair its domains once, and per bound its time as the difference
// from the run's previous bound's (from 0 for a run's first) and its delay,
// both as signed varints — a few bytes a bound instead of rec's 24. Every
// estimation holds its bounds for all its passes, the error bars and the
// projection, and reads them in order.
type recList struct {
	runs  []recRun
	n     int
	data  []byte
	marks []recMark // the decoding state at every recMarkEvery-th bound
}

// recRun is the run of bounds [lo, the next run's lo) from a to b.
type recRun struct {
	a, b int32
	lo   int
}

// recMark is where bound i·recMarkEvery starts in data, and the time of
// the bound before it in its run (0 for a run's first).
type recMark struct {
	off  int
	prev int64
}

// recMarkEvery is the spacing of a recList's marks, in bounds.
const recMarkEvery = 256

// newRecList encodes rs, sorted by sortRecs.
func newRecList(rs []rec) *recList {
	l := &recList{n: len(rs), marks: make([]recMark, 0, (len(rs)+recMarkEvery-1)/recMarkEvery)}
	// The encoding's size first, so that data is allocated once, exactly.
	size := 0
	var prev int64
	for i := range rs {
		if i > 0 && (rs[i].a != rs[i-1].a || rs[i].b != rs[i-1].b) {
			prev = 0
		}
		size += varintLen(rs[i].t-prev) + varintLen(rs[i].d)
		prev = rs[i].t
	}
	l.data = make([]byte, 0, size)
	prev = 0
	for i := range rs {
		r := &rs[i]
		if i == 0 || r.a != rs[i-1].a || r.b != rs[i-1].b {
			l.runs = append(l.runs, recRun{a: r.a, b: r.b, lo: i})
			prev = 0
		}
		if i%recMarkEvery == 0 {
			l.marks = append(l.marks, recMark{off: len(l.data), prev: prev})
		}
		l.data = binary.AppendVarint(l.data, r.t-prev)
		l.data = binary.AppendVarint(l.data, r.d)
		prev = r.t
	}
	return l
}

// varintLen is the length of v as binary.AppendVarint appends it.
func varintLen(v int64) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutVarint(b[:], v)
}

// len returns the number of bounds (0 for a nil list).
func (l *recList) len() int {
	if l == nil {
		return 0
	}
	return l.n
}

// runEnd returns the end of run k (the next run's lo, or n).
func (l *recList) runEnd(k int) int {
	if k+1 < len(l.runs) {
		return l.runs[k+1].lo
	}
	return l.n
}

// recCursor reads a recList's bounds in order from a position.
type recCursor struct {
	l    *recList
	i    int // the next bound's index
	run  int // its run
	end  int // its run's end
	off  int
	prev int64
}

// cursor returns a cursor at bound i (0 ≤ i ≤ len).
func (l *recList) cursor(i int) recCursor {
	c := recCursor{l: l, i: i}
	if l == nil || i >= l.n {
		return c
	}
	m := i / recMarkEvery
	c.i, c.off, c.prev = m*recMarkEvery, l.marks[m].off, l.marks[m].prev
	c.run = sort.Search(len(l.runs), func(k int) bool { return l.runs[k].lo > c.i }) - 1
	c.end = l.runEnd(c.run)
	for c.i < i {
		c.next()
	}
	return c
}

// next returns the cursor's bound and moves past it; false at the end.
func (c *recCursor) next() (rec, bool) {
	l := c.l
	if l == nil || c.i >= l.n {
		return rec{}, false
	}
	if c.i == c.end {
		c.run++
		c.end = l.runEnd(c.run)
		c.prev = 0
	}
	dt, k := binary.Varint(l.data[c.off:])
	c.off += k
	d, k := binary.Varint(l.data[c.off:])
	c.off += k
	c.prev += dt
	c.i++
	r := &l.runs[c.run]
	return rec{a: r.a, b: r.b, t: c.prev, d: d}, true
}

// between returns the bounds [lo, hi) in order.
func (l *recList) between(lo, hi int) iter.Seq[rec] {
	return func(yield func(rec) bool) {
		c := l.cursor(lo)
		for c.i < hi {
			r, ok := c.next()
			if !ok || !yield(r) {
				return
			}
		}
	}
}

// all returns every bound in order.
func (l *recList) all() iter.Seq[rec] { return l.between(0, l.len()) }
