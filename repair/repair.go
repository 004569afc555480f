package repair

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/msgsync"
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
	// Refine runs msgsync.Refine between pre-synchronisation and the CLC:
	// per-node clock corrections estimated from the messages. It moves
	// events both ways, so it is not the default. RefineOptions tune it.
	Refine        bool
	RefineOptions msgsync.Options
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
	if r := o.RefineOptions; o.Refine && (r.Windows < 0 || r.Prior < 0 || r.Floor < 0 || r.MinMessages < 0) {
		return fmt.Errorf("refinement options must not be negative: %+v", r)
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
type pipeline struct {
	j        *Job
	opts     *Options
	np       int
	rep      *Report
	tr       *trace.Trace
	g        *replay.Graph
	k        clc.Ticks
	node     []int32
	c        [][]int64 // pre-synchronised times
	before   measure.Violations
	res      *clc.Result
	truth    [][]int64 // true times, when known
	html     *htmlHook // nil without --html
	outFmt   Format
	progress func(string)
}

// Run does the work of the job into its temporaries and returns the
// report. It stops at the next stage boundary or parallel task when ctx
// is cancelled.
func (j *Job) Run(ctx context.Context) (*Report, error) {
	start := time.Now()
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
		{"refining the synchronisation from the messages", p.refine, &p.rep.Timing.Refine},
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
	tr, err := p.j.in.Read(ctx, p.np)
	if err != nil {
		return err
	}
	if err := tr.Validate(); err != nil {
		return p.inputErr(err)
	}
	p.tr = tr
	rep := p.rep
	rep.Resolution = tr.Resolution
	rep.Locations = len(tr.Locations)
	rep.Events = tr.NumEvents()
	if tr.Properties[native.PropIncomplete] == "true" {
		rep.Notes = append(rep.Notes, "input is incomplete: the traced run did not finish (manifest says complete=false)")
		rep.Truncated = true
	}
	if s := tr.Properties[native.PropTruncated]; s != "" {
		rep.Notes = append(rep.Notes, "streams cut short at locations "+s)
		rep.Truncated = true
	}
	return nil
}

func (p *pipeline) presync(ctx context.Context) error {
	tr := p.tr
	method := presync.Resolve(tr, p.opts.Presync)
	if err := p.html.beforePresync(tr, p.opts.Presync); err != nil {
		return p.inputErr(fmt.Errorf("pre-synchronisation: %w", err))
	}
	offsets := make([][]trace.ClockOffset, len(tr.Locations))
	for i, l := range tr.Locations {
		offsets[i] = l.Offsets
	}
	n, err := presync.Apply(tr, &presync.Options{Method: p.opts.Presync, Parallel: p.np})
	if err != nil {
		return p.inputErr(fmt.Errorf("pre-synchronisation: %w", err))
	}
	p.rep.Presync = PresyncReport{Method: method.String(), Locations: n}
	if err := inRange(tr, offsets); err != nil {
		return p.inputErr(err)
	}
	if err := tr.Unordered(); err != nil {
		p.rep.Notes = append(p.rep.Notes, "times decrease within a location after pre-synchronisation ("+err.Error()+"); the correction makes them non-decreasing")
	}
	p.c = make([][]int64, len(tr.Locations))
	p.node = make([]int32, len(tr.Locations))
	for i, l := range tr.Locations {
		p.c[i] = l.Events.Time
		p.node[i] = l.Node
	}
	return nil
}

func (p *pipeline) match(ctx context.Context) error {
	g, err := replay.Match(p.tr, &replay.MatchOptions{Alltoallv: p.opts.Params.Alltoallv, Parallel: p.np})
	if err != nil {
		return p.inputErr(err)
	}
	p.g = g
	p.rep.Messages = MessagesReport{P2P: g.Messages, CollectiveLogical: g.LogicalMessages,
		CollectiveInstances: mpiInstances(g), AlltoallvIgnored: g.Ignored, Shared: sharedRelations(g)}
	p.k = p.opts.Params.InTicks(p.tr.Resolution)
	p.before = measure.ClockCondition(p.c, g, p.node, p.k.Lat, p.np)
	p.rep.Before = violationReport(p.before, p.tr.Resolution)
	return nil
}

// refine runs the optional refinement from the messages (--refine). The
// CLC then runs on the refined times; the report still compares with the
// pre-synchronised ones, kept in p.c.
func (p *pipeline) refine(ctx context.Context) error {
	if !p.opts.Refine {
		return nil
	}
	tr := p.tr
	ro := p.opts.RefineOptions
	ro.Parallel = p.np
	st, err := msgsync.Refine(tr, p.g, p.k.Lat, ro)
	if err != nil {
		return p.inputErr(err)
	}
	p.rep.Refinement = &st
	if st.Rejected {
		p.rep.Notes = append(p.rep.Notes, fmt.Sprintf("refinement rejected: it left violations summing to %s, not less than the %s before it",
			dur(sec(st.SumAfter, tr.Resolution)), dur(sec(st.SumBefore, tr.Resolution))))
		return nil
	}
	refined := make([][]int64, len(tr.Locations))
	for i, l := range tr.Locations {
		refined[i] = l.Events.Time
	}
	v := measure.ClockCondition(refined, p.g, p.node, p.k.Lat, p.np)
	p.rep.Refined = ptr(violationReport(v, tr.Resolution))
	p.before = v
	return nil
}

func (p *pipeline) correct(ctx context.Context) error {
	tr := p.tr
	res, err := clc.Correct(tr, p.g, p.opts.Params, &clc.Options{Progress: p.progress, Before: &p.before})
	if err != nil {
		return p.inputErr(err)
	}
	p.res = res
	after := measure.ClockCondition(res.Times, p.g, p.node, p.k.Lat, p.np)
	rep := p.rep
	rep.After = violationReport(after, tr.Resolution)
	rep.Correction = correctionReport(p.c, res.Times, res, tr.Resolution)
	rep.Correction.ViolationsRemoved = rep.Before.Violations - rep.After.Violations
	if rep.Refined != nil {
		rep.Correction.ViolationsRemoved = rep.Refined.Violations - rep.After.Violations
	}
	rep.Fidelity.Position, rep.Fidelity.Distance = measure.IntervalFidelity(p.c, res.Times, p.np)
	rep.Params = paramsReport(&p.opts.Params, tr.Resolution)
	issues := p.g.Issues
	issues.Merge(&res.Dropped)
	rep.Issues = issuesReport(&issues)
	acc, truth, err := accuracy(ctx, p.j.in, p.opts.Truth, tr, p.c, res.Times, p.np)
	if err != nil {
		return err
	}
	rep.Accuracy, p.truth = acc, truth
	// The corrected times replace the input's.
	for i, l := range tr.Locations {
		l.Events.Time = res.Times[i]
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
	if p.outFmt == FormatPerfetto {
		return p.writePerfetto(ctx)
	}
	if err := writeTrace(ctx, p.j.in, p.tr, p.j.outDir, p.outFmt, p.np); err != nil {
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
// MaxTime]. A negative time can only come from the input's clock offsets
// (trace formats store unsigned times), so the error names them.
func inRange(t *trace.Trace, offsets [][]trace.ClockOffset) error {
	for li, l := range t.Locations {
		for j, v := range l.Events.Time {
			switch {
			case v > MaxTime:
				return &trace.EventError{Location: li, Event: j,
					Err: fmt.Errorf("time %d is beyond 2^62 ticks, which leaves no room for corrections", v)}
			case v < 0:
				return &trace.EventError{Location: li, Event: j,
					Err: fmt.Errorf("time %d is negative after applying the clock offsets of location %q (%s): the offset records are wrong", v, l.Name, describeOffsets(offsets[li]))}
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

// accuracy compares the pre-synchronised and corrected times with the true
// times, when they are known.
func accuracy(ctx context.Context, in *Input, truthOpt string, tr *trace.Trace, c, lc [][]int64, np int) (*AccuracyReport, [][]int64, error) {
	dir := truthOpt
	switch dir {
	case "-":
		return nil, nil, nil
	case "":
		dir = in.truthDir()
		if dir == "" {
			return nil, nil, nil
		}
	}
	truth, err := native.ReadDir(dir, &native.ReadOptions{Parallel: np})
	if err != nil {
		return nil, nil, fmt.Errorf("truth %s: %w", dir, err)
	}
	if len(truth.Locations) != len(tr.Locations) {
		return nil, nil, fmt.Errorf("truth %s has %d locations, the trace %d", dir, len(truth.Locations), len(tr.Locations))
	}
	tt := make([][]int64, len(truth.Locations))
	for i, l := range truth.Locations {
		if l.Events.Len() != len(c[i]) {
			return nil, nil, fmt.Errorf("truth %s: location %d has %d events, the trace %d", dir, i, l.Events.Len(), len(c[i]))
		}
		tt[i] = l.Events.Time
	}
	if truth.Resolution != tr.Resolution {
		return nil, nil, fmt.Errorf("truth %s has timer resolution %d, the trace %d", dir, truth.Resolution, tr.Resolution)
	}
	return &AccuracyReport{
		Truth:     dir,
		Presync:   measure.AccuracyOf(c, tt),
		Corrected: measure.AccuracyOf(lc, tt),
	}, tt, nil
}

// writeTrace writes tr in format f into dir, which exists and is empty.
func writeTrace(ctx context.Context, in *Input, tr *trace.Trace, dir string, f Format, np int) error {
	switch {
	case f == FormatNative:
		return native.WriteDir(dir, tr, &native.WriteOptions{Codec: native.CodecZstd, Parallel: np})
	case f == FormatOTF2 && in.Format == FormatOTF2:
		return in.archive.Rewrite(dir, tr, &otf.WriteOptions{Workers: np})
	case f == FormatOTF2:
		return otf.WriteTrace(dir, tr, &otf.WriteOptions{Workers: np, Creator: "clc-correct"})
	}
	return fmt.Errorf("unknown output format %q", f)
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
