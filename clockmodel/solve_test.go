package clockmodel

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// denseSolve solves the normal equations of s by Gaussian elimination: the
// oracle for the conjugate gradients.
func denseSolve(s *system) []float64 {
	n := s.n
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
	}
	for i, r := range s.rows {
		for x := range r.len() {
			for y := range r.len() {
				a[r.j[x]][r.j[y]] += s.w[i] * r.c[x] * r.c[y]
			}
			a[r.j[x]][n] += s.w[i] * r.c[x] * r.y
		}
	}
	return gaussSolve(a)
}

// gaussSolve solves the n×n system a (row i: its coefficients, then its
// right-hand side) by Gaussian elimination with partial pivoting, in place.
func gaussSolve(a [][]float64) []float64 {
	n := len(a)
	for c := range n {
		p := c
		for i := c + 1; i < n; i++ {
			if math.Abs(a[i][c]) > math.Abs(a[p][c]) {
				p = i
			}
		}
		a[c], a[p] = a[p], a[c]
		for i := c + 1; i < n; i++ {
			f := a[i][c] / a[c][c]
			for j := c; j <= n; j++ {
				a[i][j] -= f * a[c][j]
			}
		}
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		v := a[i][n]
		for j := i + 1; j < n; j++ {
			v -= a[i][j] * x[j]
		}
		x[i] = v / a[i][i]
	}
	return x
}

// randomSystem builds a problem shaped like the estimator's: nd blocks of
// k knots (knot i of every block at time 1000·i) with second-difference
// rows of weight smooth, a ridge, and random two-block rows between
// consecutive knots of two blocks that pair draws (nil: any two).
func randomSystem(rng *rand.Rand, nd, k int, smooth float64, pair func(*rand.Rand) (int, int)) *system {
	if pair == nil {
		pair = func(rng *rand.Rand) (int, int) { return rng.IntN(nd), rng.IntN(nd) }
	}
	s := &system{n: nd * k, np: 2, at: make([]int64, nd*k)}
	for d := range nd {
		lo := int32(d * k)
		s.blocks = append(s.blocks, span{lo, lo + int32(k)})
		for i := range k {
			s.at[int(lo)+i] = 1000 * int64(i)
		}
		for i := 1; i+1 < k; i++ {
			s.rows = append(s.rows, row{j: [4]int32{lo + int32(i) - 1, lo + int32(i), lo + int32(i) + 1, noTerm}, c: [4]float64{-1, 2, -1}})
			s.w = append(s.w, smooth)
		}
		for i := range k {
			s.rows = append(s.rows, row{j: [4]int32{lo + int32(i), noTerm, noTerm, noTerm}, c: [4]float64{1}})
			s.w = append(s.w, 1e-9)
		}
	}
	for range 6 * nd * k {
		a, b := pair(rng)
		if a == b {
			continue
		}
		i, u := rng.IntN(k-1), rng.Float64()
		w := 1 / (0.01 + rng.Float64())
		r := row{y: 100 * rng.NormFloat64()}
		r.j = [4]int32{int32(a*k + i), int32(a*k + i + 1), int32(b*k + i), int32(b*k + i + 1)}
		r.c = [4]float64{1 - u, u, u - 1, -u}
		s.rows = append(s.rows, r)
		s.w = append(s.w, w)
	}
	// One block tied to 0 (the reference's role).
	for i := range k {
		s.rows = append(s.rows, row{j: [4]int32{int32(i), noTerm, noTerm, noTerm}, c: [4]float64{1}})
		s.w = append(s.w, 10)
	}
	return s
}

func TestSolveMatchesDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		nd, k  int
		smooth float64
	}{{2, 5, 1}, {6, 8, 100}, {12, 6, 1e6}, {20, 4, 0.01}, {8, 64, 1e3}} {
		{
			s := randomSystem(rng, tc.nd, tc.k, tc.smooth, nil)
			want := denseSolve(s)
			got := make([]float64, s.n)
			it, err := s.solve(context.Background(), got, 1e-12, 10*s.n, nil)
			require.NoError(t, err)
			requireClose(t, want, got, "nd %d k %d smooth %g (%d iterations)", tc.nd, tc.k, tc.smooth, it)
			t.Logf("nd %d k %d smooth %g: %d iterations, coarse level %t", tc.nd, tc.k, tc.smooth, it, s.coarse != nil)
		}
	}
}

