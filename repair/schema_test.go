package repair

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/sim"
)

// reportTypes calls f with every struct type the JSON report holds,
// Report's own included, once each.
func reportTypes(f func(reflect.Type)) {
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			walk(t.Elem())
			return
		case reflect.Struct:
		default:
			return
		}
		if seen[t] {
			return
		}
		seen[t] = true
		f(t)
		for i := range t.NumField() {
			if sf := t.Field(i); sf.IsExported() {
				walk(sf.Type)
			}
		}
	}
	walk(reflect.TypeOf(Report{}))
}

// jsonName returns the JSON name of a struct field, "" for an embedded
// struct without one (its fields are the parent's).
func jsonName(sf reflect.StructField) string {
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	return name
}

// The report's JSON schema is package repair's: every type it holds is
// repair's (none of an algorithm's results, which carry times, models and
// caches), and every exported field has its JSON name.
func TestReportOwnsItsSchema(t *testing.T) {
	pkg := reflect.TypeOf(Report{}).PkgPath()
	n := 0
	reportTypes(func(rt reflect.Type) {
		n++
		assert.Equal(t, pkg, rt.PkgPath(), "the report holds %s", rt)
		for i := range rt.NumField() {
			sf := rt.Field(i)
			if sf.IsExported() && !sf.Anonymous {
				assert.NotEmpty(t, jsonName(sf), "%s.%s has no JSON name", rt.Name(), sf.Name)
			}
		}
	})
	assert.Greater(t, n, 20, "the walk found the report's types")
}

// Every JSON name of the report is in docs/report.md, in a field's
// backquoted name (`method.guard`, `…violations`, `share_of_time_above[k]`).
func TestReportFieldsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/report.md")
	require.NoError(t, err)
	var names []string
	for _, m := range regexp.MustCompile("`[^`]+`").FindAllString(string(doc), -1) {
		names = append(names, regexp.MustCompile(`[a-z0-9_]+`).FindAllString(m, -1)...)
	}
	documented := map[string]bool{}
	for _, s := range names {
		documented[s] = true
	}
	reportTypes(func(rt reflect.Type) {
		for i := range rt.NumField() {
			if name := jsonName(rt.Field(i)); name != "" && name != "-" {
				assert.True(t, documented[name], "%s.%s (%q) is not in docs/report.md", rt.Name(), rt.Field(i).Name, name)
			}
		}
	})
}

// fill sets every exported field of the struct v points to a value of its
// own (numbers 1, 2, 3, … in field order, strings and bools to match, a
// slice to one element), so that a conversion that drops or mixes up a
// field shows.
func fill(t *testing.T, v any) {
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		f, k := rv.Field(i), float64(i+1)
		if !rv.Type().Field(i).IsExported() {
			continue
		}
		switch f.Kind() {
		case reflect.Int, reflect.Int32, reflect.Int64:
			f.SetInt(int64(k))
		case reflect.Float64:
			f.SetFloat(k + 0.5)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString(strings.Repeat("s", i+1))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
			f.Index(0).SetInt(int64(k))
		case reflect.Array:
			for j := range f.Len() {
				if f.Index(j).Kind() == reflect.Float64 {
					f.Index(j).SetFloat(k + float64(j)/10)
				} else {
					f.Index(j).SetInt(int64(k)*10 + int64(j))
				}
			}
		default:
			require.FailNow(t, "fill: a field of a kind it cannot fill", "field %s of kind %s", rv.Type().Field(i).Name, f.Kind())
		}
	}
}

// sameFields checks that report has every exported field of from, under
// the same name, with the same value.
func sameFields(t *testing.T, from, report any) {
	fv, rv := reflect.ValueOf(from), reflect.ValueOf(report)
	for i := range fv.NumField() {
		sf := fv.Type().Field(i)
		if !sf.IsExported() {
			continue
		}
		got := rv.FieldByName(sf.Name)
		if assert.True(t, got.IsValid(), "%s has no field %s of %s", rv.Type(), sf.Name, fv.Type()) {
			assert.Equal(t, fv.Field(i).Interface(), got.Interface(), "%s.%s", rv.Type(), sf.Name)
		}
	}
}

