// Package perfetto writes a trace as a Chrome trace-event JSON file, the
// format Perfetto's UI (ui.perfetto.dev) and chrome://tracing open: one
// track per location (thread), grouped by node (process); regions as
// slices; point-to-point messages as flow arrows between two small slices
// that mark the send and the receive; collective operations as slices of
// category "collective" with the instance they belong to.
//
// Slices are complete events (ph "X") with their duration, so every slice
// is balanced by construction; flows are bound to their end slices with
// bind_id, flow_out and flow_in, as Chrome's own traces do. Times are in
// microseconds with nanosecond precision, from the trace's first event.
//
// A size guard keeps the file loadable: above a number of locations only a
// regular sample of them is written, and above a number of events only a
// window of time; the Summary says what was left out.
package perfetto

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/clc-tools/clc/internal/tracelabel"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Defaults of the size guard: Perfetto's UI loads a JSON trace of this
// many events (about 250 MB of JSON) in a browser tab, and shows this many
// tracks.
const (
	DefaultMaxEvents    = 2_000_000
	DefaultMaxLocations = 1024
)

// Options configure Write.
type Options struct {
	// MaxEvents bounds the slices written (0: DefaultMaxEvents; < 0: no
	// bound). Above it, only a window of time from the window's start is
	// written.
	MaxEvents int64
	// MaxLocations bounds the tracks (0: DefaultMaxLocations; < 0: no
	// bound). Above it, every k-th location is written.
	MaxLocations int
	// From and To, if To > 0, restrict the export to this window of time
	// since the trace's first event.
	From, To time.Duration
	// Creator is written into the file's metadata.
	Creator string
}

// Summary says what Write wrote and what it left out.
type Summary struct {
	Locations, Kept int
	// Window is the time span written, in ticks of the trace's timer;
	// Start is the trace's first event, the file's time 0.
	Window [2]int64
	Start  int64
	// Counts of what was written.
	Slices, Collectives, Endpoints, Flows int64
	// LeftOut says in words what the size guard or the trace's state left
	// out (empty when the export is complete).
	LeftOut []string
}

// Events returns the number of trace events written besides metadata.
func (s *Summary) Events() int64 { return s.Slices + s.Collectives + s.Endpoints }

// WriteFile writes the export to path, gzip-compressed when the name ends
// in ".gz". It creates or truncates the file and writes it in place: the
// caller makes the write atomic (repair writes into the temporary
// directory of its output.Plan, which Commit renames into place and Abort
// removes, partial file and all).
func WriteFile(ctx context.Context, path string, t *trace.Trace, g *replay.Graph, o *Options) (*Summary, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("perfetto: %w", err)
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	s, err := Write(ctx, w, t, g, o)
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("perfetto %s: %w", path, err)
	}
	return s, nil
}

