package clockmodel

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/clc-tools/clc/internal/par"
)

// row is one weighted linear equation Σ c_i·x[j_i] ≈ y in the unknowns.
type row struct {
	j [4]int32
	c [4]float64
	n uint8
	w float64
	y float64
}

func (r *row) dot(x []float64) float64 {
	var s float64
	for i := range r.n {
		s += r.c[i] * x[r.j[i]]
	}
	return s
}

// knots is the unknowns' layout: domain d's correction at times
// T[d][0…], unknowns first[d] … first[d]+len(T[d])−1; a domain without
// knots (the reference, or no data) has first −1 and correction 0.
type knots struct {
	T     [][]int64
	first []int32
	n     int
}

// terms appends to r the interpolation of domain d's correction at t
// with factor f.
func (k *knots) terms(r *row, d int32, t int64, f float64) {
	if k.first[d] < 0 {
		return
	}
	ts := k.T[d]
	base := k.first[d]
	add := func(j int32, c float64) {
		if c == 0 {
			return
		}
		for i := range r.n {
			if r.j[i] == j {
				r.c[i] += c
				return
			}
		}
		r.j[r.n], r.c[r.n] = j, c
		r.n++
	}
	if len(ts) == 1 {
		add(base, f)
		return
	}
	i, u := segment(ts, t)
	add(base+int32(i), f*(1-u))
	add(base+int32(i+1), f*u)
}

// segment returns the interval [ts[j], ts[j+1]] of the ascending times ts
// (at least two) that holds t, clamped to them, and t's position u ∈
// [0, 1] in it: t before ts[0] is (0, 0), after the last (len−2, 1).
func segment(ts []int64, t int64) (int, float64) {
	n := len(ts)
	switch {
	case t <= ts[0]:
		return 0, 0
	case t >= ts[n-1]:
		return n - 2, 1
	}
	i, _ := slices.BinarySearch(ts, t)
	// ts[i-1] < t ≤ ts[i]
	return i - 1, float64(t-ts[i-1]) / float64(ts[i]-ts[i-1])
}

// system is a sparse weighted least-squares problem.
type system struct {
	rows []row
	n    int
	np   int
	// partRows is the fewest rows per part of a pass over the rows
	// (0: defaultPartRows), parallelMin the fewest unknowns for which the
	// preconditioner runs on several goroutines (0: parallelUnknowns);
	// bufs are the passes' buffers of the parts but the first, kept for
	// the next pass.
	partRows, parallelMin int
	bufs                  [][]float64
	// blocks are ranges of unknowns (one domain's knots) whose part of the
	// normal matrix is pentadiagonal; the preconditioner solves each
	// exactly. Unknowns outside every block are preconditioned by their
	// diagonal.
	blocks []span
	// at is each unknown's knot time, for the coarse level (nil: none).
	at []int64
	// coarse is the coarse level of the preconditioner (nil: none),
	// built by the first solve (later solves change only the rows'
	// weights, and form its matrix again); coarseTried tells whether it
	// has been.
	coarse      *coarse
	coarseTried bool
}

// penta is the LDLᵀ factorisation of a symmetric pentadiagonal block.
type penta struct {
	lo     int32
	d      []float64
	l1, l2 []float64
}

// preconditioner returns the factorised diagonal blocks of the normal
// matrix AᵀWA: its diagonal and the two diagonals next to it within the
// blocks, summed over the rows in parts (parts), then each block's
// factorisation, the blocks in parallel.
func (s *system) preconditioner() (blocks []penta, diag []float64) {
	n := s.n
	blockOf := make([]int32, n)
	for i := range blockOf {
		blockOf[i] = -1
	}
	for b, sp := range s.blocks {
		for j := sp.lo; j < sp.hi; j++ {
			blockOf[j] = int32(b)
		}
	}
	// Each part sums into a vector of 3n: the diagonal, the first and
	// the second off-diagonal.
	sums := s.parts(3*n, func(rows []row, out []float64) {
		diag, off1, off2 := out[:n], out[n:2*n], out[2*n:]
		for i := range rows {
			r := &rows[i]
			for a := range r.n {
				ja := r.j[a]
				diag[ja] += r.w * r.c[a] * r.c[a]
				for b := a + 1; b < r.n; b++ {
					jb := r.j[b]
					lo, hi := min(ja, jb), max(ja, jb)
					if blockOf[lo] < 0 || blockOf[lo] != blockOf[hi] {
						continue
					}
					switch hi - lo {
					case 1:
						off1[lo] += r.w * r.c[a] * r.c[b]
					case 2:
						off2[lo] += r.w * r.c[a] * r.c[b]
					}
				}
			}
		}
	})
	diag, off1, off2 := sums[:n], sums[n:2*n], sums[2*n:]
	for i := range diag {
		if diag[i] <= 0 {
			diag[i] = 1
		}
	}
	all := make([]penta, len(s.blocks))
	ok := make([]bool, len(s.blocks))
	par.ForEach(len(s.blocks), s.np, func(b int) {
		all[b], ok[b] = factorBlock(s.blocks[b], diag, off1, off2)
	})
	for b := range all {
		if ok[b] {
			blocks = append(blocks, all[b])
		}
	}
	return blocks, slices.Clip(diag)
}

