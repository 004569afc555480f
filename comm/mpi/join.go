// Package mpi is the comm.Comm of processes an MPI launcher started
// (mpirun -np P, srun -n P): each Go process starts a small C program, its
// MPI helper, as its child, and makes every MPI call through it — commands
// over a pipe, buffers in a mapping of /dev/shm both share — so that the
// Go program needs no cgo and works with the cluster's own MPI, its
// launcher and interconnect (docs/scale.md, "The engine").
//
// The helper's source is embedded; it is built on first use with the MPI's
// compiler wrapper (mpicc) into the per-user cache (package mpitool, as
// clc-trace builds its PMPI library). The helper is the process that calls
// MPI_Init: it inherits the launcher's environment (OMPI_*, PMI_*, PMIX_*)
// from its parent.
//
// When a process of the group dies, the job ends: a helper whose Go process
// went away calls MPI_Abort, and a Go process whose helper died stops (its
// operations fail, and Options.Lost hears of it at once) so that it exits
// and its launcher ends the others.
//
// For a launcher that refuses a child calling MPI_Init, CLC_MPI_LAUNCH=helper
// reverses the two: Join executes the helper in the launched process's
// place, and the helper starts the Go program again as its child.
package mpi

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/mpitool"
)

//go:embed helper/helper.c
var helperFS embed.FS

// helperName is the file name of the built helper in the cache.
const helperName = "clc-mpi-helper"

// helperKind names the helper and its protocol's version in the cache key.
const helperKind = "comm/mpi helper 1"

// MPICCEnv names the MPI C compiler wrapper to build the helper with; the
// default is the flavour's own (mpicc.openmpi, mpicc.mpich), then mpicc.
const MPICCEnv = "CLC_MPICC"

// LaunchEnv chooses who the launcher starts: unset or "child", this
// program, which starts the helper as its child; "helper", the helper in
// this program's place (Join executes it, same process), which starts this
// program again as its child — for a launcher that refuses a child calling
// MPI_Init (docs/scale.md).
const LaunchEnv = "CLC_MPI_LAUNCH"

// fdsEnv tells a Go process that a helper started it (launched mode): its
// fds 3, 4, 5 are the command pipe, the answer pipe and the mapped file,
// whose size in bytes the variable holds.
const fdsEnv = "CLC_MPI_HELPER_FDS"

// Launch is what a launcher told a process through its environment.
type Launch struct {
	// Rank and Size are this process's number and the group's size.
	Rank, Size int
	// Flavour is the MPI whose launcher it is, "" when the variables do
	// not say (srun with PMIx).
	Flavour mpitool.Flavour
}

// Detect reads a launcher's variables from env (os.Environ()): Open MPI's
// OMPI_COMM_WORLD_SIZE, MPICH's PMI_SIZE, or Slurm's SLURM_STEP_NUM_TASKS with
// SLURM_PROCID or PMIX_RANK. It reports false when no launcher started
// this process.
func Detect(env []string) (Launch, bool) {
	size := mpitool.SizeOfEnv(env)
	rank := mpitool.RankOfEnv(env)
	if rank < 0 {
		rank = mpitool.StepRankOfEnv(env)
	}
	if size == 0 || rank < 0 {
		return Launch{}, false
	}
	return Launch{Rank: rank, Size: size, Flavour: mpitool.FlavourOfEnv(env)}, true
}

// Options configures Join.
type Options struct {
	// Env is the process's environment; nil means os.Environ().
	Env []string
	// CacheDir holds the built helper; "" means mpitool.DefaultCacheDir().
	CacheDir string
	// Stderr hears of a build of the helper and carries the helper's own
	// output; nil means os.Stderr.
	Stderr *os.File
	// Lost is called, once and from another goroutine, when the helper
	// ends before Close or Abort: the group cannot go on, and the process
	// should stop (its pending and later operations fail with the same
	// error). nil: only the operations fail.
	Lost func(error)
	// MaxMessage is the largest message one MPI call moves; a transfer
	// above it goes in pieces. 0 means 1 GiB (MPI counts are C ints).
	MaxMessage int
}

