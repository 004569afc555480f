package sim

import (
	"math"
	"math/rand/v2"

	"github.com/clc-tools/clc/trace"
)

// clocks is the clock model: node n's clock reads
//
//	C_n(t) = t + round(off_n + drift_n·(t − t0) + w_n(t))
//
// in ticks, where t is the true time in ticks, t0 the start of the run and
// w_n the wander: the sum of three sinusoids, sampled every grid ticks and
// linearly interpolated between samples (smooth enough to be a clock, cheap
// enough for 10^8 events). Node 0 has no error: its clock is the true time.
// C_n never decreases because |d(off + drift·t + w)/dt| < 1/2 (Validate).
//
// With the harder settings (harder.go) two terms join: a multi-scale
// wander (value noise in octaves, see noise) and clock jumps (see jumps),
// both computed from a hash of the seed, the node and the time cell, so
// they need no state and draw nothing from the random streams the other
// terms use.
type clocks struct {
	t0      int64
	grid    int64
	perfect bool
	off     []float64 // ticks, per node
	drift   []float64 // ratio, per node
	amp     []float64 // ticks, 3 per node
	omega   []float64 // radians per tick, 3 per node
	phase   []float64 // radians, 3 per node

	seed      uint64
	noiseP    []float64 // octave periods, ticks
	noiseA    []float64 // octave amplitudes, ticks
	noiseGrid int64     // the noise is sampled every noiseGrid ticks
	jumpEvery int64     // ticks; 0: no jumps
	jumpSize  float64   // ticks
}

// clockCursor caches the wander samples of the last grid cell evaluated,
// the noise samples of the last noise cell and the jumps completed before
// the last jump interval.
type clockCursor struct {
	node   int32
	k      int64
	w0, w1 float64

	nnode  int32
	nk     int64
	n0, n1 float64

	jnode int32
	jk    int64   // jump interval of the last evaluation
	jdone float64 // sum of the jumps of intervals < jk−1
}

func newCursor() clockCursor { return clockCursor{node: -1, nnode: -1, jnode: -1} }

func newClocks(cfg *Config, nodes int, t0 int64, rng *rand.Rand) *clocks {
	c := &clocks{
		t0:    t0,
		off:   make([]float64, nodes),
		drift: make([]float64, nodes),
		amp:   make([]float64, 3*nodes),
		omega: make([]float64, 3*nodes),
		phase: make([]float64, 3*nodes),
	}
	res := float64(cfg.Resolution)
	maxOff := cfg.ClockOffset.Seconds() * res
	maxDrift := cfg.ClockDrift * 1e-6
	wander := cfg.ClockWander.Seconds() * res
	period := cfg.WanderPeriod.Seconds() * res
	c.grid = max(1, int64(period/1024))
	c.seed = uint64(cfg.Seed)
	periods, amps := cfg.noiseOctaves()
	for i := range periods {
		c.noiseP = append(c.noiseP, periods[i]*res)
		c.noiseA = append(c.noiseA, amps[i]*res)
	}
	if len(c.noiseP) > 0 {
		c.noiseGrid = max(1, int64(c.noiseP[0]/16))
	}
	if cfg.ClockJumpEvery > 0 {
		c.jumpEvery = max(1, ticks(cfg.ClockJumpEvery, cfg.Resolution))
		c.jumpSize = cfg.ClockJumpSize.Seconds() * res
	}
	c.perfect = maxOff == 0 && maxDrift == 0 && wander == 0 && len(c.noiseP) == 0 && c.jumpEvery == 0
	for n := 1; n < nodes; n++ {
		c.off[n] = (2*rng.Float64() - 1) * maxOff
		c.drift[n] = (2*rng.Float64() - 1) * maxDrift
		// Three amplitudes adding up to at most the wander amplitude.
		total := wander * (0.5 + 0.5*rng.Float64())
		w := [3]float64{rng.Float64() + 0.1, rng.Float64() + 0.1, rng.Float64() + 0.1}
		sum := w[0] + w[1] + w[2]
		for j := range 3 {
			c.amp[3*n+j] = total * w[j] / sum
			p := period * math.Pow(2, 3*rng.Float64()-1.5)
			c.omega[3*n+j] = 2 * math.Pi / p
			c.phase[3*n+j] = 2 * math.Pi * rng.Float64()
		}
	}
	return c
}

