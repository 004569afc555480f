package clockmodel

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sync"
	"sync/atomic"

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
	// Parallel bounds the goroutines; 0 means one per CPU.
	Parallel int
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
	o.Parallel = par.Workers(o.Parallel)
}

// EstimateStats describe an estimation.
type EstimateStats struct {
	Bounds   int64
	Pairs    int
	Bands    int
	TwoSided int
	Anchors  int
	// AnchorsContradicted counts the offset measurements (merged per
	// domain and epoch) that a fit of the windows alone contradicts,
	// weighed down (refereeAnchors).
	AnchorsContradicted int
	Unknowns            int
	Iterations          []int
	// Misfit is the root mean square of the windows' residuals in units
	// of their uncertainty, after the last pass.
	Misfit float64
	// Curvature is the smoothness chosen by cross-validation.
	Curvature float64
	// Groups counts the pairs of domains and sources (point to point,
	// collective) whose windows share a bias: the asymmetry of their
	// fastest messages.
	Groups int
	// Wander is the prior's scale of the clocks' wander between their
	// anchors, ticks; 0 when the windows give no evidence of it (no group
	// has eight two-sided windows): then nothing bounds a clock between
	// its anchors unless the estimate moved it.
	Wander float64
	// Score is how well the estimate predicts the windows of alternate
	// segments of time from the others (the held-out windows' squared
	// residuals in units of their σ, each at most 25), ScoreStay how well
	// the pre-synchronised clocks do, in the last pass; Stay says the
	// latter is no worse (no evidence to move the clocks).
	Score     float64
	ScoreStay float64
	Stay      bool
	// Passes is the number of passes run: fewer than EstimateOptions'
	// Iterations when the first already found no evidence to move the
	// clocks (Stay, or no significant correction).
	Passes int
	// Knots counts the knots of the estimated curves, HeldKnots those
	// whose correction the messages do not prove (within BarZ standard
	// deviations of 0): held at the pre-synchronised clock.
	Knots     int
	HeldKnots int
}

// estimator holds what the passes share.
type estimator struct {
	in    *Input
	times [][]int64
	g     *replay.Graph
	// dv is the process's share of a divided trace (nil: one process).
	dv    *Division
	lat   replay.Latency
	opt   EstimateOptions
	ga    *gatherer
	p2p   *recList
	span  int64
	bands []band
	// groups are the windows' pairs and sources, each with the
	// uncertainty of its bias (weigh); bias the last fit's biases; noise
	// the groups' noise floors for the next pass (calibrate).
	groups []group
	bias   []float64
	// wander is the prior's scale of the clocks' wander between their
	// anchors (wanderScale), ticks.
	wander float64
	noise  map[groupKey]float64
	// heldOut are the last cross-validation's held-out residuals.
	heldOut []heldResidual
	// curv is the curvature chosen by the first pass's fit.
	curv float64
	// anchors are the merged anchors (anchorObs).
	anchors []anchorObs
	// lists are the last pass's bounds: point to point, collective.
	lists [2]*recList
	// With keepLast, last is the fit of the last pass run (its system with
	// the weights of its final solve; the estimate may stop after its
	// first pass; only a layout keeps it, so that a
	// correction does not hold the system beyond the estimate); prepares
	// counts the preparations of a system for solves (groups' terms,
	// preconditioner, coarse matrix) over all passes.
	keepLast bool
	last     *fitProblem
	prepares int
	// fitted is the last pass's fit and fittedKnots its knots, for setSD
	// during the estimate (released after it, as last is unless kept).
	fitted      *fitProblem
	fittedKnots *knots
	// busy counts the solves running at once (system.busy).
	busy atomic.Int32
}

func newEstimator(in *Input, times [][]int64, g *replay.Graph, lat replay.Latency, opt EstimateOptions, dv *Division) *estimator {
	opt.defaults()
	e := &estimator{in: in, times: times, g: g, lat: lat, opt: opt, dv: dv}
	e.ga = newGatherer(times, g, &in.Domains, opt.Parallel, dv)
	e.span = max(1, 8192*e.ga.bin)
	e.p2p = sortedRecList(e.ga.p2p())
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
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		if it == e.opt.Iterations-1 && lastWindows != nil {
			lastWindows()
		}
		st.Bounds = int64(e.lists[0].len() + e.lists[1].len())
		st.Bands = len(e.bands)
		var iters int
		var err error
		m, iters, err = e.fit(ctx, m, &st, it == e.opt.Iterations-1)
		if err != nil {
			return nil, st, err
		}
		st.Iterations = append(st.Iterations, iters)
		st.Passes = it + 1
		if sig, _ := e.significant(m); it < e.opt.Iterations-1 && (st.Stay || !sig) {
			// No evidence beyond pre-synchronisation in the windows read
			// in the pre-synchronised clocks: the clocks stay, and the
			// passes left are not paid for; the posterior is this
			// pass's, for the error bars.
			if lastWindows != nil {
				lastWindows()
			}
			if err := e.setSD(ctx, m, &st); err != nil {
				return nil, st, err
			}
			break
		}
		if it < e.opt.Iterations-1 {
			e.calibrate() // for the next pass's windows
		}
	}
	e.fitted, e.fittedKnots = nil, nil
	return m, st, nil
}

