package clc

import (
	"cmp"
	"context"
	"slices"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Pass describes one forward pass of the γ control loop.
type Pass struct {
	Gamma float64
	// Jumps is the number of receives the pass moved (violations corrected).
	Jumps int64
	// MaxShift is the largest corrected − original time of the pass, in ticks.
	MaxShift int64
	// SharedJumps counts the jumps a shared-memory relation caused (the
	// receive moved with another thread of its process).
	SharedJumps int64
}

// Result is the outcome of a correction.
type Result struct {
	// Times holds the corrected time of every event, per location. Correct
	// fills it; CorrectInPlace leaves it nil (the corrected times are in
	// the columns it was given).
	Times [][]int64
	// Moved lists, per location, the events whose time the correction
	// changed, with their times before it.
	Moved []Moved
	// Passes lists the forward passes; the last one's result was kept.
	Passes []Pass
	// Threshold is the largest forward shift the γ control accepted, in ticks.
	Threshold int64
	// ReferenceNode is the node whose locations were trusted
	// (Params.TrustReference), or -1.
	ReferenceNode int32
	// Dropped lists receives whose dependency was dropped because it was
	// part of a happened-before cycle.
	Dropped replay.Issues
	// Exchanged is, in a divided correction (Options.Comm), what this
	// process's forward passes exchanged (summed over the passes; the
	// supersteps the same on every process), and the backward pass's
	// receive times in Bytes; nil for one process.
	Exchanged *replay.SuperstepStats
}

// Moved records what a correction changed on one location: the time before
// the correction of every event it moved. While few events move it lists
// them (sparse: Idx ascending, Before[k] the time of event Idx[k]); once
// more than a quarter of the events have moved it keeps the whole column of
// times before the correction instead (dense: Orig), which then costs less
// than the list. The correction only moves events later.
type Moved struct {
	Idx    []uint32
	Before []int64
	Orig   []int64
}

// denseAbove is the share of events above which Moved keeps a whole
// column instead of a list (a list entry costs 12 bytes, a column 8 bytes
// per event), and denseMin the number of events below which it never does.
const (
	denseAbove = 4
	denseMin   = 1024
)

// Dense reports whether m keeps the whole column of times before.
func (m *Moved) Dense() bool { return m.Orig != nil }

// Original returns the time of every event before the correction: Orig in
// dense mode, times itself when nothing moved, otherwise a new column made
// from times and the list. The result must not be changed.
func (m *Moved) Original(times []int64) []int64 {
	if m.Orig != nil {
		return m.Orig
	}
	if len(m.Idx) == 0 {
		return times
	}
	o := append(make([]int64, 0, len(times)), times...)
	for k, i := range m.Idx {
		o[i] = m.Before[k]
	}
	return o
}

// add records that event i, whose time in t is still before, moves; events
// are added in ascending order (the forward pass).
func (m *Moved) add(i int, before int64, t []int64) {
	if m.Orig != nil {
		return
	}
	m.Idx = append(m.Idx, uint32(i))
	m.Before = append(m.Before, before)
	if len(t) >= denseMin && len(m.Idx) > len(t)/denseAbove {
		m.densify(t, nil)
	}
}

// densify switches to dense mode. t holds the current times; later lists
// the changes made since the list was last in order (the backward pass's,
// in the order they were made), which are undone first.
func (m *Moved) densify(t []int64, later *Moved) {
	o := append(make([]int64, 0, len(t)), t...)
	if later != nil {
		for k := len(later.Idx) - 1; k >= 0; k-- {
			o[later.Idx[k]] = later.Before[k]
		}
	}
	for k, i := range m.Idx {
		o[i] = m.Before[k]
	}
	m.Orig, m.Idx, m.Before = o, nil, nil
}

// restore puts the times before the correction back into t and empties m.
func (m *Moved) restore(t []int64) {
	if m.Orig != nil {
		copy(t, m.Orig)
	} else {
		for k, i := range m.Idx {
			t[i] = m.Before[k]
		}
	}
	*m = Moved{Idx: m.Idx[:0], Before: m.Before[:0]}
}

// backwardLog collects the backward pass's changes of one location on top
// of the forward pass's Moved: unordered, possibly several per event.
type backwardLog struct {
	m     *Moved
	t     []int64
	later Moved
}

// shift adds d ≥ 0 to event k.
func (b *backwardLog) shift(k int, d int64) {
	if d <= 0 {
		return
	}
	if b.m.Orig == nil {
		b.later.Idx = append(b.later.Idx, uint32(k))
		b.later.Before = append(b.later.Before, b.t[k])
		if len(b.t) >= denseMin && len(b.m.Idx)+len(b.later.Idx) > len(b.t)/denseAbove {
			b.m.densify(b.t, &b.later)
			b.later = Moved{}
		}
	}
	b.t[k] += d
}

// finish merges the backward pass's changes into m. Of several changes to
// one event the earliest tells its time before the correction: the forward
// pass's (m, ascending), else the backward pass's first.
func (b *backwardLog) finish() {
	m := b.m
	if m.Orig != nil || len(b.later.Idx) == 0 {
		return
	}
	type ch struct {
		idx    uint32
		before int64
	}
	later := make([]ch, len(b.later.Idx))
	for k, i := range b.later.Idx {
		later[k] = ch{i, b.later.Before[k]}
	}
	// Stable: the changes to one event stay in the order they were made.
	slices.SortStableFunc(later, func(x, y ch) int { return cmp.Compare(x.idx, y.idx) })
	idx := make([]uint32, 0, len(m.Idx)+len(later))
	before := make([]int64, 0, len(m.Idx)+len(later))
	i, j := 0, 0
	for i < len(m.Idx) || j < len(later) {
		var c ch
		if j == len(later) || i < len(m.Idx) && m.Idx[i] <= later[j].idx {
			c = ch{m.Idx[i], m.Before[i]}
			i++
		} else {
			c = later[j]
		}
		for j < len(later) && later[j].idx == c.idx {
			j++
		}
		idx = append(idx, c.idx)
		before = append(before, c.before)
	}
	m.Idx, m.Before = idx, before
}

// smallerGamma is the γ of the next pass of the control loop: 1−γ ten
// times larger (γ = 1 becomes 0.999).
func smallerGamma(g float64) float64 {
	if g == 1 {
		return 0.999
	}
	return 1 - 10*(1-g)
}

// satisfied reports whether times with clock condition v and the
// locations' order sorted need no correction.
func satisfied(v *measure.Violations, sorted []bool) bool {
	if v.Total().Violations != 0 || v.SharedTotal().Violations != 0 {
		return false
	}
	return !slices.Contains(sorted, false)
}

// Unmoved reports whether the correction moved no event.
func (r *Result) Unmoved() bool {
	for i := range r.Moved {
		if m := &r.Moved[i]; m.Orig != nil || len(m.Idx) > 0 {
			return false
		}
	}
	return true
}

// Gamma returns the γ of the pass whose result was kept.
func (r *Result) Gamma() float64 { return r.Passes[len(r.Passes)-1].Gamma }

// Jumps returns the violations the kept pass corrected.
func (r *Result) Jumps() int64 { return r.Passes[len(r.Passes)-1].Jumps }

// Options are the optional inputs of Correct.
type Options struct {
	// Progress, if not nil, is told what the correction is doing.
	Progress func(stage string)
	// Latency, if not nil, is μ in ticks, replacing Params' latencies
	// (their Shared too).
	Latency *replay.Latency
	// Parallel bounds the goroutines of the parallel phases other than
	// the replay's scheduler; 0 means one per CPU.
	Parallel int
	// Before, if not nil, is measure.ClockCondition.Violations of the
	// input with the same latencies; Correct computes it when it needs it
	// and it is nil. When it says that nothing violates the clock
	// condition and no location's times decrease, Correct returns at once:
	// nothing moves.
	Before *measure.Violations
	// Context, if not nil, cancels the correction: it then stops within
	// a few thousand events of each location's work and returns the
	// context's error, leaving the times partly corrected.
	Context context.Context
	// Comm, with more than one process, divides the correction among
	// its processes: Part[li] is location li's process, and this process
	// corrects its own locations (the forward passes as supersteps,
	// replay.Divided; the backward amortization after one exchange of
	// the receive times that crossing sends need). The own locations'
	// columns hold their input times; the others' are overwritten with
	// what crosses. Result.Moved is filled for the own locations only,
	// the passes and Dropped are every process's. Nil: one process.
	Comm comm.Comm
	Part []int32
	// Pos, with Comm, says that the columns of other processes' locations
	// hold only the events that this process's messages and collective
	// instances reach (their sends and receives to and from own
	// locations, every member's events of the instances with an own
	// member), and that the graph refers to those events by their
	// position there: Pos returns an event's position, false if the
	// column does not hold it. Nil: every column is whole.
	Pos func(loc int32, idx uint32) (uint32, bool)
}

// Correct runs the controlled logical clock over t, whose times must be
// pre-synchronised, with the happened-before relation g (replay.Match).
// The trace is not changed: the corrected times are returned in
// Result.Times. It copies every time column; CorrectInPlace does not.
func Correct(t *trace.Trace, g *replay.Graph, p Params, opt *Options) (*Result, error) {
	in := Input{Resolution: t.Resolution, Times: make([][]int64, len(t.Locations)), Node: make([]int32, len(t.Locations)),
		Follow: Leader(t, g)}
	for i, l := range t.Locations {
		in.Times[i] = append(make([]int64, 0, len(l.Events.Time)), l.Events.Time...)
		in.Node[i] = l.Node
	}
	res, err := CorrectInPlace(in, g, p, opt)
	if err != nil {
		return nil, err
	}
	res.Times = in.Times
	return res, nil
}

// Input is what CorrectInPlace corrects: one time column per location,
// the locations' nodes and the timer resolution.
type Input struct {
	Times      [][]int64
	Node       []int32
	Resolution uint64
	// Follow gives, per location, the location whose correction it
	// follows (Leader: a passive location follows its process's master),
	// or −1; nil means none follows.
	Follow []int32
}

// CorrectInPlace runs the controlled logical clock over in.Times, whose
// times must be pre-synchronised, with the happened-before relation g
// (replay.Match), and replaces them by the corrected times. Result.Moved
// lists the events that moved, with their times before.
//
// The forward pass runs as a parallel replay: each location is a
// resumable task, run by a worker per CPU. A location whose clock has
// caught up with its original times (no jump being amortized) and whose
// times do not decrease skips to its next logical send or receive: nothing
// between them can move. If the largest shift exceeds the threshold
// (Params.MaxShift, or automatically ShiftFactor times the largest
// violation of the input plus the inter-node latency), the moved times are
// restored and the pass is repeated with 1−γ ten times larger, at most
// MaxPasses times in all. The backward amortization then runs per location
// in parallel: in shared memory it needs no replay, since the send limits
// are the forward-pass times of the receives, which it only reads.
func CorrectInPlace(in Input, g *replay.Graph, p Params, opt *Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	var o Options
	if opt != nil {
		o = *opt
	}
	progress := o.Progress
	if progress == nil {
		progress = func(string) {}
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	k := p.InTicks(in.Resolution)
	if o.Latency != nil {
		k.Lat = *o.Latency
	}
	np := par.Workers(o.Parallel)
	times, node := in.Times, in.Node
	n := len(times)
	res := &Result{ReferenceNode: -1, Moved: make([]Moved, n)}
	// ref[li] says whether location li is on the reference node.
	ref := make([]bool, n)
	if p.TrustReference && n > 0 {
		res.ReferenceNode = node[0]
		for i := range ref {
			ref[i] = node[i] == node[0]
		}
	}
	res.Threshold = ticks(p.MaxShift, in.Resolution)
	if res.Threshold == 0 {
		v := o.Before
		if v == nil {
			cv := measure.ClockCondition{Graph: g, Node: node, Latency: k.Lat, Parallel: np}.Violations(times)
			v = &cv
		}
		res.Threshold = int64(p.ShiftFactor*float64(v.MaxViolation())) + k.Lat.Inter
	}
	sorted := make([]bool, n)
	par.ForEach(n, np, func(li int) { sorted[li] = slices.IsSorted(times[li]) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.Before != nil && satisfied(o.Before, sorted) {
		// Nothing violates and no location runs backward: every event's
		// controlled logical clock is its own time (the forward pass
		// would find no jump, so nothing to amortize either).
		res.Passes = []Pass{{Gamma: p.Gamma}}
		return res, nil
	}

	dv, err := newDivision(o.Comm, o.Part, n)
	if err != nil {
		return nil, err
	}
	gamma, informed := p.Gamma, p.InformedGamma
	outs := make([]locForward, n)
	var last *replay.Divided // the last forward pass's exchange, divided
	for pass := 1; ; pass++ {
		progress("forward pass")
		k.OneMinusGamma = 1 - gamma
		k.Informed.OneMinusGamma = 1 - informed
		x := replay.NewShared(g, times, node, ref, k.Lat)
		kref := k
		kref.OneMinusGamma = 1 - p.ReferenceGamma
		fw := make([]*fwdState, n)
		for li := range fw {
			kn := locKnobs{k: k, informed: p.TrustReference, ref: ref}
			if ref[li] {
				kn = locKnobs{k: kref}
			}
			fw[li] = newForward(li, times[li], sorted[li], g.Deps[li], g.Instances, kn, &res.Moved[li])
			fw[li].ctx = ctx
		}
		if dv != nil {
			last, err = replay.NewDivided(x, dv.c, dv.part)
			if last != nil {
				last.Pos = o.Pos
			}
			if err == nil {
				err = last.Run(ctx, np, func(li int) (bool, error) { return fw[li].step(last) })
			}
		} else {
			err = replay.Run(x, n, np, func(li int) (bool, error) { return fw[li].step(x) })
		}
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		if err != nil {
			return nil, err
		}
		if last != nil {
			if res.Exchanged == nil {
				res.Exchanged = new(replay.SuperstepStats)
			}
			s := res.Exchanged
			s.Supersteps += last.Stats.Supersteps
			s.Times += last.Stats.Times
			s.Contributions += last.Stats.Contributions
			s.Bytes += last.Stats.Bytes
		}
		for li := range fw {
			if dv.owns(li) {
				outs[li] = fw[li].out
			}
		}
		ps := Pass{Gamma: gamma}
		for i := range outs {
			ps.Jumps += int64(len(outs[i].jumps))
			ps.MaxShift = max(ps.MaxShift, outs[i].maxShift)
			for _, jp := range outs[i].jumps {
				if jp.Shared {
					ps.SharedJumps++
				}
			}
		}
		if err := dv.sumPass(ctx, &ps); err != nil {
			return nil, err
		}
		res.Passes = append(res.Passes, ps)
		if ps.MaxShift <= res.Threshold || pass >= p.MaxPasses {
			break
		}
		next := smallerGamma(gamma)
		if next <= 0 {
			break
		}
		gamma, informed = next, max(smallerGamma(informed), 0)
		if err := par.Do(ctx, n, np, func(li int) error {
			if dv.owns(li) {
				res.Moved[li].restore(times[li])
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	if err := dv.dropped(ctx, outs, &res.Dropped); err != nil {
		return nil, err
	}

	if p.Slope > 0 || p.TrustReference && p.InformedSlope > 0 {
		progress("backward amortization")
		if last != nil {
			// The receive times that the own locations' sends need.
			b0 := last.Stats.Bytes
			if err := last.ShareReceives(ctx); err != nil {
				return nil, err
			}
			res.Exchanged.Bytes += last.Stats.Bytes - b0
		}
		// Send limits first, from the forward-pass times, for every
		// location that has a jump to amortize; then the amortization,
		// which changes the times in place.
		il := make([]instLimits, len(g.Instances))
		var receivers func(uint32) replay.Agg
		if last != nil {
			receivers = last.ReceiversAgg
		}
		err := par.Do(ctx, len(g.Instances), np, func(i int) error {
			if dv.member(g, uint32(i)) {
				il[i] = buildInstLimits(g, uint32(i), times, node, k.Lat, receivers)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		lims := make([][]sendLimit, n)
		err = par.Do(ctx, n, np, func(li int) error {
			if len(outs[li].jumps) > 0 && !ref[li] {
				lims[li] = limits(li, g.Deps[li], times, node, k.Lat, il)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		errs := make([]error, n)
		err = par.Do(ctx, n, np, func(li int) error {
			if len(outs[li].jumps) > 0 && !ref[li] {
				bl := &backwardLog{m: &res.Moved[li], t: times[li]}
				errs[li] = backward(ctx, times[li], outs[li].jumps, lims[li], bl.shift)
				bl.finish()
			}
			return nil
		})
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		if err != nil {
			return nil, err
		}
		var failed error
		for li, err := range errs {
			if err != nil {
				failed = &trace.EventError{Location: li, Event: -1, Err: err}
				break
			}
		}
		if err := dv.agree(ctx, failed); err != nil {
			return nil, err
		}
	}
	followProcesses(ctx, in, res, sorted, np, dv.owns)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return res, nil
}
