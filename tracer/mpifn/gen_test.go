package mpifn

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedUpToDate: the committed sources of the PMPI library are what
// the table generates (run go generate ./cmd/clc-trace after editing
// functions.tbl or the generator).
func TestGeneratedUpToDate(t *testing.T) {
	files, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		path := filepath.Join("..", "..", "cmd", "clc-trace", "pmpi", name)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run go generate ./cmd/clc-trace)", path, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run go generate ./cmd/clc-trace", path)
		}
	}
}
