package repair

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/clc-tools/clc/clockmodel"
)

// ClockModelOptions configure the stage between matching and the CLC.
type ClockModelOptions struct {
	// Method is MethodModel (the default: the estimated clocks when they
	// pass the guard, then the CLC) or MethodCLC (the paper's pure CLC).
	Method clockmodel.Method
	// LatencyGiven says which of Params' latencies (intra, inter) the
	// user gave; the others are defaults that the trace may lower.
	LatencyGiven [2]bool
	// Estimate tunes the estimation.
	Estimate clockmodel.EstimateOptions
	// Layout keeps the estimation's layout in Result.Model.Layout (for
	// the study of a distributed correction, internal/scalestudy).
	Layout bool
}

// MethodReport is the report's method: the method that ran, μ and where it
// came from, the clock domains and the clock model's estimation, guard and
// projection (clockmodel.Result).
type MethodReport struct {
	// Requested is the method asked for ("model" or "clc"); Ran is what
	// corrected the times ("model + clc", "bounds + clc" or "clc");
	// Fallback says why the clock model was not used when it was
	// requested.
	Requested string `json:"requested"`
	Ran       string `json:"ran"`
	Fallback  string `json:"fallback,omitempty"`
	// Latency is μ per class and where it came from.
	Latency LatenciesReport `json:"latency"`
	// Domains summarises the clock domains.
	Domains DomainsReport `json:"clock_domains"`
	// Estimate describes the estimation (with the clock model).
	Estimate *EstimateReport `json:"estimate,omitempty"`
	// Guard gives the checks the estimate had to pass (when it got that
	// far).
	Guard *GuardReport `json:"guard,omitempty"`
	// Project describes the projection onto the bounds, when it ran.
	Project *ProjectionReport `json:"projection,omitempty"`
	// Timing gives the wall-clock seconds of the clock model's steps.
	Timing MethodTimingReport `json:"timing_s"`
}

// LatenciesReport is μ within and across nodes.
type LatenciesReport struct {
	Intra LatencyReport `json:"intra"`
	Inter LatencyReport `json:"inter"`
}

// LatencyReport is one class's minimum latency μ and the evidence behind
// it (clockmodel.Latency), in ticks.
type LatencyReport struct {
	// Ticks is μ.
	Ticks int64 `json:"ticks"`
	// Source is where μ came from: clockmodel.SourceFlag, SourceDefault,
	// SourceSameClock, SourceRoundTrip, SourceAnchored or SourceConsistent.
	Source string `json:"source"`
	// Default is the default μ (or the flag's) the trace could lower.
	Default int64 `json:"default_ticks"`
	// SameClock is the smallest latency of a logical message within one
	// clock domain (−1 if none), SameClockMessages the number of those
	// messages.
	SameClock         int64 `json:"same_clock_min_ticks"`
	SameClockMessages int64 `json:"same_clock_messages"`
	// RoundTrip is half the round trip between two clock domains that
	// 95 % of the pair's windows exceed, of the pair where that is
	// shortest (−1 if none).
	RoundTrip int64 `json:"round_trip_half_min_ticks"`
	// Anchored is the smallest latency a message between two clock
	// domains can have taken where offset measurements pin both clocks
	// (−1 if none, or if the class's bounds are inconsistent).
	Anchored int64 `json:"anchored_min_ticks"`
}

// DomainsReport summarises the clock domains.
type DomainsReport struct {
	Count int    `json:"count"`
	Basis string `json:"basis"`
	// MinSize and MaxSize are the fewest and the most locations of a
	// domain.
	MinSize int32 `json:"min_locations"`
	MaxSize int32 `json:"max_locations"`
	// Reference is the domain of location 0.
	Reference int32 `json:"reference"`
}

// EstimateReport describes the clock model's estimation
// (clockmodel.EstimateStats).
type EstimateReport struct {
	Bounds   int64 `json:"bounds"`
	Pairs    int   `json:"domain_pairs"`
	Bands    int   `json:"windows"`
	TwoSided int   `json:"two_sided_windows"`
	Anchors  int   `json:"anchors"`
	// AnchorsContradicted are the anchors the messages alone contradict,
	// weighed down.
	AnchorsContradicted int   `json:"anchors_contradicted"`
	Unknowns            int   `json:"unknowns"`
	Iterations          []int `json:"solver_iterations"`
	// Misfit is the RMS of the windows' residuals in units of their
	// uncertainty.
	Misfit float64 `json:"misfit"`
	// Curvature is the smoothness chosen by cross-validation.
	Curvature float64 `json:"curvature"`
	// Groups counts the pairs of domains and sources whose windows share
	// a bias.
	Groups int `json:"bias_groups"`
	// Wander is the prior's scale of the clocks' wander between their
	// anchors, ticks (0: no evidence of it).
	Wander float64 `json:"wander_prior_ticks"`
	// Score and ScoreStay are how well the estimate and the
	// pre-synchronised clocks predict held-out windows; Stay says the
	// latter is no worse.
	Score     float64 `json:"cv_score"`
	ScoreStay float64 `json:"cv_score_presync"`
	Stay      bool    `json:"presync_predicts_as_well"`
	// Passes is the number of passes run.
	Passes int `json:"passes"`
	// Knots counts the knots of the estimated curves, HeldKnots those
	// held at the pre-synchronised clock.
	Knots     int `json:"knots"`
	HeldKnots int `json:"knots_held"`
}

