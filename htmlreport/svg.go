package htmlreport

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// doc builds the page: text is escaped, numbers are written short. The
// output is well-formed XML (every element closed, attributes quoted,
// only XML's own entities), so that it parses as XHTML too.
type doc struct {
	bytes.Buffer
}

func esc(s string) string { return html.EscapeString(s) }

// num writes a coordinate with one decimal, without a trailing ".0".
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	s := strconv.FormatFloat(math.Round(v*10)/10, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		s = "0"
	}
	return s
}

func (d *doc) f(format string, args ...any) { fmt.Fprintf(&d.Buffer, format, args...) }

// text writes an SVG text element.
func (d *doc) text(x, y float64, anchor, class, s string) {
	d.f(`<text x="%s" y="%s"`, num(x), num(y))
	if anchor != "" && anchor != "start" {
		d.f(` text-anchor="%s"`, anchor)
	}
	if class != "" {
		d.f(` class="%s"`, class)
	}
	d.f(`>%s</text>`, esc(s))
}

func (d *doc) line(x1, y1, x2, y2 float64, class string) {
	d.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" class="%s"/>`, num(x1), num(y1), num(x2), num(y2), class)
}

// frame is the plotting area of a chart and its data ranges.
type frame struct {
	W, H       float64 // whole chart
	L, R, T, B float64 // margins
	x0, x1     float64
	y0, y1     float64
	logX, logY bool
}

func (f *frame) X(v float64) float64 {
	if f.logX {
		v, f0, f1 := math.Log10(v), math.Log10(f.x0), math.Log10(f.x1)
		return f.L + (v-f0)/(f1-f0)*(f.W-f.L-f.R)
	}
	return f.L + (v-f.x0)/(f.x1-f.x0)*(f.W-f.L-f.R)
}

func (f *frame) Y(v float64) float64 {
	if f.logY {
		v, f0, f1 := math.Log10(v), math.Log10(f.y0), math.Log10(f.y1)
		return f.H - f.B - (v-f0)/(f1-f0)*(f.H-f.T-f.B)
	}
	return f.H - f.B - (v-f.y0)/(f.y1-f.y0)*(f.H-f.T-f.B)
}

// open starts an SVG of the frame's size; label is its accessible name.
func (d *doc) open(f *frame, label string) {
	d.f(`<svg viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-label="%s">`,
		num(f.W), num(f.H), num(f.W), num(f.H), esc(label))
}

// axes draws the grid, the tick labels and the axis titles.
func (d *doc) axes(f *frame, xt, yt []float64, fx, fy func(float64) string, xlabel, ylabel string) {
	d.f(`<g class="grid">`)
	for _, v := range yt {
		d.line(f.L, f.Y(v), f.W-f.R, f.Y(v), "")
	}
	for _, v := range xt {
		d.line(f.X(v), f.T, f.X(v), f.H-f.B, "")
	}
	d.f(`</g>`)
	d.f(`<rect x="%s" y="%s" width="%s" height="%s" class="frame"/>`, num(f.L), num(f.T), num(f.W-f.L-f.R), num(f.H-f.T-f.B))
	for _, v := range yt {
		d.text(f.L-6, f.Y(v)+4, "end", "tick", fy(v))
	}
	for _, v := range xt {
		d.text(f.X(v), f.H-f.B+16, "middle", "tick", fx(v))
	}
	d.text((f.L+f.W-f.R)/2, f.H-6, "middle", "axis", xlabel)
	d.f(`<text transform="translate(14 %s) rotate(-90)" text-anchor="middle" class="axis">%s</text>`, num((f.T+f.H-f.B)/2), esc(ylabel))
}

// niceTicks returns about n round values (1, 2, 5 × 10^k steps) covering
// [lo, hi], and the range widened to whole steps.
func niceTicks(lo, hi float64, n int) (ticks []float64, a, b float64) {
	if !(hi > lo) {
		d := math.Max(math.Abs(lo)*0.1, 1e-12)
		lo, hi = lo-d, hi+d
	}
	raw := (hi - lo) / float64(max(n, 1))
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	a, b = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	for v := a; v <= b+step/2; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, v)
	}
	return ticks, a, b
}

