package htmlreport

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/pipetest"
)

// labelSets are axis labels as MakeGroups makes them: node names of
// emulated clocks, long host names, ranks, ranges of nodes.
func labelSets(n int) map[string][]string {
	sets := map[string][]string{}
	for i := range n {
		sets["vm/clock"] = append(sets["vm/clock"], fmt.Sprint("vm/clock", i))
		sets["hosts"] = append(sets["hosts"], fmt.Sprintf("cluster-a/compute-node%03d.example", i))
		sets["ranks"] = append(sets["ranks"], fmt.Sprint("rank ", i))
		sets["ranges"] = append(sets["ranges"], fmt.Sprintf("%d–%d", 64*i, 64*i+63))
	}
	return sets
}

// assertColumnsApart checks that the column labels of a heat map, whose
// centres are x (px) and texts text, do not overlap: level ones by their
// widths, rotated ones by a line's height across their slant.
func assertColumnsApart(t *testing.T, name string, x []float64, text []string, rotated bool) {
	t.Helper()
	sin := math.Sin(labelAngle * math.Pi / 180)
	for k := 1; k < len(x); k++ {
		gap := x[k] - x[k-1]
		if rotated {
			assert.GreaterOrEqual(t, gap*sin, tickLineH-1e-9, "%s: rotated labels %q and %q overlap", name, text[k-1], text[k])
		} else {
			assert.GreaterOrEqual(t, gap, (labelWidth(text[k-1])+labelWidth(text[k]))/2, "%s: labels %q and %q overlap", name, text[k-1], text[k])
		}
	}
}

// The labels of a heat map's columns and rows never overlap, at every size
// the page draws (up to 32 groups, and more): level when they fit their
// columns, else rotated, and every k-th when even rotated ones would
// overlap; the room left for them holds the widest, and long names are cut.
func TestHeatMapLabelsDoNotOverlap(t *testing.T) {
	sin := math.Sin(labelAngle * math.Pi / 180)
	for _, n := range []int{1, 2, 4, 8, 12, 16, 20, 32, 40, 64} {
		cell := heatCell(n)
		for set, labels := range labelSets(n) {
			name := fmt.Sprintf("%d %s", n, set)
			cols, rows := columnLabels(labels, cell), rowLabels(labels, cell)
			require.Len(t, cols.Text, n, name)
			require.Len(t, rows.Text, n, name)
			var x []float64
			var text []string
			for i, s := range cols.Text {
				assert.LessOrEqual(t, len([]rune(s)), maxLabelChars, "%s: label %q cut", name, s)
				if s != "" {
					x = append(x, cell*(float64(i)+0.5))
					text = append(text, s)
					if cols.Rotate {
						assert.LessOrEqual(t, labelWidth(s)*sin, cols.Extent, "%s: room above for %q", name, s)
					}
				}
			}
			assert.NotEmpty(t, text, "%s: some column labels are drawn", name)
			assertColumnsApart(t, name, x, text, cols.Rotate)
			last := -1
			for i, s := range rows.Text {
				if s == "" {
					continue
				}
				assert.LessOrEqual(t, labelWidth(s), rows.Extent, "%s: room left for %q", name, s)
				if last >= 0 {
					assert.GreaterOrEqual(t, cell*float64(i-last), tickLineH, "%s: row labels %d and %d overlap", name, last, i)
				}
				last = i
			}
		}
	}
	// Short labels in wide columns stay level.
	assert.False(t, columnLabels([]string{"0", "1", "2"}, heatCell(3)).Rotate, "three short labels")
}

