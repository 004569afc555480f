// Command clc-trace records an MPI program's events into a trace that
// clc-correct takes — clc's native format (docs/format.md) or an OTF2
// archive — by preloading a PMPI library that it builds on first use with
// the program's MPI compiler (docs/tracer.md).
//
//	mpirun -np 4 clc-trace -o DIR ./app args       # one clc-trace per rank
//	clc-trace -o DIR -- mpirun -np 4 ./app args    # clc-trace wraps the launcher
package main

import (
	"embed"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clc-tools/clc/internal/cli"

	"github.com/clc-tools/clc/tracer/mpifn"
)

//go:generate go run ./internal/genpmpi pmpi

//go:embed pmpi/*.c pmpi/*.h
var sources embed.FS

//go:embed api/clc_user.h api/clc_user_f.c
var api embed.FS

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command and returns its exit status: cli's for clc-trace's
// own errors, else the traced program's.
func run(argv []string, stdout, stderr io.Writer) int {
	var c config
	code := -1
	cmd := newCommand(&c, stdout, stderr, &code)
	cmd.SetArgs(argv)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	err := cmd.Execute()
	if err != nil {
		fmt.Fprintln(stderr, "clc-trace:", err)
		if code <= 0 {
			code = cli.Status(err)
		}
	}
	return max(code, 0)
}

const long = `clc-trace records every MPI call of a program (enter/leave, messages, requests,
collectives, communicators) and the user regions it marks or that its compiler
instruments, with a TSC timer, measures clock offsets against rank 0 at
MPI_Init and MPI_Finalize, and writes a trace that clc-correct takes: clc's
native format (the default) or an OTF2 archive (--format otf2).

Two ways to run it, with Open MPI (mpirun) or MPICH (mpirun.mpich / mpiexec):
  mpirun -np 4 clc-trace -o DIR ./app args       one clc-trace per rank
  clc-trace -o DIR -- mpirun -np 4 ./app args    clc-trace wraps the launcher
Without -o the trace goes into a new directory clc-trace-YYYYMMDD_HHMMSS (a
suffix _2, _3 … when it exists) in the working directory, one per run.

Nothing recorded is lost when the program dies: the ranks' buffers live in
files (DIR/.clc-meta/<rank>.tail) that outlive them; a crash, a terminating
signal, MPI_Abort or an exit without MPI_Finalize writes them at once, and
clc-trace writes what a killed rank left. Events are also written after
--flush EVENTS or DURATION, whichever comes first. A run that did not finish
gets a manifest saying "complete": false, and clc-trace says how many events
each rank kept; clc-trace --convert DIR finishes a trace whose clc-trace was
killed too.

User regions: CLC_REGION_BEGIN("name") / CLC_REGION_END("name") from the
header --write-api writes (C; Fortran through the file it writes beside), or
a program compiled with -finstrument-functions; --filter FILE (Score-P's
filter syntax) picks the regions recorded.

The PMPI library is built on first use with the MPI C compiler of the program's MPI
(mpicc.openmpi / mpicc.mpich / mpicc) into $CLC_CACHE_DIR, else $XDG_CACHE_HOME/clc or
~/.cache/clc, once per MPI flavour, compiler and library version; clc-trace says
when it builds and how long it took.

Emulated clock error (for testing clc-correct on one machine, whose ranks share one
clock): --emulate-clock gives each rank, or each group of --emulate-ranks-per-node
ranks, its own clock on top of the real one, local(t) = t + offset + drift·t +
wander(t) with wander a sum of three sines; the group of rank 0 keeps the true clock.
Events and offset measurements both use the emulated clocks, and DIR/truth/ receives
the same events with their true times. --emulate-clock=on means
offset=1ms,drift=10ppm,wander=2us,period=200ms,seed=1; any key may be given alone.

Shell completion (flags and their values): source the script --completion
bash|zsh|fish|powershell prints, e.g. source <(clc-trace --completion bash).

The PMPI library reads its settings from CLC_TRACE_* variables, which
clc-trace sets from its flags alone: any the environment holds is cleared.

Exit status: the program's (or the launcher's) when it ran, or 1 when the
program ended well but no trace was written (the disk filled up, the output
directory was removed); 1 when clc-trace failed (no MPI compiler, the library
did not build, the output directory is taken, not writable, or its parent does
not exist: clc-trace makes only the last part of -o); 2 for a usage error (a
bad flag or value, no program, a program of another MPI than --mpi or the
launcher); nothing was run then.`

