package sim

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/clc-tools/clc/trace"
)

// Config describes one simulated run. The zero value is not usable: start
// from DefaultConfig and change what you need.
type Config struct {
	// Ranks is the number of MPI ranks (locations), at least 1.
	Ranks int
	// RanksPerNode is the number of consecutive ranks that share a node
	// (and its clock): rank r is on node r / RanksPerNode.
	RanksPerNode int
	// Steps is the number of steps; each step runs every pattern of
	// Patterns once, in order. When Steps is 0, it is derived from Events.
	Steps int
	// Events is the approximate total number of events wanted; used only
	// when Steps is 0: steps run until the total is within half a step of it
	// (at least one step).
	Events int64
	// Patterns lists the communication patterns of one step (see
	// PatternNames). A pattern may appear more than once.
	Patterns []string

	// LatencyIntra and LatencyInter are the minimum message latencies
	// within a node and between nodes. No message (and no logical message
	// of a collective) arrives faster.
	LatencyIntra time.Duration
	LatencyInter time.Duration
	// Bandwidth is the transfer rate in bytes per second; a message of b
	// bytes takes b/Bandwidth on top of its latency. 0 means infinite.
	Bandwidth float64
	// Jitter is the mean of the exponentially distributed extra latency
	// added to every message.
	Jitter time.Duration
	// SendOverhead is the time a send call spends after its send event
	// before it returns (eager protocol: sends never wait for receivers).
	SendOverhead time.Duration
	// CallOverhead is the mean time between consecutive events of one
	// rank inside MPI calls (each gap is uniform in [0.5, 1.5]·CallOverhead).
	CallOverhead time.Duration
	// Compute is the mean duration of a compute phase (each is uniform in
	// [0.5, 1.5]·Compute, one in a hundred five times longer).
	Compute time.Duration
	// LaunchSkew is the largest difference between the ranks' start times.
	LaunchSkew time.Duration

	// ClockOffset is the largest |offset| of a node's clock at the start
	// (uniform in [-ClockOffset, ClockOffset]; node 0 has none).
	ClockOffset time.Duration
	// ClockDrift is the largest |drift| of a node's clock in parts per
	// million (uniform in [-ClockDrift, ClockDrift]).
	ClockDrift float64
	// ClockWander is the largest amplitude of a node clock's non-linear
	// wander: a sum of three sinusoids whose amplitudes add up to at most
	// ClockWander.
	ClockWander time.Duration
	// WanderPeriod is the typical period of the wander sinusoids (each is
	// WanderPeriod·2^u with u uniform in [-1.5, 1.5]).
	WanderPeriod time.Duration
	// OffsetNoise is the mean of the exponentially distributed extra
	// one-way latency of each ping-pong message of an offset measurement;
	// the asymmetry between the two directions is the measurement error.
	OffsetNoise time.Duration
	// OffsetRounds is the number of ping-pong rounds per offset
	// measurement; the round with the smallest round-trip time is kept.
	OffsetRounds int

	// Threads is the number of threads per rank (1, or 0: a pure MPI
	// program).
	// With more, every compute phase is an OpenMP parallel region of the
	// rank's threads (threads.go, docs/sim.md).
	Threads int
	// ThreadLatency is the true time a thread hand-over takes at least
	// (fork → team begin, release → next acquisition, barrier entry →
	// exit, task creation → start, …).
	ThreadLatency time.Duration

	// What real clusters do to clocks and messages besides offset, drift
	// and one wander (docs/sim.md, "Harder clocks and networks"). All are
	// off in DefaultConfig; their JSON fields are omitted when off, so the
	// default traces stay byte for byte what they were.

	// ClockNoise is the largest amplitude of a multi-scale wander: value
	// noise in octaves whose periods double from NoisePeriodMin up to
	// NoisePeriodMax, each octave's amplitude proportional to the square
	// root of its period (like a random walk), all adding up to at most
	// ClockNoise. 0: none.
	ClockNoise     time.Duration `json:",omitempty"`
	NoisePeriodMin time.Duration `json:",omitempty"`
	NoisePeriodMax time.Duration `json:",omitempty"`
	// ClockJumpEvery is the mean time between clock jumps (NTP steps) of
	// each node but node 0; 0: none. A jump's size is uniform in
	// [ClockJumpSize/4, ClockJumpSize], its sign random. A forward jump
	// is a step; a backward one is a fast slew (the clock runs at 3/4
	// speed for 4 times the jump) so that readings never decrease, as
	// trace formats require.
	ClockJumpEvery time.Duration `json:",omitempty"`
	ClockJumpSize  time.Duration `json:",omitempty"`
	// LatencyAsymmetry makes inter-node latencies depend on the direction:
	// each node gets a send and a receive delay, uniform in
	// [0, LatencyAsymmetry·LatencyInter], added to every inter-node
	// message it sends or receives (and to the offset ping-pongs), so
	// that a→b and b→a differ. The minimum latency stays LatencyInter.
	LatencyAsymmetry float64 `json:",omitempty"`
	// Congestion is the share of time (in phases of CongestionPeriod) in
	// which the network is congested: every inter-node message, and every
	// collective, sent in such a phase takes an extra delay of
	// CongestionDelay·(1/2 + an exponential of mean 1). 0: never.
	Congestion       float64       `json:",omitempty"`
	CongestionDelay  time.Duration `json:",omitempty"`
	CongestionPeriod time.Duration `json:",omitempty"`
	// SilenceLength is the duration of the "silence" pattern: every rank
	// computes that long without communicating (I/O, a serial phase).
	SilenceLength time.Duration `json:",omitempty"`
	// OffsetRecords says which offset measurements are recorded: "" or
	// "both" (at MPI_Init and MPI_Finalize), "init", "finalize" or
	// "none". The ping-pongs take place either way (the truth does not
	// change).
	OffsetRecords string `json:",omitempty"`
	// OffsetMissing is the probability that a rank other than 0 records
	// no offset measurement at all (a failed measurement).
	OffsetMissing float64 `json:",omitempty"`

	// Resolution is the timer resolution in ticks per second.
	Resolution uint64
	// Seed makes the run reproducible: the same Config gives the same trace.
	Seed int64
	// FlushEvents is the number of buffered events (over all ranks) after
	// which Run hands them to the sinks. 0 means DefaultFlushEvents or 64
	// per rank, whichever is more.
	FlushEvents int
}

