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
	assert.Equal(t, "true", got.Properties[native.PropIncomplete])
	assert.Equal(t, "3", got.Properties[native.PropTruncated])

	anchor := filepath.Join(dir, "traces.otf2")
	op, events := otf2PrintEvents(t, anchor)
	assert.EqualValues(t, n, events, "events otf2-print shows")
	out, err := exec.Command(op, "-A", anchor).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "CLC::INCOMPLETE")
	assert.Contains(t, string(out), "CLC::TRUNCATED")
}
