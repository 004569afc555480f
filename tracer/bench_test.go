package tracer

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/mpitool"
)

// The measurements of docs/tracer.md. They run MPI jobs and take minutes:
//   go test ./tracer -run '^$' -bench . -benchtime 1x

type benchLine struct {
	Mode      string  `json:"mode"`
	Ranks     int     `json:"ranks"`
	Iters     int     `json:"iters"`
	NsPerIter float64 `json:"ns_per_iter"`
	Calls     int     `json:"calls_per_iter"`
}

func parseBench(b testing.TB, out string) benchLine {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if i := strings.Index(sc.Text(), "CLC-BENCH "); i >= 0 {
			var l benchLine
			require.NoError(b, json.Unmarshal([]byte(sc.Text()[i+len("CLC-BENCH "):]), &l), "a CLC-BENCH line %q", sc.Text())
			return l
		}
	}
	require.FailNow(b, "no CLC-BENCH line", "in\n%s", out)
	return benchLine{}
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return math.NaN()
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// oldLibCommit is the commit before issue 10 (one table, collapsed polls,
// group filter): the "before" of BenchmarkTracingOverhead.
const oldLibCommit = "ba1d64e"

// currentLibrary builds (or finds) the PMPI library of the working tree
// for kit k.
func currentLibrary(b *testing.B, k mpiKit) string {
	tools(b)
	c, err := mpitool.FindCompiler(k.fl, "")
	require.NoError(b, err)
	src, err := fs.Sub(os.DirFS(".."), "cmd/clc-trace/pmpi")
	require.NoError(b, err)
	lib, err := Build(src, c, filepath.Join(buildDir, "cache"), nil)
	require.NoError(b, err)
	return lib
}

// oldLibrary builds the PMPI library of oldLibCommit (from git) for kit k.
func oldLibrary(b *testing.B, k mpiKit) string { return libraryAt(b, k, oldLibCommit) }

// libraryAt builds the PMPI library of commit (from git) for kit k.
func libraryAt(b *testing.B, k mpiKit, commit string) string {
	src := b.TempDir()
	files, err := exec.Command("git", "-C", "..", "ls-tree", "--name-only", commit, "cmd/clc-trace/pmpi/").Output()
	if err != nil {
		b.Skipf("the library of %s is not in git here: %v", commit, err)
	}
	for _, f := range strings.Fields(string(files)) {
		out, err := exec.Command("git", "-C", "..", "show", commit+":"+f).Output()
		if err != nil {
			b.Skipf("the library of %s is not in git here: %v", commit, err)
		}
		require.NoError(b, os.WriteFile(filepath.Join(src, filepath.Base(f)), out, 0o644))
	}
	c, err := mpitool.FindCompiler(k.fl, "")
	require.NoError(b, err)
	lib, err := Build(os.DirFS(src), c, filepath.Join(b.TempDir(), "cache"), nil)
	require.NoError(b, err)
	return lib
}

// BenchmarkTracingOverhead runs single-rank loops of MPI_Send to
// MPI_PROC_NULL, MPI_Sendrecv with itself and unsuccessful MPI_Test calls
// (the wrapper's own cost, free of a partner's scheduling), a tight
// ping-pong and an allreduce loop, untraced, traced with the library
// before issue 10 (oldLibCommit) and with the current one, in turn (11 runs
// each, each the best of 5 repetitions of the loop). It reports the added
// time per MPI call (difference of the medians) and the ratios, all
// measured in one run, and the cost of one rdtscp. Both libraries are
// preloaded the same way (the variables clc-trace sets).
func BenchmarkTracingOverhead(b *testing.B) {
	for _, k := range kits {
		b.Run(string(k.fl), func(b *testing.B) {
			k := need(b, k)
			p := prog(b, k, "bench")
			libs := []string{"", oldLibrary(b, k), currentLibrary(b, k)}
			launch := func(lib string, args ...string) benchLine {
				np := "2"
				if args[0] == "procnull" || args[0] == "self" || args[0] == "timer" || args[0] == "test" {
					np = "1"
				}
				env := mpiEnv(b)
				if lib != "" {
					env = RankEnv(env, &Options{Dir: filepath.Join(b.TempDir(), "t"), Lib: lib, Flavour: k.fl})
				}
				argv := append(append([]string{}, k.extra...), "-np", np, p)
				res := run(b, 5*time.Minute, env, k.launcher, append(argv, args...)...)
				require.NoError(b, res.err, "%s", res.stderr)
				return parseBench(b, res.stdout)
			}
			tm := launch("", "timer", "10000000")
			b.ReportMetric(tm.NsPerIter, "ns/rdtscp")
			for _, mode := range []string{"procnull", "self", "test", "pingpong", "allreduce"} {
				var ns [3][]float64
				calls := 1
				for i := 0; i < 11; i++ {
					for v, lib := range libs {
						l := launch(lib, mode, "50000")
						ns[v] = append(ns[v], l.NsPerIter)
						calls = l.Calls
					}
				}
				mu, mo, mn := median(ns[0]), median(ns[1]), median(ns[2])
				lu, lo, ln := minimum(ns[0]), minimum(ns[1]), minimum(ns[2])
				b.ReportMetric((mn-mu)/float64(calls), "ns-added/call-"+mode)
				b.ReportMetric(mn/mu, "ratio-"+mode)
				b.ReportMetric(mn/mo, "new/old-"+mode)
				b.Logf("%s %s (11 runs each, ns per iteration, %d calls per iteration per rank): untraced median %.0f min %.0f %v; before median %.0f min %.0f %v; now median %.0f min %.0f %v; added per call (medians) before %.0f ns, now %.0f ns, (minima) before %.0f ns, now %.0f ns; ratios of medians before %.3f, now %.3f, now/before %.3f, of minima now/before %.3f; rdtscp %.1f ns",
					k.fl, mode, calls, mu, lu, round(ns[0]), mo, lo, round(ns[1]), mn, ln, round(ns[2]),
					(mo-mu)/float64(calls), (mn-mu)/float64(calls), (lo-lu)/float64(calls), (ln-lu)/float64(calls), mo/mu, mn/mu, mn/mo, ln/lo, tm.NsPerIter)
			}
		})
	}
}

