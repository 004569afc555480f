package mpi

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/clc-tools/clc/comm"
)

// The test binary is also the program the tests launch under mpirun: with
// $CLC_MPI_TEST_SCENARIO set, TestMain runs one process of a scenario
// instead of the tests.
const (
	scenarioEnv = "CLC_MPI_TEST_SCENARIO"
	// maxMessageEnv sets Options.MaxMessage (the pieces' path).
	maxMessageEnv = "CLC_MPI_TEST_MAX_MESSAGE"
	// victimEnv is the process that the fault scenarios single out.
	victimEnv = "CLC_MPI_TEST_VICTIM"
	// repsEnv is the calls per figure of the benchmark.
	repsEnv = "CLC_MPI_TEST_REPS"
)

// worker runs one process of the scenario named by $CLC_MPI_TEST_SCENARIO
// and returns the process's exit status.
func worker(scenario string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	maxMsg, _ := strconv.Atoi(os.Getenv(maxMessageEnv))
	victim, _ := strconv.Atoi(os.Getenv(victimEnv))
	c, err := Join(ctx, Options{MaxMessage: maxMsg, Lost: func(err error) {
		fmt.Fprintln(os.Stderr, "lost:", err)
		os.Exit(3)
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "join:", err)
		return 1
	}
	switch scenario {
	case "ops", "large":
		err = checkOps(ctx, c, scenario == "large")
	case "wait":
		err = waitScenario(ctx, c, victim)
	case "bench":
		reps, _ := strconv.Atoi(os.Getenv(repsEnv))
		err = benchScenario(ctx, c, max(reps, 1))
	default:
		err = fmt.Errorf("unknown scenario %q", scenario)
	}
	if err != nil {
		// As clc-correct does: a process that fails ends the job.
		fmt.Fprintf(os.Stderr, "process %d: %v\n", c.Rank(), err)
		c.Abort(1, err.Error())
		return 1
	}
	if err := c.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "process %d: close: %v\n", c.Rank(), err)
		return 1
	}
	return 0
}

// waitScenario says who it is on standard output ("ready RANK GOPID
// HELPERPID"), then every process but the victim waits in a barrier, and
// the victim waits for the end of ctx (an interrupt) as a long
// computation would.
func waitScenario(ctx context.Context, c comm.Comm, victim int) error {
	hpid := 0
	if m, ok := c.(*Comm); ok {
		hpid = m.hpid
	}
	fmt.Printf("ready %d %d %d\n", c.Rank(), os.Getpid(), hpid)
	if c.Rank() == victim {
		<-ctx.Done()
		return ctx.Err()
	}
	return c.Barrier(ctx)
}

// benchScenario times, through the bridge, reps calls of each: a command
// that makes no MPI call (the pipe's round trip), a barrier, an allreduce
// of one int64 and of one float64, and an all-to-all of 64 KiB per peer;
// process 0 prints "bench NAME MICROSECONDS" per call.
func benchScenario(ctx context.Context, c comm.Comm, reps int) error {
	m, ok := c.(*Comm)
	if !ok {
		return errors.New("the benchmark needs more than one process")
	}
	send := make([][]byte, c.Size())
	for i := range send {
		send[i] = make([]byte, 64<<10)
	}
	steps := []struct {
		name string
		do   func() error
	}{
		{"pipe", func() error { _, err := m.call(ctx, rec{op: opHello}); return err }},
		{"barrier", func() error { return c.Barrier(ctx) }},
		{"allreduce-int64", func() error { _, err := c.AllreduceInt64(ctx, comm.Sum, []int64{1}); return err }},
		{"allreduce-float64", func() error { _, err := c.AllreduceFloat64(ctx, comm.Sum, []float64{1}); return err }},
		{"alltoall-64KiB", func() error { _, err := c.Alltoall(ctx, send); return err }},
	}
	for _, st := range steps {
		if err := c.Barrier(ctx); err != nil {
			return err
		}
		t0 := time.Now()
		for range reps {
			if err := st.do(); err != nil {
				return err
			}
		}
		if c.Rank() == 0 {
			fmt.Printf("bench %s %.2f\n", st.name, float64(time.Since(t0).Nanoseconds())/1e3/float64(reps))
		}
	}
	return nil
}

// op is one collective operation of the check, made by process rank of a
// group of p with inputs that depend on the seed and the rank only.
type op struct {
	name string
	do   func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error)
}

// randBytes returns n bytes of rng.
func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], rng.Uint64())
		copy(b[i:], w[:])
	}
	return b
}

// randFloats returns n floats of mixed signs and magnitudes, so that the
// order of a sum changes its bits.
func randFloats(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(30)-15))
	}
	return v
}

