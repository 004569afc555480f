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
	"sync"
	"syscall"

	"github.com/clc-tools/clc/tracer"
	"github.com/spf13/cobra"
)

//go:generate go run ./internal/genpmpi pmpi

//go:embed pmpi/*.c pmpi/*.h
var sources embed.FS

type config struct {
	out, mpi, mpicc, cache, sync, syncRounds, emulate string
	rpn                                               int
	buffer                                            string
	format, polls, groups, convert                    string
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
	f.StringVar(&c.format, "format", "native", "trace format: native (clc's; clc-correct reads it fastest) or otf2 (an OTF2 archive, converted from the native streams after the run)")
	f.StringVar(&c.polls, "polls", "collapse", "unsuccessful tests and probes (MPI_Test*, MPI_Iprobe …): collapse (a run of calls keeps its first and last call, the last with attribute clc::calls, the run's length) or all")
	f.StringVar(&c.groups, "mpi-groups", "all", "MPI function groups to record: all, or a list of env,p2p,coll,cg,topo,io,rma,xreqtest; all,-io removes one (like Score-P's SCOREP_MPI_ENABLE_GROUPS)")
	f.StringVar(&c.convert, "convert", "", "convert the native trace an OTF2 run left in DIR/"+tracer.NativeSubdir+" (it did not finish) into the OTF2 archive in DIR, and exit")
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

// options checks the flags that do not need the program.
func options(c *config) (fl tracer.Flavour, buf int64, emu string, groups tracer.GroupSet, err error) {
	if c.mpi != "" {
		if fl, err = tracer.ParseFlavour(c.mpi); err != nil {
			return
		}
	}
	if c.sync != "flat" && c.sync != "tree" {
		err = fmt.Errorf("--sync %q: want flat or tree", c.sync)
		return
	}
	if c.format != "native" && c.format != "otf2" {
		err = fmt.Errorf("--format %q: want native or otf2", c.format)
		return
	}
	if c.polls != "collapse" && c.polls != "all" {
		err = fmt.Errorf("--polls %q: want collapse or all", c.polls)
		return
	}
	if groups, err = tracer.ParseGroups(c.groups); err != nil {
		return
	}
	if buf, err = parseSize(c.buffer); err != nil {
		return
	}
	if c.emulate != "" && c.emulate != "off" {
		var e tracer.Emulation
		if e, err = tracer.ParseEmulation(c.emulate); err != nil {
			return
		}
		e.RanksPerNode = c.rpn
		emu = e.Spec()
	}
	return
}

func execute(c *config, args []string) (int, error) {
	if c.convert != "" {
		n, err := tracer.FinishOTF2(c.convert, nil)
		if err != nil {
			return 1, fmt.Errorf("converting %s: %w", filepath.Join(c.convert, tracer.NativeSubdir), err)
		}
		if !c.quiet {
			fmt.Fprintf(os.Stderr, "clc-trace: OTF2 archive written to %s (%d events)\n", filepath.Join(c.convert, "traces.otf2"), n)
		}
		return 0, nil
	}
	fl, buf, emu, groups, err := options(c)
	if err != nil {
		return 2, err
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
	reporter := launch || rank <= 0
	prog, err := tracer.LookPath(args[0])
	if err != nil {
		return 127, fmt.Errorf("program %s: %w", args[0], err)
	}
	app := prog
	if launch {
		app = tracer.ProgramOfLaunch(args)
	}
	fl, err = pickFlavour(fl, launch, prog, app, args)
	if err != nil {
		return 2, err
	}
	unrecorded, err := checkImports(app, fl, groups, reporter && !c.quiet)
	if err != nil {
		return 2, err
	}
	dir, err := prepareDir(c.out, c.format, c.force, reporter)
	if err != nil {
		return 2, err
	}
	nativeDir, otf2Out := dir, ""
	if c.format == "otf2" {
		nativeDir, otf2Out = filepath.Join(dir, tracer.NativeSubdir), dir
	}
	lib, err := build(c, fl)
	if err != nil {
		return 1, err
	}
	opt := &tracer.Options{Dir: nativeDir, Lib: lib, Flavour: fl, Sync: c.sync, SyncRounds: c.syncRounds, Emulate: emu, Buffer: buf,
		Command: strings.Join(args, " "), Groups: groups, Polls: c.polls, Unrecorded: unrecorded, Out: otf2Out}
	var env []string
	if launch {
		if env, err = tracer.LauncherEnv(os.Environ(), opt); err != nil {
			return 2, err
		}
	} else {
		env = tracer.RankEnv(os.Environ(), opt)
	}
	status, killed, err := runChild(prog, args, env)
	if err != nil {
		return status, err
	}

	props := map[string]string{"clc.mpi-groups": groups.String(), "clc.polls": c.polls}
	if unrecorded != nil {
		props["clc.unrecorded-mpi"] = *unrecorded
	}
	_, statErr := os.Stat(filepath.Join(nativeDir, "clc.json"))
	finished := statErr == nil
	if !finished && (reporter || status != 0 || killed) {
		wrote, err := tracer.WriteIncompleteManifest(nativeDir, props)
		switch {
		case err != nil && reporter:
			fmt.Fprintf(os.Stderr, "clc-trace: no trace in %s: %v\n", dir, err)
			return status, nil
		case wrote && c.format == "otf2":
			fmt.Fprintf(os.Stderr, "clc-trace: the run did not finish (exit status %d): wrote an incomplete native trace to %s (\"complete\": false); clc-trace converts it to OTF2 unless the launcher kills it first, and then `clc-trace --convert %s` does\n", status, nativeDir, dir)
		case wrote:
			fmt.Fprintf(os.Stderr, "clc-trace: the run did not finish (exit status %d): wrote an incomplete trace to %s (\"complete\": false)\n", status, nativeDir)
		}
	}
	if !reporter {
		return status, nil
	}
	if c.format == "otf2" {
		if _, err := os.Stat(filepath.Join(nativeDir, "clc.json")); err != nil {
			return status, nil
		}
		n, err := tracer.FinishOTF2(dir, props)
		if err != nil {
			fmt.Fprintf(os.Stderr, "clc-trace: converting the trace to OTF2 failed: %v; the native trace stays in %s (clc-correct reads it; clc-trace --convert %s retries)\n", err, nativeDir, dir)
			if status == 0 {
				status = 1
			}
			return status, nil
		}
		if !c.quiet {
			fmt.Fprintf(os.Stderr, "clc-trace: OTF2 archive written to %s (%d events)\n", filepath.Join(dir, "traces.otf2"), n)
		}
		return status, nil
	}
	if finished && !c.quiet {
		fmt.Fprintf(os.Stderr, "clc-trace: trace written to %s\n", dir)
	}
	return status, nil
}

// checkImports lists the communicating MPI functions the program imports
// that the trace will not hold (printed when tell is set), and refuses
// MPICH's "use mpi_f08" bindings, which bypass the C functions. It
// returns nil when the program could not be read.
func checkImports(app string, fl tracer.Flavour, groups tracer.GroupSet, tell bool) (*string, error) {
	if app == "" {
		if tell {
			fmt.Fprintln(os.Stderr, "clc-trace: the program was not found in the launch command: its MPI imports are not checked")
		}
		return nil, nil
	}
	im, err := tracer.ScanImports(app, os.Environ())
	if err != nil {
		if tell {
			fmt.Fprintf(os.Stderr, "clc-trace: cannot check the MPI functions %s imports: %v\n", app, err)
		}
		return nil, nil
	}
	if fl == tracer.MPICH && len(im.F08) > 0 {
		return nil, fmt.Errorf("%s calls MPI through MPICH's \"use mpi_f08\" bindings, which call MPICH's internal entry points, not the MPI functions a PMPI tool sees: clc-trace cannot record it; use \"use mpi\" (or mpif.h), or Open MPI, whose mpi_f08 bindings it records", strings.Join(im.F08, ", "))
	}
	u := im.Unrecorded(groups)
	if tell && len(u) > 0 {
		var b strings.Builder
		for _, x := range u {
			fmt.Fprintf(&b, "\n  %s (%s)", x.Name, x.Why)
		}
		fmt.Fprintf(os.Stderr, "clc-trace: %s imports %d communicating MPI functions that the trace will not hold (its property clc.unrecorded-mpi lists them):%s\n", app, len(u), b.String())
	}
	if tell && len(im.Missing) > 0 {
		fmt.Fprintf(os.Stderr, "clc-trace: libraries %s needs were not found, so their MPI imports are not checked: %s\n", app, strings.Join(im.Missing, ", "))
	}
	names := tracer.UnrecordedNames(u)
	return &names, nil
}

// runChild runs the program (or launcher) with env, forwarding signals,
// and returns its exit status and whether a signal was forwarded.
func runChild(prog string, args, env []string) (status int, killed bool, err error) {
	child := exec.Command(prog, args[1:]...)
	child.Args[0] = args[0]
	child.Env = env
	child.Stdin, child.Stdout, child.Stderr = os.Stdin, os.Stdout, os.Stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := child.Start(); err != nil {
		return 127, false, fmt.Errorf("starting %s: %w", args[0], err)
	}
	done := make(chan struct{})
	var mu sync.Mutex
	go func() {
		for {
			select {
			case s := <-sigs:
				mu.Lock()
				killed = true
				mu.Unlock()
				_ = child.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	werr := child.Wait()
	close(done)
	mu.Lock()
	defer mu.Unlock()
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), killed, nil
		}
		return ee.ExitCode(), killed, nil
	} else if werr != nil {
		return 1, killed, fmt.Errorf("waiting for %s: %w", args[0], werr)
	}
	return 0, killed, nil
}

// pickFlavour settles the MPI flavour and refuses a mismatch between the
// program, the launcher and the environment. prog is args[0] found on the
// path, app the MPI program: prog, or with a launcher the program it
// starts ("" if not found).
func pickFlavour(given tracer.Flavour, launch bool, prog, app string, args []string) (tracer.Flavour, error) {
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

// nativeFiles are what a native trace (or the native part of an OTF2
// run) holds in its directory.
var nativeFiles = []string{"clc.json", "events", "truth", tracer.MetaDir}

// prepareDir makes the output directory and checks that it is writable. The
// first process (the launcher wrapper, or rank 0) refuses a directory that
// already holds a trace unless force is set.
func prepareDir(out, format string, force, first bool) (string, error) {
	dir, err := filepath.Abs(out)
	if err != nil {
		return "", fmt.Errorf("output directory %s: %w", out, err)
	}
	native := dir
	if format == "otf2" {
		native = filepath.Join(dir, tracer.NativeSubdir)
	}
	if first {
		var held []string
		// (not the bare clc-native/: in per-rank mode the other ranks may
		// have made it already)
		for _, n := range []string{"clc.json", "traces.otf2", filepath.Join(tracer.NativeSubdir, "clc.json")} {
			if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
				held = append(held, n)
			}
		}
		if len(held) > 0 {
			if !force {
				return "", fmt.Errorf("output directory %s already holds a trace (%s; use --force to replace it, or another -o)", dir, strings.Join(held, ", "))
			}
			for _, n := range append([]string{"traces.otf2", "traces.def", "traces", tracer.NativeSubdir}, nativeFiles...) {
				if err := os.RemoveAll(filepath.Join(dir, n)); err != nil {
					return "", fmt.Errorf("replacing the trace in %s: %w", dir, err)
				}
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(native, "events"), 0o755); err != nil {
		return "", fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe, err := os.CreateTemp(native, ".clc-write-test-")
	if err != nil {
		return "", fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return dir, nil
}
