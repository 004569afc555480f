// Command mpibridge measures what it costs a Go program without cgo to
// use the cluster's MPI through a helper process (docs/scale.md, "The
// engine"): each rank's Go process starts a small C program built with the
// MPI's own mpicc (helper/helper.c), passes it commands over a pipe, and both map
// one file in /dev/shm where the calls find their buffers. It compares the
// same MPI calls made through the bridge (one command per call) with the
// helper making them directly, and checks their results.
//
//	go run ./tools/mpibridge                    # Open MPI and MPICH, 2 ranks
//	go run ./tools/mpibridge -flavours mpich -np 2 -reps 5000
//
// It builds the helper with mpicc.openmpi / mpicc.mpich into a temporary
// directory and runs itself under mpirun.openmpi / mpirun.mpich with a
// session directory of its own; the ranks' Go processes (told so by
// $MPIBRIDGE_HELPER) do the measuring, and rank 0 prints its figures, which
// the driver tabulates.
package main

import (
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

//go:embed helper/helper.c
var helperSource []byte

// The helper's commands (helper/helper.c).
const (
	opExit      = 0
	opPing      = 1
	opBarrier   = 2
	opAllreduce = 3
	opAlltoall  = 4
)

// mapBytes is the size of the shared mapping.
const mapBytes = 64 << 20

// flavour is an MPI installation: its compiler wrapper and launcher.
type flavour struct {
	name, mpicc, mpirun string
}

var flavours = []flavour{{"openmpi", "mpicc.openmpi", "mpirun.openmpi"}, {"mpich", "mpicc.mpich", "mpirun.mpich"}}

// The environment of a rank started by the driver: the helper's path,
// the calls per measurement and the all-to-all's bytes per peer.
const (
	helperEnv = "MPIBRIDGE_HELPER"
	repsEnv   = "MPIBRIDGE_REPS"
	blockEnv  = "MPIBRIDGE_BLOCK"
)

// workerFromEnv runs a rank when the driver started this process as one,
// and reports whether it did.
func workerFromEnv() bool {
	helper := os.Getenv(helperEnv)
	if helper == "" {
		return false
	}
	reps, err1 := strconv.Atoi(os.Getenv(repsEnv))
	block, err2 := strconv.Atoi(os.Getenv(blockEnv))
	err := errors.Join(err1, err2)
	if err == nil {
		err = runWorker(helper, reps, block, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mpibridge rank:", err)
		os.Exit(1)
	}
	return true
}

func main() {
	if workerFromEnv() {
		return
	}
	which := flag.String("flavours", "openmpi,mpich", "MPI flavours to measure")
	np := flag.Int("np", 2, "ranks")
	reps := flag.Int("reps", 2000, "calls per measurement")
	block := flag.Int("block", 64<<10, "bytes per peer of the all-to-all")
	flag.Parse()
	ctx := context.Background()
	fmt.Printf("| MPI | ranks | pipe round trip | allreduce 8 B: bridge / direct | all-to-all %d KiB per peer: bridge / direct | Go copy into the mapping |\n|---|---|---|---|---|---|\n", *block>>10)
	for _, name := range strings.Split(*which, ",") {
		var fl *flavour
		for i := range flavours {
			if flavours[i].name == strings.TrimSpace(name) {
				fl = &flavours[i]
			}
		}
		if fl == nil {
			fail(fmt.Errorf("unknown flavour %q (want openmpi or mpich)", name))
		}
		res, err := drive(ctx, fl, *np, *reps, *block)
		if err != nil {
			fail(fmt.Errorf("%s: %w", fl.name, err))
		}
		fmt.Printf("| %s | %d | %.1f µs | %.1f / %.1f µs | %.0f / %.0f µs (%.2f / %.2f GB/s) | %.1f GB/s |\n", fl.name, *np,
			res["ping_us"], res["allreduce_bridge_us"], res["allreduce_direct_us"],
			res["alltoall_bridge_us"], res["alltoall_direct_us"],
			gbs(*block*(*np), res["alltoall_bridge_us"]), gbs(*block*(*np), res["alltoall_direct_us"]), res["copy_gbs"])
	}
}

func gbs(b int, us float64) float64 { return float64(b) / us / 1e3 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mpibridge:", err)
	os.Exit(1)
}

// drive builds the helper for fl, runs np workers under fl's launcher and
// returns rank 0's figures.
func drive(ctx context.Context, fl *flavour, np, reps, block int) (map[string]float64, error) {
	dir, err := os.MkdirTemp("", "mpibridge")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	helper, err := build(ctx, fl, dir)
	if err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, fl.mpirun, "-np", strconv.Itoa(np), self)
	// A session directory of its own (Open MPI puts its sockets there:
	// another job on the machine cannot clash with this one), and root
	// may run Open MPI.
	cmd.Env = append(os.Environ(), "TMPDIR="+dir, "OMPI_MCA_orte_tmpdir_base="+dir, "OMPI_MCA_prte_tmpdir_base="+dir,
		"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
		helperEnv+"="+helper, repsEnv+"="+strconv.Itoa(reps), blockEnv+"="+strconv.Itoa(block))
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	res := map[string]float64{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 {
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				res[f[0]] = v
			}
		}
	}
	for _, k := range []string{"ping_us", "allreduce_bridge_us", "allreduce_direct_us", "alltoall_bridge_us", "alltoall_direct_us", "copy_gbs"} {
		if _, ok := res[k]; !ok {
			return nil, fmt.Errorf("rank 0 did not report %s:\n%s", k, out)
		}
	}
	return res, nil
}

