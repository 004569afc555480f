package clockmodel

import (
	"math"
	"slices"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/replay"
)

// span64 is a closed range of times.
type span64 struct{ lo, hi int64 }

// ProjectStats describe the projection of the clocks onto the messages'
// one-sided bounds (Result.Project).
type ProjectStats struct {
	// Bounds is the number of bounds (one per receiving location,
	// sending domain and time bin, and per collective's tightest pairs);
	// Violated those the clocks broke before the projection, Active those
	// the projection leans on.
	Bounds   int
	Violated int
	Active   int
	// Sweeps counts the passes over the bounds near violation, Swept the
	// bounds they visited.
	Sweeps int
	Swept  int64
	// Residual is the largest violation of a bound left, ticks (the CLC
	// removes what is left).
	Residual float64
	// MaxMove is the largest change of a curve, ticks.
	MaxMove float64
	// Used says whether the projected clocks replaced the model's: they
	// are when the sweeps converged and leave fewer violations.
	Used bool
}

// Converged reports whether the sweeps held every bound (to projectTol);
// if not, the bounds contradict each other and the projection is not used.
func (s *ProjectStats) Converged() bool { return s.Residual <= projectTol }

// Projection limits: the sweeps visit only the bounds found violated (by
// more than projectTol ticks) so far; after the sweeps converge, a check of
// all bounds adds those the moves violated, at most projectRounds times;
// each round sweeps at most projectSweeps times, and all rounds together
// visit at most projectBudget times as many bounds as there are, or
// projectMinBudget bounds (some 50 ms), whichever is more.
const (
	projectMinBudget = 1 << 24
	projectSweeps    = 400
	projectRounds    = 64
	projectBudget    = 40
	projectTol       = 0.5
	// projectStop is the largest change of a bound's value (ticks) in a
	// sweep at which the sweeps stop: far below projectTol, since slow
	// progress in small steps can still add up.
	projectStop = 0.01
	// projectRelax over-relaxes each step (any factor in (0, 2)
	// converges; above 1 it takes fewer sweeps).
	projectRelax = 1.5
)

// project returns the clock model closest to m (nil: no correction) in
// which every one-sided bound of the last estimation pass holds:
// x_b(t) − x_a(t) ≥ μ − d for a message from domain a to domain b with
// delay d around t. Closest is in the norm Σ_d Σ_k n_dk·(x_dk − m_dk)²
// over the knots k of every domain d, n_dk the domain's events near knot k,
// so the change is measured per event. The bounds are convex (half-spaces),
// so when the true clocks satisfy them — μ at most the true latencies — the
// result is no farther from the true clocks than m in that norm (the
// projection onto a convex set never moves away from a point inside it).
// It is solved by Hildreth's method: cyclic projections onto the violated
// half-spaces with non-negative multipliers. Domains without a curve in m
// get knots at quantiles of their bounds' times; the reference domain
// stays fixed. changed gives per domain the times where its curve can
// differ from m's (empty, lo > hi, where it is m's own).
func (e *estimator) project(m *Model, lat replay.Latency) (*Model, []span64, *ProjectStats) {
	dom := &e.in.Domains
	nd := dom.Count()
	k, base := e.projectKnots(m)
	w := e.knotWeights(&k)
	st := &ProjectStats{}
	bs := e.bounds(&k, base, lat)
	st.Bounds = len(bs)
	for i := range bs {
		if bs[i].y > projectTol {
			st.Violated++
		}
	}
	delta := make([]float64, k.n+1) // +1: the second knot of a one-knot side
	if st.Violated > 0 {
		hildreth(bs, w, delta, st)
	}
	out := &Model{Curves: slices.Clone(base.Curves)}
	changed := make([]span64, nd)
	for d := range nd {
		changed[d] = span64{math.MaxInt64, math.MinInt64}
		if k.first[d] < 0 {
			continue
		}
		f := int(k.first[d])
		ts := k.T[d]
		i0, i1 := -1, -1
		for i := range ts {
			if delta[f+i] != 0 {
				if i0 < 0 {
					i0 = i
				}
				i1 = i
			}
		}
		if i0 < 0 {
			continue
		}
		// The curves differ between the knots around the changed ones
		// (and before the first or after the last, held constant).
		changed[d] = span64{math.MinInt64, math.MaxInt64}
		if i0 > 0 {
			changed[d].lo = ts[i0-1]
		}
		if i1 < len(ts)-1 {
			changed[d].hi = ts[i1+1]
		}
		x := make([]float64, len(k.T[d]))
		for i, t := range k.T[d] {
			x[i] = base.at(int32(d), t) + delta[f+i]
			st.MaxMove = math.Max(st.MaxMove, math.Abs(delta[f+i]))
		}
		out.Curves[d] = Curve{T: k.T[d], X: x}
	}
	return out, changed, st
}

