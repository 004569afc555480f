package clockmodel

import (
	"encoding/binary"
	"iter"
	"slices"
	"sort"
)

// recList is a sorted list of bounds (by sending domain, receiving
// domain, time and delay) held compactly: per run of one ordered
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

// sortedRecList returns the bounds rs (left as they are) sorted as a
// recList: by domain pair through a permutation (two stable counting
// passes, 4 bytes a bound), then each pair's bounds, which come mostly in
// time order already (a few ascending runs, one per receiving location),
// by time and delay (sortByTime), one pair at a time.
func sortedRecList(rs []rec) *recList {
	l := &recList{n: len(rs), marks: make([]recMark, 0, (len(rs)+recMarkEvery-1)/recMarkEvery)}
	if len(rs) == 0 {
		return l
	}
	var nd int32
	for i := range rs {
		nd = max(nd, rs[i].a+1, rs[i].b+1)
	}
	// Stable counting passes by receiving, then by sending domain.
	perm, tmp := make([]int32, len(rs)), make([]int32, len(rs))
	for i := range perm {
		perm[i] = int32(i)
	}
	count := make([]int, nd+1)
	countingPassIndex(rs, perm, tmp, count, func(r *rec) int32 { return r.b })
	countingPassIndex(rs, tmp, perm, count, func(r *rec) int32 { return r.a })
	tmp = nil
	var run, buf []rec
	var runs []int
	for lo := 0; lo < len(perm); {
		a, b := rs[perm[lo]].a, rs[perm[lo]].b
		run = run[:0]
		hi := lo
		for ; hi < len(perm) && rs[perm[hi]].a == a && rs[perm[hi]].b == b; hi++ {
			run = append(run, rs[perm[hi]])
		}
		buf = slices.Grow(buf[:0], len(run))[:len(run)]
		runs = sortByTime(run, buf, runs)
		l.runs = append(l.runs, recRun{a: a, b: b, lo: lo})
		var prev int64
		for k := range run {
			if (lo+k)%recMarkEvery == 0 {
				l.marks = append(l.marks, recMark{off: len(l.data), prev: prev})
			}
			l.data = binary.AppendVarint(l.data, run[k].t-prev)
			l.data = binary.AppendVarint(l.data, run[k].d)
			prev = run[k].t
		}
		lo = hi
	}
	// Held for the estimation: no room beyond the encoding.
	l.data = slices.Clone(l.data)
	return l
}

// countingPassIndex orders the indices of rs in src into dst by key,
// stably; count has room for every key + 1 and is overwritten.
func countingPassIndex(rs []rec, src, dst []int32, count []int, key func(*rec) int32) {
	clear(count)
	for _, i := range src {
		count[key(&rs[i])+1]++
	}
	for k := 1; k < len(count); k++ {
		count[k] += count[k-1]
	}
	for _, i := range src {
		k := key(&rs[i])
		dst[count[k]] = i
		count[k]++
	}
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
