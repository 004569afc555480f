// Command clc-correct repairs the timestamps of an MPI event trace with the
// controlled logical clock: linear offset pre-synchronisation, then the
// forward and backward amortization of the CLC over a parallel replay.
//
//	clc-correct traces/ -o fixed/
//	clc-correct scorep-run/traces.otf2 -o fixed/ --report report.json
//	clc-correct traces/ --check
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/replay"
)

// Exit statuses.
const (
	exitOK           = 0
	exitError        = 1
	exitInconsistent = 2
)

func main() {
	// The trace is one large, long-lived heap: collecting at 50 % growth
	// instead of 100 % keeps the peak near 47 bytes per event at no
	// measurable cost (docs/performance.md). GOGC in the environment wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	status := exitOK
	cmd := newCommand(&status)
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "clc-correct:", err)
		if status == exitOK {
			status = exitError
		}
	}
	return status
}

func newCommand(status *int) *cobra.Command {
	def := clc.DefaultParams()
	var (
		opts       repair.Options
		format     string
		report     string
		maxShift   string
		alltoallv  string
		presyncM   string
		strict     bool
		quiet      bool
		progress   string
		parallel   int
		cpuProfile string
		params     = def
		paramsNote = "defaults chosen by measurement, see docs/parameters.md"
	)
	cmd := &cobra.Command{
		Use:   "clc-correct INPUT -o OUTDIR",
		Short: "Repair the timestamps of an MPI trace with the controlled logical clock",
		Long: `clc-correct repairs the timestamps of an MPI event trace so that no message is
received before it was sent (plus the minimum latency) while local intervals
keep their lengths. It applies the trace's clock-offset measurements (linear
pre-synchronisation, exactly as the OTF2 reader does), then the controlled
logical clock of Becker, Rabenseifner, Wolf and Linford: a forward pass as a
parallel replay (one goroutine per rank) with the collective extensions, a
control loop on γ, and the backward amortization.

INPUT is an OTF2 archive (its traces.otf2 anchor or the directory holding it,
as Score-P writes it) or a native clc trace directory (clc-trace, clc-sim).
The output has the same format unless --format says otherwise; it is written
to a temporary directory beside OUTDIR and renamed when complete. clc-correct
never writes into its input.

If the input directory holds truth/ (true times, written by clc-sim and by
clc-trace --emulate-clock), the report also compares the times with the truth.

Exit status: 0 success; 1 error (nothing written); 2 with --strict when the
trace had unmatched messages, incomplete or inconsistent collectives, dropped
dependencies or was truncated (the corrected output is still written).`,
		Example: `  clc-correct traces/ -o fixed/
  clc-correct scorep-20261122/traces.otf2 -o fixed/ --report report.json
  clc-correct traces/ --check --latency-inter 2us`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if opts.Format, err = repair.ParseFormat(format); err != nil {
				return err
			}
			if opts.Presync, err = presync.ParseMethod(presyncM); err != nil {
				return err
			}
			if params.Alltoallv, err = replay.ParseAlltoallvPolicy(alltoallv); err != nil {
				return err
			}
			if maxShift != "auto" {
				if params.MaxShift, err = time.ParseDuration(maxShift); err != nil || params.MaxShift <= 0 {
					return fmt.Errorf("--max-shift %q: want auto or a positive duration like 50us", maxShift)
				}
			}
			if opts.Check && opts.Output != "" {
				return errors.New("--check writes nothing: do not give -o with it")
			}
			opts.Params = params
			opts.Parallel = parallel
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return err
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return err
				}
				defer pprof.StopCPUProfile()
			}
			if showProgress(progress) {
				start := time.Now()
				opts.Progress = func(stage string) {
					fmt.Fprintf(os.Stderr, "\r\033[K[%6.2fs] %s …", time.Since(start).Seconds(), stage)
				}
			}
			rep, err := repair.Run(args[0], opts)
			if opts.Progress != nil {
				fmt.Fprint(os.Stderr, "\r\033[K")
			}
			if err != nil {
				return err
			}
			if !quiet {
				rep.WriteText(cmd.OutOrStdout())
			}
			if report != "" {
				if err := writeReport(report, rep); err != nil {
					return err
				}
			}
			if strict && rep.Inconsistent() {
				*status = exitInconsistent
				return fmt.Errorf("%w (--strict): see the issues in the report", repair.ErrInconsistent)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "output directory (must not exist, or be empty; see --force)")
	f.StringVar(&format, "format", "", "output format: otf2 or native (default: the input's)")
	f.StringVar(&report, "report", "", "also write the report as JSON to this file (docs/report.md)")
	f.BoolVar(&opts.Check, "check", false, "analyse and report only; write no trace")
	f.BoolVar(&opts.Force, "force", false, "replace a non-empty output directory")
	f.StringVar(&opts.Truth, "truth", "", "native trace with the true times (default: INPUT/truth if present; - for none)")
	f.DurationVar(&params.LatencyIntra, "latency-intra", def.LatencyIntra, "minimum message latency μ within a node ("+paramsNote+")")
	f.DurationVar(&params.LatencyInter, "latency-inter", def.LatencyInter, "minimum message latency μ across nodes")
	f.Float64Var(&params.Gamma, "gamma", def.Gamma, "forward amortization factor γ in (0,1]")
	f.BoolVar(&params.TrustReference, "trust-reference", def.TrustReference, "treat the reference node (location 0's, the clock pre-synchronisation maps onto) as exact: jumps there decay with --reference-gamma and are not amortized backward; jumps caused by its sends use --informed-gamma/--informed-slope")
	f.Float64Var(&params.ReferenceGamma, "reference-gamma", def.ReferenceGamma, "γ on the reference node, in [0,1] (with --trust-reference)")
	f.Float64Var(&params.InformedGamma, "informed-gamma", def.InformedGamma, "γ after a jump caused by a sender on the reference node (with --trust-reference)")
	f.Float64Var(&params.InformedSlope, "informed-slope", def.InformedSlope, "backward slope for a jump caused by a sender on the reference node (with --trust-reference)")
	f.DurationVar(&params.Delta, "delta", def.Delta, "minimal step δ between successive events (0: one tick); never more than the original step")
	f.Float64Var(&params.Slope, "backward-slope", def.Slope, "slope m of the backward amortization ramp (0: no backward amortization)")
	f.IntVar(&params.MaxPasses, "max-passes", def.MaxPasses, "forward passes of the γ control loop (1: no control)")
	f.StringVar(&maxShift, "max-shift", "auto", "largest forward shift the γ control accepts (auto: --shift-factor × largest input violation + μ inter)")
	f.Float64Var(&params.ShiftFactor, "shift-factor", def.ShiftFactor, "factor of the automatic --max-shift")
	f.StringVar(&alltoallv, "alltoallv", "ignore", "ALLTOALLV/W: ignore (keep internal) or nton (N-to-N among members with bytes; may over-constrain)")
	f.StringVar(&presyncM, "presync", "auto", "offset pre-synchronisation: interpolate (OTF2's, exact), regression (RTT-weighted line per location), node (one clock per node, epochs averaged), auto (node when the trace says its clocks are per node, else interpolate)")
	f.BoolVar(&opts.Refine, "refine", false, "before the CLC, correct each node's clock by what its messages show (both ways; every node but the reference moves a little): much closer to the true times when clock errors are large, but not a pure CLC (docs/algorithm.md)")
	f.IntVar(&opts.RefineOptions.Windows, "refine-windows", 64, "time windows of the --refine estimation")
	f.DurationVar(&opts.RefineOptions.Prior, "refine-prior", 100*time.Microsecond, "typical clock error after pre-synchronisation, the --refine estimate's prior")
	f.DurationVar(&opts.RefineOptions.Floor, "refine-floor", time.Microsecond, "uncertainty of the tightest message band (latency jitter), for --refine")
	f.BoolVar(&strict, "strict", false, "exit with status 2 when the trace is inconsistent (unmatched messages, …)")
	f.BoolVarP(&quiet, "quiet", "q", false, "do not print the report")
	f.StringVar(&progress, "progress", "auto", "progress on stderr: auto (when a terminal), always, never")
	f.IntVarP(&parallel, "jobs", "j", 0, "parallel file readers/writers and workers (0: number of CPUs)")
	f.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile (go tool pprof) to this file")
	return cmd
}

func showProgress(mode string) bool {
	switch strings.ToLower(mode) {
	case "always":
		return true
	case "never":
		return false
	}
	st, err := os.Stderr.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func writeReport(path string, rep *repair.Report) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := rep.WriteJSON(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("report: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("report: %w", err)
	}
	return os.Rename(tmp, path)
}
