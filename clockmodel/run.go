package clockmodel

import (
	"context"
	"fmt"
	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/par"
	"math"
	"slices"
	"time"

	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/replay"
)

// Method selects what corrects the times besides pre-synchronisation.
type Method uint8

const (
	// MethodModel estimates every clock domain's error from the messages
	// and the offset measurements, corrects it when the estimate passes
	// the guard, and then runs the CLC on what violations remain. When
	// the estimate does not pass, it is the pure CLC.
	MethodModel Method = iota
	// MethodCLC is the paper's pure controlled logical clock: nothing
	// moves earlier, and a trace without violations is unchanged.
	MethodCLC
)

// String returns the method's flag name.
func (m Method) String() string {
	if m == MethodCLC {
		return "clc"
	}
	return "model"
}

// ParseMethod parses a method's flag name.
func ParseMethod(s string) (Method, error) {
	switch s {
	case "model":
		return MethodModel, nil
	case "clc":
		return MethodCLC, nil
	}
	return 0, fmt.Errorf("unknown method %q (want model or clc)", s)
}

// Options configure Run.
type Options struct {
	Method Method
	// Latency is the default μ; Fixed says which class was given by a
	// flag (intra, inter), which the trace does not lower.
	Latency replay.Latency
	Fixed   [2]bool
	// Estimate tunes the estimation.
	Estimate EstimateOptions
	// Parallel bounds the goroutines; 0 (or less) means one per CPU
	// (par.Workers, the module's one rule).
	Parallel int
	// InPlace lets Run move the times it is given when it uses the model
	// (Result.Times is then the same columns; they are left as they were
	// when it falls back). Else the model's times are a copy. In place,
	// the model costs 4 bytes per moved event beyond the times, a copy 8.
	InPlace bool
	// Project moves the clocks the least so that the messages' one-sided
	// bounds hold (estimator.project), on top of an accepted model, or
	// alone when the model is not significant; else the CLC removes every
	// violation the model leaves.
	Project bool
	// Layout keeps the estimation's layout in Result.Layout (for the
	// study of a distributed correction; it costs a copy of the last
	// system's sparsity).
	Layout bool
	// Division, when not nil, is this process's share of a trace divided
	// among processes: times and the graph are its view (Division).
	Division *Division
}

// Result is what Run decided and did.
type Result struct {
	// Requested is the method asked for; Ran is what corrects the times:
	// "model + clc" (the estimated clocks, projected onto the bounds when
	// that leaves fewer violations), "bounds + clc" (no significant model:
	// the clocks projected onto the messages' one-sided bounds) or "clc".
	// Fallback says why the model was not used when it was requested.
	Requested string
	Ran       string
	Fallback  string
	// Latency is μ per class and where it came from.
	Latency Latencies
	// Estimate describes the estimation (with MethodModel).
	Estimate *EstimateStats
	// Guard gives the checks the estimate had to pass.
	Guard *Guard
	// Project describes the projection onto the bounds, when it ran.
	Project *ProjectStats
	// Timing gives the wall-clock seconds of the steps.
	Timing struct {
		Latency  float64
		Estimate float64
		Guard    float64
	}
	// Layout is the estimation's layout (with Options.Layout and
	// MethodModel, when there was an estimation), else nil.
	Layout *Layout
	// Times are the corrected times when the model is used, else nil;
	// Model is the correction then.
	Times [][]int64
	Model *Model
	// Before is the clock condition of the pre-synchronised times, with
	// μ = Latency, when BeforeMeasured says it was measured (with
	// MethodModel, beside the estimate; also when the guard then fell
	// back); ModelViolations that of Times when the model is used.
	Before          measure.Violations
	BeforeMeasured  bool
	ModelViolations *measure.Violations

	applied *applied // what Original needs
	// bars are the estimate's error bars (ErrorBar), nil without one.
	bars *errorBars
	// domBefore and beforeCounts are domainViolations of the
	// pre-synchronised times, once measured; contradicted their
	// violations between domains (domainViolations' proofs).
	domBefore    []int64
	beforeCounts *measure.Counts
	contradicted []proofs
}

