// Command partition measures clc-correct's correction divided among P
// processes (docs/scale.md): it simulates a trace as the benchmarks do (or
// reads one), corrects it in this process with the stages timed and their
// heap sampled, lays out the clock model's estimation, divides the
// locations 4, 16 and 64 ways by each scheme (contiguous blocks of nodes,
// nodes round-robin, blocks refined to cut messages) and measures what
// crosses each division on the real matched graph with the real
// algorithms (package partition, internal/scalestudy). It prints Markdown tables.
//
//	go run ./tools/partition -ranks 1024 -per-node 16 -events 1e8
//	go run ./tools/partition -ranks 65536 -per-node 16 -events 1e7 -parts 4,16,64
//	go run ./tools/partition -input traces/ -parts 4,16
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/clc-tools/clc/internal/scalestudy"
	"github.com/clc-tools/clc/partition"
	"github.com/clc-tools/clc/sim"
)

// config is what the command line chose.
type config struct {
	input    string
	cfg      sim.Config
	parts    []int
	schemes  []partition.Scheme
	np       int
	out      string
	events   float64
	domains  string
	progress bool
}

func main() {
	var c config
	c.cfg = sim.DefaultConfig()
	flag.StringVar(&c.input, "input", "", "read this trace (OTF2 or native) instead of simulating one")
	flag.IntVar(&c.cfg.Ranks, "ranks", 1024, "simulated ranks")
	flag.IntVar(&c.cfg.RanksPerNode, "per-node", 16, "simulated ranks per node")
	flag.Float64Var(&c.events, "events", 1e7, "simulated events (about)")
	flag.Int64Var(&c.cfg.Seed, "seed", 7, "simulator seed")
	flag.DurationVar(&c.cfg.ClockWander, "clock-wander", 10*time.Microsecond, "simulated clocks' wander (the benchmarks': 10µs)")
	parts := flag.String("parts", "4,16,64", "numbers of parts (comma-separated)")
	schemes := flag.String("schemes", "block,cyclic,comm", "schemes (comma-separated): block, cyclic, comm")
	flag.IntVar(&c.np, "j", runtime.GOMAXPROCS(0), "workers")
	flag.StringVar(&c.out, "o", "", "write the tables to this file (default: standard output)")
	flag.BoolVar(&c.progress, "v", true, "say what is being done on standard error")
	flag.Parse()
	// The benchmarks' trace (clockmodel's BenchmarkModel, clc's
	// BenchmarkCorrect): 2 ms compute phases, 10 µs clock wander.
	c.cfg.Events, c.cfg.Compute = int64(c.events), 2*time.Millisecond
	for _, s := range strings.Split(*parts, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || p < 1 {
			fail(fmt.Errorf("-parts: %q is not a positive number", s))
		}
		c.parts = append(c.parts, p)
	}
	for _, s := range strings.Split(*schemes, ",") {
		sc, err := partition.ParseScheme(strings.TrimSpace(s))
		if err != nil {
			fail(fmt.Errorf("-schemes: %w", err))
		}
		c.schemes = append(c.schemes, sc)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	w := io.Writer(os.Stdout)
	if c.out != "" {
		f, err := os.Create(c.out)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		w = f
	}
	if err := run(ctx, &c, w); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "partition:", err)
	os.Exit(1)
}

func (c *config) say(format string, args ...any) {
	if c.progress {
		fmt.Fprintf(os.Stderr, "%s  "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
	}
}

func run(ctx context.Context, c *config, w io.Writer) error {
	load := LoadAverage()
	var l *scalestudy.Loaded
	var err error
	what := c.input
	if c.input != "" {
		c.say("reading %s", c.input)
		l, err = read(ctx, c.input, c.np)
	} else {
		what = fmt.Sprintf("clc-sim --ranks %d --ranks-per-node %d --events %.0f --seed %d --compute 2ms --clock-wander %s",
			c.cfg.Ranks, c.cfg.RanksPerNode, c.events, c.cfg.Seed, c.cfg.ClockWander)
		c.say("simulating: %s", what)
		l, err = simulate(ctx, c.cfg, c.np)
	}
	if err != nil {
		return err
	}
	c.say("read %.1f s, matched %.1f s; correcting on one node", l.Read.Seconds(), l.Match.Seconds())
	sn, lay, err := scalestudy.Single(ctx, l, c.np)
	if err != nil {
		return err
	}
	c.say("corrected; measuring the divisions")
	in := &scalestudy.Input{Graph: l.Graph, Layout: lay, Parallel: c.np}
	if sn.Domain == nil {
		return fmt.Errorf("the correction found no clock domains")
	}
	in.Domain = sn.Domain
	scratch := l.Times // the corrected times: the replay's scratch from here on
	l.Times = nil
	for li, loc := range l.Defs.Locations {
		in.Node = append(in.Node, loc.Node)
		in.Events = append(in.Events, int64(len(scratch[li])))
		in.Offsets = append(in.Offsets, len(loc.Offsets))
	}
	var results []*scalestudy.Result
	for _, s := range c.schemes {
		for _, p := range c.parts {
			if err := ctx.Err(); err != nil {
				return err
			}
			t0 := time.Now()
			plan, err := partition.NewPlan(s, p, in.Node, in.Events, l.Graph)
			if err != nil {
				return err
			}
			r, err := scalestudy.Measure(in, plan, scratch)
			if err != nil {
				return err
			}
			c.say("%s, %d parts: %.1f s", s, p, time.Since(t0).Seconds())
			results = append(results, r)
		}
	}
	return write(w, what, load, l, sn, lay, results)
}
