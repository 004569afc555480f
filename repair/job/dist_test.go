package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdataTraces lists every trace under the module's testdata/: the
// directories holding a native manifest or an OTF2 anchor (truth/
// directories are true times, not inputs).
func testdataTraces(t *testing.T) []string {
	t.Helper()
	var out []string
	root := filepath.Join("..", "..", "testdata")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "truth" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			return nil
		}
		if _, err := Locate(path); err == nil {
			out = append(out, path)
			return filepath.SkipDir
		}
		return nil
	})
	require.NoError(t, err, "walk %s", root)
	sort.Strings(out)
	return out
}

// runDivided runs the job on input as P processes of a comm.Local group,
// each in its own goroutine, opts given to each with its Comm; it returns
// process 0's report and every process's error.
func runDivided(input string, opts Options, p int) (*repair.Report, []error) {
	return runDividedWith(context.Background(), input, p, func(_ int, o *Options) { *o = opts })
}

// runDividedWith is runDivided with ctx and the options of process r set
// by set (Comm is set after it).
func runDividedWith(ctx context.Context, input string, p int, set func(r int, o *Options)) (*repair.Report, []error) {
	reps := make([]*repair.Report, p)
	errs := comm.RunLocal(p, func(c comm.Comm) error {
		var o Options
		set(c.Rank(), &o)
		o.Comm = c
		var err error
		reps[c.Rank()], err = Run(ctx, input, o)
		return err
	})
	return reps[0], errs
}

// reportJSON returns the report as JSON without its timings and output
// directory (which differ between two runs).
func reportJSON(t *testing.T, rep *repair.Report) []byte {
	t.Helper()
	r := *rep
	r.Timing = repair.TimingReport{}
	r.Divided = nil // what the processes exchanged
	r.Output = ""
	if r.Method != nil {
		m := *r.Method
		m.Timing = repair.MethodTimingReport{}
		r.Method = &m
	}
	var b bytes.Buffer
	require.NoError(t, r.WriteJSON(&b))
	return b.Bytes()
}

// A run divided among P processes (comm.Local) writes the single run's
// output byte for byte and reports the same, on every trace of testdata/
// (OTF2 and native, hybrid ones among them), with the clock model and
// with the pure CLC, at P = 2, 3 and 4.
func TestDividedRunIsTheSingleRun(t *testing.T) {
	traces := testdataTraces(t)
	require.GreaterOrEqual(t, len(traces), 10, "testdata's traces")
	for _, in := range traces {
		for _, method := range []clockmodel.Method{clockmodel.MethodModel, clockmodel.MethodCLC} {
			name := filepath.Base(in) + "/" + method.String()
			t.Run(name, func(t *testing.T) {
				opts := Options{Correction: repair.Correction{ClockModel: repair.ClockModelOptions{Method: method}}}
				opts.Output = filepath.Join(t.TempDir(), "single")
				opts.HTML = filepath.Join(t.TempDir(), "single.html")
				single, err := Run(context.Background(), in, opts)
				require.NoError(t, err, "single run of %s", in)
				want := tracetest.DirFiles(t, opts.Output)
				wantRep := reportJSON(t, single)
				wantPage := tracetest.Page(t, opts.HTML)
				for _, p := range []int{2, 3, 4} {
					o := opts
					o.Output = filepath.Join(t.TempDir(), "divided")
					o.HTML = filepath.Join(t.TempDir(), "divided.html")
					rep, errs := runDivided(in, o, p)
					for r, err := range errs {
						require.NoError(t, err, "P=%d process %d", p, r)
					}
					got := tracetest.DirFiles(t, o.Output)
					tracetest.SameFiles(t, want, got, fmt.Sprintf("P=%d", p))
					assert.Equal(t, string(wantRep), string(reportJSON(t, rep)), "P=%d: report", p)
					assert.Equal(t, wantPage, tracetest.Page(t, o.HTML), "P=%d: HTML page", p)
				}
			})
		}
	}
}

