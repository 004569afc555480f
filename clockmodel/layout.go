package clockmodel

import (
	"context"
	"fmt"
	"slices"

	"github.com/clc-tools/clc/replay"
)

// Layout is the shape of the clock model's estimation of one trace, for
// the study of an estimation divided among processes that each hold some
// clock domains (internal/scalestudy, docs/scale.md): the domain pairs its
// bounds connect, the unknowns and rows of the least-squares system of its
// last pass, and what its solves cost. NewLayout runs the estimation once;
// Split measures what crosses one division of the domains.
type Layout struct {
	// Stats are the estimation's, as the report gives them: bounds,
	// windows, unknowns and the conjugate-gradient iterations of each
	// pass (its cross-validation, final solve and posterior samples).
	Stats EstimateStats
	// Prepares counts the preparations of a system for solves over all
	// passes: the groups' terms, the preconditioner's blocks and the
	// coarse matrix formed (each a pass over the rows) and factorised.
	Prepares int
	// Coarse is the number of coarse unknowns of the last system (0 when
	// it has no coarse level) and CoarseEntries the entries of the coarse
	// factor (its envelope).
	Coarse, CoarseEntries int
	// Rows is the number of rows of the last system and Nonzeros the
	// number of distinct pairs of unknowns that share a row (the
	// off-diagonal entries of the upper half of AᵀWA, without the groups'
	// low-rank terms).
	Rows, Nonzeros int64

	domains   int
	pairs     []layoutPair
	unknown   []int32 // each unknown's domain
	rowPtr    []int64 // row i's unknowns are rowUnk[rowPtr[i]:rowPtr[i+1]]
	rowUnk    []int32
	groups    [][2]int32 // each bias group's pair of domains
	coarseDom []int32    // each coarse unknown's domain
}

// layoutPair counts the bounds between domains p < q: n[src][dir], src
// point to point (0) or collective (1), dir p→q (0) or q→p (1).
type layoutPair struct {
	p, q int32
	n    [2][2]int64
}

// NewLayout runs the clock model's estimation (as Run does with
// MethodModel, given the default μ lat) on the pre-synchronised times and
// returns its layout. (Run keeps the layout of its own estimation with
// Options.Layout.)
func NewLayout(ctx context.Context, in *Input, times [][]int64, g *replay.Graph, lat replay.Latency, opt EstimateOptions) (*Layout, error) {
	if in.Domains.Count() < 2 {
		return &Layout{domains: in.Domains.Count()}, nil
	}
	e := newEstimator(in, times, g, lat, opt, nil)
	e.keepLast = true
	_, st, err := e.estimate(ctx, nil)
	if err != nil {
		return nil, err
	}
	return e.layout(st)
}

// layout returns the layout of the estimation e ran (with keepLast),
// whose statistics are st, and lets go of the last pass's fit.
func (e *estimator) layout(st EstimateStats) (*Layout, error) {
	l := &Layout{domains: e.in.Domains.Count(), Stats: st, Prepares: e.prepares}
	for _, pr := range pairsOf(e.lists, &e.in.Domains) {
		lp := layoutPair{p: pr.p, q: pr.q}
		for src := range 2 {
			for dir := range 2 {
				sp := pr.seg[src][dir]
				lp.n[src][dir] = int64(sp.hi - sp.lo)
			}
		}
		l.pairs = append(l.pairs, lp)
	}
	p := e.last
	e.last = nil
	if p == nil {
		return l, nil
	}
	sys := &p.sys
	l.unknown = make([]int32, sys.n)
	for d, f := range p.first {
		if f < 0 {
			continue
		}
		b, ok := slices.BinarySearchFunc(sys.blocks, f, func(sp span, f int32) int { return int(sp.lo) - int(f) })
		if !ok {
			return nil, fmt.Errorf("internal error: domain %d's first unknown %d begins no block", d, f)
		}
		for j := sys.blocks[b].lo; j < sys.blocks[b].hi; j++ {
			l.unknown[j] = int32(d)
		}
	}
	l.Rows = int64(sys.rowCount())
	l.rowPtr = make([]int64, 0, sys.rowCount()+1)
	l.rowPtr = append(l.rowPtr, 0)
	var keys []uint64
	for i := range sys.rowCount() {
		r := sys.row(i)
		js := r.j[:r.len()]
		l.rowUnk = append(l.rowUnk, js...)
		l.rowPtr = append(l.rowPtr, int64(len(l.rowUnk)))
		keys = appendPairs(keys, js, nil)
	}
	l.Nonzeros = countDistinct(keys)
	for _, gi := range p.groupOf {
		gr := &e.groups[gi]
		l.groups = append(l.groups, [2]int32{gr.p, gr.q})
	}
	if cs := sys.coarse; cs != nil {
		l.Coarse, l.CoarseEntries = len(cs.c), len(cs.e.val)
		l.coarseDom = make([]int32, l.Coarse)
		for k, hp := range cs.hat {
			for _, h := range hp.h {
				if h >= 0 {
					l.coarseDom[h] = l.unknown[k]
				}
			}
		}
	}
	return l, nil
}