// windows gathers the collectives' bounds (their latest senders chosen in
// the times corrected by m, nil: none), keeps the bound lists (e.lists)
// and cuts them into the windows of every domain pair (e.bands), read
// relative to m. It returns the number of domain pairs.
func (e *estimator) windows(m *Model) int {
	lists := [2]*recList{e.p2p, sortedRecList(e.ga.collectives(m))}
	e.lists = lists
	prs := pairsOf(lists, &e.in.Domains)
	wo := windowOptions{perSide: e.opt.PerSide, maxSpan: max(1, e.span/32)}
	floor := e.floor()
	parts := make([][2][]band, len(prs))
	sigma := make([][2]float64, len(prs))
	noise := make([][2]float64, len(prs))
	w0 := make([][2]float64, len(prs))
	par.ForEach(len(prs), e.opt.Parallel, func(i int) {
		for src := range uint8(2) {
			parts[i][src] = bands(&prs[i], src, lists, e.lat, m, wo, nil)
			sigma[i][src], noise[i][src], w0[i][src] = weigh(parts[i][src], floor, e.noise[groupKey{prs[i].p, prs[i].q, src}])
		}
	})
	n := 0
	for _, p := range parts {
		n += len(p[0]) + len(p[1])
	}
	e.bands = slices.Grow(e.bands[:0], n)
	e.groups = e.groups[:0]
	for i, p := range parts {
		for src, bs := range p {
			g := int32(-1)
			if sigma[i][src] > 0 { // some band is two-sided
				g = int32(len(e.groups))
				e.groups = append(e.groups, group{p: prs[i].p, q: prs[i].q, src: uint8(src), sigma: sigma[i][src], noise: noise[i][src], w0: w0[i][src]})
			}
			for j := range bs {
				bs[j].group = g
			}
			e.bands = append(e.bands, bs...)
		}
	}
	return len(prs)
}

// unbiased is band b's midpoint without its group's bias as the last fit
// estimated it.
func (e *estimator) unbiased(b *band) float64 {
	if b.group < 0 || int(b.group) >= len(e.bias) {
		return b.mid()
	}
	return b.mid() - e.bias[b.group]
}

// group is a pair of domains p < q and a source of bounds whose windows
// share a bias: the midpoints of its two-sided windows are off δ by the
// same half difference of the two directions' minimum latencies, which
// the messages cannot tell from a clock offset; sigma is its prior
// uncertainty (weigh).
type group struct {
	p, q  int32
	src   uint8
	sigma float64
	// noise is the random uncertainty of even the group's best window,
	// w0 the width of its narrowest two-sided window (weigh).
	noise, w0 float64
}

// groupKey names a group across passes (whose windows differ).
type groupKey struct {
	p, q int32
	src  uint8
}