// A process that fails makes every process fail, and nothing is left in
// the output's place: here process 1 of 3 is given a truth file that does
// not exist.
func TestDividedRunFailsWhole(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "sim-16")
	out := filepath.Join(t.TempDir(), "out")
	missing := filepath.Join(t.TempDir(), "missing")
	_, errs := runDividedWith(context.Background(), in, 3, func(r int, o *Options) {
		o.Output = out
		if r == 1 {
			o.Truth = missing
		}
	})
	for r, err := range errs {
		assert.Error(t, err, "process %d", r)
	}
	assert.ErrorContains(t, errs[0], "process 1 of 3 failed")
	_, err := os.Stat(out)
	assert.True(t, errors.Is(err, fs.ErrNotExist), "no output in place: %v", err)
	ents, err := os.ReadDir(filepath.Dir(out))
	require.NoError(t, err)
	assert.Empty(t, ents, "no temporary left beside the output")
}

// Each process of a divided run reads a block of whole nodes: the blocks
// are disjoint, cover every location, follow the nodes' order and leave
// the locations of other blocks unread (no events, no time column), in
// both formats.
func TestDividedReadsItsBlock(t *testing.T) {
	for _, name := range []string{"sim-16", "scorep-pingpong"} {
		in, err := Open(filepath.Join("..", "..", "testdata", name))
		require.NoError(t, err, name)
		d, err := in.src.Declared()
		require.NoError(t, err, name)
		require.Len(t, d.LocationEvents, d.Locations, name)
		require.NoError(t, in.Close())
		for _, p := range []int{2, 3, 4} {
			seen := make([]int, d.Locations)
			lastNode := int32(-1)
			for r := range p {
				in, err := Open(filepath.Join("..", "..", "testdata", name))
				require.NoError(t, err, name)
				var own []bool
				opt := &trace.ReadOptions{Locations: func(defs *trace.Trace) ([]bool, error) {
					part, err := divide(defs, d.LocationEvents, p)
					own = ownLocations(part, r)
					return own, err
				}}
				tr, times, err := in.src.ReadSelected(context.Background(), opt, replay.Needs)
				require.NoError(t, err, "%s P=%d process %d", name, p, r)
				for li, l := range tr.Locations {
					if !own[li] {
						assert.Zero(t, l.Events.Len(), "%s P=%d process %d: location %d of another block read", name, p, r, li)
						assert.Nil(t, times[li], "%s P=%d process %d: location %d's times", name, p, r, li)
						continue
					}
					seen[li]++
					assert.Len(t, times[li], int(d.LocationEvents[li]), "%s P=%d process %d: location %d's times", name, p, r, li)
					assert.GreaterOrEqual(t, l.Node, lastNode, "%s P=%d process %d: blocks follow the nodes' order", name, p, r)
					lastNode = l.Node
				}
				require.NoError(t, in.Close())
			}
			for li, n := range seen {
				assert.Equal(t, 1, n, "%s P=%d: location %d read by one process", name, p, li)
			}
		}
	}
}

