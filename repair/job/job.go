package job

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clc-tools/clc/repair"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/internal/truthfile"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/output"
	"github.com/clc-tools/clc/perfetto"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Options configure a run of clc-correct: where the trace is written and
// what else is (the report, the HTML page), and the correction itself
// (repair.Correction, which repair.Correct takes).
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
	Report string
	// Truth is a native trace with the true times of the input's events,
	// or a JSON file of them (package truthfile); "" means the input's
	// truth/ directory or truth.json beside it if there is one, "-" none.
	Truth string
	// HTML, if not "", is a file to write the HTML report to (also with
	// Check); it is claimed and written like Report.
	HTML string
	// Perfetto bounds the size of a FormatPerfetto output.
	Perfetto perfetto.Options
	// MemoryLimit is the memory in bytes the run may need (as Prepare
	// estimates it from the input's declared counts); 0 means what the
	// process may use (memlimit.Limit).
	MemoryLimit int64
	// Correction configures the correction (repair.Correct); its Parallel also
	// bounds the goroutines of reading and writing. In a run divided among
	// processes (its Comm) only process 0 tells its Progress.
	repair.Correction
}

// Validate checks the options before anything is read or written.
func (o *Options) Validate() error {
	switch {
	case o.Parallel < 0:
		return fmt.Errorf("parallelism %d is negative (0 means one per CPU)", o.Parallel)
	case o.Parallel > MaxParallel():
		return fmt.Errorf("parallelism %d is more than %d: more workers than that only cost memory", o.Parallel, MaxParallel())
	case o.Check && o.Output != "":
		return errors.New("a check writes no trace: give no output directory with it")
	case !o.Check && o.Output == "":
		return errors.New("no output directory (-o) given; use --check to analyse without writing")
	}
	if _, err := ParseFormat(string(o.Format)); err != nil {
		return err
	}
	if o.Params != nil {
		if err := o.Params.Validate(); err != nil {
			return err
		}
		p := o.Params
		for _, d := range []struct {
			what string
			v    time.Duration
		}{{"intra-node latency", p.LatencyIntra}, {"inter-node latency", p.LatencyInter}, {"shared-memory latency", p.LatencyShared}, {"minimal step δ", p.Delta}} {
			if d.v > MaxLatency {
				return fmt.Errorf("%s %v is more than %v: no message takes that long at least, and times moved by it leave the 64-bit range of a trace's timer", d.what, d.v, MaxLatency)
			}
		}
	}
	return nil
}

// MaxLatency bounds the minimum latencies and the minimal step δ a run
// takes (docs/parameters.md): a minimum message latency is microseconds,
// and one of hours pushed the corrected times to the limit of int64.
const MaxLatency = time.Second

// Job is one repair: the input, opened, and every path the run will write,
// claimed in one output.Plan before anything is read. Run does the work
// into temporaries; Commit puts them in place, Abort removes them.
type Job struct {
	in   *Input
	opts Options
	plan *output.Plan
	// Temporaries the run writes into ("" when not wanted).
	outDir, reportFile, htmlFile string

	mu       sync.Mutex // guards using and closing, and closes the input
	using    int        // goroutines of interruptible still using the input
	closeDue bool       // the input is to be closed when they are done
}

// interruptible runs f, which reads the input, on a goroutine of its own
// and returns its error, or ctx's as soon as ctx is cancelled: a read that
// blocks (a file on a hung network or FUSE file system) cannot hold a
// cancelled run. An abandoned f goes on until its read returns, and keeps
// the input open until then (closeInput).
func (j *Job) interruptible(ctx context.Context, f func() error) error {
	j.mu.Lock()
	j.using++
	j.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		err := f()
		j.mu.Lock()
		if j.using--; j.using == 0 && j.closeDue {
			j.in.Close()
			j.closeDue = false
		}
		j.mu.Unlock()
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// closeInput closes the input's files now, or when the last goroutine of
// interruptible still reading them is done.
func (j *Job) closeInput() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.using > 0 {
		j.closeDue = true
		return
	}
	j.in.Close()
}

