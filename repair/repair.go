package repair

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/output"
	"github.com/clc-tools/clc/perfetto"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Options configure a repair.
type Options struct {
	// Output is the directory to write; "" with Check.
	Output string
	// Format of the output; "" means the input's.
	Format Format
	// Check analyses without writing a trace (a report may still be
	// written).
	Check bool
	// Force replaces an existing output directory that holds nothing but
	// a trace (output.ReplaceTrace); any other non-empty directory is
	// refused.
	Force bool
	// Report, if not "", is a file to write the JSON report to; it is
	// written atomically, together with the output.
	Report  string
	Params  clc.Params
	Presync presync.Method
	// ClockModel selects the method (the clock model, the default, or the
	// pure CLC) and says which latencies the user gave
	// (repair/clockmodel.go).
	ClockModel ClockModelOptions
	// Truth is a native trace with the true times of the input's events;
	// "" means the input's truth/ directory if there is one, "-" none.
	Truth string
	// Parallel bounds the goroutines of every parallel phase (reading,
	// matching, the replay's workers, writing); 0 = GOMAXPROCS.
	Parallel int
	// Progress, if not nil, is told each stage as it starts.
	Progress func(stage string)
	// HTML, if not "", is a file to write the HTML report to (also with
	// Check); it is claimed and written like Report.
	HTML string
	// Perfetto bounds the size of a FormatPerfetto output.
	Perfetto perfetto.Options
}

// Validate checks the options before anything is read or written.
func (o *Options) Validate() error {
	switch {
	case o.Parallel < 0:
		return fmt.Errorf("parallelism %d is negative (0 means one per CPU)", o.Parallel)
	case o.Check && o.Output != "":
		return errors.New("a check writes no trace: give no output directory with it")
	case !o.Check && o.Output == "":
		return errors.New("no output directory (-o) given; use --check to analyse without writing")
	}
	if _, err := ParseFormat(string(o.Format)); err != nil {
		return err
	}
	if err := o.Params.Validate(); err != nil {
		return err
	}
	return nil
}

// ErrInconsistent is wrapped by Run's error when Strict reports find
// unmatched messages, incomplete or inconsistent collectives, a truncated
// input or dropped dependencies.
var ErrInconsistent = errors.New("the trace is inconsistent")

// Job is one repair: the input, opened, and every path the run will write,
// claimed in one output.Plan before anything is read. Run does the work
// into temporaries; Commit puts them in place, Abort removes them.
type Job struct {
	in   *Input
	opts Options
	plan *output.Plan
	// Temporaries the run writes into ("" when not wanted).
	outDir, reportFile, htmlFile string
}

// Prepare validates opts, opens the input (its anchor or manifest only)
// and claims every output path: the output directory and the report file.
// Nothing is read beyond the input's header and nothing is written but the
// empty temporaries. Call Abort (or Commit after Run) when done.
func Prepare(input string, opts Options) (*Job, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	in, err := Open(input)
	if err != nil {
		return nil, err
	}
	inputs := []string{in.Path, in.Dir}
	if opts.Truth != "" && opts.Truth != "-" {
		inputs = append(inputs, opts.Truth)
	}
	plan, err := output.NewPlan(inputs...)
	if err != nil {
		return nil, err
	}
	j := &Job{in: in, opts: opts, plan: plan}
	if !opts.Check {
		replace := output.KeepExisting
		if opts.Force {
			replace = output.ReplaceTrace
		}
		if j.outDir, err = plan.Dir("output", opts.Output, replace); err != nil {
			plan.Abort()
			return nil, err
		}
	}
	if opts.Report != "" {
		if j.reportFile, err = plan.File("report", opts.Report); err != nil {
			plan.Abort()
			return nil, err
		}
	}
	if opts.HTML != "" {
		if j.htmlFile, err = plan.File("html report", opts.HTML); err != nil {
			plan.Abort()
			return nil, err
		}
	}
	return j, nil
}

