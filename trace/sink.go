package trace

import (
	"fmt"
	"sync/atomic"
)

// Sink receives a trace location by location with bounded memory: a
// generator or converter appends each location's events in order, in as
// many pieces as it likes, then closes the sink, which writes whatever
// depends on the whole trace (the native manifest, OTF2 definitions).
//
// Append may be called concurrently for different locations, never for the
// same one. The definitions returned by Defs may be changed (offsets added,
// say) until Close; their events are ignored.
type Sink interface {
	Defs() *Trace
	Append(loc int, ev *Events) error
	Close() error
}

// RangedSink is a Sink that writes ranges of consecutive locations into
// shared files as their Appends come, so that its bytes depend on the order
// of the Appends within each range (and only on that). A caller that
// appends each range's locations in the same order every time — from one
// goroutine at a time, in location order, say — gets the same bytes
// whatever the scheduling.
type RangedSink interface {
	Sink
	// Ranges returns the bounds of the ranges, b[0] = 0 < b[1] < … < b[k]
	// = the number of locations (range i is [b[i], b[i+1])), or nil if the
	// order of the Appends never matters.
	Ranges() []int
}

// SinkRanges returns s's Ranges if s is a RangedSink, else nil.
func SinkRanges(s Sink) []int {
	if r, ok := s.(RangedSink); ok {
		return r.Ranges()
	}
	return nil
}

// AppendRanges returns the ranges in which a producer of n locations
// appends to s, each range's locations one after another: s's Ranges,
// checked to rise from 0 to n, or, when the order of its Appends never
// matters, one range per location.
func AppendRanges(s Sink, n int) ([]int, error) {
	b := SinkRanges(s)
	if b == nil {
		b = make([]int, n+1)
		for i := range b {
			b[i] = i
		}
		return b, nil
	}
	return b, CheckRanges(b, n)
}

// CheckRanges checks that the bounds b rise from 0 to n.
func CheckRanges(b []int, n int) error {
	if len(b) < 2 || b[0] != 0 || b[len(b)-1] != n {
		return fmt.Errorf("%d bounds do not run from 0 to %d", len(b), n)
	}
	for i := 1; i < len(b); i++ {
		if b[i] <= b[i-1] {
			return fmt.Errorf("bound %d (%d) not above the previous one (%d)", i, b[i], b[i-1])
		}
	}
	return nil
}

// CountingSink counts the events appended to the Sink it wraps, whose
// ranges (SinkRanges) it passes on.
type CountingSink struct {
	Sink
	n atomic.Int64
}

// Append appends ev to location loc of the wrapped sink and counts its
// events.
func (c *CountingSink) Append(loc int, ev *Events) error {
	c.n.Add(int64(ev.Len()))
	return c.Sink.Append(loc, ev)
}

// Events returns the number of events appended so far.
func (c *CountingSink) Events() int64 { return c.n.Load() }

// Ranges returns the wrapped sink's ranges.
func (c *CountingSink) Ranges() []int { return SinkRanges(c.Sink) }