// The page's heat map of twelve nodes named vm/clock0 … vm/clock11 (an
// emulated-clock recording) drew its column labels level, 33 px apart and
// 60 px wide: "vm/clockvm/clock1vm/clock2…".
func TestHeatMapColumnLabelsOnThePage(t *testing.T) {
	r := pipetest.Sim(t, pipetest.Drifting(12, 1, 3_000, 2))
	for i := range r.Trace.Nodes {
		r.Trace.Nodes[i].Name = fmt.Sprint("vm/clock", i)
	}
	_, page := build(t, input(r), nil)
	checkPage(t, page)
	svg := regexp.MustCompile(`(?s)aria-label="violations by pair, before the correction">(.*?)</svg>`).FindSubmatch(page)
	require.NotNil(t, svg, "the heat map")
	level := regexp.MustCompile(`<text x="([\d.]+)" y="[\d.]+" text-anchor="middle" class="tick">([^<]*)</text>`).FindAllSubmatch(svg[1], -1)
	rotated := regexp.MustCompile(`<text transform="translate\(([\d.]+) [\d.]+\) rotate\(-[\d.]+\)" class="tick">([^<]*)</text>`).FindAllSubmatch(svg[1], -1)
	require.NotEmpty(t, len(level)+len(rotated), "column labels")
	var x []float64
	var text []string
	for _, m := range append(level, rotated...) {
		v, err := strconv.ParseFloat(string(m[1]), 64)
		require.NoError(t, err)
		x, text = append(x, v), append(text, string(m[2]))
	}
	assert.Contains(t, text, "vm/clock11", "the last column is labelled")
	assertColumnsApart(t, "page", x, text, len(rotated) > 0)
}

// The clock-error chart's axis is scaled to the errors: an error bar of
// hundreds of µs around errors of a few µs widens it by at most half the
// errors' span and is cut (clipped), instead of flattening the errors to a
// line; bars within that range are drawn whole; with errors all 0 the bars
// set the range.
func TestAxisRangeFollowsTheErrors(t *testing.T) {
	lo, hi, clipped := axisRange(-2e-6, 3e-6, -300e-6, 300e-6)
	assert.True(t, clipped, "a ±300 µs band around errors of a few µs is cut")
	assert.InDelta(t, -4.5e-6, lo, 1e-12, "lower end: the errors' minimum less half their span")
	assert.InDelta(t, 5.5e-6, hi, 1e-12, "upper end")
	ticks, _, _, unit, _, _ := yAxis(lo, hi)
	assert.Equal(t, "µs", unit)
	assert.LessOrEqual(t, ticks[len(ticks)-1], 10.0, "the axis stays within ±10 µs")

	lo, hi, clipped = axisRange(-2e-6, 3e-6, -3e-6, 4e-6)
	assert.False(t, clipped, "bars within half a span are drawn whole")
	assert.Equal(t, [2]float64{-3e-6, 4e-6}, [2]float64{lo, hi})

	lo, hi, clipped = axisRange(0, 0, -5e-6, 5e-6)
	assert.False(t, clipped, "errors all 0")
	assert.Equal(t, [2]float64{-5e-6, 5e-6}, [2]float64{lo, hi})

	lo, hi, clipped = axisRange(-1e-6, 2e-6, math.NaN(), math.NaN())
	assert.False(t, clipped, "no error bars")
	assert.Equal(t, [2]float64{-1e-6, 2e-6}, [2]float64{lo, hi})

	c := &curves{rows: [][]float64{{1e-6, math.NaN(), -2e-6}}, bars: [][]float64{{300e-6, 1, math.Inf(1)}}}
	vlo, vhi, blo, bhi := yRange(c)
	// The errors (0 included) and the bars apart; unknown and unbounded
	// bars left out.
	assert.Equal(t, [2]float64{-2e-6, 1e-6}, [2]float64{vlo, vhi}, "yRange: errors")
	assert.InDelta(t, -299e-6, blo, 1e-15, "yRange: lower end of the bars")
	assert.InDelta(t, 301e-6, bhi, 1e-15, "yRange: upper end of the bars")
}

// A trace whose clock offsets make a correction of 0 everywhere (Score-P's
// ping-pong archive: the two ranks share rank 0's clock, whose offsets are
// 0) was said to have "no location with two or more clock-offset
// measurements", which each of its locations has.
func TestAssumedZeroSaysWhy(t *testing.T) {
	cfg := pipetest.Drifting(4, 2, 2_000, 3)
	cfg.PerfectClocks()
	cfg.OffsetNoise = 0
	r := pipetest.Sim(t, cfg)
	require.GreaterOrEqual(t, len(r.Trace.Locations[1].Offsets), 2, "the simulated trace has offset measurements")
	_, page := build(t, input(r), nil)
	assert.NotContains(t, string(page), "no location has two or more clock-offset measurements")
	assert.Contains(t, string(page), "the correction it applies is 0 at every location")
}
