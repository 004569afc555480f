package repair

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

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
	if !reflect.DeepEqual(got, want) {
		t.Errorf("regionsReport = %+v, want %+v", got, want)
	}
	var b bytes.Buffer
	(&Report{Regions: got}).WriteText(&b)
	if !strings.Contains(b.String(), "regions: 2 MPI, user regions: 3 (io, kernel, solve)") {
		t.Errorf("the text report does not name the user regions:\n%s", b.String())
	}
}
