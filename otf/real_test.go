package otf

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/trace"
)

const realTrace = "../testdata/scorep-pingpong"

func TestReadScorePPingPong(t *testing.T) {
	a, err := Open(realTrace)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	require.NoError(t, tr.Validate())
	assert.Equal(t, uint64(2095197216), tr.Resolution)
	require.Len(t, tr.Locations, 2)
	require.Len(t, tr.Nodes, 1)
	assert.Equal(t, "quartz10", tr.Nodes[0].Name)
	for li, l := range tr.Locations {
		assert.Equal(t, uint64(li), l.ID)
		assert.Equal(t, 60, l.Events.Len())
		require.Len(t, l.Offsets, 2)
		var sends, recvs int
		for i, k := range l.Events.Kind {
			switch k {
			case trace.KindSend:
				sends++
				m := l.Events.Msg(i)
				assert.Equal(t, "MPI_COMM_WORLD", tr.Comms[m.Comm].Name)
				assert.Equal(t, uint32(1-li), m.Peer)
			case trace.KindRecv:
				recvs++
			}
		}
		assert.Equal(t, 8, sends)
		assert.Equal(t, 8, recvs)
		assert.Equal(t, trace.KindOther, l.Events.Kind[0]) // ProgramBegin
		assert.Equal(t, uint32(83), l.Events.Opaque[0].Type)
		require.Len(t, l.Events.Attach, 1) // ProcessId
		assert.Equal(t, "int main(int, char**)", tr.Regions[l.Events.Ref[1]].Name)
	}
	// Rank 1's ClockOffsets as otf2-print --show-local-defs... hand-read from 1.def.
	assert.Equal(t, int64(-30), tr.Locations[1].Offsets[0].Offset)
	assert.Equal(t, int64(-19), tr.Locations[1].Offsets[1].Offset)
	assert.Equal(t, []int32{0, 1}, tr.Comms[1].Members)
}

// The real traces, pre-synchronised (offsets folded in) and rewritten
// without correction, print exactly as the originals do with the reference
// reader applying the offsets.
func TestRewriteScorePPresynced(t *testing.T) {
	for _, dir := range []string{realTrace, realTracePAPI} {
		t.Run(filepath.Base(dir), func(t *testing.T) { rewritePresynced(t, dir) })
	}
}

const realTracePAPI = "../testdata/otf2/scorep-pingpong-papi"

func rewritePresynced(t *testing.T, realTrace string) {
	a, err := Open(realTrace)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	_, err = presync.Apply(tr, nil)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, a.Rewrite(out, tr, nil))

	want := eventLines(otf2Print(t, filepath.Join(realTrace, "traces.otf2")))
	got := eventLines(otf2Print(t, filepath.Join(out, "traces.otf2")))
	require.Greater(t, len(want), 100)
	assert.Equal(t, want, got)
	checkOTF2(t, filepath.Join(out, "traces.otf2"))

	// No ClockOffsets are left, and reading our output gives the times.
	b, err := Open(out)
	require.NoError(t, err)
	tr2, err := b.Read(context.Background(), nil)
	require.NoError(t, err)
	for li := range tr.Locations {
		assert.Empty(t, tr2.Locations[li].Offsets)
		assert.Equal(t, tr.Locations[li].Events.Time, tr2.Locations[li].Events.Time)
	}
}

// An archive with another name (foo.otf2, foo.def, foo/) is found through
// its directory, and the output always follows the contract: traces.otf2,
// traces.def, traces/.
func TestRewriteOtherArchiveName(t *testing.T) {
	src := copyArchive(t)
	for _, p := range [][2]string{{"traces.otf2", "foo.otf2"}, {"traces.def", "foo.def"}, {"traces", "foo"}} {
		require.NoError(t, os.Rename(filepath.Join(src, p[0]), filepath.Join(src, p[1])))
	}
	a, err := Open(src)
	require.NoError(t, err)
	assert.Equal(t, "foo", a.Name())
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, a.Rewrite(out, tr, &WriteOptions{KeepClockOffsets: true}))
	for _, f := range []string{"traces.otf2", "traces.def", "traces/0.evt", "traces/1.def"} {
		_, err := os.Stat(filepath.Join(out, f))
		require.NoError(t, err, f)
	}
	// With the offsets kept and the raw times, the reference reader shows
	// what it showed for the original.
	assert.Equal(t, eventLines(otf2Print(t, filepath.Join(realTrace, "traces.otf2"))),
		eventLines(otf2Print(t, filepath.Join(out, "traces.otf2"))))
}