// GuardReport is the evidence for or against using the estimated clocks
// (clockmodel.Guard).
type GuardReport struct {
	// Significant counts the domains corrected, Withdrawn those whose
	// correction raised the violations of their own messages.
	Significant int `json:"corrected_domains"`
	Withdrawn   int `json:"withdrawn_domains"`
	// MaxCorrection is the largest |correction| applied, ticks.
	MaxCorrection int64 `json:"max_correction_ticks"`
	// The violations and their sum (ticks) after pre-synchronisation and
	// with the model.
	ViolationsBefore int64 `json:"violations_before"`
	ViolationsModel  int64 `json:"violations_model"`
	SumBefore        int64 `json:"sum_violation_before_ticks"`
	SumModel         int64 `json:"sum_violation_model_ticks"`
	// Contradicted counts the two-sided windows the model's clocks leave
	// by more than 3σ, of Windows; ContradictedBefore those the
	// pre-synchronised clocks leave.
	Contradicted       int `json:"contradicted_windows"`
	ContradictedBefore int `json:"contradicted_windows_before"`
	Windows            int `json:"two_sided_windows"`
}

// ProjectionReport describes the projection of the clocks onto the
// messages' one-sided bounds (clockmodel.ProjectStats).
type ProjectionReport struct {
	// Bounds is the number of bounds, Violated those the clocks broke
	// before the projection, Active those it leans on.
	Bounds   int `json:"bounds"`
	Violated int `json:"violated"`
	Active   int `json:"active"`
	// Sweeps counts the passes over the bounds near violation, Swept the
	// bounds they visited.
	Sweeps int   `json:"sweeps"`
	Swept  int64 `json:"swept"`
	// Residual is the largest violation of a bound left, MaxMove the
	// largest change of a curve, ticks.
	Residual float64 `json:"max_residual_ticks"`
	MaxMove  float64 `json:"max_move_ticks"`
	// Used says whether the projected clocks replaced the model's.
	Used bool `json:"used"`

	converged bool
}

// Converged reports whether the sweeps held every bound; if not, the
// bounds contradict each other and the projection was not used.
func (p *ProjectionReport) Converged() bool { return p.converged }

// MethodTimingReport gives the wall-clock seconds of the clock model's
// steps.
type MethodTimingReport struct {
	Latency  float64 `json:"latency"`
	Estimate float64 `json:"estimate"`
	Guard    float64 `json:"guard"`
}

// fallbackText says why the clock model's estimate was not used. When the
// held-out test kept the clocks (Estimate.Stay), it says what the test
// found in words a reader can follow, instead of two rounded scores: a
// score of 0 is a test with nothing held out to predict (no message
// windows in the held-out stretches of time, no anchors), or one the
// pre-synchronised clocks pass within a fraction of the windows' σ.
func fallbackText(r *clockmodel.Result) string {
	e := r.Estimate
	if r.Fallback == "" || e == nil || !e.Stay {
		return r.Fallback
	}
	switch {
	case e.Score == 0 && e.ScoreStay == 0:
		return "the held-out test of the estimate had nothing to predict (no message windows in the held-out stretches of time): the clocks stay pre-synchronised"
	case e.ScoreStay < 1:
		return fmt.Sprintf("the pre-synchronised clocks already predict the messages of held-out stretches of time within their uncertainty (misfit %.2g, the estimated clocks' %.2g; in squared σ, lower is better): no evidence to move the clocks", e.ScoreStay, e.Score)
	}
	return fmt.Sprintf("the estimated clocks predict the messages of held-out stretches of time no better than the pre-synchronised ones (misfit %.3g against %.3g, in squared σ; lower is better): no evidence to move the clocks", e.Score, e.ScoreStay)
}

