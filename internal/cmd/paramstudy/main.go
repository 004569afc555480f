// Command paramstudy evaluates the CLC's parameters against the simulator's
// ground truth: for a grid of parameter settings and a set of clock-error
// scenarios (several seeds each), it corrects each simulated trace and
// measures the distance to the true times, the events moved and the
// fidelity of local intervals. docs/parameters.md holds its output and the
// reasoning behind the defaults.
//
//	go run ./internal/cmd/paramstudy            # full study (a few minutes)
//	go run ./internal/cmd/paramstudy -quick     # one seed per scenario
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

type scenario struct {
	name string
	cfg  func(seed int64) sim.Config
}

func base(seed int64) sim.Config {
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Events, c.Seed = 32, 8, 100_000, seed
	c.Compute = 2 * time.Millisecond
	return c
}

var scenarios = []scenario{
	{"mild (wander 2µs)", func(s int64) sim.Config { return base(s) }},
	{"wander 10µs", func(s int64) sim.Config { c := base(s); c.ClockWander = 10 * time.Microsecond; return c }},
	{"wander 50µs, drift 50ppm", func(s int64) sim.Config {
		c := base(s)
		c.ClockWander, c.ClockDrift = 50*time.Microsecond, 50
		return c
	}},
	{"collectives, wander 10µs", func(s int64) sim.Config {
		c := base(s)
		c.ClockWander = 10 * time.Microsecond
		c.Patterns = []string{"allreduce", "coll", "subcoll", "scan", "exscan", "bcast", "reduce"}
		return c
	}},
	{"256 ranks p2p, wander 10µs", func(s int64) sim.Config {
		c := base(s)
		c.Ranks, c.RanksPerNode, c.Events = 256, 16, 200_000
		c.ClockWander = 10 * time.Microsecond
		c.Patterns = []string{"halo", "pairs", "ring", "master"}
		return c
	}},
	{"poor offsets (noise 5µs)", func(s int64) sim.Config {
		c := base(s)
		c.ClockWander, c.OffsetNoise = 10*time.Microsecond, 5*time.Microsecond
		return c
	}},
}

type setting struct {
	name string
	p    clc.Params
	// muScale scales the simulator's true minimum latencies; 0 means the
	// parameters' own latencies.
	muScale float64
}

func grid() []setting {
	var out []setting
	add := func(mu float64, f func(p *clc.Params) string) {
		p := clc.DefaultParams()
		name := f(&p)
		out = append(out, setting{fmt.Sprintf("μ×%.2g %s", mu, name), p, mu})
	}
	for _, mu := range []float64{0.5, 1} {
		for _, g := range []float64{0.9, 0.99, 0.999} {
			for _, m := range []float64{0.1, 0.01, 0.001} {
				add(mu, func(p *clc.Params) string {
					p.Gamma, p.Slope, p.TrustReference = g, m, false
					return fmt.Sprintf("γ=%g m=%g, no trust", g, m)
				})
				for _, ig := range []float64{0.999, 0.9999} {
					for _, im := range []float64{0.001, 0.0001} {
						add(mu, func(p *clc.Params) string {
							p.Gamma, p.Slope, p.InformedGamma, p.InformedSlope = g, m, ig, im
							return fmt.Sprintf("γ=%g m=%g, trust: γinf=%g minf=%g", g, m, ig, im)
						})
					}
				}
			}
		}
		for _, rg := range []float64{0, 0.9} {
			add(mu, func(p *clc.Params) string {
				p.ReferenceGamma = rg
				return fmt.Sprintf("defaults but γref=%g", rg)
			})
		}
	}
	// Scalasca's choices: γ = 0.99999, μ = 1 µs everywhere, no trust.
	sc := clc.DefaultParams()
	sc.Gamma, sc.Slope, sc.TrustReference, sc.MaxPasses = 0.99999, 0.01, false, 1
	sc.LatencyIntra, sc.LatencyInter = time.Microsecond, time.Microsecond
	out = append(out, setting{"Scalasca-like (γ=0.99999, μ=1µs, m=0.01)", sc, 0})
	// The defaults as they are (their own latencies).
	out = append(out, setting{"defaults", clc.DefaultParams(), 0})
	return out
}

type result struct {
	errRatio  float64 // corrected / presync mean |error|
	moved     float64 // share of events moved
	fidAvg    float64
	fidAbove1 float64
	left      int64 // violations left
	passes    int
}

