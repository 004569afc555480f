package repair

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/simscenario"
)

// scenario returns the clock study's scenario of that name.
func scenario(t *testing.T, name string) simscenario.Scenario {
	for _, sc := range simscenario.Clock {
		if sc.Name == name {
			return sc
		}
	}
	t.Fatalf("no scenario %q", name)
	return simscenario.Scenario{}
}

// The error bars' report says per clock domain what its bars rest on: the
// offset measurements counted per domain are the trace's own (every
// location of a simulated node measures at the same two epochs), the
// two-sided windows counted per domain sum to twice the estimate's (each
// window has two domains), and a domain without offset measurements is
// named, with why, in the text report.
func TestErrorBarsBasis(t *testing.T) {
	for _, name := range []string{"wander 10µs", "no offsets at all"} {
		t.Run(name, func(t *testing.T) {
			rec, _, err := simscenario.Generate(scenario(t, name), 1)
			require.NoError(t, err)
			res, err := Correct(context.Background(), TraceOf(rec), &Correction{ClockModel: ClockModelOptions{Method: clockmodel.MethodModel}})
			require.NoError(t, err)
			rep := res.Report
			require.NotNil(t, rep.ErrorBars)
			require.NotNil(t, rep.Method.Estimate)
			epochs := make([]int, res.Domains.Count())
			for li, l := range rec.Locations {
				d := res.Domains.Of[li]
				if d != res.Domains.Ref {
					epochs[d] = max(epochs[d], len(l.Offsets))
				}
			}
			windows := 0
			thin := 0
			for _, db := range rep.ErrorBars.Domains {
				windows += db.TwoSidedWindows
				assert.Equal(t, epochs[db.Domain], db.OffsetMeasurements, "domain %d", db.Domain)
				assert.GreaterOrEqual(t, db.DecidedByBounds, 0.0)
				assert.LessOrEqual(t, db.DecidedByBounds, 1.0)
				if db.Domain == res.Domains.Ref {
					assert.Equal(t, "reference", db.Basis)
					continue
				}
				if db.OffsetMeasurements == 0 {
					assert.Equal(t, "messages", db.Basis, "domain %d", db.Domain)
					assert.Contains(t, db.Note, "no offset measurement", "domain %d", db.Domain)
				} else {
					assert.Equal(t, "messages and offsets", db.Basis, "domain %d", db.Domain)
				}
				if db.Note != "" {
					thin++
				}
			}
			assert.Equal(t, 2*rep.Method.Estimate.TwoSided, windows)
			lines := rep.ThinBarsLines(3)
			assert.Len(t, lines, min(thin, 4))
			if name == "no offsets at all" {
				require.Positive(t, thin)
				assert.Contains(t, lines[0], "no offset measurement")
				var b strings.Builder
				rep.WriteText(&b)
				assert.Contains(t, b.String(), lines[0])
			}
		})
	}
}

// Where the clock model leaves the clocks, the error bars say that they
// are the posterior of an estimate it did not apply, in the report and in
// the text (which says why once, with the method); where it moves them,
// nothing is added.
func TestErrorBarsSayTheModelStayed(t *testing.T) {
	for _, c := range []struct {
		name   string
		stayed bool
	}{{"ring only (one direction)", true}, {"wander 10µs", false}} {
		t.Run(c.name, func(t *testing.T) {
			rec, _, err := simscenario.Generate(scenario(t, c.name), 1)
			require.NoError(t, err)
			res, err := Correct(context.Background(), TraceOf(rec), &Correction{ClockModel: ClockModelOptions{Method: clockmodel.MethodModel}})
			require.NoError(t, err)
			rep := res.Report
			require.NotNil(t, rep.ErrorBars)
			var b strings.Builder
			rep.WriteText(&b)
			if !c.stayed {
				require.Empty(t, rep.Method.Fallback, "the model moved the clocks (ran %q)", rep.Method.Ran)
				assert.Empty(t, rep.ErrorBars.Note)
				assert.NotContains(t, b.String(), "not as 95 % intervals")
				return
			}
			require.NotEmpty(t, rep.Method.Fallback, "the model left the clocks (ran %q)", rep.Method.Ran)
			assert.Equal(t, stayedNote, rep.ErrorBars.Note)
			assert.Contains(t, b.String(), rep.ErrorBars.Note)
			assert.Contains(t, b.String(), rep.Method.Fallback, "the text says why the model stayed")
		})
	}
}
