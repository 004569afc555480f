package simscenario

import (
	"time"

	"github.com/clc-tools/clc/sim"
)

// Clock are the scenarios of the clock study (tools/accuracy, source clcsim):
// clock errors of every kind the simulator makes, offset records missing,
// communication patterns that bound the clocks more or less.
var Clock = []Scenario{
	{Name: "mild (wander 2µs)", Config: With(func(c *sim.Config) {})},
	{Name: "wander 10µs", Config: With(func(c *sim.Config) { c.ClockWander = 10 * time.Microsecond })},
	{Name: "wander 50µs, drift 50ppm", Config: With(func(c *sim.Config) { c.ClockWander, c.ClockDrift = 50*time.Microsecond, 50 })},
	{Name: "fast wander (period 50ms)", Config: With(func(c *sim.Config) {
		c.ClockWander, c.WanderPeriod = 5*time.Microsecond, 50*time.Millisecond
	})},
	{Name: "multi-scale noise 10µs", Config: With(func(c *sim.Config) {
		c.ClockNoise, c.NoisePeriodMin, c.NoisePeriodMax = 10*time.Microsecond, time.Millisecond, 10*time.Second
	})},
	{Name: "NTP jumps 20µs every 100ms", Config: With(func(c *sim.Config) {
		c.ClockWander, c.ClockJumpEvery, c.ClockJumpSize = 5*time.Microsecond, 100*time.Millisecond, 20*time.Microsecond
	})},
	{Name: "asymmetric latency ×0.5", Config: With(func(c *sim.Config) {
		c.ClockWander, c.LatencyAsymmetry = 10*time.Microsecond, 0.5
	})},
	{Name: "congestion 30 %, 20µs", Config: With(func(c *sim.Config) {
		c.ClockWander, c.Congestion, c.CongestionDelay = 10*time.Microsecond, 0.3, 20*time.Microsecond
	})},
	{Name: "silent phases 200ms", Config: With(func(c *sim.Config) {
		c.ClockWander = 10 * time.Microsecond
		c.SilenceLength = 200 * time.Millisecond
		c.Events = 60_000
		c.Patterns = append(sim.DefaultPatterns(), "silence")
	})},
	{Name: "poor offsets (noise 5µs)", Config: With(func(c *sim.Config) { c.ClockWander, c.OffsetNoise = 10*time.Microsecond, 5*time.Microsecond })},
	{Name: "offsets at MPI_Init only", Config: With(func(c *sim.Config) { c.ClockWander, c.OffsetRecords = 10*time.Microsecond, "init" })},
	{Name: "half the ranks without offsets", Config: With(func(c *sim.Config) { c.ClockWander, c.OffsetMissing = 10*time.Microsecond, 0.5 })},
	{Name: "no offsets at all", Config: With(func(c *sim.Config) { c.ClockWander, c.OffsetRecords = 10*time.Microsecond, "none" })},
	{Name: "collectives only", Config: With(func(c *sim.Config) {
		c.ClockWander = 10 * time.Microsecond
		c.Patterns = []string{"allreduce", "coll", "subcoll", "scan", "exscan", "bcast", "reduce"}
	})},
	{Name: "master–worker only", Config: With(func(c *sim.Config) {
		c.ClockWander = 10 * time.Microsecond
		c.Patterns = []string{"master"}
	})},
	{Name: "ring only (one direction)", Config: With(func(c *sim.Config) {
		c.ClockWander = 10 * time.Microsecond
		c.Patterns = []string{"ring"}
	})},
	{Name: "one rank per node (16 nodes)", Config: With(func(c *sim.Config) {
		c.Ranks, c.RanksPerNode, c.ClockWander = 16, 1, 10*time.Microsecond
	})},
	{Name: "256 ranks p2p, 16 nodes", Config: With(func(c *sim.Config) {
		c.Ranks, c.RanksPerNode, c.Events = 256, 16, 200_000
		c.ClockWander = 10 * time.Microsecond
		c.Patterns = []string{"halo", "pairs", "ring", "master"}
	})},
	{Name: "64 nodes (512 ranks)", Config: With(func(c *sim.Config) {
		c.Ranks, c.RanksPerNode, c.Events = 512, 8, 300_000
		c.ClockWander = 10 * time.Microsecond
	})},
	{Name: "128 nodes halo+allreduce", Config: With(func(c *sim.Config) {
		c.Ranks, c.RanksPerNode, c.Events = 1024, 8, 400_000
		c.ClockWander = 10 * time.Microsecond
		c.Patterns = []string{"halo", "allreduce", "pairs"}
	})},
	{Name: "long run, wander period 200ms", Config: With(func(c *sim.Config) {
		c.Events, c.Compute = 200_000, 10*time.Millisecond
		c.ClockWander, c.WanderPeriod = 10*time.Microsecond, 200*time.Millisecond
	})},
	{Name: "everything (64 nodes)", Config: With(func(c *sim.Config) {
		c.Ranks, c.RanksPerNode, c.Events = 512, 8, 300_000
		c.ClockWander, c.ClockDrift = 10*time.Microsecond, 20
		c.ClockNoise = 5 * time.Microsecond
		c.ClockJumpEvery, c.ClockJumpSize = 200*time.Millisecond, 10*time.Microsecond
		c.LatencyAsymmetry = 0.3
		c.Congestion, c.CongestionDelay = 0.2, 10*time.Microsecond
		c.SilenceLength = 100 * time.Millisecond
		c.Patterns = append(sim.DefaultPatterns(), "silence")
		c.OffsetMissing = 0.25
	})},
	{Name: "4096 ranks on 128 nodes", Config: With(func(c *sim.Config) {
		c.Ranks, c.RanksPerNode, c.Events = 4096, 32, 400_000
		c.Compute, c.ClockWander = 20*time.Millisecond, 10*time.Microsecond
		c.Patterns = []string{"halo", "allreduce", "pairs", "coll"}
	})},
	{Name: "perfect clocks", Config: With(func(c *sim.Config) { c.PerfectClocks(); c.OffsetNoise = 0 })},
}
