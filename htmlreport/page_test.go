package htmlreport

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/pipetest"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// input makes the page's input from a corrected pipeline run.
func input(r *pipetest.Result) *Input {
	dom := LocationDomains(r.Trace)
	if r.Method == presync.Node {
		dom = NodeDomains(r.Trace)
	}
	return &Input{
		Title: "test", Trace: r.Trace, Presync: r.Presync, Corrected: r.Corrected, Truth: r.Truth,
		Graph: r.Graph, Latency: r.Lat, Domains: dom, PresyncFuncs: r.Funcs, Measured: r.Measured,
		Summary:  []Fact{{Label: "a <b> & c", Value: "1"}},
		Sections: []Section{{Title: "Parameters", Rows: []Row{{Key: "γ", Value: "0.99", Note: "x"}, {Key: "μ", Value: "1 µs"}}}},
		Notes:    []string{"a note with \"quotes\" and <angle brackets>"},
	}
}

func build(t *testing.T, in *Input, o *Options) (*Page, []byte) {
	t.Helper()
	p, err := Build(context.Background(), in, o)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, p.WriteHTML(&b))
	if dir := os.Getenv("CLC_HTML_KEEP"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".html"), b.Bytes(), 0o644))
	}
	return p, b.Bytes()
}

// external matches what would make a browser load something: a URL with a
// scheme or a protocol-relative one.
var external = regexp.MustCompile(`(?i)(https?:|file:|ftp:|data:|//[a-z0-9])`)

// checkPage parses the page as XML (it is written XHTML-compatible) and
// checks that it loads nothing: no script, link, image, frame or object
// element, no src or href attribute, no URL in a style. It returns the
// number of elements of each name.
func checkPage(t *testing.T, page []byte) map[string]int {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict = true
	dec.Entity = map[string]string{} // only XML's own entities
	names := map[string]int{}
	var stack []string
	sawDoctype := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "the page is not well-formed")
		switch tk := tok.(type) {
		case xml.Directive:
			sawDoctype = sawDoctype || strings.HasPrefix(string(tk), "DOCTYPE html")
		case xml.StartElement:
			n := strings.ToLower(tk.Name.Local)
			names[n]++
			stack = append(stack, n)
			switch n {
			case "script", "link", "img", "iframe", "object", "embed", "image", "use", "audio", "video", "source", "base", "form":
				assert.Fail(t, "an element that loads or runs something", "<%s> in the page", n)
			}
			for _, a := range tk.Attr {
				an := strings.ToLower(a.Name.Local)
				loads := an == "src" || an == "href" || an == "srcset" || an == "action" || strings.HasPrefix(an, "on")
				assert.False(t, loads, "attribute %s=%q on <%s>", an, a.Value, n)
				assert.False(t, external.MatchString(a.Value), "URL in attribute %s=%q", an, a.Value)
			}
		case xml.EndElement:
			require.NotEmpty(t, stack)
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 && stack[len(stack)-1] == "style" {
				assert.NotContains(t, string(tk), "url(", "the style loads something")
				assert.NotContains(t, string(tk), "@import")
			}
		}
	}
	assert.Empty(t, stack, "unclosed elements")
	assert.True(t, sawDoctype)
	assert.False(t, external.Match(page), "the page mentions a URL")
	return names
}

func TestPageOfDriftingSimulation(t *testing.T) {
	r := pipetest.Sim(t, pipetest.Drifting(32, 4, 40_000, 3))
	in := input(r)
	p, page := build(t, in, nil)
	names := checkPage(t, page)
	assert.Equal(t, 1, names["html"])
	assert.Positive(t, p.Before().Total(), "the simulation has violations")
	assert.Zero(t, p.After().Total())
	s := string(page)
	for _, want := range []string{
		"Clock error assumed by pre-synchronisation", "Error left in the pre-synchronised times",
		"Violations by pair of nodes", "Shifts the correction applied", "Fidelity of the local intervals",
		"a &lt;b&gt; &amp; c", "a note with &#34;quotes&#34; and &lt;angle brackets&gt;", "Parameters",
	} {
		assert.Contains(t, s, want)
	}
	// 8 nodes (domains): one line per domain and estimate, no bands.
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, p.Highlighted())
	assert.Contains(t, s, Count(p.Before().Total())+" of ")
	assert.NotContains(t, s, "NaN")
}

