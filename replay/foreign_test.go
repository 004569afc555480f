package replay

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/trace"
)

// A collective by a location that is not a member of its communicator, or
// on a communicator without members, was dropped as internal without an
// issue, and --strict passed (issue 26).
func TestForeignCollectivesAreIssues(t *testing.T) {
	ar := trace.OpAllreduce
	tr := collTrace([][]trace.CollOp{{ar}, {ar}, {ar, ar}})
	tr.Comms[0].Members = []int32{0, 1} // location 2 is not a member
	tr.Comms = append(tr.Comms, trace.Comm{Name: "empty"})
	ev := &tr.Locations[0].Events
	ev.AppendCollBegin(100)
	ev.AppendColl(trace.KindCollEnd, 105, trace.Collective{Op: trace.OpBarrier, Comm: 1, Root: trace.NoRoot})
	require.NoError(t, tr.Validate())
	g, err := Match(tr, nil)
	require.NoError(t, err)
	require.Len(t, g.Instances, 1, "locations 0 and 1 still make their instance")
	assert.Equal(t, int64(3), g.Issues.Count[ForeignCollective])
	var details []string
	for _, e := range g.Issues.Examples {
		if e.Kind == ForeignCollective {
			details = append(details, e.String())
		}
	}
	assert.Contains(t, details[0], `location 0 posted it on communicator 1 ("empty"), which has no members`)
	assert.Contains(t, details[1], `location 2 is not a member of communicator 0 ("MPI_COMM_WORLD")`)
	assert.Equal(t, "collective outside its communicator", ForeignCollective.String())
}
