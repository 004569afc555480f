package clc

import (
	"runtime"

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
}

// Result is the outcome of a correction.
type Result struct {
	// Times holds the corrected time of every event, per location.
	Times [][]int64
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
}

// smallerGamma is the γ of the next pass of the control loop: 1−γ ten
// times larger (γ = 1 becomes 0.999).
func smallerGamma(g float64) float64 {
	if g == 1 {
		return 0.999
	}
	return 1 - 10*(1-g)
}

// Gamma returns the γ of the pass whose result was kept.
func (r *Result) Gamma() float64 { return r.Passes[len(r.Passes)-1].Gamma }

// Jumps returns the violations the kept pass corrected.
func (r *Result) Jumps() int64 { return r.Passes[len(r.Passes)-1].Jumps }

// Options are the optional inputs of Correct.
type Options struct {
	// Progress, if not nil, is told what the correction is doing.
	Progress func(stage string)
	// Before, if not nil, is CheckViolations of the input with the same
	// latencies; Correct computes it when it needs it and it is nil.
	Before *measure.Violations
}

// Correct runs the controlled logical clock over t, whose times must be
// pre-synchronised, with the happened-before relation g (replay.Match).
// The trace is not changed: the corrected times are returned.
//
// The forward pass runs as a parallel replay, one goroutine per location.
// If its largest shift exceeds the threshold (Params.MaxShift, or
// automatically ShiftFactor times the largest violation of the input plus
// the inter-node latency), it is repeated with 1−γ ten times larger, at
// most MaxPasses times in all. The backward amortization then runs per
// location in parallel: in shared memory it needs no replay, since the
// send limits are the forward-pass times of the receives, which it only
// reads.
func Correct(t *trace.Trace, g *replay.Graph, p Params, opt *Options) (*Result, error) {
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
	np := p.Parallel
	if np <= 0 {
		np = runtime.GOMAXPROCS(0)
	}
	k := p.InTicks(t.Resolution)
	n := len(t.Locations)
	c := make([][]int64, n)
	node := make([]int32, n)
	lc := make([][]int64, n)
	for i, l := range t.Locations {
		c[i] = l.Events.Time
		node[i] = l.Node
		lc[i] = make([]int64, len(c[i]))
	}
	res := &Result{Times: lc, ReferenceNode: -1}
	// ref[li] says whether location li is on the reference node.
	ref := make([]bool, n)
	if p.TrustReference && n > 0 {
		res.ReferenceNode = node[0]
		for i := range ref {
			ref[i] = node[i] == node[0]
		}
	}
	res.Threshold = ticks(p.MaxShift, t.Resolution)
	if res.Threshold == 0 {
		v := o.Before
		if v == nil {
			cv := measure.ClockCondition(c, g, node, k.Lat, np)
			v = &cv
		}
		res.Threshold = int64(p.ShiftFactor*float64(v.MaxViolation())) + k.Lat.Inter
	}

	gamma, informed := p.Gamma, p.InformedGamma
	outs := make([]locForward, n)
	for pass := 1; ; pass++ {
		progress("forward pass")
		k.OneMinusGamma = 1 - gamma
		k.Informed.OneMinusGamma = 1 - informed
		x := replay.NewShared(g, lc, node, ref, k.Lat)
		kref := k
		kref.OneMinusGamma = 1 - p.ReferenceGamma
		fw := make([]*fwdState, n)
		for li := range fw {
			kn := locKnobs{k: k, informed: p.TrustReference, ref: ref}
			if ref[li] {
				kn = locKnobs{k: kref}
			}
			fw[li] = newForward(li, c[li], lc[li], g.Deps[li], kn)
		}
		err := replay.Run(x, n, np, func(li int) (bool, error) { return fw[li].step(x) })
		if err != nil {
			return nil, err
		}
		for li := range fw {
			outs[li] = fw[li].out
		}
		ps := Pass{Gamma: gamma}
		for i := range outs {
			ps.Jumps += int64(len(outs[i].jumps))
			ps.MaxShift = max(ps.MaxShift, outs[i].maxShift)
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
	}
	for i := range outs {
		for _, d := range outs[i].dropped {
			res.Dropped.Add(d)
		}
	}

	if p.Slope > 0 || p.TrustReference && p.InformedSlope > 0 {
		progress("backward amortization")
		// Send limits first, from the forward-pass times, for every
		// location that has a jump to amortize; then the amortization,
		// which changes the times in place.
		il := make([]instLimits, len(g.Instances))
		par.ForEach(len(g.Instances), np, func(i int) {
			il[i] = buildInstLimits(g, uint32(i), lc, node, k.Lat)
		})
		lims := make([][]sendLimit, n)
		par.ForEach(n, np, func(li int) {
			if len(outs[li].jumps) > 0 && !ref[li] {
				lims[li] = limits(li, g.Deps[li], lc, node, k.Lat, il)
			}
		})
		errs := make([]error, n)
		par.ForEach(n, np, func(li int) {
			if len(outs[li].jumps) > 0 && !ref[li] {
				errs[li] = backward(lc[li], outs[li].jumps, lims[li])
			}
		})
		for li, err := range errs {
			if err != nil {
				return nil, &trace.EventError{Location: li, Event: -1, Err: err}
			}
		}
	}
	return res, nil
}
