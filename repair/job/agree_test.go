package job

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The text report and the HTML page state the same figures: events and
// locations, violations before and after, everything the correction moved
// (the clock model's and the CLC's moves together), the error bars and
// the distance to the truth, on a simulated run whose clock model moves
// the clocks.
func TestTextAndHTMLAgree(t *testing.T) {
	dir, _ := simDir(t, scenarios(true)[0].cfg)
	page := filepath.Join(t.TempDir(), "r.html")
	rep, err := Run(context.Background(), dir, Options{Check: true, HTML: page})
	require.NoError(t, err)
	require.NotNil(t, rep.ErrorBars, "the clock model ran")
	require.Positive(t, rep.Moved.Events)
	var text bytes.Buffer
	rep.WriteText(&text)
	b, err := os.ReadFile(page)
	require.NoError(t, err)
	html := string(b)

	// fact returns the value and note of the page's summary fact label.
	fact := func(label string) string {
		i := strings.Index(html, ">"+label+"<")
		require.GreaterOrEqual(t, i, 0, "the page has no fact %q", label)
		end := strings.Index(html[i:], "</div></div>")
		require.Positive(t, end)
		return html[i : i+end]
	}
	ints := func(s string) []int64 {
		var out []int64
		for _, m := range regexp.MustCompile(`\d[\d,]*`).FindAllString(s, -1) {
			v, err := strconv.ParseInt(strings.ReplaceAll(m, ",", ""), 10, 64)
			require.NoError(t, err)
			out = append(out, v)
		}
		return out
	}
	line := func(prefix string) string {
		for _, l := range strings.Split(text.String(), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), prefix) {
				return l
			}
		}
		require.FailNow(t, "a line is missing", "the text report has no line %q:\n%s", prefix, text.String())
		return ""
	}
	// Times: the text's Go durations and the page's three digits agree
	// to the page's rounding.
	durations := func(s string) []float64 {
		var out []float64
		for _, m := range regexp.MustCompile(`([\d.]+) ?(ns|µs|ms|s)\b`).FindAllStringSubmatch(s, -1) {
			d, err := time.ParseDuration(m[1] + m[2])
			require.NoError(t, err)
			out = append(out, d.Seconds())
		}
		return out
	}
	near := func(a, b float64) bool { return a == b || (a-b)/b < 0.006 && (b-a)/b < 0.006 }

	require.Equal(t, []int64{int64(rep.Locations), rep.Events}, ints(fact("locations / events"))[:2])
	require.Equal(t, rep.Before.Violations, ints(fact("violations before"))[0])
	require.Equal(t, rep.After.Violations, ints(fact("violations after"))[0])

	moved := ints(line("events moved:"))
	require.Equal(t, rep.MovedFromInput.Events, moved[0], "text: events moved")
	require.Equal(t, rep.MovedFromInput.Events, ints(fact("events moved"))[0], "page: events moved")
	tm, hm := durations(line("events moved:")), durations(fact("events moved"))
	require.Len(t, tm, 3)
	require.Len(t, hm, 2)
	require.True(t, near(hm[0], tm[0]) && near(hm[1], tm[1]), "later/earlier: text %v, page %v", tm, hm)

	tb, hb := durations(line("error bars")), durations(fact("error bars (95 % confidence)"))
	require.Len(t, tb, 3)
	require.Len(t, hb, 3)
	for i := range tb {
		require.True(t, near(hb[i], tb[i]), "error bar %d: text %v, page %v", i, tb, hb)
	}
	ta := line("accuracy vs truth")
	require.Contains(t, fact("mean |error| vs truth"), strings.TrimSpace(regexp.MustCompile(`[\d.]+% of events within`).FindString(ta)))
}

