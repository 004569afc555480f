package repair

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// ReportVersion is the version of the JSON report (docs/report.md).
const ReportVersion = 2

// Report is what clc-correct prints and writes with --report; its JSON form
// is documented in docs/report.md. Times are in seconds unless a field name
// ends in _ticks.
type Report struct {
	Tool          string   `json:"tool"`
	ReportVersion int      `json:"report_version"`
	Input         string   `json:"input"`
	InputFormat   string   `json:"input_format"`
	Output        string   `json:"output,omitempty"`
	OutputFormat  string   `json:"output_format,omitempty"`
	Checked       bool     `json:"check_only"`
	Resolution    uint64   `json:"timer_resolution"`
	Locations     int      `json:"locations"`
	Events        int64    `json:"events"`
	Truncated     bool     `json:"truncated"`
	Notes         []string `json:"notes,omitempty"`
	// Warnings are what the input reader found odd but read anyway (as
	// the reference reader does): duplicate definitions, announced event
	// counts that the files contradict, …
	Warnings []string `json:"warnings,omitempty"`
	// UnrecordedMPI lists the communicating MPI functions the program
	// imported that the tracer did not record (clc-trace): messages
	// through them are missing from the trace.
	UnrecordedMPI []string `json:"unrecorded_mpi,omitempty"`
	// Regions counts the code regions the trace defines.
	Regions RegionsReport `json:"regions"`

	Params   ParamsReport    `json:"parameters"`
	Presync  PresyncReport   `json:"presync"`
	Messages MessagesReport  `json:"messages"`
	Before   ViolationReport `json:"before"`
	// Method is the method that ran, μ and where it came from, the clock
	// domains and the clock model's estimation and guard.
	Method *MethodReport `json:"method,omitempty"`
	// Model is the clock condition after the clock model, before the CLC
	// (when the model was used).
	Model *ViolationReport `json:"model,omitempty"`
	// ModelShift says how far the clock model moved the events (it moves
	// them both ways), when it ran; Correction then describes what the
	// CLC did on top of it.
	ModelShift *ModelShiftReport `json:"model_shift,omitempty"`
	Correction CorrectionReport  `json:"correction"`
	// Moved counts what the whole correction moved (the clock model and
	// the CLC, both ways) against the pre-synchronised times.
	Moved MovedReport `json:"moved"`
	// MovedFromInput counts what the whole run moved, pre-synchronisation
	// included, against the input's times as the OTF2 reference reader
	// shows them (each location's own clock offsets interpolated): what a
	// comparison of input and output with otf2-print finds. The text
	// report's headline.
	MovedFromInput MovedReport     `json:"moved_from_input"`
	After          ViolationReport `json:"after"`
	// ErrorBars says how sure the corrected times are (with the clock
	// model).
	ErrorBars *ErrorBarsReport `json:"error_bars,omitempty"`
	Fidelity  FidelityReport   `json:"fidelity"`
	Accuracy  *AccuracyReport  `json:"accuracy,omitempty"`
	Issues    IssuesReport     `json:"issues"`
	Timing    TimingReport     `json:"timing_s"`
	// Divided says what the processes of a divided run exchanged (nil for
	// one process).
	Divided *DividedReport `json:"divided,omitempty"`
}

// DividedReport is what the processes of a correction divided among them
// exchanged, summed over the processes.
type DividedReport struct {
	Processes int `json:"processes"`
	// Supersteps of the CLC's forward passes (summed over the passes);
	// SendTimes and Contributions the records they exchanged (crossing
	// send times, contributions to instances with members elsewhere);
	// ReplayBytes the bytes of those and of the backward pass's receive
	// times.
	Supersteps    int   `json:"supersteps"`
	SendTimes     int64 `json:"send_times"`
	Contributions int64 `json:"contributions"`
	ReplayBytes   int64 `json:"replay_bytes"`
	// HaloEvents counts the events of other processes' locations whose
	// times the processes fetched for the clock model and the clock
	// condition.
	HaloEvents int64 `json:"halo_events"`
}

