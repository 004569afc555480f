package clockmodel

import (
	"math"
	"slices"
)

// coarse is the coarse level of the two-level preconditioner. Its basis Z
// has, per block (one domain's knots), hat functions over a time grid
// common to all blocks: a coarse unknown is one domain's correction
// around one grid time. What block Jacobi leaves to CG is the coupling of
// the domains through the windows, in errors smooth over many knots and
// spread over many domains at once; the coarse level solves for the whole
// coarse space exactly in every iteration, additively (M⁻¹ = B⁻¹ +
// Z(ZᵀNZ)⁻¹Zᵀ with N = AᵀWA and B its blocks: symmetric positive definite,
// as CG needs). A balancing variant (Pᵀ B⁻¹ P + Z(ZᵀNZ)⁻¹Zᵀ) halved the
// iterations again on the 1,024-rank benchmark (47 against 96) but needs
// N·Z·y in every iteration, a second product by N, and so did not pay. The
// coarse matrix
// ZᵀNZ is formed from the rows and factorised by Cholesky within its
// envelope: the coarse unknowns are numbered by grid time first and a row
// couples only hats of neighbouring grid times, so the envelope is about
// two grid times' hats wide.
type coarse struct {
	// hat is each unknown's place in the coarse space.
	hat []hatPair
	// e is the coarse matrix, after factor its Cholesky factor.
	e skyline
	// c is the coarse work vector.
	c []float64
}

// Coarse-level limits, found on the dumped systems of the benchmark traces
// and the study's scenarios.
const (
	// coarseMinBlocks: with fewer domains, block Jacobi alone needs few
	// iterations (at most 60 for the 16-rank traces' 3 domains) and the
	// coarse level saved none.
	coarseMinBlocks = 8
	// coarseKnotsPerHat is a block's mean knots per hat: the error block
	// Jacobi leaves is smooth over about that many knots.
	coarseKnotsPerHat = 8
	// coarseMinHats: with fewer grid times, the additive coarse
	// correction raised the iterations (a coarse space too poor to pay).
	coarseMinHats = 8
	// coarseFlopsPerRow bounds the factorisation's multiply-adds per row
	// of the system: about 16 products by AᵀWA (8 per row each).
	coarseFlopsPerRow = 128
	// coarseMaxUnknowns bounds the coarse unknowns, and so the factor's
	// memory (about 2·blocks entries each: 4 MB at 63 domains): a long
	// run with thousands of knots per domain would otherwise get a hat
	// per 8 of them, up to the flops budget.
	coarseMaxUnknowns = 4096
)

// coarseHats returns the number of grid times of s's coarse level: a hat
// per coarseKnotsPerHat knots of the mean block, but no more than
// coarseMaxUnknowns and a factorisation within the budget allow (its
// cost is about 2·hats·blocks³: an envelope about two grid times of
// blocks wide); 0 when the coarse level would not pay.
func coarseHats(s *system) int {
	nb := len(s.blocks)
	if nb < coarseMinBlocks {
		return 0
	}
	h := min(s.n/nb/coarseKnotsPerHat, coarseMaxUnknowns/nb)
	budget := coarseFlopsPerRow * float64(s.rowCount())
	h = min(h, int(budget/(2*math.Pow(float64(nb), 3))))
	if h < coarseMinHats {
		return 0
	}
	return h
}

// newCoarse returns the coarse level with h grid times for s's blocks
// (s.at gives the knots' times), its matrix not yet formed (factor does
// that), or nil when it would not pay: fewer than two blocks, no knot
// times, or a factorisation dearer than maxFlops multiply-adds.
func newCoarse(s *system, h int, maxFlops float64) *coarse {
	if len(s.blocks) < 2 || len(s.at) != s.n || h < 2 {
		return nil
	}
	grid := coarseGrid(s, h)
	if len(grid) < 2 {
		return nil
	}
	nb := len(s.blocks)
	// The hats that cover a knot (hat j of block b at id[j·nb+b]: −1 if
	// it covers none), numbered by grid time first.
	id := make([]int32, len(grid)*nb)
	for i := range id {
		id[i] = -1
	}
	cs := &coarse{hat: make([]hatPair, s.n)}
	for k := range cs.hat {
		cs.hat[k].h = [2]int32{-1, -1}
	}
	for b, sp := range s.blocks {
		for k := sp.lo; k < sp.hi; k++ {
			j, u := segment(grid, s.at[k])
			hp := &cs.hat[k]
			hp.w = [2]float64{1 - u, u}
			for q := range 2 {
				if hp.w[q] != 0 {
					// The hat's place in id until it is numbered.
					hp.h[q] = int32((j+q)*nb + b)
					id[hp.h[q]] = 0
				}
			}
		}
	}
	nc := int32(0)
	for i, v := range id {
		if v >= 0 {
			id[i] = nc
			nc++
		}
	}
	for k := range cs.hat {
		for q := range 2 {
			if h := cs.hat[k].h[q]; h >= 0 {
				cs.hat[k].h[q] = id[h]
			}
		}
	}
	cs.c = make([]float64, nc)
	cs.e = newSkyline(cs.envelope(s, int(nc)))
	if cs.e.flops() > maxFlops {
		return nil
	}
	return cs
}

