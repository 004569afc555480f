package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/repair/job"
	"github.com/clc-tools/clc/sim"
)

// cancelStages are the stages whose cancellation BenchmarkCancel measures,
// by the start of their progress message, the method whose run has them
// (the CLC's passes run with the pure CLC: after the clock model a
// simulated trace has no violation left for them) and the output format
// ("" for OTF2); name labels the stage in the results.
var cancelStages = []struct {
	name, stage, method string
	format              job.Format
}{
	{"reading", "reading", "model", ""},
	{"pre-synchronising", "pre-synchronising", "model", ""},
	{"matching", "matching", "model", ""},
	{"estimating the clocks", "estimating the clocks", "model", ""},
	{"correcting", "correcting", "model", ""}, // the CLC, the measurements and the error bars
	{"forward pass", "forward pass", "clc", ""},
	{"backward", "backward", "clc", ""},
	{"writing", "writing", "model", ""},
	{"writing perfetto", "writing", "model", job.FormatPerfetto},
}

// stageClock runs a correction and records when each stage started.
type stageClock struct {
	mu     sync.Mutex
	starts map[string]time.Time
	last   string
}

func (c *stageClock) progress(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.starts == nil {
		c.starts = map[string]time.Time{}
	}
	c.starts[s] = time.Now()
	c.last = s
}

func (c *stageClock) current() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// startOf returns when the stage whose message begins with prefix started.
func (c *stageClock) startOf(prefix string) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for s, t := range c.starts {
		if isStage(s, prefix) {
			return t, true
		}
	}
	return time.Time{}, false
}

// isStage reports whether the progress message s starts the stage named
// by prefix (writing the trace is not writing the HTML report).
func isStage(s, prefix string) bool {
	return strings.HasPrefix(s, prefix) && !strings.HasPrefix(s, "writing the HTML report")
}

// correctOnce runs one correction of in into a fresh directory under
// parent; cancelAt, if not nil, is called with the clock from a goroutine
// and returns when to cancel (the zero time: never). It returns the
// latency from the cancellation to the return, the stage running when
// cancelled, the stages' starts, and what the directory holds afterwards.
func correctOnce(tb testing.TB, in, parent, method string, format job.Format, cancelAt func(*stageClock) time.Time) (time.Duration, string, *stageClock, []os.DirEntry) {
	tb.Helper()
	out := filepath.Join(parent, "out")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := &stageClock{}
	opts := testOptions(out)
	opts.Truth = "-"
	opts.Format = format
	opts.Progress = clk.progress
	opts.ClockModel.Method = clockmodel.MethodModel
	if method == "clc" {
		opts.ClockModel.Method = clockmodel.MethodCLC
	}
	var fl flags
	fl.progress = "never"
	var mu sync.Mutex // guards cancelled and stage
	var cancelled time.Time
	var stage string
	done := make(chan struct{})
	if cancelAt != nil {
		go func() {
			at := cancelAt(clk)
			if at.IsZero() {
				return
			}
			select {
			case <-time.After(time.Until(at)):
			case <-done:
				return
			}
			mu.Lock()
			stage, cancelled = clk.current(), time.Now()
			mu.Unlock()
			cancel()
		}()
	}
	var status int
	err := correct(ctx, io.Discard, in, &fl, opts, &status, nil)
	end := time.Now()
	close(done)
	mu.Lock()
	defer mu.Unlock()
	if cancelled.IsZero() || err == nil {
		// Not cancelled, or cancelled while the output was committed.
		require.NoError(tb, err, "uncancelled run")
		os.RemoveAll(out)
		return 0, "", clk, nil
	}
	require.ErrorIs(tb, err, context.Canceled, "cancelled in %q", stage)
	ents, _ := os.ReadDir(parent)
	return end.Sub(cancelled), stage, clk, ents
}

// BenchmarkCancel measures how long a correction takes to stop after its
// context is cancelled (as the first SIGINT or SIGTERM cancels it), at
// every stage: for each stage it cancels at 5 %, 25 %, 50 %, 75 % and 95 %
// of the stage's duration in an uncancelled run, and reports per stage
// (the one running when the cancellation came) the largest latency and the
// number of cancellations that landed in it. The trace is simulated:
// CLC_CANCEL_EVENTS events (default 10^7) on 64 ranks, read as native and
// as OTF2, written as OTF2 (the default output) and, for the stage named
// "writing perfetto", as a Perfetto file. CLC_CANCEL_STAGES (names
// separated by commas, e.g. "writing perfetto") limits it to those stages.
//
//	go test ./cmd/clc-correct -run '^$' -bench Cancel -benchtime 1x
func BenchmarkCancel(b *testing.B) {
	events := int64(10_000_000)
	if s := os.Getenv("CLC_CANCEL_EVENTS"); s != "" {
		var err error
		events, err = strconv.ParseInt(s, 10, 64)
		require.NoError(b, err, "CLC_CANCEL_EVENTS")
	}
	d := b.TempDir()
	c := sim.DefaultConfig()
	c.Ranks, c.Events, c.Seed = 64, events, 1
	rec, _, err := sim.Generate(c)
	require.NoError(b, err)
	require.NoError(b, native.WriteDir(context.Background(), filepath.Join(d, "native"), rec, nil))
	require.NoError(b, otf.WriteTrace(context.Background(), filepath.Join(d, "otf2"), rec, nil))
	rec = nil
	for _, format := range []string{"native", "otf2"} {
		b.Run(format, func(b *testing.B) { benchCancel(b, filepath.Join(d, format)) })
	}
}

