package trace

import (
	"context"
	"fmt"

	"github.com/clc-tools/clc/internal/par"
)

// ReadOptions control the reads of a Source. The zero value (or nil) is
// fine.
type ReadOptions struct {
	// Parallel is the number of locations read at once; 0 (or less)
	// means GOMAXPROCS.
	Parallel int
	// Done, if not nil, is called as soon as location li has been read
	// (concurrently for different locations), with the trace being read:
	// its definitions are complete, and the location's events may be
	// taken and emptied (replay.Matcher scans them so). An error stops
	// the reading and is returned.
	Done func(t *Trace, li int) error
	// Locations, if not nil, chooses the locations a read reads: it is
	// called once with the definitions, before any event is read, and
	// returns whether to read each location (a slice as long as the
	// definitions' locations). The others are left without events (and
	// ReadSelected without their time columns); Done is not called for
	// them. One process of several that divide a trace reads its part so.
	Locations func(defs *Trace) ([]bool, error)
}

// Chosen returns which locations of defs a read reads (Locations), or nil
// when it reads them all.
func (o *ReadOptions) Chosen(defs *Trace) ([]bool, error) {
	if o == nil || o.Locations == nil {
		return nil, nil
	}
	own, err := o.Locations(defs)
	if err != nil {
		return nil, err
	}
	if len(own) != len(defs.Locations) {
		return nil, fmt.Errorf("trace: %d locations chosen of %d", len(own), len(defs.Locations))
	}
	return own, nil
}

// Workers returns the number of locations read at once: Parallel, or
// GOMAXPROCS when o is nil or Parallel is not positive.
func (o *ReadOptions) Workers() int {
	if o == nil {
		return par.Workers(0)
	}
	return par.Workers(o.Parallel)
}

// Declared is what a Source declares before any event is read: enough to
// estimate the memory a read takes.
type Declared struct {
	// Events is at most the number of events a read holds.
	Events int64
	// Locations is the number of locations.
	Locations int
	// LocationEvents is at most the number of events of each location
	// (Events is their sum).
	LocationEvents []int64
	// HeldBytes are the bytes a reader or a writer of the source's
	// format holds in memory besides the events (definitions, carried
	// data).
	HeldBytes int64
}

// Source is a trace opened for reading in a file format: the reader
// counterpart of Sink. native.DirReader and otf.Archive implement it.
//
// A Source is read once, by Read or ReadSelected (a native directory
// fills its definitions with the events); CopyTo may follow, any number
// of times.
type Source interface {
	// Files returns the files the trace is made of, relative to its
	// directory and slash-separated.
	Files() []string
	// Declared returns what the trace declares before any event is read.
	Declared() (Declared, error)
	// Read reads the whole trace.
	Read(ctx context.Context, opt *ReadOptions) (*Trace, error)
	// ReadSelected reads of every location only the events needs keeps,
	// and every event's time in a column of its own.
	ReadSelected(ctx context.Context, opt *ReadOptions, needs func(defs *Trace) func(Kind, uint32) bool) (*Trace, [][]int64, error)
	// CopyTo streams every event into sink, a location at a time, with
	// the times times (one column per location, as ReadSelected returns
	// them).
	CopyTo(ctx context.Context, sink Sink, times [][]int64, opt *ReadOptions) error
	// Close releases what the source holds open. It can be read again
	// afterwards only if its format says so.
	Close() error
}