// The conversions from the algorithms' results copy every field.
func TestReportConversions(t *testing.T) {
	var r clockmodel.Result
	r.Requested, r.Ran, r.Fallback = "model", "bounds + clc", "why"
	r.Estimate, r.Guard, r.Project = &clockmodel.EstimateStats{}, &clockmodel.Guard{}, &clockmodel.ProjectStats{}
	fill(t, r.Estimate)
	fill(t, r.Guard)
	fill(t, r.Project)
	fill(t, &r.Latency.Intra)
	fill(t, &r.Latency.Inter)
	r.Latency.Inter.Ticks = 99
	fill(t, &r.Timing)
	r.Estimate.Stay = false // the held-out test's own words: TestFallbackText
	dom := &clockmodel.Domains{Of: []int32{0, 1, 1, 2, 2, 2}, Size: []int32{1, 2, 3}, Ref: 0, Basis: "node"}
	m := methodReport(&r, dom)
	assert.Equal(t, [3]string{"model", "bounds + clc", "why"}, [3]string{m.Requested, m.Ran, m.Fallback})
	sameFields(t, *r.Estimate, *m.Estimate)
	sameFields(t, *r.Guard, *m.Guard)
	sameFields(t, *r.Project, *m.Project)
	sameFields(t, r.Latency.Intra, m.Latency.Intra)
	sameFields(t, r.Latency.Inter, m.Latency.Inter)
	sameFields(t, r.Timing, m.Timing)
	assert.Equal(t, DomainsReport{Count: 3, Basis: "node", MinSize: 1, MaxSize: 3, Reference: 0}, m.Domains)
	assert.Equal(t, r.Project.Converged(), m.Project.Converged())
	r.Estimate.Iterations[0] = -1
	assert.NotEqual(t, -1, m.Estimate.Iterations[0], "the report keeps its own copy")

	var fid [2]measure.Fidelity
	fill(t, &fid[0])
	fill(t, &fid[1])
	fid[1].Intervals = 1000
	f := fidelityReport(fid)
	sameFields(t, fid[0], f.Position)
	sameFields(t, fid[1], f.Distance)

	var a measure.Accuracy
	fill(t, &a)
	sameFields(t, a, truthErrorReport(a))
}

// LatencyReport.String names where μ came from and what the trace showed.
func TestLatencyReportString(t *testing.T) {
	l := LatencyReport{Ticks: 700, Source: clockmodel.SourceSameClock, Default: 1000, SameClock: 700, SameClockMessages: 5, RoundTrip: -1, Anchored: -1}
	assert.Equal(t, "700ns (same-clock messages, default 1µs; smallest of 5 same-clock messages 700ns)", l.String(1e9))
	l = LatencyReport{Ticks: 300, Source: clockmodel.SourceFlag, Default: 300, SameClock: -1, RoundTrip: 250, Anchored: -1}
	assert.Equal(t, "300ns (flag; round trips across clocks show 250ns each way)", l.String(1e9))
	l = LatencyReport{Ticks: 550, Source: clockmodel.SourceAnchored, Default: 1000, SameClock: -1, RoundTrip: 2000, Anchored: 550}
	assert.Equal(t, "550ns (one-way messages at offset measurements, default 1µs; round trips across clocks show 2µs each way; one-way messages where offset measurements pin the clocks show 550ns)", l.String(1e9))
}

// A trace too short to show the clocks' wander (one step of pair
// exchanges between 8 nodes: no group of windows has eight) gets a report
// that can be written as JSON: no +Inf in it (the wander's scale is 0).
func TestReportJSONWithoutWanderEvidence(t *testing.T) {
	c := sim.DefaultConfig()
	c.Ranks, c.RanksPerNode, c.Steps, c.Seed = 8, 1, 1, 3
	c.Compute, c.ClockWander = 2*time.Millisecond, 10*time.Microsecond
	c.Patterns = []string{"pairs"}
	rec, _, err := sim.Generate(c)
	require.NoError(t, err)
	res, err := Correct(context.Background(), TraceOf(rec), &Correction{Parallel: 2})
	require.NoError(t, err)
	m := res.Report.Method
	require.NotNil(t, m)
	require.NotNil(t, m.Estimate, "the clock model estimated (ran %s: %s)", m.Ran, m.Fallback)
	var b bytes.Buffer
	require.NoError(t, res.Report.WriteJSON(&b))
	var got struct {
		Method struct {
			Estimate map[string]any `json:"estimate"`
		} `json:"method"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &got))
	assert.Equal(t, 0.0, got.Method.Estimate["wander_prior_ticks"])
}
