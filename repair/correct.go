// Package repair is clc-correct's correction of a trace in memory
// (Correct): pre-synchronisation, matching, the choice of μ, the clock
// model, the controlled logical clock and the measurements, and the report
// of what it did (Report, whose JSON schema docs/report.md documents).
// Reading and writing files is package repair/job's.
package repair

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Trace is a trace in memory as Correct takes it.
//
// TraceOf makes one of a trace whose events are all in memory.
type Trace struct {
	// Defs holds the definitions: locations with their clock offsets,
	// communicators, properties. Its locations' events are used only to
	// match the messages when Graph is nil; their times are Times.
	Defs *trace.Trace
	// Times holds every event's time per location, as recorded; Correct
	// replaces them by the corrected times, in place.
	Times [][]int64
	// Graph is the happened-before relation of the events (replay.Match,
	// or a replay.Matcher fed as the trace was read); nil: Correct matches
	// Defs' events.
	Graph *replay.Graph
	// Truth, if not nil, holds the true time of every event per location
	// (the report then compares with it); TruthName names where it came
	// from.
	Truth     [][]int64
	TruthName string
	// Part gives each location's process when Correction.Comm divides
	// the correction among several (whole nodes per process).
	Part []int32
}

// Correction configures what Correct does with a trace: the options of
// the correction itself, not of where it is read or written.
type Correction struct {
	// Params are the CLC's parameters; nil means clc.DefaultParams. μ in
	// them is the default the clock model may lower (ClockModel).
	Params  *clc.Params
	Presync presync.Method
	// ClockModel selects the method (the clock model, the default, or the
	// pure CLC) and says which latencies the user gave.
	ClockModel ClockModelOptions
	// Alltoallv is how ALLTOALLV/W instances are matched (when Correct
	// matches).
	Alltoallv replay.AlltoallvPolicy
	// Parallel bounds the goroutines of every parallel phase; 0 means
	// GOMAXPROCS (par.Workers).
	Parallel int
	// Progress, if not nil, is told each stage as it starts.
	Progress func(stage string)
	// KeepPresync keeps a copy of the pre-synchronised times and what the
	// pre-synchronisation did in the Result (for the HTML report).
	KeepPresync bool
	// Overlap lets Correct return, with one process, before the final
	// measures (what moved against the pre-synchronised and the input's
	// times, the error bars, the accuracy after) are done: they run on,
	// reading the corrected times, and Result.Wait waits for them and
	// completes the report. The caller may read the times meanwhile (write
	// them), not change them.
	Overlap bool
	// Comm is the group this process corrects the trace with; nil: one
	// process. With several, Trace.Part divides the locations among them:
	// Trace.Times holds this process's locations' columns (the others are
	// not read), Trace.Graph is replay.Matcher.FinishDivided's (the own
	// locations' dependency lists, which Correct renumbers in place into
	// its view of the trace), Trace.Truth the own locations' true times.
	// Each process pre-synchronises, corrects (the CLC divided,
	// clc.Options.Comm) and measures its own locations; the clock model
	// runs on a view with the messages' other ends fetched, its bounds
	// gathered, and every process makes the same estimate (docs/scale.md,
	// section 7). Every process returns the one process's report, bit for
	// bit, and its own locations' corrected times.
	Comm comm.Comm
}

// params returns the CLC's parameters: the caller's or the defaults.
func (c *Correction) params() clc.Params {
	if c.Params == nil {
		return clc.DefaultParams()
	}
	return *c.Params
}

