// Command clc-sim writes simulated MPI traces with known true times: the
// ground truth that clc-correct is scored against.
//
//	clc-sim OUTDIR --ranks N [flags]
//
// writes the recorded trace (with clock error) into OUTDIR — native format:
// OUTDIR/clc.json and OUTDIR/events/; OTF2: OUTDIR/traces.otf2, traces.def,
// traces/ — and the truth, a native trace with the same events in the same
// order and the true times, into OUTDIR/truth/. See docs/sim.md.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

func main() {
	cmd := newCommand(os.Stderr)
	if err := cmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "clc-sim:", err)
		os.Exit(1)
	}
}

// options are the command's settings besides the simulation's.
type options struct {
	format        string
	force         bool
	patterns      string
	perfectClocks bool
}

func newCommand(log io.Writer) *cobra.Command {
	cfg := sim.DefaultConfig()
	var o options
	cmd := &cobra.Command{
		Use:   "clc-sim OUTDIR",
		Short: "Simulate an MPI program and write its trace with clock error and, in OUTDIR/truth/, the true times",
		Long: `clc-sim simulates an MPI program in true time (latency model, compute phases,
point-to-point patterns and collectives), records it as a tracer would with
per-node clocks that have offset, drift and non-linear wander, and writes:

  OUTDIR/                the recorded trace (native: clc.json + events/;
                         --format otf2: traces.otf2, traces.def, traces/)
  OUTDIR/truth/          the same events in the same order with the true
                         times (node 0's clock), always native format

Offsets measured at MPI_Init and MPI_Finalize (ping-pong with rank 0, min RTT)
are stored with each location. The output is written to a temporary directory
beside OUTDIR and renamed at the end; an existing non-empty OUTDIR is refused
unless --force. The same flags and --seed give the same bytes.

Patterns (--patterns, a comma list run in order once per step): ` + strings.Join(sim.PatternNames(), ", ") + `.`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			if f.Changed("events") && f.Changed("steps") {
				return errors.New("give --events or --steps, not both")
			}
			if f.Changed("steps") {
				cfg.Events = 0
				if cfg.Steps <= 0 {
					return fmt.Errorf("--steps %d: need at least 1", cfg.Steps)
				}
			} else {
				cfg.Steps = 0
			}
			p, err := sim.ParsePatterns(o.patterns)
			if err != nil {
				return fmt.Errorf("--patterns: %w", err)
			}
			cfg.Patterns = p
			if o.perfectClocks {
				cfg.PerfectClocks()
			}
			return write(cfg, args[0], o, log)
		},
	}
	f := cmd.Flags()
	f.IntVar(&cfg.Ranks, "ranks", cfg.Ranks, "number of MPI ranks")
	f.IntVar(&cfg.RanksPerNode, "ranks-per-node", cfg.RanksPerNode, "consecutive ranks per node (they share a clock and the intra-node latency)")
	f.Int64Var(&cfg.Events, "events", cfg.Events, "approximate total number of events (sets the number of steps)")
	f.IntVar(&cfg.Steps, "steps", 0, "number of steps, each running every pattern once (instead of --events)")
	f.StringVar(&o.patterns, "patterns", strings.Join(sim.DefaultPatterns(), ","), "comma-separated patterns of one step")
	f.DurationVar(&cfg.LatencyIntra, "latency-intra", cfg.LatencyIntra, "minimum message latency within a node")
	f.DurationVar(&cfg.LatencyInter, "latency-inter", cfg.LatencyInter, "minimum message latency between nodes")
	f.Float64Var(&cfg.Bandwidth, "bandwidth", cfg.Bandwidth, "bandwidth in bytes per second (0 = infinite)")
	f.DurationVar(&cfg.Jitter, "jitter", cfg.Jitter, "mean of the exponential extra latency of each message")
	f.DurationVar(&cfg.SendOverhead, "send-overhead", cfg.SendOverhead, "time a blocking send spends after its send event")
	f.DurationVar(&cfg.CallOverhead, "call-overhead", cfg.CallOverhead, "mean time between consecutive events inside an MPI call")
	f.DurationVar(&cfg.Compute, "compute", cfg.Compute, "mean duration of a compute phase")
	f.DurationVar(&cfg.LaunchSkew, "launch-skew", cfg.LaunchSkew, "largest difference between the ranks' start times")
	f.DurationVar(&cfg.ClockOffset, "clock-offset", cfg.ClockOffset, "largest |offset| of a node's clock (node 0 has none)")
	f.Float64Var(&cfg.ClockDrift, "clock-drift", cfg.ClockDrift, "largest |drift| of a node's clock in ppm")
	f.DurationVar(&cfg.ClockWander, "clock-wander", cfg.ClockWander, "largest amplitude of a node clock's non-linear wander")
	f.DurationVar(&cfg.WanderPeriod, "wander-period", cfg.WanderPeriod, "typical period of the wander (each of its three sinusoids within 0.35x to 2.8x)")
	f.DurationVar(&cfg.OffsetNoise, "offset-noise", cfg.OffsetNoise, "mean exponential extra one-way delay in the offset ping-pongs")
	f.IntVar(&cfg.OffsetRounds, "offset-rounds", cfg.OffsetRounds, "ping-pong rounds per offset measurement (min RTT kept)")
	f.BoolVar(&o.perfectClocks, "perfect-clocks", false, "no clock error (same as --clock-offset 0 --clock-drift 0 --clock-wander 0)")
	f.Uint64Var(&cfg.Resolution, "resolution", cfg.Resolution, "timer resolution in ticks per second")
	f.Int64Var(&cfg.Seed, "seed", cfg.Seed, "random seed")
	f.StringVar(&o.format, "format", "native", "format of the recorded trace: native or otf2 (the truth is always native)")
	f.BoolVar(&o.force, "force", false, "replace an existing non-empty OUTDIR")
	f.IntVar(&cfg.FlushEvents, "flush-events", 0, "buffered events after which they are written (0 = max(4194304, 64 per rank))")
	return cmd
}

