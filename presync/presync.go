// Package presync maps each location's local clock onto the reference
// clock from the clock-offset measurements stored in the trace: the
// pre-synchronisation that comes before the controlled logical clock.
//
// The default method reproduces the OTF2 reference reader bit for bit
// (piecewise linear between consecutive measurements, extrapolated outside
// them, rounded half to even; fewer than two measurements: no correction),
// so that a corrected archive shows, for every event the CLC did not move,
// exactly the time otf2-print showed for the original.
package presync

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/trace"
)

// Method selects how measurements become a correction.
type Method uint8

const (
	// Auto is Node for traces whose property trace.PropClockDomain is "node",
	// Interpolate otherwise (so OTF2 archives are read as the reference
	// reader reads them).
	Auto Method = iota
	// Interpolate is OTF2's piecewise-linear interpolation.
	Interpolate
	// Regression fits one line through all measurements by weighted least
	// squares, each weighted by 1/RTT² (equal weights where the RTT is
	// unknown): robust against one poor measurement when there are more
	// than two (periodic re-measurement).
	Regression
	// Node assumes that the locations of a node share one physical clock
	// (a TSC is per node): every location of the reference node (location
	// 0's) takes location 0's correction, and the locations of every other
	// node share one correction built from all their measurements — taken
	// in epochs (measurements close in time, e.g. all at MPI_Init), each
	// epoch averaged with weights 1/RTT², then interpolated as OTF2 does.
	// Measurement noise averages out and ranks of one node stay exactly
	// in step, as their clock is.
	Node
	// Domain is Node over clock domains instead of nodes: the locations
	// that read one clock, as the caller found them (FuncsGrouped; the
	// clock model's domains). Auto stands for it when the caller knows
	// the domains and one of them holds more than one process.
	Domain
)

// String returns the method's flag name.
func (m Method) String() string {
	switch m {
	case Auto:
		return "auto"
	case Interpolate:
		return "interpolate"
	case Regression:
		return "regression"
	case Node:
		return "node"
	case Domain:
		return "domain"
	}
	return fmt.Sprintf("method(%d)", uint8(m))
}

// ParseMethod parses a method's flag name.
func ParseMethod(s string) (Method, error) {
	switch s {
	case "auto", "":
		return Auto, nil
	case "interpolate", "linear", "otf2":
		return Interpolate, nil
	case "regression":
		return Regression, nil
	case "node":
		return Node, nil
	case "domain":
		return Domain, nil
	}
	return 0, fmt.Errorf("unknown pre-synchronisation method %q (want auto, interpolate, regression, node or domain)", s)
}

// segment is one interval of the piecewise-linear correction: for times up
// to end (inclusive) the offset is offset + slope·(t − begin).
type segment struct {
	begin  int64
	end    int64
	offset int64
	slope  float64
}

// Func is the correction of one location: reference time as a function of
// local time. The zero Func (no measurements) is the identity.
type Func struct {
	segs []segment
}

// Limits beyond which a clock-offset measurement is refused as physically
// absurd (docs/parameters.md): no real trace comes near them, and past
// them the correction would be garbage (a 9 µs trace stretched to 116
// days) or undefined (a weight of 0 or infinity).
const (
	// MaxOffsetStdDev bounds a measurement's standard deviation (OTF2's
	// ClockOffset record holds one); a measurement of the offset by a
	// message exchange is good to microseconds.
	MaxOffsetStdDev = time.Second
	// MaxDrift bounds the drift two consecutive measurements of a location
	// imply, |Δoffset / Δtime|: 1 % (10^4 ppm). Real clocks drift by tens
	// to hundreds of ppm. The two offsets may differ by OffsetNoise (and
	// half their round-trip times, when known) more: their measurement
	// error, which over a short Δtime alone would look like a large drift.
	MaxDrift = 0.01
	// OffsetNoise is the error of one offset measurement that MaxDrift
	// allows for.
	OffsetNoise = 100 * time.Microsecond
)