// Claim claims one more file the caller will write (a CPU profile, say)
// and returns the temporary to write it to, which Commit moves into
// place with the rest.
func (j *Job) Claim(what, path string) (string, error) { return j.plan.File(what, path) }

// Input returns the opened input.
func (j *Job) Input() *Input { return j.in }

// Commit moves the output and the report into place.
func (j *Job) Commit() error { return j.plan.Commit() }

// Abort removes every temporary; nothing of the run is left behind.
func (j *Job) Abort() { j.plan.Abort() }

// Run repairs the trace at input as opts say and returns the report: it
// prepares the job, runs it and commits its outputs, or leaves nothing
// behind on error or cancellation.
func Run(ctx context.Context, input string, opts Options) (*Report, error) {
	j, err := Prepare(input, opts)
	if err != nil {
		return nil, err
	}
	rep, err := j.Run(ctx)
	if err != nil {
		j.Abort()
		return nil, err
	}
	if err := j.Commit(); err != nil {
		return nil, err
	}
	return rep, nil
}

// pipeline holds what the stages of one run hand to each other.
//
// The input is read once into what the correction needs: the definitions,
// of every location the events the happened-before relation looks at (a
// selection, trace.Events.Index) and every event's time in a column
// (times). Pre-synchronisation, the CLC and the measurements work on the
// columns in place; the output is written by copying the input with the
// new times. Conversions to another format and the Perfetto export need
// whole events: then tr holds them, and times are its time columns.
type pipeline struct {
	j        *Job
	opts     *Options
	np       int
	rep      *Report
	tr       *trace.Trace
	whole    bool      // tr holds whole event sequences
	times    [][]int64 // every event's time: pre-synchronised, then corrected
	offsets  [][]trace.ClockOffset
	g        *replay.Graph
	k        clc.Ticks
	node     []int32
	c        [][]int64          // the pre-synchronised times, when kept (--html, the clock model)
	before   measure.Violations // of the times the CLC starts from
	cm       *clockmodel.Input  // clock domains and offsets, before presync
	matcher  *replay.Matcher    // fed by the reader (selections) or by match (whole events)
	model    *clockmodel.Result
	res      *clc.Result
	truth    [][]int64 // true times, when known
	html     *htmlHook // nil without --html
	outFmt   Format
	progress func(string)
}

// Run does the work of the job into its temporaries and returns the
// report. It stops at the next stage boundary or parallel task when ctx
// is cancelled. It releases the input's open files when it returns.
func (j *Job) Run(ctx context.Context) (*Report, error) {
	start := time.Now()
	defer j.in.Close()
	p := &pipeline{j: j, opts: &j.opts, np: j.opts.Parallel, progress: j.opts.Progress}
	if p.np <= 0 {
		p.np = runtime.GOMAXPROCS(0)
	}
	p.opts.Params.Parallel = p.np
	if p.progress == nil {
		p.progress = func(string) {}
	}
	if j.htmlFile != "" {
		p.html = &htmlHook{file: j.htmlFile}
	}
	p.outFmt = j.opts.Format
	if p.outFmt == "" {
		p.outFmt = j.in.Format
	}
	p.rep = &Report{Tool: "clc-correct", ReportVersion: ReportVersion, Input: j.in.Path,
		InputFormat: string(j.in.Format), Checked: j.opts.Check}
	if !j.opts.Check {
		p.rep.Output, p.rep.OutputFormat = j.opts.Output, string(p.outFmt)
	}
	htmlTimer := new(float64) // timing_s.html only with --html
	if p.html != nil {
		htmlTimer = &p.rep.Timing.HTML
	}
	stages := []struct {
		name  string
		run   func(context.Context) error
		timer *float64
	}{
		{"reading " + j.in.Path, p.read, &p.rep.Timing.Read},
		{"pre-synchronising", p.presync, &p.rep.Timing.Presync},
		{"matching messages", p.match, &p.rep.Timing.Match},
		{"estimating the clocks", p.clockModel, &p.rep.Timing.Model},
		{"correcting", p.correct, &p.rep.Timing.Correct},
		{"writing " + j.opts.Output, p.write, &p.rep.Timing.Write},
		{"writing the HTML report " + j.opts.HTML, p.writeHTML, htmlTimer},
	}
	for _, s := range stages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		p.progress(s.name)
		if err := s.run(ctx); err != nil {
			return nil, err
		}
		*s.timer = time.Since(t0).Seconds()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.rep.Timing.Total = time.Since(start).Seconds()
	if j.reportFile != "" {
		if err := writeReportFile(j.reportFile, p.rep); err != nil {
			return nil, fmt.Errorf("report %s: %w", j.opts.Report, err)
		}
	}
	return p.rep, nil
}

