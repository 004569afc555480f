package repair

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
)

// MovedReport counts everything the correction moved, the clock model and
// the CLC together, against the pre-synchronised times: the events whose
// time changed, how far later and earlier, and the mean |shift|.
type MovedReport struct {
	Events     int64   `json:"events"`
	MaxLater   float64 `json:"max_later"`
	MaxEarlier float64 `json:"max_earlier"`
	MeanAbs    float64 `json:"mean_abs"`
}

// ErrorBarsReport says how sure the corrected times are: per event the
// half-width of the interval that holds its true time (relative to the
// reference clock) with the stated confidence, from the clock model's
// posterior (clockmodel.Result.ErrorBar), summarised over the events and
// per clock domain. Times in seconds.
type ErrorBarsReport struct {
	Confidence float64 `json:"confidence"`
	// Events have a finite error bar; Unbounded are the events of clock
	// domains that neither messages nor offset measurements bound.
	Events    int64   `json:"events"`
	Unbounded int64   `json:"unbounded_events"`
	Median    float64 `json:"median"`
	P95       float64 `json:"p95"`
	Max       float64 `json:"max"`
	// Domains gives each clock domain's largest and mean half-width
	// (domain index as in the method's clock domains).
	Domains []DomainBar `json:"domains"`
	// Note is set when the clock model left the clocks (the method's
	// fallback says why): the bars are then the posterior of an estimate it did not
	// apply, and such bars, measured against true times, covered from
	// under a third to all of the events (docs/accuracy.md).
	Note string `json:"note,omitempty"`
}

// stayedNote is ErrorBarsReport.Note where the clock model left the
// clocks (the method's fallback says why).
const stayedNote = "the clock model left the clocks where pre-synchronisation put them: these bars are the posterior of the estimate it did not apply, " +
	"and against true times such bars have covered from under a third to all of the events: take them as a scale, not as 95 % intervals"