// Guard is the evidence for or against using the estimated clocks.
type Guard struct {
	// Significant counts the domains corrected: 0 when the corrections
	// together do not exceed their uncertainty.
	Significant int
	// Withdrawn counts the domains whose correction was withdrawn because
	// it raised the violations of their own messages.
	Withdrawn int
	// MaxCorrection is the largest |correction| applied, ticks.
	MaxCorrection int64
	// Violations and SumViolation (ticks) of the clock condition after
	// pre-synchronisation and with the model.
	ViolationsBefore int64
	ViolationsModel  int64
	SumBefore        int64
	SumModel         int64
	// Contradicted counts the two-sided windows whose bounds the model's
	// clocks leave by more than 3σ, ContradictedBefore those the
	// pre-synchronised clocks leave; Windows counts the two-sided windows.
	Contradicted       int
	ContradictedBefore int
	Windows            int
}

// windowsRefuse reports whether the estimated clocks contradict too many
// two-sided windows: more than maxContradicted of them, and no fewer than
// the pre-synchronised clocks do.
func (gd *Guard) windowsRefuse() bool {
	return float64(gd.Contradicted) > maxContradicted*float64(gd.Windows) && gd.Contradicted >= gd.ContradictedBefore
}

// withdrawRounds bounds the rounds of withdrawing corrections.
const withdrawRounds = 8

// significantGain and significantPerDomain set the growth of the weighted
// squared residuals that makes the corrections significant.
const (
	significantGain      = 25
	significantPerDomain = 4
)

// maxContradicted is the share of two-sided windows the model may leave
// (more only if the pre-synchronised clocks leave more still).
const maxContradicted = 0.01