// requireClose asserts that got equals want to 1e-6 of want's largest
// magnitude.
func requireClose(t *testing.T, want, got []float64, msg string, args ...any) {
	t.Helper()
	var scale float64
	for _, v := range want {
		scale = math.Max(scale, math.Abs(v))
	}
	for i := range want {
		require.InDelta(t, want[i], got[i], 1e-6*scale+1e-9, append([]any{"unknown %d: " + msg, i}, args...)...)
	}
}

// TestTwoLevelSolve: on many domains coupled along a ring with random
// chords (a graph whose smooth modes block Jacobi resolves slowly) and
// curves as stiff against the windows as the estimator's, the coarse level
// is built, CG reaches the solution of block Jacobi at a tight tolerance
// (which TestSolveMatchesDense checks against the dense solution), and it
// needs at most half the iterations of block Jacobi alone (0.39 to 0.43
// over eight seeds).
func TestTwoLevelSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const nd, k = 32, 128
	ring := func(rng *rand.Rand) (int, int) {
		a := rng.IntN(nd)
		if rng.IntN(10) == 0 {
			return a, rng.IntN(nd)
		}
		return a, (a + 1) % nd
	}
	s := randomSystem(rng, nd, k, 1e3, ring)
	// solve runs CG from 0 to a relative residual tol, with or without
	// the coarse level.
	solve := func(twoLevel bool, tol float64) ([]float64, int) {
		s.coarse, s.coarseTried = nil, !twoLevel
		x := make([]float64, s.n)
		it, err := s.solve(context.Background(), x, tol, 10*s.n, nil)
		require.NoError(t, err)
		require.Equal(t, twoLevel, s.coarse != nil)
		return x, it
	}
	want, _ := solve(false, 1e-13)
	got, it := solve(true, 1e-12)
	requireClose(t, want, got, "two-level (%d iterations)", it)

	_, one := solve(false, 1e-8)
	_, two := solve(true, 1e-8)
	t.Logf("%d coarse unknowns; %d iterations with block Jacobi, %d two-level", len(s.coarse.c), one, two)
	require.LessOrEqual(t, 2*two, one)
}

// ringSystem is a randomSystem of 32 domains of 128 knots, each with
// windows to the next one or two.
func ringSystem(seed uint64) *system {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	const nd, k = 32, 128
	ring := func(rng *rand.Rand) (int, int) {
		a := rng.IntN(nd)
		return a, (a + 1 + rng.IntN(2)) % nd
	}
	return randomSystem(rng, nd, k, 1e3, ring)
}

// solveFresh solves s from 0 to a relative residual of 1e-12, its coarse
// level built anew, and returns the solution and the iterations.
func solveFresh(t *testing.T, s *system) ([]float64, int) {
	t.Helper()
	s.coarse, s.coarseTried = nil, false
	x := make([]float64, s.n)
	it, err := s.solve(context.Background(), x, 1e-12, 10*s.n, nil)
	require.NoError(t, err)
	require.NotNil(t, s.coarse, "the coarse level is built")
	return x, it
}

// TestSolveInParts: the passes over the rows split into parts, the
// preconditioner's blocks solved on several goroutines and the coarse
// correction beside them (as on a large system) reach the solution the
// serial solve reaches, in about as many iterations.
func TestSolveInParts(t *testing.T) {
	s := ringSystem(7)
	solve := func(np, partRows, parallelMin int) ([]float64, int) {
		s.np, s.partRows, s.parallelMin = np, partRows, parallelMin
		return solveFresh(t, s)
	}
	want, serial := solve(1, 0, 0)
	for _, np := range []int{2, 3, 5} {
		got, it := solve(np, 97, 1)
		requireClose(t, want, got, "%d goroutines (%d iterations, serial %d)", np, it, serial)
		assert.InDelta(t, serial, it, 2, "%d goroutines", np)
	}
}

