// Command accuracy measures how close clc-correct brings the times of a
// trace to the truth, on every source of true times the project has, and
// prints one table per source:
//
//   - clcsim: the clock study's simulated scenarios (internal/simscenario),
//     written by clc's own simulator;
//   - truthgen: the archives of tools/truthgen, an independent generator in
//     Python that shares no code with clc (run on demand into a cache);
//   - recorded: real MPI runs recorded by clc-trace with emulated clock
//     error and the true times beside them (testdata/emulated, and
//     scripts/record-emulated.sh's recordings when -recorded names them);
//   - cases: traces users reported, with their true times (testdata/cases).
//
// Each run goes through repair.Correct, clc-correct's own correction, with
// the default method (the clock model) and, with -compare, the pure CLC.
// Distances |time − truth| are given after pre-synchronisation and as a
// ratio to pre-synchronisation's.
//
//	go run ./tools/accuracy                          # every source, seed 101
//	go run ./tools/accuracy -source truthgen -seeds 1,2,3
//	go run ./tools/accuracy -source clcsim -only jump -compare
//	go run ./tools/accuracy -source clcsim -only '256 ranks' -seeds 1 -domains
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/order"
	"github.com/clc-tools/clc/internal/simscenario"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/trace"
)

// config is what the command line chose.
type config struct {
	sources  []string
	seeds    []int64
	only     string
	np       int
	compare  bool
	cache    string
	recorded []string
	verbose  bool
	domains  bool
}

func main() {
	var c config
	src := flag.String("source", "all", "sources: all, or a comma-separated list of clcsim, truthgen, recorded, cases")
	seeds := flag.String("seeds", "101", "seeds of the generated sources (comma-separated)")
	flag.StringVar(&c.only, "only", "", "run only the scenarios whose name contains this")
	flag.IntVar(&c.np, "j", 2, "goroutines")
	flag.BoolVar(&c.compare, "compare", false, "also run the pure CLC (--method clc)")
	flag.StringVar(&c.cache, "cache", "", "directory for generated archives (default: the user cache directory)")
	rec := flag.String("recorded", "", "more recording directories (comma-separated; each holds recordings with truth/)")
	flag.BoolVar(&c.verbose, "v", false, "print the method's report line of every run on stderr")
	flag.BoolVar(&c.domains, "domains", false, "print each run's distances to the truth and error bars per clock domain on stderr (the default method)")
	flag.Parse()
	c.sources = strings.Split(*src, ",")
	if *src == "all" {
		c.sources = []string{"clcsim", "truthgen", "recorded", "cases"}
	}
	for _, s := range strings.Split(*seeds, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			fail(fmt.Errorf("-seeds: %w", err))
		}
		c.seeds = append(c.seeds, v)
	}
	if *rec != "" {
		c.recorded = strings.Split(*rec, ",")
	}
	if c.cache == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			fail(err)
		}
		c.cache = d + "/clc-accuracy"
	}
	ctx := context.Background()
	for _, name := range c.sources {
		cases, err := casesOf(ctx, name, &c)
		if err != nil {
			fail(fmt.Errorf("source %s: %w", name, err))
		}
		start := time.Now()
		var rows []row
		for _, k := range cases {
			if c.only != "" && !strings.Contains(k.name, c.only) {
				continue
			}
			r, err := run(ctx, k, &c)
			if err != nil {
				fail(fmt.Errorf("%s %s: %w", name, k.name, err))
			}
			fmt.Fprintf(os.Stderr, "%s %s: mean %.3f p99 %.3f max %.3f, moved %.1f %%, left %d (%s)\n", name, k.name,
				r.def.ratio.mean, r.def.ratio.p99, r.def.ratio.max, 100*r.def.moved, r.def.left, r.def.ran)
			rows = append(rows, r)
		}
		printTable(name, rows, &c, time.Since(start))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "accuracy:", err)
	os.Exit(1)
}

// testCase is one trace with its true times.
type testCase struct {
	name string
	load func(ctx context.Context) (*trace.Trace, [][]int64, error)
}