// ErrImplausible is wrapped by the errors about a clock-offset
// measurement beyond MaxOffsetStdDev or MaxDrift.
var ErrImplausible = errors.New("physically implausible clock offsets")

// checkOffsets refuses the measurements of t beyond MaxOffsetStdDev and
// MaxDrift, naming the location and the records.
func checkOffsets(t *trace.Trace) error {
	maxSD := float64(t.Resolution) * MaxOffsetStdDev.Seconds()
	noise := float64(t.Resolution) * OffsetNoise.Seconds()
	for i, l := range t.Locations {
		for k, o := range l.Offsets {
			if !(o.StdDev >= 0 && o.StdDev <= maxSD) {
				return fmt.Errorf("location %d (%s): clock offset record %d (local time %d, offset %d): standard deviation %g ticks: %w: a measurement's standard deviation must be a number from 0 to %v (%g ticks)",
					i, l.Name, k, o.Time, o.Offset, o.StdDev, ErrImplausible, MaxOffsetStdDev, maxSD)
			}
			if k == 0 {
				continue
			}
			p := l.Offsets[k-1]
			dt, do := float64(o.Time)-float64(p.Time), float64(o.Offset)-float64(p.Offset)
			noise := noise + float64(max(p.RTT, 0))/2 + float64(max(o.RTT, 0))/2
			if dt > 0 && math.Abs(do) > MaxDrift*dt+noise {
				return fmt.Errorf("location %d (%s): clock offset records %d and %d (offsets %d and %d at local times %d and %d): %w: they imply a clock drift of %.3g ppm, and clc refuses more than %g ppm (real clocks drift by at most some hundred ppm) beyond a measurement error of %v",
					i, l.Name, k-1, k, p.Offset, o.Offset, p.Time, o.Time, ErrImplausible, math.Abs(do/dt)*1e6, MaxDrift*1e6, OffsetNoise)
			}
		}
	}
	return nil
}

// ErrSameTime reports two measurements taken at the same local time, which
// the OTF2 reader also rejects.
var ErrSameTime = errors.New("two clock offsets at the same time")

// New builds the correction for one location's measurements, which must be
// in ascending order of time. With Interpolate, fewer than two
// measurements give no correction, as in the OTF2 reference reader; the
// other methods apply a single measurement as a constant offset.
func New(offs []trace.ClockOffset, m Method) (*Func, error) {
	for k := 1; k < len(offs); k++ {
		if offs[k].Time == offs[k-1].Time {
			return nil, fmt.Errorf("%w: measurements %d and %d at local time %d", ErrSameTime, k-1, k, offs[k].Time)
		}
		if offs[k].Time < offs[k-1].Time {
			return nil, fmt.Errorf("clock offsets not in ascending order of time: measurement %d at %d follows %d", k, offs[k].Time, offs[k-1].Time)
		}
	}
	if len(offs) == 1 && m != Interpolate && m != Auto {
		return &Func{segs: []segment{{begin: offs[0].Time, end: offs[0].Time, offset: offs[0].Offset}}}, nil
	}
	if len(offs) < 2 {
		return &Func{}, nil
	}
	if m == Regression && len(offs) > 2 {
		return regression(offs), nil
	}
	f := &Func{segs: make([]segment, len(offs)-1)}
	for k := range f.segs {
		a, b := offs[k], offs[k+1]
		f.segs[k] = segment{
			begin:  a.Time,
			end:    b.Time,
			offset: a.Offset,
			slope:  float64(b.Offset-a.Offset) / float64(b.Time-a.Time),
		}
	}
	return f, nil
}

