package testenv

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestFullFollowsTheEnvironment(t *testing.T) {
	t.Setenv(FullEnv, "1")
	if !Full() {
		t.Fatalf("%s=1 but Full() is false", FullEnv)
	}
	t.Setenv(FullEnv, "")
	if Full() {
		t.Fatalf("%s empty but Full() is true", FullEnv)
	}
}

func TestToolFindsAProgramOnThePath(t *testing.T) {
	if p := Tool(t, "sh", "dash"); p == "" {
		t.Fatal("sh has an empty path")
	}
}

func TestReplaceFileWritesANewFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := ReplaceFile(name, []byte("first, longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	old, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := ReplaceFile(name, []byte("second"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(name); err != nil || string(b) != "second" {
		t.Fatalf("the file holds %q (%v), want %q", b, err, "second")
	}
	// Written in place, the old file would hold the new bytes too.
	if b, err := io.ReadAll(old); err != nil || string(b) != "first, longer" {
		t.Fatalf("the replaced file holds %q (%v), want %q", b, err, "first, longer")
	}
	if err := ReplaceFile(filepath.Join(t.TempDir(), "missing", "f"), nil, 0o644); err == nil {
		t.Fatal("no error for a file in a missing directory")
	}
}