// With many domains the page draws bands and a few lines, whatever the
// number of ranks: its size does not grow with them.
func TestPageStaysSmallWithManyDomains(t *testing.T) {
	sizes := map[int]int{}
	for _, ranks := range []int{256, 2048} {
		r := pipetest.Sim(t, pipetest.Drifting(ranks, 1, int64(ranks)*40, 5))
		p, page := build(t, input(r), nil)
		names := checkPage(t, page)
		assert.Len(t, p.Highlighted(), 4)
		assert.LessOrEqual(t, len(p.Groups().Labels), 32)
		// bands: 2 areas + median per estimate and the assumed error, 4
		// lines each; triangles for measurements (at most one per bin);
		// the histogram's bins
		assert.Less(t, names["path"], 3*(3+4)+100+20, "paths")
		assert.Less(t, names["rect"], 2*32*32+2*100+3*shiftBins+40, "rects")
		sizes[ranks] = len(page)
	}
	assert.Less(t, sizes[2048], 2*sizes[256], "page size by ranks: %v", sizes)
	assert.Less(t, sizes[2048], 1<<20)
}

// The counts by pair of groups add up to what measure.ClockCondition counts,
// for any grouping, before and after the correction.
func TestPairCountsAddUpToCheckViolations(t *testing.T) {
	var results []*pipetest.Result
	for seed := uint64(1); seed <= 6; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		rec, truth := tracetest.Random(rng, tracetest.Config{Locations: 7, Nodes: 3, Ops: 300, Latency: 500, Offset: 3000, Drift: 1e-5, Unmatched: 0.02, Init: true})
		results = append(results, pipetest.Run(t, rec, traceOf(rec, truth)))
	}
	// One node: the groups are locations, and every message is intra-node.
	rng := rand.New(rand.NewPCG(7, 7))
	rec, truth := tracetest.Random(rng, tracetest.Config{Locations: 7, Nodes: 1, Ops: 300, Latency: 500, Offset: 3000, Drift: 1e-5, Init: true})
	results = append(results, pipetest.Run(t, rec, traceOf(rec, truth)))
	for _, perNode := range []int{4, 24} {
		cfg := pipetest.Drifting(24, perNode, 30_000, 11)
		cfg.Patterns = []string{"halo", "scan", "exscan", "bcast", "gather", "allreduce", "alltoall", "subcoll", "pairs"}
		results = append(results, pipetest.Sim(t, cfg))
	}
	for i, r := range results {
		node := nodes(r.Trace)
		for _, maxGroups := range []int{1, 2, 32} {
			groups := MakeGroups(r.Trace, maxGroups)
			bins := NewBins(0, 1, 1)
			for _, times := range [][][]int64{r.Presync, r.Corrected} {
				pc, err := CountPairs(context.Background(), measure.ClockCondition{Graph: r.Graph, Node: node, Latency: r.Lat, Parallel: 3}, times, r.Presync, &groups, bins)
				require.NoError(t, err)
				v := measure.ClockCondition{Graph: r.Graph, Node: node, Latency: r.Lat, Parallel: 2}.Violations(times)
				tot := v.Total()
				assert.Equal(t, tot.Violations, pc.Total(), "trace %d, %d groups", i, maxGroups)
				assert.Equal(t, tot.Messages, sum(pc.Messages), "trace %d, %d groups", i, maxGroups)
				assert.Equal(t, tot.Violations, sum(pc.ByTime))
			}
		}
	}
}

// The counts by pair of groups equal a brute-force enumeration of every
// logical message.
func TestPairCountsBruteForce(t *testing.T) {
	cfg := pipetest.Drifting(12, 2, 12_000, 4)
	cfg.Patterns = []string{"halo", "scan", "exscan", "bcast", "reduce", "allgather", "alltoall", "subcoll", "pairs", "master"}
	r := pipetest.Sim(t, cfg)
	node := nodes(r.Trace)
	for _, maxGroups := range []int{3, 6, 32} {
		groups := MakeGroups(r.Trace, maxGroups)
		for _, times := range [][][]int64{r.Presync, r.Corrected} {
			pc, err := CountPairs(context.Background(), measure.ClockCondition{Graph: r.Graph, Node: node, Latency: r.Lat, Parallel: 2}, times, r.Presync, &groups, NewBins(0, 1, 1))
			require.NoError(t, err)
			ng := len(groups.Labels)
			msgs, viol := make([]int64, ng*ng), make([]int64, ng*ng)
			pair := func(sl int32, s int64, rl int32, rv int64) {
				k := int(groups.Of[sl])*ng + int(groups.Of[rl])
				msgs[k]++
				if rv < s+r.Lat.Between(node[sl], node[rl]) {
					viol[k]++
				}
			}
			for l, deps := range r.Graph.Deps {
				for _, d := range deps {
					if d.Role == replay.RoleRecv {
						pair(d.Peer, times[d.Peer][d.Ref], int32(l), times[l][d.Idx])
					}
				}
			}
			for i := range r.Graph.Instances {
				parts := r.Graph.InstanceParts(uint32(i))
				scan := r.Graph.Instances[i].Class == replay.ClassScan
				for a, pa := range parts {
					for b, pb := range parts {
						if a == b || pa.Send == replay.NoEvent || pb.Recv == replay.NoEvent || (scan && a >= b) {
							continue
						}
						pair(pa.Loc, times[pa.Loc][pa.Send], pb.Loc, times[pb.Loc][pb.Recv])
					}
				}
			}
			assert.Equal(t, msgs, pc.Messages, "%d groups", maxGroups)
			assert.Equal(t, viol, pc.Violations, "%d groups", maxGroups)
		}
	}
}

