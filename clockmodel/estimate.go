package clockmodel

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/clc-tools/clc/internal/order"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/replay"
)

// EstimateOptions tune the estimation.
type EstimateOptions struct {
	// PerSide is the number of bounds each direction needs in a window of
	// a domain pair; 0 means 2.
	PerSide int
	// Iterations is the number of passes, each reading the bounds
	// relative to the previous pass's model; 0 means 2.
	Iterations int
	// Curvature is how fast a clock's rate may change: the standard
	// deviation of its change over one second (dimensionless; 1e-5 is
	// 10 ppm per second); 0 means chosen by cross-validation from
	// curvatureGrid.
	Curvature float64
	// PerKnot is the number of observations per knot of a domain's
	// curve; 0 means 4.
	PerKnot int
	// Parallel bounds the goroutines; 0 means 1.
	Parallel int
	// defaultPriors keeps the cross-validation from choosing the loose
	// priors (for the tests that compare the two).
	defaultPriors bool
}

func (o *EstimateOptions) defaults() {
	if o.PerSide <= 0 {
		o.PerSide = 2
	}
	if o.Iterations <= 0 {
		o.Iterations = 2
	}
	if o.PerKnot <= 0 {
		o.PerKnot = 4
	}
	if o.Parallel <= 0 {
		o.Parallel = 1
	}
}

// EstimateStats describe an estimation.
type EstimateStats struct {
	Bounds     int64 `json:"bounds"`
	Pairs      int   `json:"domain_pairs"`
	Bands      int   `json:"windows"`
	TwoSided   int   `json:"two_sided_windows"`
	Anchors    int   `json:"anchors"`
	Unknowns   int   `json:"unknowns"`
	Iterations []int `json:"solver_iterations"`
	// Misfit is the root mean square of the windows' residuals in units
	// of their uncertainty, after the last pass.
	Misfit float64 `json:"misfit"`
	// Priors says when the fit was made with the loose priors, and why.
	Priors string `json:"priors,omitempty"`
	// Curvature is the smoothness chosen by cross-validation.
	Curvature float64 `json:"curvature"`
	// Prior is the prior's scale of the corrections, ticks.
	Prior float64 `json:"prior_ticks"`
}

// estimator holds what the passes share.
type estimator struct {
	in    *Input
	times [][]int64
	g     *replay.Graph
	lat   replay.Latency
	opt   EstimateOptions
	ga    *gatherer
	p2p   []rec
	span  int64
	bands []band
	// curv is the curvature chosen by the first pass's fit.
	curv float64
	// priors are the priors the fit uses.
	priors priorLevel
	// anchors are the merged anchors (anchorObs).
	anchors []anchorObs
	// lists are the last pass's bounds: point to point, collective.
	lists [2][]rec
}

func newEstimator(in *Input, times [][]int64, g *replay.Graph, lat replay.Latency, opt EstimateOptions) *estimator {
	opt.defaults()
	e := &estimator{in: in, times: times, g: g, lat: lat, opt: opt}
	e.ga = newGatherer(times, g, &in.Domains, opt.Parallel)
	e.span = max(1, 8192*e.ga.bin)
	e.p2p = e.ga.p2p()
	sortRecs(e.p2p)
	return e
}

// estimate runs the passes and returns the model. lastWindows, if not
// nil, is called once the last pass has its windows (e.bands final),
// before its fit.
func (e *estimator) estimate(ctx context.Context, lastWindows func()) (*Model, EstimateStats, error) {
	var st EstimateStats
	var m *Model
	for it := 0; it < e.opt.Iterations; it++ {
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		st.Pairs = e.windows(m)
		if it == e.opt.Iterations-1 && lastWindows != nil {
			lastWindows()
		}
		st.Bounds = int64(len(e.lists[0]) + len(e.lists[1]))
		st.Bands = len(e.bands)
		var iters int
		var err error
		m, iters, err = e.fit(ctx, m, &st)
		if err != nil {
			return nil, st, err
		}
		st.Iterations = append(st.Iterations, iters)
	}
	return m, st, nil
}

