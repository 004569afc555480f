// Command clc-correct repairs the timestamps of an MPI event trace: offset
// pre-synchronisation, then (by default) a model of each clock domain's
// error estimated from the messages, then the forward and backward
// amortization of the controlled logical clock over a parallel replay.
//
//	clc-correct traces/ -o fixed/
//	clc-correct scorep-run/traces.otf2 -o fixed/ --report report.json
//	clc-correct traces/ --check
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/internal/memlimit"
	"github.com/clc-tools/clc/perfetto"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/repair/job"
	"github.com/clc-tools/clc/replay"
)

// Exit statuses: cli's (0 success, 1 failure, 2 usage error) and, with
// --strict, 3 for an inconsistent trace.
const (
	exitOK           = cli.ExitOK
	exitError        = cli.ExitFailure
	exitInconsistent = 3
)

// memoryShare is the share of the memory (or of the control group's
// limit) a run keeps to: the collector's soft limit, and what the memory
// check compares with. The processes of a divided run on one host share
// it (inGroup).
const memoryShare = 0.8

func main() {
	// The trace is one large, long-lived heap: collecting at 50 % growth
	// instead of 100 % keeps the peak lower at no measurable cost
	// (docs/performance.md). GOGC in the environment wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	// On the largest traces that growth would pass the machine's memory
	// while the live heap fits: a soft limit at 80 % of the memory (or of
	// the control group's limit) makes the collector run more often near
	// it instead. GOMEMLIMIT in the environment wins.
	if _, err := memlimit.Set(memoryShare); err != nil {
		fmt.Fprintln(os.Stderr, "clc-correct:", err)
		os.Exit(exitError)
	}
	// The first SIGINT or SIGTERM cancels the run, which stops, removes
	// its temporaries and fails; a second one removes the temporaries of
	// the run in progress and exits at once.
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	var ab aborter
	go onSignals(sig, cancel, &ab, os.Stderr, os.Exit)
	code := runWith(ctx, os.Args[1:], os.Stdout, os.Stderr, &ab)
	signal.Stop(sig)
	os.Exit(code)
}

// onSignals cancels the run at the first signal from sig and, at the
// second, removes the temporaries of the run in progress (ab) and exits at
// once with exitError.
func onSignals(sig <-chan os.Signal, cancel func(), ab *aborter, stderr io.Writer, exit func(int)) {
	<-sig
	cancel()
	<-sig
	ab.abort()
	fmt.Fprintln(stderr, "\nclc-correct: interrupted again: stopped at once; nothing was written")
	exit(exitError)
}

// aborter removes the temporaries of the run in progress, for a second
// signal that does not wait for the run to stop.
type aborter struct {
	mu  sync.Mutex
	run *job.Job
}

// set makes j the run in progress (nil: none).
func (a *aborter) set(j *job.Job) {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.run = j
	a.mu.Unlock()
}

// abort removes the temporaries of the run in progress. It waits for a
// commit under way, after which it does nothing.
func (a *aborter) abort() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run != nil {
		a.run.Abort()
	}
}

// run runs the command with args and returns the exit status. A signal
// cancels ctx: the run stops, removes its temporaries and fails.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, stdout, stderr, nil)
}

// runWith is run, telling ab (if not nil) the run in progress.
func runWith(ctx context.Context, args []string, stdout, stderr io.Writer, ab *aborter) int {
	status := exitOK
	cmd := newCommand(&status, ab)
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	if err := cmd.ExecuteContext(ctx); err != nil {
		if errors.Is(err, errSilent) {
			return exitError
		}
		if errors.Is(err, context.Canceled) {
			err = errors.New("interrupted; nothing was written")
		}
		fmt.Fprintln(stderr, "clc-correct:", err)
		if status == exitOK {
			status = cli.Status(err)
		}
	}
	return status
}