// The correction's estimate is pre-synchronised − corrected time, averaged:
// never above 0, and its event-weighted mean is minus the mean shift.
func TestShiftErrorAveragesTheShifts(t *testing.T) {
	r := pipetest.Sim(t, pipetest.Drifting(16, 4, 20_000, 8))
	dom := NodeDomains(r.Trace)
	lo, hi, _ := Span(r.Presync)
	bins := NewBins(lo, hi, 37)
	e := ShiftError(r.Presync, r.Corrected, dom, bins, r.Trace.Resolution, 3)
	cnt := make([]float64, len(e.Err))
	var shift float64
	var events float64
	for l, ts := range r.Presync {
		for j, v := range ts {
			cnt[int(dom.Of[l])*bins.N+bins.Of(v)]++
			shift += float64(r.Corrected[l][j] - v)
			events++
		}
	}
	var weighted float64
	for k, v := range e.Err {
		if cnt[k] == 0 {
			assert.True(t, math.IsNaN(v))
			continue
		}
		assert.LessOrEqual(t, v, 0.0)
		weighted += v * cnt[k]
	}
	assert.InDelta(t, -shift/events/float64(r.Trace.Resolution), weighted/events, 1e-12)
	assert.Positive(t, shift, "the correction moved events")
}

// The assumed clock error of a linear correction is minus its offset,
// which at local time l is o0 + (o1−o0)·(l−t0)/(t1−t0).
func TestAssumedErrorOfALinearCorrection(t *testing.T) {
	const res = 1_000_000_000
	tr := &trace.Trace{Resolution: res, Nodes: []trace.Node{{Name: "a"}, {Name: "b"}}}
	tr.Locations = []*trace.Location{
		{Node: 0, Offsets: nil},
		{Node: 1, Offsets: []trace.ClockOffset{{Time: 1_000_000, Offset: -500_000}, {Time: 101_000_000, Offset: -400_000}}},
	}
	funcs, err := presync.Funcs(tr, presync.Interpolate)
	require.NoError(t, err)
	bins := NewBins(0, 200_000_000, 20)
	e := AssumedError(funcs, LocationDomains(tr), bins, res)
	for b := 0; b < bins.N; b++ {
		assert.Equal(t, 0.0, e.At(0, b), "no measurements: assumed exact")
		ref := float64(bins.Mid(b))
		// ref = l + o(l), o(l) = -500000 + 0.001·(l − 1e6)  ⇒  l = (ref + 501000)/1.001
		l := (ref + 501_000) / 1.001
		want := -(-500_000 + 0.001*(l-1_000_000)) / res
		assert.InDelta(t, want, e.At(1, b), 2e-9, "bin %d", b)
	}
}

func TestShiftBins(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		d := int64(math.Pow(10, rng.Float64()*18)) + 1
		k := shiftBin(d)
		assert.True(t, float64(d) >= shiftEdges[k] && float64(d) < shiftEdges[k+1], "d=%d bin %d", d, k)
	}
	for _, d := range []int64{1, 10, 100, 1000, 1 << 62} {
		k := shiftBin(d)
		assert.True(t, float64(d) >= shiftEdges[k] && float64(d) < shiftEdges[k+1], "d=%d bin %d", d, k)
	}
	s := CountShifts([][]int64{{0, 5, 10}, {7}}, [][]int64{{0, 6, 110}, {3}}, 2)
	assert.Equal(t, int64(4), s.Events)
	assert.Equal(t, int64(1), s.Unmoved)
	assert.Equal(t, int64(2), sum(s.Later))
	assert.Equal(t, int64(1), sum(s.Earlier))
	assert.Equal(t, int64(100), s.MaxLater)
	assert.Equal(t, int64(4), s.MaxEarlier)
}