// groupWindows puts the windows' rows of a ringSystem (after each
// block's smoothness and prior rows, before the reference's) in groups of
// 50 that share an eliminated bias.
func groupWindows(s *system) {
	k := int(s.blocks[0].hi - s.blocks[0].lo)
	for g := len(s.blocks) * (2*k - 2); g+50 <= len(s.rows)-k; g += 50 {
		s.groups = append(s.groups, rowGroup{lo: int32(g), hi: int32(g + 50), wb: 1e-3})
	}
}

// TestSolveSameOnAnyGoroutines: the solve on one goroutine and on
// several (the passes over the rows in parts, the preconditioner's blocks
// and the coarse solve shared out, the coarse correction summed apart or
// not) reaches the same bits in the same iterations: the parts depend on
// the rows alone, so the results do not depend on the parallelism.
func TestSolveSameOnAnyGoroutines(t *testing.T) {
	s := ringSystem(9)
	groupWindows(s)
	require.Less(t, s.n, parallelUnknowns)
	for _, partRows := range []int{len(s.rows) + 1, 97} {
		for _, parallelMin := range []int{0, 1} {
			s.partRows, s.parallelMin = partRows, parallelMin
			s.np = 1
			want, serial := solveFresh(t, s)
			for _, np := range []int{2, 3, 5} {
				s.np = np
				got, it := solveFresh(t, s)
				require.Equal(t, serial, it, "%d goroutines, parts of %d rows, parallelMin %d", np, partRows, parallelMin)
				for i := range want {
					require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "unknown %d, %d goroutines, parts of %d rows, parallelMin %d", i, np, partRows, parallelMin)
				}
			}
		}
	}
}

// TestSkyline: the envelope Cholesky solves a random SPD system of varying
// envelope as the dense elimination does, and drops the pivot of an
// unknown the earlier ones span (a singular but consistent system still
// gets a solution).
func TestSkyline(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 40
	first := make([]int32, n)
	for i := range first {
		first[i] = int32(max(0, i-1-rng.IntN(6)))
	}
	// A = I + Σ (p·e_i + q·e_j)(p·e_i + q·e_j)ᵀ over j in i's envelope.
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		a[i][i] = 1
	}
	for i := range n {
		for j := int(first[i]); j < i; j++ {
			p, q := rng.NormFloat64(), rng.NormFloat64()
			a[i][i] += p * p
			a[j][j] += q * q
			a[i][j] += p * q
			a[j][i] += p * q
		}
	}
	sk := newSkyline(first)
	for i := range n {
		for j := first[i]; j <= int32(i); j++ {
			sk.val[sk.index(int32(i), j)] += a[i][j]
		}
	}
	sk.factor()
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	x := slices.Clone(b)
	sk.solve(x)
	for i := range n {
		var r float64
		for j := range n {
			r += a[i][j] * x[j]
		}
		require.InDelta(t, b[i], r, 1e-9, "row %d", i)
	}

	// Unknowns 0 and 1 the same direction: [[1 1] [1 1]] ⊕ [2].
	sk = newSkyline([]int32{0, 0, 1})
	sk.val[sk.index(0, 0)] += 1
	sk.val[sk.index(1, 0)] += 1
	sk.val[sk.index(1, 1)] += 1
	sk.val[sk.index(2, 2)] += 2
	sk.factor()
	require.Zero(t, sk.inv[1])
	x = []float64{3, 3, 4}
	sk.solve(x)
	require.InDelta(t, 3, x[0]+x[1], 1e-12)
	require.InDelta(t, 2, x[2], 1e-12)
}