func newCommand(c *config, stdout, stderr io.Writer, code *int) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "clc-trace [flags] PROGRAM [ARGS...] | clc-trace [flags] -- LAUNCHER [ARGS...]",
		Short: "Record an MPI program's events into a trace (clc's native format or OTF2)",
		Long:  long,
		Example: `  mpirun -np 4 clc-trace -o trace ./ring
  clc-trace -o trace -- mpirun.mpich -np 4 ./ring
  clc-trace --format otf2 -- mpirun -np 4 ./halo        # into a new clc-trace-YYYYMMDD_HHMMSS/
  clc-trace -o trace --emulate-clock offset=500us,drift=20ppm -- mpirun -np 4 ./halo
  clc-trace -o trace --filter scorep.filt -- mpirun -np 4 ./app_instrumented
  clc-trace --convert trace                              # finish a trace whose clc-trace was killed
  clc-trace --build-only --mpi mpich`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			status, err := execute(c, args, stdout, stderr, cmd)
			*code = status
			return err
		},
	}
	f := cmd.Flags()
	f.SetInterspersed(false)
	f.StringVarP(&c.out, "output", "o", "", "trace directory (refused if it holds a trace, see --force; default: a new clc-trace-YYYYMMDD_HHMMSS in the working directory)")
	f.BoolVar(&c.force, "force", false, "replace a trace already in the -o directory")
	f.StringVar(&c.format, "format", "native", "trace format: native (clc's; clc-correct reads it fastest) or otf2 (an OTF2 archive, converted from the native streams after the run)")
	f.StringVar(&c.mpi, "mpi", "", "MPI flavour: openmpi or mpich (default: from the program's libmpi, the launcher or the environment)")
	f.StringVar(&c.mpicc, "mpicc", "", "MPI C compiler to build the library with (default: mpicc.openmpi / mpicc.mpich / mpicc)")
	f.StringVar(&c.cache, "cache", "", "directory for built libraries (default $CLC_CACHE_DIR, $XDG_CACHE_HOME/clc or ~/.cache/clc)")
	f.StringVar(&c.sync, "sync", "flat", "clock-offset measurement: flat (every rank against rank 0, O(p) rounds) or tree (HCA-like, O(log p) rounds)")
	f.StringVar(&c.syncRounds, "sync-rounds", "", "ping-pong rounds per measurement as MIN,PATIENCE,MAX (default 20,10,400: stop once the best RTT has not improved for PATIENCE rounds and is within twice the best RTT rank 0 has seen)")
	f.StringVar(&c.emulate, "emulate-clock", "", "emulate clock error: on, or offset=DUR,drift=PPMppm,wander=DUR,period=DUR,seed=N")
	f.IntVar(&c.rpn, "emulate-ranks-per-node", 1, "ranks sharing one emulated clock (consecutive world ranks; with --emulate-clock)")
	f.StringVar(&c.buffer, "buffer", "1MiB", "event buffer per rank and stream, 4KiB to 64MiB; two are used (double buffering)")
	f.StringVar(&c.flush, "flush", "65536,1s", "write a rank's events after EVENTS events or DURATION, whichever comes first (EVENTS,DURATION; 0 for no bound)")
	f.StringVar(&c.polls, "polls", "collapse", "unsuccessful tests and probes (MPI_Test*, MPI_Iprobe …): collapse (a run of calls keeps its first and last call, the last with attribute clc::calls, the run's length) or all")
	f.StringVar(&c.groups, "mpi-groups", "all", "MPI function groups to record: all, or a list of "+strings.Join(groupNames(), ",")+"; all,-io removes one (like Score-P's SCOREP_MPI_ENABLE_GROUPS)")
	f.StringVar(&c.filter, "filter", "", "region filter file in Score-P's syntax (SCOREP_REGION_NAMES_BEGIN, INCLUDE/EXCLUDE patterns): the user regions recorded")
	f.StringVar(&c.convert, "convert", "", "finish the trace a run left unfinished in DIR (its clc-trace was killed too): write what the ranks' buffers hold and the manifest, and for an OTF2 run the archive; then exit")
	f.StringVar(&c.writeAPI, "write-api", "", "write the user-region API (clc_user.h for C, clc_user_f.c for Fortran) into DIR and exit")
	f.StringVar(&c.completion, "completion", "", "print the shell completion script for bash, zsh, fish or powershell and exit")
	f.BoolVar(&c.buildOnly, "build-only", false, "build (or find) the library for the flavour given by --mpi, print its path and exit")
	f.BoolVarP(&c.quiet, "quiet", "q", false, "print nothing but errors")
	completions(cmd)
	cli.Setup(cmd)
	return cmd
}

