// Package clockmodel estimates the error of every clock of a trace from its
// messages and clock-offset measurements, and decides how far to correct it.
//
// The locations that read one clock form a clock domain (DetectDomains).
// Run chooses the minimum latencies μ from the trace (Latencies), gathers
// the messages' bounds on the difference of every two domains' clocks into
// windows, fits one smooth correction per domain by weighted least squares
// with a prior centred on the pre-synchronised clock (EstimateModel), gives
// every knot a posterior standard deviation, applies only what the
// messages prove beyond it (the garrote), and guards the result: it is
// used only if it predicts held-out messages better than the
// pre-synchronised clocks, is significant, and raises no violation. The
// corrected times then go to the controlled logical clock (package clc).
// Result.ErrorBar gives every event's 95 % interval.
package clockmodel

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clc-tools/clc/trace"
)

// Location is what the clock-domain detection knows of one location.
type Location struct {
	// Node is the location's node (Trace.Nodes index).
	Node int32
	// Process is the index of the location's process, shared by its
	// threads; −1 when the trace does not say (the location is then a
	// process of its own, as every MPI rank is).
	Process int32
	// Offsets are the location's clock-offset measurements.
	Offsets []trace.ClockOffset
}

// Domains says which locations share a clock.
type Domains struct {
	// Of is the domain of each location.
	Of []int32
	// Ref is the domain of location 0, whose clock is the reference.
	Ref int32
	// Node is each domain's node, or −1 when its locations are on
	// several nodes.
	Node []int32
	// Size is the number of locations of each domain.
	Size []int32
	// Basis says how the domains were found.
	Basis string
}

// Count returns the number of domains.
func (d *Domains) Count() int { return len(d.Size) }

// DetectDomains groups locations by clock: the threads of a process share
// its clock; the processes of a node share the node's clock when the trace
// declares it (declared = "node", the value of trace.PropClockDomain), do not when
// it declares "process", and otherwise when their offset measurements agree
// within their measurement noise (the round-trip times, or three standard
// deviations, or tol ticks when neither is known, plus 50 ppm of the time
// between the measurements compared). Processes without measurements join
// the first clock of their node: a node's processes read one clock on every
// current system, and without measurements nothing says otherwise.
func DetectDomains(locs []Location, declared string, tol int64) Domains {
	n := len(locs)
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	var find func(int32) int32
	find = func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int32) {
		a, b = find(a), find(b)
		if a == b {
			return
		}
		if b < a {
			a, b = b, a
		}
		parent[b] = a
	}
	// Threads of a process.
	firstOfProc := map[int32]int32{}
	for i, l := range locs {
		if l.Process < 0 {
			continue
		}
		if f, ok := firstOfProc[l.Process]; ok {
			union(f, int32(i))
		} else {
			firstOfProc[l.Process] = int32(i)
		}
	}
	basis := "process"
	switch strings.ToLower(declared) {
	case "node":
		basis = "node (" + trace.PropClockDomain + " = node)"
		first := map[int32]int32{}
		for i, l := range locs {
			if f, ok := first[l.Node]; ok {
				union(f, int32(i))
			} else {
				first[l.Node] = int32(i)
			}
		}
	case "process", "location":
		basis = "process (" + trace.PropClockDomain + " = " + declared + ")"
	default:
		if mergeByOffsets(locs, find, union, tol) {
			basis = "node (offsets agree)"
		}
	}
	return number(locs, find, basis)
}

// mergeByOffsets merges the processes of each node whose measurements
// agree; it reports whether any two processes were merged.
func mergeByOffsets(locs []Location, find func(int32) int32, union func(a, b int32), tol int64) bool {
	// Per node, its processes (roots) in order, with the measurements of
	// their first location that has any.
	type proc struct {
		root int32
		offs []trace.ClockOffset
	}
	byNode := map[int32][]proc{}
	var nodes []int32
	seen := map[int32]int{}
	for i, l := range locs {
		r := find(int32(i))
		if k, ok := seen[r]; ok {
			ps := byNode[l.Node]
			if len(ps[k].offs) == 0 {
				ps[k].offs = l.Offsets
			}
			continue
		}
		if _, ok := byNode[l.Node]; !ok {
			nodes = append(nodes, l.Node)
		}
		seen[r] = len(byNode[l.Node])
		byNode[l.Node] = append(byNode[l.Node], proc{r, l.Offsets})
	}
	merged := false
	for _, nd := range nodes {
		ps := byNode[nd]
		// Groups of agreeing processes, each represented by its first
		// member with measurements.
		var reps []proc
		var noOffs []int32
		for _, p := range ps {
			if len(p.offs) == 0 {
				noOffs = append(noOffs, p.root)
				continue
			}
			joined := false
			for _, r := range reps {
				if offsetsAgree(r.offs, p.offs, tol) {
					union(r.root, p.root)
					merged, joined = true, true
					break
				}
			}
			if !joined {
				reps = append(reps, p)
			}
		}
		if len(noOffs) > 0 {
			first := noOffs[0]
			if len(reps) > 0 {
				first = reps[0].root
			}
			for _, r := range noOffs {
				if r != first {
					union(first, r)
					merged = true
				}
			}
		}
	}
	return merged
}