// RegionsReport counts the regions a trace defines by distinct name: MPI
// functions, and the user's (regions a tracer made of the program's own
// code: marked regions, instrumented functions).
type RegionsReport struct {
	MPI  int `json:"mpi"`
	User int `json:"user"`
	// UserNames are the user regions' names, sorted (at most 50).
	UserNames []string `json:"user_names,omitempty"`
}

// paradigmCompiler is OTF2's paradigm of compiler-instrumented functions.
const paradigmCompiler trace.Paradigm = 2

// regionsReport counts t's regions: a region is the user's when its
// paradigm says so (user, compiler), or, with none, when its name is not
// an MPI function's.
func regionsReport(t *trace.Trace) RegionsReport {
	mpi, user := map[string]bool{}, map[string]bool{}
	for _, r := range t.Regions {
		switch {
		case r.Name == "":
		case r.Paradigm == trace.ParadigmUser || r.Paradigm == paradigmCompiler ||
			(r.Paradigm == trace.ParadigmUnknown && !strings.HasPrefix(r.Name, "MPI_")):
			user[r.Name] = true
		case r.Paradigm == trace.ParadigmMPI || r.Paradigm == trace.ParadigmUnknown:
			mpi[r.Name] = true
		}
	}
	rep := RegionsReport{MPI: len(mpi), User: len(user)}
	for n := range user {
		rep.UserNames = append(rep.UserNames, n)
	}
	sort.Strings(rep.UserNames)
	if len(rep.UserNames) > 50 {
		rep.UserNames = rep.UserNames[:50]
	}
	return rep
}

// ParamsReport lists the parameters used.
type ParamsReport struct {
	LatencyIntra   float64 `json:"latency_intra"`
	LatencyInter   float64 `json:"latency_inter"`
	LatencyShared  float64 `json:"latency_shared"`
	Gamma          float64 `json:"gamma"`
	TrustReference bool    `json:"trust_reference"`
	ReferenceGamma float64 `json:"reference_gamma"`
	InformedGamma  float64 `json:"informed_gamma"`
	InformedSlope  float64 `json:"informed_slope"`
	Delta          float64 `json:"delta"`
	Slope          float64 `json:"backward_slope"`
	MaxPasses      int     `json:"max_passes"`
	MaxShift       float64 `json:"max_shift"`
	ShiftFactor    float64 `json:"shift_factor"`
	Alltoallv      string  `json:"alltoallv"`
}

// PresyncReport describes the pre-synchronisation.
type PresyncReport struct {
	Method string `json:"method"`
	// Locations counts the locations whose times the pre-synchronisation
	// maps by a correction (not the identity).
	Locations int `json:"locations_corrected"`
	// WithOffsets counts the locations that have clock-offset
	// measurements, Measurements the measurements of all of them, and
	// Single the locations with exactly one (a run that ended before its
	// last measurement: the OTF2 reader's interpolation applies none).
	WithOffsets  int   `json:"locations_with_offsets"`
	Measurements int64 `json:"measurements"`
	Single       int   `json:"locations_one_measurement"`
	// Reader compares the pre-synchronised times with those the OTF2
	// reference reader gives the input's events (each location's own
	// measurements interpolated): the events whose time differs, and how
	// far later and earlier (seconds). Not zero when the method pools the
	// measurements of locations that share a clock (node, domain) or fits
	// them (regression).
	Reader ReaderDifference `json:"reader_difference"`
}

// ReaderDifference counts the events whose pre-synchronised time differs
// from the time the OTF2 reader gives them.
type ReaderDifference struct {
	Events     int64   `json:"events"`
	MaxLater   float64 `json:"max_later"`
	MaxEarlier float64 `json:"max_earlier"`
}

// presyncReport describes the pre-synchronisation of tr by method m that
// corrected n locations and departed from the reader's times by dep.
func presyncReport(tr *trace.Trace, m presync.Method, n int, dep presync.DepartureStats) PresyncReport {
	r := PresyncReport{Method: m.String(), Locations: n, Reader: ReaderDifference{Events: dep.Events,
		MaxLater: Seconds(dep.MaxLater, tr.Resolution), MaxEarlier: Seconds(dep.MaxEarlier, tr.Resolution)}}
	for _, l := range tr.Locations {
		if k := len(l.Offsets); k > 0 {
			r.WithOffsets++
			r.Measurements += int64(k)
			if k == 1 {
				r.Single++
			}
		}
	}
	return r
}

