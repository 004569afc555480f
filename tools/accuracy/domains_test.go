package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/internal/simscenario"
	"github.com/clc-tools/clc/repair"
	"github.com/stretchr/testify/require"
)

// writeDomains measured against a truth that is the corrected times
// themselves finds every domain's corrected error 0 and covered, and one
// line per domain; against the simulator's truth, the same lines with
// errors.
func TestWriteDomains(t *testing.T) {
	rec, truth, err := simscenario.Generate(simscenario.Clock[1], 1)
	require.NoError(t, err)
	in := repair.TraceOf(rec)
	res, err := repair.Correct(context.Background(), in, &repair.Correction{
		ClockModel: repair.ClockModelOptions{Method: clockmodel.MethodModel}, KeepPresync: true})
	require.NoError(t, err)
	require.True(t, res.Model.HasErrorBars())
	same := make([][]int64, len(in.Times))
	for i, ts := range in.Times {
		same[i] = slices.Clone(ts)
	}
	var b bytes.Buffer
	writeDomains(&b, "self", in.Times, same, res)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, 1+res.Domains.Count(), b.String())
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		require.Equal(t, "100.0", f[3], l)
		require.Equal(t, "0.0", f[5], l)
		require.Equal(t, "0.0", f[7], l)
	}
	tt := make([][]int64, len(truth.Locations))
	for i, l := range truth.Locations {
		tt[i] = l.Events.Time
	}
	b.Reset()
	writeDomains(&b, "truth", in.Times, tt, res)
	require.NotContains(t, strings.Join(strings.Split(b.String(), "\n")[2:], "\n"), "100.0 %      0.0 ±    0.0",
		"a domain other than the reference matches the simulator's truth exactly")
}
