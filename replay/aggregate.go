package replay

import (
	"math"
	"slices"
)

// Latency is the minimum message latency in ticks, by whether the two
// locations share a node. Intra must not exceed Inter. Shared is the
// latency of the shared-memory relations between the threads of a process
// (0 by default: a thread's event may carry the same time as the event
// that enabled it).
type Latency struct {
	Intra, Inter int64
	Shared       int64
}

// ForSync returns the latency of an instance of shared-memory kind k: l
// itself for MPI (k = 0), otherwise Shared between any two locations.
func (l Latency) ForSync(k SyncKind) Latency {
	if k == 0 {
		return l
	}
	return Latency{Intra: l.Shared, Inter: l.Shared, Shared: l.Shared}
}

// Between returns the latency between locations on nodes a and b.
func (l Latency) Between(a, b int32) int64 {
	if a == b {
		return l.Intra
	}
	return l.Inter
}

// NoTime marks the absence of a time.
const NoTime = math.MinInt64

// cand is one candidate of an aggregate: a value at a location on a node.
type cand struct {
	v    int64
	loc  int32
	node int32
}

var noCand = cand{v: NoTime, loc: -1, node: -1}

// Agg answers, for any member r of a set of (value, location, node)
// triples, max over the triples of other locations of value + latency
// between their node and r's — in O(1), from three candidates: the best,
// the best at another location, and the best on another node than the
// best's. Each location occurs at most once in the set.
type Agg struct {
	top1, top2, other cand
}

// NewAgg returns an empty aggregate.
func NewAgg() Agg { return Agg{top1: noCand, top2: noCand, other: noCand} }

// Add puts a triple into the aggregate. Ties keep the earlier triple, so
// adding in a fixed order gives a fixed result.
func (a *Agg) Add(v int64, loc, node int32) {
	c := cand{v, loc, node}
	if c.v > a.top1.v {
		// The old best becomes the runner-up; the best on another node
		// than the new best is the old best if its node differs, else the
		// old "other".
		if a.top1.node != c.node && a.top1.v != NoTime {
			a.other = a.top1
		}
		a.top2 = a.top1
		a.top1 = c
		if a.other.node == c.node {
			a.other = noCand
		}
		return
	}
	if c.v > a.top2.v {
		a.top2 = c
	}
	if c.node != a.top1.node && c.v > a.other.v {
		a.other = c
	}
}

// candidates returns the aggregate's distinct candidates (at most three):
// every member that an answer of the aggregate can name. An aggregate
// of a stream of triples that holds, in the stream's order, the
// candidates of its parts' aggregates answers as the whole stream's.
func (a *Agg) candidates() []cand {
	var out []cand
	for _, c := range [3]cand{a.top1, a.top2, a.other} {
		if c.v != NoTime && !slices.ContainsFunc(out, func(o cand) bool { return o.loc == c.loc }) {
			out = append(out, c)
		}
	}
	return out
}

// Latest returns the location of the latest member other than loc (the
// largest value; ties to the earlier), or −1 when there is none.
func (a *Agg) Latest(loc int32) int32 {
	if a.top1.loc != loc {
		return a.top1.loc
	}
	return a.top2.loc
}

// LatestTime returns the value of the latest member other than loc (the
// one Latest names), and false when there is none.
func (a *Agg) LatestTime(loc int32) (int64, bool) {
	c := a.top1
	if c.loc == loc {
		c = a.top2
	}
	return c.v, c.v != NoTime
}

// LatestOff returns the value of the latest member on another node than
// node, and false when there is none.
func (a *Agg) LatestOff(node int32) (int64, bool) {
	c := a.top1
	if c.node == node {
		c = a.other
	}
	return c.v, c.v != NoTime
}

// For returns max over the other members of value + latency as seen by
// location loc on node, and false when there is no other member.
func (a *Agg) For(loc, node int32, lat Latency) (int64, bool) {
	best := int64(NoTime)
	consider := func(c cand) {
		if c.v != NoTime && c.loc != loc {
			if w := c.v + lat.Between(c.node, node); w > best {
				best = w
			}
		}
	}
	if a.top1.loc != loc {
		consider(a.top1)
		if a.top1.node == node {
			consider(a.other)
		}
	} else {
		consider(a.top2)
		consider(a.other)
	}
	return best, best != NoTime
}