// Line says in one line what the pre-synchronisation did, as the text
// report prints it (after "pre-synchronisation: ").
func (r *PresyncReport) Line(locations int) string {
	s := r.Method
	switch {
	case r.WithOffsets == 0:
		s += "; no location has clock-offset measurements: times as recorded"
	default:
		s += fmt.Sprintf("; %d of %d locations have clock-offset measurements (%d in all", r.WithOffsets, locations, r.Measurements)
		if r.Single > 0 {
			s += fmt.Sprintf("; %d locations have only one", r.Single)
		}
		s += fmt.Sprintf("), %d locations corrected", r.Locations)
		switch {
		case r.Single > 0 && r.Method == presync.Interpolate.String():
			s += " (the OTF2 reader's interpolation needs two measurements and applies none of a single one; --presync regression applies it as a constant offset)"
		case r.Locations == 0 && (r.Method == presync.Node.String() || r.Method == presync.Domain.String()):
			s += " (every location with measurements reads the clock of location 0, the reference)"
		}
	}
	if d := r.Reader; d.Events > 0 {
		s += fmt.Sprintf("; %d events differ from the OTF2 reader's per-location interpolation (later by up to %s, earlier by up to %s)",
			d.Events, dur(d.MaxLater), dur(d.MaxEarlier))
	}
	return s
}

// MessagesReport counts the messages of the happened-before relation.
type MessagesReport struct {
	P2P                 int64 `json:"p2p"`
	CollectiveLogical   int64 `json:"collective_logical"`
	CollectiveInstances int64 `json:"collective_instances"`
	// AlltoallvIgnored counts ALLTOALLV/W instances kept internal
	// (--alltoallv=ignore).
	AlltoallvIgnored int64 `json:"alltoallv_ignored"`
	// CollectiveSingle counts collective instances on one-member
	// communicators (MPI_COMM_SELF and the like), kept internal.
	CollectiveSingle int64 `json:"collective_single"`
	// Shared counts the shared-memory relations between threads by kind
	// (hybrid traces only).
	Shared map[string]int64 `json:"shared_memory,omitempty"`
}

// ClassReport is the clock condition of one class of messages.
type ClassReport struct {
	Messages   int64 `json:"messages"`
	Reversed   int64 `json:"reversed"`
	Violations int64 `json:"violations"`
	// Over reversed messages: send − receive.
	MaxDisplacement  float64 `json:"max_displacement"`
	MeanDisplacement float64 `json:"mean_displacement"`
	// Largest send + μ − receive.
	MaxViolation float64 `json:"max_violation"`
}

// ViolationReport is the clock condition of a set of times.
type ViolationReport struct {
	P2P        ClassReport `json:"p2p"`
	Collective ClassReport `json:"collective"`
	Total      ClassReport `json:"total"`
	// Violations is Total.Violations.
	Violations int64 `json:"violations"`
	// Shared is the order of the shared-memory relations (hybrid traces only).
	Shared *SharedReport `json:"shared_memory,omitempty"`
}

// CorrectionReport describes what the correction did.
type CorrectionReport struct {
	// ViolationsRemoved is the violations before the CLC minus those after
	// it (all of them: the CLC leaves none).
	ViolationsRemoved int64 `json:"violations_removed"`
	// ReceivesMoved counts the receives the forward pass moved later
	// because of their sends (the jumps). One moved receive removes every
	// violating message into it (a collective receive has several logical
	// senders), and the amortization after a jump removes later
	// violations without a jump of their own, so it may be smaller than
	// ViolationsRemoved.
	ReceivesMoved int64        `json:"receives_moved"`
	EventsMoved   int64        `json:"events_moved"`
	MaxShift      float64      `json:"max_shift"`
	MeanShift     float64      `json:"mean_shift"`
	Gamma         float64      `json:"gamma"`
	Threshold     float64      `json:"max_shift_threshold"`
	Passes        []PassReport `json:"passes"`
	// SharedMoved counts the receives the kept pass moved for a
	// shared-memory relation (with another thread of their process).
	SharedMoved int64 `json:"shared_memory_moved"`
}

