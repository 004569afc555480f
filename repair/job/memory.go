package job

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/memlimit"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/trace"
)

// MaxParallel bounds Options.Parallel: 1,024 or the number of CPUs if
// more. Every worker costs memory of its own whatever the trace.
func MaxParallel() int { return max(1024, runtime.NumCPU()) }

// Bytes a run holds at its peak, per event and per location, measured as
// the largest resident set of clc-correct on 10^7-event traces (64
// locations; docs/performance.md): a correction that rewrites its input
// from the time columns, and what --truth (the true times, read whole),
// --html (the pre-synchronised times kept for the plots) and --format
// perfetto (every event whole) add.
const (
	bytesPerEvent         = 32
	truthBytesPerEvent    = 24
	htmlBytesPerEvent     = 12
	perfettoBytesPerEvent = 20
	bytesPerLocation      = 4 << 10
	// dividedBytesPerEvent is what every process of a divided run holds
	// per event of the whole trace besides its own part's events: the
	// clock model's bounds and fit (which every process estimates alike),
	// the collective instances' members, the halo. Measured with
	// BenchmarkDividedMemory: at P = 4 a process peaks at 0.35–0.37 of
	// the single run on 10^7 events, about 4 bytes per event beside its
	// part; 10 leaves a margin (docs/scale.md).
	dividedBytesPerEvent = 10
)

// MemoryError is Prepare's error for a run that would not fit in memory.
type MemoryError struct {
	Input     string
	Events    int64 // declared by the input; -1: the definitions alone are too large
	Locations int
	Need      int64 // estimated bytes
	Limit     int64 // bytes the process may use
	// In a divided run: this process, the processes, and its part's
	// declared events (Processes 0: one process).
	Process, Processes int
	PartEvents         int64
}

func (e *MemoryError) Error() string {
	if e.Processes > 0 {
		return fmt.Sprintf("input %s declares %d events in %d locations: process %d of %d, whose part holds %d of them, needs about %s of memory, more than the %s it may use (the lowest of its soft memory limit, GOMEMLIMIT, the machine's memory and its control group's limit); refusing before reading the events (more processes make smaller parts)",
			e.Input, e.Events, e.Locations, e.Process, e.Processes, e.PartEvents, size(e.Need), size(e.Limit))
	}
	if e.Events < 0 {
		return fmt.Sprintf("input %s: its global definitions alone need about %s of memory, more than the %s this process may use (the lowest of its soft memory limit, GOMEMLIMIT, the machine's memory and its control group's limit); refusing before reading them",
			e.Input, size(e.Need), size(e.Limit))
	}
	return fmt.Sprintf("input %s declares %d events in %d locations: the run needs about %s of memory, more than the %s this process may use (the lowest of its soft memory limit, GOMEMLIMIT, the machine's memory and its control group's limit); refusing before reading the events",
		e.Input, e.Events, e.Locations, size(e.Need), size(e.Limit))
}

// size formats n bytes in binary units.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}

// checkMemory estimates from the counts the opened input declares, before
// any event is read, the memory the run needs (memoryNeed), and refuses a
// run that needs more than the process may use (opts.MemoryLimit, or
// memlimit.Limit). The readers never hold more events than declared: the
// native reader stops at a block beyond the manifest's count, the OTF2
// reader's bound is its files' sizes.
func checkMemory(in *Input, opts *Options) error {
	limit, ok := memoryLimit(opts)
	if !ok {
		return nil // another operating system: nothing to compare with
	}
	events, locs, extra, err := in.declared()
	if err != nil {
		return err
	}
	need := memoryNeed(events, locs, extra, opts)
	if need > limit {
		return &MemoryError{Input: in.Path, Events: events, Locations: locs, Need: need, Limit: limit}
	}
	return nil
}