// ops are the operations checked, in order. maxPart bounds the parts'
// sizes; large adds operations that move more than 64 MiB.
func ops(large bool) []op {
	alltoall := func(maxPart int, empty bool) func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
		return func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
			send := make([][]byte, c.Size())
			for i := range send {
				if !empty && rng.IntN(4) > 0 {
					send[i] = randBytes(rng, rng.IntN(maxPart))
				}
			}
			return c.Alltoall(ctx, send)
		}
	}
	list := []op{
		{"barrier", func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) { return nil, c.Barrier(ctx) }},
		{"alltoall", alltoall(3000, false)},
		{"alltoall empty", alltoall(0, true)},
		{"alltoall 40 KiB", alltoall(40<<10, false)},
		{"allgather", func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
			n := rng.IntN(9000)
			if c.Rank() == 1 {
				n = 0
			}
			return c.Allgather(ctx, randBytes(rng, n))
		}},
		{"allgather empty", func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) { return c.Allgather(ctx, nil) }},
		{"allreduce int64 mismatched", func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
			return c.AllreduceInt64(ctx, comm.Sum, make([]int64, c.Rank()+1))
		}},
		{"allreduce float64 mismatched", func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
			return c.AllreduceFloat64(ctx, comm.Max, make([]float64, 3-c.Rank()%2))
		}},
	}
	for root := range 4 {
		list = append(list, op{fmt.Sprintf("bcast from %d", root), func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
			r := root % c.Size()
			n := 100 * r * r * r
			return c.Bcast(ctx, r, randBytes(rng, n))
		}})
	}
	for _, o := range []comm.Op{comm.Sum, comm.Max, comm.Min} {
		for _, n := range []int{0, 1, 2000} {
			list = append(list, op{fmt.Sprintf("allreduce int64 %d of %d", o, n), func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
				v := make([]int64, n)
				for i := range v {
					v[i] = rng.Int64N(1<<40) - 1<<39
				}
				return c.AllreduceInt64(ctx, o, v)
			}}, op{fmt.Sprintf("allreduce float64 %d of %d", o, n), func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
				return c.AllreduceFloat64(ctx, o, randFloats(rng, n))
			}})
		}
	}
	if large {
		// More than 64 MiB through each process's mapping: it grows,
		// and shrinks back after.
		list = append(list, op{"alltoall 72 MiB", func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
			send := make([][]byte, c.Size())
			for i := range send {
				send[i] = randBytes(rng, (72<<20)/c.Size()+i)
			}
			return c.Alltoall(ctx, send)
		}}, op{"allgather 70 MiB", func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
			return c.Allgather(ctx, randBytes(rng, (70<<20)/c.Size()+c.Rank()))
		}}, op{"bcast 66 MiB", func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) {
			return c.Bcast(ctx, c.Size()-1, randBytes(rng, 66<<20))
		}})
	}
	return append(list, op{"barrier at the end", func(ctx context.Context, c comm.Comm, rng *rand.Rand) (any, error) { return nil, c.Barrier(ctx) }})
}

// canon is a result as a string that two results are equal by: the
// lengths of its parts and a hash of their bytes, float bits exactly, and
// every error alike (its text differs between implementations).
func canon(v any, err error) string {
	if err != nil {
		return "error"
	}
	h := sha256.New()
	var shape string
	switch x := v.(type) {
	case [][]byte:
		shape = fmt.Sprintf("%d parts:", len(x))
		for _, b := range x {
			shape += fmt.Sprintf(" %d", len(b))
			h.Write(b)
		}
	case []byte:
		shape = fmt.Sprintf("%d bytes", len(x))
		h.Write(x)
	case []int64:
		shape = fmt.Sprintf("%d ints", len(x))
		binary.Write(h, binary.LittleEndian, x)
	case []float64:
		shape = fmt.Sprintf("%d floats", len(x))
		for _, f := range x {
			binary.Write(h, binary.LittleEndian, math.Float64bits(f))
		}
	case nil:
		shape = "nothing"
	default:
		shape = fmt.Sprintf("%T", v)
	}
	return fmt.Sprintf("%s sha256 %x", shape, h.Sum(nil)[:12])
}

// rngFor is the inputs' source of process rank for the operation k.
func rngFor(rank, k int) *rand.Rand { return rand.New(rand.NewPCG(uint64(rank), uint64(k))) }

// checkOps makes every operation through c and checks this process's
// result against comm.Local's for the same inputs (the oracle: a group of
// c.Size() goroutines, each making the inputs of its rank). It prints
// "checked N operations" when all agree.
func checkOps(ctx context.Context, c comm.Comm, large bool) error {
	list := ops(large)
	for k, o := range list {
		got, err := o.do(ctx, c, rngFor(c.Rank(), k))
		mine := canon(got, err)
		got = nil
		want := oracle(ctx, c.Size(), c.Rank(), k, o)
		if mine != want {
			return fmt.Errorf("operation %d (%s): got %s (error %v), comm.Local gives %s", k, o.name, mine, err, want)
		}
	}
	fmt.Printf("process %d of %d: checked %d operations\n", c.Rank(), c.Size(), len(list))
	return nil
}

// oracle returns the canonical result of process rank of operation k in a
// comm.Local group of p.
func oracle(ctx context.Context, p, rank, k int, o op) string {
	local := comm.Local(p)
	var wg sync.WaitGroup
	var want string
	for r, lc := range local {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := o.do(ctx, lc, rngFor(r, k))
			if r == rank {
				want = canon(v, err)
			}
		}()
	}
	wg.Wait()
	return want
}