// DefaultPatterns returns the default step: an SMG2000-like stencil code
// with a halo exchange before and after a residual allreduce, one rotating
// world collective, one rotating collective on row or column
// sub-communicators, random pairwise exchanges and a master–worker round
// with ANY_SOURCE.
func DefaultPatterns() []string {
	return []string{"halo", "allreduce", "halo", "coll", "subcoll", "pairs", "master"}
}

// DefaultConfig returns the defaults documented in docs/sim.md.
func DefaultConfig() Config {
	return Config{
		Ranks:         16,
		RanksPerNode:  4,
		Events:        100_000,
		Patterns:      DefaultPatterns(),
		LatencyIntra:  500 * time.Nanosecond,
		LatencyInter:  2 * time.Microsecond,
		Bandwidth:     10e9,
		Jitter:        200 * time.Nanosecond,
		SendOverhead:  300 * time.Nanosecond,
		CallOverhead:  50 * time.Nanosecond,
		Compute:       50 * time.Microsecond,
		LaunchSkew:    100 * time.Microsecond,
		ClockOffset:   time.Millisecond,
		ClockDrift:    10,
		ClockWander:   2 * time.Microsecond,
		WanderPeriod:  time.Second,
		OffsetNoise:   200 * time.Nanosecond,
		OffsetRounds:  10,
		Threads:       1,
		ThreadLatency: 100 * time.Nanosecond,
		Resolution:    1_000_000_000,
		Seed:          1,
	}
}