// checkDefinitions refuses, before they are read, an OTF2 archive's global
// definitions that alone would take more memory than the process may use
// (opts.MemoryLimit, or memlimit.Limit; otf.DefinitionMemory).
func checkDefinitions(in *Input, opts *Options) error {
	if in.Format != FormatOTF2 {
		return nil
	}
	limit, ok := memoryLimit(opts)
	if !ok {
		return nil // another operating system: nothing to compare with
	}
	st, err := os.Stat(filepath.Join(in.Dir, in.name+".def"))
	if err != nil {
		return nil // the reader says what is wrong
	}
	if need := otf.DefinitionMemory(st.Size()); need > limit {
		return &MemoryError{Input: in.Path, Events: -1, Need: need, Limit: limit}
	}
	return nil
}

// memoryNeed estimates the bytes a run needs for events events in locs
// locations, plus extra bytes of definitions.
func memoryNeed(events int64, locs int, extra int64, opts *Options) int64 {
	per := int64(bytesPerEvent)
	if opts.Truth != "-" {
		per += truthBytesPerEvent // if the input has none, an overestimate
	}
	if opts.HTML != "" {
		per += htmlBytesPerEvent
	}
	if opts.Format == FormatPerfetto {
		per += perfettoBytesPerEvent
	}
	return satAdd(satAdd(satMul(events, per), satMul(int64(locs), bytesPerLocation)), extra)
}

// satAdd is a+b for non-negative a and b, or the largest int64 when that
// overflows.
func satAdd(a, b int64) int64 {
	if a > 1<<63-1-b {
		return 1<<63 - 1
	}
	return a + b
}

// satMul is a*b, or the largest int64 when that overflows.
func satMul(a, b int64) int64 {
	if a > 0 && b > 0 && a > (1<<63-1)/b {
		return 1<<63 - 1
	}
	return a * b
}

// declared returns the events and locations the opened input declares,
// and the bytes of its definitions held in memory besides.
func (in *Input) declared() (events int64, locs int, extra int64, err error) {
	if in.src == nil {
		return 0, 0, 0, nil
	}
	d, err := in.src.Declared()
	if err != nil {
		return 0, 0, 0, fmt.Errorf("input %s: %w", in.Path, err)
	}
	return d.Events, d.Locations, d.HeldBytes, nil
}

// checkPartMemory is checkMemory for one process of a divided run:
// its part's declared events (own), what every process holds of the whole
// trace (dividedBytesPerEvent, the definitions), against the process's limit.
func checkPartMemory(in *Input, opts *Options, d *trace.Declared, own []bool, c comm.Comm) error {
	limit, ok := memoryLimit(opts)
	if !ok {
		return nil // another operating system: nothing to compare with
	}
	var mine int64
	for li, n := range d.LocationEvents {
		if own[li] {
			mine += n
		}
	}
	need := satAdd(memoryNeed(mine, d.Locations, d.HeldBytes, opts), satMul(d.Events, dividedBytesPerEvent))
	switch out := opts.Format; {
	case c.Rank() != 0 || opts.Check:
	case out == FormatPerfetto:
		// Process 0 reads the trace whole for the export, as one process
		// does (writePerfettoWhole).
		need = max(need, memoryNeed(d.Events, d.Locations, d.HeldBytes, opts))
	case out != "" && out != in.Format || in.Format != FormatOTF2:
		// Process 0 writes a native output or a conversion from every
		// location's corrected times (gatherTimesTo0).
		need = satAdd(need, satMul(d.Events, 8))
	}
	if need > limit {
		return &MemoryError{Input: in.Path, Events: d.Events, Locations: d.Locations, Need: need, Limit: limit,
			Process: c.Rank(), Processes: c.Size(), PartEvents: mine}
	}
	return nil
}

// memoryLimit returns the bytes this process may use: opts.MemoryLimit,
// else memlimit.Limit; ok is false when neither is known (another
// operating system).
func memoryLimit(opts *Options) (int64, bool) {
	if opts.MemoryLimit != 0 {
		return opts.MemoryLimit, true
	}
	return memlimit.Limit()
}