// windows gathers the collectives' bounds (their latest senders chosen in
// the times corrected by m, nil: none), keeps the bound lists (e.lists)
// and cuts them into the windows of every domain pair (e.bands), read
// relative to m. It returns the number of domain pairs.
func (e *estimator) windows(m *Model) int {
	coll := e.ga.collectives(m)
	sortRecs(coll)
	lists := [2][]rec{e.p2p, coll}
	e.lists = lists
	prs := pairsOf(lists, &e.in.Domains)
	wo := windowOptions{perSide: e.opt.PerSide, maxSpan: max(1, e.span/32)}
	floor := e.floor()
	parts := make([][]band, len(prs))
	par.ForEach(len(prs), e.opt.Parallel, func(i int) {
		parts[i] = bands(&prs[i], lists, e.lat, m, wo, nil)
		weigh(parts[i], floor)
	})
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	e.bands = slices.Grow(e.bands[:0], n)
	for _, p := range parts {
		e.bands = append(e.bands, p...)
	}
	return len(prs)
}

// obs is an observation of one or two domains' corrections.
type anchorObs struct {
	d     int32
	t     int64
	v     float64
	sigma float64
}

// anchorObs returns the anchors as observations of their domains'
// corrections, those of one domain close in time (the measurements of one
// epoch, e.g. all at MPI_Init: within a millisecond or a thousandth of the
// trace's span) merged into one with the weighted mean of their times and
// values and the sum of their weights — the same information in far fewer
// rows (one per node and epoch instead of one per location).
func (e *estimator) anchorObs() []anchorObs {
	if e.anchors != nil {
		return e.anchors
	}
	var all []anchorObs
	for i := range e.in.anchors {
		a := &e.in.anchors[i]
		d := e.in.Domains.Of[a.loc]
		if d == e.in.Domains.Ref {
			continue
		}
		t, v := a.at(e.times)
		all = append(all, anchorObs{d: d, t: t, v: v, sigma: a.sigma})
	}
	slices.SortFunc(all, func(x, y anchorObs) int {
		if c := cmp.Compare(x.d, y.d); c != 0 {
			return c
		}
		return cmp.Compare(x.t, y.t)
	})
	gap := max(int64(e.in.Resolution/1000), e.span/1000)
	out := []anchorObs{}
	for lo := 0; lo < len(all); {
		hi := lo + 1
		for hi < len(all) && all[hi].d == all[lo].d && all[hi].t-all[lo].t <= gap {
			hi++
		}
		var sw, st, sv float64
		for _, a := range all[lo:hi] {
			w := 1 / (a.sigma * a.sigma)
			sw += w
			st += w * float64(a.t-all[lo].t)
			sv += w * a.v
		}
		out = append(out, anchorObs{d: all[lo].d, t: all[lo].t + int64(math.Round(st/sw)), v: sv / sw, sigma: 1 / math.Sqrt(sw)})
		lo = hi
	}
	e.anchors = out
	return out
}

// fit solves for the domains' curves given the current bands and the
// anchors; prev (may be nil) is the starting point. The curves' smoothness
// is opt.Curvature, or else the one of curvatureGrid that cross-validation
// picks in the first pass (with the priors, chooseCurvature).
func (e *estimator) fit(ctx context.Context, prev *Model, st *EstimateStats) (*Model, int, error) {
	nd := e.in.Domains.Count()
	anchors := e.anchorObs()
	st.Anchors = len(anchors)
	k := e.placeKnots(anchors, st)
	st.Unknowns = k.n
	st.Prior = e.priorScale()
	p := e.newFitProblem(&k, anchors, st.Prior)
	p.setPriors(e.priors)
	x := make([]float64, k.n)
	if prev != nil {
		for d := range nd {
			for i, t := range k.T[d] {
				x[int(k.first[d])+i] = prev.at(int32(d), t)
			}
		}
	}
	if e.curv == 0 && e.opt.Curvature > 0 {
		e.curv = e.opt.Curvature
	}
	if e.curv == 0 {
		if err := e.chooseCurvature(ctx, p, x, st); err != nil {
			return nil, p.iters, err
		}
	}
	st.Curvature = e.curv
	if err := p.solve(ctx, e.curv, x, 1e-6); err != nil {
		return nil, p.iters, err
	}
	st.Misfit = residualScale(p.sys.rows[:p.nBand], x)
	m := &Model{Curves: make([]Curve, nd)}
	for d := range nd {
		if k.first[d] < 0 {
			continue
		}
		m.Curves[d] = Curve{T: k.T[d], X: x[k.first[d] : int(k.first[d])+len(k.T[d])]}
	}
	return m, p.iters, nil
}