// regression fits offset = o0 + slope·(t − t0) through all measurements.
func regression(offs []trace.ClockOffset) *Func {
	t0 := offs[0].Time
	var sw, sx, sy, sxx, sxy float64
	for _, o := range offs {
		w := 1.0
		if o.RTT > 0 {
			w = 1 / (float64(o.RTT) * float64(o.RTT))
		}
		x := float64(o.Time - t0)
		y := float64(o.Offset - offs[0].Offset)
		sw += w
		sx += w * x
		sy += w * y
		sxx += w * x * x
		sxy += w * x * y
	}
	den := sw*sxx - sx*sx
	slope := 0.0
	if den != 0 {
		slope = (sw*sxy - sx*sy) / den
	}
	icpt := (sy - slope*sx) / sw
	return &Func{segs: []segment{{
		begin:  t0,
		end:    offs[len(offs)-1].Time,
		offset: offs[0].Offset + int64(math.RoundToEven(icpt)),
		slope:  slope,
	}}}
}

// Equal reports whether f and g are the same correction (the same
// segments).
func (f *Func) Equal(g *Func) bool {
	return f == g || slices.Equal(f.segs, g.segs)
}

// Identity reports whether f changes no time.
func (f *Func) Identity() bool { return len(f.segs) == 0 }

// At returns the reference time of local time t. For a sequence of
// ascending times, use a Cursor, which finds the segment in O(1). A time
// whose reference time is beyond the 64-bit range wraps around; ApplyColumns
// refuses it.
func (f *Func) At(t int64) int64 {
	c := f.Cursor()
	return c.At(t)
}

// Cursor returns a cursor that maps ascending times efficiently.
func (f *Func) Cursor() Cursor { return Cursor{f: f} }

// Cursor maps times through a Func, remembering the segment of the last
// time, as the OTF2 reader does: times that go backwards are mapped with the
// remembered segment (the reference reader assumes ascending times too).
type Cursor struct {
	f *Func
	k int
}

// At returns the reference time of local time t (wrapped around when it is
// beyond the 64-bit range: see Map).
func (c *Cursor) At(t int64) int64 {
	v, _ := c.Map(t)
	return v
}

// Map returns the reference time of local time t, and false when it is
// beyond the 64-bit range (then the value is meaningless).
func (c *Cursor) Map(t int64) (int64, bool) {
	segs := c.f.segs
	if len(segs) == 0 {
		return t, true
	}
	for c.k+1 < len(segs) && t > segs[c.k].end {
		c.k++
	}
	s := &segs[c.k]
	// diff is computed as the reference reader does: exact integer
	// difference converted to double.
	var diff float64
	if t >= s.begin {
		diff = float64(uint64(t - s.begin))
	} else {
		diff = -float64(uint64(s.begin - t))
	}
	d := math.RoundToEven(s.slope * diff)
	if !(d > -0x1p63 && d < 0x1p63) { // also NaN
		return 0, false
	}
	return add3(t, s.offset, int64(d))
}

// add3 returns a+b+c, and whether the exact sum is within the 64-bit
// range (intermediate wraps that cancel are fine: the arithmetic is modulo
// 2^64).
func add3(a, b, c int64) (int64, bool) {
	wraps := 0
	s := a + b
	if b > 0 && s < a {
		wraps++
	} else if b < 0 && s > a {
		wraps--
	}
	r := s + c
	if c > 0 && r < s {
		wraps++
	} else if c < 0 && r > s {
		wraps--
	}
	return r, wraps == 0
}

// processFuncs gives all locations of a process one correction — the
// threads of a process read one clock — that of its first location with
// one (the master thread: Score-P writes the same measurements for every
// location of a process, so this changes nothing for its traces).
func processFuncs(t *trace.Trace, funcs []*Func) {
	if len(t.Processes) == 0 {
		return
	}
	lead := make([]*Func, len(t.Processes))
	for li := range t.Locations {
		p := t.ProcessOf(li)
		if lead[p] == nil && !funcs[li].Identity() {
			lead[p] = funcs[li]
		}
	}
	for li := range t.Locations {
		if f := lead[t.ProcessOf(li)]; f != nil {
			funcs[li] = f
		}
	}
}

