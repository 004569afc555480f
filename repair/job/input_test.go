package job

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A directory whose traces.otf2 is not an anchor is reported as a corrupt
// anchor, with the file and place, not as a directory without one.
func TestCorruptAnchorIsNamed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "arch")
	require.NoError(t, os.CopyFS(dir, os.DirFS("../../testdata/scorep-pingpong")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "traces.otf2"), []byte("this is not an anchor file at all"), 0o644))
	for _, in := range []string{dir, filepath.Join(dir, "traces.otf2")} {
		_, err := Open(in)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "traces.otf2: byte offset 0")
		assert.Contains(t, err.Error(), "anchor file is corrupt")
		assert.NotContains(t, err.Error(), "no OTF2 anchor")
	}
	// A directory without any anchor file still says so.
	require.NoError(t, os.Remove(filepath.Join(dir, "traces.otf2")))
	_, err := Open(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no OTF2 anchor")
}