// Prepare validates opts, finds the input by its names (Locate) and
// claims every output path: the output directory, the report files.
// Only then does it read what the input declares (an OTF2 archive's anchor
// and global definitions, a native manifest) and check that the run fits
// in memory (checkMemory). Nothing is written but the empty temporaries.
// Call Abort (or Commit after Run) when done.
//
// With opts.Comm a group of several processes, every process calls it:
// process 0 claims the outputs and tells the others the temporary
// directory to write their parts into; it fails on every process when it
// fails on one.
func Prepare(input string, opts Options) (*Job, error) {
	return PrepareContext(context.Background(), input, opts)
}

// PrepareContext is Prepare, which stops as soon as ctx is cancelled, even
// in a read of the input's definitions that blocks.
func PrepareContext(ctx context.Context, input string, opts Options) (*Job, error) {
	c := opts.Comm
	if err := agree(ctx, c, opts.Validate()); err != nil {
		return nil, err
	}
	in, err := Locate(input)
	if err = agree(ctx, c, err); err != nil {
		return nil, err
	}
	inputs := in.files()
	// A truth directory (a native trace) is an input as the trace is; of
	// a truth file, only the file: outputs may lie beside it.
	truthFile := ""
	if opts.Truth != "" && opts.Truth != "-" {
		if st, err := os.Stat(opts.Truth); err == nil && !st.IsDir() {
			truthFile = opts.Truth
		} else {
			inputs = append(inputs, opts.Truth)
		}
	}
	plan, err := output.NewPlan(inputs...)
	if err == nil && truthFile != "" {
		err = plan.AddInputFile(truthFile)
	}
	if err = agree(ctx, c, err); err != nil {
		return nil, err
	}
	j := &Job{in: in, opts: opts, plan: plan}
	if rankOf(c) == 0 { // the others write into process 0's temporaries
		err = j.claim()
	}
	if err = agree(ctx, c, err); err != nil {
		j.Abort()
		return nil, err
	}
	if divided(c) {
		dir, err := c.Bcast(ctx, 0, []byte(j.outDir))
		if err != nil {
			j.Abort()
			return nil, fmt.Errorf("process %d of %d: the output's temporary directory: %w", c.Rank(), c.Size(), err)
		}
		j.outDir = string(dir)
	}
	err = j.interruptible(ctx, func() error {
		if err := checkDefinitions(in, &opts); err != nil {
			return err
		}
		if err := in.open(opts.Parallel); err != nil {
			return err
		}
		if divided(c) {
			return nil // each process checks its part (readPart)
		}
		return checkMemory(in, &opts)
	})
	if err = agree(ctx, c, err); err != nil {
		j.Abort()
		return nil, err
	}
	return j, nil
}

// claim claims the outputs of the job's options.
func (j *Job) claim() error {
	opts, plan := &j.opts, j.plan
	var err error
	if !opts.Check {
		replace := output.KeepExisting
		if opts.Force {
			replace = output.ReplaceTrace
		}
		if j.outDir, err = plan.Dir("output", opts.Output, replace); err != nil {
			return err
		}
	}
	if opts.Report != "" {
		if j.reportFile, err = plan.File("report", opts.Report); err != nil {
			return err
		}
	}
	if opts.HTML != "" {
		if j.htmlFile, err = plan.File("html report", opts.HTML); err != nil {
			return err
		}
	}
	return nil
}

// Claim claims one more file the caller will write (a CPU profile, say)
// and returns the temporary to write it to, which Commit moves into
// place with the rest.
func (j *Job) Claim(what, path string) (string, error) { return j.plan.File(what, path) }

// Input returns the opened input.
func (j *Job) Input() *Input { return j.in }

