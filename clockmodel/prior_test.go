package clockmodel

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/simscenario"
	"github.com/clc-tools/clc/measure"
)

// fitBands fits domain 1 against the reference domain 0 from synthetic
// windows (truth(t) ± half, at the times ts; a window's midpoint is off
// the truth by bias(t)) and anchors (at the times as, exact), on a 1 GHz
// timer, and returns the fitted model.
func fitBands(t *testing.T, truth func(int64) float64, ts []int64, half func(int64) float64, bias func(int64) float64, as []int64) *Model {
	t.Helper()
	m, _ := fitBandsStats(t, truth, ts, half, bias, as)
	return m
}

// fitBandsStats is fitBands that also returns the estimate's statistics.
func fitBandsStats(t *testing.T, truth func(int64) float64, ts []int64, half func(int64) float64, bias func(int64) float64, as []int64) (*Model, EstimateStats) {
	t.Helper()
	e := &estimator{
		in: &Input{Domains: Domains{Of: []int32{0, 1}, Ref: 0, Node: []int32{0, 1}, Size: []int32{1, 1}},
			Resolution: 1e9},
		opt:     EstimateOptions{PerSide: 2, Iterations: 1, PerKnot: 4, Parallel: 1},
		span:    1 << 20,
		anchors: []anchorObs{},
	}
	for _, t := range ts {
		m := truth(t) + bias(t)
		e.bands = append(e.bands, band{p: 0, q: 1, t: t, lo: m - half(t), hi: m + half(t), nlo: 1, nhi: 1})
	}
	weigh(e.bands, e.floor())
	for _, a := range as {
		e.anchors = append(e.anchors, anchorObs{d: 1, t: a, v: truth(a), sigma: 100})
	}
	var st EstimateStats
	m, _, err := e.fit(context.Background(), nil, &st)
	require.NoError(t, err)
	return m, st
}

// A window spanning MPI_Init (its time the middle of a long bound, before
// the first anchor) must not become a lever: with a knot at the anchor the
// curve before it is not the extrapolation of the slope after it.
func TestAnchorIsAKnot(t *testing.T) {
	const ms = int64(1e6)
	// The true correction is 0 up to the anchor at 1 s and then falls at
	// 50 ppm (the clock starts to drift away after MPI_Init).
	truth := func(t int64) float64 { return -50e-6 * float64(max(0, t-1000*ms)) }
	ts := []int64{500 * ms}
	for t := 1010 * ms; t <= 2000*ms; t += 10 * ms {
		ts = append(ts, t)
	}
	half := func(t int64) float64 {
		if t < 1000*ms {
			return 2e5 // 200 µs: the bound across MPI_Init
		}
		return 500
	}
	m := fitBands(t, truth, ts, half, func(int64) float64 { return 0 }, []int64{1000 * ms, 2000 * ms})
	for _, at := range []int64{0, 500 * ms, 900 * ms} {
		err := math.Abs(m.at(1, at) - truth(at))
		t.Logf("at %d ms: correction %.0f ns, truth %.0f ns", at/ms, m.at(1, at), truth(at))
		// 50 ppm extrapolated back from the anchor would be 25 µs at 500 ms.
		require.Less(t, err, 2000.0, "at %d ms the curve before the anchor follows the slope after it", at/ms)
	}
}

// Clocks that wander faster than the default priors let a curve follow
// (the study's fast-wander scenario: 5 µs with a 50 ms period): the
// cross-validation chooses the loose priors, and the estimated clocks
// leave at most three quarters of the mean error the default priors
// leave (0.34 against 0.60 of pre-synchronisation's for seed 101, 0.39
// against 0.78 for 606).
func TestCrossValidationChoosesLoosePriors(t *testing.T) {
	for _, seed := range []int64{101, 606} {
		c := simscenario.Base(seed)
		c.ClockWander, c.WanderPeriod = 5*time.Microsecond, 50*time.Millisecond
		p := prepare(t, c)
		mean := func(fixed bool) (*Result, float64) {
			r, err := Run(context.Background(), p.in, p.times, p.g, p.node, Options{Latency: defaultLat, Parallel: 2, Estimate: EstimateOptions{defaultPriors: fixed}})
			require.NoError(t, err)
			require.NotNil(t, r.Estimate)
			require.Equal(t, "model + clc", r.Ran, "seed %d: %s", seed, r.Fallback)
			return r, measure.AccuracyOf(r.Times, p.truth).MeanAbs
		}
		pre := measure.AccuracyOf(p.times, p.truth).MeanAbs
		_, def := mean(true)
		r, got := mean(false)
		t.Logf("seed %d: priors %q, curvature %g; mean |err| %.0f after pre-synchronisation, %.0f (%.2f) with the default priors, %.0f (%.2f) chosen",
			seed, r.Estimate.Priors, r.Estimate.Curvature, pre, def, def/pre, got, got/pre)
		require.Contains(t, r.Estimate.Priors, "held-out", "seed %d: the default priors were kept", seed)
		require.Less(t, got, 0.75*def, "seed %d", seed)
	}
}