// PerfectClocks turns the clock error off: every node's clock is the true
// time. Offset measurements still carry their (ping-pong) noise unless
// OffsetNoise is 0 too.
func (c *Config) PerfectClocks() {
	c.ClockOffset, c.ClockDrift, c.ClockWander = 0, 0, 0
	c.ClockNoise, c.ClockJumpEvery = 0, 0
}

// patternKinds are the names Patterns may use, besides the collective
// operations' names.
var patternKinds = []string{"ring", "halo", "pairs", "master", "coll", "subcoll", "silence"}

// collPatternOps are the collective operations a single-op pattern may name
// (trace.CollOp.String(): "barrier", "bcast", … "reduce_scatter_block"), in
// the order the rotating "coll" and "subcoll" patterns go through them.
var collPatternOps = []trace.CollOp{
	trace.OpBarrier, trace.OpBcast, trace.OpScatter, trace.OpScatterv,
	trace.OpGather, trace.OpGatherv, trace.OpReduce, trace.OpAllgather,
	trace.OpAllgatherv, trace.OpAlltoall, trace.OpAlltoallv, trace.OpAlltoallw,
	trace.OpAllreduce, trace.OpReduceScatter, trace.OpReduceScatterBlock,
	trace.OpScan, trace.OpExscan,
}

// PatternNames returns every name Config.Patterns accepts: "ring" (blocking
// ring), "halo" (2-D halo exchange with Irecv/Isend and Waitall, Waitany or
// Waitsome), "pairs" (random pairs, Sendrecv or Send/Recv), "master"
// (master–worker with ANY_SOURCE), "coll" (one world collective per step,
// rotating through every operation), "subcoll" (the same on the row or
// column communicators of MPI_Comm_split), "silence" (every rank computes
// for Config.SilenceLength, no messages), and one name per collective
// operation ("barrier", "bcast", …) for that operation on the world
// communicator.
func PatternNames() []string {
	out := append([]string(nil), patternKinds...)
	for _, op := range collPatternOps {
		out = append(out, op.String())
	}
	return out
}

func lookupOp(name string) (trace.CollOp, bool) {
	for _, op := range collPatternOps {
		if op.String() == name {
			return op, true
		}
	}
	return 0, false
}

