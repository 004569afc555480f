package otf

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A big-endian archive (written by a test-only option of the writer) reads
// back to the same model, and the reference library prints it exactly as it
// prints the little-endian one: the byte swapping agrees with OTF2's.
func TestBigEndian(t *testing.T) {
	_, _, tr := readRef(t, 60)
	tr.Locations[2].Offsets = nil
	tr.Carried = nil // a new archive from the model (path b), in both byte orders

	le := filepath.Join(t.TempDir(), "le")
	be := filepath.Join(t.TempDir(), "be")
	require.NoError(t, WriteTrace(context.Background(), le, tr, nil))
	require.NoError(t, WriteTrace(context.Background(), be, tr, &WriteOptions{bigEndian: true}))

	raw, err := os.ReadFile(filepath.Join(be, "traces", "4294967296.evt"))
	require.NoError(t, err)
	require.Equal(t, byte(markBig), raw[1], "chunk header byte-order mark")
	anc, err := os.ReadFile(filepath.Join(be, "traces.otf2"))
	require.NoError(t, err)
	require.Equal(t, byte(markBig), anc[1])

	b, err := Open(be)
	require.NoError(t, err)
	assert.True(t, b.Anchor().BigEndian)
	tb, err := b.Read(context.Background(), nil)
	require.NoError(t, err)
	for li := range tr.Locations {
		assert.Equal(t, tr.Locations[li].Events, tb.Locations[li].Events, "location %d", li)
		assert.Equal(t, tr.Locations[li].Offsets, tb.Locations[li].Offsets, "location %d", li)
	}
	assert.Equal(t, tr.Comms, tb.Comms)
	assert.Equal(t, tr.Regions, tb.Regions)

	checkOTF2(t, filepath.Join(be, "traces.otf2"))
	wantAll := otf2Print(t, filepath.Join(le, "traces.otf2"), "-A", "-C")
	gotAll := otf2Print(t, filepath.Join(be, "traces.otf2"), "-A", "-C")
	want, got := eventLines(wantAll), eventLines(gotAll)
	require.Greater(t, len(want), 1000)
	assert.Equal(t, want, got)

	// Rewriting a big-endian archive keeps its byte order.
	out := filepath.Join(t.TempDir(), "rw")
	require.NoError(t, b.Rewrite(out, tb, nil))
	raw, err = os.ReadFile(filepath.Join(out, "traces", "4294967296.evt"))
	require.NoError(t, err)
	require.Equal(t, byte(markBig), raw[1])
	assert.Equal(t, want, eventLines(otf2Print(t, filepath.Join(out, "traces.otf2"))))

	// Through the native format (carried definitions) too.
	nat := filepath.Join(t.TempDir(), "nat")
	require.NoError(t, WriteTrace(context.Background(), nat, throughNative(t, tb, nil, false), nil))
	for _, f := range []string{"traces.otf2", "traces.def", "traces/4294967296.def", "traces/4294967296.evt"} {
		raw, err = os.ReadFile(filepath.Join(nat, filepath.FromSlash(f)))
		require.NoError(t, err)
		require.Equal(t, byte(markBig), raw[1], f)
	}
	wantLines, _, _ := printAll(t, filepath.Join(be, "traces.otf2")).normalised()
	gotLines, _, _ := printAll(t, filepath.Join(nat, "traces.otf2")).normalised()
	assert.Equal(t, wantLines, gotLines)
}

// Score-P's Metric records with three values (arrays) survive the byte
// swap: the reference reader prints the big-endian copy as the
// little-endian one.
func TestBigEndianMetrics(t *testing.T) {
	a, err := Open(realTracePAPI)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	tr.Carried = nil // a new archive from the model (path b), in both byte orders
	le := filepath.Join(t.TempDir(), "le")
	be := filepath.Join(t.TempDir(), "be")
	require.NoError(t, WriteTrace(context.Background(), le, tr, nil))
	require.NoError(t, WriteTrace(context.Background(), be, tr, &WriteOptions{bigEndian: true}))
	want := eventLines(otf2Print(t, filepath.Join(le, "traces.otf2")))
	got := eventLines(otf2Print(t, filepath.Join(be, "traces.otf2")))
	var metrics int
	for _, l := range want {
		if strings.HasPrefix(l, "METRIC") && strings.Contains(l, "3 Values") {
			metrics++
		}
	}
	assert.Greater(t, metrics, 80)
	assert.Equal(t, want, got)
	b, err := Open(be)
	require.NoError(t, err)
	tb, err := b.Read(context.Background(), nil)
	require.NoError(t, err)
	for li := range tr.Locations {
		assert.Equal(t, tr.Locations[li].Events, tb.Locations[li].Events)
	}
}