// fitProblem is one fit's weighted least-squares system over the knots:
// the two-sided windows' rows first (nBand of them), then the anchors',
// the smoothness terms' and the priors', with what sets the weights that
// the curvature and the priors give the last two.
type fitProblem struct {
	sys   system
	nBand int
	res   float64 // timer ticks per second
	// smooth are the smoothness rows, whose weights are base/curvature².
	smooth []int32
	base   []float64
	// knot and rate are the priors' rows: a knot's weight has its share
	// of the span, a rate row's is rateW at the default priors.
	knot, rate   []int32
	share, rateW []float64
	ridge, prior float64
	maxIter      int
	iters        int // conjugate-gradient iterations so far
}

// newFitProblem lays out the rows of a fit over the knots k: the bands'
// two-sided windows (midpoint, weight 1/σ²), the anchors, the smoothness
// (the rate change between consecutive segments, as an integrated random
// walk with variance curvature²·h per h ticks) and the priors with scale
// prior; a weak ridge (1 s) keeps the system definite.
func (e *estimator) newFitProblem(k *knots, anchors []anchorObs, prior float64) *fitProblem {
	res := float64(e.in.Resolution)
	p := &fitProblem{res: res, ridge: 1 / (res * res), prior: prior, maxIter: 4*k.n + 100}
	// At most a row per window and per anchor, and three per knot
	// (smoothness, knot prior, rate prior).
	rows := make([]row, 0, len(e.bands)+len(anchors)+3*k.n)
	for i := range e.bands {
		b := &e.bands[i]
		if !b.twoSided() {
			continue
		}
		r := row{w: 1 / (b.sigma * b.sigma), y: b.mid()}
		k.terms(&r, b.q, b.t, 1)
		k.terms(&r, b.p, b.t, -1)
		if r.n > 0 {
			rows = append(rows, r)
		}
	}
	p.nBand = len(rows)
	for _, a := range anchors {
		r := row{w: 1 / (a.sigma * a.sigma), y: a.v}
		k.terms(&r, a.d, a.t, 1)
		rows = append(rows, r)
	}
	for d := range k.T {
		ts := k.T[d]
		f := k.first[d]
		for i := 1; i+1 < len(ts); i++ {
			h1, h2 := float64(ts[i]-ts[i-1]), float64(ts[i+1]-ts[i])
			r := row{n: 3, w: 1 / ((h1 + h2) / 2)}
			r.j = [4]int32{f + int32(i) - 1, f + int32(i), f + int32(i) + 1}
			r.c = [4]float64{-1 / h1, 1/h1 + 1/h2, -1 / h2}
			p.smooth = append(p.smooth, int32(len(rows)))
			p.base = append(p.base, r.w)
			rows = append(rows, r)
		}
		if len(ts) == 0 {
			continue
		}
		if len(ts) == 1 {
			rows = append(rows, row{n: 1, j: [4]int32{f}, c: [4]float64{1}, w: p.ridge + 1/(prior*prior)})
			continue
		}
		// The priors: each knot's correction ≈ 0 with σ prior/√knotPrior
		// and each segment's rate ≈ 0 with σ prior/rateTime, both weighted
		// by the knot's or segment's share of the span relative to an even
		// spacing (so that their strength per unit of time does not depend
		// on where the knots fall).
		whole := float64(ts[len(ts)-1] - ts[0])
		n := float64(len(ts) - 1)
		rate := prior / (rateTime * res)
		for i := range ts {
			lo, hi := ts[max(i-1, 0)], ts[min(i+1, len(ts)-1)]
			p.knot = append(p.knot, int32(len(rows)))
			p.share = append(p.share, float64(hi-lo)/2/whole*n)
			rows = append(rows, row{n: 1, j: [4]int32{f + int32(i)}, c: [4]float64{1}})
		}
		for i := 0; i+1 < len(ts); i++ {
			h := float64(ts[i+1] - ts[i])
			p.rate = append(p.rate, int32(len(rows)))
			p.rateW = append(p.rateW, h/whole*n/(rate*rate))
			rows = append(rows, row{n: 2, j: [4]int32{f + int32(i), f + int32(i) + 1}, c: [4]float64{-1 / h, 1 / h}})
		}
	}
	p.sys = system{rows: rows, n: k.n, np: e.opt.Parallel, at: make([]int64, k.n)}
	for d := range k.T {
		for i, t := range k.T[d] {
			p.sys.at[int(k.first[d])+i] = t
		}
		if k.first[d] >= 0 {
			p.sys.blocks = append(p.sys.blocks, span{k.first[d], k.first[d] + int32(len(k.T[d]))})
		}
	}
	return p
}

