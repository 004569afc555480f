package repair

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/measure"
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
}

// SetLatencies sets μ in p to the clock model's choice l, for a trace
// whose timer has res ticks per second, as clc-correct does: exactly, in
// ticks (Params.LatencyTicks), and to the nearest nanosecond for the
// report.
func SetLatencies(p *clc.Params, l *clockmodel.Latencies, res uint64) {
	toDur := func(t int64) time.Duration { return time.Duration(math.Round(float64(t) * 1e9 / float64(res))) }
	p.LatencyIntra, p.LatencyInter = toDur(l.Intra.Ticks), toDur(l.Inter.Ticks)
	p.LatencyTicks = clc.ExactLatency{Set: true, Intra: l.Intra.Ticks, Inter: l.Inter.Ticks}
}

// clockModel is the pipeline's stage after matching: it chooses μ (setting
// the parameters' latencies) and, with the clock model, replaces the
// times by the estimated clocks' when the guard passes them. It fills the report's
// method, before and model sections, and p.before: the clock condition of
// the times the CLC starts from.
func (p *pipeline) clockModel(ctx context.Context) error {
	tr := p.tr
	k := p.opts.Params.InTicks(tr.Resolution)
	r, err := clockmodel.Run(ctx, p.cm, p.times, p.g, p.node, clockmodel.Options{
		Method: p.opts.ClockModel.Method, Latency: k.Lat, Fixed: p.opts.ClockModel.LatencyGiven,
		Estimate: p.opts.ClockModel.Estimate, Parallel: p.np, InPlace: true, Project: true,
	})
	if err != nil {
		return p.inputErr(fmt.Errorf("clock model: %w", err))
	}
	p.model, p.rep.Method = r, r
	SetLatencies(&p.opts.Params, &r.Latency, tr.Resolution)
	p.k = p.opts.Params.InTicks(tr.Resolution)
	// The guard measured the clock condition before (and with the model)
	// when it got that far, also when it then fell back; with the same μ,
	// that is reused.
	same := p.k.Lat == r.Latency.Replay()
	if same && r.BeforeMeasured {
		p.before = r.Before
	} else {
		p.before = measure.ClockCondition(p.times, p.g, p.node, p.k.Lat, p.np)
	}
	p.rep.Before = violationReport(p.before, tr.Resolution)
	if r.Times == nil {
		return nil
	}
	moves := make([]shiftStats, len(p.times))
	par.ForEach(len(p.times), p.np, func(li int) { moves[li] = shifts(r.Original(li), r.Times[li]) })
	r.Forget()
	p.rep.ModelShift = modelShiftReport(moves, tr.Resolution)
	// The CLC starts from the model's times, which replaced the
	// pre-synchronised ones in place (the HTML page keeps its own copy,
	// p.c): the report's correction section describes what the CLC did on
	// top of the model, whose own section gives its corrections.
	p.times = r.Times
	if p.whole {
		for i, l := range tr.Locations {
			l.Events.Time = r.Times[i]
		}
	}
	if same && r.ModelViolations != nil {
		p.before = *r.ModelViolations
	} else {
		p.before = measure.ClockCondition(r.Times, p.g, p.node, p.k.Lat, p.np)
	}
	p.rep.Model = ptr(violationReport(p.before, tr.Resolution))
	return nil
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
	p("  clock domains: %s\n", domainsLine(m))
	p("  μ within a node %s\n  μ across nodes %s\n", m.Latency.Intra.String(r.Resolution), m.Latency.Inter.String(r.Resolution))
	if e, g := m.Estimate, m.Guard; e != nil && g != nil && e.Bounds > 0 {
		p("  clock model: %d bounds in %d windows (%d two-sided) between %d domain pairs, %d anchors; %d domains corrected, largest correction %s\n",
			e.Bounds, e.Bands, e.TwoSided, e.Pairs, e.Anchors, g.Significant, dur(sec(g.MaxCorrection, r.Resolution)))
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

// domainsLine describes the clock domains.
func domainsLine(m *clockmodel.Result) string {
	size := fmt.Sprintf("%d", m.Domains.MinSize)
	if m.Domains.MaxSize != m.Domains.MinSize {
		size = fmt.Sprintf("%d–%d", m.Domains.MinSize, m.Domains.MaxSize)
	}
	return fmt.Sprintf("%d of %s location(s) each, by %s", m.Domains.Count, size, m.Domains.Basis)
}
