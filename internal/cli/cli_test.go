package cli

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestStatus(t *testing.T) {
	base := errors.New("boom")
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, ExitOK},
		{base, ExitFailure},
		{Usage(base), ExitUsage},
		{fmt.Errorf("wrapped: %w", Usage(base)), ExitUsage},
		{Usagef("--x %d: bad", 3), ExitUsage},
	} {
		if got := Status(c.err); got != c.want {
			t.Errorf("Status(%v) = %d, want %d", c.err, got, c.want)
		}
	}
	if Usage(nil) != nil {
		t.Error("Usage(nil) is not nil")
	}
	if u := Usage(base); !errors.Is(u, base) || u.Error() != "boom" {
		t.Errorf("Usage(base) = %v: does not wrap base", u)
	}
}

func TestVersionOf(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	if got, want := versionOf(info), "v1.2.3, commit 0123456789abcdef (2026-01-02T03:04:05Z), modified, go1.26.0"; got != want {
		t.Errorf("versionOf = %q, want %q", got, want)
	}
	if got := versionOf(&debug.BuildInfo{GoVersion: "go1.26.0"}); got != "(devel), no VCS commit recorded, go1.26.0" {
		t.Errorf("versionOf without settings = %q", got)
	}
}

// TestSetup: --version prints the name and the version; a bad flag, a bad
// flag value and a wrong number of arguments are usage errors; an error
// of the command itself is not.
func TestSetup(t *testing.T) {
	newCmd := func() (*cobra.Command, *bytes.Buffer) {
		var n int
		cmd := &cobra.Command{Use: "tool ARG", Args: cobra.ExactArgs(1), SilenceErrors: true, SilenceUsage: true,
			RunE: func(*cobra.Command, []string) error { return errors.New("failed") }}
		cmd.Flags().IntVar(&n, "n", 0, "a number")
		Setup(cmd)
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		return cmd, &out
	}
	cmd, out := newCmd()
	cmd.SetArgs([]string{"--version"})
	if err := cmd.Execute(); err != nil || !strings.HasPrefix(out.String(), "tool ") || !strings.Contains(out.String(), "go1.") {
		t.Errorf("--version: %v, %q", err, out.String())
	}
	for _, args := range [][]string{{"--bogus", "a"}, {"--n", "x", "a"}, {}, {"a", "b"}} {
		cmd, _ := newCmd()
		cmd.SetArgs(args)
		if err := cmd.Execute(); Status(err) != ExitUsage {
			t.Errorf("%q: status %d (%v), want %d", args, Status(err), err, ExitUsage)
		}
	}
	cmd, _ = newCmd()
	cmd.SetArgs([]string{"a"})
	if err := cmd.Execute(); Status(err) != ExitFailure {
		t.Errorf("a failing command: status %d (%v), want %d", Status(err), err, ExitFailure)
	}
}