// build compiles the helper with fl's mpicc into dir.
func build(ctx context.Context, fl *flavour, dir string) (string, error) {
	src := filepath.Join(dir, "helper.c")
	if err := os.WriteFile(src, helperSource, 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "helper")
	if out, err := exec.CommandContext(ctx, fl.mpicc, "-O2", "-std=gnu11", "-o", bin, src).CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s: %w\n%s", fl.mpicc, err, out)
	}
	return bin, nil
}

// bridge is one rank's connection to its helper.
type bridge struct {
	cmd   *exec.Cmd
	to    io.WriteCloser
	from  io.ReadCloser
	shm   []byte
	rank  int
	ranks int
}

// rec is a command or an answer (helper/helper.c's struct rec).
type rec struct {
	op, reps uint32
	a, b, c  uint64
}

func (r rec) encode() []byte {
	b := make([]byte, 32)
	binary.LittleEndian.PutUint32(b[0:], r.op)
	binary.LittleEndian.PutUint32(b[4:], r.reps)
	binary.LittleEndian.PutUint64(b[8:], r.a)
	binary.LittleEndian.PutUint64(b[16:], r.b)
	binary.LittleEndian.PutUint64(b[24:], r.c)
	return b
}

// call sends one command and waits for its answer.
func (br *bridge) call(r rec) (rec, error) {
	if _, err := br.to.Write(r.encode()); err != nil {
		return rec{}, fmt.Errorf("to the helper: %w", err)
	}
	var b [32]byte
	if _, err := io.ReadFull(br.from, b[:]); err != nil {
		return rec{}, fmt.Errorf("from the helper: %w", err)
	}
	return rec{op: binary.LittleEndian.Uint32(b[0:]), reps: binary.LittleEndian.Uint32(b[4:]),
		a: binary.LittleEndian.Uint64(b[8:]), b: binary.LittleEndian.Uint64(b[16:]), c: binary.LittleEndian.Uint64(b[24:])}, nil
}

// startBridge maps a new file in /dev/shm and starts the helper on it.
func startBridge(helper string) (*bridge, error) {
	f, err := os.CreateTemp("/dev/shm", "clc-mpibridge-")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name()) // the helper opens it before it answers the first command
	defer f.Close()
	if err := f.Truncate(mapBytes); err != nil {
		return nil, err
	}
	shm, err := syscall.Mmap(int(f.Fd()), 0, mapBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mapping %s: %w", f.Name(), err)
	}
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	br := &bridge{to: cmdW, from: repR, shm: shm}
	br.cmd = exec.Command(helper, f.Name(), strconv.Itoa(mapBytes))
	br.cmd.ExtraFiles = []*os.File{cmdR, repW} // fds 3 and 4
	br.cmd.Stdout, br.cmd.Stderr = os.Stderr, os.Stderr
	if err := br.cmd.Start(); err != nil {
		return nil, err
	}
	cmdR.Close()
	repW.Close()
	r, err := br.call(rec{op: opPing})
	if err != nil {
		return nil, err
	}
	br.rank, br.ranks = int(r.a), int(r.b)
	return br, nil
}

