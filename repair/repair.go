package repair

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/msgsync"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Options configure Run.
type Options struct {
	// Output is the directory to write; "" with Check.
	Output string
	// Format of the output; "" means the input's.
	Format Format
	// Check analyses without writing anything.
	Check bool
	// Force replaces a non-empty output directory.
	Force   bool
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
	// Parallel bounds the goroutines of the reading, writing and parallel
	// phases (the replay runs one goroutine per location); 0 = GOMAXPROCS.
	Parallel int
	// Progress, if not nil, is told each stage as it starts.
	Progress func(stage string)
}

// ErrInconsistent is wrapped by Run's error when Strict reports find
// unmatched messages, incomplete or inconsistent collectives, a truncated
// input or dropped dependencies.
var ErrInconsistent = errors.New("the trace is inconsistent")

// Run repairs the trace at input as opts say and returns the report. The
// output is written to a temporary directory beside opts.Output and renamed
// when complete; on error nothing is left behind.
func Run(input string, opts Options) (*Report, error) {
	start := time.Now()
	np := opts.Parallel
	if np <= 0 {
		np = runtime.GOMAXPROCS(0)
	}
	opts.Params.Parallel = np
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	if err := opts.Params.Validate(); err != nil {
		return nil, err
	}
	in, err := Open(input)
	if err != nil {
		return nil, err
	}
	outFormat := opts.Format
	if outFormat == "" {
		outFormat = in.Format
	}
	if !opts.Check {
		if opts.Output == "" {
			return nil, errors.New("no output directory (-o) given; use --check to analyse without writing")
		}
		if err := checkOutput(in, opts.Output, opts.Force); err != nil {
			return nil, err
		}
	}
	rep := &Report{Tool: "clc-correct", ReportVersion: ReportVersion, Input: input, InputFormat: string(in.Format), Checked: opts.Check}
	if !opts.Check {
		rep.Output, rep.OutputFormat = opts.Output, string(outFormat)
	}

	progress("reading " + input)
	t0 := time.Now()
	tr, err := in.Read(np)
	if err != nil {
		return nil, err
	}
	if err := tr.Validate(); err != nil {
		return nil, fmt.Errorf("input %s: %w", input, err)
	}
	rep.Timing.Read = time.Since(t0).Seconds()
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

	progress("pre-synchronising")
	t0 = time.Now()
	method := presync.Resolve(tr, opts.Presync)
	n, err := presync.Apply(tr, &presync.Options{Method: opts.Presync, Parallel: np})
	if err != nil {
		return nil, fmt.Errorf("input %s: pre-synchronisation: %w", input, err)
	}
	rep.Presync = PresyncReport{Method: method.String(), Locations: n}
	if err := inRange(tr); err != nil {
		return nil, fmt.Errorf("input %s: %w", input, err)
	}
	if err := tr.Unordered(); err != nil {
		rep.Notes = append(rep.Notes, "times decrease within a location after pre-synchronisation ("+err.Error()+"); the correction makes them non-decreasing")
	}
	rep.Timing.Presync = time.Since(t0).Seconds()

	progress("matching messages")
	t0 = time.Now()
	g, err := replay.Match(tr, &replay.MatchOptions{Alltoallv: opts.Params.Alltoallv, Parallel: np})
	if err != nil {
		return nil, fmt.Errorf("input %s: %w", input, err)
	}
	rep.Timing.Match = time.Since(t0).Seconds()
	rep.Messages = MessagesReport{P2P: g.Messages, CollectiveLogical: g.LogicalMessages, CollectiveInstances: int64(len(g.Instances)), AlltoallvIgnored: g.Ignored}

	k := opts.Params.InTicks(tr.Resolution)
	c := make([][]int64, len(tr.Locations))
	node := make([]int32, len(tr.Locations))
	for i, l := range tr.Locations {
		c[i] = l.Events.Time
		node[i] = l.Node
	}
	before := clc.CheckViolations(c, g, node, k.Lat, np)
	rep.Before = violationReport(before, tr.Resolution)
	if opts.Refine {
		// The CLC runs on the refined times; the report still compares
		// with the pre-synchronised ones, kept in c.
		progress("refining the synchronisation from the messages")
		t0 = time.Now()
		ro := opts.RefineOptions
		ro.Parallel = np
		st, err := msgsync.Refine(tr, g, k.Lat, ro)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", input, err)
		}
		rep.Refinement = &st
		refined := make([][]int64, len(tr.Locations))
		for i, l := range tr.Locations {
			refined[i] = l.Events.Time
		}
		if st.Rejected {
			rep.Notes = append(rep.Notes, fmt.Sprintf("refinement rejected: it left violations summing to %s, not less than the %s before it",
				dur(sec(st.SumAfter, tr.Resolution)), dur(sec(st.SumBefore, tr.Resolution))))
		} else {
			v := clc.CheckViolations(refined, g, node, k.Lat, np)
			rep.Refined = ptr(violationReport(v, tr.Resolution))
			before = v
		}
		rep.Timing.Refine = time.Since(t0).Seconds()
	}

	progress("correcting")
	t0 = time.Now()
	res, err := clc.Correct(tr, g, opts.Params, &clc.Options{Progress: progress, Before: &before})
	if err != nil {
		return nil, fmt.Errorf("input %s: %w", input, err)
	}
	rep.Timing.Correct = time.Since(t0).Seconds()
	after := clc.CheckViolations(res.Times, g, node, k.Lat, np)
	rep.After = violationReport(after, tr.Resolution)
	rep.Correction = correctionReport(c, res.Times, res, tr.Resolution)
	rep.Fidelity.Position, rep.Fidelity.Distance = clc.MeasureFidelity(c, res.Times, np)
	rep.Params = paramsReport(&opts.Params, tr.Resolution)

	issues := g.Issues
	issues.Merge(&res.Dropped)
	rep.Issues = issuesReport(&issues)

	if acc, err := accuracy(in, opts.Truth, tr, c, res.Times, np); err != nil {
		return nil, err
	} else {
		rep.Accuracy = acc
	}

	// The corrected times replace the input's.
	for i, l := range tr.Locations {
		l.Events.Time = res.Times[i]
	}
	if tr.Properties == nil {
		tr.Properties = map[string]string{}
	}
	tr.Properties["clc.corrected"] = "clc-correct"
	if !opts.Check {
		progress("writing " + opts.Output)
		t0 = time.Now()
		if err := write(in, tr, opts.Output, outFormat, opts.Force, np); err != nil {
			return nil, err
		}
		rep.Timing.Write = time.Since(t0).Seconds()
	}
	rep.Timing.Total = time.Since(start).Seconds()
	return rep, nil
}

