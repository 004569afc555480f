package output

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
)

// An input whose traces/ is a symbolic link into a trace directory X:
// replacing X replaced the input's event files (issue 26). The plan knows
// the directories the input reaches through links.
func TestLinkedInputIsProtected(t *testing.T) {
	d := t.TempDir()
	x := filepath.Join(d, "x")
	writeOTF2(t, x)
	in := filepath.Join(d, "in")
	require.NoError(t, os.Mkdir(in, 0o755))
	for _, f := range []string{"traces.otf2", "traces.def"} {
		b, err := os.ReadFile(filepath.Join(x, f))
		require.NoError(t, err)
		write(t, filepath.Join(in, f), string(b))
	}
	require.NoError(t, os.Symlink(filepath.Join(x, "traces"), filepath.Join(in, "traces")))
	require.NoError(t, CheckTrace(x), "x passes for a trace: only the identity check refuses it")

	p, err := NewPlan(in)
	require.NoError(t, err)
	_, err = p.Dir("output", x, ReplaceTrace)
	require.ErrorContains(t, err, "contains the input "+in)
	_, err = p.File("report", filepath.Join(x, "traces", "r.json"))
	require.ErrorContains(t, err, "inside the input "+in)
	assert.Empty(t, p.Temporaries())
	require.NoError(t, CheckTrace(x), "x is untouched")
}

// bindMount mounts dir at mnt (root only: skips elsewhere, fails under CI)
// and unmounts it when the test ends.
func bindMount(t *testing.T, dir, mnt string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(mnt, 0o755))
	if err := syscall.Mount(dir, mnt, "", syscall.MS_BIND, ""); err != nil {
		testenv.Unavailable(t, "root with CAP_SYS_ADMIN", "cannot bind-mount %s: %v", dir, err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
}

// Through a bind mount the same directory has another path: the plan
// compares identities (device and inode), not paths (issue 26).
func TestBindMountedInputIsProtected(t *testing.T) {
	d := t.TempDir()
	top := filepath.Join(d, "top")
	in := filepath.Join(top, "in")
	require.NoError(t, os.Mkdir(top, 0o755))
	require.NoError(t, native.WriteDir(context.Background(), in, smallTrace(), nil))
	mnt := filepath.Join(d, "mnt")
	bindMount(t, top, mnt)

	// The input by one path, the output inside it by the other.
	p, err := NewPlan(filepath.Join(mnt, "in"))
	require.NoError(t, err)
	_, err = p.Dir("output", filepath.Join(in, "out"), KeepExisting)
	require.ErrorContains(t, err, "inside the input")
	p, err = NewPlan(in)
	require.NoError(t, err)
	_, err = p.File("report", filepath.Join(mnt, "in", "events", "r.json"))
	require.ErrorContains(t, err, "inside the input")
	// An output that holds the input through the mount.
	_, err = p.Dir("output", mnt, ReplaceTrace)
	require.ErrorContains(t, err, "contains the input")

	// A trace directory to replace whose truth/ is the input, mounted: it
	// passes for a trace, and replacing it would delete the input.
	out := filepath.Join(d, "out")
	writeNative(t, out, 0)
	require.NoError(t, os.RemoveAll(filepath.Join(out, "truth")))
	bindMount(t, in, filepath.Join(out, "truth"))
	require.NoError(t, checkTrace(out), "the content alone passes")
	_, err = p.Dir("output", out, ReplaceTrace)
	require.ErrorContains(t, err, "truth is the input")
	_, err = os.Stat(filepath.Join(in, "clc.json"))
	require.NoError(t, err, "the input is intact")
	assert.Empty(t, p.Temporaries())
}

// A plan creates nothing but its targets: --html /nonexistent/dir/r.html
// created /nonexistent/dir (issue 26).
func TestMissingParentsAreNotCreated(t *testing.T) {
	d := t.TempDir()
	p, _ := NewPlan()
	_, err := p.File("html report", filepath.Join(d, "no", "such", "r.html"))
	require.ErrorContains(t, err, "does not exist")
	_, err = p.Dir("output", filepath.Join(d, "no", "out"), KeepExisting)
	require.ErrorContains(t, err, "does not exist")
	p.Abort()
	assert.Empty(t, entries(t, d))
}

// A replaced file or directory keeps its permissions: a 0600 report was
// replaced by a 0644 one (issue 26).
func TestReplacedModesAreKept(t *testing.T) {
	d := t.TempDir()
	rep := filepath.Join(d, "r.json")
	write(t, rep, "old")
	require.NoError(t, os.Chmod(rep, 0o600))
	out := filepath.Join(d, "out")
	writeNative(t, out, 0)
	require.NoError(t, os.Chmod(out, 0o700))
	fresh := filepath.Join(d, "fresh.json")
	p, _ := NewPlan()
	tmp, err := p.File("report", rep)
	require.NoError(t, err)
	write(t, tmp, "new")
	_, err = p.Dir("output", out, ReplaceTrace)
	require.NoError(t, err)
	_, err = p.File("fresh", fresh)
	require.NoError(t, err)
	require.NoError(t, p.Commit())
	for path, want := range map[string]os.FileMode{rep: 0o600, out: 0o700, fresh: 0o644} {
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, want, st.Mode().Perm(), path)
	}
}

