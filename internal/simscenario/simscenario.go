// Package simscenario names the simulated runs of the studies
// (tools/paramstudy, tools/accuracy): a scenario is a
// name and a configuration for a seed. It also holds what both studies
// take of a run: the node of every location, the share of events a
// correction moved.
package simscenario

import (
	"time"

	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// Scenario is one simulated run of a study.
type Scenario struct {
	Name   string
	Config func(seed int64) sim.Config
}

// Base is the studies' common ground: 32 ranks on 4 nodes, 100,000 events,
// 2 ms compute phases (a run lasts about a third of a second), the default
// pattern mix and clocks.
func Base(seed int64) sim.Config {
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Events, c.Seed = 32, 8, 100_000, seed
	c.Compute = 2 * time.Millisecond
	return c
}

// With returns the configuration Base changed by f.
func With(f func(c *sim.Config)) func(seed int64) sim.Config {
	return func(seed int64) sim.Config {
		c := Base(seed)
		f(&c)
		return c
	}
}

// Nodes returns the node of every location of t.
func Nodes(t *trace.Trace) []int32 {
	node := make([]int32, len(t.Locations))
	for i, l := range t.Locations {
		node[i] = l.Node
	}
	return node
}

// Moved returns the share of events whose time differs between before and
// after (the same number of times per location).
func Moved(before, after [][]int64) float64 {
	var moved, n int64
	for li := range before {
		for j := range before[li] {
			if before[li][j] != after[li][j] {
				moved++
			}
			n++
		}
	}
	return float64(moved) / float64(n)
}

// Generate simulates scenario sc with seed: the recorded trace and the
// truth.
func Generate(sc Scenario, seed int64) (rec, truth *trace.Trace, err error) {
	return sim.Generate(sc.Config(seed))
}
