// Package htmlreport makes clc-correct's HTML report: one self-contained
// page (inline SVG and CSS, no script, no network access) that shows the
// clock error of every clock domain over time as pre-synchronisation
// assumed it, as the correction estimated it and, when known, as it was;
// the clock-condition violations before and after by pair of nodes; the
// distribution of the shifts; the fidelity of the local intervals (Table 4
// of Becker et al. 2009); and the parameters and method used.
//
// Build aggregates (quantile bands over domains per time bin, a handful of
// the worst domains, node groups), so the page stays small and quick to
// make for 65,536 ranks. It works on plain inputs (times per location, the
// happened-before relation, the report's figures as text), so it does not
// depend on the pipeline that produced them.
package htmlreport

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/par"

	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Input is what the page is made from. Times are per location, in ticks of
// Trace.Resolution, index-aligned with the trace's events.
type Input struct {
	// Title heads the page (the input's path).
	Title string
	// Trace gives the definitions: resolution, nodes, locations (names and
	// nodes), communicators. Its event times are not read.
	Trace *trace.Trace
	// Presync are the pre-synchronised times (the correction's input);
	// Corrected the times after the correction.
	Presync, Corrected [][]int64
	// Truth are the true times, or nil when unknown.
	Truth [][]int64
	// Graph is the happened-before relation; Latency the minimum latencies
	// in ticks the violations are counted with.
	Graph   *replay.Graph
	Latency replay.Latency
	// Domains says which locations share a clock.
	Domains Domains
	// PresyncFuncs are the pre-synchronisation's per-location corrections
	// (presync.Funcs), or nil when not known; Measured are, per location,
	// the pre-synchronised times of its clock-offset measurements (marked
	// on the chart: outside them the corrections are extrapolated).
	PresyncFuncs []*presync.Func
	Measured     [][]int64
	// Estimates are further estimates of the error left in the
	// pre-synchronised times (a clock model's), on any bins: they are
	// resampled onto the page's.
	Estimates []*ClockError
	// Fidelity is measure.IntervalFidelity(Presync, Corrected) (event position,
	// event distance), or nil to compute it.
	Fidelity *[2]measure.Fidelity
	// CheckOnly says that nothing was written: the page shows what the
	// correction would do.
	CheckOnly bool
	// Summary are the headline figures; Sections the parameters, the
	// method and the other facts of the run, shown as tables; Notes are
	// remarks (truncation, streams cut short, …).
	Summary  []Fact
	Sections []Section
	Notes    []string
	// Group, when not nil, divides the page among its processes: each
	// holds the times of the locations Own marks (of the others nil, or
	// the halo: the other ends of the messages its locations receive and
	// of the collective instances Counted marks, in Graph renumbered to
	// them, as repair.View gives), and Build, called by every process,
	// completes the counts over the group; process 0 gets the page, the
	// others nil. Fidelity must then be given (the whole trace's).
	Group   *comm.Group
	Own     []bool
	Counted []bool
	// Parallel bounds the goroutines; 0 = GOMAXPROCS.
	Parallel int
}

// Fact is one headline figure.
type Fact struct {
	Label, Value, Note string
	// Bad marks a figure a reader should look at (violations left, issues).
	Bad bool
}

// Section is one table of facts.
type Section struct {
	Title string
	Rows  []Row
}

// Row is one line of a Section.
type Row struct{ Key, Value, Note string }

// Options tune the aggregation.
type Options struct {
	// Bins is the number of time bins (0: 100, or 50 above 4,096 domains).
	Bins int
	// Groups is the largest number of rows and columns of the violation
	// matrix (0: 32).
	Groups int
	// Lines is the largest number of domains drawn one line each; above it
	// the page draws quantile bands and Highlight worst domains (0: 8, 4).
	Lines, Highlight int
}

func (o *Options) defaults(domains int) Options {
	var r Options
	if o != nil {
		r = *o
	}
	if r.Bins <= 0 {
		r.Bins = 100
		if domains > 4096 {
			r.Bins = 50
		}
	}
	if r.Groups <= 0 {
		r.Groups = 32
	}
	if r.Lines <= 0 {
		r.Lines = 8
	}
	if r.Highlight <= 0 {
		r.Highlight = 4
	}
	return r
}

