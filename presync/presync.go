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
	"errors"
	"fmt"
	"math"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/clc-tools/clc/trace"
)

// Method selects how measurements become a correction.
type Method uint8

const (
	// Interpolate is OTF2's piecewise-linear interpolation (the default).
	Interpolate Method = iota
	// Regression fits one line through all measurements by weighted least
	// squares, each weighted by 1/RTT² (equal weights where the RTT is
	// unknown): robust against one poor measurement when there are more
	// than two (periodic re-measurement).
	Regression
)

// String returns the method's flag name.
func (m Method) String() string {
	switch m {
	case Interpolate:
		return "interpolate"
	case Regression:
		return "regression"
	}
	return fmt.Sprintf("method(%d)", uint8(m))
}

// ParseMethod parses a method's flag name.
func ParseMethod(s string) (Method, error) {
	switch s {
	case "interpolate", "linear", "otf2":
		return Interpolate, nil
	case "regression":
		return Regression, nil
	}
	return 0, fmt.Errorf("unknown pre-synchronisation method %q (want interpolate or regression)", s)
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

// ErrSameTime reports two measurements taken at the same local time, which
// the OTF2 reader also rejects.
var ErrSameTime = errors.New("two clock offsets at the same time")

// New builds the correction for one location's measurements, which must be
// in ascending order of time.
func New(offs []trace.ClockOffset, m Method) (*Func, error) {
	for k := 1; k < len(offs); k++ {
		if offs[k].Time == offs[k-1].Time {
			return nil, fmt.Errorf("%w: measurements %d and %d at local time %d", ErrSameTime, k-1, k, offs[k].Time)
		}
		if offs[k].Time < offs[k-1].Time {
			return nil, fmt.Errorf("clock offsets not in ascending order of time: measurement %d at %d follows %d", k, offs[k].Time, offs[k-1].Time)
		}
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

// Identity reports whether f changes no time.
func (f *Func) Identity() bool { return len(f.segs) == 0 }

// At returns the reference time of local time t. For a sequence of
// ascending times, use a Cursor, which finds the segment in O(1).
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

// At returns the reference time of local time t.
func (c *Cursor) At(t int64) int64 {
	segs := c.f.segs
	if len(segs) == 0 {
		return t
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
	return t + s.offset + int64(math.RoundToEven(s.slope*diff))
}

// Options configures Apply.
type Options struct {
	Method Method
	// Parallel is the number of locations corrected at once; 0 = GOMAXPROCS.
	Parallel int
}

// Apply replaces every event time of every location by its reference time
// and removes the consumed offset measurements. It returns the number of
// locations that had a correction (two or more measurements).
func Apply(t *trace.Trace, opt *Options) (int, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	if o.Parallel <= 0 {
		o.Parallel = runtime.GOMAXPROCS(0)
	}
	funcs := make([]*Func, len(t.Locations))
	n := 0
	for i, l := range t.Locations {
		f, err := New(l.Offsets, o.Method)
		if err != nil {
			return 0, fmt.Errorf("location %d (%s): %w", i, l.Name, err)
		}
		funcs[i] = f
		if !f.Identity() {
			n++
		}
	}
	var g errgroup.Group
	g.SetLimit(o.Parallel)
	for i, l := range t.Locations {
		f := funcs[i]
		l.Offsets = nil
		if f.Identity() {
			continue
		}
		g.Go(func() error {
			c := f.Cursor()
			ts := l.Events.Time
			for j, v := range ts {
				ts[j] = c.At(v)
			}
			return nil
		})
	}
	return n, g.Wait()
}
