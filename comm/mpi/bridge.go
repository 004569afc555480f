package mpi

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/clc-tools/clc/comm"
)

// The helper's commands (helper/helper.c).
const (
	opFinalize = iota
	opHello
	opBarrier
	opRemap
	opAbort
	opAlltoallN
	opAlltoallv
	opAllgather
	opAllgatherv
	opBcast
	opAllreduceI64
)

// stShape is the answer's status when the processes passed arguments of
// different shapes.
const stShape = 1

// recSize is the size of a command or an answer.
const recSize = 64

// rec is a command or an answer (helper.c's struct rec).
type rec struct {
	op, status uint32
	a          [7]uint64
}

// minMap is the mapping's size at the start and after an operation that
// needed more than keepMap bytes (it shrinks back, so that the pages of a
// large exchange do not stay in /dev/shm, where they count in the resident
// set of both the Go process and its helper: the gathered bounds of the
// clock model, 14 MB at 10^7 events, stayed mapped through the estimation,
// a tenth of a divided run's peak). The replay's supersteps exchange a few
// KiB and never shrink it.
const (
	minMap  = 1 << 20
	keepMap = 4 << 20
)

// defaultMaxMessage is Options.MaxMessage's default.
const defaultMaxMessage = 1 << 30

// Comm is a process of an MPI job, talking to MPI through its helper.
type Comm struct {
	rank, size int
	hpid       int
	limit      uint64

	cmd  *exec.Cmd
	to   *os.File // commands (the helper's fd 3)
	from *os.File // answers (the helper's fd 4)
	file *os.File // the mapped file (the helper's fd 5), unlinked
	shm  []byte

	exited  chan struct{} // closed when the helper has ended
	waitErr error         // how it ended (read after exited is closed)
	mu      sync.Mutex    // guards ending, and rank and size while they are set
	ending  bool          // Close or Abort was called, or the helper was killed
	failed  error         // the group cannot go on
}

var _ comm.Comm = (*Comm)(nil)

// start maps a new file in /dev/shm, starts the helper on it and asks it
// who it is.
func start(ctx context.Context, helper string, env []string, opts Options) (c *Comm, err error) {
	f, err := os.CreateTemp("/dev/shm", "clc-mpi-")
	if err != nil {
		return nil, fmt.Errorf("creating the shared mapping: %w", err)
	}
	// Both processes hold it open: no name is needed after this.
	os.Remove(f.Name())
	c = &Comm{file: f, exited: make(chan struct{}), limit: defaultMaxMessage}
	if opts.MaxMessage > 0 {
		c.limit = uint64(opts.MaxMessage)
	}
	defer func() {
		if err != nil {
			c.kill()
		}
	}()
	if err := c.mapFile(minMap); err != nil {
		return c, err
	}
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return c, fmt.Errorf("the command pipe: %w", err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		return c, fmt.Errorf("the answer pipe: %w", err)
	}
	c.to, c.from = cmdW, repR
	c.cmd = exec.Command(helper, strconv.Itoa(len(c.shm)))
	c.cmd.Env = env
	c.cmd.ExtraFiles = []*os.File{cmdR, repW, f} // fds 3, 4, 5
	c.cmd.Stdout, c.cmd.Stderr = opts.Stderr, opts.Stderr
	err = c.cmd.Start()
	cmdR.Close()
	repW.Close()
	if err != nil {
		c.cmd = nil
		return c, fmt.Errorf("starting the MPI helper %s: %w", helper, err)
	}
	c.hpid = c.cmd.Process.Pid
	go func() {
		werr := c.cmd.Wait()
		c.waitErr = werr
		close(c.exited)
		c.mu.Lock()
		lost := !c.ending
		c.mu.Unlock()
		if lost && opts.Lost != nil {
			opts.Lost(c.lostError())
		}
	}()
	// MPI_Init may take a while on a loaded machine; ctx bounds it.
	r, err := c.call(ctx, rec{op: opHello})
	if err != nil {
		return c, err
	}
	c.mu.Lock() // lostError, in the waiting goroutine, reads them
	c.rank, c.size = int(r.a[0]), int(r.a[1])
	c.mu.Unlock()
	return c, nil
}