func benchCancel(b *testing.B, in string) {
	stages := cancelStages
	if only := os.Getenv("CLC_CANCEL_STAGES"); only != "" {
		stages = nil
		for _, s := range cancelStages {
			if slices.Contains(strings.Split(only, ","), s.name) {
				stages = append(stages, s)
			}
		}
		require.NotEmpty(b, stages, "CLC_CANCEL_STAGES=%s names no stage", only)
	}
	for range b.N {
		// Stage durations of an uncancelled run of each method and format.
		durs := map[string]map[string]time.Duration{}
		for _, s := range stages {
			run := s.method + "/" + string(s.format)
			if durs[run] == nil {
				_, _, clk, _ := correctOnce(b, in, b.TempDir(), s.method, outFormat(s.format), nil)
				durs[run] = stageDurations(clk)
			}
		}
		worst := map[string]time.Duration{}
		count := map[string]int{}
		for _, s := range stages {
			run := s.method + "/" + string(s.format)
			d, ok := durs[run][s.stage]
			require.True(b, ok, "stage %q did not run with --method %s, format %q", s.stage, s.method, s.format)
			for _, frac := range []float64{0.05, 0.25, 0.5, 0.75, 0.95} {
				parent := b.TempDir()
				lat, stage, _, left := correctOnce(b, in, parent, s.method, outFormat(s.format), func(clk *stageClock) time.Time {
					for {
						if t, ok := clk.startOf(s.stage); ok {
							return t.Add(time.Duration(frac * float64(d)))
						}
						time.Sleep(time.Millisecond)
					}
				})
				if stage == "" {
					continue // the run ended first
				}
				assert.Empty(b, left, "cancelled in %q: what was left", stage)
				// The stage of this run's format it landed in.
				for _, c := range cancelStages {
					if c.format == s.format && isStage(stage, c.stage) {
						stage = c.name
					}
				}
				worst[stage] = max(worst[stage], lat)
				count[stage]++
			}
		}
		for _, s := range stages {
			run := s.method + "/" + string(s.format)
			if count[s.name] == 0 {
				b.Logf("%-22s (%s) no cancellation landed in it", s.name, durs[run][s.stage].Round(time.Millisecond))
				continue
			}
			b.ReportMetric(worst[s.name].Seconds(), "s-"+strings.ReplaceAll(s.name, " ", "-"))
			b.Logf("%-22s stage %7s: %d cancellations, the slowest stopped in %s",
				s.name, durs[run][s.stage].Round(time.Millisecond), count[s.name], worst[s.name].Round(time.Millisecond))
		}
	}
}

// outFormat is the output format of a cancelStages entry.
func outFormat(f job.Format) job.Format {
	if f == "" {
		return job.FormatOTF2
	}
	return f
}

// stageDurations returns how long each stage of a run took, by the
// starts of consecutive stages (the last stage ends with the run, which
// the clock does not see: it gets the time to now).
func stageDurations(clk *stageClock) map[string]time.Duration {
	type st struct {
		name string
		at   time.Time
	}
	var all []st
	for s, t := range clk.starts {
		all = append(all, st{s, t})
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if all[j].at.Before(all[i].at) {
				all[i], all[j] = all[j], all[i]
			}
		}
	}
	out := map[string]time.Duration{}
	for i, s := range all {
		end := time.Now()
		if i+1 < len(all) {
			end = all[i+1].at
		}
		for _, c := range cancelStages {
			if isStage(s.name, c.stage) {
				out[c.stage] = end.Sub(s.at)
			}
		}
	}
	return out
}

// The first signal cancels the run; the second removes the temporaries of
// the run in progress at once and exits, whatever the run is doing (a
// second Ctrl-C did not force the exit; issue 26).
func TestSecondSignalExitsAtOnce(t *testing.T) {
	d := t.TempDir()
	opts := testOptions(filepath.Join(d, "out"))
	opts.Report = filepath.Join(d, "r.json")
	j, err := job.Prepare(simTrace, opts)
	require.NoError(t, err)
	var ab aborter
	ab.set(j)
	sig := make(chan os.Signal, 2)
	cancelled := make(chan struct{})
	exited := make(chan int, 1)
	var stderr strings.Builder
	go onSignals(sig, func() { close(cancelled) }, &ab, &stderr, func(code int) { exited <- code })
	sig <- os.Interrupt
	<-cancelled
	select {
	case <-exited:
		require.FailNow(t, "exited at the first signal")
	case <-time.After(10 * time.Millisecond):
	}
	ents, err := os.ReadDir(d)
	require.NoError(t, err)
	require.Len(t, ents, 2, "the temporaries are there while the run stops")
	sig <- syscall.SIGTERM
	assert.Equal(t, exitError, <-exited)
	assert.Contains(t, stderr.String(), "interrupted again")
	ents, err = os.ReadDir(d)
	require.NoError(t, err)
	assert.Empty(t, ents)
}