// setPriors weighs the priors' rows for level l.
func (p *fitProblem) setPriors(l priorLevel) {
	kp, rt := knotPrior, rateTime
	if l != priorsDefault {
		kp, rt = looseKnotPrior, looseRateTime
	}
	rows := p.sys.rows
	for i, r := range p.knot {
		rows[r].w = p.ridge + p.share[i]*kp/(p.prior*p.prior)
	}
	for i, r := range p.rate {
		rows[r].w = p.rateW[i] * (rateTime / rt) * (rateTime / rt)
		if l == priorsNoRate {
			rows[r].w = 0
		}
	}
}

// solve fits x (its start) with curvature c, to relative residual tol.
func (p *fitProblem) solve(ctx context.Context, c float64, x []float64, tol float64) error {
	q2 := c * c / p.res
	for i, r := range p.smooth {
		p.sys.rows[r].w = p.base[i] / q2
	}
	iters, err := p.sys.solve(ctx, x, tol, p.maxIter)
	p.iters += iters
	return err
}

// chooseCurvature sets e.curv to the curvature of curvatureGrid whose fits,
// each on half of the windows, best predict the other half (two-fold
// cross-validation, windows alternating within each pair), and takes the
// loose priors (e.priors, p's weights) when their best fit predicts the
// other half clearly better (looseGain) than the default priors' best:
// the clocks then wander faster than the default priors let a curve
// follow. x0 is the fits' start.
func (e *estimator) chooseCurvature(ctx context.Context, p *fitProblem, x0 []float64, st *EstimateStats) error {
	rows := p.sys.rows
	weights := make([]float64, p.nBand)
	for i := range weights {
		weights[i] = rows[i].w
	}
	defer func() {
		for i := range weights {
			rows[i].w = weights[i]
		}
	}()
	x := make([]float64, len(x0))
	// grid returns the best of the curvatures curvatureGrid[idx…] and its
	// score, with the priors as set; firstMin stops at the first worse
	// score. The default priors' fits are kept to start the loose ones' of
	// the same curvature.
	warm := make([][]float64, len(curvatureGrid))
	grid := func(idx []int, firstMin bool) (int, float64, error) {
		best, bestScore := idx[0], math.Inf(1)
		for _, ci := range idx {
			var score float64
			for fold := range cvFolds {
				for i := range weights {
					rows[i].w = weights[i]
					if (i/cvBlock)%2 == fold {
						rows[i].w = 0
					}
				}
				if warm[ci] != nil {
					copy(x, warm[ci])
				} else {
					copy(x, x0)
				}
				// The score needs the fit roughly, not to the last digit.
				if err := p.solve(ctx, curvatureGrid[ci], x, 1e-4); err != nil {
					return 0, 0, err
				}
				if firstMin && cvFolds == 1 {
					warm[ci] = slices.Clone(x)
				}
				for i := range p.nBand {
					if (i/cvBlock)%2 != fold {
						continue
					}
					d := rows[i].dot(x) - rows[i].y
					score += math.Min(weights[i]*d*d, 25)
				}
			}
			if score < bestScore {
				best, bestScore = ci, score
			} else if firstMin {
				// The score has passed its minimum: the grid is ordered
				// from stiff to flexible, and flexible fits cost most.
				break
			}
		}
		return best, bestScore, nil
	}
	all := make([]int, len(curvatureGrid))
	for i := range all {
		all[i] = i
	}
	bi, score, err := grid(all, true)
	if err != nil {
		return err
	}
	e.curv = curvatureGrid[bi]
	if e.priors != priorsDefault || e.opt.defaultPriors {
		return nil
	}
	// The loose priors, where the held-out windows say so: at the default
	// priors' curvature and the next stiffer one (with a weaker rate prior
	// a curve needs less curvature to bend alike).
	p.setPriors(priorsLoose)
	li, ls, err := grid(all[max(0, bi-1):bi+1], false)
	if err != nil {
		return err
	}
	if ls < (1-looseGain)*score {
		e.priors, e.curv = priorsLoose, curvatureGrid[li]
		st.Priors = fmt.Sprintf("loose: they predict the held-out windows better (score %.0f against %.0f)", ls, score)
	} else {
		p.setPriors(priorsDefault)
	}
	return nil
}