// modelShiftReport sums the clock model's moves of every location.
func modelShiftReport(moves []shiftStats, res uint64) *ModelShiftReport {
	var m ModelShiftReport
	var abs float64
	for _, s := range moves {
		m.EventsMoved += s.moved
		abs += s.abs
		m.MaxLater = max(m.MaxLater, Seconds(s.maxShift, res))
		m.MaxEarlier = max(m.MaxEarlier, Seconds(s.maxEarlier, res))
	}
	if m.EventsMoved > 0 {
		m.MeanAbs = abs / float64(m.EventsMoved) / float64(res)
	}
	return &m
}

// ModelShiftReport describes the clock model's moves against the
// pre-synchronised times.
type ModelShiftReport struct {
	EventsMoved int64   `json:"events_moved"`
	MaxLater    float64 `json:"max_later"`
	MaxEarlier  float64 `json:"max_earlier"`
	MeanAbs     float64 `json:"mean_abs"`
}

// PassReport describes one forward pass.
type PassReport struct {
	Gamma         float64 `json:"gamma"`
	ReceivesMoved int64   `json:"receives_moved"`
	MaxShift      float64 `json:"max_forward_shift"`
}

// FidelityReport says how well the correction kept the lengths of local
// intervals (paper, section 6.2 and Table 4): of the intervals from a
// location's first event to each event (Position) and between successive
// events (Distance).
type FidelityReport struct {
	Position IntervalFidelityReport `json:"event_position"`
	Distance IntervalFidelityReport `json:"event_distance"`
}

// IntervalFidelityReport is the fidelity of one kind of local interval
// (measure.Fidelity).
type IntervalFidelityReport struct {
	Intervals int64 `json:"intervals"`
	// MaxRel is the largest relative deviation |t′−t|/t (a fraction; +Inf
	// for an interval of length 0 that got a length, which the JSON
	// report writes as the largest double).
	MaxRel float64 `json:"max_relative"`
	// MaxAbs is the largest absolute deviation |t′−t| in ticks.
	MaxAbs int64 `json:"max_absolute_ticks"`
	// MaxRelFinite is the largest relative deviation over the intervals
	// of a length other than 0, and MaxRelLen the length before and after
	// of the interval where it occurred (ticks).
	MaxRelFinite float64  `json:"max_relative_finite"`
	MaxRelLen    [2]int64 `json:"max_relative_interval_ticks"`
	// Opened counts the intervals of length 0 that got a length (two
	// events at one time moved apart), OpenedMax the largest length one
	// got (ticks).
	Opened    int64 `json:"zero_length_opened"`
	OpenedMax int64 `json:"zero_length_opened_max_ticks"`
	// WeightedAvg is Σ|t′−t| / Σ|t|.
	WeightedAvg float64 `json:"weighted_average"`
	// Above[k] is the share of intervals whose relative deviation exceeds
	// measure.Thresholds[k]; AboveTime[k] the share of the total interval
	// length they take.
	Above     [6]float64 `json:"share_of_intervals_above"`
	AboveTime [6]float64 `json:"share_of_time_above"`
}

// fidelityReport is the report of the fidelity of event position and
// event distance, fid[0] and fid[1].
func fidelityReport(fid [2]measure.Fidelity) FidelityReport {
	one := func(f *measure.Fidelity) IntervalFidelityReport {
		return IntervalFidelityReport{Intervals: f.Intervals, MaxRel: f.MaxRel, MaxAbs: f.MaxAbs,
			MaxRelFinite: f.MaxRelFinite, MaxRelLen: f.MaxRelLen, Opened: f.Opened, OpenedMax: f.OpenedMax,
			WeightedAvg: f.WeightedAvg, Above: f.Above, AboveTime: f.AboveTime}
	}
	return FidelityReport{Position: one(&fid[0]), Distance: one(&fid[1])}
}

// AccuracyReport compares with the true times.
type AccuracyReport struct {
	Truth     string           `json:"truth"`
	Presync   TruthErrorReport `json:"presync_only"`
	Corrected TruthErrorReport `json:"corrected"`
	// WithinBars is the share of the events whose corrected time lies
	// within its error bar of the truth (with error bars).
	WithinBars float64 `json:"within_error_bars,omitempty"`
}