// calibrate sets each group's noise for the next pass from the
// cross-validation's held-out residuals r (the midpoint against the model
// and its group's bias fitted on the other half of the windows): the
// median of r² − (excess/2)² over the group's windows, the part of the
// residuals their excess does not explain — an estimate of the noise's
// variance that a few windows far off (a congested phase) do not sway and
// that, unlike the fitted windows' own residuals, the fit does not shrink.
func (e *estimator) calibrate() {
	if e.noise == nil {
		e.noise = map[groupKey]float64{}
	}
	floor := e.floor()
	byGroup := map[int32][]float64{}
	for _, h := range e.heldOut {
		b := &e.bands[h.band]
		v := h.r * h.r
		if b.class == srcP2P && b.group >= 0 {
			// A collective window's excess is the waiting of its
			// members, not a bound on its midpoint's error.
			x := b.excess(e.groups[b.group].w0)
			v -= x * x / 4
		}
		byGroup[b.group] = append(byGroup[b.group], v)
	}
	for g, v := range byGroup {
		if g < 0 || len(v) < 4 {
			continue
		}
		gr := &e.groups[g]
		e.noise[groupKey{gr.p, gr.q, gr.src}] = math.Sqrt(math.Max(order.Nth(v, len(v)/2), floor*floor))
	}
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
// picks (chooseCurvature), and then decide, beside the fit, says whether
// the clocks should move at all.
func (e *estimator) fit(ctx context.Context, prev *Model, st *EstimateStats, last bool) (*Model, int, error) {
	// The previous pass's fit is done with (setSD reads only this pass's):
	// its system is not held beside this one's.
	e.fitted, e.fittedKnots = nil, nil
	nd := e.in.Domains.Count()
	anchors := e.anchorObs()
	st.Anchors = len(anchors)
	k := e.placeKnots(anchors, st)
	st.Groups = len(e.groups)
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	e.wander = e.wanderScale()
	st.Wander = e.wander
	if math.IsInf(st.Wander, 1) {
		st.Wander = 0
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	p := e.newFitProblem(&k, anchors)
	defer func() { e.prepares += p.sys.prepared }()
	st.Unknowns = p.sys.n
	x := make([]float64, p.sys.n)
	if prev != nil {
		for d := range nd {
			for i, t := range k.T[d] {
				x[int(k.first[d])+i] = prev.at(int32(d), t)
			}
		}
	}
	if e.opt.Curvature > 0 {
		e.curv = e.opt.Curvature
	} else if err := e.chooseCurvature(ctx, p, x); err != nil {
		return nil, p.iters, err
	}
	st.Curvature = e.curv
	defer func() { p.spare = nil }()
	decided := func() error { return nil }
	if e.opt.Curvature <= 0 {
		decided = e.decideBeside(ctx, p, x, st)
	}
	// The anchors' referee gets twice the fit's own iterations and 50; it
	// runs beside the fit, and waits for its limit only past 50.
	var budget *iterLimit
	refereed := func() error { return nil }
	if !last && e.opt.Iterations > 1 && nd <= maxLevelDomains {
		budget = &iterLimit{floor: 50, known: make(chan struct{})}
		refereed = e.refereeBeside(ctx, p, &k, anchors, budget, st)
	}
	before := p.iters
	err := p.solve(ctx, e.curv, x, 1e-6)
	if budget != nil {
		budget.fix(2*(p.iters-before) + 50)
	}
	// What runs beside the fit ends before fit returns.
	if derr := decided(); err == nil {
		err = derr
	}
	if err == nil || e.opt.Parallel > 1 {
		if rerr := refereed(); err == nil {
			err = rerr
		}
	}
	if err != nil {
		return nil, p.iters, err
	}
	if e.keepLast {
		e.last = p
	}
	st.Misfit = p.misfit(x)
	m := &Model{Curves: make([]Curve, nd)}
	for d := range nd {
		if k.first[d] < 0 {
			continue
		}
		m.Curves[d] = Curve{T: k.T[d], X: x[k.first[d] : int(k.first[d])+len(k.T[d])]}
	}
	e.bias = make([]float64, len(e.groups))
	for gi, g := range p.groupOf {
		e.bias[g] = p.sys.groupBias(gi, x)
	}
	e.fitted, e.fittedKnots = p, &k
	if last {
		if err := e.setSD(ctx, m, st); err != nil {
			return nil, p.iters, err
		}
	}
	return m, p.iters, nil
}

// setSD sets the posterior standard deviations of m's curves, m the
// model of the last fit (e.fitted), scaled by the Birge ratio: where the
// windows scatter about the fit more than their σ say (misfit > 1: the
// clocks wander faster than the knots follow, or the noise was
// underrated), the standard deviations grow by as much, as a least-squares
// fit's parameter uncertainties are scaled by √(χ²/dof) (R. T. Birge,
// "The calculation of errors by the method of least squares", Phys. Rev.
// 40, 1932).
func (e *estimator) setSD(ctx context.Context, m *Model, st *EstimateStats) error {
	p, k := e.fitted, e.fittedKnots
	if p == nil || m == nil {
		return nil
	}
	sd, err := p.posteriorSD(ctx)
	if err != nil {
		return err
	}
	birge := max(1, st.Misfit)
	m.scale = birge
	for d := range m.Curves {
		if k.first[d] >= 0 {
			m.Curves[d].S = sd[k.first[d] : int(k.first[d])+len(k.T[d])]
			for i := range m.Curves[d].S {
				m.Curves[d].S[i] *= birge
			}
		}
	}
	return nil
}

// anchorZ is how many standard deviations (on the anchors' robust scale)
// an offset measurement may lie from what the messages alone say before
// it is weighed down. With 3, a simulated run of 128 nodes (halo and
// allreduce, 254 anchors) had 7 right measurements weighed down, and its
// estimate then failed the held-out test that it passed with them; the
// measurement 5 µs off of TestContradictedAnchor lies at 7.1.
const anchorZ = 5

// refereeBeside runs refereeAnchors (at e.curv, on fit's rows and
// patterns) within budget and returns what waits for it, adds the anchors
// it weighed down to st.AnchorsContradicted and returns its error. With
// more than one worker
// it runs beside what the caller does next (the fit, whose iterations fix
// the budget), else when waited for (after the caller has fixed budget).
// It must be waited for.
func (e *estimator) refereeBeside(ctx context.Context, fit *fitProblem, k *knots, anchors []anchorObs, budget *iterLimit, st *EstimateStats) func() error {
	c := e.curv
	wait := func(n int, err error) error {
		st.AnchorsContradicted += n
		return err
	}
	// The fit's rows and its groups' patterns, found here, before the fit
	// solves (the rows' terms, which the referee reads, stay as built).
	shared := fit.shared()
	if e.opt.Parallel <= 1 {
		return func() error { return wait(e.refereeAnchors(ctx, k, anchors, c, budget, shared)) }
	}
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := e.refereeAnchors(ctx, k, anchors, c, budget, shared)
		done <- result{n, err}
	}()
	return func() error {
		r := <-done
		return wait(r.n, r.err)
	}
}

// sharedRows are a fit problem's rows (nBand windows' and nAnchor
// anchors' first), its groups and their terms with its patterns
// (system.sharedPatterns), for a problem over the same windows and knots
// (newFitProblemOn).
type sharedRows struct {
	rows           []row
	nBand, nAnchor int
	groups         []rowGroup
	lr             []lowRank
}

// shared returns p's rows for another problem, nil when p's own rows are
// shared.
func (p *fitProblem) shared() *sharedRows {
	if p.sys.skip.hi > p.sys.skip.lo {
		return nil
	}
	return &sharedRows{rows: p.sys.rows, nBand: p.nBand, nAnchor: p.nAnchor, groups: p.sys.groups, lr: p.sys.sharedPatterns()}
}

// sameRow reports whether rows a and b are the same, bit for bit.
func sameRow(a, b *row) bool {
	if a.j != b.j || math.Float64bits(a.y) != math.Float64bits(b.y) {
		return false
	}
	for i := range a.c {
		if math.Float64bits(a.c[i]) != math.Float64bits(b.c[i]) {
			return false
		}
	}
	return true
}

// iterLimit is a solve's bound on its iterations that may be fixed only
// while it runs: at least floor until then.
type iterLimit struct {
	floor int
	n     int
	known chan struct{} // closed by fix
}

// fix sets the limit to n (at least floor).
func (l *iterLimit) fix(n int) {
	l.n = n
	close(l.known)
}

// allows reports whether iteration it (counted from 0) is within the
// limit, waiting for fix when that depends on it; a nil limit allows all.
func (l *iterLimit) allows(it int) bool {
	if l == nil || it < l.floor {
		return true
	}
	<-l.known
	return it < l.n
}

// refereeAnchors weighs down the offset measurements that the messages
// contradict, for the passes after this one. It fits the windows alone
// (knots k, curvature c: no anchor and no prior of the pre-synchronised
// clock, only the weak prior on the level), with the posterior standard
// deviation s of that fit (posteriorSD), and compares each anchor's value
// v with the fit x there: z = (v − x)/√(σ² + s²). An anchor with |z| >
// anchorZ times the z's robust scale is an outlier, and gets as σ its
// distance |v − x| from what the messages say: a redescending weight,
// which leaves it little pull where it is far off (a Huber weight,
// σ·|z|/3, left a measurement 5 µs off with σ 36 ns at σ 85 ns, still
// holding the estimate). A
// measurement is a ping-pong; one delayed in one direction, or taken
// across a clock step, is off by far more than its stated σ, and the
// messages around it then say so. Fitting without the anchors is what
// lets them: a fit that includes an anchor of σ 50 ns follows it, and its
// residual shows nothing. Its solve gets budget conjugate-gradient
// iterations (twice the fit's own and 50): without the anchors a level
// that only the weak prior holds makes the system ill-conditioned. It runs
// up to maxLevelDomains domains: at 12,500 domains (100,000 ranks) it
// took 50 s of the clock model's 68 (16 without it), and a start from the
// anchored fit with a looser tolerance weighed down 2,072 of 24,998
// anchors, after which the guard refused the estimate. It returns how
// many anchors it weighed down. Its budget may be fixed while it runs
// (iterLimit). Its problem is laid out on shared's rows (the fit's, over
// the same windows and knots; nil: its own), which are its own but for the
// fit's anchors: it holds only its weights and the solver's state.
func (e *estimator) refereeAnchors(ctx context.Context, k *knots, anchors []anchorObs, c float64, budget *iterLimit, shared *sharedRows) (int, error) {
	if len(anchors) == 0 || len(e.bands) == 0 {
		return 0, nil
	}
	p := e.newFitProblemOn(k, nil, shared)
	p.limit = budget
	defer func() { e.prepares += p.sys.prepared }()
	x := make([]float64, p.sys.n)
	if err := p.solve(ctx, c, x, 1e-6); err != nil {
		return 0, err
	}
	sd, err := p.posteriorSD(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	zs, res := make([]float64, len(anchors)), make([]float64, len(anchors))
	for i := range anchors {
		a := &anchors[i]
		zs[i] = math.NaN()
		r := newRow(0)
		k.terms(&r, a.d, a.t, 1)
		if r.len() == 0 {
			continue
		}
		var fx, s float64
		for j := range r.len() {
			fx += r.c[j] * x[r.j[j]]
			s += r.c[j] * sd[r.j[j]]
		}
		zs[i] = (a.v - fx) / math.Sqrt(a.sigma*a.sigma+s*s)
		res[i] = math.Abs(a.v - fx)
	}
	// The z are judged on their own robust scale (the median |z| over
	// 0.6745, the normal's, at least 1): an outlier is a minority that
	// disagrees with the rest. Where most anchors disagree with the
	// windows alone, the windows' fit is what is off (a level only
	// collectives, with their free biases, speak of).
	abs := make([]float64, 0, len(zs))
	for _, z := range zs {
		if !math.IsNaN(z) {
			abs = append(abs, math.Abs(z))
		}
	}
	if len(abs) == 0 {
		return 0, nil
	}
	scale := max(1, order.Nth(abs, len(abs)/2)/0.6745)
	for i := range anchors {
		if math.Abs(zs[i]) > anchorZ*scale {
			anchors[i].sigma = math.Max(anchors[i].sigma, res[i])
			n++
		}
	}
	return n, nil
}

// fitProblem is one fit's weighted least-squares system over the knots
// and the groups' biases: the two-sided windows' rows first (nBand of
// them), then the anchors', the biases' priors and the smoothness terms,
// with what sets the weights that the curvature gives the last.
type fitProblem struct {
	sys   system
	nBand int
	// first is each domain's first unknown, −1 for a domain without
	// knots (knots.first).
	first []int32
	// nAnchor is the number of anchor rows, after the windows'.
	nAnchor int
	res     float64 // timer ticks per second
	// groupOf is the estimator's group of each of sys.groups; bandOf the
	// band of each window row.
	groupOf, bandOf []int32
	// smooth are the smoothness rows, whose weights are base/curvature².
	smooth  []int32
	base    []float64
	maxIter int
	// limit, if not nil, bounds the iterations of each solve too.
	limit *iterLimit
	iters int // conjugate-gradient iterations so far
	// spare is a fork of p done with, for the next fork (which copies
	// only the window rows' weights, the one thing of the rows that
	// cross-validations change; a solve sets the smoothness rows'); fit
	// drops it at its end.
	spare *fitProblem
}

// newFitProblem lays out the rows of a fit over the knots k and the
// groups' biases (unknowns k.n…): the bands' two-sided windows (midpoint
// = δ plus the group's bias, weight 1/σ²), the anchors, each bias ≈ 0 with
// its group's σ, and the smoothness (the rate change between consecutive
// segments, as an integrated random walk with variance curvature²·h per h
// ticks); a weak ridge (1 s) keeps the system definite.
//
// Nothing else pulls a curve: where no window and no anchor speak, the
// smoothness carries the curve across from where they do, and a domain
// with neither keeps its pre-synchronised clock.
func (e *estimator) newFitProblem(k *knots, anchors []anchorObs) *fitProblem {
	return e.newFitProblemOn(k, anchors, nil)
}

// newFitProblemOn is newFitProblem on the rows of sh (nil: its own), when
// they are the rows it lays out but for sh's anchors': it then holds its
// weights only, and sh's groups' patterns.
func (e *estimator) newFitProblemOn(k *knots, anchors []anchorObs, sh *sharedRows) *fitProblem {
	res := float64(e.in.Resolution)
	ridge := 1 / (res * res)
	n := k.n
	p := &fitProblem{res: res, maxIter: 4*n + 100}
	var rows []row
	if sh == nil {
		rows = make([]row, 0, len(e.bands)+len(anchors)+2*k.n)
	}
	ws := make([]float64, 0, len(e.bands)+len(anchors)+2*k.n)
	// nr counts the rows laid out; on sh's rows, same says whether each
	// was sh's.
	nr, same := 0, true
	emit := func(r row, w float64) {
		if sh == nil {
			rows = append(rows, r)
		} else {
			i := nr
			if i >= sh.nBand {
				i += sh.nAnchor
			}
			same = same && i < len(sh.rows) && sameRow(&sh.rows[i], &r)
		}
		ws = append(ws, w)
		nr++
	}
	var groups []rowGroup
	for i := range e.bands {
		b := &e.bands[i]
		if !b.twoSided() {
			continue
		}
		r := newRow(b.mid())
		k.terms(&r, b.q, b.t, 1)
		k.terms(&r, b.p, b.t, -1)
		if r.len() == 0 {
			continue
		}
		// The bands of a group are consecutive.
		if n := len(groups); n == 0 || p.groupOf[n-1] != b.group {
			// A collective's windows say nothing of the level: its
			// logical messages run through its algorithm's tree, whose
			// asymmetry has no bound the windows show (the member that
			// sends last and the one that receives first change from
			// one instance to the next); their bias is free.
			sg := e.groups[b.group].sigma
			wb := 1 / (sg * sg)
			if b.class == srcColl {
				wb = 0
			}
			groups = append(groups, rowGroup{lo: int32(nr), wb: wb})
			p.groupOf = append(p.groupOf, b.group)
		}
		groups[len(groups)-1].hi = int32(nr) + 1
		emit(r, 1/(b.sigma*b.sigma))
		p.bandOf = append(p.bandOf, int32(i))
	}
	p.nBand = nr
	for _, a := range anchors {
		r := newRow(a.v)
		k.terms(&r, a.d, a.t, 1)
		emit(r, 1/(a.sigma*a.sigma))
	}
	p.nAnchor = nr - p.nBand
	spans := anchorSpans(anchors, len(k.T))
	for d := range k.T {
		ts := k.T[d]
		f := k.first[d]
		for i := 1; i+1 < len(ts); i++ {
			h1, h2 := float64(ts[i]-ts[i-1]), float64(ts[i+1]-ts[i])
			r := row{}
			r.j = [4]int32{f + int32(i) - 1, f + int32(i), f + int32(i) + 1, noTerm}
			r.c = [4]float64{-1 / h1, 1/h1 + 1/h2, -1 / h2}
			w := 1 / ((h1 + h2) / 2)
			p.smooth = append(p.smooth, int32(nr))
			p.base = append(p.base, w)
			emit(r, w)
		}
		// Each knot's correction ≈ 0, the pre-synchronised clock, in two
		// priors added in one row: a weak one on the level (σ levelPrior
		// over the curve, each knot its share of the span), so that a
		// domain whose windows say nothing of its level (their biases
		// free) and that has no anchor stays where pre-synchronisation put
		// it and the system stays definite; and, for a domain with
		// anchors, the prior of the pre-synchronised clock: within its
		// anchors' uncertainty at them and within the scale of the clocks'
		// wander between and beyond them (anchorRange.sigmaAt), at each
		// knot with its share of the span, as if the knots were evenly
		// spaced.
		if len(ts) == 0 {
			continue
		}
		whole := float64(ts[len(ts)-1] - ts[0])
		lp := levelPrior * res
		ad := spans[d]
		pinned := ad.ok && !math.IsInf(e.wander, 1)
		for i := range ts {
			share := 1.0
			if len(ts) > 1 && whole > 0 {
				share = float64(ts[min(i+1, len(ts)-1)]-ts[max(i-1, 0)]) / 2 / whole
			}
			w := ridge + share/(lp*lp)
			if pinned {
				sg := ad.sigmaAt(ts[i], e.wander)
				w += share * float64(len(ts)) / (sg * sg)
			}
			emit(row{j: [4]int32{f + int32(i), noTerm, noTerm, noTerm}, c: [4]float64{1}}, w)
		}
	}
	var skip span
	if sh != nil {
		if !same || nr+sh.nAnchor != len(sh.rows) {
			return e.newFitProblemOn(k, anchors, nil)
		}
		rows, skip = sh.rows, span{int32(sh.nBand), int32(sh.nBand + sh.nAnchor)}
	}
	p.sys = system{rows: rows, skip: skip, w: ws, n: n, np: e.opt.Parallel, at: make([]int64, k.n), groups: groups, busy: &e.busy}
	if sh != nil && slices.Equal(groups, sh.groups) {
		// The windows' rows come first in both, the same rows: so are
		// their groups' patterns.
		p.sys.lr = sh.lr
	}
	p.first = k.first
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

// misfit is the root mean square of the windows' residuals at x (their
// groups' biases removed), in units of their σ.
func (p *fitProblem) misfit(x []float64) float64 {
	var s float64
	for gi, g := range p.sys.groups {
		b := p.sys.groupBias(gi, x)
		for i := g.lo; i < g.hi; i++ {
			r := p.sys.row(int(i))
			d := r.dot(x) + b - r.y
			s += p.sys.w[i] * d * d
		}
	}
	if p.nBand == 0 {
		return 0
	}
	return math.Sqrt(s / float64(p.nBand))
}

// solve fits x (its start) with curvature c, to relative residual tol.
func (p *fitProblem) solve(ctx context.Context, c float64, x []float64, tol float64) error {
	q2 := c * c / p.res
	for i, r := range p.smooth {
		p.sys.w[r] = p.base[i] / q2
	}
	iters, err := p.sys.solve(ctx, x, tol, p.maxIter, p.limit)
	p.iters += iters

	return err
}

// fork returns a copy of p for a solve beside p's (system.fork), its
// iterations and preparations counted apart from p's: p's spare fork, if
// it has one, with the current weights of p's window rows (the others'
// are the same, or the solve sets them: the smoothness), or a new one.
func (p *fitProblem) fork() *fitProblem {
	if q := p.spare; q != nil {
		p.spare = nil
		copy(q.sys.w[:p.nBand], p.sys.w[:p.nBand])
		q.iters, q.sys.prepared = 0, 0
		return q
	}
	q := *p
	q.sys = *p.sys.fork()
	q.iters = 0
	return &q
}

// chooseCurvature sets e.curv to the curvature of curvatureGrid whose fit
// on half of the windows best predicts the other half, the halves
// alternating in blocks of cvBlock windows within each group (so that a
// held-out window has fitted ones close by in time, as an interpolated
// clock has). The first pass searches the grid by decades from
// firstCurvature, more flexible first, a later one by its steps from the
// curvature before, stiffer first; each direction stops at the first
// worse score, and the second is searched only when the first found
// nothing better. A held-out window's
// prediction includes its group's bias as the other half estimates it.
// The held-out residuals of the chosen fit set the groups' noise for the
// next pass (calibrate). x0 is the start of the first fit and of the one
// made ahead of the search; a later fit starts from the fit before it in
// its direction (the curvatures are neighbours, and so are the fits).
// On return x0 holds the chosen fit: the fit on all windows at the same
// curvature starts there.
func (e *estimator) chooseCurvature(ctx context.Context, p *fitProblem, x0 []float64) error {
	out := make([]bool, p.nBand)
	for i := range out {
		out[i] = (i/cvBlock)%2 == 0
	}
	cv := newCrossValidation(p, out, true)
	defer cv.restore()
	fitOn := func(q *fitProblem, qcv *crossValidation, ci int, from []float64) (*fitScore, error) {
		copy(qcv.x, from)
		iters, prepared := q.iters, q.sys.prepared
		// The score needs the fit roughly, not to the last digit.
		if err := q.solve(ctx, curvatureGrid[ci], qcv.x, searchTol); err != nil {
			return nil, err
		}
		return &fitScore{score: qcv.evaluate(), held: qcv.heldOut(), x: slices.Clone(qcv.x), iters: q.iters - iters, prepared: q.sys.prepared - prepared}, nil
	}
	// ahead holds the fits made ahead of the search, by curvature index.
	ahead := make(map[int]*fitScore)
	// score returns the fit of curvature index ci. With more than one
	// worker it fits next (if on the grid; −1: none) beside it, on a fork
	// of p; each fit depends only on its curvature, and the search counts
	// a fit made ahead only when it comes to it. Only the first step's fit
	// is made ahead, the one the search always makes: one made ahead
	// further on would be wasted at the end of every direction, which on
	// a busy machine costs more than the fits beside each other save. The
	// fit made ahead starts from x0, and so does the search's own fit of
	// that curvature when none was made ahead (one worker): the result
	// does not depend on the workers.
	score := func(ci, next int, from []float64) (*fitScore, error) {
		if fs := ahead[ci]; fs != nil {
			delete(ahead, ci)
			p.iters += fs.iters
			p.sys.prepared += fs.prepared
			return fs, nil
		}
		var spec *fitScore
		var wg sync.WaitGroup
		var q *fitProblem
		if e.opt.Parallel > 1 && next >= 0 && next < len(curvatureGrid) && ahead[next] == nil {
			q = p.fork()
			qcv := cv.fork(q)
			wg.Add(1)
			go func() {
				defer wg.Done()
				// A fit ahead that fails is left to the search to make again.
				spec, _ = fitOn(q, qcv, next, x0)
			}()
		}
		fs, err := fitOn(p, cv, ci, from)
		wg.Wait()
		if q != nil {
			p.spare = q
		}
		if spec != nil {
			ahead[next] = spec
		}
		return fs, err
	}
	start := slices.Index(curvatureGrid, firstCurvature)
	if e.curv > 0 {
		start = slices.Index(curvatureGrid, e.curv)
	}
	step := 2
	if e.curv > 0 {
		// A later pass reads its windows in the clocks the pass before
		// estimated, with less wander left to follow: stiffer first.
		step = -1
	}
	best := start
	fs, err := score(start, start+step, x0)
	if err != nil {
		return err
	}
	startX := fs.x
	bestScore, bestHeld, bestX := fs.score, fs.held, fs.x
	for k, dir := range []int{step, -step} {
		if k > 0 && best != start {
			break // it improved in the first direction
		}
		from := startX
		for ci := start + dir; ci >= 0 && ci < len(curvatureGrid); ci += dir {
			if ci == start+step {
				from = x0 // the fit made ahead
			}
			fs, err := score(ci, -1, from)
			if err != nil {
				return err
			}
			if fs.score >= bestScore {
				break
			}
			best, bestScore, bestHeld, bestX = ci, fs.score, fs.held, fs.x
			from = fs.x
		}
	}
	e.curv = curvatureGrid[best]
	copy(x0, bestX)
	e.heldOut = e.heldOut[:0]
	for i := range p.nBand {
		if out[i] {
			e.heldOut = append(e.heldOut, heldResidual{band: p.bandOf[i], r: bestHeld[len(e.heldOut)]})
		}
	}
	return nil
}

// fitScore is a cross-validation's fit at one curvature: its score, its
// held-out residuals (crossValidation.heldOut), the fit itself, and the
// solver's iterations and preparations it took.
type fitScore struct {
	score           float64
	held            []float64
	x               []float64
	iters, prepared int
}

// decideBeside runs decide for p with x as the start, and returns what
// waits for it and returns its error. With more than one worker decide
// runs on a fork of p from a copy of x, beside what the caller does next
// (the fit, which overwrites x), and the fork's iterations and
// preparations are added to p's when it is waited for; else it runs
// before decideBeside returns, on p.
func (e *estimator) decideBeside(ctx context.Context, p *fitProblem, x []float64, st *EstimateStats) func() error {
	if e.opt.Parallel <= 1 {
		err := e.decide(ctx, p, x, st)
		return func() error { return err }
	}
	q := p.fork()
	x0 := slices.Clone(x)
	done := make(chan error, 1)
	go func() { done <- e.decide(ctx, q, x0, st) }()
	return func() error {
		err := <-done
		p.iters += q.iters
		p.sys.prepared += q.sys.prepared
		p.spare = q
		return err
	}
}

// decide sets st.Stay when the estimate, with the chosen curvature, does
// not predict held-out windows better than the pre-synchronised clocks
// themselves (no correction): then the messages hold no evidence beyond
// what pre-synchronisation knows, and the clocks stay. Here the halves
// alternate in segments of time (cvSegments of the span), not
// window by window: a congested phase or a stretch of one-sided traffic
// shifts the midpoints of all windows around it alike, and windows of the
// same stretch on both sides would confirm each other's error.
func (e *estimator) decide(ctx context.Context, p *fitProblem, x0 []float64, st *EstimateStats) error {
	out := make([]bool, p.nBand)
	seg := max(1, e.span/cvSegments)
	for i := range out {
		out[i] = ((e.bands[p.bandOf[i]].t-e.ga.lo)/seg)%2 == 0
	}
	cv := newCrossValidation(p, out, false)
	defer cv.restore()
	clear(cv.x)
	st.ScoreStay = cv.evaluate()
	copy(cv.x, x0)
	if err := p.solve(ctx, e.curv, cv.x, 1e-4); err != nil {
		return err
	}
	st.Score = cv.evaluate()
	st.Stay = st.Score >= st.ScoreStay
	return nil
}

// crossValidation holds one split of a fit's windows: the held-out ones
// lose their weight until restore. weights and held are by held-out
// window, in the order of their rows (which the groups cover in order:
// newFitProblem).
type crossValidation struct {
	p   *fitProblem
	out []bool
	// weights are the held-out windows' own weights.
	weights []float64
	x       []float64
	// held are the held-out windows' residuals of the last evaluation,
	// nil when not kept.
	held []float64
}

// newCrossValidation splits p's windows, out held out; keep says whether
// evaluate keeps the held-out residuals.
func newCrossValidation(p *fitProblem, out []bool, keep bool) *crossValidation {
	n := 0
	for _, o := range out {
		if o {
			n++
		}
	}
	cv := &crossValidation{p: p, out: out, weights: make([]float64, 0, n), x: make([]float64, p.sys.n)}
	if keep {
		cv.held = make([]float64, n)
	}
	w := p.sys.w
	for i, o := range out {
		if o {
			cv.weights = append(cv.weights, w[i])
			w[i] = 0
		}
	}
	return cv
}

// fork returns cv's split for q, a fork of cv.p made while the split
// held (the held-out rows' weights zero in q too): its own x and held-out
// residuals (if cv keeps them).
func (cv *crossValidation) fork(q *fitProblem) *crossValidation {
	f := &crossValidation{p: q, out: cv.out, weights: cv.weights, x: make([]float64, len(cv.x))}
	if cv.held != nil {
		f.held = make([]float64, len(cv.held))
	}
	return f
}

// heldOut returns the held-out windows' residuals of the last evaluation,
// in the order of their rows.
func (cv *crossValidation) heldOut() []float64 { return slices.Clone(cv.held) }

// restore gives the held-out windows their weights back.
func (cv *crossValidation) restore() {
	k := 0
	for i, o := range cv.out {
		if o {
			cv.p.sys.w[i] = cv.weights[k]
			k++
		}
	}
}

// evaluate scores the held-out windows against cv.x: Σ min(w·r², 25) over
// their residuals r, each including its group's bias as the fitted half
// estimates it at cv.x; and the anchors (all fitted) alike: a curve too
// stiff to pass both its anchors and its windows does not pass.
func (cv *crossValidation) evaluate() float64 {
	p := cv.p
	var score float64
	for i := p.nBand; i < p.nBand+p.nAnchor; i++ {
		r := p.sys.row(i)
		d := r.dot(cv.x) - r.y
		score += math.Min(p.sys.w[i]*d*d, 25)
	}
	k := 0 // the held-out window's place
	for gi, g := range p.sys.groups {
		b := p.sys.groupBias(gi, cv.x)
		for i := g.lo; i < g.hi; i++ {
			if !cv.out[i] {
				continue
			}
			r := p.sys.row(int(i))
			d := r.dot(cv.x) + b - r.y
			if cv.held != nil {
				cv.held[k] = d
			}
			score += math.Min(cv.weights[k]*d*d, 25)
			k++
		}
	}
	return score
}

// heldResidual is a window's residual in the cross-validation, as the
// other half of the windows predicted it.
type heldResidual struct {
	band int32
	r    float64
}

// floor is the uncertainty of even the best window (ticks): 10 ns.
func (e *estimator) floor() float64 { return max(2, 10e-9*float64(e.in.Resolution)) }

// cvBlock is the number of consecutive windows of a group that fall in one
// half of the cross-validation that chooses the curvature.
const cvBlock = 4

// cvSegments is the number of segments of time the halves of the
// cross-validation that decides whether to move alternate in: half a
// short run's knots (baseKnots), so that a held-out stretch spans about
// two knot spacings of its curve, one knot that no fitted window touches
// bridged from the evidence on either side, as the estimate bridges a
// stretch without messages. With 32 segments a held-out stretch left 8
// knots to the smoothness prior alone, which tests the curve's reach
// past what it is used for: on recordings with strong wander the test
// then kept pre-synchronised clocks that the estimate brought 3–5 times
// closer to the truth. Measured on every source of true times
// (docs/accuracy.md) against 32, 64, 256, 512 and two knot spacings of
// each trace's own curves; 128 was the best on the recordings and
// changed no simulated trace for the worse but one, by 0.02.
const cvSegments = baseKnots / 2

// searchTol is the relative residual at which the curvature search's
// fits stop (the final fit goes on to 10⁻⁶): its scores rank the
// curvatures, and a fit warm-started from the one before (the first
// pass's curves, in the second pass) gets there in few iterations. At
// 10⁻⁴ the second pass's search took 176 iterations on a 10^7-event
// trace with 100 µs of wander, at 3·10⁻⁴ 18, and its final fit 237
// instead of 324 (the model stage 3.8–4.0 → 2.9–3.1 s). Measured on every
// source of true times (docs/performance.md): the recordings' table
// unchanged, clcsim's (seeds 1–4) within 0.003 in geometric mean with 3
// traces better and 1 worse by more than 0.01, and no trace's error bars
// wider or narrower by more than 1.5 times. At 10⁻³ five traces' bars
// moved by 2–11 times: the bars of the traces the model leaves alone
// follow the curvature the search stops at.
const searchTol = 3e-4

// curvatureGrid are the curvatures fit chooses from, stiff to flexible:
// how fast a clock's rate changes, per √s (1e-8: 0.01 ppm; a crystal at a
// steady temperature, up to 1e-1 for the fastest wander the simulator
// makes).
var curvatureGrid = []float64{1e-8, 3e-8, 1e-7, 3e-7, 1e-6, 3e-6, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1}

// anchorRange is the span of a domain's anchors and their uncertainty at
// its ends.
type anchorRange struct {
	ok         bool
	t0, t1     int64
	sig0, sig1 float64
}

// anchorSpans returns the first and last anchor of each of nd domains,
// in one pass over the anchors.
func anchorSpans(anchors []anchorObs, nd int) []anchorRange {
	out := make([]anchorRange, nd)
	for _, a := range anchors {
		r := &out[a.d]
		if !r.ok || a.t < r.t0 {
			r.t0, r.sig0 = a.t, a.sigma
		}
		if !r.ok || a.t > r.t1 {
			r.t1, r.sig1 = a.t, a.sigma
		}
		r.ok = true
	}
	return out
}

// sigmaAt is the prior uncertainty of the pre-synchronised clock at t:
// the anchors' (interpolated) at and between them, and a wander of scale
// w that peaks half-way between them (a bridge, 4u(1−u) of w² for the
// share u of the way) and grows beyond them with the distance in spans.
func (r *anchorRange) sigmaAt(t int64, w float64) float64 {
	span := float64(r.t1 - r.t0)
	var a, b float64
	switch {
	case t <= r.t0:
		a = r.sig0
		if span > 0 {
			b = float64(r.t0-t) / span
		} else {
			b = 1
		}
	case t >= r.t1:
		a = r.sig1
		if span > 0 {
			b = float64(t-r.t1) / span
		} else {
			b = 1
		}
	default:
		u := float64(t-r.t0) / span
		a = r.sig0 + u*(r.sig1-r.sig0)
		b = 4 * u * (1 - u)
	}
	return math.Sqrt(a*a + b*w*w)
}

// wanderScale is the scale of the clocks' wander that the prior of the
// pre-synchronised clocks allows between their anchors (anchorRange): the
// spread of the better half of each group's windows' midpoints around
// their median (how far the pre-synchronised clocks of two domains move
// apart over the run), divided by √2 for one domain, times wanderFactor.
func (e *estimator) wanderScale() float64 {
	var dev, sig []float64
	for lo := 0; lo < len(e.bands); {
		g := e.bands[lo].group
		hi := lo + 1
		for hi < len(e.bands) && e.bands[hi].group == g {
			hi++
		}
		sig = sig[:0]
		for i := lo; i < hi; i++ {
			if b := &e.bands[i]; b.twoSided() {
				sig = append(sig, b.sigma)
			}
		}
		if g >= 0 && len(sig) >= 8 {
			cut := order.Nth(sig, len(sig)/2)
			var mids []float64
			for i := lo; i < hi; i++ {
				if b := &e.bands[i]; b.twoSided() && b.sigma <= cut {
					mids = append(mids, b.mid())
				}
			}
			med := order.Nth(slices.Clone(mids), len(mids)/2)
			for _, m := range mids {
				dev = append(dev, math.Abs(m-med))
			}
		}
		lo = hi
	}
	if len(dev) == 0 {
		return math.Inf(1) // no evidence of the scale: no prior
	}
	return math.Max(wanderFactor*order.Nth(dev, len(dev)/2)/math.Sqrt2, e.floor())
}

// wanderFactor scales the median deviation of the best windows' midpoints
// into the prior's wander scale: the prior must let the curves follow a
// wander several times the typical deviation (its peaks).
const wanderFactor = 4

// levelPrior is the σ of the weak prior on each domain's level, seconds:
// far beyond any error pre-synchronisation leaves where a clock was
// measured, and about what an unmeasured clock may be off.
const levelPrior = 0.01

// firstCurvature is where the first pass's search of curvatureGrid
// starts: 1 ppm per √s, between the steady crystal and the fastest wander.
const firstCurvature = 1e-6

// placeKnots lays out the unknowns: per domain (but the reference),
// knots at quantiles of its observations' times.
func (e *estimator) placeKnots(anchors []anchorObs, st *EstimateStats) knots {
	dom := &e.in.Domains
	nd := dom.Count()
	// Windows far wider than a domain's typical one (a bound across
	// MPI_Init, a message stuck in a congested phase) place no knot: a
	// knot there, before the first anchor say, would let the curve carry
	// the slope of its neighbours out where nothing supports it.
	sig := make([][]float64, nd)
	st.TwoSided = 0
	for i := range e.bands {
		b := &e.bands[i]
		if !b.twoSided() {
			continue
		}
		st.TwoSided++
		sig[b.p] = append(sig[b.p], b.sigma)
		sig[b.q] = append(sig[b.q], b.sigma)
	}
	cut := make([]float64, nd)
	for d, v := range sig {
		if len(v) > 0 {
			cut[d] = wideWindow * order.Nth(v, len(v)/2)
		}
	}
	obsT := make([][]int64, nd)
	for i := range e.bands {
		b := &e.bands[i]
		if !b.twoSided() {
			continue
		}
		if b.sigma <= cut[b.p] {
			obsT[b.p] = append(obsT[b.p], b.t)
		}
		if b.sigma <= cut[b.q] {
			obsT[b.q] = append(obsT[b.q], b.t)
		}
	}
	anchorT := make([][]int64, nd)
	for _, a := range anchors {
		obsT[a.d] = append(obsT[a.d], a.t)
		anchorT[a.d] = append(anchorT[a.d], a.t)
	}
	k := knots{T: make([][]int64, nd), first: make([]int32, nd)}
	gap := max(1, int64(knotGap*float64(e.in.Resolution)))
	minGap := max(1, int64(minKnotGap*float64(e.in.Resolution)))
	par.ForEach(nd, e.opt.Parallel, func(d int) {
		if int32(d) == dom.Ref || len(obsT[d]) == 0 {
			return
		}
		// A knot at every anchor too: the curve may bend where it is
		// known best (a window spanning MPI_Init, placed at its middle,
		// otherwise pulled the first knot before the anchor far off).
		ts := append(placeKnots(obsT[d], e.opt.PerKnot, gap), anchorT[d]...)
		slices.Sort(ts)
		k.T[d] = spaced(ts, minGap)
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

// wideWindow is how many times its median σ a window of a domain may
// have and still place a knot of the domain's curve.
const wideWindow = 4

// spaced drops from the ascending times ts each one closer than gap to
// the last one kept (the last time is always kept, in place of a kept one
// closer than gap before it). Knots a few ticks apart would make the
// smoothness terms between them, whose coefficients grow as 1/h², swamp
// everything else in the normal matrix; a clock's error does not change
// on that scale.
func spaced(ts []int64, gap int64) []int64 {
	out := ts[:0]
	for i, t := range ts {
		switch {
		case len(out) == 0 || t-out[len(out)-1] >= gap:
			out = append(out, t)
		case i == len(ts)-1 && len(out) > 1:
			out[len(out)-1] = t
		}
	}
	return out
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
	// minKnotGap is the least spacing of a curve's knots, seconds.
	minKnotGap = 0.001
)

// EstimateModel estimates every clock domain's correction of the
// pre-synchronised times from the messages (graph g) and the anchors of
// in, with latencies lat.
func EstimateModel(ctx context.Context, in *Input, times [][]int64, g *replay.Graph, lat replay.Latency, opt EstimateOptions) (*Model, EstimateStats, error) {
	return newEstimator(in, times, g, lat, opt, nil).estimate(ctx, nil)
}
