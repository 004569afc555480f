package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/clc-tools/clc/trace"
)

// Defaults of the harder clock and network settings when their Config
// field is 0 (the fields stay 0 in DefaultConfig so that its JSON, and the
// traces, do not change).
const (
	defaultNoisePeriodMin   = time.Millisecond
	defaultNoisePeriodMax   = 10 * time.Second
	defaultCongestionPeriod = time.Millisecond
	defaultSilenceLength    = 100 * time.Millisecond
	// backwardSlew is the rate at which a backward jump is applied: the
	// clock runs at 1 − backwardSlew of its speed for |jump|/backwardSlew.
	backwardSlew = 0.25
)

// OffsetRecordNames are the values Config.OffsetRecords accepts.
var OffsetRecordNames = []string{"both", "init", "finalize", "none"}

// noisePeriods returns the octave periods of the multi-scale wander.
func (c *Config) noisePeriods() (lo, hi time.Duration) {
	lo, hi = c.NoisePeriodMin, c.NoisePeriodMax
	if lo == 0 {
		lo = defaultNoisePeriodMin
	}
	if hi == 0 {
		hi = defaultNoisePeriodMax
	}
	return lo, hi
}

// noiseOctaves returns the periods (s) and amplitudes (s) of the octaves of
// the multi-scale wander: periods doubling from the minimum up to the
// maximum, amplitudes proportional to √period and adding up to ClockNoise.
func (c *Config) noiseOctaves() (periods, amps []float64) {
	if c.ClockNoise <= 0 {
		return nil, nil
	}
	lo, hi := c.noisePeriods()
	var sum float64
	for p := lo.Seconds(); p <= hi.Seconds()*(1+1e-9) && len(periods) < 64; p *= 2 {
		periods = append(periods, p)
		amps = append(amps, math.Sqrt(p))
		sum += math.Sqrt(p)
	}
	for i := range amps {
		amps[i] *= c.ClockNoise.Seconds() / sum
	}
	return periods, amps
}

// noiseSlope bounds the rate of change of the multi-scale wander: an
// octave interpolates values in [−a, a] spaced by its period p, so its
// slope is at most 2a/p.
func (c *Config) noiseSlope() float64 {
	periods, amps := c.noiseOctaves()
	var s float64
	for i := range periods {
		s += 2 * amps[i] / periods[i]
	}
	return s
}

// validateHarder checks the harder clock and network settings.
func (c *Config) validateHarder() error {
	lo, hi := c.noisePeriods()
	switch {
	case c.ClockNoise > 0 && (lo <= 0 || hi < lo):
		return fmt.Errorf("noise periods %v to %v: want 0 < min ≤ max", lo, hi)
	case c.ClockJumpEvery > 0 && c.ClockJumpSize <= 0:
		return fmt.Errorf("clock jumps every %v need a positive jump size", c.ClockJumpEvery)
	case c.ClockJumpEvery > 0 && 8*c.ClockJumpSize > c.ClockJumpEvery:
		return fmt.Errorf("clock jump size %v: at most 1/8 of the jump interval %v (a backward jump's slew must end before the next)", c.ClockJumpSize, c.ClockJumpEvery)
	case !(c.LatencyAsymmetry >= 0 && c.LatencyAsymmetry <= 100):
		return fmt.Errorf("latency asymmetry %g: want a factor in [0, 100]", c.LatencyAsymmetry)
	case !(c.Congestion >= 0 && c.Congestion <= 1):
		return fmt.Errorf("congestion %g: want a share of time in [0, 1]", c.Congestion)
	case !(c.OffsetMissing >= 0 && c.OffsetMissing <= 1):
		return fmt.Errorf("offset missing %g: want a probability in [0, 1]", c.OffsetMissing)
	}
	for _, n := range OffsetRecordNames {
		if c.OffsetRecords == n || c.OffsetRecords == "" {
			return nil
		}
	}
	return fmt.Errorf("offset records %q: want one of %v", c.OffsetRecords, OffsetRecordNames)
}

// silence: every rank computes for Config.SilenceLength without any
// message (a serial or I/O phase). 2 events per rank.
func (e *engine) silence() {
	d := e.cfg.SilenceLength
	if d == 0 {
		d = defaultSilenceLength
	}
	dt := ticks(d, e.cfg.Resolution)
	for r := range e.n {
		e.enter(r, regCompute)
		e.now[r] += dt
		e.leave(r, regCompute)
	}
}

// recordedOffsets appends to dst the offset measurements rank r records
// (Config.OffsetRecords, Config.OffsetMissing: whether a rank misses its
// measurements is a hash of the seed and the rank, so it draws nothing).
func (e *engine) recordedOffsets(dst []trace.ClockOffset, r int) []trace.ClockOffset {
	if r != 0 && e.cfg.OffsetMissing > 0 &&
		unit(hash4(uint64(e.cfg.Seed)^0x6d697373696e6721, uint64(r), 0, 0)) < e.cfg.OffsetMissing {
		return dst
	}
	switch e.cfg.OffsetRecords {
	case "init":
		return append(dst, e.offsets[2*r])
	case "finalize":
		return append(dst, e.offsets[2*r+1])
	case "none":
		return dst
	}
	return append(dst, e.offsets[2*r], e.offsets[2*r+1])
}