// bound is one bound of the projection, r·x ≥ y, where r·x is domain b's
// correction at the bound's time minus domain a's, each interpolated
// between two neighbouring knots: jb and jb+1 with weights 1 − ub and ub
// (jb < 0: domain b is the reference, fixed), likewise ja, ua. 24 bytes,
// for the millions of bounds of a large trace.
type bound struct {
	jb, ja int32
	ub, ua float32
	y      float64
}

func (b *bound) dot(x []float64) float64 {
	var s float64
	if b.jb >= 0 {
		u := float64(b.ub)
		s += (1-u)*x[b.jb] + u*x[b.jb+1]
	}
	if b.ja >= 0 {
		u := float64(b.ua)
		s -= (1-u)*x[b.ja] + u*x[b.ja+1]
	}
	return s
}

// norm is r·W⁻¹·r.
func (b *bound) norm(w []float64) float64 {
	var s float64
	if b.jb >= 0 {
		u := float64(b.ub)
		s += (1-u)*(1-u)/w[b.jb] + u*u/w[b.jb+1]
	}
	if b.ja >= 0 {
		u := float64(b.ua)
		s += (1-u)*(1-u)/w[b.ja] + u*u/w[b.ja+1]
	}
	return s
}

// move adds f·W⁻¹·r to x.
func (b *bound) move(x, w []float64, f float64) {
	if b.jb >= 0 {
		u := float64(b.ub)
		x[b.jb] += f * (1 - u) / w[b.jb]
		x[b.jb+1] += f * u / w[b.jb+1]
	}
	if b.ja >= 0 {
		u := float64(b.ua)
		x[b.ja] -= f * (1 - u) / w[b.ja]
		x[b.ja+1] -= f * u / w[b.ja+1]
	}
}

// hildreth moves delta (minimising Σ w·delta² from 0) until every bound
// holds to projectTol (constraint generation: the sweeps run over the
// bounds found violated so far, each with its multiplier), or gives up
// (st.Residual above projectTol) when the limits are reached.
func hildreth(bs []bound, w, delta []float64, st *ProjectStats) {
	inSet := make([]bool, len(bs))
	var set []int32
	var lam, norm []float64 // per member of set
	budget := max(projectBudget*int64(len(bs)), projectMinBudget)
	for range projectRounds {
		// Check every bound; the violated ones join the set.
		st.Residual = 0
		grew := false
		for i := range bs {
			g := bs[i].y - bs[i].dot(delta)
			st.Residual = math.Max(st.Residual, g)
			if g > projectTol && !inSet[i] {
				inSet[i] = true
				set = append(set, int32(i))
				lam = append(lam, 0)
				norm = append(norm, bs[i].norm(w))
				grew = true
			}
		}
		if !grew || st.Swept > budget {
			break
		}
		for range projectSweeps {
			st.Sweeps++
			st.Swept += int64(len(set))
			// worst is the largest change of a bound's value: it is small
			// once the bounds hold (feasible) and no multiplier wants to
			// move (optimal; a mere feasibility test would stop with some
			// bounds pushed further than the closest point needs).
			worst := 0.0
			for p, i := range set {
				b := &bs[i]
				g := b.y - b.dot(delta)
				if g <= 0 && lam[p] == 0 {
					continue
				}
				nl := math.Max(0, lam[p]+projectRelax*g/norm[p])
				dl := nl - lam[p]
				if dl == 0 {
					continue
				}
				lam[p] = nl
				b.move(delta, w, dl)
				worst = math.Max(worst, math.Abs(dl)*norm[p])
			}
			if worst <= projectStop || st.Swept > budget {
				break
			}
		}
	}
	for _, l := range lam {
		if l > 0 {
			st.Active++
		}
	}
}

// bounds returns the projection's bounds from the last pass's lists: per
// bound, the interpolation of its two domains' knots k at its time and
// y = μ − d − (base_b(t) − base_a(t)), in the lists' order (bounds
// between two domains without knots left out). The lists go in chunks to
// the workers, each with cursors of its own (the lists are sorted by
// sending domain, receiving domain and time, so cursors find the knots);
// a first pass counts each chunk's bounds, so that each writes its own
// place of the result.
func (e *estimator) bounds(k *knots, base *Model, lat replay.Latency) []bound {
	return e.boundsInChunks(k, base, lat, boundChunk)
}