// Result is what Correct did.
type Result struct {
	// Report describes the correction (the input's and output's fields
	// are the caller's to fill).
	Report *Report
	// Latency is the μ the correction used, in ticks.
	Latency replay.Latency
	// Graph is the happened-before relation.
	Graph *replay.Graph
	// Model is the clock model's decision (nil without one).
	Model *clockmodel.Result
	// Domains are the clock domains the clock model saw (nil without it).
	Domains *clockmodel.Domains
	// Fidelity is the fidelity of the local intervals, event position and
	// event distance, that Report.Fidelity gives.
	Fidelity [2]measure.Fidelity
	// With Correction.KeepPresync: the pre-synchronised times, the
	// pre-synchronisation's method, its corrections and the
	// pre-synchronised times of the clock-offset measurements.
	Presync       [][]int64
	PresyncMethod presync.Method
	PresyncFuncs  []*presync.Func
	Measured      [][]int64
	// View, with Correction.KeepPresync in a correction divided among
	// processes, is what this process saw of the trace (nil otherwise).
	View *View

	// wait waits for the final measures (Correction.Overlap), nil when
	// they are done.
	wait func() error
}

// Wait waits for the final measures that Correction.Overlap left running
// and returns their error (the context's, when cancelled); at once when
// none run. The report is complete when it returns.
func (r *Result) Wait() error {
	if r.wait == nil {
		return nil
	}
	return r.wait()
}

// Correct repairs the timestamps of the trace in memory: it
// pre-synchronises t.Times with the clock offsets of t.Defs, matches the messages when t.Graph is nil, chooses μ, runs the
// clock model (by default) and the controlled logical clock, and measures
// the result. The corrected times replace t.Times in place; nothing else
// of t changes (a writer of the corrected times must leave out the clock
// offsets, which they include). It stops at the next stage boundary when
// ctx is cancelled.
func Correct(ctx context.Context, t *Trace, c *Correction) (*Result, error) {
	if c.Comm != nil && c.Comm.Size() > 1 && len(t.Part) != len(t.Times) {
		return nil, fmt.Errorf("a correction divided among %d processes needs the process of each of the %d locations (Trace.Part has %d)", c.Comm.Size(), len(t.Times), len(t.Part))
	}
	np := par.Workers(c.Parallel)
	progress := c.Progress
	if progress == nil {
		progress = func(string) {}
	}
	tr := t.Defs
	rep := &Report{Tool: "clc-correct", ReportVersion: ReportVersion, Resolution: tr.Resolution,
		Locations: len(tr.Locations), Regions: regionsReport(tr)}
	sh := newShare(ctx, c.Comm, t.Part)
	counts := sh.eventCounts(t.Times)
	for _, n := range counts {
		rep.Events += n
	}
	res := &Result{Report: rep}
	empty := emptyIssues(tr, counts)
	backward := backwardIssues(tr, t.Times, np, sh)
	empty.Merge(&backward)
	params := c.params()
	stage := func(name string, timer *float64, run func() error) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		t0 := time.Now()
		progress(name)
		if err := run(); err != nil {
			return err
		}
		*timer += time.Since(t0).Seconds()
		return nil
	}

	var ps *presynced
	if err := stage("pre-synchronising", &rep.Timing.Presync, func() (err error) {
		ps, err = presynchronise(ctx, tr, t.Times, c.Presync, c.ClockModel.Method, np, c.KeepPresync, sh)
		return sh.g.Agree("pre-synchronisation", err)
	}); err != nil {
		return nil, err
	}
	rep.Presync = ps.report
	if t.Truth != nil {
		rep.Accuracy = &AccuracyReport{Truth: t.TruthName, Presync: truthErrorReport(measure.AccuracyDivided(t.Times, t.Truth, sh.own, sh.g))}
	}
	if c.KeepPresync {
		res.Presync, res.PresyncMethod, res.PresyncFuncs, res.Measured = ps.copy, ps.method, ps.funcs, ps.measured
	}

	g := t.Graph
	if g == nil {
		if err := stage("matching messages", &rep.Timing.Match, func() (err error) {
			g, err = replay.Match(tr, &replay.MatchOptions{Alltoallv: c.Alltoallv, Parallel: np})
			return err
		}); err != nil {
			return nil, err
		}
	}
	res.Graph = g
	rep.Messages = messagesReport(g)

	var cm *modelStage
	if err := stage("estimating the clocks", &rep.Timing.Model, func() (err error) {
		cm, err = runClockModel(ctx, ps, t.Times, g, &params, c.ClockModel, np, sh, counts)
		return sh.g.Agree("the clock model", err)
	}); err != nil {
		return nil, err
	}
	res.Model, res.Domains, res.Latency = cm.result, &ps.cm.Domains, cm.condition.Latency
	rep.Method, rep.Before, rep.Model, rep.ModelShift = methodReport(cm.result, &ps.cm.Domains), cm.beforeReport, cm.modelReport, cm.shift

	var moved []clc.Moved
	if err := stage("correcting", &rep.Timing.Correct, func() (err error) {
		moved, res.Fidelity, err = runCLC(ctx, tr, t.Times, g, &params, c.Alltoallv, cm, rep, progress, &empty, sh)
		return sh.g.Agree("the correction", err)
	}); err != nil {
		return nil, err
	}
	if cm.presync != nil {
		// The halo as corrected (runCLC fetched it again).
		res.View = &View{Graph: cm.view.graph, Presync: cm.presync, Corrected: cm.view.times, Own: sh.own, Counted: cm.view.counted}
	}
	final := func() error {
		t0 := time.Now()
		rep.Moved, rep.MovedFromInput, rep.ErrorBars = finalReport(ctx, t.Times, moved, ps.departures, cm.result, &ps.cm.Domains, t.Truth, rep.Accuracy, tr.Resolution, np, sh)
		if err := ctx.Err(); err != nil {
			return err
		}
		cm.result.Forget()
		if t.Truth != nil {
			rep.Accuracy.Corrected = truthErrorReport(measure.AccuracyDivided(t.Times, t.Truth, sh.own, sh.g))
		}
		rep.Timing.Measure = time.Since(t0).Seconds()
		return sh.g.Err()
	}
	if c.Overlap && sh.g == nil {
		done := make(chan error, 1)
		go func() { done <- final() }()
		var once sync.Once
		var err error
		res.wait = func() error {
			once.Do(func() { err = <-done })
			return err
		}
		return res, nil
	}
	if err := final(); err != nil {
		return nil, err
	}
	return res, nil
}