// groupFuncs replaces funcs by one correction per group of locations
// (group[li]; see Node): the group of location 0 takes location 0's, every
// other group one from all its locations' measurements, averaged per
// epoch.
func groupFuncs(t *trace.Trace, group []int32, funcs []*Func) error {
	if len(t.Locations) == 0 {
		return nil
	}
	ref := group[0]
	byGroup := map[int32][]int{}
	for i := range t.Locations {
		byGroup[group[i]] = append(byGroup[group[i]], i)
	}
	for g, locs := range byGroup {
		var f *Func
		if g == ref {
			f = funcs[0]
		} else {
			var all []trace.ClockOffset
			for _, i := range locs {
				all = append(all, t.Locations[i].Offsets...)
			}
			pts := epochs(all)
			var err error
			if f, err = New(pts, Node); err != nil {
				return fmt.Errorf("locations %v: %w", locs, err)
			}
		}
		for _, i := range locs {
			funcs[i] = f
		}
	}
	return nil
}

// epochs groups measurements that are close in time (a gap of more than
// 1 % of their whole span, and at least 1000 ticks, separates two epochs)
// and returns one point per epoch: the 1/RTT²-weighted means of time and
// offset (1/StdDev² where the RTT is unknown, equal weights where both
// are).
func epochs(m []trace.ClockOffset) []trace.ClockOffset {
	if len(m) == 0 {
		return nil
	}
	m = append([]trace.ClockOffset(nil), m...)
	sort.Slice(m, func(a, b int) bool { return m[a].Time < m[b].Time })
	gap := max((m[len(m)-1].Time-m[0].Time)/100, 1000)
	var out []trace.ClockOffset
	for lo := 0; lo < len(m); {
		hi := lo + 1
		for hi < len(m) && m[hi].Time-m[hi-1].Time <= gap {
			hi++
		}
		var sw, st, so float64
		t0, o0 := m[lo].Time, m[lo].Offset
		minRTT := int64(0)
		for _, x := range m[lo:hi] {
			w := 1.0
			switch {
			case x.RTT > 0:
				w = 1 / (float64(x.RTT) * float64(x.RTT))
				if minRTT == 0 || x.RTT < minRTT {
					minRTT = x.RTT
				}
			case x.StdDev > 0:
				// Below a millionth of a tick, as good as exact: the
				// weight stays finite.
				sd := max(x.StdDev, 1e-6)
				w = 1 / (sd * sd)
			}
			sw += w
			st += w * float64(x.Time-t0)
			so += w * float64(x.Offset-o0)
		}
		out = append(out, trace.ClockOffset{
			Time:   t0 + int64(math.RoundToEven(st/sw)),
			Offset: o0 + int64(math.RoundToEven(so/sw)),
			RTT:    minRTT,
		})
		lo = hi
	}
	// Two epochs whose mean times round to the same tick would be an
	// error for New; merge such neighbours by keeping the first.
	k := 0
	for i := range out {
		if k > 0 && out[i].Time <= out[k-1].Time {
			continue
		}
		out[k] = out[i]
		k++
	}
	return out[:k]
}

// Resolve returns the method Auto stands for with trace t, or m itself.
func Resolve(t *trace.Trace, m Method) Method {
	if m != Auto {
		return m
	}
	if t.Properties[trace.PropClockDomain] == "node" {
		return Node
	}
	return Interpolate
}

// Funcs returns the correction of every location that Apply with method m
// would make, from the trace's clock-offset measurements, without changing
// the trace. With Node, the locations of a node share one *Func; otherwise
// those of a process share their first location's with measurements.
// Domain needs the domains: FuncsGrouped.
func Funcs(t *trace.Trace, m Method) ([]*Func, error) {
	m = Resolve(t, m)
	if m == Domain {
		return nil, errors.New("pre-synchronisation by clock domain needs the domains (FuncsGrouped)")
	}
	var group []int32
	if m == Node {
		group = make([]int32, len(t.Locations))
		for i, l := range t.Locations {
			group[i] = l.Node
		}
	}
	return funcs(t, m, group)
}

