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
type clocks struct {
	t0      int64
	grid    int64
	perfect bool
	off     []float64 // ticks, per node
	drift   []float64 // ratio, per node
	amp     []float64 // ticks, 3 per node
	omega   []float64 // radians per tick, 3 per node
	phase   []float64 // radians, 3 per node
}

// clockCursor caches the wander samples of the last grid cell evaluated.
type clockCursor struct {
	node   int32
	k      int64
	w0, w1 float64
}

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
	c.perfect = maxOff == 0 && maxDrift == 0 && wander == 0
	c.grid = max(1, int64(period/1024))
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
	if c.amp[3*n] == 0 && c.amp[3*n+1] == 0 && c.amp[3*n+2] == 0 {
		return e
	}
	k := dt / c.grid
	if dt%c.grid < 0 {
		k--
	}
	if cur.node != n || cur.k != k {
		cur.node, cur.k = n, k
		cur.w0 = c.wanderExact(n, float64(k*c.grid))
		cur.w1 = c.wanderExact(n, float64((k+1)*c.grid))
	}
	frac := float64(dt-k*c.grid) / float64(c.grid)
	return e + cur.w0 + (cur.w1-cur.w0)*frac
}

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
	cur := clockCursor{node: -1}
	for _, t := range ts {
		dst = append(dst, t+int64(math.Round(c.errAt(n, t, &cur))))
	}
	return dst
}

// measure simulates the offset measurement of a location on node n against
// rank 0 (the reference, on node 0, whose clock is the true time), starting
// at true time t: rounds ping-pongs, each message taking lat plus an
// exponential delay of mean noise (their asymmetry is the error), rank 0
// answering after turn ticks. It keeps the round with the smallest
// round-trip time, as Score-P does, and returns it with the true time the
// last round ended.
//
// The estimate is offset = (b1+b2)/2 − (a1+a2)/2 at local time (a1+a2)/2,
// where a1, a2 are the local send and receive readings and b1, b2 the
// reference's receive and reply readings; RTT = (a2−a1) − (b2−b1).
func (c *clocks) measure(rng *rand.Rand, n int32, t, lat, turn int64, noise float64, rounds int) (trace.ClockOffset, int64) {
	var best trace.ClockOffset
	best.RTT = math.MaxInt64
	cur := clockCursor{node: -1}
	for range rounds {
		l1 := lat + int64(rng.ExpFloat64()*noise)
		l2 := lat + int64(rng.ExpFloat64()*noise)
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
