// Command clc-trace records an MPI program's events into a clc native trace
// (docs/format.md, docs/tracer.md) by preloading a PMPI library that it
// builds on first use with the program's MPI compiler.
//
//	mpirun -np 4 clc-trace -o DIR ./app args       # one clc-trace per rank
//	clc-trace -o DIR -- mpirun -np 4 ./app args    # clc-trace wraps the launcher
package main

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/clc-tools/clc/tracer"
	"github.com/spf13/cobra"
)

//go:embed pmpi/clc.h pmpi/core.c pmpi/wrap.c pmpi/fortran.c
var sources embed.FS

type config struct {
	out, mpi, mpicc, cache, sync, syncRounds, emulate string
	rpn                                               int
	buffer                                            string
	force, buildOnly, quiet                           bool
}

func main() {
	code, err := run(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "clc-trace:", err)
		if code == 0 {
			code = 2
		}
	}
	os.Exit(code)
}

func run(argv []string) (int, error) {
	var c config
	code := 0
	cmd := &cobra.Command{
		Use:   "clc-trace [flags] PROGRAM [ARGS...] | clc-trace [flags] -- LAUNCHER [ARGS...]",
		Short: "Record an MPI program's events into a clc native trace",
		Long: `clc-trace records every MPI call of a program (enter/leave, messages, requests,
collectives, communicators) with a TSC timer, measures clock offsets against rank 0
at MPI_Init and MPI_Finalize, and writes a native trace that clc-correct takes.

Two ways to run it, with Open MPI (mpirun) or MPICH (mpirun.mpich / mpiexec):
  mpirun -np 4 clc-trace -o DIR ./app args       one clc-trace per rank
  clc-trace -o DIR -- mpirun -np 4 ./app args    clc-trace wraps the launcher

The PMPI library is built on first use with the MPI C compiler of the program's MPI
(mpicc.openmpi / mpicc.mpich / mpicc) into $CLC_CACHE_DIR, else $XDG_CACHE_HOME/clc or
~/.cache/clc, once per MPI flavour, compiler and library version.

Emulated clock error (for testing clc-correct on one machine, whose ranks share one
clock): --emulate-clock gives each rank, or each group of --emulate-ranks-per-node
ranks, its own clock on top of the real one, local(t) = t + offset + drift·t +
wander(t) with wander a sum of three sines; the group of rank 0 keeps the true clock.
Events and offset measurements both use the emulated clocks, and DIR/truth/ receives
the same events with their true times. --emulate-clock=on means
offset=1ms,drift=10ppm,wander=2us,period=200ms,seed=1; any key may be given alone.`,
		Example: `  mpirun -np 4 clc-trace -o trace ./ring
  clc-trace -o trace -- mpirun.mpich -np 4 ./ring
  clc-trace -o trace --emulate-clock offset=500us,drift=20ppm -- mpirun -np 4 ./halo
  clc-trace --build-only --mpi mpich`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			code, err = execute(&c, args)
			return err
		},
	}
	f := cmd.Flags()
	f.SetInterspersed(false)
	f.StringVarP(&c.out, "output", "o", "clc-trace.out", "trace directory to write")
	f.BoolVar(&c.force, "force", false, "replace a trace already in the output directory")
	f.StringVar(&c.mpi, "mpi", "", "MPI flavour: openmpi or mpich (default: from the program's libmpi, the launcher or the environment)")
	f.StringVar(&c.mpicc, "mpicc", "", "MPI C compiler to build the library with (default: mpicc.openmpi / mpicc.mpich / mpicc)")
	f.StringVar(&c.cache, "cache", "", "directory for built libraries (default $CLC_CACHE_DIR, $XDG_CACHE_HOME/clc or ~/.cache/clc)")
	f.StringVar(&c.sync, "sync", "flat", "clock-offset measurement: flat (every rank against rank 0, O(p) rounds) or tree (HCA-like, O(log p) rounds)")
	f.StringVar(&c.syncRounds, "sync-rounds", "", "ping-pong rounds per measurement as min,patience,max (default 20,10,400: stop once the best RTT has not improved for patience rounds and is within twice the best RTT rank 0 has seen)")
	f.StringVar(&c.emulate, "emulate-clock", "", "emulate clock error: on, or offset=DUR,drift=PPMppm,wander=DUR,period=DUR,seed=N")
	f.IntVar(&c.rpn, "emulate-ranks-per-node", 1, "ranks sharing one emulated clock (consecutive world ranks)")
	f.StringVar(&c.buffer, "buffer", "1MiB", "event buffer per rank and stream; two are used (double buffering), 4KiB to 64MiB")
	f.BoolVar(&c.buildOnly, "build-only", false, "build (or find) the library for the flavour given by --mpi, print its path and exit")
	f.BoolVarP(&c.quiet, "quiet", "q", false, "print nothing but errors")
	cmd.SetArgs(argv)
	err := cmd.Execute()
	return code, err
}

