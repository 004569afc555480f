// Package simscenario names the simulated runs of the studies
// (internal/cmd/paramstudy, internal/cmd/clockstudy): a scenario is a
// name and a configuration for a seed.
package simscenario

import (
	"time"

	"github.com/clc-tools/clc/sim"
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
