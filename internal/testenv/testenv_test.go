package testenv

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFullFollowsTheEnvironment(t *testing.T) {
	t.Setenv(FullEnv, "1")
	assert.True(t, Full(), "%s=1 but Full() is false", FullEnv)
	t.Setenv(FullEnv, "")
	assert.False(t, Full(), "%s empty but Full() is true", FullEnv)
}

func TestToolFindsAProgramOnThePath(t *testing.T) {
	assert.NotEmpty(t, Tool(t, "sh", "dash"), "the path of sh")
}

func TestReplaceFileWritesANewFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	require.NoError(t, ReplaceFile(name, []byte("first, longer"), 0o644))
	old, err := os.Open(name)
	require.NoError(t, err)
	defer old.Close()
	require.NoError(t, ReplaceFile(name, []byte("second"), 0o644))
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, "second", string(b), "the file")
	// Written in place, the old file would hold the new bytes too.
	b, err = io.ReadAll(old)
	require.NoError(t, err)
	assert.Equal(t, "first, longer", string(b), "the replaced file")
	assert.Error(t, ReplaceFile(filepath.Join(t.TempDir(), "missing", "f"), nil, 0o644), "a file in a missing directory")
}

func TestFixturesMakeEachDirectoryOnce(t *testing.T) {
	var f Fixtures
	made := 0
	mk := func(dir string) error {
		made++
		return os.WriteFile(filepath.Join(dir, "x"), []byte("fixture"), 0o644)
	}
	a := f.Dir(t, "a", mk)
	assert.Equal(t, a, f.Dir(t, "a", mk), "the directory of a key asked twice")
	assert.Equal(t, 1, made, "times made after one key asked twice")
	b := f.Dir(t, "b", mk)
	assert.NotEqual(t, a, b, "the directory of a second key")
	assert.Equal(t, 2, made, "times made after a second key")
	got, err := os.ReadFile(filepath.Join(b, "x"))
	require.NoError(t, err)
	assert.Equal(t, "fixture", string(got), "the fixture")
	require.NoError(t, f.Close())
	_, err = os.Stat(a)
	assert.ErrorIs(t, err, fs.ErrNotExist, "the directory after Close")
}