// envelope returns, per coarse unknown, the first coarse unknown that a
// row couples it with.
func (cs *coarse) envelope(s *system, nc int) []int32 {
	first := make([]int32, nc)
	for i := range first {
		first[i] = int32(i)
	}
	var cr coarseRow
	for i := range s.rowCount() {
		cs.restrict(s.row(i), &cr)
		if cr.n == 0 {
			continue
		}
		lo := slices.Min(cr.h[:cr.n])
		for _, h := range cr.h[:cr.n] {
			first[h] = min(first[h], lo)
		}
	}
	return first
}

// coarseGrid returns up to h grid times: quantiles of the blocks' knot
// times, the first and the last included.
func coarseGrid(s *system, h int) []int64 {
	var ts []int64
	for _, sp := range s.blocks {
		ts = append(ts, s.at[sp.lo:sp.hi]...)
	}
	if len(ts) == 0 {
		return nil
	}
	slices.Sort(ts)
	grid := make([]int64, 0, h)
	for i := range h {
		t := ts[i*(len(ts)-1)/(h-1)]
		if len(grid) == 0 || t > grid[len(grid)-1] {
			grid = append(grid, t)
		}
	}
	return grid
}

// hatPair is an unknown's place in the coarse space: the two coarse
// unknowns whose hats cover its knot (−1: none) and their values there.
type hatPair struct {
	h [2]int32
	w [2]float64
}

// coarseRow is a row's coefficients on the coarse unknowns.
type coarseRow struct {
	n int
	h [8]int32
	v [8]float64
}

// restrict sets cr to the row's coefficients on the coarse unknowns (its
// coefficients times the hats' values at its knots).
func (cs *coarse) restrict(r *row, cr *coarseRow) {
	cr.n = 0
	for a := range r.len() {
		hp := &cs.hat[r.j[a]]
		for q := range 2 {
			h := hp.h[q]
			if h < 0 {
				continue
			}
			k := 0
			for k < cr.n && cr.h[k] != h {
				k++
			}
			if k == cr.n {
				cr.h[k], cr.v[k] = h, 0
				cr.n++
			}
			cr.v[k] += r.c[a] * hp.w[q]
		}
	}
}

// factor forms the coarse matrix Zᵀ(AᵀWA)Z from s's rows (with their
// current weights), over the rows in parts, and factorises it.
func (cs *coarse) factor(s *system) {
	e := &cs.e
	s.partsInto(e.val, func(rows []row, w, val []float64) {
		var cr coarseRow
		for i := range rows {
			r := &rows[i]
			if w[i] == 0 {
				continue
			}
			cs.restrict(r, &cr)
			for a, ha := range cr.h[:cr.n] {
				f := w[i] * cr.v[a]
				for b, hb := range cr.h[:cr.n] {
					if hb <= ha {
						val[e.index(ha, hb)] += f * cr.v[b]
					}
				}
			}
		}
	})
	e.factor()
}

// fork returns cs for a copy of its system (system.fork): its own matrix
// and work vector, the hats and the envelope shared.
func (cs *coarse) fork() *coarse {
	f := &coarse{hat: cs.hat, e: cs.e, c: make([]float64, len(cs.c))}
	f.e.val = make([]float64, len(cs.e.val))
	f.e.inv = make([]float64, len(cs.e.inv))
	return f
}

// apply adds Z(ZᵀNZ)⁻¹Zᵀr to z: the coarse correction.
func (cs *coarse) apply(r, z []float64) {
	cs.solveCoarse(r)
	cs.prolong(z)
}

// solveCoarse sets cs.c to (ZᵀNZ)⁻¹Zᵀr, the first half of apply.
func (cs *coarse) solveCoarse(r []float64) {
	c := cs.c
	clear(c)
	for k := range cs.hat {
		hp := &cs.hat[k]
		for q := range 2 {
			if hp.h[q] >= 0 {
				c[hp.h[q]] += hp.w[q] * r[k]
			}
		}
	}
	cs.e.solve(c)
}

