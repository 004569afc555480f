package repair

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clc-tools/clc/trace"
)

// TestRegionsReport: regions count once per name, by paradigm, or by name
// when the trace does not say; placeholders and other paradigms do not
// count; the text report names the user regions.
func TestRegionsReport(t *testing.T) {
	tr := &trace.Trace{Regions: []trace.Region{
		{Name: "MPI_Init"}, {Name: "MPI_Send", Paradigm: trace.ParadigmMPI}, {Name: "solve"}, {Name: "solve"},
		{Name: ""}, {Name: "io", Paradigm: trace.ParadigmUser}, {Name: "kernel", Paradigm: paradigmCompiler},
		{Name: "!$omp parallel", Paradigm: trace.ParadigmOpenMP}, {Name: "MPI_Init"},
	}}
	got := regionsReport(tr)
	want := RegionsReport{MPI: 2, User: 3, UserNames: []string{"io", "kernel", "solve"}}
	assert.Equal(t, want, got, "regionsReport")
	var b bytes.Buffer
	(&Report{Regions: got}).WriteText(&b)
	assert.Contains(t, b.String(), "regions: 2 MPI, user regions: 3 (io, kernel, solve)", "the text report names the user regions")
}
