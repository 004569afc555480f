package sim

import (
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/clc-tools/clc/native"
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
		rd, err := Definitions(cfg)
		if err != nil {
			b.Fatal(err)
		}
		td, _ := TruthDefinitions(cfg)
		rec, tru := &countSink{defs: rd}, &countSink{defs: td}
		if toDisk {
			dir := b.TempDir()
			w1, err := native.CreateDir(filepath.Join(dir, "rec"), rd, nil)
			if err != nil {
				b.Fatal(err)
			}
			w2, err := native.CreateDir(filepath.Join(dir, "truth"), td, nil)
			if err != nil {
				b.Fatal(err)
			}
			rec.next, tru.next = w1, w2
		}
		if err := Run(cfg, rec, tru); err != nil {
			b.Fatal(err)
		}
		if err := rec.Close(); err != nil {
			b.Fatal(err)
		}
		if err := tru.Close(); err != nil {
			b.Fatal(err)
		}
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
