package sim

import (
	"sync/atomic"
	"testing"

	"github.com/clc-tools/clc/trace"
)

// countSink counts the events appended to the sink it wraps (or drops
// them when it wraps nothing).
type countSink struct {
	next trace.Sink
	defs *trace.Trace
	n    atomic.Int64
}

func (c *countSink) Defs() *trace.Trace { return c.defs }

func (c *countSink) Append(loc int, ev *trace.Events) error {
	c.n.Add(int64(ev.Len()))
	if c.next != nil {
		return c.next.Append(loc, ev)
	}
	return nil
}

// Ranges passes on the wrapped sink's ranges (trace.RangedSink).
func (c *countSink) Ranges() []int { return trace.SinkRanges(c.next) }

func (c *countSink) Close() error {
	if c.next != nil {
		return c.next.Close()
	}
	return nil
}

func benchConfig(ranks int, events int64, patterns ...string) Config {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.Events = ranks, events
	if ranks >= 1024 {
		cfg.RanksPerNode = 16
	}
	if len(patterns) > 0 {
		cfg.Patterns = patterns
	}
	return cfg
}

// benchRun runs cfg b.N times into sinks that discard the events (toDisk
// false) or into two native writers (toDisk true), and reports events/s
// (per trace: the recorded and the truth trace each get that many).
func benchRun(b *testing.B, cfg Config, toDisk bool) {
	var events int64
	for range b.N {
		var rec, tru *countSink
		if toDisk {
			w1, w2 := nativeSinks(b, cfg, b.TempDir(), nil)
			rec, tru = &countSink{next: w1, defs: w1.Defs()}, &countSink{next: w2, defs: w2.Defs()}
		} else {
			rd, td := bothDefinitions(b, cfg)
			rec, tru = &countSink{defs: rd}, &countSink{defs: td}
		}
		runAndClose(b, cfg, rec, tru)
		events = tru.n.Load()
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events), "events/op")
}

// Simulation and clock conversion only (the sinks discard the events).
func BenchmarkSimulate16x1e7(b *testing.B)    { benchRun(b, benchConfig(16, 1e7), false) }
func BenchmarkSimulate65536x1e7(b *testing.B) { benchRun(b, benchConfig(65536, 1e7), false) }

// Simulation plus both native writers (zstd), into the test's temp dir.
func BenchmarkWriteNative16x1e7(b *testing.B)    { benchRun(b, benchConfig(16, 1e7), true) }
func BenchmarkWriteNative65536x1e7(b *testing.B) { benchRun(b, benchConfig(65536, 1e7), true) }