// Validate reports the first problem of the configuration.
func (c *Config) Validate() error {
	switch {
	case c.Ranks < 1:
		return fmt.Errorf("ranks %d: need at least 1", c.Ranks)
	case c.Ranks > math.MaxInt32:
		return fmt.Errorf("ranks %d: at most %d", c.Ranks, math.MaxInt32)
	case c.RanksPerNode < 1:
		return fmt.Errorf("ranks per node %d: need at least 1", c.RanksPerNode)
	case c.Steps < 0:
		return fmt.Errorf("steps %d: negative", c.Steps)
	case c.Steps == 0 && c.Events <= 0:
		return errors.New("neither steps nor events given: need one of them positive")
	case len(c.Patterns) == 0:
		return errors.New("no patterns")
	case c.Resolution == 0:
		return errors.New("resolution is 0 ticks per second")
	case c.Resolution > 1e12:
		return fmt.Errorf("resolution %d ticks/s: at most 1e12", c.Resolution)
	case c.Bandwidth < 0 || math.IsNaN(c.Bandwidth) || math.IsInf(c.Bandwidth, 0):
		return fmt.Errorf("bandwidth %g bytes/s: must be finite and not negative (0 = infinite)", c.Bandwidth)
	case c.ClockDrift < 0 || c.ClockDrift >= 1e5 || math.IsNaN(c.ClockDrift):
		return fmt.Errorf("clock drift %g ppm: must be in [0, 100000)", c.ClockDrift)
	case c.OffsetRounds < 1:
		return fmt.Errorf("offset rounds %d: need at least 1", c.OffsetRounds)
	case c.FlushEvents < 0:
		return fmt.Errorf("flush events %d: negative", c.FlushEvents)
	case c.Threads < 0 || c.Threads > MaxThreads:
		return fmt.Errorf("threads %d: need 1 to %d (0 means 1)", c.Threads, MaxThreads)
	case int64(c.Ranks)*int64(c.Threads) > math.MaxInt32:
		return fmt.Errorf("ranks %d × threads %d: at most %d locations", c.Ranks, c.Threads, math.MaxInt32)
	case c.ClockWander > 0 && c.WanderPeriod <= 0:
		return fmt.Errorf("wander period %v: must be positive when the wander is on", c.WanderPeriod)
	}
	if err := c.validateHarder(); err != nil {
		return err
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"intra-node latency", c.LatencyIntra}, {"inter-node latency", c.LatencyInter},
		{"jitter", c.Jitter}, {"send overhead", c.SendOverhead}, {"call overhead", c.CallOverhead},
		{"compute", c.Compute}, {"launch skew", c.LaunchSkew}, {"clock offset", c.ClockOffset},
		{"clock wander", c.ClockWander}, {"offset noise", c.OffsetNoise}, {"thread latency", c.ThreadLatency},
		{"clock noise", c.ClockNoise}, {"noise period min", c.NoisePeriodMin}, {"noise period max", c.NoisePeriodMax},
		{"clock jump interval", c.ClockJumpEvery}, {"clock jump size", c.ClockJumpSize},
		{"congestion delay", c.CongestionDelay}, {"congestion period", c.CongestionPeriod},
		{"silence length", c.SilenceLength},
	} {
		if d.v < 0 {
			return fmt.Errorf("%s %v: negative", d.name, d.v)
		}
		if d.v > time.Hour {
			return fmt.Errorf("%s %v: more than an hour", d.name, d.v)
		}
	}
	for i, p := range c.Patterns {
		if !validPattern(p) {
			return fmt.Errorf("pattern %d %q: unknown (known: %s)", i+1, p, strings.Join(PatternNames(), ", "))
		}
	}
	// The clock must run forward: dC/dt = 1 + drift + wander' stays above
	// 1/2 (also what keeps recorded times monotonic after rounding).
	slope := c.ClockDrift * 1e-6
	if c.ClockWander > 0 {
		// Shortest period is WanderPeriod·2^-1.5; amplitudes add up to ClockWander.
		slope += 2 * math.Pi * c.ClockWander.Seconds() / (c.WanderPeriod.Seconds() * math.Pow(2, -1.5))
	}
	slope += c.noiseSlope()
	if slope >= 0.5 {
		return fmt.Errorf("clock drift %g ppm with wander %v over period %v makes the clock rate deviate by up to %.3g: must stay under 0.5", c.ClockDrift, c.ClockWander, c.WanderPeriod, slope)
	}
	return nil
}

func validPattern(p string) bool {
	for _, k := range patternKinds {
		if p == k {
			return true
		}
	}
	_, ok := lookupOp(p)
	return ok
}

// ParsePatterns splits a comma-separated list of pattern names, ignoring
// blanks around names.
func ParsePatterns(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		if !validPattern(f) {
			return nil, fmt.Errorf("unknown pattern %q (known: %s)", f, strings.Join(PatternNames(), ", "))
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no pattern in %q", s)
	}
	return out, nil
}

// ticks converts a duration to ticks of the resolution, rounded to nearest.
func ticks(d time.Duration, res uint64) int64 {
	return int64(math.Round(float64(d) * float64(res) / 1e9))
}

// ticksCeil converts a duration to ticks, rounded up (used for minimum
// latencies, so that no message is faster than the configured minimum).
func ticksCeil(d time.Duration, res uint64) int64 {
	x := float64(d) * float64(res) / 1e9
	c := math.Ceil(x)
	// Guard against 1e-9 noise making an exact tick count one too big.
	if c-x > 1-1e-9 {
		c--
	}
	return int64(c)
}