// attach takes the pipes and the mapped file (fds 3, 4, 5) of a helper
// that started this process as its child (launched mode: the helper is
// the launcher's process, and this process gets SIGTERM when it dies), with the
// mapping's size in bytes, and asks the helper who it is.
func attach(ctx context.Context, size string, opts Options) (*Comm, error) {
	n, err := strconv.Atoi(size)
	if err != nil || n <= 0 {
		return nil, fmt.Errorf("$%s %q: not the mapping's size", fdsEnv, size)
	}
	files := make([]*os.File, 3)
	for i, name := range []string{"the MPI helper's commands", "the MPI helper's answers", "the MPI helper's mapping"} {
		fd := 3 + i
		if i < 2 {
			// Nonblocking, so that a cancelled call can stop waiting.
			if err := syscall.SetNonblock(fd, true); err != nil {
				return nil, fmt.Errorf("fd %d ($%s): %w", fd, fdsEnv, err)
			}
		}
		files[i] = os.NewFile(uintptr(fd), name)
	}
	c := &Comm{to: files[0], from: files[1], file: files[2], exited: make(chan struct{}), limit: defaultMaxMessage, hpid: os.Getppid()}
	// Not this process's child: it cannot be waited for, and if it dies
	// this process gets SIGTERM.
	close(c.exited)
	if opts.MaxMessage > 0 {
		c.limit = uint64(opts.MaxMessage)
	}
	if err := c.mapFile(n); err != nil {
		c.release()
		return nil, err
	}
	r, err := c.call(ctx, rec{op: opHello})
	if err != nil {
		c.release()
		return nil, fmt.Errorf("started by the MPI helper: %w", err)
	}
	c.rank, c.size = int(r.a[0]), int(r.a[1])
	return c, nil
}