// TruthErrorReport is the error of a set of times against the true times
// of the same events, both in the reference clock (measure.Accuracy).
type TruthErrorReport struct {
	Events int64 `json:"events"`
	// MeanAbs, P99Abs and MaxAbs are the mean, the 99th percentile and the
	// largest |time − truth| in ticks.
	MeanAbs float64 `json:"mean_abs_error_ticks"`
	P99Abs  int64   `json:"p99_abs_error_ticks"`
	MaxAbs  int64   `json:"max_abs_error_ticks"`
	// MeanSigned is the mean time − truth in ticks.
	MeanSigned float64 `json:"mean_error_ticks"`
}

func truthErrorReport(a measure.Accuracy) TruthErrorReport {
	return TruthErrorReport{Events: a.Events, MeanAbs: a.MeanAbs, P99Abs: a.P99Abs, MaxAbs: a.MaxAbs, MeanSigned: a.MeanSigned}
}

// IssuesReport lists matching problems.
type IssuesReport struct {
	Counts   map[string]int64 `json:"counts"`
	Examples []string         `json:"examples,omitempty"`
}

// TimingReport gives the wall-clock time of each stage.
type TimingReport struct {
	Read    float64 `json:"read"`
	Presync float64 `json:"presync"`
	// Model is μ and the clock model (the stage between matching and the
	// CLC).
	Model   float64 `json:"model"`
	Match   float64 `json:"match"`
	Correct float64 `json:"correct"`
	// Measure is the final measures (what moved against the
	// pre-synchronised and the input's times, the error bars, the
	// accuracy after): in a run of one process beside the write stage.
	Measure float64 `json:"measure"`
	Write   float64 `json:"write"`
	// HTML is the time the HTML report (--html) took.
	HTML  float64 `json:"html,omitempty"`
	Total float64 `json:"total"`
}

// Seconds converts ticks of a timer with res ticks per second to seconds.
func Seconds(ticks int64, res uint64) float64 { return float64(ticks) / float64(res) }

func classReport(m measure.MessageStats, res uint64) ClassReport {
	c := ClassReport{Messages: m.Messages, Reversed: m.Reversed, Violations: m.Violations,
		MaxDisplacement: Seconds(m.MaxDisplacement, res), MaxViolation: Seconds(m.MaxViolation, res)}
	if m.Reversed > 0 {
		c.MeanDisplacement = float64(m.SumDisplacement) / float64(m.Reversed) / float64(res)
	}
	return c
}

func violationReport(v measure.Violations, res uint64) ViolationReport {
	t := v.Total()
	return ViolationReport{P2P: classReport(v.P2P, res), Collective: classReport(v.Collective, res),
		Total: classReport(t, res), Violations: t.Violations, Shared: sharedReport(&v, res)}
}

// shiftStats are the moves of one location: how many events moved, by how
// much in all, and the largest move, in ticks.
type shiftStats struct {
	moved      int64
	sum, abs   float64
	maxShift   int64
	maxEarlier int64 // the largest move earlier (the clock model's)
}

// shifts compares the times before (c) and after (lc) a correction.
func shifts(c, lc []int64) shiftStats {
	var s shiftStats
	for j, v := range c {
		if d := lc[j] - v; d != 0 {
			s.moved++
			s.sum += float64(d)
			s.abs += math.Abs(float64(d))
			s.maxShift = max(s.maxShift, d)
			s.maxEarlier = max(s.maxEarlier, -d)
		}
	}
	return s
}

// correctionReport describes the correction r from the moves of every
// location.
func correctionReport(moves []shiftStats, r *clc.Result, res uint64) CorrectionReport {
	cr := CorrectionReport{ReceivesMoved: r.Jumps(), Gamma: r.Gamma(), Threshold: Seconds(r.Threshold, res)}
	var sum float64
	var maxShift int64
	for _, m := range moves {
		cr.EventsMoved += m.moved
		sum += m.sum
		maxShift = max(maxShift, m.maxShift)
	}
	cr.MaxShift = Seconds(maxShift, res)
	if cr.EventsMoved > 0 {
		cr.MeanShift = sum / float64(cr.EventsMoved) / float64(res)
	}
	for _, p := range r.Passes {
		cr.Passes = append(cr.Passes, PassReport{Gamma: p.Gamma, ReceivesMoved: p.Jumps, MaxShift: Seconds(p.MaxShift, res)})
	}
	cr.SharedMoved = r.Passes[len(r.Passes)-1].SharedJumps
	return cr
}