// wanderExact is the sum of node n's sinusoids at t0 + dt.
func (c *clocks) wanderExact(n int32, dt float64) float64 {
	var w float64
	for j := 3 * int(n); j < 3*int(n)+3; j++ {
		if c.amp[j] != 0 {
			w += c.amp[j] * math.Sin(c.omega[j]*dt+c.phase[j])
		}
	}
	return w
}

// errAt returns C_n(t) − t before rounding.
func (c *clocks) errAt(n int32, t int64, cur *clockCursor) float64 {
	dt := t - c.t0
	e := c.off[n] + c.drift[n]*float64(dt)
	if len(c.noiseP) > 0 {
		e += c.noise(n, dt, cur)
	}
	if c.jumpEvery > 0 {
		e += c.jumps(n, dt, cur)
	}
	if c.amp[3*n] == 0 && c.amp[3*n+1] == 0 && c.amp[3*n+2] == 0 {
		return e
	}
	k := floorDiv(dt, c.grid)
	if cur.node != n || cur.k != k {
		cur.node, cur.k = n, k
		cur.w0 = c.wanderExact(n, float64(k*c.grid))
		cur.w1 = c.wanderExact(n, float64((k+1)*c.grid))
	}
	frac := float64(dt-k*c.grid) / float64(c.grid)
	return e + cur.w0 + (cur.w1-cur.w0)*frac
}

func floorDiv(a, b int64) int64 {
	k := a / b
	if a%b < 0 {
		k--
	}
	return k
}

// noise returns node n's multi-scale wander at t0 + dt: sampled every
// noiseGrid ticks and linearly interpolated, like the wander.
func (c *clocks) noise(n int32, dt int64, cur *clockCursor) float64 {
	k := floorDiv(dt, c.noiseGrid)
	if cur.nnode != n || cur.nk != k {
		cur.nnode, cur.nk = n, k
		cur.n0 = c.noiseExact(n, k*c.noiseGrid)
		cur.n1 = c.noiseExact(n, (k+1)*c.noiseGrid)
	}
	frac := float64(dt-k*c.noiseGrid) / float64(c.noiseGrid)
	return cur.n0 + (cur.n1-cur.n0)*frac
}

// noiseExact is the sum of node n's octaves at t0 + dt: octave o takes a
// value uniform in [−a_o, a_o] (a hash of seed, node, octave and cell) at
// every multiple of its period and interpolates linearly in between.
func (c *clocks) noiseExact(n int32, dt int64) float64 {
	var v float64
	for o, p := range c.noiseP {
		f := float64(dt) / p
		k := math.Floor(f)
		ki := int64(k)
		u0 := 2*unit(hash4(c.seed, uint64(n), uint64(o), uint64(ki))) - 1
		u1 := 2*unit(hash4(c.seed, uint64(n), uint64(o), uint64(ki+1))) - 1
		v += c.noiseA[o] * (u0 + (u1-u0)*(f-k))
	}
	return v
}

// jump returns the jump of node n in jump interval k: its position (ticks
// after t0) and size. Every interval of length jumpEvery holds one jump at
// a uniform position, so jumps are jumpEvery apart on average.
func (c *clocks) jump(n int32, k int64) (pos int64, size float64) {
	h := hash4(c.seed^0x6a09e667f3bcc908, uint64(n), 0x4a554d50, uint64(k))
	pos = k*c.jumpEvery + int64(unit(h)*float64(c.jumpEvery))
	h = hash4(h, 1, 2, 3)
	size = c.jumpSize * (0.25 + 0.75*unit(h))
	if hash4(h, 4, 5, 6)&1 == 1 {
		size = -size
	}
	return pos, size
}

