package output

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readTree returns the regular files under dir with their contents.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[rel] = string(b)
		return err
	}))
	return files
}

// --force inspected the output at the start and removed the old directory
// whole at the end: a file written into it meanwhile was deleted (issue
// 33). Between the plan (inspection) and Commit, a file appears, or a
// trace file changes: Commit refuses, and the directory stays as it is.
func TestForceKeepsWhatAppearedMeanwhile(t *testing.T) {
	for name, meanwhile := range map[string]func(t *testing.T, out string){
		"new file":         func(t *testing.T, out string) { write(t, filepath.Join(out, "thesis.txt"), "x") },
		"new file deeper":  func(t *testing.T, out string) { write(t, filepath.Join(out, "truth", "events", "notes"), "x") },
		"new directory":    func(t *testing.T, out string) { require.NoError(t, os.Mkdir(filepath.Join(out, "mine"), 0o777)) },
		"trace file grown": func(t *testing.T, out string) { appendTo(t, filepath.Join(out, "clc.json"), " ") },
	} {
		t.Run(name, func(t *testing.T) {
			d := t.TempDir()
			out := filepath.Join(d, "out")
			writeNative(t, out, 0)
			p, err := NewPlan()
			require.NoError(t, err)
			tmp, err := p.Dir("output", out, ReplaceTrace)
			require.NoError(t, err)
			write(t, filepath.Join(tmp, "new"), "the run's output")
			meanwhile(t, out)
			before := readTree(t, out)
			err = p.Commit()
			require.Error(t, err)
			assert.Contains(t, err.Error(), "since it was inspected")
			assert.Equal(t, before, readTree(t, out), "the directory changed")
			assert.Equal(t, []string{"out"}, entries(t, d), "a temporary left")
		})
	}
}

// appendTo appends s to the file at path.
func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(s)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// An empty directory is replaced (without --force): a file written into it
// after the plan was made is not deleted either.
func TestEmptyDirectoryKeepsWhatAppearedMeanwhile(t *testing.T) {
	d := t.TempDir()
	out := filepath.Join(d, "out")
	require.NoError(t, os.Mkdir(out, 0o777))
	p, err := NewPlan()
	require.NoError(t, err)
	_, err = p.Dir("output", out, KeepExisting)
	require.NoError(t, err)
	write(t, filepath.Join(out, "thesis.txt"), "x")
	require.ErrorContains(t, p.Commit(), "thesis.txt")
	assert.Equal(t, map[string]string{"thesis.txt": "x"}, readTree(t, out))
}

// Without anything written meanwhile, --force replaces the trace whole.
func TestForceReplacesAnUnchangedTrace(t *testing.T) {
	d := t.TempDir()
	out := filepath.Join(d, "out")
	writeNative(t, out, 0)
	p, err := NewPlan()
	require.NoError(t, err)
	tmp, err := p.Dir("output", out, ReplaceTrace)
	require.NoError(t, err)
	write(t, filepath.Join(tmp, "new"), "y")
	require.NoError(t, p.Commit())
	assert.Equal(t, map[string]string{"new": "y"}, readTree(t, out))
	assert.Equal(t, []string{"out"}, entries(t, d))
}

// inventory.remove removes only what was inspected: a file that appears
// after the check (the narrowest window) is left with its directory.
func TestInventoryRemovesOnlyWhatWasInspected(t *testing.T) {
	d := filepath.Join(t.TempDir(), "old")
	write(t, filepath.Join(d, "a", "trace"), "t")
	write(t, filepath.Join(d, "b"), "t")
	inv, err := newGuard().checkTree(d)
	require.NoError(t, err)
	write(t, filepath.Join(d, "a", "late"), "mine")
	left := inv.remove(d)
	assert.Equal(t, []string{filepath.Join("a", "late")}, left)
	assert.Equal(t, map[string]string{filepath.Join("a", "late"): "mine"}, readTree(t, d))
}

// New outputs ignored the umask: umask 077 still gave 755 directories and
// 644 files (issue 33). They take 0777 and 0666 less the umask; a replaced
// target keeps its permissions.
func TestNewTargetsFollowTheUmask(t *testing.T) {
	for _, umask := range []int{0o077, 0o022, 0o027} {
		old := syscall.Umask(umask)
		d := t.TempDir()
		p, err := NewPlan()
		require.NoError(t, err)
		_, err = p.Dir("output", filepath.Join(d, "out"), KeepExisting)
		require.NoError(t, err)
		_, err = p.File("report", filepath.Join(d, "r.json"))
		require.NoError(t, err)
		kept := filepath.Join(d, "kept.json")
		require.NoError(t, os.WriteFile(kept, nil, 0o666))
		require.NoError(t, os.Chmod(kept, 0o640))
		_, err = p.File("report", kept)
		require.NoError(t, err)
		require.NoError(t, p.Commit())
		syscall.Umask(old)
		for path, want := range map[string]os.FileMode{"out": 0o777 &^ os.FileMode(umask), "r.json": 0o666 &^ os.FileMode(umask), "kept.json": 0o640} {
			st, err := os.Stat(filepath.Join(d, path))
			if assert.NoError(t, err) {
				assert.Equal(t, want, st.Mode().Perm(), "umask %03o: %s", umask, path)
			}
		}
	}
}

// Output names of 237–255 bytes failed: the temporary's name was derived
// from the target's and too long (issue 33). Any name the file system
// takes works.
func TestLongNames(t *testing.T) {
	d := t.TempDir()
	for _, n := range []int{200, 237, 250, 255} {
		p, err := NewPlan()
		require.NoError(t, err)
		dir := filepath.Join(d, strings.Repeat("o", n))
		file := filepath.Join(d, strings.Repeat("r", n))
		tmp, err := p.Dir("output", dir, KeepExisting)
		require.NoError(t, err, "%d bytes", n)
		write(t, filepath.Join(tmp, "f"), "x")
		_, err = p.File("report", file)
		require.NoError(t, err, "%d bytes", n)
		require.NoError(t, p.Commit(), "%d bytes", n)
		assert.FileExists(t, filepath.Join(dir, "f"))
		assert.FileExists(t, file)
	}
}

// A file input (true times) protects the file alone: `--truth
// DIR/truth.json` refused `-o DIR/out` and `--report DIR/r.json` (issue
// 33).
func TestInputFileProtectsOnlyTheFile(t *testing.T) {
	d := t.TempDir()
	truth := filepath.Join(d, "truth.json")
	write(t, truth, "{}")
	link := filepath.Join(t.TempDir(), "link.json")
	require.NoError(t, os.Symlink(truth, link))
	hard := filepath.Join(d, "hard.json")
	require.NoError(t, os.Link(truth, hard))
	p, err := NewPlan()
	require.NoError(t, err)
	require.NoError(t, p.AddInputFile(truth))
	_, err = p.Dir("output", filepath.Join(d, "out"), KeepExisting)
	assert.NoError(t, err, "an output beside the file")
	_, err = p.File("report", filepath.Join(d, "r.json"))
	assert.NoError(t, err, "a report beside the file")
	for _, c := range []struct{ path, want string }{
		{truth, "is the input"},
		{link, "is the input"},
		{hard, "is the input"},
	} {
		_, err := p.File("html report", c.path)
		assert.ErrorContains(t, err, c.want, c.path)
	}
	_, err = p.Dir("output", d, ReplaceTrace)
	assert.ErrorContains(t, err, "contains the input", "the directory holding it")
	p.Abort()
	assert.ElementsMatch(t, []string{"truth.json", "hard.json"}, entries(t, d))
}