// priorScale is the scale of the clock errors the pre-synchronisation
// leaves, the prior's σ: four times the median |midpoint| of the tenth of
// the two-sided windows with the smallest uncertainty (how far apart the
// pre-synchronised clocks of two domains typically are), and at least
// 1 µs. It keeps a domain near its pre-synchronised clock where only
// wide windows speak for a correction.
func (e *estimator) priorScale() float64 {
	var sig, mids []float64
	for i := range e.bands {
		if e.bands[i].twoSided() {
			sig = append(sig, e.bands[i].sigma)
		}
	}
	one := 1e-6 * float64(e.in.Resolution)
	if len(sig) == 0 {
		return one
	}
	p10 := order.Nth(sig, len(sig)/10)
	for i := range e.bands {
		if b := &e.bands[i]; b.twoSided() && b.sigma <= p10 {
			mids = append(mids, math.Abs(b.mid()))
		}
	}
	return max(one, 4*order.Nth(mids, len(mids)/2))
}

// knotPrior is the weight of the prior at each knot as a fraction of
// 1/prior²: each knot's correction is ≈ 0 with σ prior·√2 (about six times
// the typical |midpoint| of the best windows), loose where narrow windows
// speak and binding where only wide windows or none do. A prior on the
// span's mean alone let a curve swing by several priors within a stretch
// of wide windows: on a real 4-rank MPICH run (collectives only, 4
// emulated clocks) 40 µs in 30 ms, where pre-synchronisation was never
// 11 µs off. Chosen with rateTime on the study's scenarios and on real
// runs with emulated clocks, and checked on others (docs/parameters.md).
const knotPrior = 0.5

// rateTime (seconds) sets the rate prior: a domain's correction changes
// by about prior per rateTime, σ prior/rateTime of slope per segment. It
// keeps the curve from extrapolating a slope across a stretch without
// narrow windows (the swing above ran at 1,500 ppm; the emulated clocks
// wander at 300 ppm at most).
const rateTime = 0.060

// priorLevel says which priors a fit uses.
type priorLevel uint8

const (
	// priorsDefault: knotPrior and rateTime.
	priorsDefault priorLevel = iota
	// priorsLoose: looseKnotPrior and looseRateTime, for clocks that
	// wander faster than the default priors allow; the cross-validation
	// chooses them when they predict the held-out windows better.
	priorsLoose
	// priorsNoRate: looseKnotPrior and no rate prior, when the guard
	// rejects a fit with the others for raising the violations or
	// contradicting the windows (the python-written hybrid archives of
	// the tests: 10–30 µs with periods of 20–60 ms).
	priorsNoRate
)

// looseKnotPrior and looseRateTime replace knotPrior and rateTime in the
// loose priors. Without a rate prior there, a curve of the study's fast
// wander strayed 2 µs beyond pre-synchronisation's largest error at one
// stretch (seeds 909 and 2424).
const (
	looseKnotPrior = 0.05
	looseRateTime  = 4 * rateTime
)

// looseGain is how much better (a share of the default priors' score) the
// loose priors must predict the held-out windows for the cross-validation
// to choose them.
const looseGain = 0.15

// floor is the uncertainty of even the best window (ticks): 10 ns.
func (e *estimator) floor() float64 { return max(2, 10e-9*float64(e.in.Resolution)) }