// lostError says how the helper ended; call it after c.exited is closed.
func (c *Comm) lostError() error {
	how := "it exited"
	if c.waitErr != nil {
		how = c.waitErr.Error()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Errorf("comm/mpi: process %d of %d (pid %d): %w (pid %d): %s", c.rank, c.size, os.Getpid(), ErrLost, c.hpid, how)
}

// mapFile sizes the file to n bytes and maps it in place of the old mapping.
func (c *Comm) mapFile(n int) error {
	if c.shm != nil {
		if err := syscall.Munmap(c.shm); err != nil {
			return fmt.Errorf("comm/mpi: unmapping the shared mapping: %w", err)
		}
		c.shm = nil
	}
	if err := c.file.Truncate(int64(n)); err != nil {
		return fmt.Errorf("comm/mpi: sizing the shared mapping to %d bytes (is /dev/shm full?): %w", n, err)
	}
	shm, err := syscall.Mmap(int(c.file.Fd()), 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return fmt.Errorf("comm/mpi: mapping %d bytes of /dev/shm: %w", n, err)
	}
	c.shm = shm
	return nil
}

// resize makes the mapping n bytes (rounded up to a page) in both
// processes. The file shrinks first in the helper: it unmaps before the
// file is cut.
func (c *Comm) resize(ctx context.Context, n int) error {
	n = (n + 4095) &^ 4095
	if n > len(c.shm) {
		if err := c.mapFile(n); err != nil {
			return c.fail(err)
		}
		_, err := c.call(ctx, rec{op: opRemap, a: [7]uint64{uint64(n)}})
		return err
	}
	if err := syscall.Munmap(c.shm); err != nil {
		return c.fail(fmt.Errorf("comm/mpi: unmapping the shared mapping: %w", err))
	}
	c.shm = nil
	if _, err := c.call(ctx, rec{op: opRemap, a: [7]uint64{uint64(n)}}); err != nil {
		return err
	}
	if err := c.mapFile(n); err != nil {
		return c.fail(err)
	}
	return nil
}

// grow makes the mapping hold at least n bytes.
func (c *Comm) grow(ctx context.Context, n int) error {
	if n <= len(c.shm) {
		return nil
	}
	return c.resize(ctx, max(n, 2*len(c.shm)))
}

// shrink gives back the pages of a large operation.
func (c *Comm) shrink(ctx context.Context) error {
	if len(c.shm) <= keepMap {
		return nil
	}
	return c.resize(ctx, minMap)
}

// fail records that the group cannot go on and returns err.
func (c *Comm) fail(err error) error {
	if c.failed == nil {
		c.failed = err
	}
	return err
}

// call sends one command and waits for its answer. If ctx ends first, the
// group cannot go on (the helper is inside a collective operation the
// others may never finish): the Comm fails, and Close ends the helper.
func (c *Comm) call(ctx context.Context, r rec) (rec, error) {
	if c.failed != nil {
		return rec{}, c.failed
	}
	if err := ctx.Err(); err != nil {
		return rec{}, err
	}
	var b [recSize]byte
	binary.LittleEndian.PutUint32(b[0:], r.op)
	binary.LittleEndian.PutUint32(b[4:], r.status)
	for i, v := range r.a {
		binary.LittleEndian.PutUint64(b[8+8*i:], v)
	}
	if _, err := c.to.Write(b[:]); err != nil {
		return rec{}, c.fail(c.broken(fmt.Errorf("writing to the MPI helper: %w", err)))
	}
	stop := context.AfterFunc(ctx, func() { c.from.SetReadDeadline(time.Unix(1, 0)) })
	_, err := io.ReadFull(c.from, b[:])
	if !stop() && errors.Is(err, os.ErrDeadlineExceeded) {
		return rec{}, c.fail(fmt.Errorf("comm/mpi: process %d of %d: cancelled inside a collective operation: %w", c.rank, c.size, ctx.Err()))
	}
	if err != nil {
		return rec{}, c.fail(c.broken(fmt.Errorf("reading from the MPI helper: %w", err)))
	}
	if ctx.Err() != nil {
		c.from.SetReadDeadline(time.Time{}) // the answer came first
	}
	var out rec
	out.op = binary.LittleEndian.Uint32(b[0:])
	out.status = binary.LittleEndian.Uint32(b[4:])
	for i := range out.a {
		out.a[i] = binary.LittleEndian.Uint64(b[8+8*i:])
	}
	if out.op != r.op {
		return rec{}, c.fail(fmt.Errorf("comm/mpi: process %d of %d: the MPI helper answered command %d to command %d", c.rank, c.size, out.op, r.op))
	}
	return out, nil
}

// broken explains a pipe error: if the helper has ended (it is given a
// few seconds to), how it ended.
func (c *Comm) broken(err error) error {
	select {
	case <-c.exited:
		return fmt.Errorf("%w (%v)", c.lostError(), err)
	case <-time.After(5 * time.Second):
		return fmt.Errorf("comm/mpi: process %d of %d: %w", c.rank, c.size, err)
	}
}

// Rank is this process's number in MPI_COMM_WORLD.
func (c *Comm) Rank() int { return c.rank }

// Size is the number of processes of MPI_COMM_WORLD.
func (c *Comm) Size() int { return c.size }

// align rounds n up to a multiple of 64.
func align(n int) int { return (n + 63) &^ 63 }

func (c *Comm) putInt64s(off int, v []int64) {
	for i, x := range v {
		binary.LittleEndian.PutUint64(c.shm[off+8*i:], uint64(x))
	}
}

func (c *Comm) int64s(off, n int) []int64 {
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(binary.LittleEndian.Uint64(c.shm[off+8*i:]))
	}
	return v
}

// split copies the parts of the given lengths that lie one after another
// at off out of the mapping (an empty part is nil).
func (c *Comm) split(off int, lens []int64) [][]byte {
	var total int64
	for _, n := range lens {
		total += n
	}
	buf := make([]byte, total)
	copy(buf, c.shm[off:off+int(total)])
	out := make([][]byte, len(lens))
	var at int64
	for i, n := range lens {
		if n > 0 {
			out[i] = buf[at : at+n : at+n]
		}
		at += n
	}
	return out
}

