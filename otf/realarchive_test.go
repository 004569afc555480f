package otf

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/trace"
)

// realArchives returns the anchor files of every real archive the
// repository ships: testdata/scorep-pingpong and each directory of
// testdata/otf2 that holds one.
func realArchives(t testing.TB) []string {
	t.Helper()
	out := []string{filepath.Join(realTrace, "traces.otf2")}
	dirs, err := filepath.Glob("../testdata/otf2/*")
	require.NoError(t, err)
	for _, d := range dirs {
		m, _ := filepath.Glob(filepath.Join(d, "*.otf2"))
		if len(m) == 1 {
			out = append(out, m[0])
		}
	}
	require.GreaterOrEqual(t, len(out), 5, "the real archives of testdata")
	return out
}

// printed is otf2-print's view of an archive: its output lines and its
// warnings (stderr).
type printed struct {
	lines    []string
	warnings []string
	ok       bool // exit status 0
}

// printAll runs `otf2-print -A -M -C` (anchor, global definitions, mapping
// tables, clock offsets and every event) on an anchor file.
func printAll(t testing.TB, anchor string, extra ...string) printed {
	t.Helper()
	cmd := exec.Command(otf2PrintPath(t), append(append([]string{"-A", "-M", "-C"}, extra...), anchor)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	p := printed{ok: err == nil}
	for _, l := range strings.Split(out.String(), "\n") {
		p.lines = append(p.lines, strings.TrimRight(l, " "))
	}
	for _, l := range strings.Split(strings.TrimSpace(errb.String()), "\n") {
		if l != "" {
			p.warnings = append(p.warnings, l)
		}
	}
	return p
}

var (
	eventCountRE = regexp.MustCompile(`^LOCATION +(\d+) .*# Events: (\d+),`)
	eventLineRE  = regexp.MustCompile(`^[A-Z0-9_]+ +(\d+) +\d+( |$)`)
)

// normalised drops from otf2-print's output what a rewrite changes on
// purpose: CLOCK_OFFSET lines (the offsets are folded into the times),
// CLOCK_PROPERTIES (the new time range), the anchor's location count and
// the Location definitions' event counts (written as the files hold them).
// It returns the other lines, and per location the event count its
// definition announces and the number of events printed for it.
func (p printed) normalised() (lines []string, announced, counted map[string]int) {
	announced, counted = map[string]int{}, map[string]int{}
	inEvents := false
	for _, l := range p.lines {
		switch {
		case strings.HasPrefix(l, "=== Events"):
			inEvents = true
		case strings.HasPrefix(l, "CLOCK_OFFSET"), strings.HasPrefix(l, "CLOCK_PROPERTIES"),
			strings.HasPrefix(l, "Number of locations"):
			continue
		}
		if m := eventCountRE.FindStringSubmatch(l); m != nil && !inEvents {
			n, _ := strconv.Atoi(m[2])
			announced[m[1]] = n
			l = strings.Replace(l, "# Events: "+m[2]+",", "# Events: *,", 1)
		}
		if m := eventLineRE.FindStringSubmatch(l); m != nil && inEvents {
			counted[m[1]]++
		}
		lines = append(lines, l)
	}
	return lines, announced, counted
}

// rewriteUnmoved reads an archive, pre-synchronises it (folds its clock
// offsets into the times, exactly as the reference reader applies them) and
// rewrites it without moving anything else.
func rewriteUnmoved(t testing.TB, anchor string) (*Archive, *trace.Trace, string) {
	t.Helper()
	a, err := Open(anchor)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	require.NoError(t, tr.Validate())
	_, err = presync.Apply(tr, nil)
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, a.Rewrite(out, tr, nil))
	return a, tr, filepath.Join(out, "traces.otf2")
}

// Every real archive is read, rewritten with its times pre-synchronised
// (nothing moved), and the reference reader sees the same archive: the same
// anchor, definitions, mapping tables and events (clock records aside, and
// Location event counts as the files hold them), the same warnings, and
// `otf2-print -Werror` accepts the output whenever it accepts the input.
func TestRealArchivesRoundTrip(t *testing.T) {
	for _, anchor := range realArchives(t) {
		t.Run(filepath.Base(filepath.Dir(anchor)), func(t *testing.T) {
			in := printAll(t, anchor)
			require.True(t, in.ok, "otf2-print rejects the input: %v", in.warnings)
			_, tr, out := rewriteUnmoved(t, anchor)
			got := printAll(t, out)
			require.True(t, got.ok, "otf2-print rejects the output: %v", got.warnings)
			if checkWerror(t, anchor) {
				assert.True(t, checkWerror(t, out), "otf2-print -Werror accepts the input, not the output")
			}
			assert.Equal(t, in.warnings, got.warnings, "otf2-print's warnings")

			wantLines, _, inCounted := in.normalised()
			gotLines, gotAnnounced, gotCounted := got.normalised()
			assert.Equal(t, wantLines, gotLines)
			assert.Equal(t, inCounted, gotCounted)
			// Our Location definitions announce what the files hold.
			assert.Equal(t, gotCounted, withZeros(gotAnnounced, gotCounted))
			var n int
			for _, c := range inCounted {
				n += c
			}
			assert.Equal(t, int64(n), tr.NumEvents(), "events read, against otf2-print's count")
		})
	}
}