// One recording, native or OTF2, gets the same correction: the OTF2 archive
// carries the nodes (its system tree) and the declaration that every node
// has one clock (the anchor property CLC::CLOCK_DOMAIN), so the clock
// domains, the pre-synchronisation and the model are the same, and every
// corrected time is.
func TestSameCorrectionNativeOrOTF2(t *testing.T) {
	cfg := scenarios(true)[0].cfg
	cfg.Ranks, cfg.RanksPerNode = 8, 2
	var times [2][][]int64
	var reps [2]*repair.Report
	for i, f := range []Format{FormatNative, FormatOTF2} {
		in, _ := hybridSimDir(t, cfg, f)
		out := filepath.Join(t.TempDir(), "out")
		rep, err := Run(context.Background(), in, Options{Output: out, Format: FormatNative})
		require.NoError(t, err)
		reps[i] = rep
		got := readAny(t, out)
		for _, l := range got.Locations {
			times[i] = append(times[i], l.Events.Time)
		}
	}
	for li := range times[0] {
		for j := range times[0][li] {
			if times[0][li][j] != times[1][li][j] {
				t.Logf("first difference: location %d event %d: %d vs %d (of %d)", li, j, times[0][li][j], times[1][li][j], len(times[0][li]))
				break
			}
		}
	}
	t.Logf("native: %s %+v; otf2: %s %+v", reps[0].Method.Ran, *reps[0].Method.Estimate, reps[1].Method.Ran, *reps[1].Method.Estimate)
	require.Equal(t, reps[0].Presync.Method, reps[1].Presync.Method)
	require.Equal(t, reps[0].Method.Domains, reps[1].Method.Domains)
	require.Equal(t, reps[0].Method.Ran, reps[1].Method.Ran)
	for li := range times[0] {
		require.Equal(t, len(times[0][li]), len(times[1][li]))
		for j := range times[0][li] {
			require.Equal(t, times[0][li][j], times[1][li][j], "location %d event %d", li, j)
		}
	}
}

// The same trace written as a native directory and as an OTF2 archive is
// the same trace.Source: what each declares bounds what it reads, its
// files exist, a selective read keeps every event's time, and both
// formats read the same events at the same times.
func TestSourcesAgree(t *testing.T) {
	cfg := scenarios(true)[0].cfg
	cfg.Ranks, cfg.RanksPerNode = 4, 2
	rec, _, err := sim.Generate(cfg)
	require.NoError(t, err)
	base := t.TempDir()
	nat, arc := filepath.Join(base, "native"), filepath.Join(base, "otf2")
	require.NoError(t, native.WriteDir(context.Background(), nat, rec, nil))
	require.NoError(t, otf.WriteTrace(context.Background(), arc, rec, nil))
	var read [2]*trace.Trace
	for i, dir := range []string{nat, arc} {
		in, err := Open(dir)
		require.NoError(t, err)
		t.Cleanup(func() { assert.NoError(t, in.Close()) })
		src := in.src
		for _, name := range src.Files() {
			assert.FileExists(t, filepath.Join(in.Dir, filepath.FromSlash(name)), "%s", in.Format)
		}
		d, err := src.Declared()
		require.NoError(t, err)
		tr, err := src.Read(context.Background(), &trace.ReadOptions{Parallel: 2})
		require.NoError(t, err)
		require.Len(t, tr.Locations, d.Locations, "%s: declared locations", in.Format)
		var n int64
		for _, l := range tr.Locations {
			n += int64(l.Events.Len())
		}
		assert.LessOrEqual(t, n, d.Events, "%s: events read within the declared bound", in.Format)
		// A source is read once: the selective read opens the input again.
		again, err := Open(dir)
		require.NoError(t, err)
		t.Cleanup(func() { assert.NoError(t, again.Close()) })
		_, times, err := again.src.ReadSelected(context.Background(), nil, replay.Needs)
		require.NoError(t, err)
		for li, l := range tr.Locations {
			assert.True(t, slices.Equal(l.Events.Time, times[li]), "%s: location %d's times differ read whole and selectively", in.Format, li)
		}
		read[i] = tr
	}
	require.Len(t, read[1].Locations, len(read[0].Locations))
	for li, l := range read[0].Locations {
		o := read[1].Locations[li]
		require.Equal(t, l.Events.Len(), o.Events.Len(), "location %d's events, native against OTF2", li)
		assert.True(t, slices.Equal(l.Events.Time, o.Events.Time), "location %d's times differ, native against OTF2", li)
		assert.True(t, slices.Equal(l.Events.Kind, o.Events.Kind), "location %d's kinds differ, native against OTF2", li)
	}
}