// beforeCrashSafety is the library before its buffers became a file and
// the writer thread got its flush bounds: the "before" of
// BenchmarkFlushOverhead.
const beforeCrashSafety = "a4a5600"

// BenchmarkFlushOverhead measures what the periodic flush and the
// crash-safe buffers cost per event: a single rank calls MPI_Send to
// MPI_PROC_NULL (an enter and a leave per call, no partner), 400,000
// times (best of 5 repetitions), with the library before the buffers were
// a file (beforeCrashSafety), the current one with the flush bounds off
// (--flush 0,0: only full buffers are written), with the default bounds
// (65536 events, 1 s) and with tight ones (4096 events, 10 ms); 11 runs
// each, in turn. The added time per event is the difference of the
// medians (and of the minima) over the flush-off runs, halved (two events
// per call).
func BenchmarkFlushOverhead(b *testing.B) {
	for _, k := range kits {
		b.Run(string(k.fl), func(b *testing.B) {
			k := need(b, k)
			p := prog(b, k, "bench")
			lib := currentLibrary(b, k)
			type variant struct {
				name, lib   string
				flushEvents uint32
				flushAfter  time.Duration
			}
			variants := []variant{
				{"before (" + beforeCrashSafety + ")", libraryAt(b, k, beforeCrashSafety), 0, 0},
				{"flush off", lib, 0, 0},
				{"default 65536,1s", lib, 65536, time.Second},
				{"tight 4096,10ms", lib, 4096, 10 * time.Millisecond},
			}
			const iters = 400000
			ns := make([][]float64, len(variants))
			for i := 0; i < 11; i++ {
				for v, x := range variants {
					dir := filepath.Join(b.TempDir(), "t")
					env := RankEnv(mpiEnv(b), &Options{Dir: dir, Lib: x.lib, Flavour: k.fl, FlushEvents: x.flushEvents, FlushAfter: x.flushAfter})
					argv := append(append([]string{}, k.extra...), "-np", "1", p, "procnull", fmt.Sprint(iters))
					res := run(b, 5*time.Minute, env, k.launcher, argv...)
					require.NoError(b, res.err, "%s\n%s", x.name, res.stderr)
					ns[v] = append(ns[v], parseBench(b, res.stdout).NsPerIter)
					os.RemoveAll(dir)
				}
			}
			base, baseMin := median(ns[1]), minimum(ns[1])
			for v, x := range variants {
				m, l := median(ns[v]), minimum(ns[v])
				b.Logf("%s %s: ns per call median %.1f min %.1f %v; per event against flush off: median %+.2f ns, min %+.2f ns",
					k.fl, x.name, m, l, round(ns[v]), (m-base)/2, (l-baseMin)/2)
				b.ReportMetric((m-base)/2, "ns/event-"+strings.Fields(x.name)[0])
			}
		})
	}
}

func minimum(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}

func round(v []float64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(math.Round(x))
	}
	return out
}