// methodReport is the report of the clock model's run r over the clock
// domains dom.
func methodReport(r *clockmodel.Result, dom *clockmodel.Domains) *MethodReport {
	m := &MethodReport{Requested: r.Requested, Ran: r.Ran, Fallback: fallbackText(r),
		Latency: LatenciesReport{Intra: latencyReport(&r.Latency.Intra), Inter: latencyReport(&r.Latency.Inter)},
		Domains: domainsReport(dom),
		Timing:  MethodTimingReport{Latency: r.Timing.Latency, Estimate: r.Timing.Estimate, Guard: r.Timing.Guard},
	}
	if e := r.Estimate; e != nil {
		m.Estimate = &EstimateReport{Bounds: e.Bounds, Pairs: e.Pairs, Bands: e.Bands, TwoSided: e.TwoSided,
			Anchors: e.Anchors, AnchorsContradicted: e.AnchorsContradicted, Unknowns: e.Unknowns, Iterations: slices.Clone(e.Iterations), Misfit: e.Misfit,
			Curvature: e.Curvature, Groups: e.Groups, Wander: e.Wander, Score: e.Score, ScoreStay: e.ScoreStay,
			Stay: e.Stay, Passes: e.Passes, Knots: e.Knots, HeldKnots: e.HeldKnots}
	}
	if g := r.Guard; g != nil {
		m.Guard = &GuardReport{Significant: g.Significant, Withdrawn: g.Withdrawn, MaxCorrection: g.MaxCorrection,
			ViolationsBefore: g.ViolationsBefore, ViolationsModel: g.ViolationsModel, SumBefore: g.SumBefore,
			SumModel: g.SumModel, Contradicted: g.Contradicted, ContradictedBefore: g.ContradictedBefore, Windows: g.Windows}
	}
	if p := r.Project; p != nil {
		m.Project = &ProjectionReport{Bounds: p.Bounds, Violated: p.Violated, Active: p.Active, Sweeps: p.Sweeps,
			Swept: p.Swept, Residual: p.Residual, MaxMove: p.MaxMove, Used: p.Used, converged: p.Converged()}
	}
	return m
}

func latencyReport(l *clockmodel.Latency) LatencyReport {
	return LatencyReport{Ticks: l.Ticks, Source: l.Source, Default: l.Default,
		SameClock: l.SameClock, SameClockMessages: l.SameClockMessages, RoundTrip: l.RoundTrip, Anchored: l.Anchored}
}

func domainsReport(d *clockmodel.Domains) DomainsReport {
	r := DomainsReport{Count: d.Count(), Basis: d.Basis, Reference: d.Ref}
	for i, s := range d.Size {
		if i == 0 || s < r.MinSize {
			r.MinSize = s
		}
		r.MaxSize = max(r.MaxSize, s)
	}
	return r
}

// String describes one class's choice of μ, with res ticks per second.
func (l *LatencyReport) String(res uint64) string {
	d := func(t int64) string { return time.Duration(math.Round(float64(t) * 1e9 / float64(res))).String() }
	s := fmt.Sprintf("%s (%s", d(l.Ticks), l.Source)
	if l.Source != clockmodel.SourceFlag && l.Ticks != l.Default {
		s += ", default " + d(l.Default)
	}
	if l.SameClock >= 0 {
		s += fmt.Sprintf("; smallest of %d same-clock messages %s", l.SameClockMessages, d(l.SameClock))
	}
	if l.RoundTrip >= 0 {
		s += "; round trips across clocks show " + d(l.RoundTrip) + " each way"
	}
	if l.Anchored >= 0 {
		s += "; one-way messages where offset measurements pin the clocks show " + d(l.Anchored)
	}
	return s + ")"
}

// String describes the clock domains in one line.
func (d DomainsReport) String() string {
	size := fmt.Sprintf("%d", d.MinSize)
	if d.MaxSize != d.MinSize {
		size = fmt.Sprintf("%d–%d", d.MinSize, d.MaxSize)
	}
	return fmt.Sprintf("%d of %s location(s) each, by %s", d.Count, size, d.Basis)
}

// methodLines writes the method section of the text report.
func (r *Report) methodLines(p func(format string, args ...any)) {
	m := r.Method
	if m == nil {
		return
	}
	p("  method: %s", m.Ran)
	if m.Fallback != "" {
		p(" (%s requested: %s)", m.Requested, m.Fallback)
	}
	p("\n")
	p("  clock domains: %s\n", m.Domains)
	p("  μ within a node %s\n  μ across nodes %s\n", m.Latency.Intra.String(r.Resolution), m.Latency.Inter.String(r.Resolution))
	if e, g := m.Estimate, m.Guard; e != nil && g != nil && e.Bounds > 0 {
		p("  clock model: %d bounds in %d windows (%d two-sided) between %d domain pairs, %d anchors; %d domains corrected, largest correction %s",
			e.Bounds, e.Bands, e.TwoSided, e.Pairs, e.Anchors, g.Significant, dur(Seconds(g.MaxCorrection, r.Resolution)))
		if e.Knots > 0 {
			p("; %d of %d knots held at the pre-synchronised clock (their 95 %% interval holds it, or no violation is near)", e.HeldKnots, e.Knots)
		}
		if e.AnchorsContradicted > 0 {
			p("; %d offset measurements contradicted by the messages (weighed down)", e.AnchorsContradicted)
		}
		p("\n")
	}
	if pr := m.Project; pr != nil {
		used := "used"
		switch {
		case !pr.Converged():
			used = "not used: the bounds contradict each other"
		case !pr.Used:
			used = "not used: it would not lower the violations"
		}
		p("  projection onto the bounds: %d of %d violated, %d active after %d sweeps, largest move %s (%s)\n",
			pr.Violated, pr.Bounds, pr.Active, pr.Sweeps, dur(pr.MaxMove/float64(r.Resolution)), used)
	}
}