// Page is the aggregated content of the report, ready to be written.
type Page struct {
	in   *Input // titles, facts, sections (not the times)
	opts Options
	res  uint64
	bins Bins
	// domains
	domainNames []string
	domainUnit  string
	lines       bool  // one line per domain instead of bands
	highlight   []int // domains drawn as lines over the bands
	// clock errors: the assumed one (may be nil) and the estimates of the
	// error left in the pre-synchronised times
	assumed   *curves
	estimates []*curves
	measured  []int64 // clock-offset measurements per bin
	// violations
	groups        Groups
	before, after *PairCounts
	shifts        Shifts
	fidelity      [2]measure.Fidelity
	// Elapsed is the time Build took.
	Elapsed time.Duration
}

// curves is one estimate, reduced for drawing.
type curves struct {
	source string
	band   band        // when !lines
	rows   [][]float64 // per drawn domain (all when lines, else highlight)
	// bars are the rows' error bars (nil without them).
	bars  [][]float64
	empty bool // no value at all
	zero  bool // every value is 0
}

// Build aggregates in for the page.
func Build(ctx context.Context, in *Input, opt *Options) (*Page, error) {
	start := time.Now()
	if err := in.check(); err != nil {
		return nil, err
	}
	np := par.Workers(in.Parallel)
	nd := len(in.Domains.Names)
	o := opt.defaults(nd)
	t := in.Trace
	p := &Page{in: in, opts: o, res: t.Resolution, domainNames: in.Domains.Names, domainUnit: in.Domains.Unit}
	g := in.Group
	if g != nil && in.Fidelity == nil {
		return nil, errors.New("html report: a divided page needs the fidelity measured over the whole trace")
	}
	lo, hi, _ := SpanDivided(g, in.Presync, in.Own)
	p.bins = NewBins(lo, hi, o.Bins)

	// What the processes of a divided page count and complete first (the
	// same operations in the same order on each); then the rest on
	// process 0 alone.
	var ests []*ClockError
	mean := func(source string, y [][]int64) {
		s := eventSums(in.Presync, in.Presync, y, in.Own, in.Domains, p.bins, np)
		s.gatherTo0(g)
		ests = append(ests, s.clockError(source, p.res))
	}
	if in.Truth != nil {
		mean("truth", in.Truth) // pre-synchronised − true time
	}
	mean("correction", in.Corrected) // pre-synchronised − corrected time
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Violations by pair of groups, before and after.
	p.groups = MakeGroups(t, o.Groups)
	node := make([]int32, len(t.Locations))
	for i, l := range t.Locations {
		node[i] = l.Node
	}
	cc := measure.ClockCondition{Graph: in.Graph, Node: node, Latency: in.Latency, Parallel: np, Counted: in.Counted}
	var err error
	if p.before, err = countPairs(ctx, cc, in.Presync, in.Presync, in.Own, &p.groups, p.bins); err != nil {
		return nil, err
	}
	p.before.reduce(g, "the violations before by pair of groups")
	if p.after, err = countPairs(ctx, cc, in.Corrected, in.Presync, in.Own, &p.groups, p.bins); err != nil {
		return nil, err
	}
	p.after.reduce(g, "the violations after by pair of groups")
	p.shifts = countShifts(in.Presync, in.Corrected, in.Own, np)
	p.shifts.reduce(g)
	if err := g.Err(); err != nil {
		return nil, err
	}
	if g.Rank() != 0 {
		return nil, nil
	}

	// Clock errors.
	for _, e := range in.Estimates {
		ests = append(ests, resample(e, p.bins))
	}
	var assumed *ClockError
	if in.PresyncFuncs != nil {
		assumed = AssumedError(in.PresyncFuncs, in.Domains, p.bins, p.res)
	}
	p.lines = nd <= o.Lines
	if !p.lines {
		// The worst domains by the truth, else by the correction, else by
		// the assumed clock error.
		for _, e := range append(ests, assumed) {
			if e != nil && len(p.highlight) == 0 {
				p.highlight = worst(e, o.Highlight)
			}
		}
	}
	for _, e := range ests {
		p.estimates = append(p.estimates, p.reduce(e, np))
	}
	if assumed != nil {
		p.assumed = p.reduce(assumed, np)
	}
	p.measured = make([]int64, p.bins.N)
	for _, ts := range in.Measured {
		for _, t := range ts {
			p.measured[p.bins.Of(t)]++
		}
	}
	if in.Fidelity != nil {
		p.fidelity = *in.Fidelity
	} else {
		p.fidelity[0], p.fidelity[1] = measure.IntervalFidelity(in.Presync, in.Corrected, np)
	}
	p.Elapsed = time.Since(start)
	return p, ctx.Err()
}

