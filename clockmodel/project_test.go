package clockmodel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/measure"
)

// randomBounds returns n random bounds r·x ≥ y over k unknowns (+1 spare,
// as delta has) shaped as the clock model's are: x_b(t) − x_a(t) for two
// domains, each side interpolated between two neighbouring knots of its
// domain (or one side a fixed reference domain), all satisfied by the
// point inside; and weights.
func randomBounds(rng *rand.Rand, k, n int) (bs []bound, w, inside []float64) {
	inside = make([]float64, k+1)
	for j := range k {
		inside[j] = rng.NormFloat64() * 100
	}
	w = make([]float64, k+1)
	for j := range w {
		w[j] = 1 + rng.Float64()*10
	}
	// Two domains: knots [0, h) and [h, k).
	h := k / 2
	side := func(lo, hi int) (int32, float32) {
		return int32(lo + rng.IntN(hi-lo-1)), rng.Float32()
	}
	for len(bs) < n {
		var b bound
		a, c := [2]int{0, h}, [2]int{h, k}
		if rng.IntN(2) == 0 {
			a, c = c, a
		}
		b.jb, b.ub = side(c[0], c[1])
		b.ja = -1
		if rng.IntN(4) > 0 {
			b.ja, b.ua = side(a[0], a[1]) // else: a bound against the reference domain
		}
		// The bound holds at inside with a random slack (some tight).
		b.y = b.dot(inside) - math.Max(0, rng.NormFloat64()*20)
		bs = append(bs, b)
	}
	return bs, w, inside
}

// asRow is b as a general row, for the oracle.
func (b *bound) asRow() row {
	r := newRow(0)
	add := func(j int32, c float64) {
		n := r.len()
		r.j[n], r.c[n] = j, c
	}
	if b.jb >= 0 {
		add(b.jb, 1-float64(b.ub))
		add(b.jb+1, float64(b.ub))
	}
	if b.ja >= 0 {
		add(b.ja, -(1 - float64(b.ua)))
		add(b.ja+1, -float64(b.ua))
	}
	r.y = b.y
	return r
}

// Hildreth's result is the projection of 0 onto the bounds in the norm
// Σ w·x²: it satisfies every bound, its norm is the least such point's as
// an exhaustive active-set solution finds it (an independent oracle: every
// subset of bounds held with equality, the feasible stationary point with
// non-negative multipliers and the least norm), and it is no farther than 0
// from any point that satisfies the bounds (the guarantee the clock model
// relies on).
func TestHildrethProjects(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	const cases = 400
	gaveUp, differ := 0, 0
	for it := range cases {
		k, n := 4+2*rng.IntN(3), 1+rng.IntN(8)
		bs, w, inside := randomBounds(rng, k, n)
		rows := make([]row, len(bs))
		for i := range bs {
			rows[i] = bs[i].asRow()
		}
		delta := make([]float64, k+1)
		var st ProjectStats
		hildreth(bs, w, delta, &st)
		if st.Residual > projectTol {
			// Not converged within the limits (nearly parallel random
			// bounds): the clock model then does not use it.
			gaveUp++
			continue
		}
		for i := range rows {
			require.GreaterOrEqual(t, rows[i].dot(delta), rows[i].y-projectTol-1e-9, "case %d: bound %d", it, i)
		}
		norm := func(x, y []float64) float64 {
			var s float64
			for j := range x {
				s += w[j] * (x[j] - y[j]) * (x[j] - y[j])
			}
			return math.Sqrt(s)
		}
		zero := make([]float64, k+1)
		require.LessOrEqual(t, norm(delta, inside), norm(zero, inside)+1, "case %d: moved away from a feasible point", it)
		want, ok := activeSetProjection(rows, w)
		require.True(t, ok, "case %d: the oracle found no solution", it)
		// The same least norm. Hildreth stops within projectTol of the
		// bounds: where two bounds meet at a narrow angle, that leaves
		// room along their edge, so a rare case differs more.
		if math.Abs(norm(want, zero)-norm(delta, zero)) > 0.01*norm(want, zero)+1 {
			t.Logf("case %d: Hildreth %v (norm %.1f), oracle %v (norm %.1f)", it, delta, norm(delta, zero), want, norm(want, zero))
			differ++
		}
	}
	t.Logf("%d of %d cases not converged, %d differ from the oracle", gaveUp, cases, differ)
	require.Less(t, gaveUp, cases/20)
	require.LessOrEqual(t, differ, cases/100)
}

