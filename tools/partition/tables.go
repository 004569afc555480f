package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/scalestudy"
)

// BoundBytes is one bound of the clock model shipped to the part that owns
// its domain pair (two domains, a time, a delay).
const BoundBytes = 24

// write prints the tables.
func write(w io.Writer, what, load string, l *scalestudy.Loaded, sn *scalestudy.SingleNode, lay *clockmodel.Layout, rs []*scalestudy.Result) error {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	rep := sn.Report
	ev := rep.Events
	p("## %s\n\n", what)
	p("%d locations on %d nodes, %d clock domains; %s events; %s point-to-point messages, %s collective instances (%s logical messages); GOMAXPROCS %d; load average (1 min) before/after: %s / %s.\n\n",
		len(l.Defs.Locations), len(l.Defs.Nodes), sn.Domains, count(ev), count(rep.Messages.P2P), count(rep.Messages.CollectiveInstances),
		count(rep.Messages.CollectiveLogical), runtime.GOMAXPROCS(0), load, LoadAverage())

	p("### One process\n\n")
	p("| stage | wall s | CPU s | events per CPU-s | heap peak | bytes/event |\n|---|---|---|---|---|---|\n")
	var peak uint64
	for _, s := range sn.Stages {
		heap, per := "–", "–"
		if s.Heap > 0 {
			heap, per = size(int64(s.Heap)), fmt.Sprintf("%.1f", float64(s.Heap)/float64(ev))
			peak = max(peak, s.Heap)
		}
		p("| %s | %.2f | %.2f | %s | %s | %s |\n", s.Name, s.Seconds, s.CPU, count(int64(float64(ev)/s.CPU)), heap, per)
	}
	p("\nHeap peak of the correction %s (%.1f bytes/event); process peak RSS %s. The times take 8 bytes/event, the happened-before relation %s (%.1f bytes/event). A copy of the definitions without events takes %s (%.0f bytes per location).\n\n",
		size(int64(peak)), float64(peak)/float64(ev), vmHWM(), size(sn.GraphBytes), float64(sn.GraphBytes)/float64(ev),
		size(int64(sn.DefsBytes)), float64(sn.DefsBytes)/float64(len(l.Defs.Locations)))
	if m := rep.Method; m != nil && m.Estimate != nil {
		p("Method: %s; %d bounds in %d windows (%d two-sided) between %d domain pairs; %d unknowns; solver iterations %v; wall seconds: μ %.2f, estimate %.2f, guard and projection %.2f.\n\n",
			m.Ran, m.Estimate.Bounds, m.Estimate.Bands, m.Estimate.TwoSided, m.Estimate.Pairs, m.Estimate.Unknowns, m.Estimate.Iterations,
			m.Timing.Latency, m.Timing.Estimate, m.Timing.Guard)
	}
	if m := rep.Method; m != nil && m.Project != nil {
		pr := m.Project
		p("Projection onto the bounds: %d bounds, %d violated, %d active after %d sweeps (%d bounds visited); used: %v.\n\n",
			pr.Bounds, pr.Violated, pr.Active, pr.Sweeps, pr.Swept, pr.Used)
	}
	if c := rep.Correction; len(c.Passes) > 0 {
		p("CLC: %d forward pass(es), %d receives moved.\n\n", len(c.Passes), c.ReceivesMoved)
	}

	p("### Division and messages\n\n")
	p("| scheme | P | events: most part / mean | p2p messages crossing | instances crossing (mean parts) | logical msgs crossing | matching | send times (most part) | coll. extremes | presync |\n")
	p("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		mean := float64(r.Events) / float64(r.Parts)
		spans := 0.0
		if r.InstancesCrossing > 0 {
			spans = float64(r.InstanceParts) / float64(r.InstancesCrossing)
		}
		p("| %s | %d | %s / %s (%.2f) | %s (%s) | %s (%s; %.1f) | %s (%s) | %s | %s (%s) | %s | %s |\n",
			r.Scheme, r.Parts, count(r.EventsMax), count(int64(mean)), float64(r.EventsMax)/mean,
			count(r.MessagesCrossing), pct(r.MessagesCrossing, r.Messages),
			count(r.InstancesCrossing), pct(r.InstancesCrossing, r.Instances), spans,
			count(r.LogicalCrossing), pct(r.LogicalCrossing, r.Logical),
			size(r.MatchBytes), size(r.SendTimesBytes), size(r.SendTimesPartMax), size(r.ExtremesBytes),
			presync(r))
	}

	p("\n### Forward replay, bulk-synchronous\n\n")
	p("| scheme | P | supersteps | bytes, all exchanges | busiest exchange | most from one part in one exchange | peers (most) | part-to-part messages | crossing instances (most in one exchange) | critical events | events / critical |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		f := &r.Forward
		p("| %s | %d | %s | %s | %s | %s | %d | %s | %s (%s) | %s | %.1f |\n",
			r.Scheme, r.Parts, count(int64(f.Supersteps)), size(f.Bytes), size(f.RoundBytesMax), size(f.PartBytesMax), f.PeersMax,
			count(f.Messages), count(f.Instances), count(f.InstancesMax), count(f.CriticalEvents), float64(r.Events)/float64(f.CriticalEvents))
	}
	perEvent := float64(peak) / float64(ev)
	coarseBytes := int64(0)
	if lay != nil {
		coarseBytes = 8 * int64(lay.CoarseEntries)
	}
	p("\n### Memory per process\n\n")
	p("Estimated from the one-process run: %.1f bytes per event (its heap peak) for the part's events, the definitions of every location (%s), the coarse factor (%s, every process holds it) and twice the largest exchange a part takes part in (send and receive buffers).\n\n",
		perEvent, size(int64(sn.DefsBytes)), size(coarseBytes))
	p("| scheme | P | events, most part | memory, most part | of which events |\n|---|---|---|---|---|\n")
	for _, r := range rs {
		buf := r.Forward.PartBytesMax
		if r.Model != nil {
			buf = max(buf, 2*8*r.Model.HaloMax)
		}
		evBytes := int64(perEvent * float64(r.EventsMax))
		total := evBytes + int64(sn.DefsBytes) + coarseBytes + 2*buf
		p("| %s | %d | %s | %s | %s |\n", r.Scheme, r.Parts, count(r.EventsMax), size(total), size(evBytes))
	}
	if lay == nil {
		return nil
	}

	iters := 0
	for _, it := range lay.Stats.Iterations {
		iters += it
	}
	p("\n### Clock model\n\n")
	p("Estimate: %d bounds, %d domain pairs, %d windows (%d two-sided), %d unknowns, %s rows, %s nonzeros (pairs of unknowns sharing a row), %d bias groups; %d conjugate-gradient iterations (per pass %v), %d preparations; coarse level %d unknowns, %s factor entries.\n\n",
		lay.Stats.Bounds, lay.Stats.Pairs, lay.Stats.Bands, lay.Stats.TwoSided, lay.Stats.Unknowns, count(lay.Rows), count(lay.Nonzeros),
		lay.Stats.Groups, iters, lay.Stats.Iterations, lay.Prepares, lay.Coarse, count(int64(lay.CoarseEntries)))
	p("The posterior's standard deviations take no solve (two-level marginal variances from the factorised blocks and the domains' levels), so the estimate's exchanges are those of its passes' iterations.\n\n")
	p("| scheme | P | pairs crossing | bounds crossing (p2p + coll) | bounds shipped | rows crossing | nonzeros crossing | unknowns, most part | halo: all / most part | neighbours (most) | coarse, most part | per iteration: all / most part | whole estimate |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		m := r.Model
		if m == nil {
			continue
		}
		perIter := 2*8*m.Halo + int64(m.Parts)*8*int64(lay.Coarse) + 3*8*int64(m.Parts)
		perIterMax := 2*8*m.HaloMax + 8*int64(lay.Coarse) + 3*8
		whole := int64(iters)*perIter + int64(lay.Prepares)*int64(m.Parts)*8*int64(lay.CoarseEntries)
		shipped := m.Shipped[0] + m.Shipped[1]
		p("| %s | %d | %d of %d | %s + %s (%s) | %s (%s) | %s (%s) | %s (%s) | %d of %d | %s / %s | %d | %d | %s / %s | %s |\n",
			r.Scheme, r.Parts, m.PairsCrossing, m.Pairs,
			count(m.BoundsCrossing[0]), count(m.BoundsCrossing[1]), pct(m.BoundsCrossing[0]+m.BoundsCrossing[1], m.Bounds[0]+m.Bounds[1]),
			count(shipped), size(shipped*BoundBytes),
			count(m.RowsCrossing), pct(m.RowsCrossing, m.Rows), count(m.NonzerosCrossing), pct(m.NonzerosCrossing, m.Nonzeros),
			m.UnknownsMax, m.Unknowns, count(m.Halo), count(m.HaloMax), m.NeighboursMax, m.CoarseMax,
			size(perIter), size(perIterMax), size(whole))
	}
	p("\n")
	return nil
}

func presync(r *scalestudy.Result) string {
	if r.DomainsSplit == 0 {
		return "0"
	}
	return fmt.Sprintf("%s (%d domains split)", size(r.PresyncBytes), r.DomainsSplit)
}

func pct(a, b int64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(a)/float64(b))
}

// count writes n with a k, M or G suffix beyond 10,000.
func count(n int64) string {
	f := float64(n)
	switch {
	case n < 10_000:
		return fmt.Sprintf("%d", n)
	case f < 1e6:
		return fmt.Sprintf("%.1f k", f/1e3)
	case f < 1e9:
		return fmt.Sprintf("%.2f M", f/1e6)
	}
	return fmt.Sprintf("%.2f G", f/1e9)
}

// size writes n bytes in B, KiB, MiB or GiB.
func size(n int64) string {
	f := float64(n)
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case f < 1<<20:
		return fmt.Sprintf("%.1f KiB", f/(1<<10))
	case f < 1<<30:
		return fmt.Sprintf("%.1f MiB", f/(1<<20))
	}
	return fmt.Sprintf("%.2f GiB", f/(1<<30))
}

// vmHWM returns the process's peak resident set (Linux), or "unknown".
func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// LoadAverage returns the 1-minute load average (Linux), or "unknown".
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}