// peakHeap runs f while sampling the heap's allocated bytes every
// millisecond, and returns the largest sample, in bytes, above what was
// allocated before. The collector runs at GOGC 10 meanwhile, so that the
// allocated bytes stay within a tenth of the live data (at the default
// 100 they may hold as much garbage again, which varies from run to run).
func peakHeap(f func(), profile string) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC() // twice: the first moves the pools' buffers aside, the second frees them
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	var snap, at bytes.Buffer // the heap profile at the latest peak
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var s runtime.MemStats
		var taken uint64
		for {
			runtime.ReadMemStats(&s)
			if s.HeapAlloc > base && s.HeapAlloc-base > peak.Load() {
				peak.Store(s.HeapAlloc - base)
				if profile != "" && s.HeapAlloc-base > taken+taken/50 {
					taken = s.HeapAlloc - base
					at.Reset()
					if pprof.Lookup("heap").WriteTo(&at, 0) == nil {
						snap, at = at, snap
					}
				}
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	if profile != "" && snap.Len() > 0 {
		if err := os.WriteFile(profile, snap.Bytes(), 0o644); err != nil {
			panic(err)
		}
	}
	return peak.Load()
}

// BenchmarkDividedMemory compares the peak heap (peakHeap) of a run
// divided among 4 processes (comm.Local, all in this process: the figure
// per process is the total over 4) with the single run's, on a simulated trace of
// CLC_BENCH_EVENTS events (default 10^6) of 256 ranks, 16 per node, as an
// OTF2 archive (CLC_BENCH_FORMAT=native: a native trace, which a divided
// run gathers whole); it reports MiB and the ratio (docs/scale.md,
// section 7). CLC_BENCH_HEAPPROFILE=PREFIX writes the heap profile taken
// at each run's peak (within 2 %) to PREFIX-single and PREFIX-divided,
// sampled every 64 KiB allocated.
func BenchmarkDividedMemory(b *testing.B) {
	prof := os.Getenv("CLC_BENCH_HEAPPROFILE")
	if prof != "" {
		runtime.MemProfileRate = 64 << 10
	}
	events := int64(1_000_000)
	if s := os.Getenv("CLC_BENCH_EVENTS"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		require.NoError(b, err)
		events = v
	}
	cfg := sim.DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Events, cfg.Seed = 256, 16, events, 1
	rec, _, err := sim.Generate(cfg)
	require.NoError(b, err)
	in := filepath.Join(b.TempDir(), "in")
	if os.Getenv("CLC_BENCH_FORMAT") == "native" {
		require.NoError(b, native.WriteDir(context.Background(), in, rec, nil))
	} else {
		require.NoError(b, otf.WriteTrace(context.Background(), in, rec, nil))
	}
	rec = nil
	const p = 4
	// CLC_BENCH_HTML=1 adds the HTML report to both runs.
	html := func(name string) string {
		if os.Getenv("CLC_BENCH_HTML") == "" {
			return ""
		}
		return filepath.Join(b.TempDir(), name+".html")
	}
	for b.Loop() {
		var single, divided uint64
		single = peakHeap(func() {
			_, err := Run(context.Background(), in, Options{Output: filepath.Join(b.TempDir(), "single"), Truth: "-", HTML: html("single")})
			require.NoError(b, err)
		}, suffixed(prof, "-single"))
		divided = peakHeap(func() {
			_, errs := runDivided(in, Options{Output: filepath.Join(b.TempDir(), "divided"), Truth: "-", HTML: html("divided")}, p)
			for _, err := range errs {
				require.NoError(b, err)
			}
		}, suffixed(prof, "-divided"))
		b.ReportMetric(float64(single)/(1<<20), "single-MiB")
		b.ReportMetric(float64(divided)/(1<<20), "all4-MiB")
		b.ReportMetric(float64(divided)/p/float64(single), "per-process/single")
	}
}

// suffixed returns prefix+suffix, or "" for an empty prefix.
func suffixed(prefix, suffix string) string {
	if prefix == "" {
		return ""
	}
	return prefix + suffix
}

// A divided run tells its progress from process 0 only, and an interrupt
// (the context cancelled as process 0 starts correcting) stops every
// process with the context's error or the group's abort, leaving
// nothing in place.
func TestDividedRunProgressAndCancel(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "sim-16")
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const p = 3
	var mu sync.Mutex
	told := make([]int, p)
	_, errs := runDividedWith(ctx, in, p, func(r int, o *Options) {
		o.Output = out
		o.Progress = func(stage string) {
			mu.Lock()
			told[r]++
			mu.Unlock()
			if stage == "correcting" {
				cancel()
			}
		}
	})
	assert.Positive(t, told[0], "process 0 tells its progress")
	for r := 1; r < p; r++ {
		assert.Zero(t, told[r], "process %d tells no progress", r)
	}
	for r, err := range errs {
		if assert.Error(t, err, "process %d", r) {
			assert.True(t, errors.Is(err, context.Canceled) || errors.Is(err, comm.ErrAborted), "process %d: %v", r, err)
		}
	}
	_, err := os.Stat(out)
	assert.True(t, errors.Is(err, fs.ErrNotExist), "no output in place: %v", err)
	ents, err := os.ReadDir(filepath.Dir(out))
	require.NoError(t, err)
	assert.Empty(t, ents, "no temporary left beside the output")
}

