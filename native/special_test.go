package native

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/infile"
)

// Every file of a native trace that is a named pipe or a device is refused
// at once, naming the file: a FIFO blocked open(2) for ever, a symbolic link
// to /dev/zero was read up to the manifest's limit.
func TestSpecialFilesAreRefused(t *testing.T) {
	for _, bundles := range []int{0, 1} {
		src := filepath.Join(t.TempDir(), "tr")
		require.NoError(t, WriteDir(context.Background(), src, smallTrace(), &WriteOptions{Codec: CodecZstd, Bundles: bundles}))
		files := []string{ManifestName, "events/0.clce"}
		if bundles > 0 {
			files[1] = "events/bundle-0" + BundleExt
		}
		for _, f := range files {
			for _, kind := range []string{"fifo", "zero"} {
				dir := filepath.Join(t.TempDir(), "tr")
				require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
				p := filepath.Join(dir, f)
				require.NoError(t, os.Remove(p))
				if kind == "fifo" {
					require.NoError(t, syscall.Mkfifo(p, 0o644))
				} else {
					require.NoError(t, os.Symlink("/dev/zero", p))
				}
				_, err := ReadDir(dir, nil)
				require.ErrorIs(t, err, infile.ErrNotRegular, "%s %s", f, kind)
				assert.Contains(t, err.Error(), p)
				assert.False(t, IsDir(dir) && f == ManifestName, "IsDir read a %s manifest", kind)
			}
		}
	}
}
