package tracetest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// DirFiles returns the contents of every file below dir (a trace
// directory, say), by slash-separated path relative to dir.
func DirFiles(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	return files
}

// SameFiles reports as errors of t a number of files other than want's and
// every file of want that got lacks or holds other bytes in; what names
// got in the messages. It returns whether got and want are the same.
func SameFiles(t testing.TB, want, got map[string][]byte, what string) bool {
	t.Helper()
	same := len(got) == len(want)
	if !same {
		t.Errorf("%s: %d files, want %d", what, len(got), len(want))
	}
	for name, b := range want {
		if g, ok := got[name]; !ok || !bytes.Equal(b, g) {
			t.Errorf("%s: %s differs", what, name)
			same = false
		}
	}
	return same
}

// pageTimes matches what differs between two runs' HTML reports of the
// same trace: the stages' times, the time the page took and the output's
// path.
var pageTimes = regexp.MustCompile(`Time taken</h2><table>.*?</table>|Made by clc-correct in [^<]*? One|<td class="k">output</td><td>[^<]*</td>`)

// Page returns the HTML report in file without what differs between two
// runs (the times taken, the output's path), a tag a line, so that a
// failed comparison shows the lines that differ.
func Page(t testing.TB, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(pageTimes.ReplaceAllString(string(b), ""), "><", ">\n<")
}
