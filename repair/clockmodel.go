package repair

import (
	"fmt"

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
	p("  clock domains: %s\n", DomainsLine(m))
	p("  μ within a node %s\n  μ across nodes %s\n", m.Latency.Intra.String(r.Resolution), m.Latency.Inter.String(r.Resolution))
	if e, g := m.Estimate, m.Guard; e != nil && g != nil && e.Bounds > 0 {
		p("  clock model: %d bounds in %d windows (%d two-sided) between %d domain pairs, %d anchors; %d domains corrected, largest correction %s",
			e.Bounds, e.Bands, e.TwoSided, e.Pairs, e.Anchors, g.Significant, dur(Seconds(g.MaxCorrection, r.Resolution)))
		if e.Knots > 0 {
			p("; %d of %d knots held at the pre-synchronised clock (their 95 %% interval holds it)", e.HeldKnots, e.Knots)
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

// DomainsLine describes the clock domains in one line.
func DomainsLine(m *clockmodel.Result) string {
	size := fmt.Sprintf("%d", m.Domains.MinSize)
	if m.Domains.MaxSize != m.Domains.MinSize {
		size = fmt.Sprintf("%d–%d", m.Domains.MinSize, m.Domains.MaxSize)
	}
	return fmt.Sprintf("%d of %s location(s) each, by %s", m.Domains.Count, size, m.Domains.Basis)
}