// flags holds the command-line values that need parsing or are not
// repair options.
type flags struct {
	format, maxShift, alltoallv, presync, progress, cpuProfile string
	perfettoWindow                                             string
	strict, quiet                                              bool
	parallel                                                   int
	method                                                     string
	// latencyGiven: --latency-intra, --latency-inter were on the command
	// line (the trace does not lower them).
	latencyGiven [2]bool
}

func newCommand(status *int, ab *aborter) *cobra.Command {
	def := clc.DefaultParams()
	var (
		opts       job.Options
		fl         flags
		params     = def
		paramsNote = "defaults chosen by measurement, see docs/parameters.md"
	)
	cmd := &cobra.Command{
		Use:   "clc-correct INPUT -o OUTDIR",
		Short: "Repair the timestamps of an MPI trace with the controlled logical clock",
		Long: `clc-correct repairs the timestamps of an MPI event trace so that no message is
received before it was sent (plus the minimum latency) while local intervals
keep their lengths. It applies the trace's clock-offset measurements (linear
pre-synchronisation, exactly as the OTF2 reader does); then, by default
(--method model), it estimates each clock domain's remaining error over time
from the messages' delays in both directions and the offset measurements, and
corrects it when the estimate is significant and consistent with the
messages; where violations remain (or no estimate is significant), it moves
the clocks the least so that every message's one-sided bound holds (a
projection that cannot move them away from the true clocks, used only when
the bounds are consistent); then the controlled logical clock of Becker, Rabenseifner, Wolf and
Linford removes the violations that remain: a forward pass as a parallel
replay (resumable tasks, a worker per CPU) with the collective extensions, a
control loop on γ, and the backward amortization. --method clc is the
paper's pure CLC: nothing moves earlier and a trace without violations comes
out unchanged.

The minimum latencies μ default to --latency-intra/--latency-inter, lowered
to the smallest latency the trace's own messages between locations of one
clock show and to a quarter of its fastest round trips between clocks;
values given on the command line are used as they are. The report
says which μ was used and why.

INPUT is an OTF2 archive (its traces.otf2 anchor or the directory holding it,
as Score-P writes it) or a native clc trace directory (clc-trace, clc-sim).
The output is an OTF2 archive (OUTDIR/traces.otf2) unless --format says
otherwise: native writes clc's native format (OTF2 input keeps its
definitions, so converting it back to OTF2 loses nothing), input the input's
format; perfetto writes the corrected trace as OUTDIR/trace.json.gz for Perfetto's UI
(ui.perfetto.dev, "Open trace file") or chrome://tracing: a track per location
grouped by node, regions as slices, messages as arrows, collectives marked; a
size guard (--perfetto-*) keeps it loadable and the report notes what it left
out. --html FILE writes the report as one self-contained HTML page with plots
(clock error per clock domain over time, violations by pair of nodes, shifts,
fidelity); with --check it shows what the correction would do. Every file
the run writes (the output, --report, --html, --cpuprofile) is checked before a
byte of the input is read: none may lie inside the input (compared by device
and inode, so no symbolic link or bind mount leads there) or inside another,
its directory must exist (clc-correct creates no other), and each is written
to a temporary beside it and renamed when the run succeeds; a replaced file
keeps its permissions. OUTDIR is a directory: a name ending in .otf2 is
refused. An interrupt (SIGINT, SIGTERM) stops the run within a fraction of a
second and leaves nothing behind; a second one removes the temporaries and
exits at once. clc-correct never writes into its input, and --force replaces
only a directory that holds nothing but a trace, by its content (a native
manifest and the streams it names, an OTF2 archive and its location files, a
truth/ beside them).

Only regular files are read (a named pipe or a device in the input is an
error). From the counts the input declares, before reading its events,
clc-correct estimates the memory the run needs and refuses a run that needs
more than it may use (80 % of the machine's or control group's memory; the
environment's GOMEMLIMIT sets it).

Under an MPI launcher (mpirun -np P, srun -n P) the P processes join one
group through an MPI helper built on first use with the MPI's mpicc (into
the cache: $CLC_CACHE_DIR, else ~/.cache/clc; $CLC_MPICC names the wrapper).
For a launcher that refuses a child calling MPI_Init, CLC_MPI_LAUNCH=helper
puts the helper in the launched process's place, which starts clc-correct
again as its child.
The processes divide the trace by whole nodes: each reads its block's event
files, matches and corrects them with the CLC together with the others, and
writes its locations' files of an OTF2 output; process 0 writes the rest and
prints the report. The output is the single run's, byte for byte. A process
holds its block's events and the halo its messages reach; the clock model's
estimation (its windows and solve, from the gathered bounds) still runs whole
on every process. A native output or a format conversion is written by
process 0 from every process's corrected times, and a Perfetto export by
process 0, which then reads the whole input as one process does:
docs/scale.md.

If the input directory holds truth/ (true times, written by clc-sim and by
clc-trace --emulate-clock) or truth.json ({"resolution": ticks per second,
"<location id>": [true times in event order], ...}), the report also compares
the times with the truth and says how many fall within their error bars.

Exit status: 0 success; 1 error (nothing written); 2 usage error (nothing
done); 3 with --strict when the trace had unmatched messages, incomplete or
inconsistent collectives, collectives outside their communicator, dropped
dependencies, a process without events or no events at all, or was truncated
(the corrected output is still written).`,
		Example: `  clc-correct traces/ -o fixed/
  clc-correct scorep-20261122/traces.otf2 -o fixed/ --report report.json
  clc-correct traces/ --check --latency-inter 2us
  clc-correct traces/ --check --html report.html
  clc-correct traces/ -o view --format perfetto    # then open view/trace.json.gz in ui.perfetto.dev`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			fl.latencyGiven = [2]bool{cmd.Flags().Changed("latency-intra"), cmd.Flags().Changed("latency-inter")}
			if err := parseFlags(&fl, &opts, &params); err != nil {
				return cli.Usage(err)
			}
			return inGroup(cmd.Context(), opts, &fl, func(ctx context.Context, opts job.Options, fl *flags) error {
				return correct(ctx, cmd.OutOrStdout(), args[0], fl, opts, status, ab)
			})
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "output directory (must not exist, or be empty; see --force)")
	f.StringVar(&fl.format, "format", "otf2", "output format: otf2 (what Vampir, ViTE and every OTF2 reader open), native (clc's own, smaller), input (the input's) or perfetto (OUTDIR/trace.json.gz, a Chrome trace-event file for ui.perfetto.dev; see --perfetto-*)")
	f.StringVar(&opts.Report, "report", "", "also write the report as JSON to this file (docs/report.md)")
	f.StringVar(&opts.HTML, "html", "", "also write the report as one self-contained HTML page with plots to this file (works with --check; docs/report.md)")
	f.Int64Var(&opts.Perfetto.MaxEvents, "perfetto-max-events", perfetto.DefaultMaxEvents, "with --format perfetto: most slices written; above it only a window of time from the start is written, and a note says so (-1: no limit)")
	f.IntVar(&opts.Perfetto.MaxLocations, "perfetto-max-locations", perfetto.DefaultMaxLocations, "with --format perfetto: most tracks; above it every k-th location is written (-1: no limit)")
	f.StringVar(&fl.perfettoWindow, "perfetto-window", "", "with --format perfetto: only FROM:TO after the first event, e.g. 1.5s:1.6s")
	f.BoolVar(&opts.Check, "check", false, "analyse and report only; write no trace")
	f.BoolVar(&opts.Force, "force", false, "replace a non-empty output directory that holds nothing but a trace (checked by its content)")
	f.StringVar(&opts.Truth, "truth", "", "true times: a native trace or a truth.json file (default: INPUT/truth or INPUT/truth.json if present; - for none)")
	f.DurationVar(&params.LatencyIntra, "latency-intra", def.LatencyIntra, "minimum message latency μ within a node ("+paramsNote+"; lowered by the trace unless given)")
	f.DurationVar(&params.LatencyInter, "latency-inter", def.LatencyInter, "minimum message latency μ across nodes (lowered by the trace unless given)")
	f.DurationVar(&params.LatencyShared, "latency-shared", def.LatencyShared, "latency μ of the shared-memory relations between the threads of a process (fork, join, barriers, locks, tasks, thread creation); 0: a thread event may carry the time of the event that enabled it")
	f.Float64Var(&params.Gamma, "gamma", def.Gamma, "forward amortization factor γ in (0,1]")
	f.BoolVar(&params.TrustReference, "trust-reference", def.TrustReference, "treat the reference node (location 0's, the clock pre-synchronisation maps onto) as exact: jumps there decay with --reference-gamma and are not amortized backward; jumps caused by its sends use --informed-gamma/--informed-slope")
	f.Float64Var(&params.ReferenceGamma, "reference-gamma", def.ReferenceGamma, "γ on the reference node, in [0,1] (with --trust-reference)")
	f.Float64Var(&params.InformedGamma, "informed-gamma", def.InformedGamma, "γ after a jump caused by a sender on the reference node (with --trust-reference)")
	f.Float64Var(&params.InformedSlope, "informed-slope", def.InformedSlope, "backward slope for a jump caused by a sender on the reference node (with --trust-reference)")
	f.DurationVar(&params.Delta, "delta", def.Delta, "minimal step δ between successive events (0: one tick); never more than the original step")
	f.Float64Var(&params.Slope, "backward-slope", def.Slope, "slope m of the backward amortization ramp (0: no backward amortization)")
	f.IntVar(&params.MaxPasses, "max-passes", def.MaxPasses, "forward passes of the γ control loop (1: no control)")
	f.StringVar(&fl.maxShift, "max-shift", "auto", "largest forward shift the γ control accepts (auto: --shift-factor × largest input violation + μ inter)")
	f.Float64Var(&params.ShiftFactor, "shift-factor", def.ShiftFactor, "factor of the automatic --max-shift")
	f.StringVar(&fl.alltoallv, "alltoallv", "ignore", "ALLTOALLV/W: ignore (keep internal) or nton (N-to-N among members with bytes; may over-constrain)")
	f.StringVar(&fl.presync, "presync", "auto", "offset pre-synchronisation: interpolate (OTF2's, exact), regression (RTT-weighted line per location), node (one clock per node, epochs averaged), auto (node when the trace says its clocks are per node, else interpolate)")
	f.StringVar(&fl.method, "method", "model", "model: estimate each clock domain's error from the messages and offsets, correct it when the estimate passes the guard, project the clocks onto the messages' one-sided bounds where violations remain, then the CLC (falls back to clc and says why); clc: the paper's pure controlled logical clock (nothing moves earlier, a trace without violations is unchanged)")
	f.BoolVar(&fl.strict, "strict", false, "exit with status 3 when the trace is inconsistent (unmatched messages, …)")
	f.BoolVarP(&fl.quiet, "quiet", "q", false, "do not print the report")
	f.StringVar(&fl.progress, "progress", "auto", "progress on stderr: auto (when a terminal), always, never")
	f.IntVarP(&fl.parallel, "jobs", "j", 0, "parallel file readers/writers and workers (0: number of CPUs; at most 1024 or the number of CPUs)")
	f.StringVar(&fl.cpuProfile, "cpuprofile", "", "write a CPU profile (go tool pprof) to this file")
	cli.Setup(cmd)
	return cmd
}