// Alltoall sends send[i] to process i: first the counts (MPI_Alltoall),
// then the bytes (MPI_Alltoallv, or point-to-point pieces when a process
// moves more than Options.MaxMessage).
func (c *Comm) Alltoall(ctx context.Context, send [][]byte) ([][]byte, error) {
	p := c.size
	if len(send) != p {
		return nil, fmt.Errorf("comm/mpi: alltoall of %d parts in a group of %d", len(send), p)
	}
	sc := make([]int64, p)
	var st int
	for i, s := range send {
		sc[i] = int64(len(s))
		st += len(s)
	}
	if err := c.grow(ctx, 16*p); err != nil {
		return nil, err
	}
	c.putInt64s(0, sc)
	if _, err := c.call(ctx, rec{op: opAlltoallN, a: [7]uint64{0, uint64(8 * p)}}); err != nil {
		return nil, err
	}
	rc := c.int64s(8*p, p)
	var rt int64
	for _, n := range rc {
		rt += n
	}
	sOff := align(16 * p)
	rOff := align(sOff + st)
	if err := c.grow(ctx, rOff+int(rt)); err != nil {
		return nil, err
	}
	at := sOff
	for _, s := range send {
		at += copy(c.shm[at:], s)
	}
	if _, err := c.call(ctx, rec{op: opAlltoallv, a: [7]uint64{0, uint64(8 * p), uint64(sOff), uint64(rOff), c.limit}}); err != nil {
		return nil, err
	}
	recv := c.split(rOff, rc)
	return recv, c.shrink(ctx)
}

// allgather returns every process's data: the lengths by MPI_Allgather,
// then the bytes by MPI_Allgatherv (or broadcasts in pieces when the
// whole is more than Options.MaxMessage).
func (c *Comm) allgather(ctx context.Context, data []byte) ([][]byte, error) {
	p := c.size
	if err := c.grow(ctx, 8+8*p); err != nil {
		return nil, err
	}
	c.putInt64s(0, []int64{int64(len(data))})
	if _, err := c.call(ctx, rec{op: opAllgather, a: [7]uint64{0, 8, 8}}); err != nil {
		return nil, err
	}
	lens := c.int64s(8, p)
	var total int64
	for _, n := range lens {
		total += n
	}
	sOff := align(8 + 8*p)
	rOff := align(sOff + len(data))
	if err := c.grow(ctx, rOff+int(total)); err != nil {
		return nil, err
	}
	copy(c.shm[sOff:], data)
	if _, err := c.call(ctx, rec{op: opAllgatherv, a: [7]uint64{8, uint64(sOff), uint64(rOff), c.limit}}); err != nil {
		return nil, err
	}
	return c.split(rOff, lens), nil
}

// Allgather returns every process's data, in rank order.
func (c *Comm) Allgather(ctx context.Context, data []byte) ([][]byte, error) {
	out, err := c.allgather(ctx, data)
	if err != nil {
		return nil, err
	}
	return out, c.shrink(ctx)
}

// Bcast returns root's data on every process: its length first, then the
// bytes (MPI_Bcast, in pieces of at most Options.MaxMessage).
func (c *Comm) Bcast(ctx context.Context, root int, data []byte) ([]byte, error) {
	if root < 0 || root >= c.size {
		return nil, fmt.Errorf("comm/mpi: broadcast from %d in a group of %d", root, c.size)
	}
	if c.rank == root {
		c.putInt64s(0, []int64{int64(len(data))})
	}
	if _, err := c.call(ctx, rec{op: opBcast, a: [7]uint64{uint64(root), 0, 8, c.limit}}); err != nil {
		return nil, err
	}
	n := int(c.int64s(0, 1)[0])
	if err := c.grow(ctx, 64+n); err != nil {
		return nil, err
	}
	if c.rank == root {
		copy(c.shm[64:], data)
	}
	if _, err := c.call(ctx, rec{op: opBcast, a: [7]uint64{uint64(root), 64, uint64(n), c.limit}}); err != nil {
		return nil, err
	}
	var out []byte
	if n > 0 {
		out = append(out, c.shm[64:64+n]...)
	}
	return out, c.shrink(ctx)
}

// opCode is the helper's number of a reduction.
func opCode(op comm.Op) (uint64, error) {
	switch op {
	case comm.Sum:
		return 0, nil
	case comm.Max:
		return 1, nil
	case comm.Min:
		return 2, nil
	}
	return 0, fmt.Errorf("comm/mpi: unknown reduction %d", op)
}