// aborter is implemented by sinks that can discard what they wrote.
type aborter interface{ Abort() }

func write(cfg sim.Config, out string, o options, log io.Writer) (err error) {
	if o.format != "native" && o.format != "otf2" {
		return fmt.Errorf("--format %q: want native or otf2", o.format)
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	exists := false
	if fi, err := os.Stat(abs); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s exists and is not a directory", out)
		}
		ents, err := os.ReadDir(abs)
		if err != nil {
			return err
		}
		if len(ents) > 0 && !o.force {
			return fmt.Errorf("%s exists and is not empty (use --force to replace it)", out)
		}
		exists = true
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	parent := filepath.Dir(abs)
	if abs == parent {
		return fmt.Errorf("%s: cannot write into the file system root", out)
	}
	if err := os.MkdirAll(parent, 0o777); err != nil {
		return err
	}
	top, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+".clc-sim-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(top)
	recDir, truthDir := filepath.Join(top, "rec"), filepath.Join(top, "truth")

	start := time.Now()
	defs, err := sim.Definitions(cfg)
	if err != nil {
		return err
	}
	tdefs, err := sim.TruthDefinitions(cfg)
	if err != nil {
		return err
	}
	var rec trace.Sink
	switch o.format {
	case "native":
		rec, err = native.CreateDir(recDir, defs, nil)
	case "otf2":
		rec, err = otf.Create(recDir, defs, &otf.WriteOptions{Creator: "clc-sim"})
	}
	if err != nil {
		return err
	}
	truth, err := native.CreateDir(truthDir, tdefs, nil)
	if err != nil {
		if a, ok := rec.(aborter); ok {
			a.Abort()
		}
		return err
	}
	counted := &countingSink{Sink: truth}
	if err := sim.Run(cfg, rec, counted); err != nil {
		if a, ok := rec.(aborter); ok {
			a.Abort()
		}
		return err
	}
	if err := rec.Close(); err != nil {
		return fmt.Errorf("writing the recorded trace: %w", err)
	}
	if err := truth.Close(); err != nil {
		return fmt.Errorf("writing the truth: %w", err)
	}
	if err := os.Rename(truthDir, filepath.Join(recDir, "truth")); err != nil {
		return err
	}
	if exists {
		if err := os.Rename(abs, filepath.Join(top, "old")); err != nil {
			return fmt.Errorf("moving the old %s away: %w", out, err)
		}
	}
	if err := os.Rename(recDir, abs); err != nil {
		return err
	}
	fmt.Fprintf(log, "clc-sim: %d ranks on %d nodes, %d events: %s trace in %s, truth in %s (%.1fs)\n",
		cfg.Ranks, len(defs.Nodes), counted.n.Load(), o.format, out, filepath.Join(out, "truth"), time.Since(start).Seconds())
	return nil
}

// countingSink counts the events appended to a sink.
type countingSink struct {
	trace.Sink
	n atomic.Int64
}

func (c *countingSink) Append(loc int, ev *trace.Events) error {
	c.n.Add(int64(ev.Len()))
	return c.Sink.Append(loc, ev)
}
