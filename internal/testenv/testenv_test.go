package testenv

import (
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
