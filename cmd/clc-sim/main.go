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
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/output"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	cmd := newCommand(os.Stderr)
	err := cmd.ExecuteContext(ctx)
	stop()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			err = errors.New("interrupted; nothing was written")
		}
		fmt.Fprintln(os.Stderr, "clc-sim:", err)
		os.Exit(cli.Status(err))
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
beside OUTDIR (whose parent must exist) and renamed at the end; an interrupt
leaves nothing behind. An existing non-empty OUTDIR is refused unless --force,
which replaces only a directory that holds nothing but a trace (its content
checked). The same flags and --seed give the
same bytes, in OTF2 and native format, whatever the number of cores. A run
can never be shorter than one step: when that is much more than the default
--events, clc-sim refuses until --events or --steps is given.

Patterns (--patterns, a comma list run in order once per step): ` + strings.Join(sim.PatternNames(), ", ") + `.`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			if f.Changed("events") && f.Changed("steps") {
				return cli.Usagef("give --events or --steps, not both")
			}
			if f.Changed("steps") {
				cfg.Events = 0
				if cfg.Steps <= 0 {
					return cli.Usagef("--steps %d: need at least 1", cfg.Steps)
				}
			} else {
				cfg.Steps = 0
			}
			p, err := sim.ParsePatterns(o.patterns)
			if err != nil {
				return cli.Usagef("--patterns: %w", err)
			}
			cfg.Patterns = p
			if o.perfectClocks {
				cfg.PerfectClocks()
			}
			if !f.Changed("events") && !f.Changed("steps") {
				if err := checkSize(cfg, log); err != nil {
					return cli.Usage(err)
				}
			}
			return write(cmd.Context(), cfg, args[0], o, log)
		},
	}
	f := cmd.Flags()
	f.IntVar(&cfg.Ranks, "ranks", cfg.Ranks, "number of MPI ranks")
	f.IntVar(&cfg.RanksPerNode, "ranks-per-node", cfg.RanksPerNode, "consecutive ranks per node (they share a clock and the intra-node latency)")
	f.IntVar(&cfg.Threads, "threads", cfg.Threads, "threads per rank: above 1 every compute phase is an OpenMP parallel region of them (fork/join, critical sections, tasks, barriers), recorded as Score-P does")
	f.DurationVar(&cfg.ThreadLatency, "thread-latency", cfg.ThreadLatency, "least true time of a hand-over between threads (fork to team begin, release to next acquisition, …)")
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
	f.BoolVar(&o.perfectClocks, "perfect-clocks", false, "no clock error (same as --clock-offset 0 --clock-drift 0 --clock-wander 0 --clock-noise 0 --clock-jump-every 0)")
	f.DurationVar(&cfg.ClockNoise, "clock-noise", 0, "largest amplitude of a multi-scale wander (octaves of value noise from --noise-period-min to --noise-period-max, amplitude ∝ √period); 0: none")
	f.DurationVar(&cfg.NoisePeriodMin, "noise-period-min", 0, "shortest period of the multi-scale wander (0: 1ms)")
	f.DurationVar(&cfg.NoisePeriodMax, "noise-period-max", 0, "longest period of the multi-scale wander (0: 10s)")
	f.DurationVar(&cfg.ClockJumpEvery, "clock-jump-every", 0, "mean time between clock jumps (NTP steps) of each node but node 0; 0: none")
	f.DurationVar(&cfg.ClockJumpSize, "clock-jump-size", 0, "largest |jump| (each uniform in [size/4, size], either sign; backward ones are slewed at 3/4 speed)")
	f.Float64Var(&cfg.LatencyAsymmetry, "latency-asymmetry", 0, "per-node send and receive delays of inter-node messages, uniform in [0, this × latency-inter]: the two directions differ")
	f.Float64Var(&cfg.Congestion, "congestion", 0, "share of time in congestion phases, in which inter-node messages and collectives take --congestion-delay × (1/2 + Exp(1)) longer")
	f.DurationVar(&cfg.CongestionDelay, "congestion-delay", 0, "mean extra delay in congestion")
	f.DurationVar(&cfg.CongestionPeriod, "congestion-period", 0, "length of a congestion phase (0: 1ms)")
	f.DurationVar(&cfg.SilenceLength, "silence-length", 0, "length of the silence pattern (every rank computes, no messages; 0: 100ms)")
	f.StringVar(&cfg.OffsetRecords, "offset-records", "", "offset measurements recorded: both (default), init, finalize or none")
	f.Float64Var(&cfg.OffsetMissing, "offset-missing", 0, "probability that a rank other than 0 records no offset measurement")
	f.Uint64Var(&cfg.Resolution, "resolution", cfg.Resolution, "timer resolution in ticks per second")
	f.Int64Var(&cfg.Seed, "seed", cfg.Seed, "random seed")
	f.StringVar(&o.format, "format", "native", "format of the recorded trace: native or otf2 (the truth is always native)")
	f.BoolVar(&o.force, "force", false, "replace an existing non-empty OUTDIR")
	f.IntVar(&cfg.FlushEvents, "flush-events", 0, "buffered events after which they are written (0 = max(4194304, 64 per rank))")
	cli.Setup(cmd)
	return cmd
}

func write(ctx context.Context, cfg sim.Config, out string, o options, log io.Writer) (err error) {
	if o.format != "native" && o.format != "otf2" {
		return cli.Usagef("--format %q: want native or otf2", o.format)
	}
	if err := cfg.Validate(); err != nil {
		return cli.Usage(err)
	}
	plan, err := output.NewPlan()
	if err != nil {
		return err
	}
	defer plan.Abort() // after Commit it does nothing
	replace := output.KeepExisting
	if o.force {
		replace = output.ReplaceTrace
	}
	recDir, err := plan.Dir("output", out, replace)
	if err != nil {
		return err
	}
	truthDir := filepath.Join(recDir, "truth")

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
		return err
	}
	counted := &trace.CountingSink{Sink: truth}
	if err := sim.Run(cfg, cancelSink{ctx, rec}, cancelSink{ctx, counted}); err != nil {
		return err
	}
	if err := rec.Close(); err != nil {
		return fmt.Errorf("writing the recorded trace: %w", err)
	}
	if err := truth.Close(); err != nil {
		return fmt.Errorf("writing the truth: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := plan.Commit(); err != nil {
		return err
	}
	threads := ""
	if cfg.Threads > 1 {
		threads = fmt.Sprintf(" × %d threads", cfg.Threads)
	}
	fmt.Fprintf(log, "clc-sim: %d ranks%s on %d nodes, %d events: %s trace in %s, truth in %s (%.1fs)\n",
		cfg.Ranks, threads, len(defs.Nodes), counted.Events(), o.format, out, filepath.Join(out, "truth"), time.Since(start).Seconds())
	return nil
}

// cancelSink stops a simulation when its context is cancelled (by a
// signal): the next Append fails.
type cancelSink struct {
	ctx context.Context
	trace.Sink
}

func (c cancelSink) Append(loc int, ev *trace.Events) error {
	if err := c.ctx.Err(); err != nil {
		return err
	}
	return c.Sink.Append(loc, ev)
}

// Ranges passes on the wrapped sink's ranges, so that the simulation
// appends each bundle of a native trace from one goroutine at a time.
func (c cancelSink) Ranges() []int { return trace.SinkRanges(c.Sink) }

// bytesPerEvent is roughly what the simulator holds in memory per event of
// the run (both traces and its own state), measured at 10^8 events.
const bytesPerEvent = 85

// checkSize refuses a run that the default --events cannot bound: every
// run has at least one step, so with very many ranks one step alone can be
// orders of magnitude more events than asked for. It measures one step of
// a 64-rank run with the same patterns and scales it to the ranks.
func checkSize(cfg sim.Config, log io.Writer) error {
	small := cfg
	small.Ranks = min(cfg.Ranks, 64)
	small.RanksPerNode = min(cfg.RanksPerNode, small.Ranks)
	small.Steps, small.Events = 1, 0
	if small.Validate() != nil {
		return nil // the real run reports what is wrong
	}
	defs, err := sim.Definitions(small)
	if err != nil {
		return nil // the real run reports what is wrong
	}
	tdefs, err := sim.TruthDefinitions(small)
	if err != nil {
		return nil
	}
	n := &trace.CountingSink{Sink: discard{defs}}
	if err := sim.Run(small, n, discard{tdefs}); err != nil {
		return fmt.Errorf("estimating the size of one step: %w", err)
	}
	perRank := float64(n.Events()) / float64(small.Ranks)
	least := int64(perRank * float64(cfg.Ranks))
	if least <= 4*cfg.Events {
		return nil
	}
	return fmt.Errorf("with %d ranks one step alone makes about %d events (%.0f× the default --events %d), which takes about %.1f GB of memory; give --events or --steps to confirm the size",
		cfg.Ranks, least, float64(least)/float64(cfg.Events), cfg.Events, float64(least)*bytesPerEvent/1e9)
}

// discard is a sink that drops the events.
type discard struct{ defs *trace.Trace }

func (d discard) Defs() *trace.Trace            { return d.defs }
func (discard) Append(int, *trace.Events) error { return nil }
func (discard) Close() error                    { return nil }