// presynced is what the pre-synchronisation stage hands on.
type presynced struct {
	method   presync.Method
	funcs    []*presync.Func
	measured [][]int64 // the measurements' pre-synchronised times (KeepPresync)
	cm       *clockmodel.Input
	node     []int32
	report   PresyncReport
	copy     [][]int64 // the pre-synchronised times (KeepPresync)
	// departures are the pre-synchronised − the reader's times, per
	// location (presync.ApplyComparing): what finalReport needs to count the
	// events moved against the input as a reader shows it.
	departures []presync.Departure
}

// presynchronise applies the clock-offset measurements of tr to times;
// before that, it reads from them and the raw times the clock model's
// input (clock domains and anchors).
func presynchronise(ctx context.Context, tr *trace.Trace, times [][]int64, m presync.Method, method clockmodel.Method, np int, keep bool, sh *share) (*presynced, error) {
	ps := &presynced{cm: clockmodel.CaptureTimes(tr, times)} // from the raw times
	ps.cm.GatherAnchors(sh.g)
	ps.method = presyncMethod(tr, m, method, &ps.cm.Domains)
	var funcs []*presync.Func
	var err error
	if ps.method == presync.Domain {
		funcs, err = presync.FuncsGrouped(tr, ps.cm.Domains.Of)
	} else {
		funcs, err = presync.Funcs(tr, ps.method)
	}
	if err != nil {
		return nil, fmt.Errorf("pre-synchronisation: %w", err)
	}
	ps.funcs = funcs
	reader, err := presync.ReaderFuncs(tr)
	if err != nil {
		return nil, fmt.Errorf("pre-synchronisation: %w", err)
	}
	if keep {
		ps.measured = presync.Measured(tr, funcs)
	}
	ps.node = make([]int32, len(tr.Locations))
	for i, l := range tr.Locations {
		ps.node[i] = l.Node
	}
	n, deps, dep, err := presync.ApplyComparing(ctx, funcs, reader, times, np)
	ps.departures = deps
	if sh.g != nil { // also after an error here: every process makes the same operations
		v := []int64{dep.Events, dep.MaxLater, dep.MaxEarlier}
		sh.g.Int64("the departures from the reader's times", comm.Sum, v[:1])
		sh.g.Int64("the departures from the reader's times", comm.Max, v[1:])
		dep = presync.DepartureStats{Events: v[0], MaxLater: v[1], MaxEarlier: v[2]}
	}
	if ee := (*trace.EventError)(nil); errors.As(err, &ee) {
		l := tr.Locations[ee.Location]
		ee.Err = fmt.Errorf("location %q (clock offsets: %s): %w", l.Name, describeOffsets(l.Offsets), ee.Err)
		return nil, ee
	}
	if err != nil {
		return nil, err
	}
	ps.report = presyncReport(tr, ps.method, n, dep)
	if err := inRange(tr, times, funcs); err != nil {
		return nil, err
	}
	if keep {
		ps.copy = make([][]int64, len(times))
		for i, ts := range times {
			ps.copy[i] = slices.Clone(ts)
		}
	}
	return ps, nil
}