// parseFlags checks and converts every flag value, in one place, before
// anything is opened.
func parseFlags(fl *flags, opts *job.Options, params *clc.Params) error {
	var err error
	if opts.Format, err = job.ParseFormat(fl.format); err != nil {
		return err
	}
	if opts.Presync, err = presync.ParseMethod(fl.presync); err != nil {
		return err
	}
	if opts.Alltoallv, err = replay.ParseAlltoallvPolicy(fl.alltoallv); err != nil {
		return err
	}
	params.MaxShift = 0
	if fl.maxShift != "auto" {
		if params.MaxShift, err = time.ParseDuration(fl.maxShift); err != nil || params.MaxShift <= 0 {
			return fmt.Errorf("--max-shift %q: want auto or a positive duration like 50us", fl.maxShift)
		}
	}
	switch strings.ToLower(fl.progress) {
	case "auto", "always", "never":
	default:
		return fmt.Errorf("--progress %q: want auto, always or never", fl.progress)
	}
	if fl.perfettoWindow != "" {
		if opts.Format != job.FormatPerfetto {
			return errors.New("--perfetto-window needs --format perfetto")
		}
		if opts.Perfetto.From, opts.Perfetto.To, err = parseWindow(fl.perfettoWindow); err != nil {
			return err
		}
	}
	if fl.parallel < 0 || fl.parallel > job.MaxParallel() {
		return fmt.Errorf("-j %d: want 0 (one per CPU) or a number up to %d (more workers only cost memory)", fl.parallel, job.MaxParallel())
	}
	opts.Parallel = fl.parallel
	if opts.ClockModel.Method, err = clockmodel.ParseMethod(fl.method); err != nil {
		return err
	}
	// μ given on the command line is kept; defaults are lowered to what
	// the trace's same-clock messages show.
	opts.ClockModel.LatencyGiven = fl.latencyGiven
	opts.Params = params
	return opts.Validate() // the parameters too
}