// close ends the helper (MPI_Finalize) and unmaps the file.
func (br *bridge) close() error {
	_, err := br.call(rec{op: opExit})
	br.to.Close()
	if werr := br.cmd.Wait(); err == nil {
		err = werr
	}
	if uerr := syscall.Munmap(br.shm); err == nil {
		err = uerr
	}
	return err
}

// runWorker is one rank: it measures and checks, and rank 0 prints
// "name value" lines.
func runWorker(helper string, reps, block int, w io.Writer) (err error) {
	if helper == "" {
		return errors.New("no -helper")
	}
	br, err := startBridge(helper)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := br.close(); err == nil {
			err = cerr
		}
	}()
	n := br.ranks
	if block*n*2 > mapBytes {
		return fmt.Errorf("%d bytes per peer for %d ranks do not fit the %d-byte mapping", block, n, mapBytes)
	}
	out := func(name string, v float64) {
		if br.rank == 0 {
			fmt.Fprintf(w, "%s %g\n", name, v)
		}
	}
	// The pipe alone: commands that make no MPI call.
	t0 := time.Now()
	for range reps * 10 {
		if _, err := br.call(rec{op: opPing}); err != nil {
			return err
		}
	}
	out("ping_us", float64(time.Since(t0).Microseconds())/float64(reps*10))

	// Allreduce of one double: checked, then timed both ways.
	binary.LittleEndian.PutUint64(br.shm[0:], math.Float64bits(float64(br.rank+1)))
	if _, err := br.call(rec{op: opAllreduce, a: 0, b: 1}); err != nil {
		return err
	}
	if got, want := math.Float64frombits(binary.LittleEndian.Uint64(br.shm[0:])), float64(n*(n+1)/2); got != want {
		return fmt.Errorf("rank %d: allreduce gave %g, want %g", br.rank, got, want)
	}
	if _, err := br.call(rec{op: opBarrier}); err != nil {
		return err
	}
	t0 = time.Now()
	for range reps {
		if _, err := br.call(rec{op: opAllreduce, a: 0, b: 1}); err != nil {
			return err
		}
	}
	out("allreduce_bridge_us", float64(time.Since(t0).Nanoseconds())/1e3/float64(reps))
	if _, err := br.call(rec{op: opBarrier}); err != nil {
		return err
	}
	r, err := br.call(rec{op: opAllreduce, reps: uint32(reps), a: 0, b: 1})
	if err != nil {
		return err
	}
	out("allreduce_direct_us", float64(r.c)/1e3/float64(reps))

	// All-to-all of block bytes per peer from [0, n·block) into [n·block,
	// 2n·block): checked, then timed both ways.
	send, recv := br.shm[:n*block], br.shm[n*block:2*n*block]
	for p := range n {
		for i := range block {
			send[p*block+i] = byte(br.rank*31 + p*7 + i)
		}
	}
	if _, err := br.call(rec{op: opAlltoall, a: 0, b: uint64(block), c: uint64(n * block)}); err != nil {
		return err
	}
	for p := range n {
		for i := range block {
			if want := byte(p*31 + br.rank*7 + i); recv[p*block+i] != want {
				return fmt.Errorf("rank %d: all-to-all byte %d from rank %d is %d, want %d", br.rank, i, p, recv[p*block+i], want)
			}
		}
	}
	a2a := max(1, reps/10)
	if _, err := br.call(rec{op: opBarrier}); err != nil {
		return err
	}
	t0 = time.Now()
	for range a2a {
		if _, err := br.call(rec{op: opAlltoall, a: 0, b: uint64(block), c: uint64(n * block)}); err != nil {
			return err
		}
	}
	out("alltoall_bridge_us", float64(time.Since(t0).Nanoseconds())/1e3/float64(a2a))
	if _, err := br.call(rec{op: opBarrier}); err != nil {
		return err
	}
	if r, err = br.call(rec{op: opAlltoall, reps: uint32(a2a), a: 0, b: uint64(block), c: uint64(n * block)}); err != nil {
		return err
	}
	out("alltoall_direct_us", float64(r.c)/1e3/float64(a2a))

	// What a design that copies its buffers into the mapping would pay.
	src := make([]byte, mapBytes/2)
	for i := range src {
		src[i] = byte(i)
	}
	t0 = time.Now()
	for range 8 {
		copy(br.shm[mapBytes/2:], src)
	}
	out("copy_gbs", float64(8*len(src))/time.Since(t0).Seconds()/1e9)
	return nil
}
