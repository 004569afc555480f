package cli

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
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
		assert.Equal(t, c.want, Status(c.err), "Status(%v)", c.err)
	}
	assert.NoError(t, Usage(nil), "Usage(nil)")
	u := Usage(base)
	assert.ErrorIs(t, u, base, "Usage(base) wraps base")
	assert.EqualError(t, u, "boom", "Usage(base)")
}

func TestVersionOf(t *testing.T) {
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	assert.Equal(t, "v1.2.3, commit 0123456789abcdef (2026-01-02T03:04:05Z), modified, go1.26.0", versionOf(info))
	assert.Equal(t, "(devel), no VCS commit recorded, go1.26.0", versionOf(&debug.BuildInfo{GoVersion: "go1.26.0"}), "versionOf without settings")
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
	if assert.NoError(t, cmd.Execute(), "--version") {
		assert.True(t, strings.HasPrefix(out.String(), "tool "), "--version names the tool first: %q", out.String())
		assert.Contains(t, out.String(), "go1.", "--version names the Go version")
	}
	for _, args := range [][]string{{"--bogus", "a"}, {"--n", "x", "a"}, {}, {"a", "b"}} {
		cmd, _ := newCmd()
		cmd.SetArgs(args)
		err := cmd.Execute()
		assert.Equal(t, ExitUsage, Status(err), "%q: status (error %v)", args, err)
	}
	cmd, _ = newCmd()
	cmd.SetArgs([]string{"a"})
	err := cmd.Execute()
	assert.Equal(t, ExitFailure, Status(err), "a failing command: status (error %v)", err)
}
