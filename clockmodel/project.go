package clockmodel

import (
	"math"

	"github.com/clc-tools/clc/replay"
)

// ProjectStats describe the projection of the clocks onto the messages'
// one-sided bounds (Result.Project).
type ProjectStats struct {
	// Bounds is the number of bounds (one per receiving location,
	// sending domain and time bin, and per collective's tightest pairs);
	// Violated those the clocks broke before the projection, Active those
	// the projection leans on.
	Bounds   int `json:"bounds"`
	Violated int `json:"violated"`
	Active   int `json:"active"`
	// Sweeps counts the passes over the bounds near violation, Swept the
	// bounds they visited.
	Sweeps int   `json:"sweeps"`
	Swept  int64 `json:"swept"`
	// Residual is the largest violation of a bound left, ticks (the CLC
	// removes what is left).
	Residual float64 `json:"max_residual_ticks"`
	// MaxMove is the largest change of a curve, ticks.
	MaxMove float64 `json:"max_move_ticks"`
	// Used says whether the projected clocks replaced the model's: they
	// are when the sweeps converged and leave fewer violations.
	Used bool `json:"used"`
}

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
// stays fixed.
func (e *estimator) project(m *Model, lat replay.Latency) (*Model, *ProjectStats) {
	dom := &e.in.Domains
	nd := dom.Count()
	k, base := e.projectKnots(m)
	w := e.knotWeights(&k)
	st := &ProjectStats{}
	var rows []row
	for _, list := range e.lists {
		for i := range list {
			rc := &list[i]
			mu := float64(lat.Inter)
			if na := dom.Node[rc.a]; na >= 0 && na == dom.Node[rc.b] {
				mu = float64(lat.Intra)
			}
			r := row{}
			k.terms(&r, rc.b, rc.t, 1)
			k.terms(&r, rc.a, rc.t, -1)
			if r.n == 0 {
				continue
			}
			r.y = mu - float64(rc.d) - (base.at(rc.b, rc.t) - base.at(rc.a, rc.t))
			rows = append(rows, r)
		}
	}
	st.Bounds = len(rows)
	for i := range rows {
		if rows[i].y > projectTol {
			st.Violated++
		}
	}
	delta := make([]float64, k.n)
	if st.Violated > 0 {
		hildreth(rows, w, delta, st)
	}
	out := &Model{Curves: make([]Curve, nd)}
	for d := range nd {
		if k.first[d] < 0 {
			continue
		}
		f := int(k.first[d])
		x := make([]float64, len(k.T[d]))
		for i, t := range k.T[d] {
			x[i] = base.at(int32(d), t) + delta[f+i]
			st.MaxMove = math.Max(st.MaxMove, math.Abs(delta[f+i]))
		}
		out.Curves[d] = Curve{T: k.T[d], X: x}
	}
	return out, st
}

// hildreth moves delta (minimising Σ w·delta² from 0) until every row
// r·delta ≥ r.y holds to projectTol (constraint generation: the sweeps run
// over the rows found violated so far), or gives up (st.Residual above
// projectTol) when the limits are reached.
func hildreth(rows []row, w, delta []float64, st *ProjectStats) {
	lam := make([]float64, len(rows))
	norm := make([]float64, len(rows))
	for i := range rows {
		r := &rows[i]
		for a := range r.n {
			norm[i] += r.c[a] * r.c[a] / w[r.j[a]]
		}
	}
	inSet := make([]bool, len(rows))
	var set []int32
	budget := max(projectBudget*int64(len(rows)), projectMinBudget)
	for range projectRounds {
		// Check every row; the violated ones join the set.
		st.Residual = 0
		grew := false
		for i := range rows {
			g := rows[i].y - rows[i].dot(delta)
			st.Residual = math.Max(st.Residual, g)
			if g > projectTol && !inSet[i] {
				inSet[i] = true
				set = append(set, int32(i))
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
			for _, i := range set {
				r := &rows[i]
				g := r.y - r.dot(delta)
				if g <= 0 && lam[i] == 0 {
					continue
				}
				nl := math.Max(0, lam[i]+projectRelax*g/norm[i])
				dl := nl - lam[i]
				if dl == 0 {
					continue
				}
				lam[i] = nl
				for a := range r.n {
					delta[r.j[a]] += dl * r.c[a] / w[r.j[a]]
				}
				worst = math.Max(worst, math.Abs(dl)*norm[i])
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
		for i := range list {
			rc := &list[i]
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
	for li, ts := range e.times {
		events[dom.Of[li]] += float64(len(ts))
	}
	w := make([]float64, k.n)
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