// Run chooses μ (defaults lowered by what the trace shows, flags kept) and,
// with MethodModel, estimates the clocks and decides whether to use them:
// the estimate is used only if some domain's correction is significant,
// it does not raise the number or the sum of the clock-condition
// violations, and it contradicts at most 1 % of the two-sided windows.
// times are the pre-synchronised times (not changed); node is each
// location's node.
func Run(ctx context.Context, in *Input, times [][]int64, g *replay.Graph, node []int32, opt Options) (*Result, error) {
	np := par.Workers(opt.Parallel)
	dom := &in.Domains
	res := &Result{Requested: opt.Method.String(), Ran: "clc"}
	t0 := time.Now()
	res.Latency = newLatencies(opt.Latency, opt.Fixed)
	dv := opt.Division
	var group *comm.Group
	if dv != nil {
		group = dv.Group
	}
	res.Latency.sameClock(times, g, node, dom, np, dv)
	res.Timing.Latency = time.Since(t0).Seconds()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if dom.Count() < 2 {
		res.Latency.clamp()
		if opt.Method != MethodCLC {
			res.Fallback = "the trace has one clock domain: no clock to estimate"
		}
		return res, nil
	}
	t0 = time.Now()
	eo := opt.Estimate
	eo.Parallel = np
	est := newEstimator(in, times, g, opt.Latency, eo, dv)
	est.keepLast = opt.Layout
	res.Latency.anchored(times, g, node, dom, est.anchorObs(), np, dv)
	if opt.Method == MethodCLC {
		// No estimate, but the messages' round trips across clocks still
		// lower μ (the windows read in the pre-synchronised clocks: wider
		// than relative to a model, so μ is lowered less).
		est.windows(nil)
		res.Latency.roundTrips(est.bands, dom, opt.Latency)
		res.Latency.clamp()
		res.Timing.Latency += time.Since(t0).Seconds()
		return res, nil
	}
	// The last pass's windows fix μ (their round trips lower it); the
	// clock condition of the pre-synchronised times with that μ, which
	// the guard and the report need whatever the estimate, is measured
	// beside that pass's fit.
	var measured chan struct{}
	lastWindows := func() {
		res.Latency.roundTrips(est.bands, dom, opt.Latency)
		res.Latency.clamp()
		cc := measure.ClockCondition{Graph: g, Node: node, Latency: res.Latency.Replay(), Parallel: np, Group: group, Counted: dv.counted()}
		measured = make(chan struct{})
		count := func() {
			defer close(measured)
			res.domBefore, res.Before, res.beforeCounts, res.contradicted = domainViolations(cc, dom, times, true, dv)
			res.BeforeMeasured = true
		}
		if dv != nil {
			// Divided, its collective operations keep the processes' order.
			count()
			return
		}
		go count()
	}
	m, st, err := est.estimate(ctx, lastWindows)
	if measured != nil {
		// When cancelled, the measurement (which only reads times and
		// writes res, both dropped then) is left to end on its own.
		select {
		case <-measured:
		case <-ctx.Done():
		}
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	res.Estimate = &st
	if opt.Layout {
		if res.Layout, err = est.layout(st); err != nil {
			return nil, err
		}
	}
	res.bars = est.errorBars(m)
	// The error bars keep the estimate; the guard weighs, and applies,
	// only what the messages prove of it.
	cc := measure.ClockCondition{Graph: g, Node: node, Latency: res.Latency.Replay(), Parallel: np, Group: group, Counted: dv.counted()}
	if !res.BeforeMeasured {
		res.domBefore, res.Before, res.beforeCounts, res.contradicted = domainViolations(cc, dom, times, true, dv)
		res.BeforeMeasured = true
	}
	m, st.HeldKnots, st.Knots = m.proven(BarZ, res.contradicted)
	res.Timing.Estimate = time.Since(t0).Seconds()
	t0 = time.Now()
	res.guard(ctx, est, m, times, cc, opt)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Timing.Guard += time.Since(t0).Seconds()
	return res, nil
}

// guard decides whether the estimated clocks m are used, and applies them
// if so (Result.Times, Result.Model). A domain whose correction raises the
// violations of its own messages loses its correction first (where a
// domain has only poor windows its fit can be misled), until none does.
// The clock condition is cc's (μ: res.Latency). It returns early, with
// the times partly moved, when ctx is cancelled (Run then returns the
// context's error).
func (res *Result) guard(ctx context.Context, est *estimator, m *Model, times [][]int64, cc measure.ClockCondition, opt Options) {
	dom := &est.in.Domains
	gd := &Guard{}
	res.Guard = gd
	inPlace := opt.InPlace
	// workOn returns the columns the model may move: times themselves in
	// place, else a copy (made only when something is to be moved).
	workOn := func() [][]int64 {
		if inPlace {
			return times
		}
		work := make([][]int64, len(times))
		for li, ts := range times {
			work[li] = slices.Clone(ts)
		}
		return work
	}
	stay := res.Estimate != nil && res.Estimate.Stay
	if ok, _ := est.significant(m); !ok || stay {
		res.Fallback = "no clock domain's estimated correction exceeds its uncertainty"
		if stay {
			res.Fallback = fmt.Sprintf("the estimated clocks predict messages of held-out stretches of time no better than the pre-synchronised ones (score %.0f against %.0f)", res.Estimate.Score, res.Estimate.ScoreStay)
		}
		if opt.Project && ctx.Err() == nil {
			if !res.BeforeMeasured {
				res.Before, res.BeforeMeasured = cc.Violations(times), true
			}
			if v := res.Before.Total().Violations; v > 0 {
				a := &applied{undo: make([]undo, len(times))}
				res.projectStayed(est, a, workOn(), cc, v, opt.Fixed)
			}
		}
		return
	}
	work := workOn()
	if res.domBefore == nil {
		// Run usually measured it beside the estimate's last pass.
		res.domBefore, res.Before, res.beforeCounts, _ = domainViolations(cc, dom, work, false, est.dv)
		res.BeforeMeasured = true
	}
	vBefore := res.domBefore
	if ctx.Err() != nil {
		return
	}
	a := m.applyInPlace(work, dom, cc.Parallel)
	var va measure.Violations
	var vc *measure.Counts
	for round := 0; ; round++ {
		if ctx.Err() != nil {
			return
		}
		var after []int64
		after, va, vc, _ = domainViolations(cc, dom, work, false, est.dv)
		if round == withdrawRounds {
			break
		}
		withdrawn := make([]bool, len(after))
		n := 0
		for d := range after {
			if after[d] > vBefore[d] && len(m.Curves[d].T) > 0 {
				m.Curves[d] = Curve{}
				withdrawn[d] = true
				n++
			}
		}
		gd.Withdrawn += n
		if n == 0 {
			break
		}
		a.restore(work, cc.Parallel, func(li int) bool { return withdrawn[dom.Of[li]] })
	}
	for d := range m.Curves {
		if c := m.Curves[d].MaxAbs(); c != 0 {
			gd.Significant++
			gd.MaxCorrection = max(gd.MaxCorrection, int64(math.Round(c)))
		}
	}
	if ctx.Err() != nil {
		return
	}
	gd.Contradicted, gd.Windows = est.contradicted(m)
	gd.ContradictedBefore, _ = est.contradicted(nil)
	before, after := res.Before.Total(), va.Total()
	gd.ViolationsBefore, gd.SumBefore = before.Violations, before.SumViolation
	gd.ViolationsModel, gd.SumModel = after.Violations, after.SumViolation
	open := res.Latency.openAsymmetry()
	switch {
	case gd.Significant == 0:
		res.Fallback = "every clock domain's estimated correction raised the violations of its own messages"
	case before.Violations == 0 && float64(gd.MaxCorrection) < open:
		res.Fallback = fmt.Sprintf("the pre-synchronised times violate nothing and the largest correction (%d ticks) is below what the messages' round trips leave open (%.0f ticks)", gd.MaxCorrection, open)
	case after.Violations > before.Violations:
		res.Fallback = fmt.Sprintf("the estimated clocks raise the clock-condition violations from %d to %d", before.Violations, after.Violations)
	case after.SumViolation > before.SumViolation:
		res.Fallback = fmt.Sprintf("the estimated clocks raise the sum of the clock-condition violations from %d to %d ticks", before.SumViolation, after.SumViolation)
	case gd.windowsRefuse():
		res.Fallback = fmt.Sprintf("the estimated clocks contradict %d of %d two-sided windows of message bounds", gd.Contradicted, gd.Windows)
	default:
		res.Ran, res.Times, res.Model, res.ModelViolations = "model + clc", work, m, &va
		res.applied = a
		if opt.Project && after.Violations > 0 && ctx.Err() == nil {
			res.projected(est, m, a, work, cc, "model + clc", vc, after.Violations)
		}
		return
	}
	// The estimate is refused; the pre-synchronised times, projected onto
	// the bounds where they violate some, are the next best.
	a.restore(work, cc.Parallel, func(int) bool { return true })
	if opt.Project && before.Violations > 0 {
		b := &applied{undo: make([]undo, len(times))}
		res.projectStayed(est, b, work, cc, before.Violations, opt.Fixed)
	}
}

// projectStayed projects the pre-synchronised clocks (work, which a holds
// nothing of; v violations counted in res.beforeCounts) onto the bounds
// where the clocks stay ("bounds + clc"), and, where the projection does
// not converge, lowers μ to where it does (consistent).
func (res *Result) projectStayed(est *estimator, a *applied, work [][]int64, cc measure.ClockCondition, v int64, fixed [2]bool) {
	if !res.projected(est, nil, a, work, cc, "bounds + clc", res.beforeCounts, v) {
		res.consistent(est, a, work, cc, fixed)
	}
}

// consistent is what the guard does where the clocks stay at
// pre-synchronisation's and their projection onto the bounds did not
// converge: the bounds contradict each other, so either μ exceeds the
// fastest latency of some pair or a clock changes faster than the curves'
// knots follow. With no evidence to move the clocks the first is the
// explanation the trace supports: μ of each class (but one a flag set)
// falls to the largest fraction of it at which the bounds are consistent
// (consistentLatency), the clock condition of work (the pre-synchronised
// times, which a holds nothing of) is measured again with it, and the
// clocks are projected onto the bounds at that μ. Without it the CLC
// "corrects" every message faster than μ, moving receives that were
// right: on recordings whose pre-synchronisation was within 10–45 ns of
// the truth it ended 1.05–1.14 times farther from it (docs/accuracy.md).
// Where the bounds are consistent at no fraction of μ above 0 (clocks
// the curves cannot follow), μ stays.
func (res *Result) consistent(est *estimator, a *applied, work [][]int64, cc measure.ClockCondition, fixed [2]bool) {
	if res.Project == nil || res.Project.Converged() {
		return // converged, but it would not lower the violations
	}
	lat, ok := est.consistentLatency(cc.Latency, fixed)
	if !ok || lat == cc.Latency {
		return
	}
	res.Latency.Intra.lower(lat.Intra, SourceConsistent)
	res.Latency.Inter.lower(lat.Inter, SourceConsistent)
	res.Latency.clamp()
	cc.Latency = res.Latency.Replay()
	res.domBefore, res.Before, res.beforeCounts, _ = domainViolations(cc, &est.in.Domains, work, false, est.dv)
	if v := res.Before.Total().Violations; v > 0 {
		res.projected(est, nil, a, work, cc, "bounds + clc", res.beforeCounts, v)
	}
}

// consistentSteps is the number of halvings with which consistentLatency
// finds μ: to 1/64 of its value.
const consistentSteps = 6

// consistentLatency returns the largest μ, a fraction of lat's (a class
// that a flag fixed keeps its own), at which the projection of the
// pre-synchronised clocks onto the last pass's bounds converges, found by
// halving the fraction consistentSteps times; false when it converges at
// no fraction above 0: bounds that contradict each other at any μ but
// the plain causality say the clocks change faster than the curves
// follow, not that μ is too large.
func (e *estimator) consistentLatency(lat replay.Latency, fixed [2]bool) (replay.Latency, bool) {
	at := func(f float64) replay.Latency {
		l := lat
		if !fixed[0] {
			l.Intra = int64(f * float64(lat.Intra))
		}
		if !fixed[1] {
			l.Inter = int64(f * float64(lat.Inter))
		}
		return l
	}
	if _, _, st := e.project(nil, at(0)); !st.Converged() {
		return lat, false
	}
	lo, hi := 0.0, 1.0
	for range consistentSteps {
		mid := (lo + hi) / 2
		if _, _, st := e.project(nil, at(mid)); st.Converged() {
			lo = mid
		} else {
			hi = mid
		}
	}
	return at(lo), lo > 0
}

// projected projects m (nil: no correction), whose application a holds
// work's times (nothing applied when m is nil), onto the bounds, and uses
// the result (Ran = ran) if the sweeps converged and it leaves fewer than
// than violations; else work, a and res stay as they were. Only the
// locations of domains whose curves the projection changed move, and
// only the messages with an end among the events that moved are counted
// again: counts are cc's counts of work's times (nil: count them all).
func (res *Result) projected(est *estimator, m *Model, a *applied, work [][]int64, cc measure.ClockCondition, ran string, counts *measure.Counts, than int64) bool {
	pm, changed, st := est.project(m, cc.Latency)
	res.Project = st
	if !st.Converged() {
		// Not converged: the bounds contradict each other (μ above the
		// fastest latency of a pair, or a clock the curves cannot follow).
		return false
	}
	back := m
	if back == nil {
		back = &Model{Curves: make([]Curve, len(changed))}
	}
	dom := &est.in.Domains
	moved := a.reapply(work, dom, pm, changed, cc.Parallel)
	var va measure.Violations
	if counts != nil {
		va = cc.Sum(cc.Recount(counts, work, moved))
	} else {
		va = cc.Violations(work)
	}
	if va.Total().Violations >= than {
		a.reapply(work, dom, back, changed, cc.Parallel)
		return false
	}
	res.Ran, res.Times, res.Model, res.ModelViolations, res.applied = ran, work, pm, &va, a
	st.Used = true
	return true
}

// Original returns the times of location li before the model moved them
// (the pre-synchronised times Run was given), given its times as the model
// left them (Result.Times[li], or a copy of them from before any later
// change), while the model is used and Forget was not called; else nil.
// With Options.InPlace it computes them from what it kept (a new slice, or
// a kept copy).
func (res *Result) Original(li int, times []int64) []int64 {
	if res.applied == nil || res.Times == nil {
		return nil
	}
	return res.applied.undo[li].original(times)
}

// Forget drops what Original needs (with Options.InPlace, 4 bytes per
// event that the model moved).
func (res *Result) Forget() { res.applied = nil }

// openAsymmetry is how far the messages leave a clock difference open when
// the two directions' fastest latencies may differ: half the round trip
// between clocks in excess of 2μ, over the classes that have round trips
// (0 if none). A midpoint assumes equal directions; when the round trips
// are long (processes descheduled, an overloaded node) they need not be.
func (l *Latencies) openAsymmetry() float64 {
	var a float64
	for _, x := range []*Latency{&l.Intra, &l.Inter} {
		if x.RoundTrip >= 0 {
			a = math.Max(a, float64(x.RoundTrip-x.Default))
		}
	}
	return a
}

// clamp keeps μ within a node no larger than across nodes.
func (l *Latencies) clamp() {
	if l.Intra.Ticks > l.Inter.Ticks {
		l.Intra.Ticks = l.Inter.Ticks
		if l.Intra.Source != SourceFlag {
			l.Intra.Source = l.Inter.Source
		}
	}
}

// significant reports whether the model's corrections, taken together,
// exceed their uncertainty, and returns the number of domains corrected.
// Each domain's correction is weighed by how much worse its windows and
// anchors fit when it is held at 0 (the others at their estimates): the
// weighted sum of squared residuals grows. For clocks without error that
// growth is noise, about one per effective degree of freedom, which the
// cross-validated smoothness keeps to a few per domain; the corrections
// count as significant when the total exceeds significantGain plus
// significantPerDomain per corrected domain. (A test per domain would
// leave a domain uncorrected where each of many small corrections is
// within the noise but all together are not — and uncorrected next to
// corrected neighbours it would be worse off than before.)
func (e *estimator) significant(m *Model) (bool, int) {
	nd := e.in.Domains.Count()
	var gain float64
	for i := range e.bands {
		b := &e.bands[i]
		if !b.twoSided() {
			continue
		}
		w := 1 / (b.sigma * b.sigma)
		xp, xq := m.at(b.p, b.t), m.at(b.q, b.t)
		mid := e.unbiased(b)
		fit := xq - xp - mid
		if b.q != e.in.Domains.Ref {
			gain += w * ((-xp-mid)*(-xp-mid) - fit*fit)
		}
		if b.p != e.in.Domains.Ref {
			gain += w * ((xq-mid)*(xq-mid) - fit*fit)
		}
	}
	for _, a := range e.anchorObs() {
		w := 1 / (a.sigma * a.sigma)
		x := m.at(a.d, a.t)
		gain += w * (a.v*a.v - (x-a.v)*(x-a.v))
	}
	n := 0
	for d := range nd {
		if len(m.Curves[d].T) > 0 {
			n++
		}
	}
	return n > 0 && gain > significantGain+significantPerDomain*float64(n), n
}

// contradicted counts the two-sided windows whose bounds the model leaves
// by more than three times their midpoint's uncertainty (its random part
// and a quarter of its group's narrowest width, for the asymmetry), and
// the two-sided windows.
func (e *estimator) contradicted(m *Model) (bad, all int) {
	for i := range e.bands {
		b := &e.bands[i]
		if !b.twoSided() {
			continue
		}
		all++
		// The tolerance is the midpoint's uncertainty with the group's
		// asymmetry: a band as wide as its group's narrowest has no
		// excess to speak of, yet its midpoint is only known within w0.
		tol := 3 * (b.sigma + math.Abs(e.groups[b.group].w0)/4)
		d := m.at(b.q, b.t) - m.at(b.p, b.t)
		if d < b.lo-tol || d > b.hi+tol {
			bad++
		}
	}
	return bad, all
}

// BarZ is the error bars' half-width in standard deviations: 95 % of a
// normal distribution lies within ±1.96σ.
const BarZ = 1.96

// errorBars is what ErrorBar needs of the estimate: the estimated curves
// with their standard deviations, and for each domain without a curve
// the prior of its pre-synchronised clock.
type errorBars struct {
	curves []Curve
	prior  []anchorRange
	wander float64
	ref    int32
	// proven is each domain's envelope of what its messages with the
	// reference prove (nil: none).
	proven []*envelope
	// evidence tells whether an offset measurement or a two-sided window
	// speaks of each domain: without, its curve is the weak level prior's
	// alone, and bounds nothing.
	evidence []bool
	// anchors and windows count each domain's offset measurements (merged
	// per epoch) and the two-sided windows between it and another domain.
	anchors, windows []int32
}

// errorBars keeps the estimate m (its curves as fitted, whatever the
// guard then does with them) and the priors.
func (e *estimator) errorBars(m *Model) *errorBars {
	nd := e.in.Domains.Count()
	b := &errorBars{curves: slices.Clone(m.Curves), prior: anchorSpans(e.anchorObs(), nd), wander: e.wander, ref: e.in.Domains.Ref,
		proven: envelopes(e.lists, &e.in.Domains, e.lat, e.in.Domains.Ref, m, e.opt.Parallel), evidence: make([]bool, nd)}
	b.anchors, b.windows = make([]int32, nd), make([]int32, nd)
	for d := range nd {
		b.evidence[d] = b.prior[d].ok
	}
	for _, a := range e.anchorObs() {
		b.anchors[a.d]++
	}
	for i := range e.bands {
		if bd := &e.bands[i]; bd.twoSided() {
			b.evidence[bd.p], b.evidence[bd.q] = true, true
			b.windows[bd.p]++
			b.windows[bd.q]++
		}
	}
	return b
}

// BarBasis is what a clock domain's error bars rest on.
type BarBasis struct {
	// Reference: the domain's clock is the reference; its bars are the
	// moves alone (its offset measurements are not counted: they measure
	// nothing against it).
	Reference bool
	// Anchors counts its offset measurements (those of one epoch merged),
	// Windows the two-sided windows between it and another domain.
	Anchors, Windows int
	// Posterior: the bars are the estimate's posterior (knots, and an
	// offset measurement or a two-sided window speaks of the domain).
	// Prior: they are the prior of its pre-synchronised clock (its offset
	// measurements and the wander's scale between them). Neither: nothing
	// but the messages' bounds, if any, limits them.
	Posterior, Prior bool
	// Bounded: its messages with the reference prove an interval (the
	// envelope) that cuts the bars where they are wider.
	Bounded bool
}

// BarBasis returns what domain d's error bars rest on (the zero BarBasis
// without an estimate).
func (res *Result) BarBasis(d int32) BarBasis {
	b := res.bars
	if b == nil {
		return BarBasis{}
	}
	bs := BarBasis{Anchors: int(b.anchors[d]), Windows: int(b.windows[d])}
	if d == b.ref {
		bs.Reference = true
		return bs
	}
	bs.Bounded = b.proven[d] != nil
	bs.Posterior = len(b.curves[d].S) > 0 && b.evidence[d]
	bs.Prior = !bs.Posterior && b.prior[d].ok && !math.IsInf(b.wander, 1)
	return bs
}

// HasErrorBars reports whether ErrorBar can answer: the clock model
// estimated the clocks.
func (res *Result) HasErrorBars() bool { return res.bars != nil }

// ErrorBar returns the half-width, in ticks, of the interval around the
// corrected time f that holds with 95 % probability the true time of an
// event of domain d whose pre-synchronised time was c. The estimate's
// interval is BarZ times its posterior standard deviation there plus how
// far f lies from the estimate's own correction of c (what the garrote,
// the projection and the CLC did, or, where the guard kept the clocks,
// the whole estimate): the posterior is the pre-synchronised clock's prior
// with the messages' evidence, whether or not the correction applied it.
// A domain that no offset measurement and no two-sided window speak of has
// only the prior of the pre-synchronised clock (BarZ times its anchors'
// and the wander's uncertainty, +Inf without anchors or without evidence
// of the wander's scale), plus the CLC's move. That interval is
// then cut to what the domain's messages with the reference allow
// (envelope: a bar is never wider than the bounds), and where the two do
// not meet the bounds' interval is the answer. The reference domain's
// clock is the reference: only moves count there. It returns NaN without
// an estimate (HasErrorBars). For many events of one domain in time
// order, BarCursor answers the same faster.
func (res *Result) ErrorBar(d int32, c, f int64) float64 {
	return res.BarCursor(d).At(c, f)
}

// BarCursor evaluates ErrorBar for the events of one domain, at mostly
// ascending pre-synchronised times, in O(1) amortized per event.
type BarCursor struct {
	res      *Result
	d        int32
	curve    bool // the estimate has this domain's posterior, and evidence for it
	x, s     cursor
	env      *envelope
	low, upp sideCursor
	// Cut tells whether the messages' bounds decided the last At's
	// interval: cut it to what they prove, or replaced an interval they
	// do not meet.
	Cut bool
}

// BarCursor returns a cursor over domain d's error bars.
func (res *Result) BarCursor(d int32) *BarCursor {
	bc := &BarCursor{res: res, d: d}
	if b := res.bars; b != nil && d != b.ref {
		cv := &b.curves[d]
		bc.curve = len(cv.S) > 0 && b.evidence[d]
		bc.x = cursor{c: cv}
		bc.s = cursor{c: &Curve{T: cv.T, X: cv.S}}
		bc.env = b.proven[d]
		if bc.env != nil {
			bc.low, bc.upp = sideCursor{s: &bc.env.lower}, sideCursor{s: &bc.env.upper}
		}
	}
	return bc
}

// At returns the error bar of an event whose pre-synchronised time was c
// and whose corrected time is f (Result.ErrorBar).
func (bc *BarCursor) At(c, f int64) float64 {
	b := bc.res.bars
	switch {
	case b == nil:
		return math.NaN()
	case bc.d == b.ref:
		return math.Abs(float64(f - c))
	}
	bc.Cut = false
	w := math.Inf(1)
	var xc float64
	if bc.curve || bc.env != nil {
		xc = bc.x.at(c)
	}
	switch {
	case bc.curve:
		w = BarZ*bc.s.at(c) + math.Abs(float64(f-c)-xc)
	case b.prior[bc.d].ok && !math.IsInf(b.wander, 1):
		// No posterior for this domain (no knots, or nothing but the
		// level prior speaks of it): the prior of the pre-synchronised
		// clock is what is known.
		w = BarZ*b.prior[bc.d].sigmaAt(c, b.wander) + math.Abs(float64(f-c))
	}
	if bc.env == nil {
		return w
	}
	plo, phi := bc.low.at(c, bc.env.rho), -bc.upp.at(c, bc.env.rho)
	ff, base := float64(f), float64(c)
	if bc.env.onEstimate {
		base += xc
	}
	lo, hi := math.Max(ff-w, base+plo), math.Min(ff+w, base+phi)
	if lo > hi {
		lo, hi = base+plo, base+phi
	}
	bc.Cut = base+plo > ff-w || base+phi < ff+w
	return math.Max(ff-lo, hi-ff)
}

// Estimated returns the estimate's correction of domain d at t (whether
// or not the guard applied it), 0 without an estimate.
func (res *Result) Estimated(d int32, t int64) float64 {
	if res.bars == nil {
		return 0
	}
	return res.bars.curves[d].At(t)
}

// Uncertainty returns the half-width of the 95 % interval of domain d's
// correction at t as ErrorBar sees it, without the moves (an event whose
// corrected time is the estimate's where the estimate moved the clocks,
// else its pre-synchronised time): NaN without an estimate, +Inf where
// nothing bounds the clock.
func (res *Result) Uncertainty(d int32, t int64) float64 {
	b := res.bars
	switch {
	case b == nil:
		return math.NaN()
	case d == b.ref:
		return 0
	}
	f := t
	if len(b.curves[d].S) > 0 && b.evidence[d] {
		f = t + int64(math.Round(b.curves[d].At(t)))
	}
	return res.ErrorBar(d, t, f)
}
