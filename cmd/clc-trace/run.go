package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/output"
	"github.com/clc-tools/clc/trace"
	"github.com/clc-tools/clc/tracer"

	"github.com/clc-tools/clc/internal/mpitool"
)

// execute does what the flags ask: a side task (--completion, --write-api,
// --convert, --build-only), or the traced run. It returns the exit status
// (-1: cli's for the error).
func execute(c *config, args []string, stdout, stderr io.Writer, cmd *cobra.Command) (int, error) {
	say := func(format string, a ...any) {
		if !c.quiet {
			fmt.Fprintf(stderr, "clc-trace: "+format+"\n", a...)
		}
	}
	switch {
	case c.completion != "":
		return -1, completionScript(cmd, c.completion, stdout)
	case c.writeAPI != "":
		files, err := writeAPI(c.writeAPI)
		if err == nil {
			say("wrote %s", strings.Join(files, ", "))
		}
		return -1, err
	case c.convert != "":
		return -1, convert(c.convert, say)
	}
	s, err := check(c)
	if err != nil {
		return -1, err
	}
	if c.buildOnly {
		if s.flavour == "" {
			return -1, cli.Usagef("--build-only needs --mpi openmpi|mpich")
		}
		lib, err := build(c, s.flavour, stderr)
		if err != nil {
			return -1, err
		}
		fmt.Fprintln(stdout, lib)
		return 0, nil
	}
	if len(args) == 0 {
		return -1, cli.Usagef("no program given (see --help)")
	}
	return traced(c, s, args, stderr, say)
}

// traced runs the program with the library and finishes its trace.
func traced(c *config, s *settings, args []string, stderr io.Writer, say func(string, ...any)) (int, error) {
	launch := tracer.IsLauncher(args[0])
	rank := mpitool.RankOfEnv(os.Environ())
	if launch && rank >= 0 {
		return -1, cli.Usagef("%s started by an MPI launcher: use either mpirun clc-trace ./app or clc-trace -- mpirun ./app", args[0])
	}
	reporter := launch || rank <= 0
	prog, err := mpitool.LookPath(args[0])
	if err != nil {
		return -1, cli.Usagef("program %s: %w", args[0], err)
	}
	app := prog
	if launch {
		app = tracer.ProgramOfLaunch(args)
	}
	fl, err := pickFlavour(s.flavour, launch, prog, app, args)
	if err != nil {
		return -1, cli.Usage(err)
	}
	unrecorded, err := checkImports(app, fl, s.groups, reporter && !c.quiet, stderr)
	if err != nil {
		return -1, cli.Usage(err)
	}
	opt := &tracer.Options{Flavour: fl, Sync: c.sync, SyncRounds: c.syncRounds, Emulate: s.emulate, Buffer: s.buffer,
		Command: strings.Join(args, " "), Groups: s.groups, Polls: c.polls, Unrecorded: unrecorded,
		FlushEvents: s.flushEvents, FlushAfter: s.flushAfter, Filter: s.filter}
	// The trace directory: -o, or a new dated one; per rank, rank 0's
	// library creates that one and tells each rank's clc-trace.
	dir := ""
	switch {
	case c.out != "":
		if dir, err = prepareDir(c.out, c.format, c.force, reporter); err != nil {
			return -1, err
		}
	case launch:
		if dir, err = newDir(); err != nil {
			return -1, err
		}
	default:
		wd, err := os.Getwd()
		if err != nil {
			return -1, err
		}
		note, err := os.CreateTemp("", "clc-trace-dir-")
		if err != nil {
			return -1, fmt.Errorf("a note for the trace directory: %w", err)
		}
		note.Close()
		defer os.Remove(note.Name())
		opt.NewDir, opt.DirNote = filepath.Join(wd, newDirPrefix), note.Name()
	}
	if c.format == "otf2" {
		opt.Out = dir
		if dir == "" {
			opt.Out = "new"
		}
	}
	opt.Dir = dir
	if c.format == "otf2" && dir != "" {
		opt.Dir = filepath.Join(dir, tracer.NativeSubdir)
	}
	if opt.Lib, err = build(c, fl, stderr); err != nil {
		return -1, err
	}
	var env []string
	if launch {
		if env, err = tracer.LauncherEnv(os.Environ(), opt); err != nil {
			return -1, err
		}
	} else {
		env = tracer.RankEnv(os.Environ(), opt)
	}
	status, killed, err := runChild(prog, args, env)
	if err != nil {
		return status, err
	}
	if dir == "" { // per rank into a new directory: what rank 0's library made
		b, _ := os.ReadFile(opt.DirNote)
		if dir = strings.TrimSpace(string(b)); dir == "" {
			if reporter {
				fmt.Fprintf(stderr, "clc-trace: no trace: the program ended (exit status %d) before MPI_Init made the trace directory\n", status)
			}
			return status, nil
		}
	}
	return finish(c, s, dir, launch, reporter, rank, status, killed, unrecorded, stderr, say), nil
}