// Random hybrid traces of several nodes (threads, locks, tasks, barriers;
// clock offsets recorded), written as native traces and as OTF2
// archives, corrected divided among P = 2, 3, 4 processes give the
// single run's output byte for byte, with either method: the division at
// the job's level with threads on every node, which testdata's hybrid
// archives (one node each) do not give.
func TestDividedRunHybrid(t *testing.T) {
	dir := t.TempDir()
	for s := range 3 {
		rng := rand.New(rand.NewPCG(uint64(s), 21))
		cfg := tracetest.Config{Locations: 6, Nodes: 3, Ops: 150, Latency: 100, Offset: 3000, Drift: 1e-4, Init: true, Threads: 3}
		tr, truth := tracetest.Random(rng, cfg)
		for li, l := range tr.Locations {
			for i := range l.Events.Time {
				l.Events.Time[i] += 10000
			}
			if n := l.Events.Len(); n > 1 {
				for _, i := range []int{0, n - 1} {
					lt := l.Events.Time[i]
					if len(l.Offsets) == 0 || lt > l.Offsets[0].Time {
						// offsets measured ±1 µs off: violations remain
						l.Offsets = append(l.Offsets, trace.ClockOffset{Time: lt, Offset: truth[li][i] + 10000 - lt + rng.Int64N(2001) - 1000})
					}
				}
			}
		}
		inputs := map[string]string{"native": filepath.Join(dir, fmt.Sprintf("n%d", s)), "otf2": filepath.Join(dir, fmt.Sprintf("o%d", s))}
		require.NoError(t, native.WriteDir(context.Background(), inputs["native"], tr, nil))
		require.NoError(t, otf.WriteTrace(context.Background(), inputs["otf2"], tr, nil))
		for format, in := range inputs {
			for _, m := range []clockmodel.Method{clockmodel.MethodModel, clockmodel.MethodCLC} {
				what := fmt.Sprintf("seed %d %s %s", s, format, m)
				opts := Options{Correction: repair.Correction{ClockModel: repair.ClockModelOptions{Method: m}}}
				opts.Output = filepath.Join(t.TempDir(), "single")
				single, err := Run(context.Background(), in, opts)
				require.NoError(t, err, what)
				require.Positive(t, single.Correction.ReceivesMoved+single.Moved.Events, "%s: something moves", what)
				want := tracetest.DirFiles(t, opts.Output)
				for _, p := range []int{2, 3, 4} {
					o := opts
					o.Output = filepath.Join(t.TempDir(), "divided")
					rep, errs := runDivided(in, o, p)
					for r, err := range errs {
						require.NoError(t, err, "%s P=%d process %d", what, p, r)
					}
					tracetest.SameFiles(t, want, tracetest.DirFiles(t, o.Output), fmt.Sprintf("%s P=%d", what, p))
					assert.Equal(t, string(reportJSON(t, single)), string(reportJSON(t, rep)), "%s P=%d: report", what, p)
				}
			}
		}
	}
}

// The processes of a divided run may have different numbers of cores:
// with a different parallelism on each (1 to 4 goroutines), the output
// is still the single run's byte for byte (the stages every process runs
// whole must give the same bits whatever the parallelism).
func TestDividedRunMixedParallelism(t *testing.T) {
	for _, name := range []string{"sim-16", "emulated/e-halo", "otf2/sst-macro-scorep2"} {
		in := filepath.Join("..", "..", "testdata", name)
		for _, m := range []clockmodel.Method{clockmodel.MethodModel, clockmodel.MethodCLC} {
			what := fmt.Sprintf("%s %s", name, m)
			opts := Options{Output: filepath.Join(t.TempDir(), "single"), Correction: repair.Correction{ClockModel: repair.ClockModelOptions{Method: m}}}
			_, err := Run(context.Background(), in, opts)
			require.NoError(t, err, what)
			want := tracetest.DirFiles(t, opts.Output)
			out := filepath.Join(t.TempDir(), "divided")
			_, errs := runDividedWith(context.Background(), in, 4, func(r int, o *Options) {
				*o = opts
				o.Output, o.Parallel = out, r+1
			})
			for r, err := range errs {
				require.NoError(t, err, "%s process %d", what, r)
			}
			tracetest.SameFiles(t, want, tracetest.DirFiles(t, out), what)
		}
	}
}

