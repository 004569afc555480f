// Command clockstudy measures how close clc-correct's methods bring a
// trace's times to the truth, on simulated scenarios whose true times are
// known: pre-synchronisation alone, the pure CLC (--method clc) and the
// default (--method model: the clock model, then the CLC). It prints the
// tables of docs/parameters.md ("The clock model").
//
//	go run ./internal/cmd/clockstudy             # every scenario, one seed
//	go run ./internal/cmd/clockstudy -only jump  # scenarios whose name has "jump"
//	go run ./internal/cmd/clockstudy -seed 7     # another seed
//	go run ./internal/cmd/clockstudy -iterations 2 -per-side 3  # other estimation settings
//
// The pipeline is clc-correct's (package repair), in memory: capture the
// clock domains and offsets, pre-synchronise, match, choose μ and run the
// clock model (clockmodel.Run), then the CLC (clc.Correct).
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
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
)

// acc is the distance of a set of times to the truth, in ticks.
type acc struct{ mean, p99, max float64 }

// outcome is what one method did to one scenario.
type outcome struct {
	acc      acc
	left     int64   // violations left
	moved    float64 // share of events moved
	fidAvg   float64 // Table 4: event distance, weighted average deviation
	fidAbove float64 // share of intervals changed by more than 1 %
	ran      string
	fallback string
	lat      replay.Latency
}

type row struct {
	name      string
	ranks     int
	nodes     int
	events    int64
	before    int64 // violations after pre-synchronisation (default μ)
	pre       acc
	clc, def  outcome
	modelTime float64
}

