package otf

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
)

// readCarrying reads an archive; the trace carries its definitions.
func readCarrying(t *testing.T, anchor string) *trace.Trace {
	t.Helper()
	a, err := Open(anchor)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	require.NotNil(t, tr.Carried)
	return tr
}

// requireNoOutput checks that a failed write left nothing behind.
func requireNoOutput(t *testing.T, dir string) {
	t.Helper()
	_, err := os.Stat(dir)
	require.ErrorIs(t, err, os.ErrNotExist, "a failed write leaves nothing")
}

// A trace whose definitions no longer match the OTF2 definitions it
// carries is refused with the difference named (the events could not be
// written in the source's ids), before anything is written.
func TestCarriedMismatch(t *testing.T) {
	for name, tc := range map[string]struct {
		change func(tr *trace.Trace)
		want   string
	}{
		"region renamed":    {func(tr *trace.Trace) { tr.Regions[3].Name = "renamed" }, `region 3's name is "renamed" in the trace`},
		"region added":      {func(tr *trace.Trace) { tr.Regions = append(tr.Regions, trace.Region{Name: "new"}) }, "the number of regions"},
		"role changed":      {func(tr *trace.Trace) { tr.Regions[0].Role++ }, "region 0's role and paradigm"},
		"members changed":   {func(tr *trace.Trace) { tr.Comms[0].Members = []int32{1, 0} }, "communicator 0"},
		"location id":       {func(tr *trace.Trace) { tr.Locations[1].ID = 7 }, "location 1"},
		"location dropped":  {func(tr *trace.Trace) { tr.Locations = tr.Locations[:1] }, "unexpected part"},
		"node renamed":      {func(tr *trace.Trace) { tr.Nodes[0].Name = "elsewhere" }, "node 0's name"},
		"resolution":        {func(tr *trace.Trace) { tr.Resolution = 1e9 }, "the timer resolution"},
		"process renamed":   {func(tr *trace.Trace) { tr.Processes[1].Name = "p" }, "process 1's name"},
		"kind changed":      {func(tr *trace.Trace) { tr.Locations[0].Kind = trace.LocationMetric }, "location 0"},
		"communicator name": {func(tr *trace.Trace) { tr.Comms[1].Name = "c" }, "communicator 1's name"},
	} {
		t.Run(name, func(t *testing.T) {
			tr := readCarrying(t, filepath.Join(realTrace, "traces.otf2"))
			tc.change(tr)
			out := filepath.Join(t.TempDir(), "out")
			err := WriteTrace(context.Background(), out, tr, nil)
			require.ErrorContains(t, err, tc.want)
			if name != "location dropped" { // its local definitions are refused first
				require.ErrorContains(t, err, "does not match the OTF2 definitions it carries")
				require.ErrorContains(t, err, filepath.Join(realTrace, "traces.def"))
			}
			requireNoOutput(t, out)
		})
	}
	// Names the native format cannot hold (invalid UTF-8, stored as U+FFFD)
	// still match.
	tr := readCarrying(t, filepath.Join(realTrace, "traces.otf2"))
	assert.Equal(t, "a\uFFFD\uFFFDb\uFFFD", validUTF8("a\xff\xfeb\xc3"))
	assert.Equal(t, "ok \uFFFD", validUTF8("ok \uFFFD"))
	tr.Regions[3].Name = validUTF8(tr.Regions[3].Name)
	require.NoError(t, WriteTrace(context.Background(), filepath.Join(t.TempDir(), "out"), tr, nil))
}