// BenchmarkOffsetQuality: on one machine every rank reads the same TSC, so
// the true offset is 0 and every measured offset is an error. It runs 2, 4
// and 8 ranks under both MPIs with both schemes (3 runs each) and reports
// the distribution of |offset| and RTT over all measurements (MPI_Init and
// MPI_Finalize, ranks > 0) and the time the measurement took.
func BenchmarkOffsetQuality(b *testing.B) {
	for _, k := range kits {
		b.Run(string(k.fl), func(b *testing.B) {
			k := need(b, k)
			p := prog(b, k, "master")
			for _, scheme := range []string{"flat", "tree"} {
				for _, n := range []int{2, 4, 8} {
					var offs, rtts, syncs []float64
					for rep := 0; rep < 3; rep++ {
						dir := filepath.Join(b.TempDir(), "t")
						res := traceRun(b, k, false, n, dir, []string{"-q", "--sync", scheme}, p, "0")
						require.NoError(b, res.err, "%s", res.stderr)
						tr, err := native.ReadDir(dir, nil)
						require.NoError(b, err)
						ns := 1e9 / float64(tr.Resolution)
						for _, l := range tr.Locations[1:] {
							for _, o := range l.Offsets {
								offs = append(offs, math.Abs(float64(o.Offset))*ns)
								rtts = append(rtts, float64(o.RTT)*ns)
							}
						}
						if m, err := ParseMetaSync(filepath.Join(dir, MetaDir, "0.txt")); err == nil {
							syncs = append(syncs, m*1e6)
						}
					}
					sort.Float64s(offs)
					sort.Float64s(rtts)
					q := func(v []float64, f float64) float64 { return v[int(f*float64(len(v)-1))] }
					b.Logf("%s %s %d ranks: |offset| ns median %.0f p90 %.0f max %.0f; RTT ns min %.0f median %.0f max %.0f; sync time per run (init+finalize) median %.0f us",
						k.fl, scheme, n, q(offs, .5), q(offs, .9), q(offs, 1), q(rtts, 0), q(rtts, .5), q(rtts, 1), median(syncs))
					b.ReportMetric(q(offs, .5), fmt.Sprintf("ns-median-|offset|-%s-%d", scheme, n))
				}
			}
		})
	}
}

// ParseMetaSync returns the seconds rank 0 spent measuring offsets.
func ParseMetaSync(path string) (float64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		var s float64
		if _, err := fmt.Sscanf(l, "sync_seconds %g", &s); err == nil {
			return s, nil
		}
	}
	return 0, fmt.Errorf("%s: no sync_seconds", path)
}

// dirSize is the number of bytes of the files under dir, except truth/.
func dirSize(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "truth" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	require.NoError(b, err)
	return n
}

// BenchmarkTraceSize traces the HPCC-like polling program (tests/mpi/poll.c,
// 4 ranks), a message-heavy ring and, when it is installed, HPCC itself
// (Open MPI, the example input with N = 1000) in both formats, with runs
// of unsuccessful polls collapsed (the default) and with every call kept,
// and reports events, bytes on disk and bytes per event.
func BenchmarkTraceSize(b *testing.B) {
	type job struct {
		name  string
		ranks int
		args  []string
		wdir  bool
	}
	for _, k := range kits {
		b.Run(string(k.fl), func(b *testing.B) {
			k := need(b, k)
			jobs := []job{{"poll", 4, []string{"1000", "20", "20"}, false}, {"ring", 4, []string{"500"}, false}}
			if hp, err := exec.LookPath("hpcc"); err == nil && k.fl == OpenMPI {
				jobs = append(jobs, job{hp, 4, nil, true})
			}
			for _, j := range jobs {
				p := j.name
				if !j.wdir {
					p = prog(b, k, j.name)
				}
				for _, format := range []string{"native", "otf2"} {
					for _, polls := range []string{"collapse", "all"} {
						dir := filepath.Join(b.TempDir(), "t")
						flags := []string{"-q", "--format", format, "--polls", polls}
						kk := k
						if j.wdir { // hpcc reads hpccinf.txt from its working directory
							wd := b.TempDir()
							in, err := os.ReadFile("/usr/share/doc/hpcc/examples/_hpccinf.txt")
							if err != nil {
								b.Skipf("no HPCC input: %v", err)
							}
							require.NoError(b, os.WriteFile(filepath.Join(wd, "hpccinf.txt"), in, 0o644))
							kk.extra = append(append([]string{}, k.extra...), "--wdir", wd)
						}
						res := traceRun(b, kk, false, j.ranks, dir, flags, p, j.args...)
						require.NoError(b, res.err, "%s", res.stderr)
						var tr *trace.Trace
						if format == "otf2" {
							a, err := otf.Open(filepath.Join(dir, "traces.otf2"))
							require.NoError(b, err)
							tr, err = a.Read(context.Background(), nil)
							require.NoError(b, err)
						} else {
							var err error
							tr, err = native.ReadDir(dir, nil)
							require.NoError(b, err)
						}
						got, err := countTrace(tr)
						require.NoError(b, err)
						calls := 0
						for _, c := range got {
							for _, n := range c.Calls {
								calls += n
							}
						}
						size := dirSize(b, dir)
						// (printed, not logged: the benchmark's log is cut after ten lines)
						fmt.Printf("CLC-SIZE %s %s %s --polls %s: %d events for %d MPI calls, %d bytes, %.2f bytes/event\n",
							k.fl, filepath.Base(j.name), format, polls, tr.NumEvents(), calls, size, float64(size)/float64(tr.NumEvents()))
						b.ReportMetric(float64(size)/float64(tr.NumEvents()), "B/event-"+filepath.Base(j.name)+"-"+format+"-"+polls)
					}
				}
			}
		})
	}
}