// inputErr names the input in an error of the input's contents.
func (p *pipeline) inputErr(err error) error {
	return fmt.Errorf("input %s: %w", p.j.in.Path, err)
}

func (p *pipeline) read(ctx context.Context) error {
	in := p.j.in
	// Whole events only where the output is written from them (Perfetto):
	// a check writes nothing, and a conversion between native and OTF2
	// streams the input's events into the output as a rewrite does.
	p.whole = !p.opts.Check && p.outFmt == FormatPerfetto
	var tr *trace.Trace
	var err error
	if p.whole {
		if tr, err = in.Read(ctx, p.np); err == nil {
			p.times = make([][]int64, len(tr.Locations))
			for i, l := range tr.Locations {
				p.times[i] = l.Events.Time
			}
		}
	} else {
		// Each location is checked and scanned for the happened-before
		// relation as soon as it is read, and its selection dropped: the
		// whole trace's selections never are in memory at once.
		var once sync.Once
		var defsErr error
		tr, p.times, err = in.ReadSelected(ctx, p.np, func(t *trace.Trace, li int) error {
			// Other locations are still being read (their clock offsets
			// among them): check what they share once, and each
			// location's own data when it is read.
			once.Do(func() {
				if defsErr = t.ValidateSharedDefs(); defsErr == nil {
					p.matcher = replay.NewMatcher(t, p.matchOptions())
				}
			})
			if defsErr != nil {
				return defsErr
			}
			if err := t.ValidateOffsets(li); err != nil {
				return err
			}
			if err := t.ValidateEvents(li); err != nil {
				return err
			}
			p.matcher.Scan(li, &t.Locations[li].Events)
			t.Locations[li].Events = trace.Events{}
			return nil
		})
		if errors.As(err, new(*trace.EventError)) || errors.Is(err, trace.ErrInvalid) {
			err = p.inputErr(err)
		}
	}
	if err != nil {
		return err
	}
	if err := tr.Validate(); err != nil { // what is left: the definitions, whole events
		return p.inputErr(err)
	}
	if p.matcher == nil { // whole events, or a trace without locations
		p.matcher = replay.NewMatcher(tr, p.matchOptions())
	}
	p.tr = tr
	rep := p.rep
	rep.Resolution = tr.Resolution
	rep.Locations = len(tr.Locations)
	for _, ts := range p.times {
		rep.Events += int64(len(ts))
	}
	if tr.Properties[native.PropIncomplete] == "true" {
		rep.Notes = append(rep.Notes, "input is incomplete: the traced run did not finish (manifest says complete=false)")
		rep.Truncated = true
	}
	if s := tr.Properties[native.PropTruncated]; s != "" {
		rep.Notes = append(rep.Notes, "streams cut short at locations "+s)
		rep.Truncated = true
	}
	if s := tr.Properties[PropUnrecordedMPI]; s != "" && s != "none" {
		rep.UnrecordedMPI = strings.Split(s, ",")
		rep.Notes = append(rep.Notes, fmt.Sprintf("the tracer did not record %d communicating MPI functions the program uses (messages through them are missing): %s", len(rep.UnrecordedMPI), s))
	}
	if in.archive != nil {
		for _, w := range in.archive.Warnings() {
			rep.Warnings = append(rep.Warnings, w.String())
		}
	}
	return nil
}