// -o x.otf2 made a directory named x.otf2 (issue 26).
func TestOTF2NamedDirectoryIsRefused(t *testing.T) {
	d := t.TempDir()
	p, _ := NewPlan()
	_, err := p.Dir("output", filepath.Join(d, "fixed.otf2"), KeepExisting)
	require.ErrorContains(t, err, "("+filepath.Join(d, "fixed")+", which then holds "+filepath.Join(d, "fixed", "traces.otf2")+")")
	assert.Empty(t, entries(t, d))
}

// A Commit that cannot place every target puts back what it replaced and
// leaves no temporary.
func TestFailedCommitRestores(t *testing.T) {
	d := t.TempDir()
	rep := filepath.Join(d, "r.json")
	write(t, rep, "old report")
	out := filepath.Join(d, "out")
	writeNative(t, out, 0)
	before := entries(t, out)
	p, _ := NewPlan()
	tmp, err := p.File("report", rep)
	require.NoError(t, err)
	write(t, tmp, "new report")
	otmp, err := p.Dir("output", out, ReplaceTrace)
	require.NoError(t, err)
	write(t, filepath.Join(otmp, "clc.json"), "new")
	blocked := filepath.Join(d, "blocked")
	_, err = p.Dir("third", blocked, KeepExisting)
	require.NoError(t, err)
	// Something takes the third target's place meanwhile.
	write(t, filepath.Join(blocked, "x"), "y")
	require.Error(t, p.Commit())
	b, err := os.ReadFile(rep)
	require.NoError(t, err)
	assert.Equal(t, "old report", string(b))
	assert.Equal(t, before, entries(t, out))
	assert.ElementsMatch(t, []string{"r.json", "out", "blocked"}, entries(t, d))
}

// A link in an input to a large tree (the file system root, say) does not
// make the plan walk all of it: it walks walkDepth levels below the input,
// and protects what it reached.
func TestInputWalkIsBounded(t *testing.T) {
	d := t.TempDir()
	deep := filepath.Join(d, "deep")
	p := deep
	for i := range 8 {
		p = filepath.Join(p, fmt.Sprint("level", i))
	}
	require.NoError(t, os.MkdirAll(p, 0o755))
	in := filepath.Join(d, "in")
	writeNative(t, in, 0)
	require.NoError(t, os.Symlink(deep, filepath.Join(in, "events", "link")))
	plan, err := NewPlan(in)
	require.NoError(t, err)
	_, err = plan.File("report", filepath.Join(deep, "r.json"))
	require.ErrorContains(t, err, "inside the input", "a directory the input links to is protected")
	st, err := os.Stat(filepath.Join(deep, "level0", "level1", "level2"))
	require.NoError(t, err)
	_, walked := plan.guard.dirs[idOf(st)]
	assert.False(t, walked, "walked below walkDepth")
}
