package clockmodel

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
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
	e.ga = &gatherer{}
	sb, noise, w0 := weigh(e.bands, e.floor(), 0)
	e.groups = []group{{p: 0, q: 1, src: srcP2P, sigma: sb, noise: noise, w0: w0}}
	for _, a := range as {
		e.anchors = append(e.anchors, anchorObs{d: 1, t: a, v: truth(a), sigma: 100})
	}
	var st EstimateStats
	m, _, err := e.fit(context.Background(), nil, &st, true)
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
	// Windows of a real network: their widths and midpoints vary by
	// hundreds of nanoseconds (a deterministic jitter here).
	jitter := func(t int64) float64 { return 200 * math.Sin(float64(t)/(7*float64(ms))) }
	half := func(t int64) float64 {
		if t < 1000*ms {
			return 2e5 // 200 µs: the bound across MPI_Init
		}
		return 500 + math.Abs(jitter(t*3))
	}
	m := fitBands(t, truth, ts, half, jitter, []int64{1000 * ms, 2000 * ms})
	for _, at := range []int64{0, 500 * ms, 900 * ms} {
		err := math.Abs(m.at(1, at) - truth(at))
		t.Logf("at %d ms: correction %.0f ns, truth %.0f ns", at/ms, m.at(1, at), truth(at))
		// 50 ppm extrapolated back from the anchor would be 25 µs at 500
		// ms, 50 µs at 0; the curve may miss the kink at the anchor by a
		// few microseconds.
		require.Less(t, err, 5000.0, "at %d ms the curve before the anchor follows the slope after it", at/ms)
	}
}