func main() {
	quick := flag.Bool("quick", false, "one seed per scenario")
	seeds := flag.Int("seeds", 3, "seeds per scenario")
	flag.Parse()
	if *quick {
		*seeds = 1
	}
	settings := grid()
	res := make([][]result, len(settings)) // per setting, per run
	var runNames []string
	start := time.Now()
	for _, sc := range scenarios {
		for s := 0; s < *seeds; s++ {
			cfg := sc.cfg(int64(101 + s))
			rec, truth, err := sim.Generate(cfg)
			if err != nil {
				fail(err)
			}
			if _, err := presync.Apply(rec, nil); err != nil {
				fail(err)
			}
			g, err := replay.Match(rec, nil)
			if err != nil {
				fail(err)
			}
			c := times(rec)
			tt := times(truth)
			node := make([]int32, len(rec.Locations))
			for i, l := range rec.Locations {
				node[i] = l.Node
			}
			pre := clc.MeasureAccuracy(c, tt)
			runNames = append(runNames, fmt.Sprintf("%s #%d", sc.name, s))
			for i, st := range settings {
				p := st.p
				if st.muScale > 0 {
					p.LatencyIntra = time.Duration(st.muScale * float64(cfg.LatencyIntra))
					p.LatencyInter = time.Duration(st.muScale * float64(cfg.LatencyInter))
				}
				r, err := clc.Correct(rec, g, p, nil)
				if err != nil {
					fail(err)
				}
				k := p.InTicks(rec.Resolution)
				v := clc.CheckViolations(r.Times, g, node, k.Lat, 2)
				acc := clc.MeasureAccuracy(r.Times, tt)
				_, dist := clc.MeasureFidelity(c, r.Times, 2)
				var moved, n int64
				for li := range c {
					for j := range c[li] {
						if c[li][j] != r.Times[li][j] {
							moved++
						}
						n++
					}
				}
				res[i] = append(res[i], result{
					errRatio: acc.MeanAbs / pre.MeanAbs, moved: float64(moved) / float64(n),
					fidAvg: dist.WeightedAvg, fidAbove1: dist.Above[3], left: v.Total().Violations, passes: len(r.Passes),
				})
			}
			fmt.Fprintf(os.Stderr, "%s seed %d done (%.0fs)\n", sc.name, s, time.Since(start).Seconds())
		}
	}

	type row struct {
		name                                           string
		meanRatio, worstRatio, moved, fidAvg, fidAbove float64
		left                                           int64
		maxPasses                                      int
	}
	var rows []row
	for i, st := range settings {
		r := row{name: st.name}
		for _, x := range res[i] {
			r.meanRatio += x.errRatio / float64(len(res[i]))
			r.worstRatio = math.Max(r.worstRatio, x.errRatio)
			r.moved += x.moved / float64(len(res[i]))
			r.fidAvg += x.fidAvg / float64(len(res[i]))
			r.fidAbove += x.fidAbove1 / float64(len(res[i]))
			r.left += x.left
			r.maxPasses = max(r.maxPasses, x.passes)
		}
		rows = append(rows, r)
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].meanRatio < rows[b].meanRatio })
	fmt.Printf("%d scenarios × %d seeds = %d runs, %d settings (%.0fs)\n\n", len(scenarios), *seeds, len(runNames), len(settings), time.Since(start).Seconds())
	fmt.Println("| setting | mean error vs presync | worst | events moved | distance dev. (weighted) | intervals > 1 % | violations left | passes |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s | %+.2f %% | %+.2f %% | %.2f %% | %.4f %% | %.3f %% | %d | %d |\n", r.name,
			100*(r.meanRatio-1), 100*(r.worstRatio-1), 100*r.moved, 100*r.fidAvg, 100*r.fidAbove, r.left, r.maxPasses)
	}
	// Per run, for the defaults and Scalasca's choices.
	fmt.Println()
	fmt.Println("| run | defaults: error vs presync | moved | Scalasca-like: error vs presync | moved |")
	fmt.Println("|---|---|---|---|---|")
	def, sca := -1, -1
	for i, st := range settings {
		switch {
		case st.name == "defaults":
			def = i
		case strings.HasPrefix(st.name, "Scalasca"):
			sca = i
		}
	}
	for j, name := range runNames {
		d, s := res[def][j], res[sca][j]
		fmt.Printf("| %s | %+.2f %% | %.2f %% | %+.2f %% | %.2f %% |\n", name, 100*(d.errRatio-1), 100*d.moved, 100*(s.errRatio-1), 100*s.moved)
	}
}

func times(t *trace.Trace) [][]int64 {
	out := make([][]int64, len(t.Locations))
	for i, l := range t.Locations {
		out[i] = l.Events.Time
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "paramstudy:", err)
	os.Exit(1)
}
