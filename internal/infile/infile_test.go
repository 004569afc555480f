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

// clc.json (or traces.otf2, an event file, a truth file) made a link to
// /proc/kmsg hung the run, and one Ctrl-C did nothing (issue 33): stat
// calls it a regular file, and its read waits for the kernel. Files of the
// kernel's pseudo-file systems are refused when opened, whatever the path
// that reaches them.
func TestRefusesPseudoFiles(t *testing.T) {
	d := t.TempDir()
	var tried int
	for _, target := range []string{"/proc/self/status", "/proc/kmsg", "/sys/kernel/uevent_seqnum", "/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/cgroup.procs"} {
		st, err := os.Stat(target)
		if err != nil || !st.Mode().IsRegular() {
			continue // not on this machine
		}
		tried++
		link := filepath.Join(d, "clc.json")
		os.Remove(link)
		require.NoError(t, os.Symlink(target, link))
		for _, p := range []string{target, link} {
			_, _, err := Open(p)
			if errors.Is(err, os.ErrPermission) {
				continue // /proc/kmsg needs CAP_SYSLOG
			}
			require.ErrorIs(t, err, ErrPseudoFile, p)
			assert.Contains(t, err.Error(), p)
			_, err = ReadFile(p, 1<<20)
			assert.ErrorIs(t, err, ErrPseudoFile, p)
		}
	}
	require.Positive(t, tried, "no file of /proc or /sys found")
	// A regular file on an ordinary file system is read.
	p := filepath.Join(d, "f")
	require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
	b, err := ReadFile(p, 1)
	require.NoError(t, err)
	assert.Equal(t, "x", string(b))
}