// Events the source's ids cannot express are refused with their location
// and event: a region beyond the definitions, another location's copy of a
// COMM_SELF communicator.
func TestCarriedBadEvents(t *testing.T) {
	tr := readCarrying(t, "../testdata/otf2/sst-macro-scorep2/traces.otf2")
	// Location 0's first collective end on a COMM_SELF copy: move it to
	// location 1's copy (one member each, so the model stays valid).
	l := tr.Locations[0]
	found := false
	for i, k := range l.Events.Kind {
		if k == trace.KindCollEnd && len(tr.Comms[l.Events.Coll(i).Comm].Members) == 1 {
			c := l.Events.Coll(i)
			c.Comm++
			require.Equal(t, []int32{1}, tr.Comms[c.Comm].Members)
			found = true
			break
		}
	}
	require.True(t, found)
	err := WriteTrace(context.Background(), filepath.Join(t.TempDir(), "out"), tr, nil)
	var ee *trace.EventError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 0, ee.Location)
	require.ErrorContains(t, err, "location 1's copy of COMM_SELF communicator")

	tr = readCarrying(t, filepath.Join(realTrace, "traces.otf2"))
	for i, k := range tr.Locations[1].Events.Kind {
		if k == trace.KindEnter {
			tr.Locations[1].Events.Ref[i] = uint32(len(tr.Regions))
			break
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	err = WriteTrace(context.Background(), out, tr, nil)
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 1, ee.Location)
	require.ErrorContains(t, err, "out of range")
	requireNoOutput(t, out)
}

// carriedParts returns the parts an archive's trace carries.
func carriedParts(t *testing.T, anchor string) []trace.Part {
	t.Helper()
	parts, err := readCarrying(t, anchor).Carried.Parts()
	require.NoError(t, err)
	return parts
}

// withParts returns tr carrying parts (copies).
func withParts(tr *trace.Trace, parts []trace.Part) *trace.Trace {
	c := *tr
	cp := make([]trace.Part, len(parts))
	for i, p := range parts {
		cp[i] = p
		cp[i].Data = append([]byte(nil), p.Data...)
	}
	c.Carried = &trace.CarriedParts{Fmt: trace.FormatOTF2, List: cp}
	return &c
}

// Carried parts that are missing, repeated, unknown or not OTF2 are
// refused with the part's source named.
func TestCarriedBadParts(t *testing.T) {
	anchor := filepath.Join(realTrace, "traces.otf2")
	tr := readCarrying(t, anchor)
	parts := carriedParts(t, anchor)
	require.Len(t, parts, 4)
	require.Equal(t, filepath.Join(realTrace, "traces.otf2"), parts[0].Source)
	edit := func(f func(p []trace.Part) []trace.Part) []trace.Part {
		p := append([]trace.Part(nil), parts...)
		return f(p)
	}
	for name, tc := range map[string]struct {
		parts []trace.Part
		want  string
	}{
		"no anchor":       {edit(func(p []trace.Part) []trace.Part { return p[1:] }), "without an anchor or global definitions"},
		"anchor twice":    {edit(func(p []trace.Part) []trace.Part { return append(p, p[0]) }), `unexpected part "anchor" of location -1`},
		"unknown name":    {edit(func(p []trace.Part) []trace.Part { p[2].Name = "x"; return p }), `unexpected part "x" of location 0`},
		"location beyond": {edit(func(p []trace.Part) []trace.Part { p[3].Location = 2; return p }), `unexpected part "definitions" of location 2`},
		"anchor garbage": {edit(func(p []trace.Part) []trace.Part { p[0].Data = []byte("garbage"); return p }),
			"carried OTF2 data from " + parts[0].Source + " (with the global definitions from " + parts[1].Source + "): otf2: traces.otf2: byte offset 0"},
		"definitions cut": {edit(func(p []trace.Part) []trace.Part { p[1].Data = p[1].Data[:len(p[1].Data)/2]; return p }),
			"carried OTF2 data from " + parts[1].Source + ": otf2: traces.def: byte offset"},
		"local definitions garbage": {edit(func(p []trace.Part) []trace.Part { p[3].Data = []byte{1, 2, 3, 4, 5}; return p }),
			"carried OTF2 data from " + parts[3].Source + ": otf2: traces/1.def"},
	} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			err := WriteTrace(context.Background(), out, withParts(tr, tc.parts), nil)
			require.ErrorContains(t, err, tc.want)
			requireNoOutput(t, out)
		})
	}
	// The archive changed after it was opened: its carried data is refused.
	dir := copyArchive(t)
	a, err := Open(dir)
	require.NoError(t, err)
	tr, err = a.Read(context.Background(), nil)
	require.NoError(t, err)
	def := filepath.Join(dir, "traces.def")
	b, err := os.ReadFile(def)
	require.NoError(t, err)
	b[200] ^= 0x20
	require.NoError(t, os.WriteFile(def, b, 0o644))
	require.ErrorContains(t, WriteTrace(context.Background(), filepath.Join(t.TempDir(), "out"), tr, nil), "changed since the archive was opened")
	require.NoError(t, os.Remove(def))
	_, err = a.Carried().Parts()
	require.ErrorIs(t, err, os.ErrNotExist)
}