// jumpAt is the part of jump (pos, size) in effect at dt: a forward jump
// at once, a backward one slewed at the rate backwardSlew.
func jumpAt(dt, pos int64, size float64) float64 {
	switch {
	case dt < pos:
		return 0
	case size >= 0:
		return size
	}
	return -math.Min(-size, backwardSlew*float64(dt-pos))
}

// jumps returns the sum of node n's jumps in effect at t0 + dt. A slew
// lasts at most half an interval (validateHarder), so the jumps of
// intervals before k−1 are complete; the cursor keeps their sum.
func (c *clocks) jumps(n int32, dt int64, cur *clockCursor) float64 {
	k := floorDiv(dt, c.jumpEvery)
	if k < 0 {
		return 0
	}
	if cur.jnode != n || k < cur.jk {
		cur.jnode, cur.jk, cur.jdone = n, 0, 0
	}
	for ; cur.jk < k; cur.jk++ {
		if cur.jk >= 1 {
			_, s := c.jump(n, cur.jk-1)
			cur.jdone += s
		}
	}
	v := cur.jdone
	for kk := max(k-1, 0); kk <= k; kk++ {
		pos, s := c.jump(n, kk)
		v += jumpAt(dt, pos, s)
	}
	return v
}

// hash4 mixes four words (splitmix64's finalizer, chained).
func hash4(a, b, c, d uint64) uint64 {
	h := a
	for _, x := range [...]uint64{b, c, d} {
		h ^= x + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
		h = mix64(h)
	}
	return h
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }

// local returns node n's clock reading at true time t.
func (c *clocks) local(n int32, t int64, cur *clockCursor) int64 {
	if c.perfect || n == 0 {
		return t
	}
	return t + int64(math.Round(c.errAt(n, t, cur)))
}

// localTimes appends node n's readings of the true times ts to dst.
func (c *clocks) localTimes(dst []int64, n int32, ts []int64) []int64 {
	if c.perfect || n == 0 {
		return append(dst, ts...)
	}
	cur := newCursor()
	for _, t := range ts {
		dst = append(dst, t+int64(math.Round(c.errAt(n, t, &cur))))
	}
	return dst
}

// measure simulates the offset measurement of a location on node n against
// rank 0 (the reference, on node 0, whose clock is the true time), starting
// at true time t: rounds ping-pongs, each message taking its latency (up
// to rank 0, down from it) plus an exponential delay of mean noise (their
// asymmetry is the error), rank 0
// answering after turn ticks. It keeps the round with the smallest
// round-trip time, as Score-P does, and returns it with the true time the
// last round ended.
//
// The estimate is offset = (b1+b2)/2 − (a1+a2)/2 at local time (a1+a2)/2,
// where a1, a2 are the local send and receive readings and b1, b2 the
// reference's receive and reply readings; RTT = (a2−a1) − (b2−b1).
func (c *clocks) measure(rng *rand.Rand, n int32, t, up, down, turn int64, noise float64, rounds int) (trace.ClockOffset, int64) {
	var best trace.ClockOffset
	best.RTT = math.MaxInt64
	cur := newCursor()
	for range rounds {
		l1 := up + int64(rng.ExpFloat64()*noise)
		l2 := down + int64(rng.ExpFloat64()*noise)
		b1 := t + l1
		b2 := b1 + turn
		end := b2 + l2
		a1 := c.local(n, t, &cur)
		a2 := c.local(n, end, &cur)
		rtt := (a2 - a1) - (b2 - b1)
		if rtt < best.RTT {
			best = trace.ClockOffset{
				Time:   a1 + (a2-a1)/2,
				Offset: floorHalf((b1 + b2) - (a1 + a2)),
				RTT:    rtt,
			}
		}
		t = end + turn
	}
	return best, t
}

// floorHalf returns floor(x/2).
func floorHalf(x int64) int64 { return x >> 1 }
