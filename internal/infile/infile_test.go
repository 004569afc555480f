package infile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	d := t.TempDir()
	fifo := filepath.Join(d, "fifo")
	testenv.MakeSpecial(t, fifo, testenv.SpecialFIFO)
	zero := filepath.Join(d, "zero")
	testenv.MakeSpecial(t, zero, testenv.SpecialZero)
	for _, c := range []struct{ path, kind string }{
		{fifo, "named pipe"}, {zero, "character device"}, {d, "directory"},
	} {
		// A FIFO without a writer would block open(2) for ever: Open
		// returns at once (the test would time out otherwise).
		f, _, err := Open(c.path)
		require.ErrorIs(t, err, ErrNotRegular, c.path)
		assert.Nil(t, f)
		assert.Contains(t, err.Error(), c.kind)
		assert.Contains(t, err.Error(), c.path)
		_, err = ReadFile(c.path, 1<<20)
		require.ErrorIs(t, err, ErrNotRegular, c.path)
	}
	_, _, err := Open(filepath.Join(d, "missing"))
	assert.True(t, errors.Is(err, os.ErrNotExist))
}

func TestReadFileChecksTheSizeFirst(t *testing.T) {
	d := t.TempDir()
	p := filepath.Join(d, "f")
	require.NoError(t, os.WriteFile(p, []byte("0123456789"), 0o644))
	b, err := ReadFile(p, 10)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(b))
	_, err = ReadFile(p, 9)
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), "10 bytes")
	// A regular file reached through a symbolic link is fine.
	l := filepath.Join(d, "l")
	require.NoError(t, os.Symlink(p, l))
	b, err = ReadFile(l, 100)
	require.NoError(t, err)
	assert.Len(t, b, 10)
	empty := filepath.Join(d, "e")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	b, err = ReadFile(empty, 0)
	require.NoError(t, err)
	assert.Empty(t, b)
}
