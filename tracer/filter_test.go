package tracer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseFilter reads Score-P's filter syntax: rules in order, patterns
// continuing on the next lines, MANGLED, comments, escapes; and refuses
// what it cannot honour, naming the file and line.
func TestParseFilter(t *testing.T) {
	src := `# Score-P filter
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *
  INCLUDE bar foo   # two patterns
          baz
          main
  EXCLUDE MANGLED _Z3fooi
  INCLUDE a\ b c\#d
SCOREP_REGION_NAMES_END
`
	f, err := ParseFilter("x.filt", strings.NewReader(src))
	require.NoError(t, err)
	want := Filter{{false, false, "*"}, {true, false, "bar"}, {true, false, "foo"}, {true, false, "baz"}, {true, false, "main"},
		{false, true, "_Z3fooi"}, {true, false, `a\ b`}, {true, false, `c\#d`}}
	assert.Equal(t, want, f, "rules")
	assert.Equal(t, "E *\nI bar\nI foo\nI baz\nI main\nEM _Z3fooi\nI a\\ b\nI c\\#d\n", f.Spec(), "Spec")
	for _, c := range []struct{ src, want string }{
		{"SCOREP_FILE_NAMES_BEGIN\nEXCLUDE *\nSCOREP_FILE_NAMES_END\n", "x.filt:1: SCOREP_FILE_NAMES_BEGIN: source file rules are not supported"},
		{"SCOREP_REGION_NAMES_BEGIN\n  foo\nSCOREP_REGION_NAMES_END\n", `x.filt:2: pattern "foo" before INCLUDE or EXCLUDE`},
		{"SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo\n", "x.filt:2: SCOREP_REGION_NAMES_BEGIN without SCOREP_REGION_NAMES_END"},
		{"SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE\nSCOREP_REGION_NAMES_END\n", "x.filt:3: EXCLUDE without a pattern"},
		{"SCOREP_REGION_NAMES_BEGIN\n  INCLUDE MANGLED\n  EXCLUDE x\nSCOREP_REGION_NAMES_END\n", "x.filt:3: INCLUDE MANGLED without a pattern"},
		{"EXCLUDE foo\n", `x.filt:1: "EXCLUDE" outside SCOREP_REGION_NAMES_BEGIN`},
		{"SCOREP_REGION_NAMES_END\n", "x.filt:1: SCOREP_REGION_NAMES_END without SCOREP_REGION_NAMES_BEGIN"},
		{"SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo\\\n", "x.filt:2: a backslash ends the line"},
	} {
		_, err := ParseFilter("x.filt", strings.NewReader(c.src))
		assert.ErrorContains(t, err, c.want, "%q", c.src)
	}
	f, err = ParseFilter("empty", strings.NewReader("# nothing\n\n"))
	if assert.NoError(t, err, "an empty filter") {
		assert.Empty(t, f, "an empty filter")
	}
}
