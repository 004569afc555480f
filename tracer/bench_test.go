package tracer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/clc-tools/clc/native"
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
			if err := json.Unmarshal([]byte(sc.Text()[i+len("CLC-BENCH "):]), &l); err != nil {
				b.Fatalf("bad CLC-BENCH line %q: %v", sc.Text(), err)
			}
			return l
		}
	}
	b.Fatalf("no CLC-BENCH line in\n%s", out)
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

// BenchmarkTracingOverhead runs single-rank loops of MPI_Send to
// MPI_PROC_NULL and MPI_Sendrecv to itself (the wrapper's own cost, free of
// a partner's scheduling), a tight ping-pong and an allreduce loop,
// untraced and traced in alternation (7 runs each, each the best of 5
// repetitions of the loop), and reports the added time per MPI call
// (difference of the medians) and the traced/untraced ratio. It also
// reports the cost of one rdtscp.
func BenchmarkTracingOverhead(b *testing.B) {
	for _, k := range kits {
		b.Run(string(k.fl), func(b *testing.B) {
			k := need(b, k)
			p := prog(b, k, "bench")
			ct := tools(b)
			launch := func(traced bool, args ...string) benchLine {
				np := "2"
				if args[0] == "procnull" || args[0] == "self" || args[0] == "timer" {
					np = "1"
				}
				argv := append(append([]string{}, k.extra...), "-np", np)
				if traced {
					argv = append(argv, ct, "-q", "--force", "-o", filepath.Join(b.TempDir(), "t"))
				}
				argv = append(append(argv, p), args...)
				res := run(b, 5*time.Minute, mpiEnv(b), k.launcher, argv...)
				if res.err != nil {
					b.Fatalf("%v\n%s", res.err, res.stderr)
				}
				return parseBench(b, res.stdout)
			}
			tm := launch(false, "timer", "10000000")
			b.ReportMetric(tm.NsPerIter, "ns/rdtscp")
			for _, mode := range []string{"procnull", "self", "pingpong", "allreduce"} {
				var plain, traced []float64
				calls := 1
				for i := 0; i < 7; i++ {
					u := launch(false, mode, "50000")
					tr := launch(true, mode, "50000")
					plain = append(plain, u.NsPerIter)
					traced = append(traced, tr.NsPerIter)
					calls = u.Calls
				}
				mu, mt := median(plain), median(traced)
				added := (mt - mu) / float64(calls)
				b.ReportMetric(added, "ns-added/call-"+mode)
				b.ReportMetric(mt/mu, "ratio-"+mode)
				lo := func(v []float64) float64 { s := append([]float64(nil), v...); sort.Float64s(s); return s[0] }
				b.Logf("%s %s: untraced %.0f ns/iter, traced %.0f ns/iter (medians of 7 runs: %v / %v); %d calls per iteration per rank: %.0f ns added per call (minima: %.0f), ratio %.3f; rdtscp %.1f ns",
					k.fl, mode, mu, mt, round(plain), round(traced), calls, added, (lo(traced)-lo(plain))/float64(calls), mt/mu, tm.NsPerIter)
			}
		})
	}
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
						if res.err != nil {
							b.Fatalf("%v\n%s", res.err, res.stderr)
						}
						tr, err := native.ReadDir(dir, nil)
						if err != nil {
							b.Fatal(err)
						}
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