// TestLowRankPattern: a group's pattern holds the unknowns its rows touch,
// ascending and once each, and each term's place among them; the scratch
// is left as it was given.
func TestLowRankPattern(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 200
	at := make([]int32, n)
	for j := range at {
		at[j] = -1
	}
	for range 20 {
		rows := make([]row, 1+rng.IntN(40))
		var want []int32
		for i := range rows {
			rows[i] = newRow(0)
			for k := range 1 + rng.IntN(4) {
				rows[i].j[k] = int32(rng.IntN(n))
				want = append(want, rows[i].j[k])
			}
		}
		slices.Sort(want)
		want = slices.Compact(want)
		var l lowRank
		l.pattern(rows, at)
		require.Equal(t, want, l.idx)
		require.Len(t, l.val, len(want))
		k := 0
		for i := range rows {
			for _, j := range rows[i].j[:rows[i].len()] {
				require.Equal(t, j, l.idx[l.pos[k]], "row %d", i)
				k++
			}
		}
		require.Len(t, l.pos, k)
		for j := range at {
			require.Equal(t, int32(-1), at[j], "scratch of unknown %d", j)
		}
	}
}

// TestEstimateSameOnAnyWorkers: on a system below the sizes at which the
// passes over the rows split into parts (and the coarse correction is
// summed apart), the estimate with one worker and with several (the
// curvature search fitting ahead on forks of its problem, decide beside
// the fit, the solver's blocks shared out) reaches the same curves, bit
// for bit, with the same statistics and solver iterations.
func TestEstimateSameOnAnyWorkers(t *testing.T) {
	cfg := baseConfig(5)
	// 20 domains with enough knots each for the coarse level.
	cfg.Ranks, cfg.RanksPerNode, cfg.Events = 40, 2, 300_000
	p := prepare(t, cfg)
	run := func(workers int) (*Model, EstimateStats, int) {
		e := newEstimator(p.in, p.times, p.g, defaultLat, EstimateOptions{Parallel: workers}, nil)
		e.keepLast = true
		m, st, err := e.estimate(context.Background(), nil)
		require.NoError(t, err)
		require.NotNil(t, e.last.sys.coarse, "the coarse level is built")
		require.Less(t, len(e.last.sys.rows), defaultPartRows, "the passes over the rows are in one part")
		return m, st, e.prepares
	}
	want, wst, wprep := run(1)
	require.NotEmpty(t, wst.Iterations)
	require.Positive(t, wst.Curvature, "the curvature is chosen")
	for _, workers := range []int{2, 3} {
		got, st, prep := run(workers)
		assert.Equal(t, wst, st, "%d workers", workers)
		assert.Equal(t, wprep, prep, "preparations, %d workers", workers)
		require.Len(t, got.Curves, len(want.Curves))
		for d := range want.Curves {
			w, g := &want.Curves[d], &got.Curves[d]
			require.Equal(t, w.T, g.T, "domain %d", d)
			for i := range w.X {
				require.Equal(t, math.Float64bits(w.X[i]), math.Float64bits(g.X[i]), "domain %d knot %d, %d workers", d, i, workers)
				require.Equal(t, math.Float64bits(w.S[i]), math.Float64bits(g.S[i]), "sd: domain %d knot %d, %d workers", d, i, workers)
			}
		}
	}
}

// TestSolveWithinLimit: a solve whose iteration limit is fixed while it
// runs (iterLimit: free below its floor, then waiting for fix) stops where
// a solve with that limit as its maximum stops, with the same bits.
func TestSolveWithinLimit(t *testing.T) {
	s := ringSystem(13)
	const stop = 9
	want := make([]float64, s.n)
	wit, err := s.solve(context.Background(), want, 1e-12, stop, nil)
	require.NoError(t, err)
	require.Equal(t, stop, wit, "the maximum binds")
	lim := &iterLimit{floor: 4, known: make(chan struct{})}
	go lim.fix(stop)
	got := make([]float64, s.n)
	it, err := s.solve(context.Background(), got, 1e-12, 10*s.n, lim)
	require.NoError(t, err)
	require.Equal(t, stop, it)
	for i := range want {
		require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "unknown %d", i)
	}
	assert.True(t, lim.allows(stop-1))
	assert.False(t, lim.allows(stop))
	assert.True(t, (&iterLimit{floor: 4}).allows(3), "below its floor a limit not yet fixed allows")
}