// DomainBar is one clock domain's error bars, and what they rest on.
type DomainBar struct {
	Domain int32   `json:"domain"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	// Basis is what the bars rest on: "reference" (the reference clock:
	// the moves alone), "messages and offsets", "messages" or "offsets"
	// (the estimate's posterior, from its two-sided windows and offset
	// measurements), "offsets and wander prior" (no posterior: the prior
	// of the pre-synchronised clock), "bounds" (only what the messages
	// with the reference prove) or "nothing".
	Basis string `json:"basis"`
	// OffsetMeasurements counts the domain's offset measurements (those
	// of one epoch merged into one), TwoSidedWindows the two-sided windows
	// between it and another domain.
	OffsetMeasurements int `json:"offset_measurements"`
	TwoSidedWindows    int `json:"two_sided_windows"`
	// DecidedByBounds is the share of its events whose interval the
	// messages' bounds decided (cut to what they prove, or replaced where
	// the estimate's interval lies outside them).
	DecidedByBounds float64 `json:"decided_by_bounds"`
	// Note says why the evidence is thin, where it is (empty otherwise).
	Note string `json:"note,omitempty"`
}

// thinWindows is the number of two-sided windows below which a domain's
// bars are said to rest on few messages.
const thinWindows = 8

// domainBar describes domain d's bars from what they rest on (b) and the
// share of its events the bounds decided.
func domainBar(d int32, max, mean float64, b clockmodel.BarBasis, decided float64) DomainBar {
	db := DomainBar{Domain: d, Max: max, Mean: mean, OffsetMeasurements: b.Anchors, TwoSidedWindows: b.Windows, DecidedByBounds: decided}
	switch {
	case b.Reference:
		db.Basis = "reference"
		return db
	case b.Posterior && b.Anchors > 0 && b.Windows > 0:
		db.Basis = "messages and offsets"
	case b.Posterior && b.Windows > 0:
		db.Basis = "messages"
	case b.Posterior:
		db.Basis = "offsets"
	case b.Prior:
		db.Basis = "offsets and wander prior"
	case b.Bounded:
		db.Basis = "bounds"
	default:
		db.Basis = "nothing"
	}
	var why []string
	switch {
	case !b.Posterior && !b.Prior && !b.Bounded:
		why = append(why, "nothing bounds this clock: no offset measurement, no two-sided window, no message with the reference")
	case b.Windows == 0:
		why = append(why, "no two-sided window with another clock: between its offset measurements the bars are the prior of the clocks' wander")
	case b.Windows < thinWindows:
		why = append(why, fmt.Sprintf("only %d two-sided windows with other clocks", b.Windows))
	}
	if b.Anchors == 0 && (b.Posterior || b.Bounded) {
		why = append(why, "no offset measurement: its level rests on the messages alone")
	}
	if decided >= 0.5 {
		why = append(why, fmt.Sprintf("the messages' bounds decide the bars of %.0f %% of its events", 100*decided))
	}
	db.Note = strings.Join(why, "; ")
	return db
}

// The histogram of error bars: barPerOctave bins per power of two (1.6–3.1
// % apart; 100 per decade would be 2.3 %) from 2^barMinExp s (0.9 ps) over
// barOctaves octaves (to 2^7 s), read off a float64's bits: its exponent
// and the top barMantBits bits of its mantissa (a logarithm per event
// cost a third of the error bars' time).
const (
	barMantBits  = 5
	barPerOctave = 1 << barMantBits
	barMinExp    = -40
	barOctaves   = 47
	barBins      = barPerOctave * barOctaves
)

// barBin returns the histogram bin of a half-width of s seconds.
func barBin(s float64) int {
	if !(s > 0) {
		return 0
	}
	b := math.Float64bits(s)
	exp := int(b>>52&0x7ff) - 1023
	i := (exp-barMinExp)<<barMantBits | int(b>>(52-barMantBits)&(barPerOctave-1))
	return min(barBins-1, max(0, i))
}

// binUpper is the upper end of bin i, seconds.
func binUpper(i int) float64 {
	return math.Ldexp(1+float64(i%barPerOctave+1)/barPerOctave, i/barPerOctave+barMinExp)
}

// moveTally counts one location's moves against one set of times.
type moveTally struct {
	moved          int64
	abs            float64
	later, earlier int64
}

// add counts a move by delta ticks.
func (t *moveTally) add(delta int64) {
	if delta != 0 {
		t.moved++
		t.abs += math.Abs(float64(delta))
		t.later = max(t.later, delta)
		t.earlier = max(t.earlier, -delta)
	}
}

// movedReport sums the tallies of every location (ticks of a timer with
// res ticks per second).
func movedReport(tallies []moveTally, res float64) MovedReport {
	var m MovedReport
	var abs float64
	for i := range tallies {
		t := &tallies[i]
		m.Events += t.moved
		abs += t.abs
		m.MaxLater = math.Max(m.MaxLater, float64(t.later)/res)
		m.MaxEarlier = math.Max(m.MaxEarlier, float64(t.earlier)/res)
	}
	if m.Events > 0 {
		m.MeanAbs = abs / float64(m.Events) / res
	}
	return m
}

// finalTally is one location's share of finalReport.
type finalTally struct {
	presynced, input  moveTally
	hist              []int64
	finite, unbounded int64
	covered, judged   int64
	barMax, barSum    float64
	// decided counts the events whose bar the messages' bounds decided.
	decided int64
}

// finalReport compares the corrected times with the pre-synchronised
// ones, which it recovers from what the CLC (moved) and the clock model
// (model, before its Forget) recorded as moved, and with the input's times
// as the OTF2 reader shows them (the pre-synchronised ones less their
// departures, presync.ApplyComparing): what moved against each, and, when the
// clock model estimated the clocks, every event's error bar and, with the
// truth, the share of events within their error bars (acc.WithinBars).
// When ctx is cancelled it returns early with a partial tally (the caller
// returns the context's error).
//
// Divided (sh), each process tallies its own locations, the histogram is
// summed and the tallies gathered, so that every process's report is the
// one process's.
func finalReport(ctx context.Context, times [][]int64, moved []clc.Moved, departures []presync.Departure, model *clockmodel.Result, dom *clockmodel.Domains, truth [][]int64, acc *AccuracyReport, res uint64, np int, sh *share) (presynced, input MovedReport, _ *ErrorBarsReport) {
	bars := model.HasErrorBars()
	r := float64(res)
	tallies := make([]finalTally, len(times))
	par.ForEach(len(times), np, func(li int) {
		f := times[li]
		if len(f) == 0 || !sh.owns(li) {
			return
		}
		c := moved[li].Original(f) // the model's times (or the pre-synchronised)
		if pre := model.Original(li, c); pre != nil {
			c = pre
		}
		t := &tallies[li]
		d := dom.Of[li]
		var bc *clockmodel.BarCursor
		if bars {
			t.hist = make([]int64, barBins)
			bc = model.BarCursor(d)
		}
		dep := &departures[li]
		run, next, off := -1, 0, int64(0) // dep's run, where the next starts, its difference
		if len(dep.From) > 0 {
			next = dep.From[0]
		} else {
			next = len(f)
		}
		for j, v := range f {
			if j%4096 == 0 && ctx.Err() != nil {
				return
			}
			for j == next {
				run++
				off = dep.D[run]
				next = len(f)
				if run+1 < len(dep.From) {
					next = dep.From[run+1]
				}
			}
			delta := v - c[j]
			t.presynced.add(delta)
			t.input.add(delta + off)
			if !bars {
				continue
			}
			b := bc.At(c[j], v)
			if math.IsInf(b, 1) {
				t.unbounded++
				continue
			}
			t.finite++
			if bc.Cut {
				t.decided++
			}
			s := b / r
			t.hist[barBin(s)]++
			t.barMax = math.Max(t.barMax, s)
			t.barSum += s
			if truth != nil {
				t.judged++
				if math.Abs(float64(v-truth[li][j])) <= b {
					t.covered++
				}
			}
		}
	})
	hist := make([]int64, barBins)
	if bars {
		for li := range tallies {
			for i, n := range tallies[li].hist {
				hist[i] += n
			}
			tallies[li].hist = nil
		}
		sh.g.Int64("the error bars' histogram", comm.Sum, hist)
	}
	sh.gatherTallies(tallies)
	ps, in := make([]moveTally, len(tallies)), make([]moveTally, len(tallies))
	for i := range tallies {
		ps[i], in[i] = tallies[i].presynced, tallies[i].input
	}
	presynced, input = movedReport(ps, r), movedReport(in, r)
	if !bars {
		return presynced, input, nil
	}
	eb := &ErrorBarsReport{Confidence: 0.95}
	if model.Fallback != "" {
		eb.Note = stayedNote
	}
	dmax := make([]float64, dom.Count())
	dsum := make([]float64, dom.Count())
	dn := make([]int64, dom.Count())
	ddec := make([]int64, dom.Count())
	var covered, judged int64
	for li := range tallies {
		t := &tallies[li]
		eb.Events += t.finite
		eb.Unbounded += t.unbounded
		covered += t.covered
		judged += t.judged
		d := dom.Of[li]
		dmax[d] = math.Max(dmax[d], t.barMax)
		dsum[d] += t.barSum
		dn[d] += t.finite
		ddec[d] += t.decided
		eb.Max = math.Max(eb.Max, t.barMax)
	}
	quantile := func(q float64) float64 {
		want := int64(math.Ceil(q * float64(eb.Events)))
		var seen int64
		for i, n := range hist {
			seen += n
			if seen >= want && n > 0 {
				return math.Min(binUpper(i), eb.Max)
			}
		}
		return eb.Max
	}
	if eb.Events > 0 {
		eb.Median, eb.P95 = quantile(0.5), quantile(0.95)
	}
	for d := range dmax {
		if dn[d] > 0 {
			eb.Domains = append(eb.Domains, domainBar(int32(d), dmax[d], dsum[d]/float64(dn[d]), model.BarBasis(int32(d)), float64(ddec[d])/float64(dn[d])))
		}
	}
	if acc != nil && judged > 0 {
		acc.WithinBars = float64(covered) / float64(judged)
	}
	return presynced, input, eb
}

// gatherTallies completes tallies (but their histograms) with every
// process's locations'.
func (sh *share) gatherTallies(tallies []finalTally) {
	f, fb := math.Float64bits, math.Float64frombits
	mt := func(m *moveTally, w []uint64) {
		w[0], w[1], w[2], w[3] = uint64(m.moved), f(m.abs), uint64(m.later), uint64(m.earlier)
	}
	tm := func(w []uint64) moveTally {
		return moveTally{moved: int64(w[0]), abs: fb(w[1]), later: int64(w[2]), earlier: int64(w[3])}
	}
	measure.GatherRows(sh.g, "the moves and error bars", sh.own, tallies, 15,
		func(t *finalTally, w []uint64) {
			mt(&t.presynced, w[0:4])
			mt(&t.input, w[4:8])
			w[8], w[9], w[10], w[11], w[12], w[13] = uint64(t.finite), uint64(t.unbounded), uint64(t.covered), uint64(t.judged), f(t.barMax), f(t.barSum)
			w[14] = uint64(t.decided)
		},
		func(w []uint64, t *finalTally) {
			*t = finalTally{presynced: tm(w[0:4]), input: tm(w[4:8]), finite: int64(w[8]), unbounded: int64(w[9]),
				covered: int64(w[10]), judged: int64(w[11]), barMax: fb(w[12]), barSum: fb(w[13]), decided: int64(w[14])}
		})
}