// Commit moves the output and the report into place. In a run divided
// among processes every process calls it after Run: process 0 moves the
// outputs (every part was written when Run returned on all), and it fails
// on every process when it fails on one.
func (j *Job) Commit() error {
	return agree(context.Background(), j.opts.Comm, j.plan.Commit())
}

// Abort removes every temporary and closes the input; nothing of the run
// is left behind.
func (j *Job) Abort() {
	j.plan.Abort()
	j.closeInput()
}

// Run repairs the trace at input as opts say and returns the report: it
// prepares the job, runs it and commits its outputs, or leaves nothing
// behind on error or cancellation.
func Run(ctx context.Context, input string, opts Options) (*repair.Report, error) {
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

// pipeline holds what the stages of one run hand to each other: the job's
// I/O around repair.Correct.
//
// The input is read once into what the correction needs: the definitions,
// of every location the events the happened-before relation looks at (a
// selection, trace.Events.Index, scanned by the matcher as each location is
// read and then dropped) and every event's time in a column (times).
// repair.Correct works on the columns in place; the output is written by copying
// the input with the new times. Conversions to another format and the
// Perfetto export need whole events: then tr holds them, and times are its
// time columns.
type pipeline struct {
	j        *Job
	opts     *Options
	np       int
	rep      *repair.Report
	tr       *trace.Trace
	whole    bool      // tr holds whole event sequences
	times    [][]int64 // every event's time: as read, then corrected
	g        *replay.Graph
	matcher  *replay.Matcher // fed by the reader (selections) or by match (whole events)
	truth    [][]int64       // true times, when known
	truthDir string
	res      *repair.Result // repair.Correct's
	part     []int32        // each location's process (a divided run)
	own      []bool         // the locations this process read (a divided run)
	html     *htmlHook      // nil without --html
	outFmt   Format
	progress func(string)
}

// Run does the work of the job into its temporaries and returns the
// report: it reads the input, corrects it (repair.Correct) and writes the output
// and the reports. It stops at the next stage boundary or parallel task
// when ctx is cancelled. It releases the input's open files when it
// returns.
func (j *Job) Run(ctx context.Context) (*repair.Report, error) {
	start := time.Now()
	defer j.closeInput()
	p := &pipeline{j: j, opts: &j.opts, np: par.Workers(j.opts.Parallel), progress: j.opts.Progress}
	if p.progress == nil || rankOf(j.opts.Comm) != 0 { // one line of progress from a divided run
		p.progress = func(string) {}
	}
	if j.htmlFile != "" {
		p.html = &htmlHook{file: j.htmlFile}
	}
	p.outFmt = j.opts.Format
	if p.outFmt == "" {
		p.outFmt = j.in.Format
	}
	var timing repair.TimingReport
	htmlTimer := new(float64) // timing_s.html only with --html
	if p.html != nil {
		htmlTimer = &timing.HTML
	}
	stages := []struct {
		name  string
		run   func(context.Context) error
		timer *float64
	}{
		// A read that blocks must not hold a cancelled run. (Writing, which
		// reads the input again, stops at its next look at ctx: abandoned,
		// it could write on after Abort removed its temporary.)
		{"reading " + j.in.Path, func(ctx context.Context) error { return j.interruptible(ctx, func() error { return p.read(ctx) }) }, &timing.Read},
		{"matching messages", p.match, &timing.Match},
		{"", p.correct, nil},
		{"writing " + j.opts.Output, p.write, &timing.Write},
		{"writing the HTML report " + j.opts.HTML, p.writeHTML, htmlTimer},
	}
	for _, s := range stages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := time.Now()
		if s.name != "" {
			p.progress(s.name)
		}
		if err := agree(ctx, p.opts.Comm, s.run(ctx)); err != nil {
			return nil, err
		}
		if s.timer != nil {
			*s.timer = time.Since(t0).Seconds()
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// repair.Correct timed its own stages.
	timing.Presync, timing.Model, timing.Correct, timing.Measure = p.rep.Timing.Presync, p.rep.Timing.Model, p.rep.Timing.Correct, p.rep.Timing.Measure
	timing.Total = time.Since(start).Seconds()
	p.rep.Timing = timing
	var err error
	if j.reportFile != "" {
		if err = writeReportFile(j.reportFile, p.rep); err != nil {
			err = fmt.Errorf("report %s: %w", j.opts.Report, err)
		}
	}
	if err = agree(ctx, p.opts.Comm, err); err != nil {
		return nil, err
	}
	return p.rep, nil
}

// inputErr names the input in an error of the input's contents.
func (p *pipeline) inputErr(err error) error {
	return fmt.Errorf("input %s: %w", p.j.in.Path, err)
}

// read reads the input (and the true times, when known) and checks it.
func (p *pipeline) read(ctx context.Context) error {
	in := p.j.in
	// Whole events only where the output is written from them (Perfetto):
	// a check writes nothing, and a conversion between native and OTF2
	// streams the input's events into the output as a rewrite does.
	p.whole = !p.opts.Check && p.outFmt == FormatPerfetto && !divided(p.opts.Comm)
	var tr *trace.Trace
	var err error
	if divided(p.opts.Comm) {
		return p.readPart(ctx)
	}
	if p.whole {
		if tr, err = in.Read(ctx, p.np); err == nil {
			p.times = make([][]int64, len(tr.Locations))
			for i, l := range tr.Locations {
				p.times[i] = l.Events.Time
			}
		}
	} else {
		tr, p.times, p.matcher, err = in.ReadMatched(ctx, p.np, p.matchOptions())
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
	return p.readTruth(ctx)
}

// readPart reads this process's block of whole nodes (divide) of a run
// divided among processes, checks and scans its locations for the
// matching as read does, then gathers the other processes' clock offsets
// (gatherTrace).
func (p *pipeline) readPart(ctx context.Context) error {
	in, c := p.j.in, p.opts.Comm
	src, err := in.source(p.np)
	if err != nil {
		return err
	}
	d, err := src.Declared()
	if err != nil {
		return p.inputErr(err)
	}
	opt := &trace.ReadOptions{Parallel: p.np, Locations: func(defs *trace.Trace) ([]bool, error) {
		part, err := divide(defs, d.LocationEvents, c.Size())
		p.part, p.own = part, ownLocations(part, c.Rank())
		if err == nil {
			err = checkPartMemory(in, p.opts, &d, p.own, c)
		}
		return p.own, err
	}}
	tr, times, m, err := in.readMatched(ctx, opt, p.matchOptions())
	if errors.As(err, new(*trace.EventError)) || errors.Is(err, trace.ErrInvalid) {
		err = p.inputErr(err)
	}
	if err = agree(ctx, c, err); err != nil {
		return err
	}
	if err := gatherTrace(ctx, c, tr, p.own); err != nil {
		return err
	}
	if err := tr.Validate(); err != nil {
		return p.inputErr(err)
	}
	if m == nil { // no location read here
		m = replay.NewMatcher(tr, p.matchOptions())
	}
	p.tr, p.times, p.matcher = tr, times, m
	return p.readTruth(ctx)
}

// match finishes the happened-before relation: the reader scanned the
// selections as it read them (whole events are scanned here).
func (p *pipeline) match(ctx context.Context) error {
	if p.whole {
		par.ForEach(len(p.tr.Locations), p.np, func(li int) { p.matcher.Scan(li, &p.tr.Locations[li].Events) })
	}
	var g *replay.Graph
	var err error
	if c := p.opts.Comm; divided(c) {
		// The own locations' dependencies only.
		g, err = p.matcher.FinishDivided(ctx, c, p.part)
	} else {
		g, err = p.matcher.Finish(ctx)
	}
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if err != nil {
		return p.inputErr(err)
	}
	p.g, p.matcher = g, nil
	return nil
}

// correct runs repair.Correct on what was read and completes its report with
// the input's and the output's.
func (p *pipeline) correct(ctx context.Context) error {
	c := p.opts.Correction
	// Every process of a divided run keeps what the HTML page needs (each
	// makes its part of the page).
	c.Parallel, c.Progress, c.KeepPresync = p.np, p.progress, p.opts.HTML != ""
	// The final measures run on beside the write stage (which waits for
	// them at its end): both only read the corrected times.
	c.Overlap = true
	res, err := repair.Correct(ctx, &repair.Trace{Defs: p.tr, Times: p.times, Graph: p.g, Truth: p.truth, TruthName: p.truthDir, Part: p.part}, &c)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return p.inputErr(err)
	}
	p.res = res
	tr, in, rep := p.tr, p.j.in, res.Report
	rep.Input, rep.InputFormat, rep.Checked = in.Path, string(in.Format), p.opts.Check
	if !p.opts.Check {
		rep.Output, rep.OutputFormat = p.opts.Output, string(p.outFmt)
	}
	if tr.Properties[trace.PropIncomplete] == "true" {
		rep.Notes = append(rep.Notes, "input is incomplete: the traced run did not finish (manifest says complete=false)"+unwrittenBuffers(in.Dir))
		rep.Truncated = true
	}
	if s := tr.Properties[trace.PropTruncated]; s != "" {
		rep.Notes = append(rep.Notes, "streams cut short at locations "+s)
		rep.Truncated = true
	}
	if s := tr.Properties[trace.PropUnrecordedMPI]; s != "" && s != "none" {
		rep.UnrecordedMPI = strings.Split(s, ",")
		rep.Notes = append(rep.Notes, fmt.Sprintf("the tracer did not record %d communicating MPI functions the program uses (messages through them are missing): %s", len(rep.UnrecordedMPI), s))
	}
	if a := in.Archive(); a != nil {
		for _, w := range a.Warnings() {
			rep.Warnings = append(rep.Warnings, w.String())
		}
	}
	p.rep = rep
	// The corrected times include the clock offsets: the output has none.
	for _, l := range tr.Locations {
		l.Offsets = nil
	}
	if tr.Properties == nil {
		tr.Properties = map[string]string{}
	}
	tr.Properties[trace.PropCorrected] = "clc-correct"
	return nil
}

// write writes the output (writeOutput) and waits for the final measures
// that repair.Correct left running beside it (repair.Correction.Overlap).
func (p *pipeline) write(ctx context.Context) error {
	err := p.writeOutput(ctx)
	if werr := p.res.Wait(); err == nil {
		err = werr
	}
	return err
}

// writeOutput writes the corrected trace into the output directory, if
// there is one, in the output's format.
func (p *pipeline) writeOutput(ctx context.Context) error {
	if p.j.outDir == "" {
		return nil
	}
	var err error
	in, dir := p.j.in, p.j.outDir
	c := p.opts.Comm
	switch {
	case divided(c) && p.outFmt == in.Format && in.Format == FormatOTF2:
		err = rewriteOTF2Part(ctx, c, in.Archive(), dir, p.times, p.own, p.np)
	case divided(c) && c.Rank() != 0:
		// Process 0 writes the other formats whole: the own times go to it.
		return gatherTimesTo0(ctx, c, p.times, p.own)
	case divided(c):
		if err = gatherTimesTo0(ctx, c, p.times, p.own); err != nil {
			return err
		}
		if p.outFmt == FormatPerfetto {
			return p.writePerfettoWhole(ctx)
		}
		if p.outFmt != in.Format {
			err = in.convert(ctx, dir, p.outFmt, p.tr, p.times, p.np)
		} else {
			err = in.rewrite(ctx, dir, p.times, p.tr.Properties, p.np)
		}
	case p.outFmt == FormatPerfetto:
		return p.writePerfetto(ctx)
	case p.outFmt != in.Format:
		err = in.convert(ctx, dir, p.outFmt, p.tr, p.times, p.np)
	default:
		err = in.rewrite(ctx, dir, p.times, p.tr.Properties, p.np)
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", p.opts.Output, err)
	}
	return nil
}

// readTruth reads the true times of the input's events, when they are
// known (Options.Truth, or the input's truth/ directory or truth.json),
// into p.truth.
func (p *pipeline) readTruth(ctx context.Context) error {
	dir := p.opts.Truth
	switch dir {
	case "-":
		return nil
	case "":
		if dir = p.j.in.truthDir(); dir == "" {
			return nil
		}
	}
	// A divided run reads its own locations' true times only.
	ownOnly := divided(p.opts.Comm)
	read := func(li int) bool { return !ownOnly || p.own[li] }
	if strings.HasSuffix(dir, ".json") {
		var ids []uint64
		var events, locs []int
		for i, l := range p.tr.Locations {
			if read(i) {
				ids, events, locs = append(ids, l.ID), append(events, len(p.times[i])), append(locs, i)
			}
		}
		tt, err := truthfile.Read(dir, p.tr.Resolution, ids, events)
		if err != nil {
			return fmt.Errorf("truth: %w", err)
		}
		p.truth, p.truthDir = make([][]int64, len(p.times)), dir
		for k, li := range locs {
			p.truth[li] = tt[k]
		}
		return nil
	}
	opt := &native.ReadOptions{Parallel: p.np}
	if ownOnly {
		opt.Locations = func(*trace.Trace) ([]bool, error) { return p.own, nil }
	}
	r, err := native.OpenDirWith(dir, opt)
	if err != nil {
		return fmt.Errorf("truth %s: %w", dir, err)
	}
	defer r.Close()
	truth, err := r.Read(ctx, opt)
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
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
		if !read(i) {
			continue
		}
		if l.Events.Len() != len(p.times[i]) {
			return fmt.Errorf("truth %s: location %d has %d events, the trace %d", dir, i, l.Events.Len(), len(p.times[i]))
		}
		tt[i] = l.Events.Time
	}
	p.truth, p.truthDir = tt, dir
	return nil
}

// writeReportFile writes the JSON report to path.
func writeReportFile(path string, rep *repair.Report) error {
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
	return &replay.MatchOptions{Alltoallv: p.opts.Alltoallv, Parallel: p.np}
}

// The names clc-trace gives the buffers its ranks left unwritten:
// DIR/.clc-meta/RANK.tail, or DIR/clc-native/.clc-meta/RANK.tail for an
// OTF2 run (package tracer's MetaDir, TailExt and NativeSubdir; this layer
// does not import the tracer).
const (
	tracerMetaDir   = ".clc-meta"
	tracerTailExt   = ".tail"
	tracerNativeDir = "clc-native"
)

// unwrittenBuffers says, for a trace clc-trace left unfinished in dir, which
// locations may be short because their process died with events in its
// buffers that no clc-trace wrote (its tail file is still there: the
// library removes it once it has written everything, clc-trace once it
// has written what it holds), and how to get them: "" when there are none.
func unwrittenBuffers(dir string) string {
	var ranks []int
	for _, meta := range []string{filepath.Join(dir, tracerMetaDir), filepath.Join(dir, tracerNativeDir, tracerMetaDir)} {
		paths, _ := filepath.Glob(filepath.Join(meta, "*"+tracerTailExt))
		for _, p := range paths {
			if r, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(p), tracerTailExt)); err == nil {
				ranks = append(ranks, r)
			}
		}
	}
	if len(ranks) == 0 {
		return ""
	}
	sort.Ints(ranks)
	list := make([]string, len(ranks))
	for i, r := range ranks {
		list[i] = strconv.Itoa(r)
	}
	return fmt.Sprintf("; locations %s may be short: their processes died with buffers no clc-trace wrote (%s/*%s), and `clc-trace --convert %s` writes what they hold into the trace",
		strings.Join(list, ", "), tracerMetaDir, tracerTailExt, dir)
}
