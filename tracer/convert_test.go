package tracer

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/sim"
	"github.com/clc-tools/clc/trace"
)

// ConvertToOTF2 streams a native trace into an archive: of a run cut short
// (a manifest with complete false, a stream cut mid-block), every event
// that can be read is there with its time, as the reference reader and our
// OTF2 reader see it, and the archive says the run was incomplete and which
// location was cut.
func TestConvertToOTF2StreamsACutTrace(t *testing.T) {
	c := sim.DefaultConfig()
	c.Ranks, c.Events = 8, 60000
	rec, _, err := sim.Generate(c)
	require.NoError(t, err)
	src := filepath.Join(t.TempDir(), "src")
	require.NoError(t, native.WriteDir(context.Background(), src, rec, nil))
	man := filepath.Join(src, native.ManifestName)
	b, err := os.ReadFile(man)
	require.NoError(t, err)
	cut := bytes.Replace(b, []byte(`"complete":true`), []byte(`"complete":false`), 1)
	require.NotEqual(t, b, cut, "the manifest must say complete")
	require.NoError(t, os.WriteFile(man, cut, 0o644))
	stream := filepath.Join(src, native.EventsDirName, "3"+native.StreamExt)
	st, err := os.Stat(stream)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(stream, st.Size()/2))
	want, err := native.ReadDir(src, nil)
	require.NoError(t, err)
	require.Less(t, want.Locations[3].Events.Len(), rec.Locations[3].Events.Len(), "location 3 must be cut")

	dir := t.TempDir()
	n, err := ConvertToOTF2(src, dir)
	require.NoError(t, err)
	assert.Equal(t, want.NumEvents(), n)
	a, err := otf.Open(filepath.Join(dir, "traces.otf2"))
	require.NoError(t, err)
	got, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, got.Locations, len(want.Locations))
	for li, l := range want.Locations {
		assert.Equal(t, l.Events.Time, got.Locations[li].Events.Time, "location %d", li)
	}
	assert.Equal(t, "true", got.Properties[trace.PropIncomplete])
	assert.Equal(t, "3", got.Properties[trace.PropTruncated])

	anchor := filepath.Join(dir, "traces.otf2")
	op, events := otf2PrintEvents(t, anchor)
	assert.EqualValues(t, n, events, "events otf2-print shows")
	out, err := exec.Command(op, "-A", anchor).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "CLC::INCOMPLETE")
	assert.Contains(t, string(out), "CLC::TRUNCATED")
}

// TestConvertUnifiesUserRegions: a user region each rank defined for
// itself (rank r's k-th region is a position of its own) is one region in
// the archive, and every enter and leave refers to it.
func TestConvertUnifiesUserRegions(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	regions := []trace.Region{{Name: "MPI_Init"}, {Name: "solve"}, {Name: "solve"}, {Name: "io"}, {Name: ""}, {Name: "io"}}
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n"}}, Regions: regions,
		Comms: []trace.Comm{{Name: "w", Members: []int32{0, 1}}}, Locations: []*trace.Location{{ID: 0, Name: "rank 0"}, {ID: 1, Name: "rank 1"}}}
	for r, own := range [][2]uint32{{1, 3}, {2, 5}} { // rank 0's solve and io, rank 1's
		ev := &tr.Locations[r].Events
		ev.AppendRegion(trace.KindEnter, 10, own[0])
		ev.AppendRegion(trace.KindEnter, 20, own[1])
		ev.AppendRegion(trace.KindLeave, 30, own[1])
		ev.AppendRegion(trace.KindLeave, 40, own[0])
	}
	require.NoError(t, native.WriteDir(context.Background(), src, tr, nil))
	dir := t.TempDir()
	_, err := ConvertToOTF2(src, dir)
	require.NoError(t, err)
	a, err := otf.Open(filepath.Join(dir, "traces.otf2"))
	require.NoError(t, err)
	got, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	var names []string
	for _, r := range got.Regions {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"MPI_Init", "solve", "io", ""}, names)
	for r, l := range got.Locations {
		var seq []string
		for i := 0; i < l.Events.Len(); i++ {
			seq = append(seq, got.Regions[l.Events.Ref[i]].Name)
		}
		assert.Equal(t, []string{"solve", "io", "io", "solve"}, seq, "rank %d", r)
	}
}

// FinishOTF2 resumes a finish that a launcher killed half-way: after the
// whole archive was placed (the truth and the native trace left, whole or
// not), it only moves the truth and removes the native trace; after the archive's
// other parts but before its anchor, it writes the archive again. Either
// way the archive holds every event and the truth is beside it. The native
// trace is renamed before it is removed (a kill during the removal leaves
// no native trace without its metadata, which --convert could not read),
// and a leftover of such a removal goes too. A truth already moved beside
// the whole archive stays, whatever truth the native trace holds by then
// (one another finisher made empty: seen in CI, every rank's truth with
// no events).
func TestFinishOTF2Resumes(t *testing.T) {
	c := sim.DefaultConfig()
	c.Ranks, c.Events = 4, 20000
	rec, truth, err := sim.Generate(c)
	require.NoError(t, err)
	for _, stage := range []string{"archive placed", "anchor missing", "archive placed, native trace cut", "truth moved, an empty one left"} {
		t.Run(stage, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, NativeSubdir)
			require.NoError(t, native.WriteDir(context.Background(), src, rec, nil))
			require.NoError(t, native.WriteDir(context.Background(), filepath.Join(src, "truth"), truth, nil))
			_, err := ConvertToOTF2(src, dir)
			require.NoError(t, err)
			if stage == "anchor missing" {
				require.NoError(t, os.Remove(filepath.Join(dir, otf.AnchorName)))
			}
			if stage == "archive placed, native trace cut" {
				// What a dying rank's last write or a removal cut short
				// leaves: no manifest, no tracer metadata (seen in CI:
				// Open MPI, SIGHUP and MPI_Abort, per rank).
				require.NoError(t, os.Remove(filepath.Join(src, native.ManifestName)))
			}
			if stage == "truth moved, an empty one left" {
				require.NoError(t, os.Rename(filepath.Join(src, "truth"), filepath.Join(dir, "truth")))
				empty := *truth
				empty.Locations = make([]*trace.Location, len(truth.Locations))
				for i, l := range truth.Locations {
					empty.Locations[i] = &trace.Location{ID: l.ID, Name: l.Name}
				}
				require.NoError(t, native.WriteDir(context.Background(), filepath.Join(src, "truth"), &empty, nil))
			}
			leftover := filepath.Join(dir, "."+NativeSubdir+removingSuffix)
			require.NoError(t, os.MkdirAll(filepath.Join(leftover, "events"), 0o755))
			n, u, err := FinishOTF2(dir, nil, RecoverOptions{})
			require.NoError(t, err)
			assert.Nil(t, u, "the run was complete")
			assert.Equal(t, rec.NumEvents(), n)
			assert.NoDirExists(t, src, "the native trace is removed")
			assert.NoDirExists(t, leftover, "and what an earlier removal left")
			got := readTrace(t, dir, "otf2")
			require.Len(t, got.Locations, len(rec.Locations))
			for li, l := range rec.Locations {
				assert.Equal(t, l.Events.Len(), got.Locations[li].Events.Len(), "location %d's events", li)
			}
			tr, err := native.ReadDir(filepath.Join(dir, "truth"), nil)
			require.NoError(t, err, "the truth beside the archive")
			assert.Equal(t, truth.NumEvents(), tr.NumEvents())
		})
	}
}