// appendPairs appends to keys the distinct pairs j < k of the unknowns js
// (a row's) as j<<32 | k, those only whose parts differ when part is not
// nil (part gives each unknown's part).
func appendPairs(keys []uint64, js []int32, part func(j int32) int32) []uint64 {
	for a := range js {
		for b := a + 1; b < len(js); b++ {
			j, k := min(js[a], js[b]), max(js[a], js[b])
			if j == k || part != nil && part(j) == part(k) {
				continue
			}
			keys = append(keys, uint64(uint32(j))<<32|uint64(uint32(k)))
		}
	}
	return keys
}

// countDistinct sorts keys and returns the number of distinct values.
func countDistinct(keys []uint64) int64 {
	slices.Sort(keys)
	return int64(len(slices.Compact(keys)))
}

// Coupling is what crosses one division of the clock domains among parts
// (Layout.Split). A part holds its domains' unknowns, and the bounds,
// windows and rows of the domain pairs it owns: a pair belongs to the part
// of the domain that receives more of its bounds (a bound is made where its
// message is received, so the other part ships its bounds to the owner),
// and a row of one domain to that domain's part. A product by the normal
// matrix then needs, in every part, the values of the other parts'
// unknowns its rows read (its halo) and sends back what its rows add to
// them; the preconditioner's blocks are the domains', local; the coarse
// level needs every part's share of the coarse residual (an allgather);
// the dot products are allreduces.
type Coupling struct {
	Parts int
	// Pairs counts the domain pairs with bounds, PairsCrossing those whose
	// domains are in different parts.
	Pairs, PairsCrossing int
	// Bounds counts the last pass's bounds, point to point [0] and
	// collective [1]; BoundsCrossing those between domains of different
	// parts; Shipped those made outside the part that owns their pair.
	Bounds, BoundsCrossing, Shipped [2]int64
	// Unknowns is the number of unknowns; UnknownsMax the most of one part.
	Unknowns, UnknownsMax int
	// Rows counts the system's rows, RowsCrossing those that read
	// unknowns of two parts.
	Rows, RowsCrossing int64
	// Nonzeros counts the distinct pairs of unknowns that share a row,
	// NonzerosCrossing those of two parts.
	Nonzeros, NonzerosCrossing int64
	// Halo is the sum over the parts of the other parts' unknowns their
	// rows read (what a product by the normal matrix receives, and sends
	// back, in all), HaloMax the largest part's; Neighbours the sum over
	// the parts of the parts they exchange with, NeighboursMax the most.
	Halo, HaloMax             int64
	Neighbours, NeighboursMax int
	// Groups counts the bias groups (a domain pair and a source of
	// bounds), GroupsCrossing those whose domains are in different parts.
	Groups, GroupsCrossing int
	// CoarseMax is the most coarse unknowns of one part (Layout.Coarse in
	// all).
	CoarseMax int
}

