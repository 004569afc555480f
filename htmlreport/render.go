package htmlreport

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/clc-tools/clc/measure"
)

// Chart geometry.
const (
	chartW = 1100
	chartH = 280
)

// Colours: one per highlighted domain, one per estimate in band mode.
var (
	domainColours = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"}
	sourceColours = map[string]string{"truth": "#4c72b0", "correction": "#dd8452", "pre-synchronisation": "#4c72b0"}
	otherColour   = "#55a868"
	// line styles per estimate: truth solid, correction dashed, others dotted
	sourceDash = map[string]string{"truth": "", "correction": "7 4", "pre-synchronisation": ""}
)

func sourceColour(s string) string {
	if c, ok := sourceColours[s]; ok {
		return c
	}
	return otherColour
}

func sourceDashOf(s string) string {
	if d, ok := sourceDash[s]; ok {
		return d
	}
	return "2 3"
}

const css = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1d232a;margin:0;background:#f4f5f7}
main{max-width:1160px;margin:0 auto;padding:18px 24px 40px}
h1{font-size:24px;margin:6px 0 2px}h2{font-size:19px;margin:30px 0 6px;border-bottom:2px solid #d8dce2;padding-bottom:4px}
h3{font-size:15px;margin:18px 0 4px}
p.lead{margin:2px 0 8px;color:#4a5460}p.expl{margin:2px 0 8px;color:#4a5460;max-width:1100px}
.sub{color:#4a5460;font-size:13px;word-break:break-all}
.badge{display:inline-block;background:#fff3cd;border:1px solid #e0c060;border-radius:4px;padding:1px 8px;font-size:12px;margin-left:8px}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:14px 0}
.card{background:#fff;border:1px solid #d8dce2;border-radius:6px;padding:8px 12px;min-width:150px}
.card .v{font-size:19px;font-weight:600}.card .l{font-size:12px;color:#4a5460}.card .n{font-size:12px;color:#4a5460}
.card.bad{border-color:#d62728;background:#fff5f5}
.notes{background:#fffbe6;border:1px solid #e0c060;border-radius:6px;padding:6px 12px;margin:10px 0}
.panel{background:#fff;border:1px solid #d8dce2;border-radius:6px;padding:10px 12px;margin:10px 0}
.empty{color:#4a5460;font-style:italic;padding:10px 4px}
svg{display:block;max-width:100%;height:auto}
svg text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;fill:#1d232a}
svg text.tick{fill:#4a5460;font-size:11px}svg text.axis{font-size:12px;fill:#1d232a}
svg .grid line{stroke:#e6e8eb;stroke-width:1}
svg rect.frame{fill:none;stroke:#9aa3ad;stroke-width:1}
svg path.ln{fill:none;stroke-width:1.8;stroke-linejoin:round;stroke-linecap:round}
svg path.med{fill:none;stroke-width:2;stroke-linecap:round}
svg line.zero{stroke:#6b747e;stroke-width:1}
svg g.hm rect{stroke:#d0d4d9;stroke-width:.5}
.legend{display:flex;flex-wrap:wrap;gap:4px 18px;font-size:12px;margin:4px 0 2px 60px}
.legend span{white-space:nowrap}.legend svg{display:inline-block;vertical-align:middle;margin-right:4px}
.maps{display:flex;flex-wrap:wrap;gap:24px}
table{border-collapse:collapse;background:#fff;margin:6px 0}
td,th{border:1px solid #d8dce2;padding:3px 10px;text-align:left;vertical-align:top}
th{background:#eef0f3;font-weight:600}td.r{text-align:right;font-variant-numeric:tabular-nums}
td.k{white-space:nowrap}td.note{color:#4a5460;font-size:12px}
footer{margin-top:30px;color:#6b747e;font-size:12px}
`

// WriteHTML writes the page.
func (p *Page) WriteHTML(w io.Writer) error {
	d := &doc{}
	in := p.in
	d.f("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>")
	d.f(`<meta name="viewport" content="width=device-width, initial-scale=1"/>`)
	d.f("<title>clc-correct report: %s</title><style>%s</style></head><body><main>", esc(in.Title), css)
	d.f("<h1>clc-correct report</h1><div class=\"sub\">%s", esc(in.Title))
	if in.CheckOnly {
		d.f(`<span class="badge">check only: nothing was written; this is what the correction would do</span>`)
	}
	d.f("</div>")
	p.writeSummary(d)
	p.writeClockError(d)
	p.writeMatrices(d)
	p.writeShifts(d)
	p.writeFidelity(d)
	for _, s := range in.Sections {
		writeSection(d, s)
	}
	d.f(`<footer>Made by clc-correct in %s. One self-contained page: inline SVG and CSS, no scripts, no network access. Times on the horizontal axes are pre-synchronised times since the first event; hover over a cell or line for details.</footer>`,
		dur(p.Elapsed.Round(time.Microsecond).Seconds()))
	d.f("</main></body></html>\n")
	_, err := w.Write(d.Bytes())
	return err
}

func (p *Page) writeSummary(d *doc) {
	if len(p.in.Summary) > 0 {
		d.f(`<div class="cards">`)
		for _, f := range p.in.Summary {
			cls := "card"
			if f.Bad {
				cls += " bad"
			}
			d.f(`<div class="%s"><div class="l">%s</div><div class="v">%s</div>`, cls, esc(f.Label), esc(f.Value))
			if f.Note != "" {
				d.f(`<div class="n">%s</div>`, esc(f.Note))
			}
			d.f(`</div>`)
		}
		d.f(`</div>`)
	}
	if len(p.in.Notes) > 0 {
		d.f(`<div class="notes"><b>Notes</b><ul>`)
		for _, n := range p.in.Notes {
			d.f("<li>%s</li>", esc(n))
		}
		d.f(`</ul></div>`)
	}
}

// timeFrame makes the frame of a chart over the time bins, with the given
// y range; it returns the x ticks, their formatter and the axis title.
func (p *Page) timeFrame(ylo, yhi float64, h float64) (*frame, []float64, func(float64) string, string) {
	spanS := float64(p.bins.Width) * float64(p.bins.N) / float64(p.res)
	u, k := timeUnit(spanS)
	xt, _, _ := niceTicks(0, spanS*k, 10)
	for len(xt) > 0 && xt[len(xt)-1] > spanS*k*(1+1e-9) {
		xt = xt[:len(xt)-1]
	}
	f := &frame{W: chartW, H: h, L: 78, R: 34, T: 12, B: 42, x0: 0, x1: spanS * k, y0: ylo, y1: yhi}
	step := 0.0
	if len(xt) > 1 {
		step = xt[1] - xt[0]
	}
	return f, xt, func(v float64) string { return fmtNum(v, step) }, "time since the first event (" + u + ")"
}

// binX returns the x position of bin i in a time frame.
func (p *Page) binX(f *frame) func(i int) float64 {
	_, k := timeUnit(float64(p.bins.Width) * float64(p.bins.N) / float64(p.res))
	return func(i int) float64 {
		return f.X((float64(i) + 0.5) * float64(p.bins.Width) / float64(p.res) * k)
	}
}

// yRange returns the range of the values drawn for the curves (their
// lines and bands over domains), widened to include 0, and separately the
// range their error bars reach (NaN when they have none).
func yRange(cs ...*curves) (lo, hi, barLo, barHi float64) {
	lo, hi = 0, 0
	barLo, barHi = math.NaN(), math.NaN()
	see := func(v []float64, lo, hi *float64) {
		for _, x := range v {
			if !math.IsNaN(x) {
				if math.IsNaN(*lo) || x < *lo {
					*lo = x
				}
				if math.IsNaN(*hi) || x > *hi {
					*hi = x
				}
			}
		}
	}
	for _, c := range cs {
		if c == nil {
			continue
		}
		for i, r := range c.rows {
			see(r, &lo, &hi)
			if i < len(c.bars) {
				el, eh := barEdges(r, c.bars[i])
				see(el, &barLo, &barHi)
				see(eh, &barLo, &barHi)
			}
		}
		if c.band.Q[0] != nil {
			see(c.band.Q[0], &lo, &hi)
			see(c.band.Q[4], &lo, &hi)
		}
	}
	return lo, hi, barLo, barHi
}

// axisRange chooses the range of an error chart's y axis from the range
// of the errors [lo, hi] (0 included) and the range their error bars
// reach [barLo, barHi] (NaN: none): the errors decide the scale, so that
// errors of a few µs are not flattened to a line by an error bar of
// hundreds; the bars widen the range by at most half the errors' span on
// each side, and are cut at its edges beyond that (clipped). When every
// error is 0 the bars alone set it.
func axisRange(lo, hi, barLo, barHi float64) (alo, ahi float64, clipped bool) {
	if math.IsNaN(barLo) || math.IsNaN(barHi) {
		return lo, hi, false
	}
	span := hi - lo
	if span == 0 {
		return math.Min(lo, barLo), math.Max(hi, barHi), false
	}
	alo, ahi = math.Min(lo, math.Max(barLo, lo-span/2)), math.Max(hi, math.Min(barHi, hi+span/2))
	return alo, ahi, barLo < alo || barHi > ahi
}

// yAxis chooses the unit and ticks of an axis of seconds over [lo, hi].
func yAxis(lo, hi float64) (ticks []float64, a, b float64, unit string, scale float64, fy func(float64) string) {
	unit, scale = timeUnit(math.Max(math.Abs(lo), math.Abs(hi)))
	ticks, a, b = niceTicks(lo*scale, hi*scale, 6)
	step := 0.0
	if len(ticks) > 1 {
		step = ticks[1] - ticks[0]
	}
	return ticks, a, b, unit, scale, func(v float64) string { return fmtNum(v, step) }
}

func (p *Page) writeClockError(d *doc) {
	d.f(`<h2>Clock error of each clock domain over time</h2>`)
	nd := len(p.domainNames)
	domains := count(int64(nd)) + " clock domains"
	if nd == 1 {
		domains = "1 clock domain"
	}
	switch p.domainUnit {
	case "node":
		d.f(`<p class="lead">%s, one per node: the locations of a node share its clock.`, domains)
	case "clock domain":
		d.f(`<p class="lead">%s, as the clock model found them: the locations that read one clock (the text report's "clock domains" line says how they were found). Shaded around a domain's clock model line: its 95 %% error bar.`, domains)
	default:
		d.f(`<p class="lead">%s, one per %s: pre-synchronisation corrected each one's clock on its own.`, domains, esc(p.domainUnit))
	}
	if !p.lines {
		d.f(` With this many, the charts show the spread over the domains in each time bin (shaded: minimum to maximum, darker: 10 %% to 90 %%, line: median) and, one line each in the same colour in every chart, the %d domains with the largest error left after pre-synchronisation (by the truth where it is known, else by the correction).`, len(p.highlight))
	}
	d.f(`</p>`)
	d.f(`<h3>Clock error assumed by pre-synchronisation</h3><p class="expl">Local clock − reference clock, from the clock-offset measurements in the trace: what pre-synchronisation removed from every time.</p>`)
	switch {
	case p.assumed == nil:
		d.f(`<div class="panel empty">Not known for this run.</div>`)
	case p.assumed.zero:
		why := "no location has two or more clock-offset measurements"
		for _, l := range p.in.Trace.Locations {
			if len(l.Offsets) >= 2 {
				why = "the correction it applies is 0 at every location (the measurements it uses put every clock at the reference clock; locations that share a clock share one correction)"
				break
			}
		}
		d.f(`<div class="panel empty">Pre-synchronisation assumed every clock exact: %s, so no time was changed.</div>`, esc(why))
	default:
		p.errorChart(d, []*curves{p.assumed}, "clock error assumed by pre-synchronisation", "local − reference clock", p.measured)
	}
	implied := "the CLC only moves events later, so it is never above 0"
	if p.shifts.MaxEarlier > 0 {
		implied = "here events moved both ways: the clock model corrected the clocks before the CLC"
	}
	d.f(`<h3>Error left in the pre-synchronised times</h3><p class="expl">Pre-synchronised time − true time. <b>truth</b> (solid): the actual error, known when the input has true times (clc-sim, clc-trace --emulate-clock). <b>correction</b> (dashed): the error the correction implies, pre-synchronised − corrected time; %s. Other estimates are dotted. Averages over the events of each domain in each time bin.</p>`, implied)
	var drawn []*curves
	for _, c := range p.estimates {
		if !c.empty {
			drawn = append(drawn, c)
		}
	}
	allZero := true
	for _, c := range drawn {
		allZero = allZero && c.zero
	}
	if allZero {
		what := "the correction moved no event"
		if p.in.Truth != nil {
			what += " and the true error is 0"
		}
		d.f(`<div class="panel empty">Every estimate is 0: %s.</div>`, what)
	} else {
		p.errorChart(d, drawn, "error left in the pre-synchronised times", "pre-synchronised − true time", nil)
	}
	p.violationsOverTime(d)
}

// errorChart draws curves of clock errors over time, and triangles at the
// bins with clock-offset measurements.
func (p *Page) errorChart(d *doc, cs []*curves, label, ytitle string, measured []int64) {
	vlo, vhi, blo, bhi := yRange(cs...)
	lo, hi, clipped := axisRange(vlo, vhi, blo, bhi)
	yt, a, b, unit, scale, fy := yAxis(lo, hi)
	// Error bars beyond the axis are cut at its edges.
	clamp := func(v []float64) []float64 {
		for i, x := range v {
			v[i] = math.Max(a/scale, math.Min(b/scale, x))
		}
		return v
	}
	f, xt, fx, xtitle := p.timeFrame(a, b, chartH)
	x := p.binX(f)
	y := func(v float64) float64 { return f.Y(v * scale) }
	d.f(`<div class="panel">`)
	d.open(f, label)
	d.axes(f, xt, yt, fx, fy, xtitle, ytitle+" ("+unit+")")
	if a < 0 && b > 0 {
		d.line(f.L, f.Y(0), f.W-f.R, f.Y(0), "zero")
	}
	names := p.Highlighted()
	for _, c := range cs {
		col, dash := sourceColour(c.source), sourceDashOf(c.source)
		if !p.lines {
			d.f(`<path d="%s" fill="%s" fill-opacity="0.15"><title>%s: minimum to maximum over domains</title></path>`, area(c.band.Q[0], c.band.Q[4], x, y), col, esc(c.source))
			d.f(`<path d="%s" fill="%s" fill-opacity="0.25"><title>%s: 10 %% to 90 %% of domains</title></path>`, area(c.band.Q[1], c.band.Q[3], x, y), col, esc(c.source))
			d.f(`<path d="%s" class="med" stroke="%s"%s><title>%s: median over domains</title></path>`, path(c.band.Q[2], x, y), col, dashAttr(dash), esc(c.source))
		}
		for i, r := range c.rows {
			dc := domainColours[i%len(domainColours)]
			if i < len(c.bars) {
				lo, hi := barEdges(r, c.bars[i])
				d.f(`<path d="%s" fill="%s" fill-opacity="0.12"><title>%s, %s: 95 %% error bar</title></path>`, area(clamp(lo), clamp(hi), x, y), dc, esc(p.domainNames[names[i]]), esc(c.source))
			}
			d.f(`<path d="%s" class="ln" stroke="%s"%s><title>%s, %s</title></path>`, path(r, x, y), dc, dashAttr(dash), esc(p.domainNames[names[i]]), esc(c.source))
		}
	}
	marks := false
	for i, n := range measured {
		if n > 0 {
			marks = true
			xm, ym := x(i), f.H-f.B
			d.f(`<path d="M%s %sl-5 9h10z" fill="#333"><title>%s clock-offset measurements</title></path>`, num(xm), num(ym-9), count(n))
		}
	}
	d.f(`</svg>`)
	p.errorLegend(d, cs, marks)
	if clipped {
		d.f(`<p class="expl">The axis is scaled to the errors; the 95 %% error bands reach from %s to %s and are cut at its edges.</p>`, dur(blo), dur(bhi))
	}
	d.f(`</div>`)
}

// barEdges returns the lower and upper edges of an error bar around the
// values r (NaN where either is unknown or the bar unbounded).
func barEdges(r, bar []float64) (lo, hi []float64) {
	lo, hi = make([]float64, len(r)), make([]float64, len(r))
	for i, v := range r {
		b := bar[i]
		if math.IsNaN(v) || math.IsNaN(b) || math.IsInf(b, 0) {
			lo[i], hi[i] = math.NaN(), math.NaN()
			continue
		}
		lo[i], hi[i] = v-b, v+b
	}
	return lo, hi
}

func dashAttr(dash string) string {
	if dash == "" {
		return ""
	}
	return ` stroke-dasharray="` + dash + `"`
}

// swatch is a small inline SVG sample of a line or an area.
func swatch(colour, dash string, areaOpacity float64) string {
	if areaOpacity > 0 {
		return fmt.Sprintf(`<svg width="26" height="12"><rect x="1" y="1" width="24" height="10" fill="%s" fill-opacity="%g"/></svg>`, colour, areaOpacity)
	}
	return fmt.Sprintf(`<svg width="26" height="12"><line x1="1" y1="6" x2="25" y2="6" stroke="%s" stroke-width="2"%s/></svg>`, colour, dashAttr(dash))
}

func (p *Page) errorLegend(d *doc, cs []*curves, marks bool) {
	d.f(`<div class="legend">`)
	if marks {
		d.f(`<span><svg width="26" height="12"><path d="M13 2l-5 9h10z" fill="#333"/></svg>clock-offset measurements (the correction is interpolated between them, extrapolated outside)</span>`)
	}
	names := p.Highlighted()
	if len(cs) > 1 {
		for _, c := range cs {
			d.f(`<span>%s%s</span>`, swatch("#333", sourceDashOf(c.source), 0), esc(c.source))
		}
	}
	if !p.lines {
		for _, c := range cs {
			col := sourceColour(c.source)
			d.f(`<span>%s%s: min–max, 10–90 %%, median over %s %ss</span>`, swatch(col, "", 0.3), esc(c.source), count(int64(len(p.domainNames))), esc(p.domainUnit))
		}
	}
	for i, dom := range names {
		d.f(`<span>%s%s</span>`, swatch(domainColours[i%len(domainColours)], "", 0), esc(p.domainNames[dom]))
	}
	d.f(`</div>`)
}

// violationsOverTime draws the violations before and after per time bin.
func (p *Page) violationsOverTime(d *doc) {
	d.f(`<h3>Clock-condition violations over time</h3><p class="expl">Messages received earlier than sent + minimum latency, by the time of the receive (collectives: one per violating pair of members).</p>`)
	if p.before.Total() == 0 && p.after.Total() == 0 {
		d.f(`<div class="panel empty">No violation before or after the correction.</div>`)
		return
	}
	var mx int64
	for b := range p.before.ByTime {
		mx = max(mx, p.before.ByTime[b], p.after.ByTime[b])
	}
	yt, a, b := niceTicks(0, float64(mx), 4)
	f, xt, fx, xtitle := p.timeFrame(a, b, 170)
	x := p.binX(f)
	d.f(`<div class="panel">`)
	d.open(f, "violations over time")
	d.axes(f, xt, yt, fx, func(v float64) string { return count(int64(v)) }, xtitle, "violations")
	bw := (f.W - f.L - f.R) / float64(p.bins.N)
	for i, v := range p.before.ByTime {
		if v > 0 {
			d.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="#d62728" fill-opacity="0.75"><title>%s violations before</title></rect>`,
				num(x(i)-bw/2), num(f.Y(float64(v))), num(math.Max(bw-0.5, 0.5)), num(f.Y(0)-f.Y(float64(v))), count(v))
		}
	}
	for i, v := range p.after.ByTime {
		if v > 0 {
			d.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="#2ca02c"><title>%s violations after</title></rect>`,
				num(x(i)-bw/4), num(f.Y(float64(v))), num(math.Max(bw/2, 0.5)), num(f.Y(0)-f.Y(float64(v))), count(v))
		}
	}
	d.f(`</svg><div class="legend"><span>%sbefore the correction: %s</span><span>%safter: %s</span></div></div>`,
		swatch("#d62728", "", 0.75), count(p.before.Total()), swatch("#2ca02c", "", 1), count(p.after.Total()))
}

func (p *Page) writeMatrices(d *doc) {
	g := &p.groups
	d.f(`<h2>Violations by pair of %s</h2>`, esc(plural(g.Unit)))
	d.f(`<p class="lead">Rows: the sender's %s, columns: the receiver's. Colour: number of violating (logical) messages, logarithmic, on one scale for both maps; light green: messages, none violating; white: no messages. Hover over a cell for the counts.</p>`, esc(strings.TrimSuffix(g.Unit, "s")))
	var vmax int64
	for i := range p.before.Violations {
		vmax = max(vmax, p.before.Violations[i], p.after.Violations[i])
	}
	d.f(`<div class="panel"><div class="maps">`)
	p.heatMap(d, "before the correction", p.before, vmax)
	p.heatMap(d, "after the correction", p.after, vmax)
	d.f(`</div>`)
	if vmax > 0 {
		d.f(`<div class="legend"><span>violations: </span>`)
		for k := 0; k < 6; k++ {
			v := int64(math.Round(math.Pow(float64(vmax), float64(k)/5)))
			d.f(`<span>%s%s</span>`, swatch(heatColour(v, vmax), "", 1), count(v))
		}
		d.f(`<span>%snone (messages)</span><span>%sno messages</span></div>`, swatch("#e3f1e3", "", 1), `<svg width="26" height="12"><rect x="1" y="1" width="24" height="10" fill="#ffffff" stroke="#9aa3ad"/></svg>`)
	}
	d.f(`</div>`)
}

// heatColour maps 1 … vmax onto light orange … dark red, logarithmically.
func heatColour(v, vmax int64) string {
	t := 1.0
	if vmax > 1 {
		t = math.Log(float64(v)) / math.Log(float64(vmax))
	}
	lerp := func(a, b float64) int { return int(math.Round(a + (b-a)*t)) }
	return fmt.Sprintf("#%02x%02x%02x", lerp(0xfd, 0x8b), lerp(0xd0, 0x00), lerp(0x9c, 0x00))
}

// heatCell is the side of a cell of a heat map of n × n cells, px.
func heatCell(n int) float64 { return math.Max(8, math.Min(44, 400/float64(n))) }

func (p *Page) heatMap(d *doc, title string, pc *PairCounts, vmax int64) {
	g := &p.groups
	n := pc.G
	cell := heatCell(n)
	cols, rows := columnLabels(g.Labels, cell), rowLabels(g.Labels, cell)
	labelW := math.Max(rows.Extent, 64)
	top := math.Max(cols.Extent, 20)
	right := 10.0
	if cols.Rotate {
		// A rotated label reaches past its column to the right.
		for i := n - 1; i >= 0; i-- {
			if cols.Text[i] != "" {
				right = math.Max(right, labelWidth(cols.Text[i])*math.Cos(labelAngle*math.Pi/180)-cell*(float64(n-i)-0.5)+6)
				break
			}
		}
	}
	f := &frame{W: math.Max(labelW+cell*float64(n)+right, 330), H: top + cell*float64(n) + 28}
	var msgs, viol int64
	for i := range pc.Messages {
		msgs += pc.Messages[i]
		viol += pc.Violations[i]
	}
	d.f(`<div><div><b>%s</b>: %s of %s messages violate</div>`, esc(title), count(viol), count(msgs))
	d.open(f, "violations by pair, "+title)
	for i := 0; i < n; i++ {
		if s := rows.Text[i]; s != "" {
			d.text(labelW-6, top+cell*(float64(i)+0.5)+4, "end", "tick", s)
		}
		s := cols.Text[i]
		if s == "" {
			continue
		}
		cx := labelW + cell*(float64(i)+0.5)
		if cols.Rotate {
			d.f(`<text transform="translate(%s %s) rotate(-%g)" class="tick">%s</text>`, num(cx-2), num(top-4), labelAngle, esc(s))
		} else {
			d.text(cx, top-4, "middle", "tick", s)
		}
	}
	d.f(`<g class="hm">`)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			m, v := pc.Messages[i*n+j], pc.Violations[i*n+j]
			fill := "#ffffff"
			switch {
			case v > 0:
				fill = heatColour(v, vmax)
			case m > 0:
				fill = "#e3f1e3"
			}
			d.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s">`,
				num(labelW+cell*float64(j)), num(top+cell*float64(i)), num(cell), num(cell), fill)
			if m > 0 {
				d.f(`<title>%s → %s: %s of %s messages violate</title>`, esc(cellName(g, i)), esc(cellName(g, j)), count(v), count(m))
			}
			d.f(`</rect>`)
		}
	}
	d.f(`</g>`)
	d.text(labelW+cell*float64(n)/2, f.H-8, "middle", "axis", "receiver →")
	d.text(labelW-6, top-6, "end", "axis", "sender ↓")
	d.f(`</svg></div>`)
}

func (p *Page) writeShifts(d *doc) {
	s := &p.shifts
	d.f(`<h2>Shifts the correction applied</h2>`)
	moved := s.Events - s.Unmoved
	d.f(`<p class="lead">Corrected − pre-synchronised time of every event. %s of %s events moved (%s)`, count(moved), count(s.Events), esc(percent(ratio(moved, s.Events))))
	if s.MaxLater > 0 {
		d.f(`; the largest shift later is %s`, dur(float64(s.MaxLater)/float64(p.res)))
	}
	if s.MaxEarlier > 0 {
		d.f(`, the largest earlier %s (the clock model before the CLC moves events both ways)`, dur(float64(s.MaxEarlier)/float64(p.res)))
	}
	d.f(`. Logarithmic axes; the %s unmoved events are not drawn.</p>`, count(s.Unmoved))
	if moved == 0 {
		d.f(`<div class="panel empty">The correction moved no event.</div>`)
		return
	}
	lo, hi := shiftBins, 0
	var cmax int64
	for k := 0; k < shiftBins; k++ {
		if s.Later[k] > 0 || s.Earlier[k] > 0 {
			lo, hi = min(lo, k), max(hi, k)
			cmax = max(cmax, s.Later[k], s.Earlier[k])
		}
	}
	res := float64(p.res)
	x0, x1 := shiftEdges[lo]/res, shiftEdges[hi+1]/res
	x0 = math.Pow(10, math.Floor(math.Log10(x0)+1e-9))
	x1 = math.Pow(10, math.Ceil(math.Log10(x1)-1e-9))
	y1 := math.Pow(10, math.Ceil(math.Log10(float64(cmax))+1e-9))
	f := &frame{W: chartW, H: 260, L: 78, R: 34, T: 12, B: 42, x0: x0, x1: x1, y0: 0.8, y1: y1, logX: true, logY: true}
	d.f(`<div class="panel">`)
	d.open(f, "distribution of shifts")
	d.axes(f, decades(x0, x1), decades(1, y1), func(v float64) string { return dur(v) }, func(v float64) string { return count(int64(v)) }, "|corrected − pre-synchronised time| (logarithmic)", "events (logarithmic)")
	both := s.MaxEarlier > 0
	for k := lo; k <= hi; k++ {
		xa, xb := f.X(shiftEdges[k]/res), f.X(shiftEdges[k+1]/res)
		w := xb - xa - 1
		for _, ser := range []struct {
			v      []int64
			colour string
			off    float64
			what   string
		}{{s.Later, "#4c72b0", 0, "later"}, {s.Earlier, "#dd8452", 0.5, "earlier"}} {
			v := ser.v[k]
			if v == 0 {
				continue
			}
			bx, bwid := xa, w
			if both {
				bx, bwid = xa+ser.off*w, w/2
			}
			d.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s events moved %s by %s to %s</title></rect>`,
				num(bx+0.5), num(f.Y(float64(v))), num(math.Max(bwid, 0.5)), num(f.Y(0.8)-f.Y(float64(v))), ser.colour,
				count(v), ser.what, dur(shiftEdges[k]/res), dur(shiftEdges[k+1]/res))
		}
	}
	d.f(`</svg><div class="legend"><span>%smoved later: %s events</span>`, swatch("#4c72b0", "", 1), count(sum(s.Later)))
	if both {
		d.f(`<span>%smoved earlier: %s events</span>`, swatch("#dd8452", "", 1), count(sum(s.Earlier)))
	}
	d.f(`</div></div>`)
}

// cellName names group i in a tooltip: the node or location, or the
// range of them.
func cellName(g *Groups, i int) string {
	if strings.HasSuffix(g.Unit, "s") {
		return g.Unit + " " + g.Labels[i]
	}
	return g.Titles[i]
}

func plural(unit string) string {
	if strings.HasSuffix(unit, "s") {
		return unit
	}
	return unit + "s"
}

func sum(v []int64) int64 {
	var n int64
	for _, x := range v {
		n += x
	}
	return n
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (p *Page) writeFidelity(d *doc) {
	pos, dis := p.fidelity[0], p.fidelity[1]
	d.f(`<h2>Fidelity of the local intervals</h2><p class="lead">How well the correction kept the lengths of local intervals (Becker et al. 2009, Table 4): <b>event position</b>, the interval from a location's first event to each event; <b>event distance</b>, the interval between successive events. Share of intervals whose relative deviation |t′ − t| / t exceeds each threshold, and the share of the total interval length they make up.</p>`)
	d.f(`<table><tr><th rowspan="2">relative deviation</th><th colspan="2">event position</th><th colspan="2">event distance</th></tr>`)
	d.f(`<tr><th>intervals</th><th>length</th><th>intervals</th><th>length</th></tr>`)
	for k, th := range measure.Thresholds {
		d.f(`<tr><td>&gt; %s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td><td class="r">%s</td></tr>`,
			thresholdLabel(th), esc(percent(pos.Above[k])), esc(percent(pos.AboveTime[k])), esc(percent(dis.Above[k])), esc(percent(dis.AboveTime[k])))
	}
	res := float64(p.res)
	largest := func(f *measure.Fidelity) string {
		if f.MaxRelFinite == 0 {
			return "0 %"
		}
		return fmt.Sprintf("%s (%s → %s)", percent(f.MaxRelFinite), dur(float64(f.MaxRelLen[0])/res), dur(float64(f.MaxRelLen[1])/res))
	}
	d.f(`<tr><td>largest relative (interval before → after)</td><td class="r" colspan="2">%s</td><td class="r" colspan="2">%s</td></tr>`, esc(largest(&pos)), esc(largest(&dis)))
	opened := func(f *measure.Fidelity) string {
		if f.Opened == 0 {
			return "0"
		}
		return fmt.Sprintf("%s (up to %s)", count(f.Opened), dur(float64(f.OpenedMax)/res))
	}
	d.f(`<tr><td>intervals of length 0 that got a length</td><td class="r" colspan="2">%s</td><td class="r" colspan="2">%s</td></tr>`, esc(opened(&pos)), esc(opened(&dis)))
	d.f(`<tr><td>largest absolute</td><td class="r" colspan="2">%s</td><td class="r" colspan="2">%s</td></tr>`, dur(float64(pos.MaxAbs)/res), dur(float64(dis.MaxAbs)/res))
	d.f(`<tr><td>weighted average Σ|t′ − t| / Σ|t|</td><td class="r" colspan="2">%s</td><td class="r" colspan="2">%s</td></tr>`, esc(percent(pos.WeightedAvg)), esc(percent(dis.WeightedAvg)))
	d.f(`<tr><td>intervals</td><td class="r" colspan="2">%s</td><td class="r" colspan="2">%s</td></tr></table>`, count(pos.Intervals), count(dis.Intervals))
	if pos.Opened+dis.Opened > 0 {
		d.f(`<p class="expl">An interval of length 0 that got a length (two events at the same time moved apart) has no relative change; such intervals are counted apart, and above every threshold.</p>`)
	}
}

func thresholdLabel(th float64) string {
	if th == 0 {
		return "0"
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", 100*th), "0"), ".") + " %"
}

func writeSection(d *doc, s Section) {
	notes := false
	for _, r := range s.Rows {
		notes = notes || r.Note != ""
	}
	d.f(`<h2>%s</h2><table>`, esc(s.Title))
	for _, r := range s.Rows {
		d.f(`<tr><td class="k">%s</td><td>%s</td>`, esc(r.Key), esc(r.Value))
		if notes {
			d.f(`<td class="note">%s</td>`, esc(r.Note))
		}
		d.f(`</tr>`)
	}
	d.f(`</table>`)
}