// A trace without events, and one whose correction moved nothing and that
// has no clock-offset measurements, still make a readable page.
func TestPageOfEmptyAndCleanTraces(t *testing.T) {
	tr := &trace.Trace{Resolution: 1000, Nodes: []trace.Node{{}}, Locations: []*trace.Location{{Name: "rank 0"}, {Name: "rank 1"}}}
	r := pipetest.Run(t, tr, nil)
	_, page := build(t, input(r), nil)
	checkPage(t, page)
	assert.Contains(t, string(page), "no location has two or more clock-offset measurements")

	cfg := pipetest.Drifting(8, 4, 5_000, 2)
	cfg.PerfectClocks()
	cfg.OffsetNoise = 0
	r = pipetest.Sim(t, cfg)
	p, page := build(t, input(r), nil)
	checkPage(t, page)
	assert.Zero(t, p.Before().Total())
	assert.Contains(t, string(page), "The correction moved no event.")
	assert.Contains(t, string(page), "No violation before or after the correction.")
}

func TestBuildRejectsInconsistentInput(t *testing.T) {
	r := pipetest.Sim(t, pipetest.Drifting(8, 4, 3_000, 2))
	in := input(r)
	in.Corrected = in.Corrected[:3]
	_, err := Build(context.Background(), in, nil)
	assert.ErrorContains(t, err, "corrected")
	in = input(r)
	in.Domains.Of = in.Domains.Of[:2]
	_, err = Build(context.Background(), in, nil)
	assert.ErrorContains(t, err, "clock domains")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Build(ctx, input(r), nil)
	assert.ErrorIs(t, err, context.Canceled)
}

func nodes(t *trace.Trace) []int32 {
	n := make([]int32, len(t.Locations))
	for i, l := range t.Locations {
		n[i] = l.Node
	}
	return n
}

// traceOf wraps true times in a copy of rec's definitions.
func traceOf(rec *trace.Trace, truth [][]int64) *trace.Trace {
	tt := &trace.Trace{Resolution: rec.Resolution, Nodes: rec.Nodes}
	for i, l := range rec.Locations {
		k := *l
		k.Events.Time = truth[i]
		tt.Locations = append(tt.Locations, &k)
	}
	return tt
}

func TestFormats(t *testing.T) {
	for s, want := range map[float64]string{
		1e-6: "1 µs", 0.9999999e-6: "1 µs", 24.256e-6: "24.3 µs", 1.5e-3: "1.5 ms", 123.4e-9: "123 ns",
		2.5: "2.5 s", 0: "0 s", -4.171e-6: "-4.17 µs", 999.96e-6: "1 ms", 0.477e-9: "0.48 ns",
	} {
		assert.Equal(t, want, Seconds(s), "%g", s)
	}
	assert.Equal(t, "1,234,567", Count(1234567))
	assert.Equal(t, "-1,000", Count(-1000))
	assert.Equal(t, "12", Count(12))
}

// A further estimate (a clock model's) on other bins is resampled onto the
// page's and drawn with the others.
func TestFurtherEstimate(t *testing.T) {
	r := pipetest.Sim(t, pipetest.Drifting(16, 4, 8_000, 6))
	in := input(r)
	lo, hi, _ := Span(r.Presync)
	nd := len(in.Domains.Names)
	model := SampleError("clock model", NewBins(lo, hi, 7), nd, func(d int, _ int64) (float64, bool) {
		return -float64(d) * 1e-6, d != 1 // no estimate for domain 1
	})
	in.Estimates = []*ClockError{model}
	p, page := build(t, in, &Options{Bins: 20})
	checkPage(t, page)
	require.Len(t, p.estimates, 3) // truth, correction, clock model
	m := p.estimates[2]
	assert.Equal(t, "clock model", m.source)
	for d, row := range m.rows {
		for _, v := range row {
			if d == 1 {
				assert.True(t, math.IsNaN(v))
			} else {
				assert.Equal(t, -float64(d)*1e-6, v)
			}
		}
	}
	assert.Contains(t, string(page), "clock model")
}

// Span takes each location's first and last time; one out of order counts
// with both, so the span never comes out inverted.
func TestSpan(t *testing.T) {
	_, _, ok := Span([][]int64{nil, {}})
	assert.False(t, ok)
	lo, hi, ok := Span([][]int64{nil, {3, 4, 9}, {12, 10}, {}})
	assert.True(t, ok)
	assert.Equal(t, [2]int64{3, 12}, [2]int64{lo, hi})
	lo, hi, ok = Span([][]int64{{20, 5}})
	assert.True(t, ok)
	assert.Equal(t, [2]int64{5, 20}, [2]int64{lo, hi})
}