// presyncMethod resolves presync.Auto: the trace's declaration (one clock
// per node: presync.Node); with the clock model, one correction per clock
// domain when a domain holds more than one process (they read one clock,
// so they must get one correction: measured apart, each would carry its
// own measurement error, which no model of the domain's clock could
// remove); else the OTF2 reader's interpolation (the pure CLC keeps the
// times the reference reader shows wherever it moves nothing).
func presyncMethod(tr *trace.Trace, m presync.Method, method clockmodel.Method, dom *clockmodel.Domains) presync.Method {
	if m != presync.Auto {
		return m
	}
	if r := presync.Resolve(tr, m); r != presync.Interpolate || method == clockmodel.MethodCLC {
		return r
	}
	first := make(map[int32]int32, dom.Count())
	for li := range tr.Locations {
		d, p := dom.Of[li], tr.ProcessOf(li)
		if q, ok := first[d]; !ok {
			first[d] = p
		} else if q != p {
			return presync.Domain
		}
	}
	return presync.Interpolate
}

// modelStage is what the clock-model stage hands on.
type modelStage struct {
	result *clockmodel.Result
	// condition is the clock condition with μ as the clock model chose it
	// (in ticks): the messages of the view, the nodes, μ, the parallelism
	// of the stages after and, divided, the group that completes the
	// counts.
	condition measure.ClockCondition
	// view is the process's view of the trace the condition is measured
	// in (the trace itself for one process).
	view *view
	// presync are the view's columns as pre-synchronised (with
	// KeepPresync, divided; else nil).
	presync [][]int64
	// before is the clock condition of the times the CLC starts from (the
	// clock model's when it moved them).
	before       measure.Violations
	beforeReport ViolationReport
	modelReport  *ViolationReport
	shift        *ModelShiftReport
}

