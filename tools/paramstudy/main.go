// Command paramstudy evaluates the CLC's parameters against the simulator's
// ground truth: for a grid of parameter settings and a set of clock-error
// scenarios (several seeds each), it corrects each simulated trace and
// measures the distance to the true times, the events moved and the
// fidelity of local intervals. docs/parameters.md holds its output and the
// reasoning behind the defaults.
//
//	go run ./tools/paramstudy            # full study (a few minutes)
//	go run ./tools/paramstudy -quick     # one seed per scenario
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/simscenario"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

var scenarios = []simscenario.Scenario{
	{Name: "mild (wander 2µs)", Config: simscenario.Base},
	{Name: "wander 10µs", Config: simscenario.With(func(c *sim.Config) { c.ClockWander = 10 * time.Microsecond })},
	{Name: "wander 50µs, drift 50ppm", Config: simscenario.With(func(c *sim.Config) {
		c.ClockWander, c.ClockDrift = 50*time.Microsecond, 50
	})},
	{Name: "collectives, wander 10µs", Config: simscenario.With(func(c *sim.Config) {
		c.ClockWander = 10 * time.Microsecond
		c.Patterns = []string{"allreduce", "coll", "subcoll", "scan", "exscan", "bcast", "reduce"}
	})},
	{Name: "256 ranks p2p, wander 10µs", Config: simscenario.With(func(c *sim.Config) {
		c.Ranks, c.RanksPerNode, c.Events = 256, 16, 200_000
		c.ClockWander = 10 * time.Microsecond
		c.Patterns = []string{"halo", "pairs", "ring", "master"}
	})},
	{Name: "poor offsets (noise 5µs)", Config: simscenario.With(func(c *sim.Config) {
		c.ClockWander, c.OffsetNoise = 10*time.Microsecond, 5*time.Microsecond
	})},
}

type setting struct {
	name string
	p    clc.Params
	// alltoallv is how ALLTOALLV/W instances are matched.
	alltoallv replay.AlltoallvPolicy
	// model runs the clock model (clockmodel.Run) before the correction.
	model bool
	// muScale scales the simulator's true minimum latencies; 0 means the
	// parameters' own latencies.
	muScale float64
}