// Split returns what crosses the division of the domains among parts
// that part gives (part[d]: domain d's part, 0 ≤ part[d]).
func (l *Layout) Split(part []int32) (Coupling, error) {
	if len(part) != l.domains {
		return Coupling{}, fmt.Errorf("a division of %d domains for a layout of %d", len(part), l.domains)
	}
	var c Coupling
	for d, p := range part {
		if p < 0 {
			return Coupling{}, fmt.Errorf("domain %d: negative part %d", d, p)
		}
		c.Parts = max(c.Parts, int(p)+1)
	}
	c.Pairs, c.Rows, c.Nonzeros, c.Unknowns, c.Groups = len(l.pairs), l.Rows, l.Nonzeros, len(l.unknown), len(l.groups)
	owner := make(map[uint64]int32, len(l.pairs))
	for _, pr := range l.pairs {
		a, b := part[pr.p], part[pr.q]
		own := a
		for src := range 2 {
			c.Bounds[src] += pr.n[src][0] + pr.n[src][1]
		}
		if a != b {
			c.PairsCrossing++
			// p→q bounds are made in q's part, q→p bounds in p's.
			toQ, toP := pr.n[0][0]+pr.n[1][0], pr.n[0][1]+pr.n[1][1]
			dir := 0 // the direction shipped
			if toQ > toP {
				own, dir = b, 1
			}
			for src := range 2 {
				c.BoundsCrossing[src] += pr.n[src][0] + pr.n[src][1]
				c.Shipped[src] += pr.n[src][dir]
			}
		}
		owner[pairKey(pr.p, pr.q)] = own
	}
	partOf := func(j int32) int32 { return part[l.unknown[j]] }
	perPart := make([]int, c.Parts)
	for _, d := range l.unknown {
		perPart[part[d]]++
	}
	c.UnknownsMax = slices.Max(append(perPart, 0))
	var halo, cross []uint64 // (owner part, unknown) and crossing pairs of unknowns
	for i := range len(l.rowPtr) - 1 {
		js := l.rowUnk[l.rowPtr[i]:l.rowPtr[i+1]]
		if len(js) == 0 {
			continue
		}
		lo, hi := l.unknown[js[0]], l.unknown[js[0]]
		for _, j := range js[1:] {
			lo, hi = min(lo, l.unknown[j]), max(hi, l.unknown[j])
		}
		own := part[lo]
		if lo != hi {
			if o, ok := owner[pairKey(lo, hi)]; ok {
				own = o
			}
		}
		crossing := false
		for _, j := range js {
			if pj := partOf(j); pj != own {
				crossing = true
				halo = append(halo, uint64(uint32(own))<<32|uint64(uint32(j)))
			}
		}
		if crossing {
			c.RowsCrossing++
			cross = appendPairs(cross, js, partOf)
		}
	}
	c.NonzerosCrossing = countDistinct(cross)
	slices.Sort(halo)
	halo = slices.Compact(halo)
	c.Halo = int64(len(halo))
	nb := map[uint64]bool{}
	haloOf := make([]int64, c.Parts)
	for _, h := range halo {
		p, j := int32(h>>32), int32(uint32(h))
		haloOf[p]++
		nb[uint64(uint32(p))<<32|uint64(uint32(partOf(j)))] = true
	}
	c.HaloMax = slices.Max(append(haloOf, 0))
	nbOf := make([]int, c.Parts)
	for k := range nb {
		nbOf[k>>32]++
	}
	c.Neighbours, c.NeighboursMax = len(nb), slices.Max(append(nbOf, 0))
	for _, g := range l.groups {
		if part[g[0]] != part[g[1]] {
			c.GroupsCrossing++
		}
	}
	cpp := make([]int, c.Parts)
	for _, d := range l.coarseDom {
		cpp[part[d]]++
	}
	c.CoarseMax = slices.Max(append(cpp, 0))
	return c, nil
}

func pairKey(p, q int32) uint64 { return uint64(uint32(p))<<32 | uint64(uint32(q)) }
