package repair

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/trace"
)

// TestRegionsReport: regions count once per name, by paradigm, or by name
// when the trace does not say; placeholders and other paradigms do not
// count; the text report names the user regions.
func TestRegionsReport(t *testing.T) {
	tr := &trace.Trace{Regions: []trace.Region{
		{Name: "MPI_Init"}, {Name: "MPI_Send", Paradigm: trace.ParadigmMPI}, {Name: "solve"}, {Name: "solve"},
		{Name: ""}, {Name: "io", Paradigm: trace.ParadigmUser}, {Name: "kernel", Paradigm: paradigmCompiler},
		{Name: "!$omp parallel", Paradigm: trace.ParadigmOpenMP}, {Name: "MPI_Init"},
	}}
	got := regionsReport(tr)
	want := RegionsReport{MPI: 2, User: 3, UserNames: []string{"io", "kernel", "solve"}}
	assert.Equal(t, want, got, "regionsReport")
	var b bytes.Buffer
	(&Report{Regions: got}).WriteText(&b)
	assert.Contains(t, b.String(), "regions: 2 MPI, user regions: 3 (io, kernel, solve)", "the text report names the user regions")
}

// The text report says what the fidelity figures mean and never prints an
// infinite one: an interval of length 0 that got a length is counted
// apart, and the largest relative change names its interval.
func TestFidelityInWords(t *testing.T) {
	c := [][]int64{{0, 10, 10, 20, 1020}}
	lc := [][]int64{{0, 19, 20, 30, 1030}}
	pos, dis := measure.IntervalFidelity(c, lc, 1)
	assert.True(t, math.IsInf(dis.MaxRel, 1), "event distance: an interval of 0 opened")
	assert.InDelta(t, 0.9, dis.MaxRelFinite, 1e-12, "event distance: 10 → 19 ticks")
	assert.Equal(t, [2]int64{10, 19}, dis.MaxRelLen, "event distance: the interval of the largest change")
	assert.EqualValues(t, 1, dis.Opened, "event distance: intervals of 0 that got a length")
	assert.EqualValues(t, 1, dis.OpenedMax, "event distance: the largest length one got")
	assert.Zero(t, pos.Opened, "event position: no interval of 0")
	assert.InDelta(t, 1.0, pos.MaxRelFinite, 1e-12, "event position: 10 → 20 ticks")

	r := &Report{Resolution: 1_000_000_000, Fidelity: fidelityReport([2]measure.Fidelity{pos, dis})}
	var b bytes.Buffer
	r.WriteText(&b)
	text := b.String()
	assert.NotContains(t, strings.ToLower(text), "inf", "no infinite figure in the text")
	assert.Contains(t, text, "largest relative change 90.00% (an interval of 10 ticks, 10ns, became 19 ticks, 19ns)")
	assert.Contains(t, text, "1 interval of length 0 got a length, up to 1ns")

	var none Report
	b.Reset()
	none.WriteText(&b)
	assert.Contains(t, b.String(), "no interval changed", "a correction that moved nothing")
}

// The held-out test's verdict is said in words: a test with nothing to
// predict (both scores 0) is not "score 0 against 0".
func TestFallbackText(t *testing.T) {
	r := &clockmodel.Result{Fallback: "the clock model's own words", Estimate: &clockmodel.EstimateStats{Stay: true}}
	got := fallbackText(r)
	assert.NotContains(t, got, "0 against 0")
	assert.Contains(t, got, "nothing to predict")
	r.Estimate.Score, r.Estimate.ScoreStay = 0.4, 0.3
	assert.Contains(t, fallbackText(r), "already predict the messages of held-out stretches of time within their uncertainty (misfit 0.3, the estimated clocks' 0.4")
	r.Estimate.Score, r.Estimate.ScoreStay = 126.2, 120
	assert.Contains(t, fallbackText(r), "no better than the pre-synchronised ones (misfit 126 against 120")
	r.Estimate.Stay = false
	assert.Equal(t, "the clock model's own words", fallbackText(r), "another reason passes as it is")
}

// A trace whose run ended after the first clock-offset measurement (a
// crash: one measurement per location, at MPI_Init) has clock offsets at
// every location, and the report says so, and why interpolation applies
// none of them.
func TestPresyncLineOneMeasurement(t *testing.T) {
	tr := &trace.Trace{Resolution: 1_000_000_000}
	for i := range 4 {
		tr.Locations = append(tr.Locations, &trace.Location{Offsets: []trace.ClockOffset{{Time: 100, Offset: int64(i)}}})
	}
	r := presyncReport(tr, presync.Interpolate, 0, presync.DepartureStats{})
	assert.Equal(t, PresyncReport{Method: "interpolate", WithOffsets: 4, Measurements: 4, Single: 4}, r)
	line := r.Line(4)
	assert.Contains(t, line, "4 of 4 locations have clock-offset measurements (4 in all; 4 locations have only one), 0 locations corrected")
	assert.Contains(t, line, "needs two measurements")
	// One node: all read location 0's clock (a crash recorded by
	// clc-trace on one machine said "0 locations had clock offsets").
	r = presyncReport(tr, presync.Node, 0, presync.DepartureStats{})
	assert.Contains(t, r.Line(4), "4 of 4 locations have clock-offset measurements (4 in all; 4 locations have only one), 0 locations corrected (every location with measurements reads the clock of location 0, the reference)")
	r = presyncReport(tr, presync.Node, 3, presync.DepartureStats{Events: 7, MaxLater: 2})
	line = r.Line(4)
	assert.Contains(t, line, "3 locations corrected")
	assert.NotContains(t, line, "needs two")
	assert.Contains(t, line, "7 events differ from the OTF2 reader's per-location interpolation (later by up to 2ns")
}

// Every half-width lies in its bin: below the bin's upper end, at or
// above the one below's, 1.6–3.1 % apart.
func TestBarBins(t *testing.T) {
	for _, s := range []float64{1e-12, 3.7e-11, 1e-9, 2.5e-7, 1e-6, 1.0001e-6, 0.5, 3, 100} {
		i := barBin(s)
		assert.Less(t, s, binUpper(i), "%g", s)
		if i > 0 {
			assert.GreaterOrEqual(t, s, binUpper(i-1), "%g", s)
		}
		assert.InDelta(t, 1, binUpper(i)/s, 0.032, "%g", s)
	}
	assert.Equal(t, 0, barBin(0))
	assert.Equal(t, barBins-1, barBin(1e9))
}