func groupNames() []string {
	var out []string
	for _, g := range mpifn.Groups() {
		if g != mpifn.GroupSpawn {
			out = append(out, g.String())
		}
	}
	return out
}

// completions registers the values of the flags that have a fixed set.
func completions(cmd *cobra.Command) {
	fixed := func(name string, values ...string) {
		_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
	}
	fixed("format", "native\tclc's native format", "otf2\tan OTF2 archive")
	fixed("mpi", "openmpi\tOpen MPI", "mpich\tMPICH")
	fixed("sync", "flat\tevery rank against rank 0", "tree\tHCA-like, O(log p) rounds")
	fixed("polls", "collapse\tfirst and last call of a run, with its length", "all\tevery call")
	fixed("sync-rounds", "20,10,400\tthe default")
	fixed("buffer", "64KiB", "256KiB", "1MiB\tthe default", "4MiB", "16MiB", "64MiB")
	fixed("flush", "65536,1s\tthe default", "0,0\tonly full buffers")
	fixed("emulate-clock", "on\toffset=1ms,drift=10ppm,wander=2us,period=200ms,seed=1", "off",
		"offset=", "drift=", "wander=", "period=", "seed=")
	fixed("emulate-ranks-per-node", "1", "2", "4", "8")
	fixed("completion", "bash", "zsh", "fish", "powershell")
	groups := append([]string{"all"}, groupNames()...)
	_ = cmd.RegisterFlagCompletionFunc("mpi-groups", func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
		// complete the last item of a comma list, keeping what precedes it
		head := typed[:strings.LastIndex(typed, ",")+1]
		var out []string
		for _, g := range groups {
			out = append(out, head+g)
			if head != "" && g != "all" {
				out = append(out, head+"-"+g)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
	dirs := func(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	for _, n := range []string{"output", "cache", "convert", "write-api"} {
		_ = cmd.RegisterFlagCompletionFunc(n, dirs)
	}
	cmd.ValidArgsFunction = func(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveDefault // the program and its arguments: files
	}
}

// completionScript writes the completion script of shell.
func completionScript(cmd *cobra.Command, shell string, w io.Writer) error {
	switch shell {
	case "bash":
		return cmd.GenBashCompletionV2(w, true)
	case "zsh":
		return cmd.GenZshCompletion(w)
	case "fish":
		return cmd.GenFishCompletion(w, true)
	case "powershell":
		return cmd.GenPowerShellCompletionWithDesc(w)
	}
	return cli.Usagef("--completion %q: want bash, zsh, fish or powershell", shell)
}

// writeAPI writes the user-region API files into dir.
func writeAPI(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("--write-api: %w", err)
	}
	var out []string
	for _, n := range []string{"clc_user.h", "clc_user_f.c"} {
		data, err := api.ReadFile("api/" + n)
		if err != nil {
			return nil, err
		}
		p := dir + string(os.PathSeparator) + n
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, fmt.Errorf("--write-api: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}