// Write writes the trace t, whose happened-before relation is g
// (replay.Match of t), to w as trace-event JSON.
func Write(ctx context.Context, w io.Writer, t *trace.Trace, g *replay.Graph, o *Options) (*Summary, error) {
	var opt Options
	if o != nil {
		opt = *o
	}
	if t.Resolution == 0 {
		return nil, fmt.Errorf("perfetto: timer resolution 0")
	}
	if len(g.Deps) != len(t.Locations) {
		return nil, fmt.Errorf("perfetto: the happened-before relation has %d locations, the trace %d", len(g.Deps), len(t.Locations))
	}
	x := newExporter(t, g)
	s, err := x.plan(&opt)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	x.w = bw
	x.s = s
	x.header(&opt)
	x.ctx = ctx
	for l := range t.Locations {
		if !x.kept[l] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		x.location(l)
		if x.err != nil {
			return nil, x.err
		}
	}
	x.raw("\n]}\n")
	x.flush()
	if x.err != nil {
		return nil, x.err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	if x.unclosed > 0 {
		s.LeftOut = append(s.LeftOut, fmt.Sprintf("%d regions were not left by their location's last event (a cut trace): they end there", x.unclosed))
	}
	if x.unopened > 0 {
		s.LeftOut = append(s.LeftOut, fmt.Sprintf("%d region exits had no matching entry: left out", x.unopened))
	}
	if x.halfFlows > 0 {
		s.LeftOut = append(s.LeftOut, fmt.Sprintf("%d messages have one end outside the export: their arrows are left out", x.halfFlows))
	}
	return s, nil
}

// cancelEvery is how many events the exporter writes between two looks at
// its context: a few milliseconds of work.
const cancelEvery = 1 << 13

// exporter writes one trace.
type exporter struct {
	ctx     context.Context // stops the writing when cancelled
	t       *trace.Trace
	g       *replay.Graph
	kept    []bool
	base    []int64  // global index of each location's first event
	labels  []string // JSON-quoted location labels
	comms   []string // JSON-quoted communicator names
	regions []string // JSON-quoted region names
	cats    []string // category of each region
	t0      int64
	win     [2]int64
	w       *bufio.Writer
	buf     []byte
	first   bool
	s       *Summary
	err     error
	// per location scratch
	end                           []int32
	unclosed, unopened, halfFlows int64
}

func newExporter(t *trace.Trace, g *replay.Graph) *exporter {
	x := &exporter{t: t, g: g, labels: tracelabel.Locations(t), first: true}
	for i, s := range x.labels {
		x.labels[i] = quote(s)
	}
	for _, c := range t.Comms {
		x.comms = append(x.comms, quote(c.Name))
	}
	x.base = make([]int64, len(t.Locations)+1)
	first := true
	for l, loc := range t.Locations {
		x.base[l+1] = x.base[l] + int64(loc.Events.Len())
		if ts := loc.Events.Time; len(ts) > 0 && (first || ts[0] < x.t0) {
			x.t0, first = ts[0], false
		}
	}
	for _, r := range t.Regions {
		x.regions = append(x.regions, quote(r.Name))
		cat := `"user"`
		if strings.HasPrefix(r.Name, "MPI_") {
			cat = `"mpi"`
		}
		x.cats = append(x.cats, cat)
	}
	return x
}

// jsonSafe makes a string whose Go quoting is valid JSON: valid UTF-8 and
// no character Go would quote in a way JSON does not read (\a, \v, \x..).
func jsonSafe(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || !strconv.IsPrint(r) && r != ' ' {
			return ' '
		}
		return r
	}, s)
}

// isSlice says whether an event of kind k starts a slice: a region, a
// blocking collective, a non-blocking collective's start or end, a send or
// a receive.
func isSlice(k trace.Kind) bool {
	return k == trace.KindEnter || k == trace.KindCollBegin || k == trace.KindNBCollRequest || k == trace.KindNBCollComplete || k.HasMsg()
}

