package testenv

import (
	"errors"
	"io"
	"io/fs"
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

func TestFixturesMakeEachDirectoryOnce(t *testing.T) {
	var f Fixtures
	made := 0
	mk := func(dir string) error {
		made++
		return os.WriteFile(filepath.Join(dir, "x"), []byte("fixture"), 0o644)
	}
	a := f.Dir(t, "a", mk)
	if again := f.Dir(t, "a", mk); again != a || made != 1 {
		t.Fatalf("asked twice: %q then %q, made %d times", a, again, made)
	}
	b := f.Dir(t, "b", mk)
	if b == a || made != 2 {
		t.Fatalf("a second key: %q (the first %q), made %d times", b, a, made)
	}
	if got, err := os.ReadFile(filepath.Join(b, "x")); err != nil || string(got) != "fixture" {
		t.Fatalf("the fixture holds %q (%v)", got, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("after Close: %v, want the directory gone", err)
	}
}
