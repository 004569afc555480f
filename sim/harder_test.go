package sim

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// harder returns a configuration with every harder setting on.
func harder() Config {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Steps = 24, 4, 8
	cfg.Compute = 2 * time.Millisecond
	cfg.ClockNoise = 5 * time.Microsecond
	cfg.ClockJumpEvery, cfg.ClockJumpSize = 20*time.Millisecond, 20*time.Microsecond
	cfg.LatencyAsymmetry = 0.5
	cfg.Congestion, cfg.CongestionDelay = 0.3, 20*time.Microsecond
	cfg.SilenceLength = 30 * time.Millisecond
	cfg.Patterns = append(DefaultPatterns(), "silence")
	cfg.OffsetMissing = 0.3
	return cfg
}

// The harder settings keep the truth consistent (the independent checker,
// with the configured minimum latencies), the recorded times ordered and
// the output deterministic; off, they leave the configuration's JSON (and
// so the default traces) as they were.
func TestHarderConsistentAndDeterministic(t *testing.T) {
	cfg := harder()
	rec, truth := generate(t, cfg)
	checkConsistent(t, cfg, rec, truth)
	rec2, truth2 := generate(t, cfg)
	require.True(t, reflect.DeepEqual(rec, rec2), "same seed, different recorded traces")
	require.True(t, reflect.DeepEqual(truth, truth2), "same seed, different truths")
	var js map[string]any
	require.NoError(t, json.Unmarshal([]byte(rec.Properties["clc-sim.config"]), &js))
	assert.Contains(t, js, "ClockNoise", "the recorded configuration holds the harder settings")
	def, _ := generate(t, DefaultConfig())
	for _, k := range []string{"ClockNoise", "ClockJumpEvery", "LatencyAsymmetry", "Congestion", "SilenceLength", "OffsetRecords", "OffsetMissing"} {
		assert.NotContains(t, def.Properties["clc-sim.config"], k, "the default configuration's JSON")
	}
}

// With threads, the harder settings keep the hybrid run's truth and its
// recorded shared-memory order (threads read their node's clock, jumps
// included) and give every thread its rank's offset records, or none.
func TestHarderWithThreads(t *testing.T) {
	cfg := harder()
	cfg.Ranks, cfg.RanksPerNode, cfg.Threads, cfg.Steps = 8, 2, 3, 6
	checkHybridTruth(t, cfg)
}

// The clock settings (noise, jumps) do not change the truth; asymmetry and
// congestion do (they are latencies), but never make a message faster
// than the minimum latency (checked by checkConsistent above).
func TestHarderClocksLeaveTheTruth(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.Steps = 12, 6
	_, t1 := generate(t, cfg)
	cfg.ClockNoise = 3 * time.Microsecond
	cfg.ClockJumpEvery, cfg.ClockJumpSize = 5*time.Millisecond, 10*time.Microsecond
	_, t2 := generate(t, cfg)
	require.NoError(t, sameEvents(t1, t2))
	for li := range t1.Locations {
		require.Equal(t, t1.Locations[li].Events.Time, t2.Locations[li].Events.Time, "location %d: the truth's times with the clock settings", li)
	}
}

// The multi-scale noise alone stays within its amplitude; jumps alone show
// as steps of the configured size; readings never decrease.
func TestNoiseAndJumps(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Steps = 8, 2, 10
	cfg.PerfectClocks()
	cfg.ClockNoise = 4 * time.Microsecond
	cfg.NoisePeriodMin, cfg.NoisePeriodMax = 100*time.Microsecond, 100*time.Millisecond
	rec, truth := generate(t, cfg)
	var largest int64
	for li, l := range rec.Locations {
		for j, v := range l.Events.Time {
			e := abs(v - truth.Locations[li].Events.Time[j])
			largest = max(largest, e)
			require.LessOrEqual(t, e, cfg.ClockNoise.Nanoseconds()+1, "location %d event %d: noise (ns) beyond %v", li, j, cfg.ClockNoise)
		}
	}
	assert.GreaterOrEqual(t, largest, cfg.ClockNoise.Nanoseconds()/10, "the largest noise (ns): too little of %v", cfg.ClockNoise)

	cfg = DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Steps = 8, 2, 30
	cfg.Compute = 2 * time.Millisecond
	cfg.PerfectClocks()
	cfg.ClockJumpEvery, cfg.ClockJumpSize = 10*time.Millisecond, 50*time.Microsecond
	rec, truth = generate(t, cfg)
	require.NoError(t, rec.Unordered())
	steps := 0
	for li, l := range rec.Locations {
		ts, tt := l.Events.Time, truth.Locations[li].Events.Time
		for j := 1; j < len(ts); j++ {
			d := (ts[j] - tt[j]) - (ts[j-1] - tt[j-1])
			// At most one jump per interval, of at most the jump size.
			jumps := (tt[j]-tt[j-1])/cfg.ClockJumpEvery.Nanoseconds() + 2
			require.LessOrEqual(t, abs(d), jumps*cfg.ClockJumpSize.Nanoseconds()+1,
				"location %d event %d: the change of the error (ns) over %d ns", li, j, tt[j]-tt[j-1])
			if d >= cfg.ClockJumpSize.Nanoseconds()/4 {
				steps++
			}
		}
		if l.Node == 0 {
			assert.True(t, reflect.DeepEqual(ts, tt), "location %d on node 0 jumps", li)
		}
	}
	assert.NotZero(t, steps, "forward jumps seen")
}

