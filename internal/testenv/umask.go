package testenv

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"
)

// ModesAgainstUmask walks what lies under dir (a run's outputs, made
// under umask), dir itself left out, and returns, one line each, the
// entries whose permissions are not those of a new file or directory under
// that umask (0666 or 0777 less it). It fails the test if dir cannot be
// walked.
func ModesAgainstUmask(t testing.TB, dir string, umask fs.FileMode) []string {
	t.Helper()
	var wrong []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		st, err := e.Info()
		if err != nil {
			return err
		}
		want := 0o666 &^ umask
		if e.IsDir() {
			want = 0o777 &^ umask
		}
		if got := st.Mode().Perm(); got != want {
			wrong = append(wrong, fmt.Sprintf("%s: %03o, under umask %03o %03o", p, got, umask, want))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", dir, err)
	}
	return wrong
}
