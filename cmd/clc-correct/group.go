package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/comm/mpi"
	"github.com/clc-tools/clc/internal/memlimit"
	"github.com/clc-tools/clc/repair/job"
)

// errSilent is the error of a process that has nothing to say: its
// failure is another's (an interrupt, which process 0 reports).
var errSilent = errors.New("silent")

// inGroup runs the correction (run, with the options it is to use) in the
// group of processes a launcher started (mpirun -np P, srun -n P;
// comm/mpi), or alone when no launcher did. The group ends with the run:
// a failure that leaves the others waiting ends the whole job (Abort).
func inGroup(ctx context.Context, opts job.Options, fl *flags, run func(context.Context, job.Options, *flags) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// A helper that dies stops the run at once, naming the process.
	g, err := mpi.Join(ctx, mpi.Options{Lost: func(err error) { cancel(err) }})
	if err != nil {
		return err
	}
	if g.Size() == 1 {
		return run(ctx, opts, fl)
	}
	// Every process runs the job with the group, each its block of nodes
	// (docs/scale.md, "What exists now"); process 0 alone tells its
	// progress and report.
	opts.Comm = g
	// The processes on one host share its memory (and its control
	// group's limit, which Slurm sets per job and node): each keeps to its
	// share of main's soft limit, which the memory check of its part
	// compares with. GOMEMLIMIT, a limit per process, wins.
	local, err := onThisHost(ctx, g)
	if err != nil {
		return g.Abort(1, err.Error())
	}
	if local > 1 {
		if _, err := memlimit.Set(memoryShare / float64(local)); err != nil {
			return g.Abort(1, err.Error())
		}
	}
	if g.Rank() != 0 {
		quiet := *fl
		quiet.quiet, quiet.progress = true, "never"
		fl = &quiet
	}
	runErr := run(ctx, opts, fl)
	if cause := context.Cause(ctx); errors.Is(cause, mpi.ErrLost) {
		g.Close()
		return cause
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		// The others may wait for this process in an exchange.
		return g.Abort(1, runErr.Error())
	}
	err = g.Barrier(ctx)
	if cerr := g.Close(); err == nil {
		err = cerr
	}
	switch {
	case runErr != nil:
		return runErr
	case errors.Is(context.Cause(ctx), mpi.ErrLost):
		return context.Cause(ctx)
	case err != nil && errors.Is(err, context.Canceled) && g.Rank() != 0:
		return errSilent
	case err != nil:
		return fmt.Errorf("process %d of %d: %w", g.Rank(), g.Size(), err)
	}
	return nil
}

// onThisHost returns how many processes of c run on this host (this one
// included), by an allgather of the host names.
func onThisHost(ctx context.Context, c comm.Comm) (int, error) {
	me, err := os.Hostname()
	if err != nil {
		return 0, fmt.Errorf("process %d of %d: the host's name: %w", c.Rank(), c.Size(), err)
	}
	all, err := c.Allgather(ctx, []byte(me))
	if err != nil {
		return 0, fmt.Errorf("process %d of %d: the processes' hosts: %w", c.Rank(), c.Size(), err)
	}
	n := 0
	for _, h := range all {
		if string(h) == me {
			n++
		}
	}
	return n, nil
}
