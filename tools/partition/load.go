package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/internal/scalestudy"
	"github.com/clc-tools/clc/repair/job"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// simulate runs the simulator on cfg in memory and returns the recorded
// trace as a reader would hand it on: of every location the events the
// happened-before relation needs (replay.Needs) and every time. The truth
// is not kept.
func simulate(ctx context.Context, cfg sim.Config, parallel int) (*scalestudy.Loaded, error) {
	t0, c0 := time.Now(), scalestudy.CPUSeconds()
	defs, err := sim.Definitions(cfg)
	if err != nil {
		return nil, err
	}
	truth, err := sim.TruthDefinitions(cfg)
	if err != nil {
		return nil, err
	}
	s := newSelectSink(defs)
	if err := sim.Run(cfg, s, discard{truth}); err != nil {
		return nil, err
	}
	l := &scalestudy.Loaded{Defs: defs, Times: s.times, Read: time.Since(t0), ReadCPU: scalestudy.CPUSeconds() - c0}
	t0, c0 = time.Now(), scalestudy.CPUSeconds()
	m := replay.NewMatcher(defs, nil)
	par.ForEach(len(defs.Locations), parallel, func(li int) {
		m.Scan(li, &s.sel[li])
		s.sel[li] = trace.Events{}
	})
	if l.Graph, err = m.Finish(ctx); err != nil {
		return nil, fmt.Errorf("matching the simulated trace: %w", err)
	}
	l.Match, l.MatchCPU = time.Since(t0), scalestudy.CPUSeconds()-c0
	return l, nil
}

// selectSink keeps of every location the events the happened-before
// relation needs, as a selection, and every time in a column.
type selectSink struct {
	defs  *trace.Trace
	sel   []trace.Events
	sels  []*trace.Selector
	times [][]int64
}

func newSelectSink(defs *trace.Trace) *selectSink {
	n := len(defs.Locations)
	s := &selectSink{defs: defs, sel: make([]trace.Events, n), sels: make([]*trace.Selector, n), times: make([][]int64, n)}
	keep := replay.Needs(defs)
	for li := range s.sels {
		s.sels[li] = trace.NewSelector(keep, &s.sel[li])
	}
	return s
}

func (s *selectSink) Defs() *trace.Trace { return s.defs }

func (s *selectSink) Append(loc int, ev *trace.Events) error {
	base := len(s.times[loc])
	if base+ev.Len() > trace.MaxEvents {
		return fmt.Errorf("location %d: more than %d events", loc, uint32(trace.MaxEvents))
	}
	for i := range ev.Kind {
		s.sels[loc].Add(ev, i, uint32(base+i))
	}
	s.times[loc] = append(s.times[loc], ev.Time...)
	return nil
}

func (s *selectSink) Close() error { return nil }

// discard is a sink that keeps nothing.
type discard struct{ defs *trace.Trace }

func (d discard) Defs() *trace.Trace            { return d.defs }
func (discard) Append(int, *trace.Events) error { return nil }
func (discard) Close() error                    { return nil }

// read reads the trace at path (OTF2 or native) as clc-correct does: of
// every location the events the happened-before relation needs, scanned
// by the matcher as soon as the location is read, and every time.
func read(ctx context.Context, path string, parallel int) (*scalestudy.Loaded, error) {
	t0, c0 := time.Now(), scalestudy.CPUSeconds()
	in, err := job.Open(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	tr, times, m, err := in.ReadMatched(ctx, parallel, nil)
	if err == nil {
		err = tr.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("input %s: %w", path, err)
	}
	if m == nil {
		return nil, errors.New("input " + path + ": the trace has no locations")
	}
	l := &scalestudy.Loaded{Defs: tr, Times: times, Read: time.Since(t0), ReadCPU: scalestudy.CPUSeconds() - c0}
	t0, c0 = time.Now(), scalestudy.CPUSeconds()
	if l.Graph, err = m.Finish(ctx); err != nil {
		return nil, fmt.Errorf("input %s: %w", path, err)
	}
	l.Match, l.MatchCPU = time.Since(t0), scalestudy.CPUSeconds()-c0
	return l, nil
}