// paramsReport lists the CLC's parameters p with μ as used (lat, ticks).
func paramsReport(p *clc.Params, alltoallv replay.AlltoallvPolicy, lat replay.Latency, res uint64) ParamsReport {
	return ParamsReport{
		LatencyIntra: Seconds(lat.Intra, res), LatencyInter: Seconds(lat.Inter, res), LatencyShared: Seconds(lat.Shared, res),
		Gamma: p.Gamma, TrustReference: p.TrustReference, ReferenceGamma: p.ReferenceGamma,
		InformedGamma: p.InformedGamma, InformedSlope: p.InformedSlope, Delta: p.Delta.Seconds(), Slope: p.Slope, MaxPasses: p.MaxPasses,
		MaxShift: p.MaxShift.Seconds(), ShiftFactor: p.ShiftFactor, Alltoallv: alltoallv.String(),
	}
}

func issuesReport(s *replay.Issues) IssuesReport {
	r := IssuesReport{Counts: map[string]int64{}}
	for k, n := range s.Count {
		r.Counts[k.String()] = n
	}
	for _, e := range s.Examples {
		r.Examples = append(r.Examples, e.String())
	}
	return r
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonSafe(r))
}

// jsonSafe replaces infinities (a zero-length interval that got a length)
// by the largest float, which JSON can carry.
func jsonSafe(r *Report) *Report {
	c := *r
	fix := func(f *IntervalFidelityReport) {
		if math.IsInf(f.MaxRel, 1) {
			f.MaxRel = math.MaxFloat64
		}
	}
	fix(&c.Fidelity.Position)
	fix(&c.Fidelity.Distance)
	return &c
}

// dur formats seconds as a readable duration.
func dur(s float64) string {
	d := time.Duration(math.Round(s * 1e9))
	return d.String()
}

// Percent formats a share as a percentage with two decimals ("< 0.01%"
// for a share above 0 that would round to 0); the report passes it only
// finite shares (an infinite one would print as "+Inf%").
func Percent(f float64) string {
	if f > 0 && f < 0.00005 {
		return "< 0.01%"
	}
	return fmt.Sprintf("%.2f%%", 100*f)
}

// plural returns n and the noun, with an s unless n is 1.
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Largest says in words the largest relative change of the intervals
// (of a length other than 0: which interval, from what length to what),
// and how many intervals of length 0 got a length, whose relative change
// is no number; "no interval changed" when none did.
func (f *IntervalFidelityReport) Largest(res uint64) string {
	var parts []string
	if f.MaxRelFinite > 0 {
		parts = append(parts, fmt.Sprintf("largest relative change %s (an interval of %d ticks, %s, became %d ticks, %s)",
			Percent(f.MaxRelFinite), f.MaxRelLen[0], dur(Seconds(f.MaxRelLen[0], res)), f.MaxRelLen[1], dur(Seconds(f.MaxRelLen[1], res))))
	}
	if f.Opened > 0 {
		parts = append(parts, fmt.Sprintf("%s of length 0 got a length, up to %s (events at one time moved apart)",
			plural(f.Opened, "interval"), dur(Seconds(f.OpenedMax, res))))
	}
	if len(parts) == 0 {
		return "no interval changed"
	}
	return strings.Join(parts, "; ")
}

