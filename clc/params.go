// Package clc implements the controlled logical clock (Becker, Rabenseifner,
// Wolf, Linford, Parallel Computing 35 (2009)) over the parallel replay of
// package replay: the forward amortization (Eq. 4 and 4′, with the
// collective extensions), the backward amortization with piecewise-linear
// interpolation bounded by send limits, the multi-pass γ control, and the
// statistics of the report.
//
// docs/algorithm.md describes the algorithm as implemented and every
// deviation from the paper and from Scalasca.
package clc

import (
	"fmt"
	"math"
	"time"

	"github.com/clc-tools/clc/replay"
)

// Params are the parameters of the correction.
type Params struct {
	// LatencyIntra and LatencyInter are the minimum message latencies μ
	// within a node and across nodes (Options.Latency replaces them with a
	// μ in ticks, as clc-correct's choice is).
	LatencyIntra, LatencyInter time.Duration
	// LatencyShared is μ of the shared-memory relations between the
	// threads of a process (fork, join, barriers, locks, tasks, thread
	// creation); 0 by default, so a thread's event may carry the time of
	// the event that enabled it.
	LatencyShared time.Duration
	// Gamma is the forward amortization factor γ ∈ (0, 1]: after a jump,
	// the corrected clock runs at γ times the speed of the original one
	// until it meets it again.
	Gamma float64
	// TrustReference treats the locations on the reference node — the node
	// of location 0, whose clock the pre-synchronisation maps every other
	// clock onto — as exact: a jump there is amortized forward with
	// ReferenceGamma instead of Gamma, and not backward at all, since
	// their events before and after it were right. (A jump there can only
	// come from a sender that is ahead.)
	TrustReference bool
	// ReferenceGamma is γ on the reference node when TrustReference is set.
	ReferenceGamma float64
	// InformedGamma and InformedSlope replace Gamma and Slope for a jump
	// whose send term is attained by a sender on the reference node (with
	// TrustReference): such a jump measures the receiver's own clock error,
	// which its neighbouring events share, so it is amortized slowly and
	// over a long window.
	InformedGamma float64
	InformedSlope float64
	// Delta is the minimal step δ between successive events of a location.
	// It never exceeds the original step, so events with equal times may
	// keep them. 0 means one tick.
	Delta time.Duration
	// Slope is the slope m of the backward amortization ramp: a jump Δ is
	// spread over the Δ/m before the receive. 0 disables the backward
	// amortization.
	Slope float64
	// MaxPasses bounds the forward passes of the γ control; 1 disables it.
	MaxPasses int
	// MaxShift is the largest forward shift (corrected − original time)
	// the γ control accepts before it repeats the forward pass with a
	// smaller γ. 0 means automatic: ShiftFactor times the largest
	// clock-condition violation of the input, plus the inter-node latency.
	MaxShift time.Duration
	// ShiftFactor scales the automatic MaxShift.
	ShiftFactor float64
}

// DefaultParams returns the defaults chosen by measurement
// (docs/parameters.md).
func DefaultParams() Params {
	return Params{
		LatencyIntra:   300 * time.Nanosecond,
		LatencyInter:   1 * time.Microsecond,
		Gamma:          0.99,
		TrustReference: true,
		ReferenceGamma: 0,
		InformedGamma:  0.9999,
		InformedSlope:  0.00001,
		Delta:          100 * time.Nanosecond,
		Slope:          0.1,
		MaxPasses:      4,
		ShiftFactor:    4,
	}
}

// Validate checks the parameters.
func (p *Params) Validate() error {
	switch {
	case p.LatencyIntra < 0 || p.LatencyInter < 0 || p.LatencyShared < 0:
		return fmt.Errorf("latencies must not be negative (intra %v, inter %v, shared %v)", p.LatencyIntra, p.LatencyInter, p.LatencyShared)
	case p.LatencyIntra > p.LatencyInter:
		return fmt.Errorf("intra-node latency %v exceeds inter-node latency %v", p.LatencyIntra, p.LatencyInter)
	case !(p.Gamma > 0 && p.Gamma <= 1):
		return fmt.Errorf("gamma %v outside (0, 1]", p.Gamma)
	case !(p.ReferenceGamma >= 0 && p.ReferenceGamma <= 1):
		return fmt.Errorf("reference gamma %v outside [0, 1]", p.ReferenceGamma)
	case !(p.InformedGamma > 0 && p.InformedGamma <= 1):
		return fmt.Errorf("informed gamma %v outside (0, 1]", p.InformedGamma)
	case !(p.InformedSlope >= 0 && p.InformedSlope < math.Inf(1)):
		return fmt.Errorf("informed backward slope %v must be ≥ 0", p.InformedSlope)
	case p.Delta < 0:
		return fmt.Errorf("delta %v is negative", p.Delta)
	case !(p.Slope >= 0 && p.Slope < math.Inf(1)):
		return fmt.Errorf("backward slope %v must be ≥ 0", p.Slope)
	case p.MaxPasses < 1:
		return fmt.Errorf("max passes %d must be ≥ 1", p.MaxPasses)
	case p.MaxShift < 0:
		return fmt.Errorf("max shift %v is negative", p.MaxShift)
	case !(p.ShiftFactor >= 0 && p.ShiftFactor < math.Inf(1)):
		return fmt.Errorf("shift factor %v must be a number ≥ 0", p.ShiftFactor)
	}
	return nil
}

// ticks converts a duration into ticks of a timer with res ticks per second,
// rounding to the nearest tick.
func ticks(d time.Duration, res uint64) int64 {
	return int64(math.Round(float64(d) * float64(res) / 1e9))
}

// Ticks holds the parameters converted to timer ticks.
type Ticks struct {
	Lat   replay.Latency
	Delta int64
	// OneMinusGamma is 1−γ.
	OneMinusGamma float64
	Slope         float64
	// Informed is 1−γ and the slope for a jump caused by a reference
	// sender (see Params.InformedGamma); Informed.OneMinusGamma < 0 means
	// no such treatment.
	Informed struct {
		OneMinusGamma float64
		Slope         float64
	}
}

// InTicks converts p for a timer of res ticks per second.
func (p *Params) InTicks(res uint64) Ticks {
	d := ticks(p.Delta, res)
	if d <= 0 {
		d = 1
	}
	k := Ticks{
		Lat:           replay.Latency{Intra: ticks(p.LatencyIntra, res), Inter: ticks(p.LatencyInter, res), Shared: ticks(p.LatencyShared, res)},
		Delta:         d,
		OneMinusGamma: 1 - p.Gamma,
		Slope:         p.Slope,
	}
	k.Informed.OneMinusGamma, k.Informed.Slope = 1-p.InformedGamma, p.InformedSlope
	return k
}