// finish completes the trace after the run: a run that did not reach
// MPI_Finalize gets what its ranks left written and an incomplete
// manifest, and one clc-trace says what the ranks kept; an OTF2 run is
// converted. It returns the exit status: the program's, or a failure
// when the program ended well and no trace was written.
func finish(c *config, s *settings, dir string, launch, reporter bool, rank, status int, killed bool, unrecorded *string,
	stderr io.Writer, say func(string, ...any)) int {
	nativeDir := dir
	if c.format == "otf2" {
		nativeDir = filepath.Join(dir, tracer.NativeSubdir)
	}
	props := map[string]string{trace.PropMPIGroups: s.groups.String(), trace.PropPolls: c.polls}
	if unrecorded != nil {
		props[trace.PropUnrecordedMPI] = *unrecorded
	}
	complete, _ := tracer.ManifestComplete(nativeDir)
	// Launched by this clc-trace, every rank has ended. Per rank, the
	// clc-trace of a rank whose program ended without MPI_Finalize
	// finishes what the ranks of this host left (rank 0's also when its
	// program ended well: the trace may be missing).
	var u *tracer.Unfinished
	var err error
	tell := false // this clc-trace says what the ranks kept
	o := tracer.RecoverOptions{}
	switch {
	case complete:
	case launch:
		u, err = tracer.FinishUnfinished(nativeDir, props, o)
		tell = reporter
	default:
		o.ThisHost = true
		own, _ := tracer.ParseMeta(filepath.Join(nativeDir, tracer.MetaDir, strconv.Itoa(rank)+".txt"))
		if !reporter && (own == nil || own.Done) {
			// a rank that did not trace, or finished MPI_Finalize (whatever
			// its exit status), leaves the trace to rank 0's library, which
			// may not have written the manifest yet
			return status
		}
		u, tell, err = finishRank(nativeDir, rank, props, own, killed)
		if !tell && u != nil && !u.Complete && !u.Told && !u.Last {
			note(dir, nativeDir, rank, status, own, u, stderr)
		}
	}
	if !complete && u == nil {
		if reporter {
			fmt.Fprintf(stderr, "clc-trace: no trace in %s: %v\n", dir, noTrace(dir, err))
			if status == 0 {
				status = cli.ExitFailure
			}
		}
		return status
	}
	if u != nil && u.Complete {
		complete = true
	}
	if tell && !u.Complete {
		if err != nil {
			fmt.Fprintf(stderr, "clc-trace: finishing the trace in %s: %v\n", dir, err)
		}
		next := ""
		switch {
		case u.Pending():
			next = fmt.Sprintf("; once every rank has ended, `clc-trace --convert %s` writes what their buffers still hold", dir)
			if c.format == "otf2" {
				next += " and the OTF2 archive"
			}
		case c.format == "otf2":
			next = fmt.Sprintf("; clc-trace converts it to OTF2 unless the launcher kills it first, and then `clc-trace --convert %s` does", dir)
		}
		// per rank, the status is this rank's, which may not be the one
		// that ended the run: the summary says how each rank ended
		who := fmt.Sprintf("exit status %d", status)
		if !launch {
			who = fmt.Sprintf("rank %d's exit status %d", rank, status)
		}
		fmt.Fprintf(stderr, "clc-trace: the run did not finish (%s): the trace in %s is incomplete (\"complete\": false); %s%s\n",
			who, nativeDir, u.Summary(), next)
	}
	// the OTF2 archive: rank 0's clc-trace (or the launcher's) after a
	// finished run, the one that told the story after an unfinished one
	if !(tell || (complete && reporter)) {
		return status
	}
	if c.format == "otf2" {
		n, _, err := tracer.FinishOTF2(dir, props, o) // what the ranks kept was said above
		if errors.Is(err, tracer.ErrPending) {
			return status // said above
		}
		if err != nil {
			fmt.Fprintf(stderr, "clc-trace: converting the trace to OTF2 failed: %v; the native trace stays in %s (clc-correct reads it; clc-trace --convert %s retries)\n", err, nativeDir, dir)
			if status == 0 {
				status = cli.ExitFailure
			}
			return status
		}
		say("OTF2 archive written to %s (%d events)", filepath.Join(dir, otf.AnchorName), n)
		return status
	}
	if complete && reporter {
		say("trace written to %s", dir)
	}
	return status
}