// runClockModel chooses μ (params' latencies are the defaults it may
// lower) and, with the clock model, replaces times by the estimated
// clocks' when the guard passes them. Divided (sh), it runs on this
// process's view (newView: the own columns, in place, and the halo), and
// every process estimates the same clocks; counts are every location's
// events.
func runClockModel(ctx context.Context, ps *presynced, times [][]int64, g *replay.Graph, params *clc.Params, opt ClockModelOptions, np int, sh *share, counts []int64) (*modelStage, error) {
	res := ps.cm.Resolution
	k := params.InTicks(res)
	var extra []locEvent
	var dv *clockmodel.Division
	if sh.g != nil {
		ps.cm.AnchorEvents(sh.own, func(loc int32, idx uint32) { extra = append(extra, locEvent{loc, idx}) })
	}
	v := newView(sh.g, sh.part, times, g, extra)
	var presynced [][]int64
	if sh.g != nil && ps.copy != nil {
		// The view as pre-synchronised, for View: the own columns are
		// KeepPresync's copies, the halo's copied before the model moves it.
		presynced = make([][]int64, len(v.times))
		for li, ts := range v.times {
			if sh.owns(li) {
				presynced[li] = ps.copy[li]
			} else if len(ts) > 0 {
				presynced[li] = slices.Clone(ts)
			}
		}
	}
	if sh.g != nil {
		ps.cm.RemapAnchors(sh.own, v.pos)
		dv = &clockmodel.Division{Group: sh.g, Own: sh.own, Events: counts, Counted: v.counted}
	}
	r, err := clockmodel.Run(ctx, ps.cm, v.times, v.graph, ps.node, clockmodel.Options{
		Method: opt.Method, Latency: k.Lat, Fixed: opt.LatencyGiven,
		Estimate: opt.Estimate, Parallel: np, InPlace: true, Project: true, Layout: opt.Layout, Division: dv,
	})
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if err == nil {
		err = sh.g.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("clock model: %w", err)
	}
	// μ is the clock model's choice from here on, in ticks.
	s := &modelStage{result: r, view: v, presync: presynced, condition: measure.ClockCondition{Graph: v.graph, Node: ps.node, Latency: r.Latency.Replay(), Parallel: np, Group: sh.g, Counted: v.counted}}
	// The guard measured the clock condition before (and with the model)
	// when it got that far, also when it then fell back.
	if r.BeforeMeasured {
		s.before = r.Before
	} else {
		s.before = s.condition.Violations(v.times)
	}
	s.beforeReport = violationReport(s.before, res)
	if r.Times == nil {
		return s, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	moves := make([]shiftStats, len(times))
	par.ForEach(len(times), np, func(li int) {
		if sh.owns(li) {
			moves[li] = shifts(r.Original(li, r.Times[li]), r.Times[li])
		}
	})
	sh.gatherShifts("the clock model's moves", moves)
	s.shift = modelShiftReport(moves, res)
	// The model moved the times in place (Options.InPlace): the CLC starts
	// from them.
	if r.ModelViolations != nil {
		s.before = *r.ModelViolations
	} else {
		s.before = s.condition.Violations(v.times)
	}
	s.modelReport = ptr(violationReport(s.before, res))
	return s, sh.g.Err()
}

// runCLC runs the controlled logical clock over times in place, with the
// messages, nodes, μ and parallelism of cm.condition, measures the result
// and fills the report's correction, after, fidelity, parameters and
// issues (the matching's, the CLC's and extra); it returns what the CLC
// moved and the fidelity (event position, event distance).
func runCLC(ctx context.Context, tr *trace.Trace, times [][]int64, g *replay.Graph, params *clc.Params, alltoallv replay.AlltoallvPolicy, cm *modelStage, rep *Report, progress func(string), extra *replay.Issues, sh *share) ([]clc.Moved, [2]measure.Fidelity, error) {
	cc := cm.condition
	np := cc.Parallel
	in := clc.Input{Times: times, Node: cc.Node, Resolution: tr.Resolution, Follow: clc.Leader(tr, g)}
	opt := &clc.Options{Progress: progress, Before: &cm.before, Latency: &cc.Latency, Parallel: np, Context: ctx}
	if sh.g != nil {
		// The view's graph is g renumbered into the view's columns.
		in.Times = cm.view.times
		opt.Comm, opt.Part, opt.Pos = sh.c, sh.part, cm.view.at
	}
	res, err := clc.CorrectInPlace(in, g, *params, opt)
	if cerr := ctx.Err(); cerr != nil {
		return nil, [2]measure.Fidelity{}, cerr
	}
	if err != nil {
		return nil, [2]measure.Fidelity{}, err
	}
	after := cm.before
	moved := sh.any(!res.Unmoved())
	if moved || cm.presync != nil {
		// The view's own columns are times: only its halo is fetched again
		// (for View also when the CLC moved nothing: the clock model moved
		// the halo apart from its own columns where their times go
		// backward).
		cm.view.refresh()
	}
	if moved {
		after = cc.Violations(cm.view.times)
	}
	if err := ctx.Err(); err != nil {
		return nil, [2]measure.Fidelity{}, err
	}
	rep.After = violationReport(after, tr.Resolution)
	// The times the CLC started from (pre-synchronised, or the clock
	// model's), recovered from what it recorded as moved.
	moves := make([]shiftStats, len(times))
	var fid [2]measure.Fidelity
	fid[0], fid[1] = measure.IntervalFidelityDivided(len(times), np, sh.own, sh.g,
		func(li int) ([]int64, []int64) {
			if ctx.Err() != nil {
				return nil, nil // cancelled: the loop ends at once
			}
			c := res.Moved[li].Original(times[li])
			if len(c) > 0 && &c[0] != &times[li][0] {
				moves[li] = shifts(c, times[li])
			}
			return c, times[li]
		})
	if err := ctx.Err(); err != nil {
		return nil, [2]measure.Fidelity{}, err
	}
	rep.Fidelity = fidelityReport(fid)
	sh.gatherShifts("the CLC's moves", moves)
	rep.Correction = correctionReport(moves, res, tr.Resolution)
	rep.Correction.ViolationsRemoved = rep.Before.Violations - rep.After.Violations
	if rep.Model != nil {
		rep.Correction.ViolationsRemoved = rep.Model.Violations - rep.After.Violations
	}
	rep.Params = paramsReport(params, alltoallv, cc.Latency, tr.Resolution)
	if sh.g != nil {
		x := res.Exchanged
		if x == nil { // no forward pass: nothing to correct
			x = new(replay.SuperstepStats)
		}
		v := []int64{x.Times, x.Contributions, x.Bytes, cm.view.haloEvents()}
		sh.g.Int64("what the processes exchanged", comm.Sum, v)
		rep.Divided = &DividedReport{Processes: sh.g.Size(), Supersteps: x.Supersteps, SendTimes: v[0], Contributions: v[1], ReplayBytes: v[2], HaloEvents: v[3]}
	}
	issues := g.Issues
	issues.Merge(&res.Dropped)
	issues.Merge(extra)
	rep.Issues = issuesReport(&issues)
	return res.Moved, fid, nil
}

// emptyIssues lists a trace without events (or locations) and every
// process none of whose locations has an event (counts are the locations'
// numbers of events).
func emptyIssues(t *trace.Trace, counts []int64) replay.Issues {
	var s replay.Issues
	any := make([]bool, t.NumProcesses())
	for li, n := range counts {
		if n > 0 {
			any[t.ProcessOf(li)] = true
		}
	}
	if !slices.Contains(any, true) {
		s.Add(replay.Issue{Kind: replay.EmptyTrace, Location: -1, Event: replay.NoEvent,
			Detail: fmt.Sprintf("the trace has %d locations and no event", len(t.Locations))})
		return s
	}
	first := make([]int, len(any))
	for p := range first {
		first[p] = -1 // a process without locations has none to name
	}
	for li := len(t.Locations) - 1; li >= 0; li-- {
		first[t.ProcessOf(li)] = li
	}
	for p, has := range any {
		if !has && first[p] >= 0 {
			li := first[p]
			s.Add(replay.Issue{Kind: replay.EmptyProcess, Location: int32(li), Event: replay.NoEvent,
				Detail: fmt.Sprintf("process %d (location %q and its threads) has no event", p, t.Locations[li].Name)})
		}
	}
	return s
}

// backwardIssues lists the events of the input whose time is before their
// predecessor's on the same location: one example per location (its
// first such event), counted once per event. The correction makes the
// times non-decreasing, so these events move; --strict fails on them.
func backwardIssues(t *trace.Trace, times [][]int64, np int, sh *share) replay.Issues {
	type first struct {
		n, event int64
		// at and before are the first such event's time and its
		// predecessor's; of the location's len events.
		at, before, len int64
	}
	found := make([]first, len(times))
	par.ForEach(len(times), np, func(li int) {
		if !sh.owns(li) {
			return
		}
		ts := times[li]
		f := first{event: -1, len: int64(len(ts))}
		for j := 1; j < len(ts); j++ {
			if ts[j] < ts[j-1] {
				if f.n == 0 {
					f.event, f.at, f.before = int64(j), ts[j], ts[j-1]
				}
				f.n++
			}
		}
		found[li] = f
	})
	measure.GatherRows(sh.g, "the events going backward", sh.own, found, 5,
		func(f *first, w []uint64) {
			w[0], w[1], w[2], w[3], w[4] = uint64(f.n), uint64(f.event), uint64(f.at), uint64(f.before), uint64(f.len)
		},
		func(w []uint64, f *first) {
			*f = first{int64(w[0]), int64(w[1]), int64(w[2]), int64(w[3]), int64(w[4])}
		})
	var s replay.Issues
	for li, f := range found {
		if f.n == 0 {
			continue
		}
		s.Add(replay.Issue{Kind: replay.BackwardTime, Location: int32(li), Event: uint32(f.event),
			Detail: fmt.Sprintf("location %q: time %d is %d ticks before the previous event's (%d); events going backward: %d of its %d; they were moved to keep the location's times in order",
				t.Locations[li].Name, f.at, f.before-f.at, f.before, f.n, f.len)})
		s.Count[replay.BackwardTime] += f.n - 1
	}
	return s
}

// messagesReport counts the messages of the happened-before relation.
func messagesReport(g *replay.Graph) MessagesReport {
	return MessagesReport{P2P: g.Messages, CollectiveLogical: g.LogicalMessages,
		CollectiveInstances: mpiInstances(g), AlltoallvIgnored: g.Ignored, CollectiveSingle: g.Single, Shared: sharedRelations(g)}
}

func ptr[T any](v T) *T { return &v }

// MaxTime bounds the magnitude of the pre-synchronised times clc accepts,
// leaving room for corrections in 64-bit ticks (2^62 ticks is 146 years at
// 1 GHz).
const MaxTime = 1 << 62

// inRange checks the pre-synchronised times: every time within [0,
// MaxTime]. A negative time of a location that pre-synchronisation
// corrected (funcs[li] not the identity) comes from the input's clock
// offsets, so the error names them; otherwise the input holds it (the
// native format stores signed times).
func inRange(t *trace.Trace, times [][]int64, funcs []*presync.Func) error {
	for li, ts := range times {
		for j, v := range ts {
			switch {
			case v > MaxTime:
				return &trace.EventError{Location: li, Event: j,
					Err: fmt.Errorf("time %d is beyond 2^62 ticks, which leaves no room for corrections", v)}
			case v < 0 && (funcs[li] == nil || funcs[li].Identity()):
				return &trace.EventError{Location: li, Event: j, Err: fmt.Errorf("time %d is negative", v)}
			case v < 0:
				return &trace.EventError{Location: li, Event: j,
					Err: fmt.Errorf("time %d is negative after applying the clock offsets of location %q (%s): the offset records are wrong", v, t.Locations[li].Name, describeOffsets(t.Locations[li].Offsets))}
			}
		}
	}
	return nil
}

// describeOffsets lists clock-offset records briefly for an error message.
func describeOffsets(offs []trace.ClockOffset) string {
	if len(offs) == 0 {
		return "none of its own; its node's"
	}
	var b strings.Builder
	for k, o := range offs {
		if k == 4 {
			fmt.Fprintf(&b, ", … %d in all", len(offs))
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "offset %d at local time %d", o.Offset, o.Time)
	}
	return b.String()
}

// TraceOf returns tr as Correct takes it, with a copy of its events' times
// (tr's own stay as they are) and its happened-before relation left for
// Correct to match.
func TraceOf(tr *trace.Trace) *Trace {
	times := make([][]int64, len(tr.Locations))
	for i, l := range tr.Locations {
		times[i] = slices.Clone(l.Events.Time)
	}
	return &Trace{Defs: tr, Times: times}
}