// withZeros returns announced without the locations that announce no
// events and print none (otf2-print prints no line for them).
func withZeros(announced, counted map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range announced {
		if v != 0 || counted[k] != 0 {
			out[k] = v
		}
	}
	return out
}

// checkWerror reports whether `otf2-print --silent -Werror` accepts an
// archive.
func checkWerror(t testing.TB, anchor string) bool {
	t.Helper()
	return exec.Command(otf2PrintPath(t), "--silent", "-Werror", anchor).Run() == nil
}

// The reference reader reads an event file to its end whatever its Location
// definition announces (an APEX archive announced 79 events per location
// for files of 0, 7,734 and 8,390 events): so does Read, with a warning,
// and the rewrite announces the true counts.
func TestAnnouncedCountsAreHints(t *testing.T) {
	src := filepath.Join(realTrace, "traces.otf2")
	for _, announce := range []uint64{79, 0, 1 << 40} {
		dir := copyArchive(t)
		patchLocationCounts(t, filepath.Join(dir, "traces.def"), announce)
		in := printAll(t, filepath.Join(dir, "traces.otf2"))
		require.True(t, in.ok)
		a, tr, out := rewriteUnmoved(t, filepath.Join(dir, "traces.otf2"))
		for _, l := range tr.Locations {
			assert.Equal(t, 60, l.Events.Len())
		}
		assert.Len(t, a.Warnings(), 2)
		got := printAll(t, out)
		require.True(t, got.ok, "%v", got.warnings)
		assert.True(t, checkWerror(t, out))
		want, _, _ := printAll(t, src).normalised()
		lines, announced, counted := got.normalised()
		assert.Equal(t, want, lines)
		assert.Equal(t, map[string]int{"0": 60, "1": 60}, announced)
		assert.Equal(t, counted, announced)
	}
}

// patchLocationCounts sets the numberOfEvents of every Location definition
// of a little-endian global definition file (rewriting its records, so
// their lengths may change).
func patchLocationCounts(t testing.TB, path string, n uint64) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	g, err := readGlobalDefs("traces.def", f, MinChunkSize, &warnings{})
	require.NoError(t, err)
	var b bytes.Buffer
	cw := newChunkWriter("traces.def", &b, MinChunkSize, false, false, nil)
	for _, r := range g.records {
		p := r.payload
		if r.typ == defLocation {
			p = locationPayload(p, false, n)
		}
		require.NoError(t, cw.def(r.typ, p))
	}
	require.NoError(t, cw.close())
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
}

// Collectives on communicators whose group is of type COMM_SELF (Score-P
// 2.0 as SST/macro recorded it: MPI_COMM_SELF and the one-rank results of
// MPI_Comm_split) are read as collectives of a one-member communicator of
// their own location, and none is lost: the model has as many as
// otf2-print shows on those communicators, per location, and the rewrite
// keeps them (TestRealArchivesRoundTrip compares every event).
func TestCommSelfCollectives(t *testing.T) {
	anchor := "../testdata/otf2/sst-macro-scorep2/traces.otf2"
	// The oracle: otf2-print's COMM_SELF groups, the communicators on them,
	// and the collectives printed on those communicators.
	p := printAll(t, anchor)
	selfGroups, selfComms := map[string]bool{}, map[string]bool{}
	groupRE := regexp.MustCompile(`^GROUP +(\d+) .*Type: COMM_SELF`)
	commRE := regexp.MustCompile(`^COMM +(\d+) .*Group: "[^"]*" <(\d+)>`)
	endRE := regexp.MustCompile(`^MPI_COLLECTIVE_END +(\d+) .*Communicator: "[^"]*" <(\d+)>`)
	want := map[string]int{}
	total := 0
	for _, l := range p.lines {
		if m := groupRE.FindStringSubmatch(l); m != nil {
			selfGroups[m[1]] = true
		}
		if m := commRE.FindStringSubmatch(l); m != nil && selfGroups[m[2]] {
			selfComms[m[1]] = true
		}
		if m := endRE.FindStringSubmatch(l); m != nil && selfComms[m[2]] {
			want[m[1]]++
			total++
		}
	}
	require.Equal(t, 480, total, "collectives on COMM_SELF communicators in the archive")

	a, err := Open(anchor)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	got := map[string]int{}
	for li, l := range tr.Locations {
		for i, k := range l.Events.Kind {
			if k != trace.KindCollEnd {
				continue
			}
			c := tr.Comms[l.Events.Coll(i).Comm]
			if len(c.Members) == 1 {
				require.Equal(t, []int32{int32(li)}, c.Members, "a COMM_SELF copy belongs to its location")
				got[strconv.FormatUint(l.ID, 10)]++
			}
		}
	}
	assert.Equal(t, want, got)
}
