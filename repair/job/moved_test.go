package job

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/htmlreport"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/repair"
)

// readerDiff compares the reference reader's view (otf2-print) of an input
// and of its correction event by event: how many events have another time,
// and the largest moves later and earlier, in ticks.
func readerDiff(t *testing.T, in, out string) (moved, later, earlier int64) {
	t.Helper()
	before := otf2Print(t, in)
	after := otf2Print(t, out)
	require.Equal(t, len(before), len(after), "locations")
	for loc, evs := range before {
		got := after[loc]
		require.Len(t, got, len(evs), "location %s", loc)
		for i, e := range evs {
			require.Equal(t, e.name, got[i].name, "location %s event %d", loc, i)
			if d := int64(got[i].time - e.time); d != 0 {
				moved++
				later = max(later, d)
				earlier = max(earlier, -d)
			}
		}
	}
	return moved, later, earlier
}

// The report's headline count of moved events is what an independent
// comparison of input and output finds: otf2-print of both. On Score-P's
// ping-pong archives (one node, so one clock domain, no violation) the
// locations that share the clock get one pre-synchronisation — location
// 0's, whose offsets are 0 — so nothing moves against anything else and
// the corrected times are the stored ones; rank 1's own offsets, which
// the reference reader interpolates (and extrapolates back over the whole
// run), differ from that by measurement noise, and the events where they
// do are counted as moved. The simulated trace (four nodes, violations)
// has moves by pre-synchronisation and by the correction on one event.
func TestMovedEventsAsAReaderSeesThem(t *testing.T) {
	needOTF2Print(t)
	sim := filepath.Join(t.TempDir(), "sim")
	require.NoError(t, otf.WriteTrace(context.Background(), sim, wanderingTrace(t), nil))
	for _, tc := range []struct {
		name, in  string
		oneDomain bool
	}{
		{"scorep-pingpong", "../../testdata/scorep-pingpong/traces.otf2", true},
		{"scorep-pingpong-papi", "../../testdata/otf2/scorep-pingpong-papi/traces.otf2", true},
		{"simulated", filepath.Join(sim, "traces.otf2"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			html := filepath.Join(t.TempDir(), "r.html")
			rep, err := Run(context.Background(), tc.in, Options{Output: out, HTML: html})
			require.NoError(t, err)
			page, err := os.ReadFile(html)
			require.NoError(t, err)
			assert.Contains(t, string(page), fmt.Sprintf("pre-synchronisation (%s) moved %s events against the times an OTF2 reader shows for the input",
				rep.Presync.Method, htmlreport.Count(rep.Presync.Reader.Events)), "the page says what pre-synchronisation moved")
			moved, later, earlier := readerDiff(t, tc.in, filepath.Join(out, "traces.otf2"))
			res := float64(rep.Resolution)
			m := rep.MovedFromInput
			assert.Equal(t, moved, m.Events, "events moved: report against otf2-print of input and output")
			assert.Equal(t, later, int64(math.Round(m.MaxLater*res)), "largest move later, ticks")
			assert.Equal(t, earlier, int64(math.Round(m.MaxEarlier*res)), "largest move earlier, ticks")
			assert.Contains(t, rep.MovedLine(), "events moved: ", "headline")
			if moved > 0 {
				assert.NotContains(t, rep.MovedLine(), "none", "headline with %d events moved", moved)
			}
			if !tc.oneDomain {
				assert.Positive(t, rep.Moved.Events, "the simulated trace's correction moves events")
				assert.Positive(t, rep.Presync.Reader.Events, "the simulated trace's pre-synchronisation pools nodes")
				return
			}
			assert.Contains(t, string(page), "1 clock domain, ", "the page: one clock domain, in the singular")
			require.Zero(t, rep.Before.Violations)
			assert.Zero(t, rep.Moved.Events, "nothing to correct after pre-synchronisation")
			assert.Equal(t, moved, rep.Presync.Reader.Events, "pre-synchronisation moved what moved")
			assert.Positive(t, moved, "rank 1's own offsets are not 0")
			// One clock, one correction, and location 0's is 0: the
			// output holds the stored times (as our reader reads them
			// without offsets).
			raw := readStored(t, tc.in)
			got := readStored(t, filepath.Join(out, "traces.otf2"))
			require.Len(t, got, len(raw))
			for li := range raw {
				assert.Equal(t, raw[li], got[li], "location %d: corrected times are the stored ones", li)
			}
		})
	}
}

// readStored returns every location's event times as stored in an archive,
// with no clock offsets applied.
func readStored(t *testing.T, anchor string) [][]int64 {
	t.Helper()
	a, err := otf.Open(anchor)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err, "read %s", anchor)
	out := make([][]int64, len(tr.Locations))
	for i, l := range tr.Locations {
		out[i] = l.Events.Time
	}
	return out
}

// The HTML page's summary carries the error bars' note where the clock
// model left the clocks, marked as a warning; without one, nothing is
// added.
func TestHTMLSummarySaysTheModelStayed(t *testing.T) {
	r := &repair.Report{ErrorBars: &repair.ErrorBarsReport{Confidence: 0.95, Events: 10, P95: 1e-6, Median: 5e-7, Max: 2e-6}}
	fact := func() (string, bool) {
		for _, f := range htmlSummary(r) {
			if strings.HasPrefix(f.Label, "error bars") {
				return f.Note, f.Bad
			}
		}
		t.Fatal("no error bars in the summary")
		return "", false
	}
	note, bad := fact()
	assert.False(t, bad)
	assert.NotContains(t, note, "did not apply")
	r.ErrorBars.Note = "the clock model left the clocks where pre-synchronisation put them (why): these bars are the posterior of the estimate it did not apply"
	note, bad = fact()
	assert.True(t, bad)
	assert.Contains(t, note, r.ErrorBars.Note)
}