// boundsInChunks is bounds with chunks of size records.
func (e *estimator) boundsInChunks(k *knots, base *Model, lat replay.Latency, size int) []bound {
	dom := &e.in.Domains
	nd := dom.Count()
	type chunk struct {
		list   *recList
		lo, hi int
		at     int
	}
	var chunks []chunk
	n := 0
	for _, list := range e.lists {
		for lo := 0; lo < list.len(); lo += size {
			c := chunk{list: list, lo: lo, hi: min(lo+size, list.len()), at: n}
			for rc := range list.between(c.lo, c.hi) {
				if k.first[rc.a] >= 0 || k.first[rc.b] >= 0 {
					n++
				}
			}
			chunks = append(chunks, c)
		}
	}
	bs := make([]bound, n)
	type cursors struct {
		kc []knotCursor
		bc []cursor
	}
	newCursors := func() *cursors {
		cs := &cursors{kc: make([]knotCursor, nd), bc: make([]cursor, nd)}
		for d := range nd {
			cs.kc[d] = knotCursor{k: k, d: int32(d)}
			cs.bc[d] = cursor{c: base.curve(int32(d))}
		}
		return cs
	}
	par.ForEachWith(len(chunks), e.opt.Parallel, newCursors, func(cs *cursors, ci int) {
		out := bs[chunks[ci].at:]
		j := 0
		c := &chunks[ci]
		for rc := range c.list.between(c.lo, c.hi) {
			mu := float64(lat.Inter)
			if na := dom.Node[rc.a]; na >= 0 && na == dom.Node[rc.b] {
				mu = float64(lat.Intra)
			}
			b := bound{y: mu - float64(rc.d) - (cs.bc[rc.b].at(rc.t) - cs.bc[rc.a].at(rc.t))}
			b.jb, b.ub = cs.kc[rc.b].at(rc.t)
			b.ja, b.ua = cs.kc[rc.a].at(rc.t)
			if b.jb < 0 && b.ja < 0 {
				continue
			}
			out[j] = b
			j++
		}
	})
	return bs
}

// boundChunk is the number of records a worker turns into bounds at a
// time.
const boundChunk = 1 << 16

// knotCursor finds, at mostly ascending times, the knots of domain d
// around t: the first unknown j of the pair and the weight u of j+1 (a
// time before the first knot or after the last gets that knot alone,
// weight 1; a domain without knots −1).
type knotCursor struct {
	k *knots
	d int32
	i int // ts[i−1] < t ≤ ts[i] at the last call
}

func (c *knotCursor) at(t int64) (int32, float32) {
	f := c.k.first[c.d]
	if f < 0 {
		return -1, 0
	}
	ts := c.k.T[c.d]
	n := len(ts)
	switch {
	case n == 1:
		return f, 0
	case t <= ts[0] || t >= ts[n-1] || c.i < 1 || c.i >= n || ts[c.i-1] >= t:
		// Clamped, or back in time: find the segment anew.
		j, u := segment(ts, t)
		c.i = j + 1
		return f + int32(j), float32(u)
	}
	for ts[c.i] < t {
		c.i++
	}
	u := float64(t-ts[c.i-1]) / float64(ts[c.i]-ts[c.i-1])
	return f + int32(c.i) - 1, float32(u)
}

// projectKnots lays out the projection's unknowns: m's knots for a domain
// with a curve, else knots at quantiles of the times of the domain's
// bounds (as placeKnots), none for the reference domain. It returns the
// layout and the base model (m, or no correction).
func (e *estimator) projectKnots(m *Model) (knots, *Model) {
	dom := &e.in.Domains
	nd := dom.Count()
	if m == nil {
		m = &Model{Curves: make([]Curve, nd)}
	}
	obsT := make([][]int64, nd)
	for _, list := range e.lists {
		for rc := range list.all() {
			if len(m.Curves[rc.a].T) == 0 {
				obsT[rc.a] = append(obsT[rc.a], rc.t)
			}
			if len(m.Curves[rc.b].T) == 0 {
				obsT[rc.b] = append(obsT[rc.b], rc.t)
			}
		}
	}
	gap := max(1, int64(knotGap*float64(e.in.Resolution)))
	k := knots{T: make([][]int64, nd), first: make([]int32, nd)}
	for d := range nd {
		k.first[d] = -1
		switch {
		case int32(d) == dom.Ref:
			continue
		case len(m.Curves[d].T) > 0:
			k.T[d] = m.Curves[d].T
		case len(obsT[d]) > 0:
			k.T[d] = placeKnots(obsT[d], e.opt.PerKnot, gap)
		default:
			continue
		}
		k.first[d] = int32(k.n)
		k.n += len(k.T[d])
	}
	return k, m
}

// knotWeights returns each unknown's weight in the projection's norm: the
// events of its domain, shared among the domain's knots by the span each
// covers (half the distance to each neighbour), at least 1.
func (e *estimator) knotWeights(k *knots) []float64 {
	dom := &e.in.Domains
	events := make([]float64, dom.Count())
	for li := range e.times {
		events[dom.Of[li]] += float64(e.dv.eventsOf(li, e.times))
	}
	w := make([]float64, k.n+1) // +1: as delta
	w[k.n] = 1
	for d, ts := range k.T {
		if k.first[d] < 0 {
			continue
		}
		f := int(k.first[d])
		n := len(ts)
		for i := range ts {
			share := 1.0
			if n > 1 {
				lo, hi := ts[max(i-1, 0)], ts[min(i+1, n-1)]
				share = float64(hi-lo) / 2 / float64(ts[n-1]-ts[0])
			}
			w[f+i] = math.Max(1, events[d]*share)
		}
	}
	return w
}
