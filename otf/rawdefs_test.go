package otf

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var camelRE = regexp.MustCompile(`([a-z0-9])([A-Z])`)

// printName turns a specification name (SystemTreeNode) into otf2-print's
// (SYSTEM_TREE_NODE).
func printName(s string) string {
	return strings.ToUpper(camelRE.ReplaceAllString(s, "${1}_$2"))
}

// definitionLines returns the record names of `otf2-print -G`, in order.
func definitionLines(t testing.TB, anchor string) []string {
	t.Helper()
	var names []string
	in := false
	for _, l := range printAll(t, anchor).lines {
		switch {
		case strings.HasPrefix(l, "=== Global Definitions"):
			in = true
		case strings.HasPrefix(l, "=== "):
			in = false
		case in && l != "" && !strings.HasPrefix(l, "Definition ") && !strings.HasPrefix(l, "---"):
			names = append(names, strings.Fields(l)[0])
		}
	}
	return names
}

// GlobalDefinitions gives every global definition record in the order the
// reference reader reads them, with the type the reference reader names.
func TestGlobalDefinitions(t *testing.T) {
	for _, anchor := range realArchives(t) {
		t.Run(filepath.Base(filepath.Dir(anchor)), func(t *testing.T) {
			a, err := Open(anchor)
			require.NoError(t, err)
			defs := a.GlobalDefinitions()
			var names []string
			interpreted := 0
			for i, d := range defs {
				require.Equal(t, i, d.Index)
				require.NotEmpty(t, d.Name, "definition %d type %d", i, d.Type)
				names = append(names, printName(d.Name))
				if d.Interpreted {
					interpreted++
				}
				assert.True(t, d.LittleEndian)
			}
			assert.Equal(t, definitionLines(t, anchor), names)
			assert.Equal(t, int(a.Anchor().NumGlobalDefs), len(defs))
			assert.Positive(t, interpreted)
		})
	}
}

// A big-endian copy of the global definitions of the real archives (every
// record swapped field by field after its layout) prints exactly as the
// original with the reference reader, and GlobalDefinitions returns the
// same little-endian payloads for both: the layouts of every definition
// type these archives hold agree with OTF2's byte swapping.
func TestGlobalDefinitionsBigEndian(t *testing.T) {
	for _, src := range []string{"../testdata/otf2/fastotf2-mi300-hip", "../testdata/otf2/sst-macro-scorep2", realTracePAPI} {
		t.Run(filepath.Base(src), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "be")
			require.NoError(t, os.CopyFS(dir, os.DirFS(src)))
			a, err := Open(dir)
			require.NoError(t, err)
			var b bytes.Buffer
			cw := newChunkWriter("traces.def", &b, int(a.Anchor().DefChunkSize), true, false, nil)
			for _, r := range a.defs.records {
				p, ok := swapLayout(globalDefLayouts[r.typ], r.payload, true)
				require.True(t, ok, "definition type %d", r.typ)
				require.NoError(t, cw.def(r.typ, p))
			}
			require.NoError(t, cw.close())
			require.NoError(t, os.WriteFile(filepath.Join(dir, "traces.def"), b.Bytes(), 0o644))

			want := printAll(t, filepath.Join(src, "traces.otf2"), "-G")
			got := printAll(t, filepath.Join(dir, "traces.otf2"), "-G")
			require.True(t, got.ok, "%v", got.warnings)
			assert.Equal(t, want.lines, got.lines)

			bb, err := Open(dir)
			require.NoError(t, err)
			assert.Equal(t, a.GlobalDefinitions(), clearOffsets(bb.GlobalDefinitions(), a.GlobalDefinitions()))
		})
	}
}

// clearOffsets returns got with the offsets of want (the copies' records
// lie at other offsets: a rewritten file).
func clearOffsets(got, want []DefRecord) []DefRecord {
	for i := range got {
		if i < len(want) {
			got[i].Offset = want[i].Offset
		}
	}
	return got
}