// WriteText writes the report for a terminal.
func (r *Report) WriteText(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("clc-correct  %s (%s)", r.Input, r.InputFormat)
	if r.Output != "" {
		p(" → %s (%s)", r.Output, r.OutputFormat)
	} else {
		p(" (check only, nothing written)")
	}
	p("\n")
	p("  %d locations, %d events, timer %d ticks/s\n", r.Locations, r.Events, r.Resolution)
	if g := r.Regions; g.User > 0 {
		names := strings.Join(g.UserNames, ", ")
		if g.User > len(g.UserNames) {
			names += ", …"
		}
		p("  regions: %d MPI, user regions: %d (%s)\n", g.MPI, g.User, names)
	}
	p("  messages: %d point-to-point, %d logical in %d collective instances",
		r.Messages.P2P, r.Messages.CollectiveLogical, r.Messages.CollectiveInstances)
	if r.Messages.AlltoallvIgnored > 0 {
		p(" (%d ALLTOALLV/W kept internal, --alltoallv=ignore)", r.Messages.AlltoallvIgnored)
	}
	if r.Messages.CollectiveSingle > 0 {
		p(" (%d on one-member communicators such as MPI_COMM_SELF: internal)", r.Messages.CollectiveSingle)
	}
	p("\n")
	if len(r.UnrecordedMPI) > 0 {
		p("  not recorded by the tracer (messages through them are missing): %s\n", strings.Join(r.UnrecordedMPI, ", "))
	}
	for i, w := range r.Warnings {
		if i == 5 {
			p("  … %d warnings in all (see --report)\n", len(r.Warnings))
			break
		}
		p("  warning: %s\n", w)
	}
	p("  pre-synchronisation: %s\n", r.Presync.Line(r.Locations))
	for _, n := range r.Notes {
		p("  note: %s\n", n)
	}
	vline := func(name string, v ViolationReport) {
		p("  %-7s violations %d (p2p %d, collective %d), reversed %d", name, v.Violations,
			v.P2P.Violations, v.Collective.Violations, v.Total.Reversed)
		if v.Total.Reversed > 0 {
			p(", displacement max %s mean %s", dur(v.Total.MaxDisplacement), dur(v.Total.MeanDisplacement))
		}
		p("\n")
	}
	r.methodLines(p)
	vline("before:", r.Before)
	if r.Model != nil {
		if m := r.ModelShift; m != nil {
			p("  clock model moved %d events (later by up to %s, earlier by up to %s, mean |shift| %s)\n",
				m.EventsMoved, dur(m.MaxLater), dur(m.MaxEarlier), dur(m.MeanAbs))
		}
		vline("model:", *r.Model)
	}
	c := r.Correction
	p("  correction (CLC): %d violations removed by moving %d receives later and amortizing; %d events moved later (by up to %s, mean %s), γ %g in %d pass(es)\n",
		c.ViolationsRemoved, c.ReceivesMoved, c.EventsMoved, dur(c.MaxShift), dur(c.MeanShift), c.Gamma, len(c.Passes))
	vline("after:", r.After)
	p("  %s\n", r.MovedLine())
	if line := r.ErrorBarsLine(); line != "" {
		p("  %s\n", line)
		if r.ErrorBars.Note != "" {
			p("    %s\n", r.ErrorBars.Note)
		}
		for _, l := range r.ThinBarsLines(thinBarsShown) {
			p("    %s\n", l)
		}
	}
	r.writeSharedText(p)
	d := r.Fidelity.Distance
	p("  fidelity (event distance, the intervals between successive events): weighted avg change %s; changed by > 0.01%%: %s, > 1%%: %s, > 100%%: %s of intervals; %s\n",
		Percent(d.WeightedAvg), Percent(d.Above[1]), Percent(d.Above[3]), Percent(d.Above[5]), d.Largest(r.Resolution))
	pos := r.Fidelity.Position
	p("  fidelity (event position, from a location's first event): %s; largest absolute change %s\n", pos.Largest(r.Resolution), dur(Seconds(pos.MaxAbs, r.Resolution)))
	if a := r.Accuracy; a != nil {
		p("  accuracy vs truth: mean |error| %s after pre-sync, %s corrected (99th percentile %s → %s, max %s → %s)",
			dur(Seconds(int64(a.Presync.MeanAbs), r.Resolution)), dur(Seconds(int64(a.Corrected.MeanAbs), r.Resolution)),
			dur(Seconds(a.Presync.P99Abs, r.Resolution)), dur(Seconds(a.Corrected.P99Abs, r.Resolution)),
			dur(Seconds(a.Presync.MaxAbs, r.Resolution)), dur(Seconds(a.Corrected.MaxAbs, r.Resolution)))
		if r.ErrorBars != nil && r.ErrorBars.Events > 0 {
			p("; %s of events within their error bars", Percent(a.WithinBars))
		}
		p("\n")
	}
	if len(r.Issues.Counts) > 0 {
		keys := make([]string, 0, len(r.Issues.Counts))
		for k := range r.Issues.Counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", k, r.Issues.Counts[k]))
		}
		p("  issues (the events of unmatched messages and collectives were treated as internal, times going backward put in order): %s\n", strings.Join(parts, ", "))
		for i, e := range r.Issues.Examples {
			if i == 5 {
				p("    … (see --report for more)\n")
				break
			}
			p("    %s\n", e)
		}
	}
	p("  time: read %.2fs, presync %.2fs, match %.2fs, clock model %.2fs, correct %.2fs, measures %.2fs, write %.2fs", r.Timing.Read, r.Timing.Presync, r.Timing.Match, r.Timing.Model, r.Timing.Correct, r.Timing.Measure, r.Timing.Write)
	if r.Timing.HTML > 0 {
		p(", html %.2fs", r.Timing.HTML)
	}
	p(", total %.2fs\n", r.Timing.Total)
}