// activeSetProjection returns argmin Σ w·x² subject to r·x ≥ r.y for every
// row, by trying every subset of rows as the active set.
func activeSetProjection(rows []row, w []float64) ([]float64, bool) {
	k, n := len(w), len(rows) // k: the unknowns and the spare
	var best []float64
	bestNorm := math.Inf(1)
	for mask := 0; mask < 1<<n; mask++ {
		var act []int
		for i := range n {
			if mask&(1<<i) != 0 {
				act = append(act, i)
			}
		}
		// x = W⁻¹ Rᵀ λ with (R W⁻¹ Rᵀ) λ = y over the active rows.
		m := len(act)
		a := make([][]float64, m)
		b := make([]float64, m)
		for p, i := range act {
			a[p] = make([]float64, m)
			b[p] = rows[i].y
			for q, j := range act {
				a[p][q] = rowProduct(&rows[i], &rows[j], w)
			}
		}
		lam, ok := solveDense(a, b)
		if !ok {
			continue
		}
		x := make([]float64, k)
		valid := true
		for p, i := range act {
			if lam[p] < -1e-9 {
				valid = false
			}
			for c := range rows[i].len() {
				x[rows[i].j[c]] += lam[p] * rows[i].c[c] / w[rows[i].j[c]]
			}
		}
		for i := range rows {
			if rows[i].dot(x) < rows[i].y-1e-6*(1+math.Abs(rows[i].y)) {
				valid = false
			}
		}
		if !valid {
			continue
		}
		var s float64
		for j := range x {
			s += w[j] * x[j] * x[j]
		}
		if s < bestNorm {
			best, bestNorm = x, s
		}
	}
	return best, best != nil
}

// rowProduct is r·W⁻¹·s.
func rowProduct(r, s *row, w []float64) float64 {
	var p float64
	for a := range r.len() {
		for b := range s.len() {
			if r.j[a] == s.j[b] {
				p += r.c[a] * s.c[b] / w[r.j[a]]
			}
		}
	}
	return p
}

// solveDense solves a·x = b by Gaussian elimination with partial pivoting;
// false when a is (nearly) singular.
func solveDense(a [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return nil, false
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for q := c; q < n; q++ {
				a[r][q] -= f * a[c][q]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for q := r + 1; q < n; q++ {
			s -= a[r][q] * x[q]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}

// On a ring (every message goes one way around the nodes: no two-sided
// window, so no significant model), the projection onto the one-sided
// bounds brings the times closer to the truth than pre-synchronisation,
// where the pure CLC alone leaves them about as far.
func TestProjectionOnARing(t *testing.T) {
	for _, seed := range []int64{11, 12, 13} {
		c := baseConfig(seed)
		c.Patterns = []string{"ring"}
		p := prepare(t, c)
		r, err := Run(context.Background(), p.in, p.times, p.g, p.node, Options{Latency: defaultLat, Parallel: 2, Project: true})
		require.NoError(t, err)
		require.NotNil(t, r.Project, "seed %d: %s", seed, r.Fallback)
		t.Logf("seed %d: %s; %+v", seed, r.Ran, *r.Project)
		if !r.Project.Used {
			continue
		}
		assert.Equal(t, "bounds + clc", r.Ran)
		pre, got := measure.AccuracyOf(p.times, p.truth).MeanAbs, measure.AccuracyOf(r.Times, p.truth).MeanAbs
		t.Logf("seed %d: mean |err| %.0f → %.0f ticks", seed, pre, got)
		assert.Less(t, got, pre, "seed %d", seed)
		assert.Less(t, r.ModelViolations.Total().Violations, r.Before.Total().Violations)
	}
}

// The bounds made in chunks on several workers are the bounds made in
// one pass, in the same order: relative to no model (the domains without
// curves get knots) and to an estimated one.
func TestBoundsInChunks(t *testing.T) {
	c := baseConfig(12)
	c.Patterns = []string{"ring", "allreduce", "pairs"}
	p := prepare(t, c)
	e := newEstimator(p.in, p.times, p.g, defaultLat, EstimateOptions{Parallel: 3}, nil)
	m, _, err := e.estimate(context.Background(), nil)
	require.NoError(t, err)
	for _, base := range []*Model{nil, m} {
		k, b := e.projectKnots(base)
		want := e.boundsInChunks(&k, b, defaultLat, math.MaxInt32)
		require.Greater(t, len(want), 1000)
		for _, size := range []int{1, 7, 1000} {
			assert.Equal(t, want, e.boundsInChunks(&k, b, defaultLat, size), "chunks of %d, model %t", size, base != nil)
		}
	}
}