// TestSolveSameWhenBusy: while other solves share its count of running
// solves, a solve runs its passes on fewer goroutines (its parts, with
// their share of the groups' products, one after the other, the coarse
// solve before the blocks') and reaches the same bits in the same
// iterations, on the large-system path (parts, the coarse correction
// summed apart) and below it.
func TestSolveSameWhenBusy(t *testing.T) {
	s := ringSystem(15)
	groupWindows(s)
	for _, parallelMin := range []int{0, 1} {
		s.np, s.partRows, s.parallelMin = 2, 97, parallelMin
		s.busy = nil
		want, wit := solveFresh(t, s)
		var busy atomic.Int32
		busy.Store(1) // another solve runs: this one's passes on one goroutine
		s.busy = &busy
		got, it := solveFresh(t, s)
		require.Equal(t, int32(1), busy.Load(), "the solve counts itself while it runs only")
		require.Equal(t, wit, it, "parallelMin %d", parallelMin)
		for i := range want {
			require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "unknown %d, parallelMin %d", i, parallelMin)
		}
	}
}

// A problem laid out on another's rows (the anchors' referee on the fit's,
// which has anchors' rows it lacks) is the problem laid out on its own,
// row for row and weight for weight, and its solves, in parts of a few
// rows that cut across the skipped rows, reach the same bits.
func TestSharedRowsAreOwnRows(t *testing.T) {
	p := prepare(t, baseConfig(12))
	e := newEstimator(p.in, p.times, p.g, defaultLat, EstimateOptions{Parallel: 4}, nil)
	e.windows(nil)
	anchors := e.anchorObs()
	require.NotEmpty(t, anchors)
	var st EstimateStats
	k := e.placeKnots(anchors, &st)
	e.wander = e.wanderScale()
	fit := e.newFitProblem(&k, anchors)
	require.Positive(t, fit.nAnchor)
	own := e.newFitProblem(&k, nil)
	on := e.newFitProblemOn(&k, nil, fit.shared())
	require.Less(t, on.sys.skip.lo, on.sys.skip.hi, "laid out on the fit's rows")
	require.Equal(t, len(own.sys.rows), on.sys.rowCount())
	for i := range own.sys.rows {
		require.True(t, sameRow(&own.sys.rows[i], on.sys.row(i)), "row %d", i)
	}
	bits := func(xs []float64) []uint64 {
		out := make([]uint64, len(xs))
		for i, x := range xs {
			out[i] = math.Float64bits(x)
		}
		return out
	}
	require.Equal(t, bits(own.sys.w), bits(on.sys.w))
	require.Equal(t, own.sys.groups, on.sys.groups)
	require.Equal(t, own.smooth, on.smooth)
	for _, rows := range []int{0, 7, fit.nBand - 3} {
		own.sys.partRows, on.sys.partRows = rows, rows
		xo, xn := make([]float64, own.sys.n), make([]float64, on.sys.n)
		require.NoError(t, own.solve(context.Background(), 1e-6, xo, 1e-6))
		require.NoError(t, on.solve(context.Background(), 1e-6, xn, 1e-6))
		require.Equal(t, bits(xo), bits(xn), "parts of %d rows", rows)
		require.Equal(t, own.iters, on.iters)
	}
}

// The groups' terms are the same, bit for bit, whether the places of
// their rows' terms are held (pos) or searched (a group of more than
// maxPos unknowns).
func TestLowRanksSearchedPlaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	s := groupedSystem(rng, 6, 30)
	require.NotEmpty(t, s.groups)
	s.lowRanks()
	want := make([][]float64, len(s.lr))
	for gi := range s.lr {
		require.NotNil(t, s.lr[gi].pos)
		want[gi] = slices.Clone(s.lr[gi].val)
		s.lr[gi].pos = nil
	}
	s.lowRanks()
	for gi := range s.lr {
		require.Nil(t, s.lr[gi].pos, "the places not found again")
		for k := range want[gi] {
			require.Equal(t, math.Float64bits(want[gi][k]), math.Float64bits(s.lr[gi].val[k]), "group %d, term %d", gi, k)
		}
	}
}
