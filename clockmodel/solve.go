package clockmodel

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/clc-tools/clc/internal/par"
)

// row is one linear equation Σ c_i·x[j_i] ≈ y in the unknowns: up to two
// knots of each of two domains (its weight is its system's, system.w); its
// terms are the first of j up to noTerm (newRow).
type row struct {
	c [4]float64
	y float64
	j [4]int32
}

// noTerm marks the end of a row's terms in j.
const noTerm = -1

// newRow returns a row without terms, with right-hand side y.
func newRow(y float64) row { return row{y: y, j: [4]int32{noTerm, noTerm, noTerm, noTerm}} }

// len returns the row's number of terms: 4 less the unused ones, whose
// sign bit is set (branch-free, for the solver's passes).
func (r *row) len() int {
	return 4 - int(uint32(r.j[0])>>31+uint32(r.j[1])>>31+uint32(r.j[2])>>31+uint32(r.j[3])>>31)
}

func (r *row) dot(x []float64) float64 {
	var s float64
	for i := range r.len() {
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
		n := r.len()
		for i := range n {
			if r.j[i] == j {
				r.c[i] += c
				return
			}
		}
		r.j[n], r.c[n] = j, c
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
	// rows are the system's rows but those of skip (empty: none), which
	// are another system's that shares the rows with it; row numbers
	// (row, w, groups) skip them.
	rows []row
	skip span
	// w are the rows' weights, one per row: what a solve and a
	// cross-validation change (the rows' terms stay as built).
	w  []float64
	n  int
	np int
	// partRows is the fewest rows per part of a pass over the rows
	// (0: defaultPartRows), parallelMin the fewest unknowns for which the
	// coarse correction is summed apart (0: parallelUnknowns);
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
	// groups are ranges of rows that share an unknown eliminated from the
	// system (a bias b with prior weight wb: each row's residual is
	// row·x + b − y), which makes the normal matrix AᵀWA − Σ u·uᵀ/(W + wb)
	// for u = Σ w·row over the group and W = Σ w (solve forms them).
	groups []rowGroup
	lr     []lowRank
	// dots are each part's scratch for the products row·v of a group's
	// rows in mul; bounds the parts' first rows (partBounds), found by the
	// first pass and kept: the rows and groups do not change.
	dots   [][]float64
	bounds []int
	// prepared counts the calls of prepare.
	prepared int
	// busy, if not nil, counts the solves running at once on the systems
	// that share it (an estimate's): each runs on its share of the np
	// goroutines (goroutines).
	busy *atomic.Int32
}

// goroutines returns how many goroutines a pass of s runs on now: np, or
// its share of them while other solves that share busy run. The parts of
// a pass and their sums do not depend on it (partsInto), so neither does
// any result.
func (s *system) goroutines() int {
	g := max(1, s.np)
	if s.busy != nil {
		if b := int(s.busy.Load()); b > 1 {
			g = max(1, g/b)
		}
	}
	return g
}

// forEach calls f(i) for i in [0, n) on g goroutines, this one among
// them, the indices handed out in chunks: a pass of the solver starts
// g − 1 goroutines and waits for them (none when g is 1).
func forEach(n, g int, f func(i int)) {
	g = min(g, n)
	chunk := max(1, n/(max(1, g)*8))
	var next atomic.Int64
	work := func() {
		for {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			for i := lo; i < min(lo+chunk, n); i++ {
				f(i)
			}
		}
	}
	var wg sync.WaitGroup
	for range g - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// fork returns a copy of s whose solves reach what s's would, for a solve
// beside s's: its own weights (which a solve and a cross-validation
// change), buffers, groups' terms and coarse matrix; the rows' terms, the
// blocks, the knot times, the groups and the groups' sparsity patterns
// shared, read only.
// What depends only on the rows' terms (the patterns, the coarse level)
// s finds first, for both. s must not be solving.
func (s *system) fork() *system {
	s.patterns()
	s.buildCoarse()
	f := &system{rows: s.rows, skip: s.skip, w: slices.Clone(s.w), n: s.n, np: s.np, partRows: s.partRows, parallelMin: s.parallelMin,
		blocks: s.blocks, at: s.at, groups: s.groups, coarseTried: s.coarseTried, busy: s.busy}
	if s.coarse != nil {
		f.coarse = s.coarse.fork()
	}
	f.lr = s.sharedPatterns()
	return f
}

// sharedPatterns returns groups' terms for another system whose groups
// are s's over rows with s's terms: s's sparsity patterns (found first if
// not yet known), shared read only, each with values of its own.
func (s *system) sharedPatterns() []lowRank {
	s.patterns()
	lr := make([]lowRank, len(s.lr))
	for i := range s.lr {
		l := &s.lr[i]
		lr[i] = lowRank{idx: l.idx, pos: l.pos, val: make([]float64, len(l.val))}
	}
	return lr
}

// rowCount returns the number of the system's rows.
func (s *system) rowCount() int { return len(s.rows) - int(s.skip.hi-s.skip.lo) }

// row returns the system's row i.
func (s *system) row(i int) *row {
	if i >= int(s.skip.lo) {
		i += int(s.skip.hi - s.skip.lo)
	}
	return &s.rows[i]
}

// rowsOf returns group g's rows, which lie before skip.
func (s *system) rowsOf(g *rowGroup) []row {
	if s.skip.hi > s.skip.lo && g.hi > s.skip.lo {
		panic("clockmodel: a group's rows past the skipped rows")
	}
	return s.rows[g.lo:g.hi]
}

// segments calls f with the system's rows [lo, hi) in order, as at most
// two slices of rows (either side of skip), each with its first row's
// number.
func (s *system) segments(lo, hi int, f func(lo int, rows []row)) {
	a, h := int(s.skip.lo), int(s.skip.hi-s.skip.lo)
	if h == 0 {
		f(lo, s.rows[lo:hi])
		return
	}
	if lo < a {
		f(lo, s.rows[lo:min(hi, a)])
	}
	if hi > a {
		b := max(lo, a)
		f(b, s.rows[b+h:hi+h])
	}
}

// rowGroup is a range of rows [lo, hi) that shares an eliminated unknown
// with prior weight wb.
type rowGroup struct {
	lo, hi int32
	wb     float64
}

// lowRank is one group's term of the normal matrix, −scale·u·uᵀ with u
// sparse (idx, val), for the rows' current weights.
type lowRank struct {
	idx []int32
	val []float64
	// pos is the place in idx of each of the group's rows' terms (nil
	// when idx has more than maxPos entries: a term's place is then
	// searched).
	pos   []uint16
	scale float64
}

// maxPos is the most entries of a group's idx whose places pos holds.
const maxPos = 1 << 16

// lowRanks forms the groups' terms for the rows' current weights.
func (s *system) lowRanks() {
	s.patterns()
	forEach(len(s.groups), s.goroutines(), func(gi int) {
		g := &s.groups[gi]
		l := &s.lr[gi]
		clear(l.val)
		var w float64
		k := 0
		for i := g.lo; i < g.hi; i++ {
			r, ri := s.row(int(i)), s.w[i]
			for t := range r.len() {
				var at int
				if l.pos != nil {
					at = int(l.pos[k])
				} else {
					at, _ = slices.BinarySearch(l.idx, r.j[t])
				}
				l.val[at] += ri * r.c[t]
				k++
			}
			w += ri
		}
		l.scale = 0
		if w > 0 {
			l.scale = 1 / (w + g.wb)
		}
	})
}

// patterns finds the groups' sparsity patterns that are not yet known.
func (s *system) patterns() {
	if len(s.lr) != len(s.groups) {
		s.lr = make([]lowRank, len(s.groups))
	}
	// place is a goroutine's scratch for pattern, made on its first use.
	type place struct{ at []int32 }
	par.ForEachWith(len(s.groups), s.goroutines(), func() *place { return new(place) }, func(pl *place, gi int) {
		g := &s.groups[gi]
		if l := &s.lr[gi]; l.val == nil {
			if pl.at == nil {
				pl.at = make([]int32, s.n)
				for j := range pl.at {
					pl.at[j] = -1
				}
			}
			l.pattern(s.rowsOf(g), pl.at)
		}
	})
}

// pattern sets l's sparsity pattern from the group's rows: idx the
// unknowns they touch, ascending, and pos the place in idx of each of
// their terms, in order (none past maxPos unknowns). at is scratch of one
// element per unknown, all −1, as pattern leaves it.
func (l *lowRank) pattern(rows []row, at []int32) {
	for i := range rows {
		for _, j := range rows[i].j[:rows[i].len()] {
			if at[j] < 0 {
				at[j] = 0
				l.idx = append(l.idx, j)
			}
		}
	}
	slices.Sort(l.idx)
	l.idx = slices.Clip(l.idx)
	for k, j := range l.idx {
		at[j] = int32(k)
	}
	l.val = make([]float64, len(l.idx))
	if len(l.idx) <= maxPos {
		n := 0
		for i := range rows {
			n += rows[i].len()
		}
		l.pos = make([]uint16, 0, n)
		for i := range rows {
			for _, j := range rows[i].j[:rows[i].len()] {
				l.pos = append(l.pos, uint16(at[j]))
			}
		}
	}
	for _, j := range l.idx {
		at[j] = -1
	}
}

// groupBias returns the eliminated unknown of group gi at x: Σ w·(y −
// row·x) / (W + wb), for the rows' current weights.
func (s *system) groupBias(gi int, x []float64) float64 {
	g := &s.groups[gi]
	var sw, sr float64
	for i := g.lo; i < g.hi; i++ {
		r := s.row(int(i))
		sw += s.w[i]
		sr += s.w[i] * (r.y - r.dot(x))
	}
	if sw == 0 {
		return 0
	}
	return sr / (sw + g.wb)
}

// penta is the LDLᵀ factorisation of a symmetric pentadiagonal block P,
// and, when the groups' terms reach into the block (system.groups), of
// the block P − U·S·Uᵀ by Woodbury's identity: (P − USUᵀ)⁻¹ = P⁻¹ +
// V·(S⁻¹ − UᵀV)⁻¹·Vᵀ with V = P⁻¹U; u holds U's columns (k of them, the
// block's length each), v V's, and capL the Cholesky factor of the
// capacitance S⁻¹ − UᵀV (k×k, row-major, lower).
type penta struct {
	lo     int32
	d      []float64
	l1, l2 []float64
	k      int
	u, v   []float64
	capL   []float64
}

// maxWoodbury bounds the groups whose terms a block's preconditioner
// takes (those with the largest weight): each costs two products of the
// block's length per iteration, and the capacitance k² to store and k³/3
// to factorise. Leaving out some keeps the preconditioner symmetric
// positive definite (P − U'S'U'ᵀ lies between P − USUᵀ and P). On the
// 1,024-rank 10^7-event traces of docs/performance.md, 48 instead of 32
// cut the second pass's iterations from 862 to 615 (100 µs of wander)
// and the model's time by 3–7 %; 64 cut them to 462 at no further gain.
const maxWoodbury = 48

// solvePenta sets y = P⁻¹b for the pentadiagonal part (y may be b).
func (p *penta) solvePenta(b, y []float64) {
	m := len(p.d)
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
}

// woodbury adds to the factorised block the groups' terms U·S·Uᵀ
// (subtracted from the block): u holds U's columns one after the other
// (the block's size each; the block keeps it), scale is S's diagonal. It
// reports false (and leaves the block as it was) when the capacitance is
// not positive definite numerically.
func (p *penta) woodbury(u, scale []float64) bool {
	m, k := len(p.d), len(scale)
	v := make([]float64, m*k)
	for c := range k {
		p.solvePenta(u[c*m:(c+1)*m], v[c*m:(c+1)*m])
	}
	capL := make([]float64, k*k)
	for a := range k {
		for b := 0; b <= a; b++ {
			capL[a*k+b] = -dot(u[a*m:(a+1)*m], v[b*m:(b+1)*m])
		}
		capL[a*k+a] += 1 / scale[a]
	}
	if !cholesky(capL, k) {
		return false
	}
	p.k, p.u, p.v, p.capL = k, u, v, capL
	return true
}

// cholesky factorises the symmetric k×k matrix a (row-major, lower half
// read) in place into its lower Cholesky factor; false if a is not
// positive definite numerically.
func cholesky(a []float64, k int) bool {
	for j := range k {
		d := a[j*k+j]
		for q := range j {
			d -= a[j*k+q] * a[j*k+q]
		}
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a[j*k+j] = d
		for i := j + 1; i < k; i++ {
			v := a[i*k+j]
			for q := range j {
				v -= a[i*k+q] * a[j*k+q]
			}
			a[i*k+j] = v / d
		}
	}
	return true
}

// apply sets y = the block's inverse times b.
func (p *penta) apply(b, y []float64) {
	p.solvePenta(b, y)
	if p.k == 0 {
		return
	}
	m, k := len(p.d), p.k
	w := make([]float64, k)
	for c := range k {
		w[c] = dot(p.u[c*m:(c+1)*m], y[:m])
	}
	// capL·capLᵀ·w' = w
	for i := range k {
		v := w[i]
		for q := range i {
			v -= p.capL[i*k+q] * w[q]
		}
		w[i] = v / p.capL[i*k+i]
	}
	for i := k - 1; i >= 0; i-- {
		v := w[i]
		for q := i + 1; q < k; q++ {
			v -= p.capL[q*k+i] * w[q]
		}
		w[i] = v / p.capL[i*k+i]
	}
	// Four columns at a time: y is read and written once per four.
	c := 0
	for ; c+4 <= k; c += 4 {
		v0, v1, v2, v3 := p.v[c*m:(c+1)*m], p.v[(c+1)*m:(c+2)*m], p.v[(c+2)*m:(c+3)*m], p.v[(c+3)*m:(c+4)*m]
		w0, w1, w2, w3 := w[c], w[c+1], w[c+2], w[c+3]
		y := y[:m]
		for i := range y {
			y[i] += (v0[i]*w0 + v1[i]*w1) + (v2[i]*w2 + v3[i]*w3)
		}
	}
	for ; c < k; c++ {
		vc := p.v[c*m : (c+1)*m]
		for i := range m {
			y[i] += vc[i] * w[c]
		}
	}
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
	sums := s.parts(3*n, func(rows []row, w, out []float64) {
		diag, off1, off2 := out[:n], out[n:2*n], out[2*n:]
		for i := range rows {
			r, ri := &rows[i], w[i]
			n := r.len()
			for a := range n {
				ja := r.j[a]
				diag[ja] += ri * r.c[a] * r.c[a]
				for b := a + 1; b < n; b++ {
					jb := r.j[b]
					lo, hi := min(ja, jb), max(ja, jb)
					if blockOf[lo] < 0 || blockOf[lo] != blockOf[hi] {
						continue
					}
					switch hi - lo {
					case 1:
						off1[lo] += ri * r.c[a] * r.c[b]
					case 2:
						off2[lo] += ri * r.c[a] * r.c[b]
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
	// The groups' terms within each block (lowRanks has formed them).
	type term struct {
		g  int32
		lo int // the first of u's entries in the block
		hi int
	}
	terms := make([][]term, len(s.blocks))
	for gi := range s.lr {
		l := &s.lr[gi]
		if l.scale == 0 {
			continue
		}
		for k := 0; k < len(l.idx); {
			b := blockOf[l.idx[k]]
			e := k + 1
			for e < len(l.idx) && blockOf[l.idx[e]] == b {
				e++
			}
			if b >= 0 {
				terms[b] = append(terms[b], term{g: int32(gi), lo: k, hi: e})
			}
			k = e
		}
	}
	forEach(len(s.blocks), s.goroutines(), func(b int) {
		all[b], ok[b] = factorBlock(s.blocks[b], diag, off1, off2)
		ts := terms[b]
		if !ok[b] || len(ts) == 0 {
			return
		}
		sp := s.blocks[b]
		m := int(sp.hi - sp.lo)
		// The groups with the most weight in the block first.
		weight := func(t term) float64 {
			l := &s.lr[t.g]
			var w float64
			for _, v := range l.val[t.lo:t.hi] {
				w += v * v
			}
			return w * l.scale
		}
		slices.SortFunc(ts, func(a, c term) int { return cmp.Compare(weight(c), weight(a)) })
		ts = ts[:min(len(ts), maxWoodbury)]
		u := make([]float64, m*len(ts))
		scale := make([]float64, len(ts))
		for c, t := range ts {
			l := &s.lr[t.g]
			col := u[c*m : (c+1)*m]
			for k := t.lo; k < t.hi; k++ {
				col[l.idx[k]-sp.lo] = l.val[k]
			}
			scale[c] = l.scale
		}
		all[b].woodbury(u, scale)
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

// precondition sets z = M⁻¹r, the blocks, and coarse (if not nil) as one
// more task, on up to np goroutines.
func precondition(blocks []penta, diag, r, z []float64, np int, coarse func()) {
	for i := range r {
		z[i] = r[i] / diag[i]
	}
	// The coarse solve, if any, first among the tasks.
	first := 0
	if coarse != nil {
		first = 1
	}
	forEach(first+len(blocks), np, func(i int) {
		if i < first {
			coarse()
			return
		}
		p := &blocks[i-first]
		m := len(p.d)
		p.apply(r[p.lo:int(p.lo)+m], z[p.lo:int(p.lo)+m])
	})
}

// solve minimises Σ w·(row·x − y)² (with the groups' unknowns
// eliminated) by conjugate gradients on the normal equations,
// preconditioned by the blocks' exact solves plus the coarse level when
// there is one (coarseLevel), starting from x (which it overwrites),
// until the relative residual is below tol or after maxIter iterations
// or as many as limit allows (nil: no limit). While it runs it counts in
// s.busy. It returns the iterations run.
func (s *system) solve(ctx context.Context, x []float64, tol float64, maxIter int, limit *iterLimit) (int, error) {
	if s.busy != nil {
		s.busy.Add(1)
		defer s.busy.Add(-1)
	}
	sv := s.prepare()
	return sv.solve(ctx, x, sv.rhs(), tol, maxIter, limit)
}

// solver is a system prepared for solves with its rows' current weights:
// the groups' terms formed, the preconditioner factorised.
type solver struct {
	s      *system
	blocks []penta
	diag   []float64
	cs     *coarse
	// zc, on a large system with a coarse level, is where the coarse
	// correction goes before it is added to the blocks' (nil: it is added
	// to them term by term, as one goroutine would).
	zc []float64
}

// prepare forms the groups' terms and the preconditioner for the rows'
// current weights.
func (s *system) prepare() *solver {
	s.prepared++
	s.lowRanks()
	sv := &solver{s: s}
	sv.blocks, sv.diag = s.preconditioner()
	sv.cs = s.coarseLevel()
	// On a large system the coarse correction goes to zc and is added to
	// the blocks' afterwards (which rounds differently from adding its
	// terms to them one by one, as on a smaller system).
	if pmin := s.parallelMin; sv.cs != nil && (s.n >= parallelUnknowns && pmin == 0 || pmin > 0 && s.n >= pmin) {
		sv.zc = make([]float64, s.n)
	}
	return sv
}

// pre sets z to the preconditioner applied to r: the blocks' solves and
// the coarse level's on s.goroutines(), in one pass (each block writes
// its own unknowns and the coarse solve only its own vector, so how they
// are shared out changes no result).
func (sv *solver) pre(r, z []float64) {
	g := sv.s.goroutines()
	switch {
	case sv.cs == nil:
		precondition(sv.blocks, sv.diag, r, z, g, nil)
	case sv.zc == nil:
		// The coarse solve needs only r; its correction is added after
		// the blocks', term by term.
		precondition(sv.blocks, sv.diag, r, z, g, func() { sv.cs.solveCoarse(r) })
		sv.cs.prolong(z)
	default:
		precondition(sv.blocks, sv.diag, r, z, g, func() {
			clear(sv.zc)
			sv.cs.apply(r, sv.zc)
		})
		for i, v := range sv.zc {
			z[i] += v
		}
	}
}

// rhs returns the right-hand side of the normal equations for the rows'
// y: Aᵀ W y less the groups' terms.
func (sv *solver) rhs() []float64 {
	s := sv.s
	b := s.parts(s.n, func(rows []row, w, out []float64) {
		for i := range rows {
			r := &rows[i]
			for k := range r.len() {
				out[r.j[k]] += w[i] * r.c[k] * r.y
			}
		}
	})
	for gi := range s.lr {
		l := &s.lr[gi]
		var wy float64
		for i := s.groups[gi].lo; i < s.groups[gi].hi; i++ {
			wy += s.w[i] * s.row(int(i)).y
		}
		for k, j := range l.idx {
			b[j] -= l.scale * wy * l.val[k]
		}
	}
	return b
}

// solve runs conjugate gradients for the right-hand side b from x, at
// most maxIter iterations and as many as limit allows.
func (sv *solver) solve(ctx context.Context, x, b []float64, tol float64, maxIter int, limit *iterLimit) (int, error) {
	s, n := sv.s, sv.s.n
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
	sv.pre(res, z)
	for i := range z {
		p[i] = z[i]
		rz += res[i] * z[i]
	}
	ap := make([]float64, n)
	it := 0
	for ; it < maxIter && limit.allows(it); it++ {
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
		sv.pre(res, z)
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
	s.buildCoarse()
	if s.coarse != nil {
		s.coarse.factor(s)
	}
	return s.coarse
}

// buildCoarse builds s's coarse level, its matrix not formed, if it has
// not been tried yet.
func (s *system) buildCoarse() {
	if !s.coarseTried {
		s.coarseTried = true
		if h := coarseHats(s); h > 0 {
			// Twice the estimate: the envelope is wider where a domain's
			// knots are sparse.
			s.coarse = newCoarse(s, h, 2*coarseFlopsPerRow*float64(s.rowCount()))
		}
	}
}

// defaultPartRows is the fewest rows per part of a pass over the rows:
// CG multiplies by the matrix hundreds of times per solve, and handing
// small pieces to goroutines costs more than it saves on a busy machine.
const defaultPartRows = 1 << 16

// maxParts bounds the parts of a pass over the rows: each has a vector of
// the unknowns' size to sum into, cleared in every pass.
const maxParts = 16

// parallelUnknowns is the fewest unknowns for which the coarse
// correction is summed apart from the blocks' (solver.zc).
const parallelUnknowns = 1 << 15

// parts sums f over the rows in parts (a part per partRows rows, at most
// maxParts), on up to s.goroutines() goroutines: f adds its rows' terms
// (the rows and their weights) to out, a zeroed vector of m elements.
// parts returns the first part's vector, newly allocated, with the other
// parts' added to it in ascending order of part; the parts depend on the
// rows alone, not on the goroutines, so neither does any sum (the
// results are the same bits whatever the parallelism). The other parts'
// buffers are kept for the next pass.
func (s *system) parts(m int, f func(rows []row, w, out []float64)) []float64 {
	out := make([]float64, m)
	s.partsInto(out, f)
	return out
}

// partsInto is parts summing into out, which it zeroes first.
func (s *system) partsInto(out []float64, f func(rows []row, w, out []float64)) {
	s.partsOver(out, func(_, lo, hi int, buf []float64) {
		s.segments(lo, hi, func(lo int, rows []row) {
			f(rows, s.w[lo:lo+len(rows)], buf)
		})
	})
}

// partBounds returns the first row of each of np parts of the nr rows
// and nr: equal shares, each boundary moved on to the end of the group it
// falls within, so that a part holds all of each of its groups' rows
// (mul). They depend on the rows and groups alone.
func (s *system) partBounds(np, nr int) []int {
	chunk := (nr + np - 1) / np
	b := make([]int, np+1)
	for w := 1; w < np; w++ {
		i := max(b[w-1], min(w*chunk, nr))
		g := sort.Search(len(s.groups), func(k int) bool { return int(s.groups[k].hi) > i })
		if g < len(s.groups) && int(s.groups[g].lo) < i {
			i = int(s.groups[g].hi)
		}
		b[w] = i
	}
	b[np] = nr
	return b
}

// partsOver calls run(w, lo, hi, buf) for each part w of the rows (a part
// per partRows rows, at most maxParts; partBounds) on up to
// s.goroutines() goroutines, buf a zeroed vector of len(out) to sum the
// part's terms into: out itself for the first part, and the other parts'
// added to it in ascending order of part. The parts depend on the rows
// alone, not on the goroutines, so neither does any sum (the results are
// the same bits whatever the parallelism). The other parts' buffers are
// kept for the next pass.
func (s *system) partsOver(out []float64, run func(w, lo, hi int, buf []float64)) {
	minRows := s.partRows
	if minRows <= 0 {
		minRows = defaultPartRows
	}
	nr := s.rowCount()
	np := max(1, min(maxParts, nr/minRows+1))
	for len(s.bufs) < np-1 {
		s.bufs = append(s.bufs, nil)
	}
	for w := range np - 1 {
		if cap(s.bufs[w]) < len(out) {
			s.bufs[w] = make([]float64, len(out))
		}
		s.bufs[w] = s.bufs[w][:len(out)]
	}
	if len(s.bounds) != np+1 || s.bounds[np] != nr {
		s.bounds = s.partBounds(np, nr)
	}
	bounds := s.bounds
	part := func(w int) {
		buf := out
		if w > 0 {
			buf = s.bufs[w-1]
		}
		clear(buf)
		run(w, bounds[w], bounds[w+1], buf)
	}
	// Goroutine g runs parts g, g+ng, …; the first is this one.
	ng := min(s.goroutines(), np)
	var wg sync.WaitGroup
	for g := 1; g < ng; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for w := g; w < np; w += ng {
				part(w)
			}
		}()
	}
	for w := 0; w < np; w += ng {
		part(w)
	}
	wg.Wait()
	for _, p := range s.bufs[:np-1] {
		for i, x := range p {
			out[i] += x
		}
	}
}

// mul sets y = (AᵀWA − the groups' terms)·v, over the rows in parts. A
// group's term, scale·u·(u·v) with u = Σ w·row over its rows, is Σ
// row·w·scale·z with z = Σ w·(row·v) over the same rows: each group's
// rows are passed twice, their products row·v kept between, in the part
// that holds them all (partBounds); the groups' scales are lowRanks'.
func (s *system) mul(v, y []float64) {
	for len(s.dots) < maxParts {
		s.dots = append(s.dots, nil)
	}
	s.partsOver(y, func(w, lo, hi int, out []float64) {
		gs := s.groups
		gi := sort.Search(len(gs), func(k int) bool { return int(gs[k].hi) > lo })
		for i := lo; i < hi; {
			if gi < len(gs) && int(gs[gi].lo) <= i {
				g := &gs[gi]
				rows, ws := s.rowsOf(g), s.w[g.lo:g.hi]
				if scale := s.lr[gi].scale; scale != 0 {
					if cap(s.dots[w]) < len(rows) {
						s.dots[w] = make([]float64, len(rows))
					}
					s.dots[w] = s.dots[w][:len(rows)]
					mulGroup(rows, ws, v, out, s.dots[w], scale)
				} else {
					mulRows(rows, ws, v, out)
				}
				i = int(g.hi)
				gi++
				continue
			}
			end := hi
			if gi < len(gs) {
				end = min(hi, int(gs[gi].lo))
			}
			s.segments(i, end, func(lo int, rows []row) { mulRows(rows, s.w[lo:lo+len(rows)], v, out) })
			i = end
		}
	})
}

// mulRows adds Σ row·w·(row·v) over rows (weights w) to out.
func mulRows(rows []row, w, v, out []float64) {
	for i := range rows {
		r := &rows[i]
		if r.j[3] >= 0 {
			j0, j1, j2, j3 := r.j[0], r.j[1], r.j[2], r.j[3]
			f := w[i] * (r.c[0]*v[j0] + r.c[1]*v[j1] + r.c[2]*v[j2] + r.c[3]*v[j3])
			out[j0] += f * r.c[0]
			out[j1] += f * r.c[1]
			out[j2] += f * r.c[2]
			out[j3] += f * r.c[3]
			continue
		}
		n := r.len()
		var d float64 // r.dot(v)
		for k := range n {
			d += r.c[k] * v[r.j[k]]
		}
		f := w[i] * d
		for k := range n {
			out[r.j[k]] += f * r.c[k]
		}
	}
}

// mulGroup adds Σ row·w·(row·v − scale·z), z = Σ w·(row·v), over one
// group's rows (weights w) to out; d is scratch of one per row.
func mulGroup(rows []row, w, v, out, d []float64, scale float64) {
	var z float64
	for i := range rows {
		r := &rows[i]
		var di float64
		if r.j[3] >= 0 {
			di = r.c[0]*v[r.j[0]] + r.c[1]*v[r.j[1]] + r.c[2]*v[r.j[2]] + r.c[3]*v[r.j[3]]
		} else {
			for k := range r.len() {
				di += r.c[k] * v[r.j[k]]
			}
		}
		d[i] = di
		z += w[i] * di
	}
	z *= scale
	for i := range rows {
		r := &rows[i]
		f := w[i] * (d[i] - z)
		if r.j[3] >= 0 {
			out[r.j[0]] += f * r.c[0]
			out[r.j[1]] += f * r.c[1]
			out[r.j[2]] += f * r.c[2]
			out[r.j[3]] += f * r.c[3]
			continue
		}
		for k := range r.len() {
			out[r.j[k]] += f * r.c[k]
		}
	}
}