// casesOf lists the traces of a source.
func casesOf(ctx context.Context, source string, c *config) ([]testCase, error) {
	switch source {
	case "clcsim":
		return clcsimCases(c), nil
	case "truthgen":
		return truthgenCases(ctx, c)
	case "recorded":
		return recordedCases(c)
	case "cases":
		return archiveCases("testdata/cases")
	}
	return nil, fmt.Errorf("unknown source (want clcsim, truthgen, recorded or cases)")
}

// clcsimCases are the clock study's scenarios, for every seed.
func clcsimCases(c *config) []testCase {
	var out []testCase
	for _, seed := range c.seeds {
		for _, sc := range simscenario.Clock {
			name := sc.Name
			if len(c.seeds) > 1 {
				name = fmt.Sprintf("%s, seed %d", name, seed)
			}
			out = append(out, testCase{name: name, load: func(context.Context) (*trace.Trace, [][]int64, error) {
				rec, truth, err := simscenario.Generate(sc, seed)
				if err != nil {
					return nil, nil, err
				}
				tt := make([][]int64, len(truth.Locations))
				for i, l := range truth.Locations {
					tt[i] = l.Events.Time
				}
				return rec, tt, nil
			}})
		}
	}
	return out
}

// acc is a distance to the truth: mean, 99th percentile and largest.
type acc struct{ mean, p99, max float64 }

func accOf(times, truth [][]int64) acc {
	a := measure.AccuracyOf(times, truth)
	return acc{mean: a.MeanAbs, p99: float64(a.P99Abs), max: float64(a.MaxAbs)}
}

// ratio is a/b, with 0/0 = 1.
func ratio(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return a / b
}

func (a acc) over(b acc) acc {
	return acc{mean: ratio(a.mean, b.mean), p99: ratio(a.p99, b.p99), max: ratio(a.max, b.max)}
}

// outcome is what one method did to one trace.
type outcome struct {
	ratio    acc     // distance to the truth over pre-synchronisation's
	moved    float64 // share of the events whose time differs from the pre-synchronised one
	left     int64   // violations after the correction
	ran      string  // the method that ran
	fallback string
	coverage float64 // share of events within the report's error bars; −1 without them
	barP95   float64 // the error bars' 95th percentile, seconds
}

// row is one trace of a table.
type row struct {
	name     string
	events   int64
	res      uint64
	pre      acc // pre-synchronisation's distance, ticks
	def, clc outcome
}

// run corrects one trace with the default method (and the pure CLC with
// -compare).
func run(ctx context.Context, k testCase, c *config) (row, error) {
	tr, truth, err := k.load(ctx)
	if err != nil {
		return row{}, err
	}
	r := row{name: k.name, events: tr.NumEvents(), res: tr.Resolution}
	methods := []clockmodel.Method{clockmodel.MethodModel}
	if c.compare {
		methods = append(methods, clockmodel.MethodCLC)
	}
	for _, m := range methods {
		in := repair.TraceOf(tr)
		in.Truth = truth
		res, err := repair.Correct(ctx, in, &repair.Correction{ClockModel: repair.ClockModelOptions{Method: m},
			Parallel: c.np, KeepPresync: true})
		if err != nil {
			return r, err
		}
		rep := res.Report
		r.pre = accOf(res.Presync, truth)
		o := outcome{ratio: accOf(in.Times, truth).over(r.pre), moved: simscenario.Moved(res.Presync, in.Times),
			left: rep.After.Violations, coverage: -1}
		if rep.ErrorBars != nil && rep.Accuracy != nil && rep.ErrorBars.Events > 0 {
			o.coverage = rep.Accuracy.WithinBars
			o.barP95 = rep.ErrorBars.P95
		}
		if rep.Method != nil {
			o.ran, o.fallback = rep.Method.Ran, rep.Method.Fallback

		}
		if c.verbose {
			rep.WriteText(os.Stderr)
		}
		if c.domains && m == clockmodel.MethodModel {
			writeDomains(os.Stderr, k.name, in.Times, truth, res)
		}
		if m == clockmodel.MethodModel {
			r.def = o
		} else {
			r.clc = o
		}
	}
	return r, nil
}

func us(ticks float64, res uint64) string {
	return strconv.FormatFloat(ticks/float64(res)*1e6, 'g', 3, 64)
}

