package otf

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/presync"
)

// ViTE (Debian's vite, linked against the OTF2 library) opens a corrected
// archive and shows it: scripts/vite-screenshot.sh runs it under xvfb-run,
// takes a screenshot and checks the window; with CLC_TEST_FULL=1 also on a
// new archive written from a model. Set CLC_VITE_SHOT=FILE.png to keep the
// screenshot.
func TestViTEOpensCorrectedArchive(t *testing.T) {
	for tool, pkg := range map[string]string{"vite": "vite", "xvfb-run": "xvfb xauth", "import": "imagemagick", "convert": "imagemagick", "xwininfo": "x11-utils"} {
		testenv.Tool(t, tool, pkg)
	}
	a, err := Open(realTrace)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	_, err = presync.Apply(tr, nil)
	require.NoError(t, err)
	// A correction: rank 1's events from the 20th on move 0.5 µs later.
	ts := tr.Locations[1].Events.Time
	for i := 20; i < len(ts); i++ {
		ts[i] += 1000
	}
	out := filepath.Join(t.TempDir(), "corrected")
	require.NoError(t, a.Rewrite(out, tr, nil))
	shot := os.Getenv("CLC_VITE_SHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "vite.png")
	}
	cmd := exec.Command("../scripts/vite-screenshot.sh", out, shot)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	t.Logf("%s", b)

	// And a new archive written from a model (path b, what clc-sim writes;
	// TestWriteTraceReferenceReader checks that path by default).
	if !testenv.Full() {
		return
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	require.NoError(t, WriteTrace(context.Background(), fresh, synthetic(20000), nil))
	b, err = exec.Command("../scripts/vite-screenshot.sh", fresh, filepath.Join(t.TempDir(), "fresh.png")).CombinedOutput()
	require.NoError(t, err, "%s", b)
}
