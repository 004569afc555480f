package otf

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/stretchr/testify/require"
)

// otf2PrintPath returns the path of the reference library's otf2-print; a
// test that needs it skips where it is missing, and fails under CI=true.
func otf2PrintPath(t testing.TB) string {
	t.Helper()
	return testenv.Tool(t, "otf2-print", "otf2-tools")
}

// otf2Print runs otf2-print on an anchor file and returns its output.
func otf2Print(t testing.TB, anchor string, args ...string) string {
	t.Helper()
	p := otf2PrintPath(t)
	cmd := exec.Command(p, append(args, anchor)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Run(), "otf2-print %v %s\n%s%s", args, anchor, errb.String(), out.String())
	return out.String()
}

// eventLines returns the event lines of otf2-print's output (everything
// after the events header), with trailing spaces removed.
func eventLines(out string) []string {
	var lines []string
	in := false
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "=== Events") {
			in = true
			continue
		}
		if !in || strings.HasPrefix(l, "Event ") || strings.HasPrefix(l, "-----") || strings.TrimSpace(l) == "" {
			continue
		}
		if strings.HasPrefix(l, "===") {
			break
		}
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return lines
}

// checkOTF2 runs `otf2-print --silent -Werror` on an anchor file.
func checkOTF2(t testing.TB, anchor string) {
	t.Helper()
	p := otf2PrintPath(t)
	out, err := exec.Command(p, "--silent", "-Werror", anchor).CombinedOutput()
	require.NoError(t, err, "otf2-print --silent -Werror %s\n%s", anchor, out)
}