// ErrInconsistent is the error clc-correct's --strict wraps when the
// report is Inconsistent.
var ErrInconsistent = errors.New("the trace is inconsistent")

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

// MovedLine says in one line what the whole run moved against the input
// as the OTF2 reader shows it (MovedFromInput: pre-synchronisation, clock
// model and CLC, both ways), as the text report and the HTML page print
// it.
func (r *Report) MovedLine() string {
	m := r.MovedFromInput
	if m.Events == 0 {
		return "events moved: none (every event keeps the time an OTF2 reader shows for the input)"
	}
	return fmt.Sprintf("events moved: %d of %d against the input as an OTF2 reader shows it (%s; later by up to %s, earlier by up to %s, mean |shift| %s)",
		m.Events, r.Events, r.movedBy(), dur(m.MaxLater), dur(m.MaxEarlier), dur(m.MeanAbs))
}

// movedBy says which stages moved the events MovedLine counts.
func (r *Report) movedBy() string {
	var by []string
	if n := r.Presync.Reader.Events; n > 0 {
		by = append(by, fmt.Sprintf("%d by pre-synchronisation %s", n, r.Presync.Method))
	}
	if n := r.Moved.Events; n > 0 {
		by = append(by, fmt.Sprintf("%d by the clock model and the CLC", n))
	}
	return strings.Join(by, ", ")
}

// thinBarsShown is how many domains of thin evidence the text report
// names.
const thinBarsShown = 5

// ThinBarsLines says, for at most n clock domains whose error bars rest on
// thin evidence (a DomainBar.Note), widest mean bar first, why, and how
// many more there are.
func (r *Report) ThinBarsLines(n int) []string {
	e := r.ErrorBars
	if e == nil {
		return nil
	}
	var thin []DomainBar
	for _, d := range e.Domains {
		if d.Note != "" {
			thin = append(thin, d)
		}
	}
	slices.SortStableFunc(thin, func(a, b DomainBar) int { return cmp.Compare(b.Mean, a.Mean) })
	var out []string
	for i, d := range thin {
		if i == n {
			out = append(out, fmt.Sprintf("and %d more clock domains of thin evidence (the report's error_bars.domains)", len(thin)-n))
			break
		}
		out = append(out, fmt.Sprintf("clock domain %d: bars ±%s mean, ±%s largest: %s", d.Domain, dur(d.Mean), dur(d.Max), d.Note))
	}
	return out
}

// ErrorBarsLine says in one line how sure the corrected times are, or ""
// without error bars.
func (r *Report) ErrorBarsLine() string {
	e := r.ErrorBars
	if e == nil || e.Events == 0 {
		return ""
	}
	s := fmt.Sprintf("error bars (%.0f %% confidence, against the reference clock): ±%s or less for 95 %% of events, median ±%s, largest ±%s",
		100*e.Confidence, dur(e.P95), dur(e.Median), dur(e.Max))
	if e.Unbounded > 0 {
		s += fmt.Sprintf("; %d events of clocks nothing bounds", e.Unbounded)
	}
	return s
}
