package otf

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// needTool skips the test when an external tool is missing, except under
// CI=true, where a missing tool fails the test.
func needTool(t testing.TB, path string) string {
	t.Helper()
	p, err := exec.LookPath(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required under CI=true but not found: %v", path, err)
		}
		t.Skipf("%s not found (install otf2-tools / python3-otf2): %v", path, err)
	}
	return p
}

// needPythonOTF2 returns the interpreter that has the otf2 module.
func needPythonOTF2(t testing.TB) string {
	t.Helper()
	py := needTool(t, "/usr/bin/python3")
	if out, err := exec.Command(py, "-c", "import otf2").CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("python3-otf2 is required under CI=true: %v: %s", err, out)
		}
		t.Skipf("python3-otf2 not installed: %v", err)
	}
	return py
}

// otf2Print runs otf2-print on an anchor file and returns its output.
func otf2Print(t testing.TB, anchor string, args ...string) string {
	t.Helper()
	p := needTool(t, "otf2-print")
	cmd := exec.Command(p, append(args, anchor)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("otf2-print %v %s: %v\n%s%s", args, anchor, err, errb.String(), out.String())
	}
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
	p := needTool(t, "otf2-print")
	if out, err := exec.Command(p, "--silent", "-Werror", anchor).CombinedOutput(); err != nil {
		t.Fatalf("otf2-print --silent -Werror %s: %v\n%s", anchor, err, out)
	}
}
