package clockmodel

import (
	"math"
	"sort"

	"github.com/clc-tools/clc/trace"
)

// Input is what the clock model takes from a trace before
// pre-synchronisation consumes its clock-offset measurements: the clock
// domains and the measurements as anchors.
type Input struct {
	Domains Domains
	// Resolution is the timer resolution in ticks per second.
	Resolution uint64
	anchors    []anchor
}

// anchor is one offset measurement, tied to the location's events around
// it so that it can be read against the pre-synchronised times: at local
// time tk the reference clock read tk + off. The events i0 ≤ i1 bracket tk
// (raw times raw0 ≤ tk ≤ raw1, or the nearest event twice at the ends);
// after pre-synchronisation, the shift it applied at tk is interpolated
// between theirs.
type anchor struct {
	loc        int32
	i0, i1     int32
	raw0, raw1 int64
	tk, off    int64
	sigma      float64 // ticks: the measurement's uncertainty
}

// at returns the anchor's time in the pre-synchronised times and the
// correction the clock needs there.
func (a *anchor) at(times [][]int64) (t int64, v float64) {
	ts := times[a.loc]
	s0 := float64(ts[a.i0] - a.raw0)
	shift := s0
	if a.raw1 > a.raw0 {
		s1 := float64(ts[a.i1] - a.raw1)
		shift += (s1 - s0) * float64(a.tk-a.raw0) / float64(a.raw1-a.raw0)
	}
	return a.tk + int64(math.Round(shift)), float64(a.off) - shift
}

// Capture reads the clock domains and offset measurements of t, with the
// times of its events. Call it before pre-synchronisation, which removes
// the measurements.
func Capture(t *trace.Trace) *Input {
	times := make([][]int64, len(t.Locations))
	for i, l := range t.Locations {
		times[i] = l.Events.Time
	}
	return CaptureTimes(t, times)
}

// CaptureTimes is Capture with every event's time in columns (times[i]:
// location i's raw times), for a trace whose events were read as a
// selection. It keeps no reference to times.
func CaptureTimes(t *trace.Trace, times [][]int64) *Input {
	tol := max(int64(1), int64(math.Round(float64(t.Resolution)*1e-6))) // 1 µs
	in := &Input{
		Domains:    DetectDomains(TraceLocations(t), t.Properties[trace.PropClockDomain], tol),
		Resolution: t.Resolution,
	}
	floor := max(1, float64(t.Resolution)*50e-9) // 50 ns
	// The fastest round trip of a measurement with the reference, per
	// class (same node as location 0 or not): a measurement's error is at
	// most half its excess over that, if the latencies both ways are
	// equal — far tighter than half its round trip.
	var minRTT [2]int64
	var minDev [2]float64
	class := func(l *trace.Location) int {
		if len(t.Locations) > 0 && l.Node == t.Locations[0].Node {
			return 0
		}
		return 1
	}
	for _, l := range t.Locations {
		for _, o := range l.Offsets {
			c := class(l)
			if o.RTT > 0 && (minRTT[c] == 0 || o.RTT < minRTT[c]) {
				minRTT[c] = o.RTT
			}
			if o.StdDev > 0 && (minDev[c] == 0 || o.StdDev < minDev[c]) {
				minDev[c] = o.StdDev
			}
		}
	}
	for li, l := range t.Locations {
		ts := times[li]
		if len(ts) == 0 {
			continue
		}
		for _, o := range l.Offsets {
			// The events around the measurement's local time.
			k := sort.Search(len(ts), func(i int) bool { return ts[i] >= o.Time })
			i0, i1 := k-1, k
			switch {
			case k == 0:
				i0 = 0
			case k == len(ts):
				i1 = k - 1
			}
			// A measurement's stated deviation (OTF2's, which tracers
			// fill with half the round trip or leave 0) is read as its
			// round trip is: what it exceeds the best of its class by.
			sigma := floor
			switch {
			case o.RTT > 0:
				sigma += float64(o.RTT-minRTT[class(l)]) / 2
			case o.StdDev > 0:
				sigma += o.StdDev - minDev[class(l)]
			default:
				sigma = max(sigma, float64(t.Resolution)*1e-6)
			}
			in.anchors = append(in.anchors, anchor{loc: int32(li), i0: int32(i0), i1: int32(i1),
				raw0: ts[i0], raw1: ts[i1], tk: o.Time, off: o.Offset, sigma: sigma})
		}
	}
	return in
}