// AllreduceInt64 reduces by MPI_Allreduce, after checking that every
// process passed as many values.
func (c *Comm) AllreduceInt64(ctx context.Context, op comm.Op, v []int64) ([]int64, error) {
	code, err := opCode(op)
	if err != nil {
		return nil, err
	}
	if err := c.grow(ctx, 8*len(v)); err != nil {
		return nil, err
	}
	c.putInt64s(0, v)
	r, err := c.call(ctx, rec{op: opAllreduceI64, a: [7]uint64{code, 0, uint64(len(v)), c.limit}})
	if err != nil {
		return nil, err
	}
	if r.status == stShape {
		return nil, fmt.Errorf("comm/mpi: allreduce of different lengths (process %d passed %d values)", c.rank, len(v))
	}
	out := c.int64s(0, len(v))
	return out, c.shrink(ctx)
}

// AllreduceFloat64 gathers every process's values and reduces them here,
// in rank order (comm.Reduce), so that every process gets the same
// bits as comm.Local's.
func (c *Comm) AllreduceFloat64(ctx context.Context, op comm.Op, v []float64) ([]float64, error) {
	if _, err := opCode(op); err != nil {
		return nil, err
	}
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	all, err := c.allgather(ctx, b)
	if err != nil {
		return nil, err
	}
	if err := c.shrink(ctx); err != nil {
		return nil, err
	}
	out := make([]float64, len(v))
	other := make([]float64, len(v))
	for r, a := range all {
		if len(a) != len(b) {
			return nil, fmt.Errorf("comm/mpi: allreduce of %d and %d values (processes %d and %d)", len(v), len(a)/8, c.rank, r)
		}
		dst := other
		if r == 0 {
			dst = out
		}
		for i := range dst {
			dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(a[8*i:]))
		}
		if r > 0 {
			comm.Reduce(op, out, other)
		}
	}
	return out, nil
}

// Barrier is MPI_Barrier.
func (c *Comm) Barrier(ctx context.Context) error {
	_, err := c.call(ctx, rec{op: opBarrier})
	return err
}

// Abort writes msg to standard error, naming this process, and has the
// helper call MPI_Abort, which ends every process of the job, this one
// included. It returns only if the helper could not.
func (c *Comm) Abort(code int, msg string) error {
	c.mu.Lock()
	c.ending = true
	c.mu.Unlock()
	fmt.Fprintf(os.Stderr, "clc: process %d of %d aborts the job: %s\n", c.rank, c.size, msg)
	if c.failed == nil {
		// The answer never comes: MPI_Abort ends us. Reading waits for
		// it, or for the helper's end.
		_, err := c.call(context.Background(), rec{op: opAbort, a: [7]uint64{uint64(code)}})
		if err == nil {
			err = errors.New("the MPI helper answered an abort")
		}
		return fmt.Errorf("comm/mpi: process %d of %d: MPI_Abort did not end the job: %w", c.rank, c.size, err)
	}
	c.kill()
	return fmt.Errorf("comm/mpi: process %d of %d could not abort the job (%w); its MPI helper is ended", c.rank, c.size, c.failed)
}

// Close ends this process's part of the job: MPI_Finalize, then the
// helper exits. After a failure (a cancelled operation, a lost helper) it
// kills the helper instead.
func (c *Comm) Close() error {
	c.mu.Lock()
	if c.ending {
		c.mu.Unlock()
		return nil
	}
	c.ending = true
	c.mu.Unlock()
	if c.failed != nil {
		c.kill()
		return nil
	}
	_, err := c.call(context.Background(), rec{op: opFinalize})
	c.to.Close()
	<-c.exited
	if err == nil && c.waitErr != nil {
		err = fmt.Errorf("comm/mpi: process %d of %d: the MPI helper ended badly after MPI_Finalize: %w", c.rank, c.size, c.waitErr)
	}
	c.release()
	return err
}

// kill ends the helper (if it was started) and frees what the Comm holds.
func (c *Comm) kill() {
	c.mu.Lock()
	c.ending = true
	c.mu.Unlock()
	if c.cmd != nil {
		c.cmd.Process.Kill()
		<-c.exited
	}
	c.release()
}

// release closes the pipes and the mapping.
func (c *Comm) release() {
	for _, f := range []*os.File{c.to, c.from, c.file} {
		if f != nil {
			f.Close()
		}
	}
	if c.shm != nil {
		syscall.Munmap(c.shm)
		c.shm = nil
	}
}
