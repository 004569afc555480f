package job

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/trace"

	"github.com/clc-tools/clc/htmlreport"
	"github.com/clc-tools/clc/presync"
)

// htmlHook is the HTML report (Options.HTML): the claimed temporary to
// write it into. A nil *htmlHook writes nothing.
type htmlHook struct {
	file string
}

// writeHTML is the pipeline's last stage with --html: the page of the run,
// from what repair.Correct kept (repair.Correction.KeepPresync). In a
// divided run every process takes part, and process 0 writes it.
func (p *pipeline) writeHTML(ctx context.Context) error {
	if p.opts.HTML == "" {
		return nil
	}
	res, r := p.res, p.rep
	dom := pageDomains(p.tr, res)
	in := &htmlreport.Input{
		Title: r.Input, Trace: p.tr, Presync: res.Presync, Corrected: p.times, Truth: p.truth,
		Graph: res.Graph, Latency: res.Latency, Domains: dom, PresyncFuncs: res.PresyncFuncs, Measured: res.Measured, Fidelity: &res.Fidelity,
		CheckOnly: r.Checked, Summary: htmlSummary(r), Sections: htmlSections(r), Notes: htmlNotes(r), Parallel: p.np,
	}
	if v := res.View; v != nil {
		// Divided: every process makes its part of the page, on what it
		// saw of the trace; process 0 gets the page.
		in.Group = comm.NewGroup(ctx, p.opts.Comm)
		in.Graph, in.Presync, in.Corrected, in.Own, in.Counted = v.Graph, v.Presync, v.Corrected, v.Own, v.Counted
	}
	lo, hi, ok := htmlreport.SpanDivided(in.Group, in.Presync, in.Own)
	in.Estimates = modelEstimate(res, p.tr.Resolution, dom, lo, hi, ok)
	page, err := htmlreport.Build(ctx, in, nil)
	if err != nil {
		return err
	}
	if p.html == nil {
		return nil // a process of a divided run but the first
	}
	f, err := os.Create(p.html.file)
	if err != nil {
		return fmt.Errorf("html report %s: %w", p.opts.HTML, err)
	}
	if err := page.WriteHTML(f); err != nil {
		f.Close()
		return fmt.Errorf("html report %s: %w", p.opts.HTML, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("html report %s: %w", p.opts.HTML, err)
	}
	return nil
}

// htmlNotes are the report's notes, and what pre-synchronisation moved
// against the input as an OTF2 reader shows it, which the page's charts
// (pre-synchronised times against the truth and the correction) do not
// show.
func htmlNotes(r *repair.Report) []string {
	notes := slices.Clone(r.Notes)
	if d := r.Presync.Reader; d.Events > 0 {
		why := "locations that read one clock share one correction"
		if r.Presync.Method == presync.Regression.String() {
			why = "a line is fitted through each location's measurements"
		}
		notes = append(notes, fmt.Sprintf("pre-synchronisation (%s) moved %s events against the times an OTF2 reader shows for the input (later by up to %s, earlier by up to %s): %s; the charts below start from the pre-synchronised times",
			r.Presync.Method, htmlreport.Count(d.Events), htmlreport.Seconds(d.MaxLater), htmlreport.Seconds(d.MaxEarlier), why))
	}
	return notes
}

func htmlSummary(r *repair.Report) []htmlreport.Fact {
	n, s := htmlreport.Count, htmlreport.Seconds
	f := []htmlreport.Fact{
		{Label: "locations / events", Value: n(int64(r.Locations)) + " / " + n(r.Events)},
		{Label: "violations before", Value: n(r.Before.Violations), Note: n(r.Before.Total.Reversed) + " messages reversed"},
		{Label: "violations after", Value: n(r.After.Violations), Bad: r.After.Violations > 0},
		{Label: "events moved", Value: n(r.MovedFromInput.Events), Note: fmt.Sprintf("against the input as an OTF2 reader shows it (pre-synchronisation, clock model and CLC): later by up to %s, earlier by up to %s", s(r.MovedFromInput.MaxLater), s(r.MovedFromInput.MaxEarlier))},
		{Label: "fidelity (event distance)", Value: repair.Percent(r.Fidelity.Distance.WeightedAvg), Note: "weighted average deviation"},
	}
	if e := r.ErrorBars; e != nil && e.Events > 0 {
		note := fmt.Sprintf("for 95 %% of events, against the reference clock; median ±%s, largest ±%s", s(e.Median), s(e.Max))
		if e.Note != "" {
			note += "; " + e.Note
		}
		f = append(f, htmlreport.Fact{Label: "error bars (95 % confidence)", Value: "±" + s(e.P95) + " or less", Note: note, Bad: e.Note != ""})
	}
	if a := r.Accuracy; a != nil {
		note := "after pre-synchronisation: " + s(a.Presync.MeanAbs/float64(r.Resolution))
		if r.ErrorBars != nil && r.ErrorBars.Events > 0 {
			note += "; " + repair.Percent(a.WithinBars) + " of events within their error bars"
		}
		f = append(f, htmlreport.Fact{Label: "mean |error| vs truth", Value: s(a.Corrected.MeanAbs / float64(r.Resolution)), Note: note})
	}
	var issues int64
	for _, c := range r.Issues.Counts {
		issues += c
	}
	if issues > 0 {
		f = append(f, htmlreport.Fact{Label: "matching issues", Value: n(issues), Note: "treated as internal events", Bad: true})
	}
	return f
}

func htmlSections(r *repair.Report) []htmlreport.Section {
	n, s := htmlreport.Count, htmlreport.Seconds
	p := r.Params
	run := htmlreport.Section{Title: "Input and method", Rows: []htmlreport.Row{
		{Key: "input", Value: r.Input + " (" + r.InputFormat + ")"},
		{Key: "output", Value: orNone(r.Output, "none (check only)")},
		{Key: "timer resolution", Value: htmlreport.Count(int64(r.Resolution)) + " ticks/s", Note: "one tick is " + htmlreport.Seconds(1/float64(r.Resolution))},
		{Key: "pre-synchronisation", Value: r.Presync.Method, Note: strings.TrimPrefix(r.Presync.Line(r.Locations), r.Presync.Method+"; ")},
		{Key: "messages", Value: fmt.Sprintf("%s point-to-point, %s logical in %s collective instances", n(r.Messages.P2P), n(r.Messages.CollectiveLogical), n(r.Messages.CollectiveInstances)),
			Note: n(r.Messages.AlltoallvIgnored) + " ALLTOALLV/W kept internal"},
		{Key: "correction", Value: fmt.Sprintf("controlled logical clock, γ %g in %d forward pass(es): %s violations removed, %s receives moved by their sends", r.Correction.Gamma, len(r.Correction.Passes), n(r.Correction.ViolationsRemoved), n(r.Correction.ReceivesMoved)),
			Note: "γ control threshold " + s(r.Correction.Threshold)},
	}}
	if m := r.Method; m != nil {
		row := htmlreport.Row{Key: "method", Value: m.Ran}
		if m.Fallback != "" {
			row.Note = m.Requested + " requested: " + m.Fallback
		}
		run.Rows = append(run.Rows, row)
		if e, g := m.Estimate, m.Guard; e != nil && g != nil && e.Bounds > 0 {
			run.Rows = append(run.Rows, htmlreport.Row{Key: "clock model", Value: fmt.Sprintf("%s domains corrected, the largest correction %s",
				n(int64(g.Significant)), s(repair.Seconds(g.MaxCorrection, r.Resolution))),
				Note: fmt.Sprintf("%s bounds in %s windows (%s two-sided) between %s domain pairs, %s anchors",
					n(e.Bounds), n(int64(e.Bands)), n(int64(e.TwoSided)), n(int64(e.Pairs)), n(int64(e.Anchors)))})
		}
	}
	if a := r.Accuracy; a != nil {
		run.Rows = append(run.Rows, htmlreport.Row{Key: "truth", Value: a.Truth})
	}
	params := htmlreport.Section{Title: "Parameters", Rows: []htmlreport.Row{
		{Key: "minimum latency μ", Value: fmt.Sprintf("%s within a node, %s across nodes", s(p.LatencyIntra), s(p.LatencyInter)), Note: latencyNote(r)},
		{Key: "γ (forward amortization)", Value: fmt.Sprint(p.Gamma)},
		{Key: "trust reference", Value: fmt.Sprint(p.TrustReference), Note: fmt.Sprintf("reference γ %g, informed γ %g, informed slope %g", p.ReferenceGamma, p.InformedGamma, p.InformedSlope)},
		{Key: "δ (minimal step)", Value: s(p.Delta), Note: "0: one tick"},
		{Key: "backward slope m", Value: fmt.Sprint(p.Slope)},
		{Key: "max passes", Value: fmt.Sprint(p.MaxPasses)},
		{Key: "max shift", Value: orNone(durOrEmpty(p.MaxShift), "auto"), Note: fmt.Sprintf("shift factor %g", p.ShiftFactor)},
		{Key: "clock domains", Value: clockDomains(r)},
		{Key: "ALLTOALLV/W", Value: p.Alltoallv},
	}}
	t := r.Timing
	timing := htmlreport.Section{Title: "Time taken", Rows: []htmlreport.Row{{Key: "stages", Value: fmt.Sprintf(
		"read %.2f s, pre-synchronisation %.2f s, matching %.2f s, clock model %.2f s, correction %.2f s, writing %.2f s; %.2f s in all",
		t.Read, t.Presync, t.Match, t.Model, t.Correct, t.Write, t.Read+t.Presync+t.Match+t.Model+t.Correct+t.Write), Note: "this page not included"}}}
	secs := []htmlreport.Section{run, params}
	if len(r.Issues.Counts) > 0 {
		is := htmlreport.Section{Title: "Matching issues (treated as internal events)"}
		for _, k := range slices.Sorted(maps.Keys(r.Issues.Counts)) {
			is.Rows = append(is.Rows, htmlreport.Row{Key: k, Value: htmlreport.Count(r.Issues.Counts[k])})
		}
		for i, e := range r.Issues.Examples {
			if i == 20 {
				break
			}
			is.Rows = append(is.Rows, htmlreport.Row{Key: "example", Value: e})
		}
		secs = append(secs, is)
	}
	return append(secs, timing)
}

// clockDomains says which locations the report treats as sharing a clock:
// those pre-synchronisation gave one correction.
func clockDomains(r *repair.Report) string {
	if r.Method != nil {
		return r.Method.Domains.String()
	}
	if r.Presync.Method == presync.Node.String() {
		return "one per node"
	}
	return "one per location"
}

// latencyNote says where μ came from.
func latencyNote(r *repair.Report) string {
	if r.Method == nil {
		return ""
	}
	l := r.Method.Latency
	return "within a node: " + l.Intra.String(r.Resolution) + "; across nodes: " + l.Inter.String(r.Resolution)
}

func orNone(s, none string) string {
	if strings.TrimSpace(s) == "" {
		return none
	}
	return s
}

func durOrEmpty(s float64) string {
	if s == 0 {
		return ""
	}
	return htmlreport.Seconds(s)
}

// pageDomains are the clock domains the page draws: the clock model's
// when it ran (so that the page and the text report name the same
// domains), else what pre-synchronisation assumed (per node, or per
// location).
func pageDomains(tr *trace.Trace, res *repair.Result) htmlreport.Domains {
	if d := res.Domains; d != nil && res.Model != nil && d.Count() > 0 {
		nodes := htmlreport.NodeDomains(tr).Names
		out := htmlreport.Domains{Of: d.Of, Names: make([]string, d.Count()), Unit: "clock domain"}
		for k := range out.Names {
			switch {
			case d.Node[k] >= 0 && int(d.Node[k]) < len(nodes):
				out.Names[k] = fmt.Sprintf("domain %d (%s)", k, nodes[d.Node[k]])
			default:
				out.Names[k] = fmt.Sprintf("domain %d", k)
			}
		}
		return out
	}
	if res.PresyncMethod == presync.Node {
		return htmlreport.NodeDomains(tr)
	}
	return htmlreport.LocationDomains(tr)
}

// modelEstimate is the clock model's estimate of the error left in the
// pre-synchronised times (pre-synchronised − true time: minus the
// correction) over the trace's span [lo, hi] (ok: it has events) for the
// page's domains, each read from the clock-model
// domain of its first location, with its error bar (BarZ standard
// deviations) as a band; nil without an estimate. An estimate the guard
// did not apply is drawn too, named so.
func modelEstimate(res *repair.Result, resolution uint64, dom htmlreport.Domains, lo, hi int64, ok bool) []*htmlreport.ClockError {
	m := res.Model
	if m == nil || !m.HasErrorBars() || !ok {
		return nil
	}
	first := make([]int32, len(dom.Names))
	for i := range first {
		first[i] = -1
	}
	for l, d := range dom.Of {
		if first[d] < 0 {
			first[d] = int32(l)
		}
	}
	r := float64(resolution)
	name := "clock model"
	if m.Times == nil {
		name = "clock model (not applied)"
	}
	cd := res.Domains.Of
	e := htmlreport.SampleError(name, htmlreport.NewBins(lo, hi, 512), len(dom.Names), func(d int, t int64) (float64, bool) {
		if first[d] < 0 {
			return 0, false
		}
		return -m.Estimated(cd[first[d]], t) / r, true
	})
	e.Band = make([]float64, len(e.Err))
	for d := range dom.Names {
		for b := range e.Bins.N {
			v := math.NaN()
			if first[d] >= 0 {
				v = m.Uncertainty(cd[first[d]], e.Bins.Mid(b)) / r
			}
			e.Band[d*e.Bins.N+b] = v
		}
	}
	return []*htmlreport.ClockError{e}
}