// finishWait bounds how long the clc-trace of a per-rank launch waits for
// the other ranks of its host to end before it leaves the trace to them:
// they are ending too when the launcher is killing the job (Open MPI sends
// SIGKILL a second after SIGTERM) or every rank returns without
// MPI_Finalize.
const finishWait = 3 * time.Second

// finishRank finishes, for the clc-trace of one rank of a per-rank launch,
// what the ranks of this host left (tracer.FinishRank), and reports
// whether this clc-trace is the one to say what they kept: the one that
// found every rank of the host ended, under the trace's lock. When the
// launcher is killing the job (killed) or the rank exited without
// MPI_Finalize, the other ranks are ending too: it waits for them up to
// finishWait. A rank that crashed on its own does not wait: the others
// may wait for it, and the launcher ends them only once this clc-trace
// has exited.
func finishRank(nativeDir string, rank int, props map[string]string, own *tracer.RankMeta, killed bool) (*tracer.Unfinished, bool, error) {
	wait := time.Duration(0)
	if killed || (own != nil && own.Ended == "exited") {
		wait = finishWait
	}
	deadline := time.Now().Add(wait)
	for {
		u, err := tracer.FinishRank(nativeDir, rank, props)
		if u == nil || u.Complete || u.Told || u.Last || !time.Now().Before(deadline) {
			return u, u != nil && u.Last, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// note is what the clc-trace of a rank says when it leaves the trace to
// the ranks still running: nothing when the rank's library said how it
// ended (a signal it handled, MPI_Abort, rank 0's exit without
// MPI_Finalize), else one line.
func note(dir, nativeDir string, rank, status int, own *tracer.RankMeta, u *tracer.Unfinished, stderr io.Writer) {
	if own != nil && (own.Ended == "aborted" || strings.HasPrefix(own.Ended, "signal ") || (own.Ended == "exited" && rank == 0)) {
		return
	}
	var running []string
	for _, r := range u.Ranks {
		if r.Running || r.Pending > 0 {
			running = append(running, strconv.Itoa(r.Rank))
		}
	}
	fmt.Fprintf(stderr, "clc-trace: rank %d ended (exit status %d) without MPI_Finalize while ranks %s still run: its events are in %s; "+
		"the last of their clc-trace finishes the trace, or, if the launcher kills them, `clc-trace --convert %s` does\n",
		rank, status, strings.Join(running, ","), nativeDir, dir)
}

// noTrace explains why no trace was written into dir: err, or, when dir
// is gone, that it was removed during the run.
func noTrace(dir string, err error) error {
	if _, serr := os.Stat(dir); errors.Is(serr, os.ErrNotExist) {
		return fmt.Errorf("%s was removed during the run", dir)
	}
	return err
}

// convertWait is how long --convert waits for ranks whose process still
// runs (an orphan the launcher left, on its way out).
const convertWait = 10 * time.Second

// convert finishes the trace in dir that a run left: the native streams
// of an OTF2 run (dir/clc-native) into the archive, or a native trace
// without its manifest.
func convert(dir string, say func(string, ...any)) error {
	native := dir
	if _, err := os.Stat(filepath.Join(dir, tracer.NativeSubdir)); err == nil {
		native = filepath.Join(dir, tracer.NativeSubdir)
	}
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		running := tracer.RunningRanks(native)
		if len(running) == 0 {
			break
		}
		if time.Since(start) > convertWait {
			say("ranks %v still run after %v: their events stay in their buffers (run --convert again once they have ended)", running, convertWait)
			break
		}
	}
	if native != dir {
		n, u, err := tracer.FinishOTF2(dir, nil, tracer.RecoverOptions{})
		if err != nil {
			return fmt.Errorf("converting %s: %w", filepath.Join(dir, tracer.NativeSubdir), err)
		}
		if u != nil && !u.Complete {
			say("the run did not finish: %s", u.Summary())
		}
		say("OTF2 archive written to %s (%d events)", filepath.Join(dir, otf.AnchorName), n)
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, tracer.MetaDir)); err != nil {
		if _, err := os.Stat(filepath.Join(dir, otf.AnchorName)); err == nil {
			say("%s holds a finished OTF2 archive: nothing to do", dir)
			return nil
		}
		return fmt.Errorf("%s holds no trace that clc-trace left (neither %s nor %s)", dir, tracer.NativeSubdir, tracer.MetaDir)
	}
	u, err := tracer.FinishUnfinished(dir, nil, tracer.RecoverOptions{})
	if err != nil && u == nil {
		return fmt.Errorf("finishing %s: %w", dir, err)
	}
	if u.Complete {
		say("%s holds a complete trace: nothing to do", dir)
		return err
	}
	say("the trace in %s is incomplete (\"complete\": false): %s", dir, u.Summary())
	return err
}

// newDirPrefix is the name of a new trace directory before its date.
const newDirPrefix = "clc-trace-"

// newDir makes a new trace directory in the working directory, named by
// the date (tracer.NewDirLayout), _2, _3 … when the name is taken.
func newDir() (string, error) {
	base := newDirPrefix + time.Now().Format(tracer.NewDirLayout)
	for k := 1; k < 1000; k++ {
		name := base
		if k > 1 {
			name = fmt.Sprintf("%s_%d", base, k)
		}
		err := os.Mkdir(name, 0o755)
		if err == nil {
			return filepath.Abs(name)
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("creating the trace directory: %w", err)
		}
	}
	return "", fmt.Errorf("creating the trace directory: %s and 998 more exist", base)
}

// checkImports lists the communicating MPI functions the program imports
// that the trace will not hold (printed when tell is set), and refuses
// MPICH's "use mpi_f08" bindings, which bypass the C functions. It
// returns nil when the program could not be read.
func checkImports(app string, fl tracer.Flavour, groups tracer.GroupSet, tell bool, stderr io.Writer) (*string, error) {
	if app == "" {
		if tell {
			fmt.Fprintln(stderr, "clc-trace: the program was not found in the launch command: its MPI imports are not checked")
		}
		return nil, nil
	}
	im, err := tracer.ScanImports(app, os.Environ())
	if err != nil {
		if tell {
			fmt.Fprintf(stderr, "clc-trace: cannot check the MPI functions %s imports: %v\n", app, err)
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
		fmt.Fprintf(stderr, "clc-trace: %s imports %d communicating MPI functions that the trace will not hold (its property clc.unrecorded-mpi lists them):%s\n", app, len(u), b.String())
	}
	if tell && len(im.Missing) > 0 {
		fmt.Fprintf(stderr, "clc-trace: libraries %s needs were not found, so their MPI imports are not checked: %s\n", app, strings.Join(im.Missing, ", "))
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
	// A launcher that kills this clc-trace (MPICH's hydra, with SIGKILL)
	// leaves the program to the kernel: it gets SIGTERM, which the library
	// turns into its events written. (The signal follows the thread that
	// started the child: it stays locked until the child ends.)
	child.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := child.Start(); err != nil {
		return cli.ExitFailure, false, fmt.Errorf("starting %s: %w", args[0], err)
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
		return cli.ExitFailure, killed, fmt.Errorf("waiting for %s: %w", args[0], werr)
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
	} else if f := mpitool.FlavourOfEnv(os.Environ()); f != "" {
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

func name(f tracer.Flavour) string { return f.Name() }

// build finds or builds the library, saying on stderr when it builds
// (unless quiet) and how long it took.
func build(c *config, fl tracer.Flavour, stderr io.Writer) (string, error) {
	comp, cache, err := mpitool.Setup(fl, c.mpicc, c.cache)
	if err != nil {
		return "", err
	}
	src, err := fs.Sub(sources, "pmpi")
	if err != nil {
		return "", err
	}
	var notice mpitool.Notice
	if !c.quiet {
		notice = mpitool.Announce(stderr, "clc-trace", "the tracing library")
	}
	return tracer.Build(src, comp, cache, notice)
}

// prepareDir makes the output directory and checks that it is writable. The
// first process (the launcher wrapper, or rank 0) refuses a directory that
// already holds a trace unless force is set, and with force one that holds
// anything but a trace (output.CheckTrace, the rule of every clc tool).
func prepareDir(out, format string, force, first bool) (string, error) {
	dir, err := filepath.Abs(out)
	if err != nil {
		return "", fmt.Errorf("output directory %s: %w", out, err)
	}
	// A missing parent is refused, not made: clc-trace would leave it
	// behind when the run fails (issue 33), and a typo in -o would go
	// unnoticed.
	if st, err := os.Stat(filepath.Dir(dir)); errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("output directory %s: its parent %s does not exist (clc-trace makes only the last part of -o)", dir, filepath.Dir(dir))
	} else if err == nil && !st.IsDir() {
		return "", fmt.Errorf("output directory %s is not writable: %s is not a directory", dir, filepath.Dir(dir))
	}
	natDir := dir
	if format == "otf2" {
		natDir = filepath.Join(dir, tracer.NativeSubdir)
	}
	if first {
		var held []string
		// (not the bare clc-native/: in per-rank mode the other ranks may
		// have made it already)
		for _, n := range []string{native.ManifestName, otf.AnchorName, filepath.Join(tracer.NativeSubdir, native.ManifestName)} {
			if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
				held = append(held, n)
			}
		}
		if len(held) > 0 {
			if !force {
				return "", fmt.Errorf("output directory %s already holds a trace (%s; use --force to replace it, or another -o, or none for a new directory)", dir, strings.Join(held, ", "))
			}
			// package output's rule, as clc-correct's and clc-sim's --force
			if err := output.CheckTrace(dir); err != nil {
				return "", fmt.Errorf("output directory %s does not hold only a trace (%v): refusing to replace it even with --force", dir, err)
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				return "", fmt.Errorf("replacing the trace in %s: %w", dir, err)
			}
			for _, e := range ents {
				if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
					return "", fmt.Errorf("replacing the trace in %s: %w", dir, err)
				}
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(natDir, "events"), 0o755); err != nil {
		return "", fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe, err := os.CreateTemp(natDir, ".clc-write-test-")
	if err != nil {
		return "", fmt.Errorf("output directory %s is not writable: %w", dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return dir, nil
}