// factorBlock returns the LDLᵀ factorisation of the pentadiagonal block
// sp of the matrix with diagonal diag and off-diagonals off1 and off2, or
// false if the block is not (numerically) positive definite.
func factorBlock(sp span, diag, off1, off2 []float64) (penta, bool) {
	m := int(sp.hi - sp.lo)
	p := penta{lo: sp.lo, d: make([]float64, m), l1: make([]float64, m), l2: make([]float64, m)}
	for i := 0; i < m; i++ {
		g := int(sp.lo) + i
		di := diag[g]
		if i >= 1 {
			di -= p.l1[i-1] * p.l1[i-1] * p.d[i-1]
		}
		if i >= 2 {
			di -= p.l2[i-2] * p.l2[i-2] * p.d[i-2]
		}
		if !(di > 0) {
			return penta{}, false
		}
		p.d[i] = di
		if i+1 < m {
			a := off1[g]
			if i >= 1 {
				a -= p.l2[i-1] * p.l1[i-1] * p.d[i-1]
			}
			p.l1[i] = a / di
		}
		if i+2 < m {
			p.l2[i] = off2[g] / di
		}
	}
	return p, true
}

// precondition sets z = M⁻¹r, the blocks on up to np goroutines.
func precondition(blocks []penta, diag, r, z []float64, np int) {
	for i := range r {
		z[i] = r[i] / diag[i]
	}
	par.ForEach(len(blocks), np, func(bi int) {
		p := &blocks[bi]
		m := len(p.d)
		y := z[p.lo : int(p.lo)+m]
		b := r[p.lo : int(p.lo)+m]
		for i := 0; i < m; i++ {
			v := b[i]
			if i >= 1 {
				v -= p.l1[i-1] * y[i-1]
			}
			if i >= 2 {
				v -= p.l2[i-2] * y[i-2]
			}
			y[i] = v
		}
		for i := 0; i < m; i++ {
			y[i] /= p.d[i]
		}
		for i := m - 1; i >= 0; i-- {
			if i+1 < m {
				y[i] -= p.l1[i] * y[i+1]
			}
			if i+2 < m {
				y[i] -= p.l2[i] * y[i+2]
			}
		}
	})
}

