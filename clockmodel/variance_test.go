package clockmodel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// denseNormal returns the normal matrix AᵀWA − Σ scale·uuᵀ of s (after
// lowRanks), densely.
func denseNormal(s *system) [][]float64 {
	q := make([][]float64, s.n)
	for i := range q {
		q[i] = make([]float64, s.n)
	}
	for i := range s.rows {
		r := &s.rows[i]
		for a := range r.len() {
			for b := range r.len() {
				q[r.j[a]][r.j[b]] += s.w[i] * r.c[a] * r.c[b]
			}
		}
	}
	for gi := range s.lr {
		l := &s.lr[gi]
		for a, ja := range l.idx {
			for b, jb := range l.idx {
				q[ja][jb] -= l.scale * l.val[a] * l.val[b]
			}
		}
	}
	return q
}

// denseInverse inverts the symmetric positive definite a by Cholesky.
func denseInverse(t *testing.T, a [][]float64) [][]float64 {
	t.Helper()
	n := len(a)
	l := make([]float64, n*n)
	for i := range n {
		copy(l[i*n:], a[i])
	}
	require.True(t, cholesky(l, n), "positive definite")
	inv := make([][]float64, n)
	for c := range n {
		col := make([]float64, n)
		col[c] = 1
		for r := range n { // L y = e_c
			x := col[r]
			for q := range r {
				x -= l[r*n+q] * col[q]
			}
			col[r] = x / l[r*n+r]
		}
		for r := n - 1; r >= 0; r-- { // Lᵀ z = y
			x := col[r]
			for q := r + 1; q < n; q++ {
				x -= l[q*n+r] * col[q]
			}
			col[r] = x / l[r*n+r]
		}
		inv[c] = col
	}
	return inv
}

// Each block's inverse diagonal (Takahashi's recursion and the Woodbury
// term) is the diagonal of the dense inverse of the block of the normal
// matrix, and the levels' inherited variance is [G⁻¹]_dd − 1/G_dd of the
// dense G = EᵀQE.
func TestPosteriorVarianceParts(t *testing.T) {
	checked := 0
	for _, nd := range []int{2, 5, 9} {
		rng := rand.New(rand.NewPCG(21, uint64(nd)))
		s := groupedSystem(rng, nd, 24)
		sv := s.prepare()
		q := denseNormal(s)
		for _, blk := range sv.blocks {
			m := len(blk.d)
			groups := 0
			for gi := range s.lr {
				if s.lr[gi].scale == 0 {
					continue
				}
				for _, j := range s.lr[gi].idx {
					if j >= blk.lo && int(j) < int(blk.lo)+m {
						groups++
						break
					}
				}
			}
			if groups != blk.k {
				continue // the preconditioner left out some groups' terms
			}
			sub := make([][]float64, m)
			for i := range m {
				sub[i] = q[int(blk.lo)+i][blk.lo : int(blk.lo)+m]
			}
			inv := denseInverse(t, sub)
			got := make([]float64, m)
			blk.inverseDiagonal(got)
			want := make([]float64, m)
			for i := range m {
				want[i] = inv[i][i]
			}
			requireClose(t, want, got, "block at %d (%d Woodbury terms)", blk.lo, blk.k)
			checked++
		}

		fp := &fitProblem{sys: *s}
		inh, dom := fp.levelInherited()
		nb := len(s.blocks)
		g := make([][]float64, nb)
		for a := range nb {
			g[a] = make([]float64, nb)
		}
		for i := range s.n {
			for j := range s.n {
				if dom[i] >= 0 && dom[j] >= 0 {
					g[dom[i]][dom[j]] += q[i][j]
				}
			}
		}
		ginv := denseInverse(t, g)
		want := make([]float64, nb)
		for b := range nb {
			want[b] = max(0, ginv[b][b]-1/g[b][b])
		}
		requireClose(t, want, inh, "inherited level variances, %d domains", nd)
	}
	require.Positive(t, checked, "some block is checked")
}

// The standard deviations are at least the exact conditional ones and
// close to the exact marginal ones (diag Q⁻¹) on a system whose domains
// are tied to each other by many windows.
func TestPosteriorSDAgainstDenseInverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	s := groupedSystem(rng, 6, 24)
	fp := &fitProblem{sys: *s}
	sd, err := fp.posteriorSD(context.Background())
	require.NoError(t, err)
	inv := denseInverse(t, denseNormal(&fp.sys))
	lo, hi := math.Inf(1), 0.0
	for j := range sd {
		r := sd[j] / math.Sqrt(inv[j][j])
		lo, hi = math.Min(lo, r), math.Max(hi, r)
	}
	t.Logf("sd / exact marginal sd: %.3f to %.3f", lo, hi)
	assert.Greater(t, lo, 0.5)
	assert.Less(t, hi, 1.5)
}

// An envelope's side gives max_i (v_i − ρ|t − t_i|), as a scan of every
// bound does, at the bounds, between them and beyond them.
func TestEnvelopeSide(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	const rho = 1e-3
	ts := make([]int64, 200)
	vs := make([]float64, len(ts))
	for i := range ts {
		ts[i] = int64(i*1000 + rng.IntN(900))
		vs[i] = rng.NormFloat64() * 100
	}
	s := newSide(ts, vs, rho)
	for _, q := range []int64{-5000, 0, ts[17], ts[17] + 1, 123456, ts[len(ts)-1], 300000} {
		want := math.Inf(-1)
		for i := range ts {
			want = math.Max(want, vs[i]-rho*math.Abs(float64(q-ts[i])))
		}
		assert.InDelta(t, want, s.at(q, rho), 1e-6, "at %d", q)
	}
	u := sideCursor{s: &s}
	for _, q := range []int64{-5000, 10, ts[3], ts[3] + 7, ts[40], ts[2], 123456, ts[len(ts)-1], 300000, 5} {
		assert.Equal(t, s.at(q, rho), u.at(q, rho), "cursor at %d", q)
	}
	var empty side
	assert.True(t, math.IsInf(empty.at(5, rho), -1))
}