func (in *Input) check() error {
	t := in.Trace
	switch {
	case t == nil:
		return errors.New("html report: no trace")
	case t.Resolution == 0:
		return errors.New("html report: timer resolution 0")
	case in.Graph == nil:
		return errors.New("html report: no happened-before relation")
	case len(in.Presync) != len(t.Locations) || len(in.Corrected) != len(t.Locations):
		return fmt.Errorf("html report: %d pre-synchronised and %d corrected time lists for %d locations", len(in.Presync), len(in.Corrected), len(t.Locations))
	case in.Truth != nil && len(in.Truth) != len(t.Locations):
		return fmt.Errorf("html report: %d true time lists for %d locations", len(in.Truth), len(t.Locations))
	case in.Own != nil && len(in.Own) != len(t.Locations):
		return fmt.Errorf("html report: %d own flags for %d locations", len(in.Own), len(t.Locations))
	case in.PresyncFuncs != nil && len(in.PresyncFuncs) != len(t.Locations):
		return fmt.Errorf("html report: %d pre-synchronisation functions for %d locations", len(in.PresyncFuncs), len(t.Locations))
	}
	for l := range in.Presync {
		n := len(in.Presync[l])
		mine := in.Own == nil || in.Own[l]
		if len(in.Corrected[l]) != n || (in.Truth != nil && mine && len(in.Truth[l]) != n) {
			return fmt.Errorf("html report: location %d: the time lists differ in length", l)
		}
	}
	return in.Domains.check(len(t.Locations))
}

// Span returns the earliest and latest time of times, from each
// location's first and last event (times are nearly ordered after
// pre-synchronisation; bins clamp the rest), and whether any location has
// events. Of a location whose first time is later than its last, both
// count, the earlier as a low and the later as a high: lo ≤ hi always, and
// for sorted columns this is simply the first and the last time.
func Span(times [][]int64) (lo, hi int64, ok bool) {
	for _, ts := range times {
		if len(ts) == 0 {
			continue
		}
		a, b := min(ts[0], ts[len(ts)-1]), max(ts[0], ts[len(ts)-1])
		if !ok || a < lo {
			lo = a
		}
		if !ok || b > hi {
			hi = b
		}
		ok = true
	}
	return lo, hi, ok
}

// reduce keeps what the page draws of an estimate.
func (p *Page) reduce(e *ClockError, np int) *curves {
	c := &curves{source: e.Source, empty: true, zero: true}
	for _, v := range e.Err {
		if !math.IsNaN(v) {
			c.empty = false
			if v != 0 {
				c.zero = false
				break
			}
		}
	}
	keep := func(d int) {
		c.rows = append(c.rows, append([]float64(nil), e.row(d)...))
		if br := e.bandRow(d); br != nil {
			c.bars = append(c.bars, append([]float64(nil), br...))
		}
	}
	if p.lines {
		for d := 0; d < e.Domains(); d++ {
			keep(d)
		}
		return c
	}
	c.band = bandOf(e, np)
	for _, d := range p.highlight {
		keep(d)
	}
	return c
}

// resample puts an estimate on other bins: each new bin takes the value of
// the old bin that holds its middle.
func resample(e *ClockError, bins Bins) *ClockError {
	if e.Bins == bins {
		return e
	}
	nd := e.Domains()
	inside := func(t int64) bool { return t >= e.Bins.Start && t < e.Bins.Start+e.Bins.Width*int64(e.Bins.N) }
	out := SampleError(e.Source, bins, nd, func(d int, t int64) (float64, bool) {
		if !inside(t) {
			return 0, false
		}
		v := e.At(d, e.Bins.Of(t))
		return v, !math.IsNaN(v)
	})
	if e.Band != nil {
		out.Band = make([]float64, len(out.Err))
		for d := range nd {
			for b := range bins.N {
				v := math.NaN()
				if t := bins.Mid(b); inside(t) {
					v = e.Band[d*e.Bins.N+e.Bins.Of(t)]
				}
				out.Band[d*bins.N+b] = v
			}
		}
	}
	return out
}

// Before and After return the violation counts by pair of groups.
func (p *Page) Before() *PairCounts { return p.before }

// After returns the violation counts after the correction.
func (p *Page) After() *PairCounts { return p.after }

// Groups returns the groups of the violation matrix.
func (p *Page) Groups() *Groups { return &p.groups }

// Shifts returns the distribution of the shifts.
func (p *Page) Shifts() *Shifts { return &p.shifts }

// Highlighted returns the domains drawn one line each over the bands (all
// when there are few).
func (p *Page) Highlighted() []int {
	if p.lines {
		h := make([]int, len(p.domainNames))
		for i := range h {
			h[i] = i
		}
		return h
	}
	return p.highlight
}