// decades returns the powers of ten in [lo, hi].
func decades(lo, hi float64) []float64 {
	var t []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		v := math.Pow(10, e)
		if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
			t = append(t, v)
		}
	}
	return t
}

// timeUnit returns a unit that shows seconds up to about maxAbs with
// numbers below 1000: its name and how many of it make a second.
func timeUnit(maxAbs float64) (string, float64) {
	switch {
	case maxAbs >= 1:
		return "s", 1
	case maxAbs >= 1e-3:
		return "ms", 1e3
	case maxAbs >= 1e-6:
		return "µs", 1e6
	}
	return "ns", 1e9
}

// fmtNum formats a tick value with as many decimals as the step needs.
func fmtNum(v, step float64) string {
	dec := 0
	if step > 0 && step < 1 {
		dec = int(math.Ceil(-math.Log10(step) - 1e-9))
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// dur formats seconds for a reader: three significant digits and a unit.
func dur(s float64) string {
	if s == 0 || math.IsNaN(s) {
		return "0 s"
	}
	// Round to three significant digits first, so that 0.99999e-6 is 1 µs.
	mag := math.Pow(10, math.Floor(math.Log10(math.Abs(s)))-2)
	s = math.Round(s/mag) * mag
	u, k := timeUnit(math.Abs(s) * (1 + 1e-9))
	v := s * k
	dec := 2
	switch a := math.Abs(v); {
	case a >= 99.95:
		dec = 0
	case a >= 9.995:
		dec = 1
	}
	out := strconv.FormatFloat(v, 'f', dec, 64)
	if strings.Contains(out, ".") {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out + " " + u
}

// Count formats n as the page does: with commas between thousands.
func Count(n int64) string { return count(n) }

// Seconds formats a time in seconds as the page does: three significant
// digits and a unit (s, ms, µs, ns).
func Seconds(s float64) string { return dur(s) }

// count formats an integer with commas between thousands.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func percent(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "∞"
	case f == 0:
		return "0 %"
	case f < 0.0001:
		return "< 0.01 %"
	}
	return strconv.FormatFloat(100*f, 'f', 2, 64) + " %"
}

// path returns an SVG path through the points (x, y(i)) of series v,
// broken where v is NaN.
func path(v []float64, x func(i int) float64, y func(float64) float64) string {
	var b strings.Builder
	pen := false
	for i, val := range v {
		if math.IsNaN(val) {
			pen = false
			continue
		}
		if pen {
			b.WriteString("L")
		} else {
			b.WriteString("M")
		}
		b.WriteString(num(x(i)))
		b.WriteString(" ")
		b.WriteString(num(y(val)))
		if !pen && (i+1 == len(v) || math.IsNaN(v[i+1])) {
			b.WriteString("h0") // a lone point: a dot with round caps
		}
		pen = true
	}
	return b.String()
}

// area returns an SVG path filling between series lo and hi, one polygon
// per run of bins where both are known.
func area(lo, hi []float64, x func(i int) float64, y func(float64) float64) string {
	var b strings.Builder
	for i := 0; i < len(lo); {
		if math.IsNaN(lo[i]) || math.IsNaN(hi[i]) {
			i++
			continue
		}
		j := i
		for j < len(lo) && !math.IsNaN(lo[j]) && !math.IsNaN(hi[j]) {
			j++
		}
		b.WriteString("M")
		for k := i; k < j; k++ {
			if k > i {
				b.WriteString("L")
			}
			b.WriteString(num(x(k)) + " " + num(y(hi[k])))
		}
		for k := j - 1; k >= i; k-- {
			b.WriteString("L" + num(x(k)) + " " + num(y(lo[k])))
		}
		b.WriteString("Z")
		i = j
	}
	return b.String()
}