// A divided run also checks without writing a trace (process 0 writes
// the JSON report and the HTML page, the single run's), and
// converts between the formats and exports for Perfetto (process 0 writes
// the output whole) to the single run's bytes.
func TestDividedRunCheckAndConvert(t *testing.T) {
	in := filepath.Join("..", "..", "testdata", "sim-16")
	dir := t.TempDir()
	single, err := Run(context.Background(), in, Options{Check: true, Report: filepath.Join(dir, "single.json"), HTML: filepath.Join(dir, "single.html")})
	require.NoError(t, err)
	rep, errs := runDividedWith(context.Background(), in, 3, func(_ int, o *Options) {
		o.Check, o.Report, o.HTML = true, filepath.Join(dir, "divided.json"), filepath.Join(dir, "divided.html")
	})
	for r, err := range errs {
		require.NoError(t, err, "check: process %d", r)
	}
	assert.Equal(t, string(reportJSON(t, single)), string(reportJSON(t, rep)), "check: report")
	assert.FileExists(t, filepath.Join(dir, "divided.json"))
	assert.Equal(t, tracetest.Page(t, filepath.Join(dir, "single.html")), tracetest.Page(t, filepath.Join(dir, "divided.html")), "check: HTML page")
	// Without the HTML report too.
	rep, errs = runDividedWith(context.Background(), in, 3, func(_ int, o *Options) {
		o.Check, o.Report = true, filepath.Join(dir, "lean.json")
	})
	for r, err := range errs {
		require.NoError(t, err, "lean check: process %d", r)
	}
	assert.Equal(t, string(reportJSON(t, single)), string(reportJSON(t, rep)), "lean check: report")
	assert.FileExists(t, filepath.Join(dir, "lean.json"))

	for _, f := range []Format{FormatOTF2, FormatNative, FormatPerfetto} {
		opts := Options{Output: filepath.Join(t.TempDir(), "single"), Format: f}
		_, err := Run(context.Background(), in, opts)
		require.NoError(t, err, "%s: single run", f)
		out := filepath.Join(t.TempDir(), "divided")
		_, errs := runDividedWith(context.Background(), in, 3, func(_ int, o *Options) {
			*o = opts
			o.Output = out
		})
		for r, err := range errs {
			require.NoError(t, err, "%s: process %d", f, r)
		}
		tracetest.SameFiles(t, tracetest.DirFiles(t, opts.Output), tracetest.DirFiles(t, out), string(f))
	}
}

// A trace that one process refuses for memory (Options.MemoryLimit, the
// limit GOMEMLIMIT sets otherwise) is corrected by 4 processes each under
// that limit, with the output of a run without the limit (an OTF2 archive
// of 8 nodes, each process writing its part); at 2 processes and half
// the limit the parts do not fit and every process fails, the refusing
// ones naming their part.
func TestDividedRunFitsWhereOneDoesNot(t *testing.T) {
	cfg := sim.DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Events, cfg.Seed = 32, 4, 50_000, 3
	rec, _, err := sim.Generate(cfg)
	require.NoError(t, err)
	in := filepath.Join(t.TempDir(), "in")
	require.NoError(t, otf.WriteTrace(context.Background(), in, rec, nil))
	j, err := Prepare(in, Options{Check: true, Truth: "-"})
	require.NoError(t, err)
	events, locs, extra, err := j.Input().declared()
	j.Abort()
	require.NoError(t, err)
	opts := Options{Truth: "-"}
	single := memoryNeed(events, locs, extra, &opts)
	limit := single * 3 / 4
	want := filepath.Join(t.TempDir(), "want")
	_, err = Run(context.Background(), in, Options{Output: want, Truth: "-"})
	require.NoError(t, err)
	_, err = Run(context.Background(), in, Options{Output: filepath.Join(t.TempDir(), "single"), Truth: "-", MemoryLimit: limit})
	var me *MemoryError
	require.ErrorAs(t, err, &me, "one process refuses")
	assert.Zero(t, me.Processes)

	out := filepath.Join(t.TempDir(), "divided")
	_, errs := runDividedWith(context.Background(), in, 4, func(_ int, o *Options) {
		o.Output, o.Truth, o.MemoryLimit = out, "-", limit
	})
	for r, err := range errs {
		require.NoError(t, err, "process %d", r)
	}
	tracetest.SameFiles(t, tracetest.DirFiles(t, want), tracetest.DirFiles(t, out), "4 processes under the limit")

	_, errs = runDividedWith(context.Background(), in, 2, func(_ int, o *Options) {
		o.Output, o.Truth, o.MemoryLimit = filepath.Join(t.TempDir(), "two"), "-", single/2
	})
	named := false
	for r, err := range errs {
		require.Error(t, err, "process %d", r)
		if errors.As(err, &me) {
			named = true
			assert.Equal(t, 2, me.Processes)
			assert.Contains(t, err.Error(), fmt.Sprintf("process %d of 2, whose part holds", me.Process))
		}
	}
	assert.True(t, named, "a process names the part that does not fit")
}