// Join returns this process's Comm: comm.Single when no launcher started
// it or the group has one process (no MPI is started then), else a bridge
// to a newly started MPI helper. ctx bounds the helper's build and start.
func Join(ctx context.Context, opts Options) (comm.Comm, error) {
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	l, ok := Detect(env)
	if !ok || l.Size == 1 {
		return comm.Single{}, nil
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	var c *Comm
	var err error
	if size := mpitool.LookupEnv(env, fdsEnv); size != "" {
		c, err = attach(ctx, size, opts) // a helper started this process
	} else {
		c, err = startHelper(ctx, l, env, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("process %d of %d: %w", l.Rank, l.Size, err)
	}
	if err := checkSize(c, l); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

// startHelper builds the helper and starts it as this process's child, or
// (CLC_MPI_LAUNCH=helper) executes it in this process's place.
func startHelper(ctx context.Context, l Launch, env []string, opts Options) (*Comm, error) {
	helper, err := BuildHelper(ctx, l.Flavour, mpitool.LookupEnv(env, MPICCEnv), opts.CacheDir, opts.Stderr)
	if err != nil {
		return nil, err
	}
	switch mode := mpitool.LookupEnv(env, LaunchEnv); mode {
	case "helper":
		self, err := os.Executable()
		if err == nil {
			// The helper takes this process's place and starts this
			// program again as its child: Exec returns only on failure.
			err = syscall.Exec(helper, append([]string{helper, "--run", self}, os.Args[1:]...), env)
		}
		return nil, fmt.Errorf("starting the MPI helper in this process's place (%s=helper): %w", LaunchEnv, err)
	case "", "child":
		return start(ctx, helper, env, opts)
	default:
		return nil, fmt.Errorf("$%s %q: want child or helper", LaunchEnv, mode)
	}
}

// checkSize checks that MPI confirms the launcher's rank and size.
func checkSize(c *Comm, l Launch) error {
	if c.rank != l.Rank || c.size != l.Size {
		return fmt.Errorf("process %d of %d: MPI says it is process %d of %d: the launcher's MPI is not the helper's (set %s to its mpicc; under srun choose the MPI's plugin: --mpi=pmi2 or --mpi=pmix)",
			l.Rank, l.Size, c.rank, c.size, MPICCEnv)
	}
	return nil
}

// BuildHelper returns the path of the helper built for the MPI of flavour
// fl ("": whichever mpicc is, or wrapper) with the wrapper ("": the
// flavour's), building it into cacheDir ("": the default) if it is not
// there. A build is announced on w (nil: silently).
func BuildHelper(ctx context.Context, fl mpitool.Flavour, wrapper, cacheDir string, w io.Writer) (string, error) {
	c, cacheDir, err := mpitool.Setup(fl, wrapper, cacheDir)
	if err != nil {
		return "", fmt.Errorf("building the MPI helper: %w", err)
	}
	src, err := fs.Sub(helperFS, "helper")
	if err != nil {
		return "", err
	}
	key, err := mpitool.Key(helperKind, src, c)
	if err != nil {
		return "", err
	}
	var notice mpitool.Notice
	if w != nil {
		notice = mpitool.Announce(w, "clc", "the MPI helper")
	}
	return mpitool.Cached(cacheDir, c, key, helperName, notice, func(tmp string) error {
		cfiles, err := mpitool.WriteSources(src, tmp)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		defer cancel()
		args := append([]string{"-O2", "-std=gnu11", "-o", helperName}, cfiles...)
		cmd := exec.CommandContext(ctx, c.Path, args...)
		cmd.Dir = tmp
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("building the MPI helper with %s %s: %w\n%s", c.Path, strings.Join(args, " "), err, out)
		}
		return nil
	})
}

// ErrLost is wrapped by the errors of a Comm whose helper ended before
// Close or Abort.
var ErrLost = errors.New("the MPI helper ended")
