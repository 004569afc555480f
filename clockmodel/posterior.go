package clockmodel

import (
	"context"
	"math"
	"math/rand/v2"

	"golang.org/x/sync/errgroup"
)

// posteriorSamples is the number of samples of the posterior whose spread
// gives each knot's standard deviation: its relative error is about
// 1/√(2·samples), 18 %. Against 32 samples (13 %), the error bars' coverage
// of the truth moved by at most 0.3 points in the median over the
// clc-sim, truthgen and recorded sources (tools/accuracy), for half the
// cost.
const posteriorSamples = 16

// posteriorSeed seeds the posterior's samples.
const posteriorSeed = 0x636c63

// posteriorTol is the relative residual at which a sample's solve stops.
const posteriorTol = 1e-3

// blockBudget bounds the bytes of a batch's vectors (six of n×columns
// float64s): a batch of samples is solved together only while they fit.
const blockBudget = 128 << 20

// posteriorSD returns each unknown's posterior standard deviation, with
// the rows' weights as the last solve left them: the spread of samples of
// the posterior. A sample is the fit of noise drawn from the rows' own
// uncertainties — each window's σ plus its group's bias (of its prior's σ;
// a free bias needs none: the fit is blind to it), each anchor's and each
// prior's σ — which has the posterior's covariance, the inverse of the
// normal matrix (perturbation optimisation; Papandreou and Yuille, "Gaussian
// sampling by local perturbations", NIPS 2010). Each sample's draws are
// seeded by its number, so the result is the same in every run, however
// the samples are shared out: they are solved in batches (multiCG), the
// batches on up to Parallel goroutines.
func (p *fitProblem) posteriorSD(ctx context.Context) ([]float64, error) {
	sv := p.sys.prepare()
	n := p.sys.n
	np := max(1, p.sys.np)
	cols := max(1, min(posteriorSamples/np, blockBudget/(6*8*max(n, 1))))
	var batches [][2]int
	for lo := 0; lo < posteriorSamples; lo += cols {
		batches = append(batches, [2]int{lo, min(lo+cols, posteriorSamples)})
	}
	sums := make([][]float64, len(batches))
	iters := make([]int, len(batches))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(np)
	for bi, b := range batches {
		g.Go(func() error {
			m := newMultiCG(sv, b[1]-b[0])
			rhs := make([]float64, n*m.s)
			for k := range m.s {
				sv.noiseRHS(rand.New(rand.NewPCG(posteriorSeed, uint64(b[0]+k))), rhs, k, m.s)
			}
			x := make([]float64, n*m.s)
			it, err := m.solve(gctx, x, rhs, posteriorTol, p.maxIter)
			iters[bi] = it
			if err != nil {
				return err
			}
			sum := make([]float64, n)
			for j := range sum {
				for _, v := range x[j*m.s : (j+1)*m.s] {
					sum[j] += v * v
				}
			}
			sums[bi] = sum
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	sd := make([]float64, n)
	for bi, b := range batches {
		p.iters += iters[bi]
		p.batches = append(p.batches, PosteriorBatch{Columns: b[1] - b[0], Iterations: iters[bi]})
		for j, v := range sums[bi] {
			sd[j] += v
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j] / posteriorSamples)
	}
	return sd, nil
}

// noiseRHS sets column k (of s, interleaved: unknown j's at j·s+k) of b to
// the right-hand side of the normal equations for noise drawn from rng
// in the rows' place: each weighted row's y ~ N(0, 1/w), plus one draw per
// group with a prior (its bias, N(0, 1/wb)) added to each of its rows.
// The rows are not changed.
func (sv *solver) noiseRHS(rng *rand.Rand, b []float64, k, s int) {
	sys := sv.s
	rows := sys.rows
	y := make([]float64, len(rows))
	for i := range rows {
		if rows[i].w > 0 {
			y[i] = rng.NormFloat64() / math.Sqrt(rows[i].w)
		}
	}
	for _, g := range sys.groups {
		if g.wb > 0 {
			d := rng.NormFloat64() / math.Sqrt(g.wb)
			for i := g.lo; i < g.hi; i++ {
				y[i] += d
			}
		}
	}
	for j := range sys.n {
		b[j*s+k] = 0
	}
	for i := range rows {
		r := &rows[i]
		for a := range r.n {
			b[int(r.j[a])*s+k] += r.w * r.c[a] * y[i]
		}
	}
	for gi := range sys.lr {
		l := &sys.lr[gi]
		var wy float64
		for i := sys.groups[gi].lo; i < sys.groups[gi].hi; i++ {
			wy += rows[i].w * y[i]
		}
		for q, j := range l.idx {
			b[int(j)*s+k] -= l.scale * wy * l.val[q]
		}
	}
}

// multiCG runs s preconditioned conjugate-gradient solves with one matrix
// (a prepared solver's) in lockstep, on one goroutine: its vectors hold s
// columns interleaved (unknown j's of column k at j·s+k), so that each
// pass over the rows, the preconditioner's blocks and the groups' terms
// serves all s at once. It reads the solver and never changes it: several
// multiCGs may share one.
type multiCG struct {
	sv *solver
	s  int
	// scratch: per-column sums, the Woodbury products, the coarse
	// vectors.
	col    []float64
	wood   []float64
	coarse []float64
}

func newMultiCG(sv *solver, s int) *multiCG {
	m := &multiCG{sv: sv, s: s, col: make([]float64, s)}
	k := 0
	for i := range sv.blocks {
		k = max(k, sv.blocks[i].k)
	}
	m.wood = make([]float64, k*s)
	if sv.cs != nil {
		m.coarse = make([]float64, len(sv.cs.c)*s)
	}
	return m
}

// mul sets y = (AᵀWA − the groups' terms)·v for every column.
func (m *multiCG) mul(v, y []float64) {
	sys, s, dots := m.sv.s, m.s, m.col
	clear(y)
	for i := range sys.rows {
		r := &sys.rows[i]
		if r.w == 0 {
			continue
		}
		clear(dots)
		for a := range r.n {
			c := r.c[a]
			o := int(r.j[a]) * s
			for k, x := range v[o : o+s] {
				dots[k] += c * x
			}
		}
		for a := range r.n {
			f := r.w * r.c[a]
			o := int(r.j[a]) * s
			yy := y[o : o+s]
			for k, d := range dots {
				yy[k] += f * d
			}
		}
	}
	for gi := range sys.lr {
		l := &sys.lr[gi]
		if l.scale == 0 {
			continue
		}
		clear(dots)
		for q, j := range l.idx {
			c := l.val[q]
			o := int(j) * s
			for k, x := range v[o : o+s] {
				dots[k] += c * x
			}
		}
		for k := range dots {
			dots[k] *= l.scale
		}
		for q, j := range l.idx {
			c := l.val[q]
			o := int(j) * s
			yy := y[o : o+s]
			for k, d := range dots {
				yy[k] -= c * d
			}
		}
	}
}

// pre sets z to the preconditioner applied to r, column by column as
// solver.pre does: the diagonal, each block's exact solve, the coarse
// correction.
func (m *multiCG) pre(r, z []float64) {
	sv, s := m.sv, m.s
	for j, d := range sv.diag {
		for k := j * s; k < (j+1)*s; k++ {
			z[k] = r[k] / d
		}
	}
	for bi := range sv.blocks {
		p := &sv.blocks[bi]
		lo, hi := int(p.lo)*s, (int(p.lo)+len(p.d))*s
		m.applyBlock(p, r[lo:hi], z[lo:hi])
	}
	if cs := sv.cs; cs != nil {
		c := m.coarse
		clear(c)
		for j := range cs.hat {
			hp := &cs.hat[j]
			for q := range 2 {
				if h := hp.h[q]; h >= 0 {
					w, cc := hp.w[q], c[int(h)*s:int(h+1)*s]
					for k, x := range r[j*s : (j+1)*s] {
						cc[k] += w * x
					}
				}
			}
		}
		cs.e.solveColumns(c, s, m.col)
		for j := range cs.hat {
			hp := &cs.hat[j]
			for q := range 2 {
				if h := hp.h[q]; h >= 0 {
					w, cc := hp.w[q], c[int(h)*s:int(h+1)*s]
					zz := z[j*s : (j+1)*s]
					for k, x := range cc {
						zz[k] += w * x
					}
				}
			}
		}
	}
}

// applyBlock sets y = the block's inverse times b (penta.apply) for every
// column.
func (m *multiCG) applyBlock(p *penta, b, y []float64) {
	s, n := m.s, len(p.d)
	row := func(v []float64, i int) []float64 { return v[i*s : (i+1)*s] }
	for i := range n {
		yi := row(y, i)
		copy(yi, row(b, i))
		if i >= 1 {
			l, y1 := p.l1[i-1], row(y, i-1)
			for k := range yi {
				yi[k] -= l * y1[k]
			}
		}
		if i >= 2 {
			l, y2 := p.l2[i-2], row(y, i-2)
			for k := range yi {
				yi[k] -= l * y2[k]
			}
		}
	}
	for i := range n {
		d, yi := p.d[i], row(y, i)
		for k := range yi {
			yi[k] /= d
		}
	}
	for i := n - 1; i >= 0; i-- {
		yi := row(y, i)
		if i+1 < n {
			l, y1 := p.l1[i], row(y, i+1)
			for k := range yi {
				yi[k] -= l * y1[k]
			}
		}
		if i+2 < n {
			l, y2 := p.l2[i], row(y, i+2)
			for k := range yi {
				yi[k] -= l * y2[k]
			}
		}
	}
	if p.k == 0 {
		return
	}
	kk := p.k
	w := m.wood[:kk*s]
	clear(w)
	for c := range kk {
		uc, wc := p.u[c*n:(c+1)*n], w[c*s:(c+1)*s]
		for i, u := range uc {
			if u == 0 {
				continue
			}
			for k, x := range row(y, i) {
				wc[k] += u * x
			}
		}
	}
	// capL·capLᵀ·w' = w, each column
	for i := range kk {
		wi := w[i*s : (i+1)*s]
		for q := range i {
			l, wq := p.capL[i*kk+q], w[q*s:(q+1)*s]
			for k := range wi {
				wi[k] -= l * wq[k]
			}
		}
		d := p.capL[i*kk+i]
		for k := range wi {
			wi[k] /= d
		}
	}
	for i := kk - 1; i >= 0; i-- {
		wi := w[i*s : (i+1)*s]
		for q := i + 1; q < kk; q++ {
			l, wq := p.capL[q*kk+i], w[q*s:(q+1)*s]
			for k := range wi {
				wi[k] -= l * wq[k]
			}
		}
		d := p.capL[i*kk+i]
		for k := range wi {
			wi[k] /= d
		}
	}
	for c := range kk {
		vc, wc := p.v[c*n:(c+1)*n], w[c*s:(c+1)*s]
		for i, v := range vc {
			if v == 0 {
				continue
			}
			yi := row(y, i)
			for k, x := range wc {
				yi[k] += v * x
			}
		}
	}
}

// solve runs the s solves for the columns of b from the columns of x
// until each one's relative residual is below tol, or maxIter
// iterations; it returns the iterations of the slowest.
func (m *multiCG) solve(ctx context.Context, x, b []float64, tol float64, maxIter int) (int, error) {
	s := m.s
	n := len(x) / s
	res, z, p, ap := make([]float64, n*s), make([]float64, n*s), make([]float64, n*s), make([]float64, n*s)
	m.mul(x, ap)
	for i := range res {
		res[i] = b[i] - ap[i]
	}
	bn, rz, rn, pap, rz2 := make([]float64, s), make([]float64, s), make([]float64, s), make([]float64, s), make([]float64, s)
	colDot(b, b, bn)
	for k := range bn {
		if bn[k] == 0 {
			bn[k] = 1
		}
	}
	m.pre(res, z)
	copy(p, z)
	colDot(res, z, rz)
	done := make([]bool, s)
	alpha, beta := make([]float64, s), make([]float64, s)
	it := 0
	for ; it < maxIter; it++ {
		if it%16 == 0 {
			if err := ctx.Err(); err != nil {
				return it, err
			}
		}
		colDot(res, res, rn)
		all := true
		for k := range s {
			if rn[k] <= tol*tol*bn[k] {
				done[k] = true
			}
			all = all && done[k]
		}
		if all {
			break
		}
		m.mul(p, ap)
		colDot(p, ap, pap)
		for k := range s {
			if !done[k] && !(pap[k] > 0) {
				done[k] = true
			}
			alpha[k] = 0
			if !done[k] {
				alpha[k] = rz[k] / pap[k]
			}
		}
		for j := range n {
			o := j * s
			for k, a := range alpha {
				x[o+k] += a * p[o+k]
				res[o+k] -= a * ap[o+k]
			}
		}
		m.pre(res, z)
		colDot(res, z, rz2)
		for k := range s {
			beta[k] = 0
			if rz[k] != 0 {
				beta[k] = rz2[k] / rz[k]
			}
			rz[k] = rz2[k]
		}
		for j := range n {
			o := j * s
			for k, bk := range beta {
				p[o+k] = z[o+k] + bk*p[o+k]
			}
		}
	}
	return it, nil
}

// colDot sets out[k] to the dot product of column k of a and b (len(out)
// columns, interleaved).
func colDot(a, b, out []float64) {
	s := len(out)
	clear(out)
	for o := 0; o < len(a); o += s {
		aa, bb := a[o:o+s], b[o:o+s]
		for k := range out {
			out[k] += aa[k] * bb[k]
		}
	}
}