// solve minimises Σ w·(row·x − y)² by conjugate gradients on the normal
// equations, preconditioned by the blocks' exact solves plus the coarse
// level when there is one (coarseLevel), starting from x (which it
// overwrites), until the relative residual is below tol or after maxIter
// iterations. It returns the iterations run.
func (s *system) solve(ctx context.Context, x []float64, tol float64, maxIter int) (int, error) {
	n := s.n
	blocks, diag := s.preconditioner()
	cs := s.coarseLevel()
	// On a large system the blocks are solved on several goroutines, and
	// the coarse correction goes to zc on one more, beside them.
	np := 1
	if pmin := s.parallelMin; n >= parallelUnknowns && pmin == 0 || pmin > 0 && n >= pmin {
		np = s.np
	}
	var zc []float64
	if cs != nil && np > 1 {
		zc = make([]float64, n)
	}
	pre := func(r, z []float64) {
		switch {
		case cs == nil:
			precondition(blocks, diag, r, z, np)
		case zc == nil:
			precondition(blocks, diag, r, z, np)
			cs.apply(r, z)
		default:
			done := make(chan struct{})
			go func() {
				defer close(done)
				clear(zc)
				cs.apply(r, zc)
			}()
			precondition(blocks, diag, r, z, np-1)
			<-done
			for i, v := range zc {
				z[i] += v
			}
		}
	}
	b := s.parts(n, func(rows []row, out []float64) {
		for i := range rows {
			r := &rows[i]
			for k := range r.n {
				out[r.j[k]] += r.w * r.c[k] * r.y
			}
		}
	})
	ax := make([]float64, n)
	s.mul(x, ax)
	res := make([]float64, n)
	var bn float64
	for i := range res {
		res[i] = b[i] - ax[i]
		bn += b[i] * b[i]
	}
	if bn == 0 {
		bn = 1
	}
	z := make([]float64, n)
	p := make([]float64, n)
	var rz float64
	pre(res, z)
	for i := range z {
		p[i] = z[i]
		rz += res[i] * z[i]
	}
	ap := make([]float64, n)
	it := 0
	for ; it < maxIter; it++ {
		if it%16 == 0 {
			if err := ctx.Err(); err != nil {
				return it, err
			}
		}
		var rn float64
		for _, v := range res {
			rn += v * v
		}
		if rn <= tol*tol*bn {
			break
		}
		s.mul(p, ap)
		var pap float64
		for i := range p {
			pap += p[i] * ap[i]
		}
		if pap <= 0 {
			break
		}
		alpha := rz / pap
		for i := range x {
			x[i] += alpha * p[i]
			res[i] -= alpha * ap[i]
		}
		pre(res, z)
		var rz2 float64
		for i := range z {
			rz2 += res[i] * z[i]
		}
		beta := rz2 / rz
		rz = rz2
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return it, nil
}

// coarseLevel returns s's coarse level with its matrix formed for the
// rows' current weights, or nil when there is none.
func (s *system) coarseLevel() *coarse {
	if !s.coarseTried {
		s.coarseTried = true
		if h := coarseHats(s); h > 0 {
			// Twice the estimate: the envelope is wider where a domain's
			// knots are sparse.
			s.coarse = newCoarse(s, h, 2*coarseFlopsPerRow*float64(len(s.rows)))
		}
	}
	if s.coarse != nil {
		s.coarse.factor(s)
	}
	return s.coarse
}

// defaultPartRows is the fewest rows per part of a pass over the rows:
// CG multiplies by the matrix hundreds of times per solve, and handing
// small pieces to goroutines costs more than it saves on a busy machine.
const defaultPartRows = 1 << 16

// parallelUnknowns is the fewest unknowns for which the preconditioner's
// blocks are solved on several goroutines in every iteration.
const parallelUnknowns = 1 << 15

// parts sums f over the rows in parts, each part on a goroutine of its
// own (up to s.np, a part per partRows rows): f adds its rows' terms to
// out, a zeroed vector of m elements. parts returns the first part's
// vector, newly allocated, with the other parts' added to it in ascending
// order of part (so that the sum depends only on s.np and the rows); the
// other parts' buffers are kept for the next pass.
func (s *system) parts(m int, f func(rows []row, out []float64)) []float64 {
	out := make([]float64, m)
	s.partsInto(out, f)
	return out
}

// partsInto is parts summing into out, which it zeroes first.
func (s *system) partsInto(out []float64, f func(rows []row, out []float64)) {
	minRows := s.partRows
	if minRows <= 0 {
		minRows = defaultPartRows
	}
	np := max(1, min(s.np, len(s.rows)/minRows+1))
	for len(s.bufs) < np-1 {
		s.bufs = append(s.bufs, nil)
	}
	for w := range np - 1 {
		if cap(s.bufs[w]) < len(out) {
			s.bufs[w] = make([]float64, len(out))
		}
		s.bufs[w] = s.bufs[w][:len(out)]
	}
	chunk := (len(s.rows) + np - 1) / np
	part := func(w int) []row {
		return s.rows[min(w*chunk, len(s.rows)):min((w+1)*chunk, len(s.rows))]
	}
	var wg sync.WaitGroup
	for w := 1; w < np; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			clear(s.bufs[w-1])
			f(part(w), s.bufs[w-1])
		}()
	}
	clear(out)
	f(part(0), out)
	wg.Wait()
	for _, p := range s.bufs[:np-1] {
		for i, x := range p {
			out[i] += x
		}
	}
}

// mul sets y = AᵀWA·v, over the rows in parts.
func (s *system) mul(v, y []float64) {
	s.partsInto(y, func(rows []row, out []float64) {
		for i := range rows {
			r := &rows[i]
			f := r.w * r.dot(v)
			for k := range r.n {
				out[r.j[k]] += f * r.c[k]
			}
		}
	})
}

// residualScale returns the weighted root mean square of the residuals
// of rows [lo, hi) at x, in units of the rows' own σ (1/√w).
func residualScale(rows []row, x []float64) float64 {
	var s float64
	for i := range rows {
		d := rows[i].dot(x) - rows[i].y
		s += rows[i].w * d * d
	}
	if len(rows) == 0 {
		return 0
	}
	return math.Sqrt(s / float64(len(rows)))
}