func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range []struct {
		suf string
		m   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"K", 1 << 10}, {"M", 1 << 20}, {"k", 1 << 10}} {
		if strings.HasSuffix(s, u.suf) {
			s, mult = strings.TrimSuffix(s, u.suf), u.m
			break
		}
	}
	var v int64
	if _, err := fmt.Sscanf(s, "%d", &v); err != nil {
		return 0, fmt.Errorf("--buffer %q: not a size", s)
	}
	v *= mult
	if v < 4<<10 || v > 64<<20 {
		return 0, fmt.Errorf("--buffer: %d bytes is outside 4KiB..64MiB", v)
	}
	return v, nil
}

func execute(c *config, args []string) (int, error) {
	var fl tracer.Flavour
	var err error
	if c.mpi != "" {
		if fl, err = tracer.ParseFlavour(c.mpi); err != nil {
			return 2, err
		}
	}
	if c.sync != "flat" && c.sync != "tree" {
		return 2, fmt.Errorf("--sync %q: want flat or tree", c.sync)
	}
	buf, err := parseSize(c.buffer)
	if err != nil {
		return 2, err
	}
	emu := ""
	if c.emulate != "" && c.emulate != "off" {
		e, err := tracer.ParseEmulation(c.emulate)
		if err != nil {
			return 2, err
		}
		e.RanksPerNode = c.rpn
		emu = e.Spec()
	}
	if c.buildOnly {
		if fl == "" {
			return 2, errors.New("--build-only needs --mpi openmpi|mpich")
		}
		lib, err := build(c, fl)
		if err != nil {
			return 1, err
		}
		fmt.Println(lib)
		return 0, nil
	}
	if len(args) == 0 {
		return 2, errors.New("no program given (see --help)")
	}

	launch := tracer.IsLauncher(args[0])
	rank := tracer.RankOfEnv(os.Environ())
	if launch && rank >= 0 {
		return 2, fmt.Errorf("%s started by an MPI launcher: use either mpirun clc-trace ./app or clc-trace -- mpirun ./app", args[0])
	}
	prog, err := tracer.LookPath(args[0])
	if err != nil {
		return 127, fmt.Errorf("program %s: %w", args[0], err)
	}
	fl, err = pickFlavour(fl, launch, prog, args)
	if err != nil {
		return 2, err
	}
	dir, err := prepareDir(c.out, c.force, launch || rank <= 0)
	if err != nil {
		return 2, err
	}
	lib, err := build(c, fl)
	if err != nil {
		return 1, err
	}
	opt := &tracer.Options{Dir: dir, Lib: lib, Flavour: fl, Sync: c.sync, SyncRounds: c.syncRounds, Emulate: emu, Buffer: buf,
		Command: strings.Join(args, " ")}
	var env []string
	if launch {
		if env, err = tracer.LauncherEnv(os.Environ(), opt); err != nil {
			return 2, err
		}
	} else {
		env = tracer.RankEnv(os.Environ(), opt)
	}
	child := exec.Command(prog, args[1:]...)
	child.Args[0] = args[0]
	child.Env = env
	child.Stdin, child.Stdout, child.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	if err := child.Start(); err != nil {
		return 127, fmt.Errorf("starting %s: %w", args[0], err)
	}
	killed := false
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				killed = true
				_ = child.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	werr := child.Wait()
	close(done)
	signal.Stop(sigs)
	status := 0
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = 128 + int(ws.Signal())
		} else {
			status = ee.ExitCode()
		}
	} else if werr != nil {
		return 1, fmt.Errorf("waiting for %s: %w", args[0], werr)
	}

	manifest := filepath.Join(dir, "clc.json")
	_, statErr := os.Stat(manifest)
	reporter := launch || rank <= 0
	if statErr != nil && (reporter || status != 0 || killed) {
		wrote, err := tracer.WriteIncompleteManifest(dir)
		switch {
		case err != nil && reporter:
			fmt.Fprintf(os.Stderr, "clc-trace: no trace in %s: %v\n", dir, err)
		case wrote:
			fmt.Fprintf(os.Stderr, "clc-trace: the run did not finish (exit status %d): wrote an incomplete trace to %s (\"complete\": false)\n", status, dir)
		}
		return status, nil
	}
	if reporter && !c.quiet && statErr == nil {
		fmt.Fprintf(os.Stderr, "clc-trace: trace written to %s\n", dir)
	}
	return status, nil
}

