// Package cli holds what clc's commands share on their command line: the
// exit statuses, usage errors, and --version.
package cli

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Exit statuses of clc-correct, clc-sim and clc-trace (a command may add
// its own above these, documented with it).
const (
	ExitOK      = 0
	ExitFailure = 1 // the command could not do what was asked
	ExitUsage   = 2 // the command line is wrong: nothing was done
)

// UsageError is an error in the command line.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usage marks err as a usage error (nil stays nil).
func Usage(err error) error {
	if err == nil {
		return nil
	}
	var u *UsageError
	if errors.As(err, &u) {
		return err
	}
	return &UsageError{err}
}

// Usagef is a usage error with a message.
func Usagef(format string, args ...any) error { return &UsageError{fmt.Errorf(format, args...)} }

// Status is the exit status for err: ExitOK for nil, ExitUsage for a usage
// error, else ExitFailure.
func Status(err error) int {
	var u *UsageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &u):
		return ExitUsage
	}
	return ExitFailure
}

// Version describes the build of the running command: the module's
// version (or "(devel)" for a build from a source tree), the VCS commit
// and its time, whether the tree was modified, and the Go version.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	s := map[string]string{}
	for _, kv := range info.Settings {
		s[kv.Key] = kv.Value
	}
	var parts []string
	if rev := s["vcs.revision"]; rev != "" {
		c := "commit " + rev
		if t := s["vcs.time"]; t != "" {
			c += " (" + t + ")"
		}
		if s["vcs.modified"] == "true" {
			c += ", modified"
		}
		parts = append(parts, c)
	} else {
		parts = append(parts, "no VCS commit recorded")
	}
	parts = append(parts, info.GoVersion)
	return v + ", " + strings.Join(parts, ", ")
}

// Setup gives cmd --version and makes cobra's own command-line errors
// (unknown flags, bad flag values, wrong numbers of arguments) usage
// errors.
func Setup(cmd *cobra.Command) {
	cmd.Version = Version()
	cmd.SetVersionTemplate("{{.Name}} {{.Version}}\n")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return Usage(err) })
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error { return Usage(args(c, a)) }
	}
}