// printTable prints one source's table in Markdown, and a summary against
// the goals: every mean and 99th percentile at most pre-synchronisation's,
// no violation left, the median of the means.
func printTable(source string, rows []row, c *config, took time.Duration) {
	fmt.Printf("\n### %s (%d traces, %.0f s)\n\n", source, len(rows), took.Seconds())
	head := "| trace | events | presync mean / p99 / max (µs) | mean | p99 | max | moved | left | covered | method |"
	sep := "|---|---|---|---|---|---|---|---|---|---|"
	if c.compare {
		head += " CLC mean | p99 | max | moved |"
		sep += "---|---|---|---|"
	}
	fmt.Println(head)
	fmt.Println(sep)
	var means, covs, widths []float64
	var goal int
	var overMean, overP99, withLeft int
	worstMean, worstP99, worstMax := 0.0, 0.0, 0.0
	for _, r := range rows {
		o := r.def
		cov := "–"
		if o.coverage >= 0 {
			// The bars' width: their 95th percentile over the 99th
			// percentile of the corrected times' true |error|.
			p99 := o.ratio.p99 * r.pre.p99 / float64(r.res)
			width := math.Inf(1)
			if p99 > 0 {
				width = o.barP95 / p99
			}
			cov = fmt.Sprintf("%.1f %% (±%s µs, %.2g×)", 100*o.coverage, strconv.FormatFloat(o.barP95*1e6, 'g', 3, 64), width)
			covs = append(covs, o.coverage)
			if r.pre.mean > 0 {
				widths = append(widths, width)
				if o.coverage >= 0.90 && o.coverage <= 0.99 && width <= 3 {
					goal++
				}
			}
		}
		ran := o.ran
		if o.fallback != "" {
			ran += " (" + o.fallback + ")"
		}
		line := fmt.Sprintf("| %s | %d | %s / %s / %s | %.3f | %.3f | %.3f | %.1f %% | %d | %s | %s |", r.name, r.events,
			us(r.pre.mean, r.res), us(r.pre.p99, r.res), us(r.pre.max, r.res), o.ratio.mean, o.ratio.p99, o.ratio.max,
			100*o.moved, o.left, cov, ran)
		if c.compare {
			line += fmt.Sprintf(" %.3f | %.3f | %.3f | %.1f %% |", r.clc.ratio.mean, r.clc.ratio.p99, r.clc.ratio.max, 100*r.clc.moved)
		}
		fmt.Println(line)
		if r.pre.mean == 0 {
			continue // no clock error: no ratio to judge
		}
		means = append(means, o.ratio.mean)
		if o.ratio.mean > 1 {
			overMean++
		}
		if o.ratio.p99 > 1 {
			overP99++
		}
		if o.left > 0 {
			withLeft++
		}
		worstMean, worstP99, worstMax = math.Max(worstMean, o.ratio.mean), math.Max(worstP99, o.ratio.p99), math.Max(worstMax, o.ratio.max)
	}
	if len(means) == 0 {
		return
	}
	slices.Sort(means)
	fmt.Printf("\n%s: over the %d traces with clock error, the mean distance is a median **%.3f** of pre-synchronisation's (largest %.3f); mean above 1.0 in %d, 99th percentile above 1.0 in %d (largest %.3f), largest distance up to %.2f; violations left in %d.",
		source, len(means), order.Nth(means, len(means)/2), worstMean, overMean, overP99, worstP99, worstMax, withLeft)
	if len(covs) > 0 {
		slices.Sort(covs)
		var in int
		for _, c := range covs {
			if c >= 0.90 && c <= 1.0 {
				in++
			}
		}
		fmt.Printf(" Error bars (95 %%) cover the truth for a median %.1f %% of events (%.1f %% to %.1f %%); within 95 ± 5 %% in %d of %d traces.",
			100*covs[len(covs)/2], 100*covs[0], 100*covs[len(covs)-1], in, len(covs))
		if len(widths) > 0 {
			slices.Sort(widths)
			fmt.Printf(" Width (95th percentile of the half-widths over the 99th percentile of the true |error|): median %.2g, largest %.2g; 90–99 %% covered and width ≤ 3 in %d of %d traces with clock error.",
				widths[len(widths)/2], widths[len(widths)-1], goal, len(widths))
		}
	}
	fmt.Println()
}
