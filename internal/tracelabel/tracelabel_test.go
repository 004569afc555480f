package tracelabel

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clc-tools/clc/trace"
)

func TestLabels(t *testing.T) {
	tr := &trace.Trace{
		Nodes: []trace.Node{{Name: "n0"}, {}},
		Locations: []*trace.Location{
			{Name: "Master thread"}, {Name: "Master thread"}, {Name: "rank 0"}, {}, {},
		},
		// world lists locations 1, 0, 2 as ranks 0, 1, 2
		Comms: []trace.Comm{{Name: "MPI_COMM_SELF", Members: []int32{3}}, {Name: "MPI_COMM_WORLD", Members: []int32{1, 0, 2, 4}}},
	}
	assert.Equal(t, []string{"rank 1 (Master thread)", "rank 0 (Master thread)", "rank 2 (rank 0)", "location 3", "rank 3"}, Locations(tr))
	assert.Equal(t, []string{"n0", "node 1"}, Nodes(tr))
}