// FuncsGrouped is Funcs with method Domain: the locations of each group
// (group[li], e.g. the clock model's domains) share one correction built
// from all their measurements, the group of location 0 location 0's.
func FuncsGrouped(t *trace.Trace, group []int32) ([]*Func, error) {
	if len(group) != len(t.Locations) {
		return nil, fmt.Errorf("%d groups for %d locations", len(group), len(t.Locations))
	}
	return funcs(t, Domain, group)
}

// funcs builds the corrections: each location's own, then pooled by group
// when group is not nil, else shared within each process.
func funcs(t *trace.Trace, m Method, group []int32) ([]*Func, error) {
	if err := checkOffsets(t); err != nil {
		return nil, err
	}
	funcs := make([]*Func, len(t.Locations))
	for i, l := range t.Locations {
		lm := m
		if lm == Node || lm == Domain {
			lm = Interpolate
		}
		f, err := New(l.Offsets, lm)
		if err != nil {
			return nil, fmt.Errorf("location %d (%s): %w", i, l.Name, err)
		}
		funcs[i] = f
	}
	if group != nil {
		if err := groupFuncs(t, group, funcs); err != nil {
			return nil, err
		}
	} else {
		processFuncs(t, funcs)
	}
	return funcs, nil
}

// Measured returns, per location of t, the reference times of its
// clock-offset measurements under funcs (Funcs of t): where the
// pre-synchronised time axis puts them (nil for a location without
// measurements).
func Measured(t *trace.Trace, funcs []*Func) [][]int64 {
	m := make([][]int64, len(t.Locations))
	for i, l := range t.Locations {
		for _, o := range l.Offsets {
			m[i] = append(m[i], funcs[i].At(o.Time))
		}
	}
	return m
}

// Options configures Apply.
type Options struct {
	Method Method
	// Parallel is the number of locations corrected at once; 0 = GOMAXPROCS.
	Parallel int
}

// Apply replaces every event time of every location by its reference time
// and removes the consumed offset measurements. The locations of one
// process (its threads, and its accelerator and metric streams) share one
// clock and get one correction: with Interpolate and Regression, that of
// the first location of the process that has measurements; with Node, the
// node's. It returns the number of locations that got a correction (not
// the identity).
func Apply(t *trace.Trace, opt *Options) (int, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	o.Parallel = par.Workers(o.Parallel)
	funcs, err := Funcs(t, o.Method)
	if err != nil {
		return 0, err
	}
	times := make([][]int64, len(t.Locations))
	for i, l := range t.Locations {
		times[i] = l.Events.Time
		l.Offsets = nil
	}
	return ApplyColumns(context.Background(), funcs, times, o.Parallel)
}

// ApplyColumns replaces every time of times[li] by its reference time
// under funcs[li], in place, on up to parallel goroutines (0: GOMAXPROCS),
// and returns the number of locations that had a correction. A reference
// time beyond the 64-bit range is an error (a *trace.EventError naming
// the location and the event, wrapping ErrOverflow); the times are then
// partly corrected. It stops when ctx is cancelled.
func ApplyColumns(ctx context.Context, funcs []*Func, times [][]int64, parallel int) (int, error) {
	n, _, _, err := ApplyComparing(ctx, funcs, nil, times, parallel)
	return n, err
}