// cvFolds is the number of folds of the cross-validation that are fitted:
// 1 fits on the even blocks of windows and scores on the odd ones only,
// half the cost of both ways.
const cvFolds = 1

// curvatureGrid are the curvatures fit chooses from.
var curvatureGrid = []float64{1e-4, 1e-3, 1e-2, 1e-1}

// placeKnots lays out the unknowns: per domain (but the reference),
// knots at quantiles of its observations' times.
func (e *estimator) placeKnots(anchors []anchorObs, st *EstimateStats) knots {
	dom := &e.in.Domains
	nd := dom.Count()
	obsT := make([][]int64, nd)
	st.TwoSided = 0
	for i := range e.bands {
		b := &e.bands[i]
		if !b.twoSided() {
			continue
		}
		st.TwoSided++
		obsT[b.p] = append(obsT[b.p], b.t)
		obsT[b.q] = append(obsT[b.q], b.t)
	}
	anchorT := make([][]int64, nd)
	for _, a := range anchors {
		obsT[a.d] = append(obsT[a.d], a.t)
		anchorT[a.d] = append(anchorT[a.d], a.t)
	}
	k := knots{T: make([][]int64, nd), first: make([]int32, nd)}
	gap := max(1, int64(knotGap*float64(e.in.Resolution)))
	par.ForEach(nd, e.opt.Parallel, func(d int) {
		if int32(d) == dom.Ref || len(obsT[d]) == 0 {
			return
		}
		// A knot at every anchor too: the curve may bend where it is
		// known best (a window spanning MPI_Init, placed at its middle,
		// otherwise pulled the first knot before the anchor far off).
		ts := append(placeKnots(obsT[d], e.opt.PerKnot, gap), anchorT[d]...)
		slices.Sort(ts)
		k.T[d] = slices.Compact(ts)
	})
	for d := range nd {
		k.first[d] = -1
		if len(k.T[d]) > 0 {
			k.first[d] = int32(k.n)
			k.n += len(k.T[d])
		}
	}
	return k
}

// placeKnots returns knot times at quantiles of the observation times ts,
// one per perKnot observations but at most spanKnots(ts, gap), the first
// and last observation included.
func placeKnots(ts []int64, perKnot int, gap int64) []int64 {
	slices.Sort(ts)
	n := len(ts)
	kn := max(2, min(n/perKnot, spanKnots(ts[n-1]-ts[0], gap)))
	out := make([]int64, 0, kn)
	for i := range kn {
		j := i * (n - 1) / max(1, kn-1)
		t := ts[j]
		if len(out) == 0 || t > out[len(out)-1] {
			out = append(out, t)
		}
	}
	return out
}

// spanKnots is the most knots a curve over span ticks gets: baseKnots,
// and for a run longer than baseKnots·gap one per gap ticks, but at most
// maxKnots. The fit's cost grows with the knots; a short run gets as many
// as its messages support up to baseKnots (at 10^7 events and 64 domains,
// 840 knots each cost three times as much as 256 and changed nothing),
// and a long run keeps a knot every gap (a fixed 256 left the 0.35–3 s
// wander of a 300 s run unresolved: the fit contradicted 2 % of its
// windows and was rejected).
func spanKnots(span, gap int64) int {
	return int(min(max(baseKnots, span/gap+1), maxKnots))
}

const (
	// baseKnots is the knots any curve may have.
	baseKnots = 256
	// maxKnots bounds the knots of one domain's curve.
	maxKnots = 1 << 16
	// knotGap is the mean spacing of a long run's knots, seconds: a
	// clock's error changes on time scales of a second and more
	// (temperature, NTP's slewing); piecewise linear with a knot every
	// 25 ms follows a wander of period 0.35 s to a few percent.
	knotGap = 0.025
)

// EstimateModel estimates every clock domain's correction of the
// pre-synchronised times from the messages (graph g) and the anchors of
// in, with latencies lat.
func EstimateModel(ctx context.Context, in *Input, times [][]int64, g *replay.Graph, lat replay.Latency, opt EstimateOptions) (*Model, EstimateStats, error) {
	return newEstimator(in, times, g, lat, opt).estimate(ctx, nil)
}

// cvBlock is the number of consecutive windows of a pair that fall in one
// half of the cross-validation.
const cvBlock = 4