// parseWindow parses --perfetto-window FROM:TO.
func parseWindow(s string) (from, to time.Duration, err error) {
	a, b, ok := strings.Cut(s, ":")
	if ok {
		from, err = time.ParseDuration(a)
	}
	if ok && err == nil {
		to, err = time.ParseDuration(b)
	}
	if !ok || err != nil || from < 0 || to <= from {
		return 0, 0, fmt.Errorf("--perfetto-window %q: want FROM:TO with 0 ≤ FROM < TO, e.g. 0s:10ms", s)
	}
	return from, to, nil
}

// correct runs one repair: it claims every output path, runs the pipeline
// into temporaries, prints the report and commits the outputs.
func correct(ctx context.Context, stdout io.Writer, input string, fl *flags, opts job.Options, status *int, ab *aborter) error {
	progress := showProgress(fl.progress)
	if progress {
		start := time.Now()
		opts.Progress = func(stage string) {
			fmt.Fprintf(os.Stderr, "\r\033[K[%6.2fs] %s …", time.Since(start).Seconds(), stage)
		}
	}
	job, err := job.PrepareContext(ctx, input, opts)
	if err != nil {
		return err
	}
	ab.set(job)
	defer ab.set(nil)
	defer job.Abort() // after Commit it does nothing
	stopProfile := func() {}
	if fl.cpuProfile != "" {
		tmp, err := job.Claim("CPU profile", fl.cpuProfile)
		if err != nil {
			return err
		}
		if stopProfile, err = startProfile(tmp); err != nil {
			return err
		}
	}
	rep, err := job.Run(ctx)
	stopProfile()
	if progress {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	if !fl.quiet {
		rep.WriteText(stdout)
	}
	if err := ctx.Err(); err != nil {
		return err // interrupted after the work: nothing is written still
	}
	if err := job.Commit(); err != nil {
		return err
	}
	if fl.strict && rep.Inconsistent() {
		*status = exitInconsistent
		return fmt.Errorf("%w (--strict): see the issues in the report", repair.ErrInconsistent)
	}
	return nil
}

// startProfile starts a CPU profile into path and returns the function
// that stops it and closes the file.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("CPU profile: %w", err)
	}
	stopped := false
	return func() {
		if !stopped {
			stopped = true
			pprof.StopCPUProfile()
			f.Close()
		}
	}, nil
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