// ApplyComparing is ApplyColumns that also compares, in the same pass, the
// correction it applies with another one, reader (ReaderFuncs; nil: no
// comparison): per location, how the applied times depart from the
// reader's (a location whose two corrections are Equal gets the zero
// Departure), and their sums.
func ApplyComparing(ctx context.Context, funcs, reader []*Func, times [][]int64, parallel int) (int, []Departure, DepartureStats, error) {
	parallel = par.Workers(parallel)
	n := 0
	for _, f := range funcs {
		if !f.Identity() {
			n++
		}
	}
	var deps []Departure
	stats := make([]DepartureStats, len(funcs))
	if reader != nil {
		deps = make([]Departure, len(funcs))
	}
	errs := make([]error, len(funcs))
	err := par.Do(ctx, len(funcs), parallel, func(i int) error {
		f := funcs[i]
		cmp := reader != nil && !f.Equal(reader[i])
		if f.Identity() && !cmp {
			return nil
		}
		ts := times[i]
		c := f.Cursor()
		var cr Cursor
		var d *Departure
		var st *DepartureStats
		if cmp {
			cr, d, st = reader[i].Cursor(), &deps[i], &stats[i]
		}
		for j, v := range ts {
			if j&cancelEvery == cancelEvery {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			r, ok := c.Map(v)
			if !ok {
				errs[i] = &trace.EventError{Location: i, Event: j, Err: fmt.Errorf("%w: local time %d", ErrOverflow, v)}
				return nil // the first location's error is reported, whichever fails first
			}
			if cmp {
				d.add(j, r-cr.At(v), st)
			}
			ts[j] = r
		}
		return nil
	})
	if err != nil {
		return 0, nil, DepartureStats{}, err
	}
	for _, e := range errs {
		if e != nil {
			return 0, nil, DepartureStats{}, e
		}
	}
	var sum DepartureStats
	for _, s := range stats {
		sum.Events += s.Events
		sum.MaxLater = max(sum.MaxLater, s.MaxLater)
		sum.MaxEarlier = max(sum.MaxEarlier, s.MaxEarlier)
	}
	return n, deps, sum, nil
}

// add records that event j departs by x ticks.
func (d *Departure) add(j int, x int64, s *DepartureStats) {
	if x != 0 {
		s.Events++
		s.MaxLater = max(s.MaxLater, x)
		s.MaxEarlier = max(s.MaxEarlier, -x)
	}
	if k := len(d.D); (k == 0 && x != 0) || (k > 0 && d.D[k-1] != x) {
		d.From = append(d.From, j)
		d.D = append(d.D, x)
	}
}

// cancelEvery+1 is the number of events ApplyColumns maps between two
// looks at its context (a few hundred microseconds).
const cancelEvery = 1<<16 - 1

// ErrOverflow is wrapped by ApplyColumns' error about a time whose
// correction by the clock offsets leaves the 64-bit range.
var ErrOverflow = errors.New("the clock offsets map the time beyond the 64-bit range (the offset records are wrong)")

// ReaderFuncs returns the correction the OTF2 reference reader applies to
// each location of t: the piecewise-linear interpolation of the location's
// own measurements (Interpolate, without sharing within a process). It is
// what a reader of the input shows, against which ApplyComparing measures a
// pre-synchronisation.
func ReaderFuncs(t *trace.Trace) ([]*Func, error) {
	funcs := make([]*Func, len(t.Locations))
	for i, l := range t.Locations {
		f, err := New(l.Offsets, Interpolate)
		if err != nil {
			return nil, fmt.Errorf("location %d (%s): %w", i, l.Name, err)
		}
		funcs[i] = f
	}
	return funcs, nil
}

// Departure is how one location's pre-synchronised times depart from the
// times the reader's interpolation gives the same events: pre-synchronised
// − reader's time, in ticks, constant over runs of consecutive events (it
// changes slowly: two corrections of one clock differ by measurement noise
// and a small slope). Run k covers the events from From[k] to From[k+1]−1
// (the last to the end) with difference D[k]; the zero Departure is 0 for
// every event.
type Departure struct {
	From []int
	D    []int64
}

// At returns the difference of event j; for ascending j use a loop over the
// runs instead.
func (d *Departure) At(j int) int64 {
	k := sort.Search(len(d.From), func(k int) bool { return d.From[k] > j }) - 1
	if k < 0 {
		return 0
	}
	return d.D[k]
}

// DepartureStats sums the Departures of ApplyComparing: the events whose pre-synchronised time
// differs from the reader's, and the largest differences later and earlier,
// in ticks.
type DepartureStats struct {
	Events     int64
	MaxLater   int64
	MaxEarlier int64
}