func main() {
	only := flag.String("only", "", "run only scenarios whose name contains this")
	seed := flag.Int64("seed", 101, "seed of every scenario")
	np := flag.Int("j", 2, "goroutines")
	// estimate tunes the clock model (zero values are the defaults).
	var estimate clockmodel.EstimateOptions
	flag.IntVar(&estimate.Iterations, "iterations", 0, "estimation passes (0: the default)")
	flag.IntVar(&estimate.PerSide, "per-side", 0, "bounds each way per window (0: the default)")
	flag.IntVar(&estimate.PerKnot, "per-knot", 0, "observations per knot (0: the default)")
	flag.Float64Var(&estimate.Curvature, "curvature", 0, "fixed curvature (0: cross-validated)")
	project := flag.Bool("project", true, "project the clocks onto the one-sided bounds (as clc-correct does)")
	flag.Parse()
	start := time.Now()
	var rows []row
	for _, sc := range scenarios {
		if *only != "" && !strings.Contains(sc.Name, *only) {
			continue
		}
		r, err := study(sc, *seed, *np, estimate, *project)
		if err != nil {
			fmt.Fprintln(os.Stderr, "clockstudy:", sc.Name+":", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "%s: presync %.0f, clc %.3f, default %.3f (%s)\n", r.name, r.pre.mean, ratio(r.clc.acc.mean, r.pre.mean), ratio(r.def.acc.mean, r.pre.mean), r.def.ran)
		rows = append(rows, r)
	}
	printTables(rows, *seed, time.Since(start))
}

// study runs one scenario with each method; estimate tunes the clock
// model.
func study(sc simscenario.Scenario, seed int64, np int, estimate clockmodel.EstimateOptions, project bool) (row, error) {
	cfg := sc.Config(seed)
	rec, truth, err := sim.Generate(cfg)
	if err != nil {
		return row{}, err
	}
	r := row{name: sc.Name, ranks: cfg.Ranks, nodes: len(rec.Nodes), events: rec.NumEvents()}
	tt := tracetest.Times(truth)
	in := clockmodel.Capture(rec)
	if _, err := presync.Apply(rec, &presync.Options{Parallel: np}); err != nil {
		return r, err
	}
	g, err := replay.Match(rec, &replay.MatchOptions{Parallel: np})
	if err != nil {
		return r, err
	}
	c := tracetest.Times(rec)
	node := simscenario.Nodes(rec)
	def := clc.DefaultParams()
	k := def.InTicks(rec.Resolution)
	v := measure.ClockCondition(c, g, node, k.Lat, np)
	r.before = v.Total().Violations
	r.pre = distance(c, tt)
	for _, m := range []clockmodel.Method{clockmodel.MethodCLC, clockmodel.MethodModel} {
		t0 := time.Now()
		res, err := clockmodel.Run(context.Background(), in, c, g, node, clockmodel.Options{Method: m, Latency: k.Lat, Parallel: np, Estimate: estimate, Project: project})
		if err != nil {
			return r, err
		}
		if m == clockmodel.MethodModel {
			r.modelTime = time.Since(t0).Seconds()
			if res.Estimate != nil {
				fmt.Fprintf(os.Stderr, "  estimate %+v\n", *res.Estimate)
			}
			if res.Project != nil {
				fmt.Fprintf(os.Stderr, "  projection %+v\n", *res.Project)
			}
		}
		// μ as repair sets it.
		p := def
		repair.SetLatencies(&p, &res.Latency, rec.Resolution)
		p.Parallel = np
		start := c
		if res.Times != nil {
			start = res.Times
		}
		for i, l := range rec.Locations {
			l.Events.Time = start[i]
		}
		cr, err := clc.Correct(rec, g, p, nil)
		if err != nil {
			return r, err
		}
		lat := p.InTicks(rec.Resolution).Lat
		o := outcome{acc: distance(cr.Times, tt), ran: res.Ran, fallback: res.Fallback, lat: lat}
		after := measure.ClockCondition(cr.Times, g, node, lat, np)
		o.left = after.Total().Violations
		o.moved = simscenario.Moved(c, cr.Times)
		_, dist := measure.IntervalFidelity(c, cr.Times, np)
		o.fidAvg, o.fidAbove = dist.WeightedAvg, dist.Above[3]
		if m == clockmodel.MethodCLC {
			r.clc = o
		} else {
			r.def = o
		}
	}
	for i, l := range rec.Locations {
		l.Events.Time = c[i]
	}
	return r, nil
}

func ratio(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return a / b
}

func us(ticks float64) string { return fmt.Sprintf("%.3g", ticks/1000) }

func printTables(rows []row, seed int64, took time.Duration) {
	fmt.Printf("%d scenarios, seed %d (%.0f s). Distances |time − truth| in µs after pre-synchronisation; after the pure CLC (--method clc) and the default (--method model), as a ratio to pre-synchronisation's (mean, 99th percentile, largest).\n\n", len(rows), seed, took.Seconds())
	fmt.Println("| scenario | ranks / nodes | presync mean | p99 | max | pure CLC mean | p99 | max | default mean | p99 | max | method that ran |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	var means []float64
	worstMean, worstMax := 0.0, 0.0
	for _, r := range rows {
		ran := r.def.ran
		if r.def.fallback != "" {
			ran += " (" + r.def.fallback + ")"
		}
		fmt.Printf("| %s | %d / %d | %s | %s | %s | %.2f | %.2f | %.2f | **%.3f** | %.2f | %.2f | %s |\n", r.name, r.ranks, r.nodes,
			us(r.pre.mean), us(r.pre.p99), us(r.pre.max),
			ratio(r.clc.acc.mean, r.pre.mean), ratio(r.clc.acc.p99, r.pre.p99), ratio(r.clc.acc.max, r.pre.max),
			ratio(r.def.acc.mean, r.pre.mean), ratio(r.def.acc.p99, r.pre.p99), ratio(r.def.acc.max, r.pre.max), ran)
		if r.pre.mean > 0 {
			m := ratio(r.def.acc.mean, r.pre.mean)
			means = append(means, m)
			worstMean = math.Max(worstMean, m)
			worstMax = math.Max(worstMax, ratio(r.def.acc.max, r.pre.max))
		}
	}
	slices.Sort(means)
	if len(means) > 0 {
		fmt.Printf("\nDefault, mean distance / pre-synchronisation's over the %d scenarios with clock error: median **%.3f**, largest %.3f; largest max-distance ratio %.2f.\n",
			len(means), means[len(means)/2], worstMean, worstMax)
	}
	fmt.Println()
	fmt.Println("| scenario | events | violations after presync | left: CLC / default | events moved: CLC / default | distance dev. (weighted): CLC / default | intervals > 1 %: CLC / default | μ intra / inter (default) | model time |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %s | %d | %d | %d / %d | %.1f %% / %.1f %% | %.4f %% / %.4f %% | %.3f %% / %.3f %% | %d / %d ns | %.2f s |\n", r.name, r.events, r.before,
			r.clc.left, r.def.left, 100*r.clc.moved, 100*r.def.moved, 100*r.clc.fidAvg, 100*r.def.fidAvg,
			100*r.clc.fidAbove, 100*r.def.fidAbove, r.def.lat.Intra, r.def.lat.Inter, r.modelTime)
	}
}

func distance(ts, truth [][]int64) acc {
	a := measure.AccuracyOf(ts, truth)
	return acc{mean: a.MeanAbs, p99: float64(a.P99Abs), max: float64(a.MaxAbs)}
}