// offsetsAgree reports whether two processes' measurements describe the
// same clock: every measurement of b agrees with a's measurements
// interpolated (or, with one, held) at its time.
func offsetsAgree(a, b []trace.ClockOffset, tol int64) bool {
	noise := func(o trace.ClockOffset) float64 {
		switch {
		case o.RTT > 0:
			return float64(o.RTT) / 2
		case o.StdDev > 0:
			return 3 * o.StdDev
		}
		return float64(tol)
	}
	for _, m := range b {
		// a's offset at m.Time and the noise of the measurements used.
		k := sort.Search(len(a), func(i int) bool { return a[i].Time >= m.Time })
		var o, na, dt float64
		switch {
		case len(a) == 1:
			o, na, dt = float64(a[0].Offset), noise(a[0]), math.Abs(float64(m.Time-a[0].Time))
		case k == 0:
			o, na, dt = extrapolate(a[0], a[1], m.Time), noise(a[0]), float64(a[0].Time-m.Time)
		case k == len(a):
			o, na, dt = extrapolate(a[k-2], a[k-1], m.Time), noise(a[k-1]), float64(m.Time-a[k-1].Time)
		default:
			o, na = extrapolate(a[k-1], a[k], m.Time), max(noise(a[k-1]), noise(a[k]))
		}
		if math.Abs(o-float64(m.Offset)) > na+noise(m)+50e-6*dt+2 {
			return false
		}
	}
	return len(b) > 0
}

func extrapolate(p, q trace.ClockOffset, t int64) float64 {
	if q.Time == p.Time {
		return float64(p.Offset)
	}
	return float64(p.Offset) + float64(q.Offset-p.Offset)*float64(t-p.Time)/float64(q.Time-p.Time)
}

// number turns the union-find roots into domain indices in the order of
// their first location.
func number(locs []Location, find func(int32) int32, basis string) Domains {
	d := Domains{Of: make([]int32, len(locs)), Basis: basis}
	idx := map[int32]int32{}
	for i, l := range locs {
		r := find(int32(i))
		k, ok := idx[r]
		if !ok {
			k = int32(len(d.Size))
			idx[r] = k
			d.Size = append(d.Size, 0)
			d.Node = append(d.Node, l.Node)
		}
		d.Of[i] = k
		d.Size[k]++
		if d.Node[k] != l.Node {
			d.Node[k] = -1
		}
	}
	return d
}

// String summarises the domains.
func (d *Domains) String() string {
	if len(d.Size) == 0 {
		return "no locations"
	}
	lo, hi := d.Size[0], d.Size[0]
	for _, s := range d.Size {
		lo, hi = min(lo, s), max(hi, s)
	}
	size := fmt.Sprintf("%d", lo)
	if hi != lo {
		size = fmt.Sprintf("%d–%d", lo, hi)
	}
	return fmt.Sprintf("%d clock domain(s) of %s location(s), by %s", len(d.Size), size, d.Basis)
}

// TraceLocations returns the detection's view of t's locations: the
// threads (and accelerator and metric streams) of a process share its
// clock; a trace without processes has one process per location, as MPI
// ranks are.
func TraceLocations(t *trace.Trace) []Location {
	out := make([]Location, len(t.Locations))
	for i, l := range t.Locations {
		p := int32(-1)
		if len(t.Processes) > 0 {
			p = l.Process
		}
		out[i] = Location{Node: l.Node, Process: p, Offsets: l.Offsets}
	}
	return out
}
