package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func write(t *testing.T, path, s string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(s), 0o644))
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestRefusesPathsInOrAroundTheInput(t *testing.T) {
	d := t.TempDir()
	in := filepath.Join(d, "in")
	write(t, filepath.Join(in, "traces.otf2"), "x")
	p, err := NewPlan(in)
	require.NoError(t, err)
	for _, c := range []struct {
		dir        bool
		path, want string
	}{
		{false, filepath.Join(in, "report.json"), "inside the input"},
		{false, filepath.Join(in, "traces.otf2"), "inside the input"},
		{true, filepath.Join(in, "out"), "inside the input"},
		{true, d, "contains the input"},
		{true, in, "inside the input"},
		{false, filepath.Join(in, "..", "in", "r"), "inside the input"},
	} {
		var err error
		if c.dir {
			_, err = p.Dir("output", c.path, ReplaceTrace)
		} else {
			_, err = p.File("report", c.path)
		}
		require.Error(t, err, c.path)
		assert.Contains(t, err.Error(), c.want, c.path)
	}
	// Through a symbolic link, too.
	link := filepath.Join(d, "link")
	require.NoError(t, os.Symlink(in, link))
	_, err = p.File("report", filepath.Join(link, "r.json"))
	require.ErrorContains(t, err, "inside the input")
	assert.Equal(t, []string{"traces.otf2"}, entries(t, in))
	assert.Empty(t, p.Temporaries())
}

func TestRefusesClashingTargets(t *testing.T) {
	d := t.TempDir()
	p, err := NewPlan()
	require.NoError(t, err)
	_, err = p.Dir("output", filepath.Join(d, "out"), KeepExisting)
	require.NoError(t, err)
	_, err = p.File("report", filepath.Join(d, "out", "r.json"))
	require.ErrorContains(t, err, "clashes with the output")
	_, err = p.File("report", filepath.Join(d, "r.json"))
	require.NoError(t, err)
	_, err = p.File("profile", filepath.Join(d, "r.json"))
	require.ErrorContains(t, err, "clashes with the report")
	p.Abort()
	assert.Empty(t, entries(t, d), "Abort removes the temporaries")
}

func TestFileTargets(t *testing.T) {
	d := t.TempDir()
	p, _ := NewPlan()
	_, err := p.File("report", d)
	require.ErrorContains(t, err, "is a directory")
	ro := filepath.Join(d, "ro")
	require.NoError(t, os.Mkdir(ro, 0o555))
	if os.Geteuid() != 0 { // root writes anywhere
		_, err = p.File("report", filepath.Join(ro, "r.json"))
		require.ErrorContains(t, err, "cannot write there")
	}
	blocker := filepath.Join(d, "file")
	write(t, blocker, "x")
	_, err = p.File("report", filepath.Join(blocker, "r.json"))
	require.Error(t, err, "a file in the way of the parent directory")

	old := filepath.Join(d, "old.json")
	write(t, old, "old")
	tmp, err := p.File("report", old)
	require.NoError(t, err)
	write(t, tmp, "new")
	b, _ := os.ReadFile(old)
	assert.Equal(t, "old", string(b), "nothing replaced before Commit")
	require.NoError(t, p.Commit())
	b, _ = os.ReadFile(old)
	assert.Equal(t, "new", string(b))
	for _, n := range entries(t, d) {
		assert.False(t, strings.HasPrefix(n, TempPrefix), n)
	}
}

func TestAbortAfterCommitDoesNothing(t *testing.T) {
	d := t.TempDir()
	p, _ := NewPlan()
	tmp, err := p.Dir("output", filepath.Join(d, "o"), KeepExisting)
	require.NoError(t, err)
	write(t, filepath.Join(tmp, "f"), "x")
	require.NoError(t, p.Commit())
	p.Abort()
	assert.Equal(t, []string{"f"}, entries(t, filepath.Join(d, "o")))
	_, err = p.File("late", filepath.Join(d, "late"))
	require.Error(t, err)
}
