package clockmodel

import (
	"context"
	"math"

	"github.com/clc-tools/clc/internal/par"
)

// maxLevelDomains bounds the domains whose levels' covariance
// (levelInherited) is formed densely: its Cholesky factor and inverse
// cost about D³/2 operations, 0.5·10⁹ at 1,024 domains. Beyond it each
// domain's variance is its conditional one (given the other domains).
const maxLevelDomains = 1024

// posteriorSD returns each unknown's posterior standard deviation, with
// the rows' weights as the last solve left them, in two levels of the
// problem's own structure instead of sampling:
//
//   - within a domain, exactly the variance of each knot given the other
//     domains' knots: the diagonal of the inverse of the domain's block of
//     the normal matrix, which the preconditioner has factorised (LDLᵀ of
//     the pentadiagonal part, the groups' terms by Woodbury's identity),
//     by Takahashi's recursion for the inverse's band (K. Takahashi, J.
//     Fagan, M.-S. Chen, "Formation of a sparse bus impedance matrix and
//     its application to short circuit study", 1973) — O(knots) per
//     domain, plus O(knots·k²) for k Woodbury terms;
//   - across domains, what a domain's level inherits from the others
//     through the windows that tie it to them (the reference's clock is
//     reached through other domains' messages): the Galerkin projection
//     of the normal matrix onto one level per domain, G = EᵀQE, whose
//     inverse's diagonal less its own conditional part 1/G_dd is added
//     to every knot of the domain (levelInherited).
//
// The sum is the exact marginal variance when the domains' shapes are
// independent of the other domains' levels, and otherwise a two-level
// approximation of it: no Monte-Carlo error, and no solve.
func (p *fitProblem) posteriorSD(ctx context.Context) ([]float64, error) {
	sv := p.sys.prepare()
	n := p.sys.n
	v := make([]float64, n)
	for j, d := range sv.diag {
		v[j] = 1 / d
	}
	par.ForEach(len(sv.blocks), p.sys.np, func(b int) {
		blk := &sv.blocks[b]
		blk.inverseDiagonal(v[blk.lo : int(blk.lo)+len(blk.d)])
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inh, dom := p.levelInherited()
	for j := range v {
		if d := dom[j]; d >= 0 {
			v[j] += inh[d]
		}
		v[j] = math.Sqrt(max(v[j], 0))
	}
	return v, ctx.Err()
}

// inverseDiagonal sets out to the diagonal of the block's inverse:
// (P − USUᵀ)⁻¹ = P⁻¹ + V·C⁻¹·Vᵀ (woodbury), P⁻¹'s band by Takahashi's
// recursion on P = LDLᵀ — for j ≥ i, Z_ij = δ_ij/d_i − l1_i·Z_{i+1,j} −
// l2_i·Z_{i+2,j}, from the last row up — and the Woodbury term's diagonal
// as ‖L_C⁻¹·v_i‖² for the capacitance's Cholesky factor L_C and row i of V.
func (p *penta) inverseDiagonal(out []float64) {
	m := len(p.d)
	// z0[i] = Z_ii, z1[i] = Z_{i,i+1}, z2[i] = Z_{i,i+2}.
	z0, z1, z2 := make([]float64, m), make([]float64, m), make([]float64, m)
	for i := m - 1; i >= 0; i-- {
		var a1, a2 float64 // l1_i, l2_i where they exist
		if i+1 < m {
			a1 = p.l1[i]
		}
		if i+2 < m {
			a2 = p.l2[i]
		}
		at := func(r, c int) float64 { // Z_rc for i < r ≤ c ≤ r+2 (or c < r by symmetry)
			if r > c {
				r, c = c, r
			}
			if r >= m || c >= m {
				return 0
			}
			switch c - r {
			case 0:
				return z0[r]
			case 1:
				return z1[r]
			case 2:
				return z2[r]
			}
			return 0
		}
		if i+2 < m {
			z2[i] = -a1*at(i+1, i+2) - a2*at(i+2, i+2)
		}
		if i+1 < m {
			z1[i] = -a1*at(i+1, i+1) - a2*at(i+2, i+1)
		}
		z0[i] = 1/p.d[i] - a1*z1[i] - a2*z2[i]
	}
	copy(out, z0)
	if p.k == 0 {
		return
	}
	k := p.k
	w := make([]float64, k)
	for i := range m {
		for c := range k {
			w[c] = p.v[c*m+i]
		}
		var s float64
		for r := range k {
			x := w[r]
			for q := range r {
				x -= p.capL[r*k+q] * w[q]
			}
			x /= p.capL[r*k+r]
			w[r] = x
			s += x * x
		}
		out[i] += s
	}
}

// levelInherited returns, per domain with knots (indexed by the order of
// the system's blocks), the variance its level inherits from the other
// domains, [G⁻¹]_dd − 1/G_dd for the levels' matrix G = EᵀQE (E the
// indicator of each block's knots), and each unknown's block (−1 outside
// every block). With one block, or more than maxLevelDomains, or when G
// is not numerically positive definite, nothing is inherited.
func (p *fitProblem) levelInherited() ([]float64, []int32) {
	s := &p.sys
	dom := make([]int32, s.n)
	for j := range dom {
		dom[j] = -1
	}
	for b, sp := range s.blocks {
		for j := sp.lo; j < sp.hi; j++ {
			dom[j] = int32(b)
		}
	}
	nb := len(s.blocks)
	inh := make([]float64, nb)
	if nb < 2 || nb > maxLevelDomains {
		return inh, dom
	}
	g := make([]float64, nb*nb)
	// addOuter adds f·aaᵀ for the sparse per-block sums a (blocks bs).
	addOuter := func(f float64, bs []int32, a []float64) {
		for x := range bs {
			for y := range bs {
				g[int(bs[x])*nb+int(bs[y])] += f * a[x] * a[y]
			}
		}
	}
	var bs [5]int32
	var a [5]float64
	agg := func(idx []int32, val []float64) int {
		nbs := 0
		for q, j := range idx {
			b := dom[j]
			if b < 0 {
				continue
			}
			found := false
			for x := range nbs {
				if bs[x] == b {
					a[x] += val[q]
					found = true
					break
				}
			}
			if !found && nbs < len(bs) {
				bs[nbs], a[nbs] = b, val[q]
				nbs++
			}
		}
		return nbs
	}
	for i := range s.rowCount() {
		r := s.row(i)
		if s.w[i] == 0 {
			continue
		}
		n := r.len()
		nbs := agg(r.j[:n], r.c[:n])
		addOuter(s.w[i], bs[:nbs], a[:nbs])
	}
	// The groups' terms (−scale·uuᵀ): u may reach many blocks.
	ub := make([]float64, nb)
	seen := make([]bool, nb)
	var touched []int32
	for gi := range s.lr {
		l := &s.lr[gi]
		if l.scale == 0 {
			continue
		}
		touched = touched[:0]
		for q, j := range l.idx {
			b := dom[j]
			if b < 0 {
				continue
			}
			if !seen[b] {
				seen[b] = true
				touched = append(touched, b)
			}
			ub[b] += l.val[q]
		}
		for _, x := range touched {
			for _, y := range touched {
				g[int(x)*nb+int(y)] -= l.scale * ub[x] * ub[y]
			}
		}
		for _, x := range touched {
			ub[x], seen[x] = 0, false
		}
	}
	cond := make([]float64, nb)
	for b := range nb {
		cond[b] = 1 / g[b*nb+b]
	}
	if !cholesky(g, nb) {
		return inh, dom
	}
	// diag(G⁻¹)_b = ‖L⁻¹e_b‖² summed over the rows of L⁻¹: invert L
	// column by column (lower triangular).
	col := make([]float64, nb)
	for c := range nb {
		clear(col)
		col[c] = 1
		for r := c; r < nb; r++ {
			x := col[r]
			for q := c; q < r; q++ {
				x -= g[r*nb+q] * col[q]
			}
			col[r] = x / g[r*nb+r]
		}
		for r := c; r < nb; r++ {
			inh[c] += col[r] * col[r]
		}
	}
	for b := range nb {
		inh[b] = max(0, inh[b]-cond[b])
	}
	return inh, dom
}
