package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's first two commands are the ones a newcomer types: the
// correction of the trace in testdata/ runs as written (its -o moved to a
// temporary directory) and prints the report, and the second is the test
// command. The recording command says, where it stands, what Open MPI's
// mpirun needs as root and on a small machine (it refused without them).
func TestReadmeCommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	block := regexp.MustCompile("(?s)```sh\n(.*?)```").FindSubmatch(readme)
	require.NotNil(t, block, "README: the first sh block")
	var cmds [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(block[1])), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		cmds = append(cmds, strings.Fields(cmd))
	}
	require.Len(t, cmds, 2, "README: two commands first")
	assert.Equal(t, []string{"go", "test", "./..."}, cmds[1], "README: the test command")
	c := cmds[0]
	require.Greater(t, len(c), 3, "README: the first command")
	require.Equal(t, []string{"go", "run", "./cmd/clc-correct"}, c[:3], "README: the first command runs clc-correct")
	args := c[3:]
	for i, a := range args {
		switch {
		case i > 0 && args[i-1] == "-o":
			args[i] = filepath.Join(t.TempDir(), "fixed")
		case strings.HasPrefix(a, "testdata/"):
			args[i] = filepath.Join("../..", a)
			assert.DirExists(t, args[i], "README: the input of the first command")
		}
	}
	code, out, msg := runOut(args...)
	require.Equal(t, exitOK, code, "README's first command: %s", msg)
	assert.Contains(t, out, "events moved", "README's first command prints the report")

	text := string(readme)
	rec := strings.Index(text, "mpirun -np 64 clc-trace")
	require.GreaterOrEqual(t, rec, 0, "README: the recording command")
	near := text[rec:min(len(text), rec+1200)]
	assert.Contains(t, near, "--allow-run-as-root", "README: what Open MPI needs as root, next to the recording command")
	assert.Contains(t, near, "--oversubscribe", "README: what Open MPI needs for more ranks than cores, next to the recording command")
}