// Asymmetric latencies: a message takes at least the minimum latency, and
// between two nodes the fastest messages of the two directions differ.
func TestAsymmetricLatency(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Steps = 8, 4, 200
	cfg.PerfectClocks()
	cfg.Jitter, cfg.Bandwidth = 0, 0
	cfg.LatencyAsymmetry = 1
	cfg.Patterns = []string{"pairs"}
	_, truth := generate(t, cfg)
	m := counts(t, truth)
	fastest := map[[2]int32]int64{}
	for _, p := range m.p2p {
		a, b := truth.Locations[p.send.loc].Node, truth.Locations[p.recv.loc].Node
		if a == b {
			continue
		}
		d := truth.Locations[p.recv.loc].Events.Time[p.recv.idx] - truth.Locations[p.send.loc].Events.Time[p.send.idx]
		require.GreaterOrEqual(t, d, cfg.LatencyInter.Nanoseconds(), "message %v: ns taken against the minimum latency", p)
		k := [2]int32{a, b}
		if v, ok := fastest[k]; !ok || d < v {
			fastest[k] = d
		}
	}
	if assert.Len(t, fastest, 2, "directions between nodes") {
		assert.NotEqual(t, fastest[[2]int32{0, 1}], fastest[[2]int32{1, 0}], "fastest one-way times %v: the directions should differ", fastest)
	}
}

func TestOffsetRecords(t *testing.T) {
	for _, tc := range []struct {
		records string
		missing float64
		want    func(r int) int
	}{
		{"init", 0, func(int) int { return 1 }},
		{"finalize", 0, func(int) int { return 1 }},
		{"none", 0, func(int) int { return 0 }},
		{"", 1, func(r int) int {
			if r == 0 {
				return 2
			}
			return 0
		}},
	} {
		cfg := DefaultConfig()
		cfg.Ranks, cfg.Steps = 6, 2
		cfg.OffsetRecords, cfg.OffsetMissing = tc.records, tc.missing
		full := cfg
		full.OffsetRecords, full.OffsetMissing = "", 0
		rec, truth := generate(t, cfg)
		recFull, truthFull := generate(t, full)
		assert.True(t, reflect.DeepEqual(truth.Locations, truthFull.Locations), "%q/%g: the offset records change the truth", tc.records, tc.missing)
		for r, l := range rec.Locations {
			assert.Len(t, l.Offsets, tc.want(r), "%q/%g: rank %d: offsets", tc.records, tc.missing, r)
			for _, o := range l.Offsets {
				assert.Contains(t, recFull.Locations[r].Offsets, o, "%q: rank %d: the full run's offsets", tc.records, r)
			}
		}
	}
}

func TestSilence(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.Steps, cfg.Patterns = 4, 3, []string{"silence"}
	cfg.SilenceLength = 7 * time.Millisecond
	_, truth := generate(t, cfg)
	assert.Equal(t, int64(6*4+2*4*3), truth.NumEvents(), "events")
	for li, l := range truth.Locations {
		ts := l.Events.Time
		assert.GreaterOrEqual(t, ts[len(ts)-1]-ts[0], 3*cfg.SilenceLength.Nanoseconds(), "location %d: span (ns) against three silences", li)
	}
}

func TestHarderConfigErrors(t *testing.T) {
	for name, mod := range map[string]func(*Config){
		"jump without size": func(c *Config) { c.ClockJumpEvery = time.Second },
		"jump too large":    func(c *Config) { c.ClockJumpEvery, c.ClockJumpSize = time.Millisecond, time.Millisecond },
		"noise periods": func(c *Config) {
			c.ClockNoise, c.NoisePeriodMin, c.NoisePeriodMax = time.Microsecond, time.Second, time.Millisecond
		},
		"steep noise": func(c *Config) {
			c.ClockNoise, c.NoisePeriodMin, c.NoisePeriodMax = time.Millisecond, time.Microsecond, time.Millisecond
		},
		"asymmetry":        func(c *Config) { c.LatencyAsymmetry = math.NaN() },
		"congestion":       func(c *Config) { c.Congestion = 2 },
		"missing":          func(c *Config) { c.OffsetMissing = -1 },
		"records":          func(c *Config) { c.OffsetRecords = "sometimes" },
		"negative silence": func(c *Config) { c.SilenceLength = -time.Second },
	} {
		cfg := DefaultConfig()
		mod(&cfg)
		assert.Error(t, cfg.Validate(), name)
	}
}