// plan chooses the locations and the window (the size guard).
func (x *exporter) plan(o *Options) (*Summary, error) {
	t := x.t
	n := len(t.Locations)
	s := &Summary{Locations: n, Start: x.t0}
	maxLoc := o.MaxLocations
	if maxLoc == 0 {
		maxLoc = DefaultMaxLocations
	}
	stride := 1
	if maxLoc > 0 && n > maxLoc {
		stride = (n + maxLoc - 1) / maxLoc
	}
	x.kept = make([]bool, n)
	last := x.t0
	for l, loc := range t.Locations {
		if ts := loc.Events.Time; len(ts) > 0 {
			last = max(last, ts[len(ts)-1])
		}
		if l%stride == 0 {
			x.kept[l] = true
			s.Kept++
		}
	}
	if stride > 1 {
		s.LeftOut = append(s.LeftOut, fmt.Sprintf("%d of %d locations kept (every %d%s, from location 0): a track per location is more than a viewer can show",
			s.Kept, n, stride, ordinal(stride)))
	}
	x.win = [2]int64{x.t0, last}
	res := float64(t.Resolution)
	if o.To > 0 {
		x.win[0] = x.t0 + int64(math.Round(o.From.Seconds()*res))
		x.win[1] = min(last, x.t0+int64(math.Round(o.To.Seconds()*res)))
		if x.win[0] > last {
			return nil, fmt.Errorf("perfetto: the window starts at %s, after the trace's last event at %s", o.From, secs(float64(last-x.t0)/res))
		}
	}
	maxEv := o.MaxEvents
	if maxEv == 0 {
		maxEv = DefaultMaxEvents
	}
	inWin := x.countIn(x.win[0], x.win[1])
	if maxEv > 0 && inWin > maxEv {
		var kept int64
		x.win[1], kept = x.windowEnd(maxEv)
		s.LeftOut = append(s.LeftOut, fmt.Sprintf("only %s to %s after the first event kept, of %s (%d of %d slices): more than the event budget of %d",
			secs(float64(x.win[0]-x.t0)/res), secs(float64(x.win[1]-x.t0)/res), secs(float64(last-x.t0)/res), kept, inWin, maxEv))
	} else if o.To > 0 {
		s.LeftOut = append(s.LeftOut, fmt.Sprintf("only %s to %s after the first event kept, as asked, of %s", secs(float64(x.win[0]-x.t0)/res), secs(float64(x.win[1]-x.t0)/res), secs(float64(last-x.t0)/res)))
	}
	s.Window = x.win
	return s, nil
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return "th"
	case n%10 == 1:
		return "st"
	case n%10 == 2:
		return "nd"
	case n%10 == 3:
		return "rd"
	}
	return "th"
}

// secs formats seconds to about four significant digits.
func secs(s float64) string {
	d := time.Duration(math.Round(s * 1e9))
	for _, r := range []time.Duration{time.Second, time.Millisecond, time.Microsecond} {
		if d >= r {
			return d.Round(r / 1000).String()
		}
	}
	return d.String()
}

// eachSlice calls f with the time of every slice-starting event of the
// kept locations in [a, b].
func (x *exporter) eachSlice(a, b int64, f func(t int64)) {
	for l, loc := range x.t.Locations {
		if !x.kept[l] {
			continue
		}
		ev := &loc.Events
		for i, k := range ev.Kind {
			if t := ev.Time[i]; t >= a && t <= b && isSlice(k) {
				f(t)
			}
		}
	}
}

// countIn counts the slices of the kept locations whose event is in
// [a, b].
func (x *exporter) countIn(a, b int64) int64 {
	var n int64
	x.eachSlice(a, b, func(int64) { n++ })
	return n
}

// windowEnd returns the latest end of a window from x.win[0] whose slices
// fit in budget: a histogram of slice times over 4096 bins of the window.
// It also returns the number of slices in [x.win[0], end] (countIn of the
// window it chose).
func (x *exporter) windowEnd(budget int64) (end, n int64) {
	const nb = 4096
	a, b := x.win[0], x.win[1]
	width := max((b-a)/nb+1, 1)
	h := make([]int64, nb+1)
	x.eachSlice(a, b, func(t int64) { h[(t-a)/width]++ })
	var sum int64
	for i, c := range h {
		if sum+c > budget {
			if i == 0 {
				// Not even the first bin fits: the window is [a, a],
				// whose slices are some of that bin's.
				return a, x.countIn(a, a)
			}
			// The window ends just before bin i: bins 0 to i-1 exactly.
			return a + int64(i)*width - 1, sum
		}
		sum += c
	}
	return b, sum
}

// ns converts a time to nanoseconds since the first event.
func (x *exporter) ns(t int64) int64 {
	d := uint64(t - x.t0)
	res := x.t.Resolution
	if res == 1_000_000_000 {
		return int64(d)
	}
	hi, lo := bits.Mul64(d, 1_000_000_000)
	if hi >= res {
		return int64(float64(d) / float64(res) * 1e9)
	}
	q, _ := bits.Div64(hi, lo, res)
	return int64(q)
}
