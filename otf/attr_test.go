package otf

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAttributeDefsFromProperty: the Attribute definitions given in the
// property clc.otf2-attributes reach the archive, so the reference reader
// names the attributes attached to events.
func TestAttributeDefsFromProperty(t *testing.T) {
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "MPI_Test"}},
		Locations:  []*trace.Location{{ID: 0, Name: "rank 0"}},
		Properties: map[string]string{PropAttributes: "0 uint64 clc::calls Calls in the run\n1 uint64 clc::bytes Bytes moved"}}
	ev := &tr.Locations[0].Events
	ev.AppendRegion(trace.KindEnter, 10, 0)
	ev.AppendRegion(trace.KindLeave, 20, 0)
	ev.AttachLast(trace.FormatOTF2, []byte{1, 1, 0, 4, 2, 0xe8, 0x03}) // clc::calls = 1000
	dir := filepath.Join(t.TempDir(), "a")
	require.NoError(t, WriteTrace(context.Background(), dir, tr, nil))
	out := otf2Print(t, filepath.Join(dir, "traces.otf2"))
	assert.Contains(t, out, "clc::calls", "otf2-print shows the attribute clc::calls = 1000")
	assert.Contains(t, out, "1000", "otf2-print shows the attribute clc::calls = 1000")
	tr.Properties[PropAttributes] = "0 complex x"
	err := WriteTrace(context.Background(), filepath.Join(t.TempDir(), "b"), tr, nil)
	assert.ErrorContains(t, err, "unknown attribute type", "a bad definition")
}
