package htmlreport

import (
	"math"
	"unicode/utf8"
)

// The tick font is 11 px (the page's style): tickCharW is a generous
// estimate of the width of one of its characters, tickLineH the height a
// line of it needs, in px. Labels longer than maxLabelChars are cut (the
// cells' tooltips name the groups in full).
const (
	tickCharW     = 6.6
	tickLineH     = 13.0
	labelAngle    = 60.0 // degrees: rotated column labels rise to the right
	maxLabelChars = 18
)

// axisLabels is the layout of the labels along one side of a heat map.
type axisLabels struct {
	// Text holds the label of each cell, "" where it is left out (every
	// Every-th cell has one, when even rotated labels would overlap).
	Text  []string
	Every int
	// Rotate says that the column labels are drawn at labelAngle.
	Rotate bool
	// Extent is the room the labels take across the axis, px: above the
	// map for the columns, left of it for the rows.
	Extent float64
}

// labelWidth estimates the width of s in the tick font, px.
func labelWidth(s string) float64 { return float64(utf8.RuneCountInString(s)) * tickCharW }

// shorten cuts s to maxLabelChars characters, the last one "…".
func shorten(s string) string {
	if utf8.RuneCountInString(s) <= maxLabelChars {
		return s
	}
	r := []rune(s)
	return string(r[:maxLabelChars-1]) + "…"
}

// thin keeps every k-th of labels (shortened), k the smallest step at which
// labels centred on cells of width cell are at least need px apart.
func thin(labels []string, cell, need float64) ([]string, int) {
	k := 1
	if cell > 0 && need > cell {
		k = int(math.Ceil(need / cell))
	}
	out := make([]string, len(labels))
	for i, s := range labels {
		if i%k == 0 {
			out[i] = shorten(s)
		}
	}
	return out, k
}

// widest returns the width of the widest of labels, px.
func widest(labels []string) float64 {
	w := 0.0
	for _, s := range labels {
		w = math.Max(w, labelWidth(s))
	}
	return w
}

// columnLabels lays out the labels of columns of width cell: level when
// each fits its cell with a little room, else rotated, and then only every
// k-th when rotated labels closer than a line's height would overlap.
func columnLabels(labels []string, cell float64) axisLabels {
	short := make([]string, len(labels))
	for i, s := range labels {
		short[i] = shorten(s)
	}
	if widest(short)+4 <= cell {
		return axisLabels{Text: short, Every: 1, Extent: tickLineH + 7}
	}
	sin := math.Sin(labelAngle * math.Pi / 180)
	text, k := thin(labels, cell, tickLineH/sin)
	return axisLabels{Text: text, Every: k, Rotate: true, Extent: widest(text)*sin + 12}
}

// rowLabels lays out the labels of rows of height cell, level, every k-th
// when rows are lower than a line.
func rowLabels(labels []string, cell float64) axisLabels {
	text, k := thin(labels, cell, tickLineH)
	return axisLabels{Text: text, Every: k, Extent: widest(text) + 10}
}