// Damaged carried data, one byte at a time: writing the trace either fails
// with an error naming the carried part (or the event or definition that
// no longer fits), or gives an archive that our reader and otf2-print read
// completely. Never a panic. By default: in the definition parts, the chunk
// header, END_OF_FILE and the first record of each record type (its type
// and first length byte, its first, middle and last byte); in the anchor,
// every fifth of the bytes TestMutations changes; otf2-print reads the
// first output of each part and record type (in the anchor, of each 16
// bytes: mutationGroup). With CLC_TEST_FULL=1 also every third byte of the
// anchor, every second of the local definitions and every 101st of the
// global definitions, and otf2-print reads every output.
// CLC_CARRIED_MUTATION_FULL=1 takes every byte of every part with two masks
// (0xff and 0x01).
func TestCarriedMutations(t *testing.T) {
	printer := otf2PrintPath(t)
	anchor := filepath.Join(realTrace, "traces.otf2")
	tr := readCarrying(t, anchor)
	parts := carriedParts(t, anchor)
	every := os.Getenv("CLC_CARRIED_MUTATION_FULL") == "1"
	steps, masks := map[string]int{"anchor": 3, "local": 2, "global": 101}, []byte{0xff}
	if every {
		steps, masks = map[string]int{"anchor": 1, "local": 1, "global": 1}, []byte{0xff, 0x01}
	}
	full := every || testenv.Full()
	var refused, written, printed int
	printedGroups := map[string]bool{}
	for pi, p := range parts {
		kind := "local"
		if p.Location < 0 {
			kind = map[string]string{PartAnchor: "anchor", PartDefinitions: "global"}[p.Name]
		}
		offsets := map[int]bool{}
		var spans []recordSpan
		if kind == "anchor" {
			for k, off := range anchorPositions(p.Data) {
				offsets[off] = offsets[off] || k%5 == 0
			}
		} else {
			seen := map[string]bool{}
			spans = recordSpans(t, p.Source, p.Data, MinChunkSize, false)
			for _, sp := range spans {
				if !seen[sp.kind] {
					seen[sp.kind] = true
					for _, off := range []int{sp.start, sp.start + 1, (sp.start + sp.end) / 2, sp.end - 1} {
						offsets[off] = true
					}
				}
			}
		}
		for off := range p.Data {
			if !offsets[off] && !(full && off%steps[kind] == 0) {
				continue
			}
			for _, mask := range masks {
				mutated := append([]trace.Part(nil), parts...)
				mutated[pi].Data = append([]byte(nil), p.Data...)
				mutated[pi].Data[off] ^= mask
				out := filepath.Join(t.TempDir(), "out")
				err := WriteTrace(context.Background(), out, withParts(tr, mutated), nil)
				if err != nil {
					var ee *trace.EventError
					named := strings.Contains(err.Error(), p.Source) || strings.Contains(err.Error(), "does not match the OTF2 definitions") || errors.As(err, &ee)
					require.True(t, named, "part %d byte %d mask %#x: the error does not name the part: %v", pi, off, mask, err)
					refused++
					continue
				}
				written++
				require.NoError(t, readAll(out), "part %d (%s) byte %d mask %#x: written, but our reader fails", pi, p.Source, off, mask)
				group := fmt.Sprint(pi, " ", mutationGroup(mutation{p.Source, off, mask}, spans))
				if full || !printedGroups[group] {
					printedGroups[group] = true
					printed++
					b, err := exec.Command(printer, "-A", "-M", "-C", filepath.Join(out, "traces.otf2")).CombinedOutput()
					require.NoError(t, err, "part %d (%s) byte %d mask %#x: written, but otf2-print fails:\n%s", pi, p.Source, off, mask, lastLines(string(b), 5))
				}
				require.NoError(t, os.RemoveAll(out))
			}
		}
	}
	t.Logf("%d mutations refused with their place, %d written and read back, %d of them by otf2-print", refused, written, printed)
	require.Positive(t, refused)
	require.Positive(t, written)
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}