func ptr[T any](v T) *T { return &v }

// MaxTime bounds the magnitude of the pre-synchronised times clc accepts,
// leaving room for corrections in 64-bit ticks (2^62 ticks is 146 years at
// 1 GHz).
const MaxTime = 1 << 62

// inRange checks that every time is within ±MaxTime.
func inRange(t *trace.Trace) error {
	for li, l := range t.Locations {
		for j, v := range l.Events.Time {
			if v > MaxTime || v < -MaxTime {
				return &trace.EventError{Location: li, Event: j,
					Err: fmt.Errorf("time %d is beyond ±2^62 ticks, which leaves no room for corrections", v)}
			}
		}
	}
	return nil
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
func accuracy(in *Input, truthOpt string, tr *trace.Trace, c, lc [][]int64, np int) (*AccuracyReport, error) {
	dir := truthOpt
	switch dir {
	case "-":
		return nil, nil
	case "":
		dir = in.truthDir()
		if dir == "" {
			return nil, nil
		}
	}
	truth, err := native.ReadDir(dir, &native.ReadOptions{Parallel: np})
	if err != nil {
		return nil, fmt.Errorf("truth: %w", err)
	}
	if len(truth.Locations) != len(tr.Locations) {
		return nil, fmt.Errorf("truth %s has %d locations, the trace %d", dir, len(truth.Locations), len(tr.Locations))
	}
	tt := make([][]int64, len(truth.Locations))
	for i, l := range truth.Locations {
		if l.Events.Len() != len(c[i]) {
			return nil, fmt.Errorf("truth %s: location %d has %d events, the trace %d", dir, i, l.Events.Len(), len(c[i]))
		}
		tt[i] = l.Events.Time
	}
	if truth.Resolution != tr.Resolution {
		return nil, fmt.Errorf("truth %s has timer resolution %d, the trace %d", dir, truth.Resolution, tr.Resolution)
	}
	return &AccuracyReport{
		Truth:     dir,
		Presync:   clc.MeasureAccuracy(c, tt),
		Corrected: clc.MeasureAccuracy(lc, tt),
	}, nil
}

// write writes tr to out in format f, atomically: into a temporary
// directory beside out, renamed when complete.
func write(in *Input, tr *trace.Trace, out string, f Format, force bool, np int) error {
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".tmp-")
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	switch {
	case f == FormatNative:
		err = native.WriteDir(tmp, tr, &native.WriteOptions{Codec: native.CodecZstd, Parallel: np})
	case f == FormatOTF2 && in.Format == FormatOTF2:
		err = in.archive.Rewrite(tmp, tr, &otf.WriteOptions{Workers: np})
	case f == FormatOTF2:
		err = otf.WriteTrace(tmp, tr, &otf.WriteOptions{Workers: np, Creator: "clc-correct"})
	default:
		err = fmt.Errorf("unknown output format %q", f)
	}
	if err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	// Replace an existing (empty, or with --force any) output directory.
	if _, err := os.Stat(out); err == nil {
		if !force {
			if err := os.Remove(out); err != nil {
				return fmt.Errorf("output %s: %w", out, err)
			}
		} else {
			old := tmp + ".old"
			if err := os.Rename(out, old); err != nil {
				return fmt.Errorf("output %s: %w", out, err)
			}
			defer os.RemoveAll(old)
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		return fmt.Errorf("output %s: %w", out, err)
	}
	ok = true
	return nil
}