// pickFlavour settles the MPI flavour and refuses a mismatch between the
// program, the launcher and the environment.
func pickFlavour(given tracer.Flavour, launch bool, prog string, args []string) (tracer.Flavour, error) {
	var app string
	if launch {
		app = tracer.ProgramOfLaunch(args)
	} else {
		app = prog
	}
	var appFl tracer.Flavour
	var appErr error
	if app != "" {
		appFl, appErr = tracer.FlavourOfProgram(app)
		if appErr != nil && !errors.Is(appErr, tracer.ErrUnknownFlavour) {
			return "", appErr
		}
	}
	var otherFl tracer.Flavour
	other := ""
	if launch {
		f, err := tracer.FlavourOfLauncher(prog)
		if err == nil {
			otherFl, other = f, args[0]
		} else if given == "" && appFl == "" {
			return "", fmt.Errorf("%v; pass --mpi openmpi|mpich", err)
		}
	} else if f := tracer.FlavourOfEnv(os.Environ()); f != "" {
		otherFl, other = f, "the launcher of this rank"
	}
	if appFl != "" && otherFl != "" && appFl != otherFl {
		return "", fmt.Errorf("wrong MPI flavour: %s links %s but %s is %s; start it with the launcher of its own MPI", app, name(appFl), other, name(otherFl))
	}
	found := appFl
	if found == "" {
		found = otherFl
	}
	if given != "" {
		if found != "" && found != given {
			return "", fmt.Errorf("wrong MPI flavour: --mpi %s, but %s", given, describe(app, appFl, other, otherFl))
		}
		return given, nil
	}
	if found == "" {
		what := "the program"
		if appErr != nil {
			what = appErr.Error()
		}
		return "", fmt.Errorf("%w: %s; pass --mpi openmpi|mpich", tracer.ErrUnknownFlavour, what)
	}
	return found, nil
}

func describe(app string, appFl tracer.Flavour, other string, otherFl tracer.Flavour) string {
	if appFl != "" {
		return fmt.Sprintf("%s links %s", app, name(appFl))
	}
	return fmt.Sprintf("%s is %s", other, name(otherFl))
}

func name(f tracer.Flavour) string {
	if f == tracer.OpenMPI {
		return "Open MPI"
	}
	return "MPICH"
}

func build(c *config, fl tracer.Flavour) (string, error) {
	comp, err := tracer.FindCompiler(fl, c.mpicc)
	if err != nil {
		return "", err
	}
	cache := c.cache
	if cache == "" {
		if cache, err = tracer.DefaultCacheDir(); err != nil {
			return "", err
		}
	}
	src, err := fs.Sub(sources, "pmpi")
	if err != nil {
		return "", err
	}
	return tracer.Build(src, comp, cache)
}

// prepareDir makes the output directory and checks that it is writable. The
// first process (the launcher wrapper, or rank 0) refuses a directory that
// already holds a trace unless force is set.
func prepareDir(out string, force, first bool) (string, error) {
	dir, err := filepath.Abs(out)
	if err != nil {
		return "", fmt.Errorf("output directory %s: %w", out, err)
	}
	if first {
		if _, err := os.Stat(filepath.Join(dir, "clc.json")); err == nil {
			if !force {
				return "", fmt.Errorf("output directory %s already holds a trace (use --force to replace it, or another -o)", dir)
			}
			for _, n := range []string{"clc.json", "events", "truth", tracer.MetaDir} {
				if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
					return "", fmt.Errorf("replacing the trace in %s: %w", dir, err)
				}
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "events"), 0o755); err != nil {
		return "", fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe, err := os.CreateTemp(dir, ".clc-write-test-")
	if err != nil {
		return "", fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return dir, nil
}