func grid() []setting {
	var out []setting
	add := func(mu float64, f func(p *clc.Params) string) {
		p := clc.DefaultParams()
		name := f(&p)
		out = append(out, setting{name: fmt.Sprintf("μ×%.2g %s", mu, name), p: p, muScale: mu})
	}
	// The factorial part: γ × backward slope × trust, at μ half the true
	// minimum latency (about what the defaults are for the simulator).
	for _, g := range []float64{0.9, 0.99, 0.999, 0.9999} {
		for _, m := range []float64{0.1, 0.01, 0.001} {
			for _, trust := range []bool{false, true} {
				add(0.5, func(p *clc.Params) string {
					p.Gamma, p.Slope, p.TrustReference = g, m, trust
					return fmt.Sprintf("γ=%g m=%g trust=%v", g, m, trust)
				})
			}
		}
	}
	// One factor at a time around the defaults.
	for _, mu := range []float64{0.25, 0.75, 1, 1.25} {
		add(mu, func(p *clc.Params) string { return "defaults" })
	}
	for _, d := range []time.Duration{0, 10 * time.Nanosecond, time.Microsecond} {
		add(0.5, func(p *clc.Params) string { p.Delta = d; return fmt.Sprintf("defaults, δ=%v", d) })
	}
	for _, rg := range []float64{0.5, 0.9} {
		add(0.5, func(p *clc.Params) string { p.ReferenceGamma = rg; return fmt.Sprintf("defaults, γref=%g", rg) })
	}
	for _, ig := range []float64{0.999, 0.99999} {
		add(0.5, func(p *clc.Params) string { p.InformedGamma = ig; return fmt.Sprintf("defaults, γinf=%g", ig) })
	}
	for _, im := range []float64{0.001, 0.0001} {
		add(0.5, func(p *clc.Params) string { p.InformedSlope = im; return fmt.Sprintf("defaults, minf=%g", im) })
	}
	add(0.5, func(p *clc.Params) string { p.MaxPasses = 1; return "defaults, no γ control" })
	out = append(out, setting{name: "μ×0.5 defaults, alltoallv=nton", p: clc.DefaultParams(), muScale: 0.5, alltoallv: replay.AlltoallvNToN})
	// Scalasca's choices: γ = 0.99999, μ = 1 µs everywhere, no trust.
	sc := clc.DefaultParams()
	sc.Gamma, sc.Slope, sc.TrustReference, sc.MaxPasses = 0.99999, 0.01, false, 1
	sc.LatencyIntra, sc.LatencyInter = time.Microsecond, time.Microsecond
	out = append(out, setting{name: "Scalasca-like (γ=0.99999, μ=1µs, m=0.01, no trust, no γ control)", p: sc})
	// The defaults as they are (their own latencies).
	out = append(out, setting{name: "defaults (μ 300ns/1µs)", p: clc.DefaultParams()})
	out = append(out, setting{name: "defaults + clock model (μ 300ns/1µs)", p: clc.DefaultParams(), model: true})
	out = append(out, setting{name: "μ×1 defaults + clock model", p: clc.DefaultParams(), muScale: 1, model: true})
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
	preAcc := map[string][]float64{}
	for _, sc := range scenarios {
		preAcc[sc.Name] = make([]float64, len(presyncMethods))
	}
	res := make([][]result, len(settings)) // per setting, per run
	var runNames []string
	start := time.Now()
	for _, sc := range scenarios {
		for s := 0; s < *seeds; s++ {
			cfg := sc.Config(int64(101 + s))
			rec, truth, err := sim.Generate(cfg)
			if err != nil {
				fail(err)
			}
			tt := tracetest.Times(truth)
			for mi, m := range presyncMethods {
				cp := clone(rec)
				if _, err := presync.Apply(cp, &presync.Options{Method: m}); err != nil {
					fail(err)
				}
				preAcc[sc.Name][mi] += measure.AccuracyOf(tracetest.Times(cp), tt).MeanAbs / float64(*seeds)
			}
			pre := measure.AccuracyOf(tracetest.Times(presynced(rec)), tt)
			runNames = append(runNames, fmt.Sprintf("%s #%d", sc.Name, s))
			for i, st := range settings {
				p := st.p
				if st.muScale > 0 {
					p.LatencyIntra = time.Duration(st.muScale * float64(cfg.LatencyIntra))
					p.LatencyInter = time.Duration(st.muScale * float64(cfg.LatencyInter))
				}
				// μ as the setting says (not lowered by the trace), the
				// clock model or the pure CLC: clc-correct's correction.
				method := clockmodel.MethodCLC
				if st.model {
					method = clockmodel.MethodModel
				}
				in := repair.TraceOf(rec)
				cr, err := repair.Correct(context.Background(), in, &repair.Correction{Params: &p, Alltoallv: st.alltoallv,
					ClockModel: repair.ClockModelOptions{Method: method, LatencyGiven: [2]bool{true, true}}, Parallel: 2, KeepPresync: true})
				if err != nil {
					fail(err)
				}
				acc := measure.AccuracyOf(in.Times, tt)
				_, dist := measure.IntervalFidelity(cr.Presync, in.Times, 2)
				res[i] = append(res[i], result{
					errRatio: acc.MeanAbs / pre.MeanAbs, moved: simscenario.Moved(cr.Presync, in.Times),
					fidAvg: dist.WeightedAvg, fidAbove1: dist.Above[3], left: cr.Report.After.Violations, passes: len(cr.Report.Correction.Passes),
				})
			}
			fmt.Fprintf(os.Stderr, "%s seed %d done (%.0fs)\n", sc.Name, s, time.Since(start).Seconds())
		}
	}

	fmt.Println("Pre-synchronisation alone, mean |time − truth| (ns):")
	fmt.Println()
	fmt.Print("| scenario |")
	for _, m := range presyncMethods {
		fmt.Printf(" %s |", m)
	}
	fmt.Println()
	fmt.Println("|---|" + strings.Repeat("---|", len(presyncMethods)))
	for _, sc := range scenarios {
		fmt.Printf("| %s |", sc.Name)
		for mi := range presyncMethods {
			fmt.Printf(" %.0f |", preAcc[sc.Name][mi])
		}
		fmt.Println()
	}
	fmt.Println()
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
	fmt.Printf("%d scenarios × %d seeds = %d runs, %d settings (%.0fs). Error: mean |time − truth| after correction relative to pre-synchronisation alone (negative: closer to the truth), mean over runs and worst run.\n\n", len(scenarios), *seeds, len(runNames), len(settings), time.Since(start).Seconds())
	fmt.Println("| setting | mean error vs presync | worst | events moved | distance dev. (weighted) | intervals > 1 % | violations left | passes |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s | %+.2f %% | %+.2f %% | %.2f %% | %.4f %% | %.3f %% | %d | %d |\n", r.name,
			100*(r.meanRatio-1), 100*(r.worstRatio-1), 100*r.moved, 100*r.fidAvg, 100*r.fidAbove, r.left, r.maxPasses)
	}
	// Per run, for the defaults and Scalasca's choices.
	fmt.Println()
	fmt.Println("| run | defaults: error vs presync | moved | defaults + clock model: error | moved | Scalasca-like: error | moved |")
	fmt.Println("|---|---|---|---|---|---|---|")
	def, ref, sca := -1, -1, -1
	for i, st := range settings {
		switch {
		case strings.HasPrefix(st.name, "defaults ("):
			def = i
		case strings.HasPrefix(st.name, "defaults + clock model"):
			ref = i
		case strings.HasPrefix(st.name, "Scalasca"):
			sca = i
		}
	}
	for j, name := range runNames {
		d, r, s := res[def][j], res[ref][j], res[sca][j]
		fmt.Printf("| %s | %+.2f %% | %.2f %% | %+.2f %% | %.2f %% | %+.2f %% | %.2f %% |\n", name,
			100*(d.errRatio-1), 100*d.moved, 100*(r.errRatio-1), 100*r.moved, 100*(s.errRatio-1), 100*s.moved)
	}
}

var presyncMethods = []presync.Method{presync.Interpolate, presync.Regression, presync.Node}

// presynced returns a copy of t pre-synchronised as clc-correct does by
// default.
func presynced(t *trace.Trace) *trace.Trace {
	c := clone(t)
	if _, err := presync.Apply(c, nil); err != nil {
		fail(err)
	}
	return c
}

// clone copies the definitions and event times of t (events share the
// other columns, which presync does not change).
func clone(t *trace.Trace) *trace.Trace {
	c := *t
	c.Locations = make([]*trace.Location, len(t.Locations))
	for i, l := range t.Locations {
		cl := *l
		cl.Events.Time = append([]int64(nil), l.Events.Time...)
		cl.Offsets = append([]trace.ClockOffset(nil), l.Offsets...)
		c.Locations[i] = &cl
	}
	return &c
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "paramstudy:", err)
	os.Exit(1)
}