// PropUnrecordedMPI is the trace property in which clc-trace lists,
// comma-separated, the communicating MPI functions the program imports and
// the tracer does not record.
const PropUnrecordedMPI = "clc.unrecorded-mpi"

func (p *pipeline) presync(ctx context.Context) error {
	tr := p.tr
	method := presync.Resolve(tr, p.opts.Presync)
	funcs, err := presync.Funcs(tr, p.opts.Presync)
	if err != nil {
		return p.inputErr(fmt.Errorf("pre-synchronisation: %w", err))
	}
	p.html.beforePresync(tr, method, funcs)
	p.cm = clockmodel.CaptureTimes(tr, p.times) // before pre-synchronisation consumes the offsets
	p.offsets = make([][]trace.ClockOffset, len(tr.Locations))
	p.node = make([]int32, len(tr.Locations))
	for i, l := range tr.Locations {
		p.offsets[i], l.Offsets = l.Offsets, nil
		p.node[i] = l.Node
	}
	n := presync.ApplyColumns(funcs, p.times, p.np)
	p.rep.Presync = PresyncReport{Method: method.String(), Locations: n}
	if err := inRange(tr, p.times, p.offsets, funcs); err != nil {
		return p.inputErr(err)
	}
	if p.html != nil {
		p.c = make([][]int64, len(p.times))
		for i, ts := range p.times {
			p.c[i] = slices.Clone(ts)
		}
	}
	if err := p.readTruth(); err != nil {
		return err
	}
	if p.truth != nil {
		p.rep.Accuracy.Presync = measure.AccuracyOf(p.times, p.truth)
	}
	return nil
}

func (p *pipeline) match(ctx context.Context) error {
	if p.whole {
		par.ForEach(len(p.tr.Locations), p.np, func(li int) { p.matcher.Scan(li, &p.tr.Locations[li].Events) })
	}
	g, err := p.matcher.Finish()
	if err != nil {
		return p.inputErr(err)
	}
	p.g, p.matcher = g, nil
	p.rep.Messages = MessagesReport{P2P: g.Messages, CollectiveLogical: g.LogicalMessages,
		CollectiveInstances: mpiInstances(g), AlltoallvIgnored: g.Ignored, CollectiveSingle: g.Single, Shared: sharedRelations(g)}
	return nil
}

func (p *pipeline) correct(ctx context.Context) error {
	tr := p.tr
	in := clc.Input{Times: p.times, Node: p.node, Resolution: tr.Resolution, Follow: clc.Leader(tr, p.g)}
	res, err := clc.CorrectInPlace(in, p.g, p.opts.Params, &clc.Options{Progress: p.progress, Before: &p.before})
	if err != nil {
		return p.inputErr(err)
	}
	p.res = res
	after := p.before
	if !res.Unmoved() {
		after = measure.ClockCondition(p.times, p.g, p.node, p.k.Lat, p.np)
	}
	rep := p.rep
	rep.After = violationReport(after, tr.Resolution)
	// The times the CLC started from (pre-synchronised, or the clock
	// model's), recovered from what it recorded as moved.
	moves := make([]shiftStats, len(p.times))
	rep.Fidelity.Position, rep.Fidelity.Distance = measure.IntervalFidelityOf(len(p.times), p.np,
		func(li int) ([]int64, []int64) {
			c := res.Moved[li].Original(p.times[li])
			if len(c) > 0 && &c[0] != &p.times[li][0] {
				moves[li] = shifts(c, p.times[li])
			}
			return c, p.times[li]
		})
	rep.Correction = correctionReport(moves, res, tr.Resolution)
	rep.Correction.ViolationsRemoved = rep.Before.Violations - rep.After.Violations
	if rep.Model != nil {
		rep.Correction.ViolationsRemoved = rep.Model.Violations - rep.After.Violations
	}
	rep.Params = paramsReport(&p.opts.Params, tr.Resolution)
	issues := p.g.Issues
	issues.Merge(&res.Dropped)
	rep.Issues = issuesReport(&issues)
	if p.truth != nil {
		rep.Accuracy.Corrected = measure.AccuracyOf(p.times, p.truth)
	}
	if tr.Properties == nil {
		tr.Properties = map[string]string{}
	}
	tr.Properties["clc.corrected"] = "clc-correct"
	return nil
}