// prolong adds Z·cs.c to z, the second half of apply.
func (cs *coarse) prolong(z []float64) {
	c := cs.c
	for k := range cs.hat {
		hp := &cs.hat[k]
		for q := range 2 {
			if hp.h[q] >= 0 {
				z[k] += hp.w[q] * c[hp.h[q]]
			}
		}
	}
}

// skyline is a symmetric matrix stored by rows within its envelope (row i
// from column first[i] to the diagonal), and after factor its Cholesky
// factor L (the same envelope: a Cholesky factor fills in no entry left
// of a row's first).
type skyline struct {
	first []int32
	ptr   []int
	val   []float64
	// inv holds the reciprocals of L's diagonal; 0 for a pivot dropped as
	// (numerically) dependent on the earlier unknowns.
	inv []float64
}

// newSkyline returns the zero matrix of envelope first.
func newSkyline(first []int32) skyline {
	sk := skyline{first: first, ptr: make([]int, len(first)+1), inv: make([]float64, len(first))}
	for i, f := range first {
		sk.ptr[i+1] = sk.ptr[i] + i - int(f) + 1
	}
	sk.val = make([]float64, sk.ptr[len(first)])
	return sk
}

// flops is about the multiply-adds of factor.
func (sk *skyline) flops() float64 {
	var f float64
	for i, fi := range sk.first {
		l := float64(i - int(fi))
		f += l * l / 2
	}
	return f
}

// row returns row i's stored entries, columns first[i] … i.
func (sk *skyline) row(i int) []float64 { return sk.val[sk.ptr[i]:sk.ptr[i+1]] }

// index returns the place of entry (i, j), j ≤ i, j ≥ first[i], in val.
func (sk *skyline) index(i, j int32) int { return sk.ptr[i] + int(j-sk.first[i]) }

// factor overwrites the matrix by its Cholesky factor. A pivot below
// 1e-10 of its diagonal entry (a coarse unknown that the others already
// span) is dropped: that unknown is left out of the coarse space.
func (sk *skyline) factor() {
	for i := range sk.first {
		fi := int(sk.first[i])
		ri := sk.row(i)
		d0 := ri[i-fi]
		for j := fi; j < i; j++ {
			fj := int(sk.first[j])
			rj := sk.row(j)
			lo := max(fi, fj)
			ri[j-fi] = (ri[j-fi] - dot(ri[lo-fi:j-fi], rj[lo-fj:j-fj])) * sk.inv[j]
		}
		d := d0 - dot(ri[:i-fi], ri[:i-fi])
		if d > 1e-10*d0 {
			ri[i-fi] = math.Sqrt(d)
			sk.inv[i] = 1 / ri[i-fi]
		} else {
			clear(ri)
			sk.inv[i] = 0
		}
	}
}

// solve overwrites b by L⁻ᵀL⁻¹b.
func (sk *skyline) solve(b []float64) {
	for i := range b {
		fi := int(sk.first[i])
		b[i] = (b[i] - dot(sk.row(i)[:i-fi], b[fi:i])) * sk.inv[i]
	}
	for i := len(b) - 1; i >= 0; i-- {
		fi := int(sk.first[i])
		b[i] *= sk.inv[i]
		x := b[i]
		for k, l := range sk.row(i)[:i-fi] {
			b[fi+k] -= l * x
		}
	}
}

// solveColumns is solve for the s columns of b, interleaved (row i's
// column k at i·s+k); acc is scratch of s elements.
func (sk *skyline) solveColumns(b []float64, s int, acc []float64) {
	n := len(sk.first)
	for i := range n {
		fi := int(sk.first[i])
		clear(acc)
		for q, l := range sk.row(i)[:i-fi] {
			bq := b[(fi+q)*s : (fi+q+1)*s]
			for k := range acc {
				acc[k] += l * bq[k]
			}
		}
		bi, inv := b[i*s:(i+1)*s], sk.inv[i]
		for k := range bi {
			bi[k] = (bi[k] - acc[k]) * inv
		}
	}
	for i := n - 1; i >= 0; i-- {
		fi := int(sk.first[i])
		bi, inv := b[i*s:(i+1)*s], sk.inv[i]
		for k := range bi {
			bi[k] *= inv
		}
		for q, l := range sk.row(i)[:i-fi] {
			bq := b[(fi+q)*s : (fi+q+1)*s]
			for k := range bq {
				bq[k] -= l * bi[k]
			}
		}
	}
}

// dot is Σ a[i]·b[i] (four sums at a time: the factorisation's inner
// loop).
func dot(a, b []float64) float64 {
	var s0, s1, s2, s3 float64
	b = b[:len(a)]
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