func (p *pipeline) write(ctx context.Context) error {
	if p.j.outDir == "" {
		return nil
	}
	var err error
	in, dir := p.j.in, p.j.outDir
	switch {
	case p.outFmt == FormatPerfetto:
		return p.writePerfetto(ctx)
	case p.outFmt != in.Format:
		err = in.convert(ctx, dir, p.tr, p.times, p.np)
	case in.Format == FormatOTF2:
		err = in.archive.RewriteTimes(ctx, dir, p.times, &otf.WriteOptions{Parallel: p.np})
	case in.Format == FormatNative:
		err = in.rewriteNative(ctx, dir, p.times, p.tr.Properties, p.np)
	default:
		err = fmt.Errorf("cannot write %s from %s", p.outFmt, in.Format)
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", p.opts.Output, err)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// MaxTime bounds the magnitude of the pre-synchronised times clc accepts,
// leaving room for corrections in 64-bit ticks (2^62 ticks is 146 years at
// 1 GHz).
const MaxTime = 1 << 62

// inRange checks the pre-synchronised times: every time within [0,
// MaxTime]. A negative time of a location that pre-synchronisation
// corrected (funcs[li] not the identity) comes from the input's clock offsets, so
// the error names them; otherwise the input holds it (the native format
// stores signed times).
func inRange(t *trace.Trace, times [][]int64, offsets [][]trace.ClockOffset, funcs []*presync.Func) error {
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
					Err: fmt.Errorf("time %d is negative after applying the clock offsets of location %q (%s): the offset records are wrong", v, t.Locations[li].Name, describeOffsets(offsets[li]))}
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

// Inconsistent reports whether the report lists problems that --strict
// turns into a failure.
func (r *Report) Inconsistent() bool {
	if r.Truncated {
		return true
	}
	for _, n := range r.Issues.Counts {
		if n > 0 {
			return true
		}
	}
	return false
}

// readTruth reads the true times of the input's events, when they are
// known (Options.Truth, or the input's truth/ directory), into p.truth and
// starts the report's accuracy section.
func (p *pipeline) readTruth() error {
	dir := p.opts.Truth
	switch dir {
	case "-":
		return nil
	case "":
		if dir = p.j.in.truthDir(); dir == "" {
			return nil
		}
	}
	truth, err := native.ReadDir(dir, &native.ReadOptions{Parallel: p.np})
	if err != nil {
		return fmt.Errorf("truth %s: %w", dir, err)
	}
	if len(truth.Locations) != len(p.times) {
		return fmt.Errorf("truth %s has %d locations, the trace %d", dir, len(truth.Locations), len(p.times))
	}
	if truth.Resolution != p.tr.Resolution {
		return fmt.Errorf("truth %s has timer resolution %d, the trace %d", dir, truth.Resolution, p.tr.Resolution)
	}
	tt := make([][]int64, len(truth.Locations))
	for i, l := range truth.Locations {
		if l.Events.Len() != len(p.times[i]) {
			return fmt.Errorf("truth %s: location %d has %d events, the trace %d", dir, i, l.Events.Len(), len(p.times[i]))
		}
		tt[i] = l.Events.Time
	}
	p.truth = tt
	p.rep.Accuracy = &AccuracyReport{Truth: dir}
	return nil
}

// writeReportFile writes the JSON report to path.
func writeReportFile(path string, rep *Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := rep.WriteJSON(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// matchOptions are the options of the happened-before relation.
func (p *pipeline) matchOptions() *replay.MatchOptions {
	return &replay.MatchOptions{Alltoallv: p.opts.Params.Alltoallv, Parallel: p.np}
}
