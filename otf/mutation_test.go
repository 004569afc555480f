package otf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/presync"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The mutation test: single-byte changes and truncations of a small real
// archive (testdata/scorep-pingpong: anchor, global definitions, two local
// definition files, two event files) go through what clc-correct does with
// an archive (Open, Read, Validate, presync.Apply, Rewrite), and each must
// end in one of two ways:
//
//   - an error that names its place: a FormatError naming a file of the
//     archive and a byte offset, or an error naming a location (and event);
//   - an output that the reference reader accepts: otf2-print reads all of
//     it (exit 0) and so does our reader.
//
// Never a panic, never a hang (each case is bounded by mutationTimeout),
// never an output otf2-print rejects. Byte-identical outputs are checked
// once; our reader reads every distinct output, otf2-print the ones the
// mode says.
//
// The whole sweep is every byte with two flips (XOR 0xFF and XOR 0x01) and
// every truncation length of every file: 36,495 cases, of which about
// 15,000 are accepted, each an otf2-print run (~0.05 s). Three modes:
//
//   - By default, a deterministic subset of about 1,100 cases: the
//     structural rule (one flip, alternating XOR 0xFF and 0x01, of every
//     byte of the anchor's fixed fields, of its string terminators and of
//     two bytes inside each string, with a truncation there; one flip of
//     every byte of the first record of each record type in each definition
//     and event file, of its chunk header and END_OF_FILE, both flips of
//     their type and first length byte, and truncations at such a record's
//     start, after its first two bytes, in its middle, before its last byte
//     and at its end), and mutationCover (mutation_cover_test.go): for
//     every outcome of the whole sweep the rule does not reach, its first
//     case. An outcome is the mutated file and the error's message with its
//     numbers, quoted names and record names taken out (or "accepted").
//     otf2-print reads the first distinct output of each group
//     (mutationGroup: file, record type or 16 bytes of the anchor, flip or
//     cut).
//   - CLC_TEST_FULL=1 (as .ci/run sets it): every case on our side (place,
//     panic, hang, our reader on every distinct accepted output), otf2-print
//     on the default subset's outputs and on every twentieth case's (each
//     distinct output once; the sweep runs in parts at once), and the
//     check that the default subset reaches every outcome
//     of the sweep (with CLC_MUTATION_COVER=FILE it writes the cover anew
//     instead: CLC_TEST_FULL=1 CLC_MUTATION_COVER=mutation_cover_test.go
//     go test ./otf -run TestMutations).
//   - CLC_MUTATION_FULL=1: every case, otf2-print on every distinct output
//     (go test ./otf -run TestMutations -timeout 3h; CLC_MUTATION_FILES=
//     traces.def,traces/0.evt limits it to some files).
//
// otf2-print runs two at a time, beside the cases.

const mutationTimeout = 20 * time.Second

type mutation struct {
	file string // relative to the archive
	pos  int
	xor  byte // 0: truncate the file to pos bytes
}

func (m mutation) String() string {
	if m.xor == 0 {
		return fmt.Sprintf("%s cut to %d bytes", m.file, m.pos)
	}
	return fmt.Sprintf("%s byte %d ^ 0x%02x", m.file, m.pos, m.xor)
}

var mutationFiles = []string{"traces.otf2", "traces.def", "traces/0.def", "traces/1.def", "traces/0.evt", "traces/1.evt"}

// mutatedFiles returns the files the sweep changes (CLC_MUTATION_FILES, or
// all).
func mutatedFiles() []string {
	if only := os.Getenv("CLC_MUTATION_FILES"); only != "" {
		return strings.Split(only, ",")
	}
	return mutationFiles
}

// recordSpans returns the byte ranges [start, end) of the records of a
// buffer file (chunk headers and END_OF_FILE included), with their kind:
// "header", "eof" or the record type.
type recordSpan struct {
	start, end int
	kind       string
}

func recordSpans(t testing.TB, name string, b []byte, chunkSize int, events bool) []recordSpan {
	t.Helper()
	s := newScanner(newChunkReader(name, bytes.NewReader(b), chunkSize, nil), events)
	var spans []recordSpan
	var rec record
	for {
		err := s.next(&rec)
		if err != nil {
			break
		}
		end := int(rec.poff) + len(rec.payload)
		spans = append(spans, recordSpan{int(rec.off), end, fmt.Sprint(rec.typ)})
	}
	spans = append(spans, recordSpan{0, chunkHeaderLen, "header"}, recordSpan{len(b) - 2, len(b), "eof"})
	return spans
}

// allMutations returns every case of the whole sweep, file by file and
// byte by byte (XOR 0xFF, XOR 0x01, cut there).
func allMutations(t testing.TB, base string) []mutation {
	t.Helper()
	var cases []mutation
	for _, f := range mutatedFiles() {
		b := readFile(t, filepath.Join(base, f))
		for i := range b {
			cases = append(cases, mutation{f, i, 0xFF}, mutation{f, i, 0x01}, mutation{f, i, 0})
		}
	}
	return cases
}

// structuralMutations returns the cases of the default subset's structural
// rule.
func structuralMutations(t testing.TB, base string) []mutation {
	t.Helper()
	var cases []mutation
	for _, f := range mutatedFiles() {
		b := readFile(t, filepath.Join(base, f))
		flip := func(i int) mutation {
			if i%2 == 0 {
				return mutation{f, i, 0xFF}
			}
			return mutation{f, i, 0x01}
		}
		if f == "traces.otf2" {
			for _, i := range anchorPositions(b) {
				cases = append(cases, flip(i), mutation{f, i, 0})
			}
			continue
		}
		seen := map[string]bool{}
		for _, sp := range recordSpans(t, f, b, MinChunkSize, strings.HasSuffix(f, ".evt")) {
			if seen[sp.kind] {
				continue
			}
			seen[sp.kind] = true
			for i := sp.start; i < sp.end; i++ {
				cases = append(cases, flip(i))
			}
			for _, i := range []int{sp.start, sp.start + 1} {
				cases = append(cases, mutation{f, i, 0xFF}, mutation{f, i, 0x01})
			}
			for _, i := range []int{sp.start, sp.start + 1, sp.start + 2, (sp.start + sp.end) / 2, sp.end - 1, sp.end} {
				if i < len(b) {
					cases = append(cases, mutation{f, i, 0})
				}
			}
		}
	}
	return dedupeMutations(cases)
}

// defaultMutations returns the default subset: the structural rule and
// mutationCover (of the mutated files).
func defaultMutations(t testing.TB, base string) []mutation {
	t.Helper()
	cases := structuralMutations(t, base)
	for _, c := range mutationCover {
		if slices.Contains(mutatedFiles(), c.file) {
			cases = append(cases, c)
		}
	}
	return dedupeMutations(cases)
}

// anchorPositions returns the anchor bytes the default subset changes:
// every byte but the inside of the strings, of which it keeps one (the
// middle) per string.
func anchorPositions(b []byte) []int {
	printable := func(i int) bool { return i >= 0 && i < len(b) && b[i] >= 0x20 && b[i] < 0x7f }
	var out []int
	for i := 0; i < len(b); i++ {
		if i < anchorNumGlobalDefsOff+8 || !printable(i) || !printable(i-1) || !printable(i+1) {
			out = append(out, i)
			continue
		}
		j := i
		for printable(j + 1) {
			j++
		}
		out = append(out, (i+j)/2, j)
		i = j
	}
	return out
}

func dedupeMutations(cases []mutation) []mutation {
	seen := map[mutation]bool{}
	out := cases[:0]
	for _, c := range cases {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

var (
	quotedRE = regexp.MustCompile(`'[^']*'|"[^"]*"`)
	numberRE = regexp.MustCompile(`\b(0x[0-9a-f]+|[0-9]+)\b`)
	recordRE = regexp.MustCompile(` \([A-Za-z]+ \(type N\)\)`)
)

// mutationGroup returns what a case changes: its file, the record (by
// type) or, in the anchor, the 16 bytes that hold the byte, and whether it
// cuts or flips. By default otf2-print reads one output of each group.
func mutationGroup(c mutation, spans []recordSpan) string {
	op := "flip"
	if c.xor == 0 {
		op = "cut"
	}
	where := fmt.Sprintf("bytes %d-", c.pos/16*16)
	for _, sp := range spans {
		if c.pos >= sp.start && c.pos < sp.end {
			where = sp.kind
			if sp.kind != "header" && sp.kind != "eof" {
				break
			}
		}
	}
	return c.file + " " + where + " " + op
}

// outcome returns the class of a case's outcome: the mutated file and
// "accepted", or the error's message with numbers, quoted names and record
// names taken out (which location file of several reports an error first
// does not matter).
func outcome(c mutation, err error) string {
	if err == nil {
		return c.file + ": accepted"
	}
	s := numberRE.ReplaceAllString(quotedRE.ReplaceAllString(err.Error(), "Q"), "N")
	return c.file + ": " + recordRE.ReplaceAllString(s, "")
}

// readFile returns the contents of a file, or fails t.
func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return b
}

// copyTree copies the files of the archive at src into dst.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	for _, f := range mutationFiles {
		b, err := os.ReadFile(filepath.Join(src, f))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dst, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dst, f), b, 0o644))
	}
}

// correctLikeClc does with an archive what clc-correct does, without the
// CLC itself: read, validate, pre-synchronise, rewrite. One location at a
// time, so that of several errors the same one is reported every run.
func correctLikeClc(in, out string) error {
	a, err := Open(in)
	if err != nil {
		return err
	}
	tr, err := a.Read(context.Background(), &ReadOptions{Parallel: 1})
	if err != nil {
		return err
	}
	if err := tr.Validate(); err != nil {
		return err
	}
	if _, err := presync.Apply(tr, nil); err != nil {
		return err
	}
	return a.Rewrite(out, tr, &WriteOptions{Parallel: 1})
}

var locationRE = regexp.MustCompile(`location \d+`)

// placed reports whether err names where the problem is.
func placed(err error) bool {
	var fe *FormatError
	if errors.As(err, &fe) {
		return fe.File != "" && strings.Contains(err.Error(), "byte offset")
	}
	var ee *trace.EventError
	return errors.As(err, &ee) || locationRE.MatchString(err.Error())
}

// runGuarded runs f with a time limit, turning a panic into an error.
func runGuarded(f func() error) (err error, hung bool) {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("panic: %v", r)
			}
		}()
		done <- f()
	}()
	select {
	case err := <-done:
		return err, false
	case <-time.After(mutationTimeout):
		return nil, true
	}
}

// archiveBytes returns the files of the archive at dir, one after the
// other, each after its name.
func archiveBytes(dir string) ([]byte, error) {
	var all []byte
	for _, f := range mutationFiles {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		all = append(append(append(all, f...), 0), b...)
	}
	return all, nil
}

func TestMutations(t *testing.T) {
	printer := otf2PrintPath(t)
	every := os.Getenv("CLC_MUTATION_FULL") != ""
	full := every || testenv.Full()
	coverFile := os.Getenv("CLC_MUTATION_COVER")
	require.False(t, coverFile != "" && (!full || os.Getenv("CLC_MUTATION_FILES") != ""),
		"CLC_MUTATION_COVER needs CLC_TEST_FULL=1 (or CLC_MUTATION_FULL=1) and every file")
	tmp := t.TempDir()
	base := filepath.Join(tmp, "base")
	copyTree(t, realTrace, base)
	structural, subset := map[mutation]bool{}, map[mutation]bool{}
	for _, c := range structuralMutations(t, base) {
		structural[c] = true
	}
	cases := defaultMutations(t, base)
	for _, c := range cases {
		subset[c] = true
	}
	if full {
		cases = allMutations(t, base)
	}
	start := time.Now()

	var (
		mu                     sync.Mutex
		failures               []string
		errored, accepted      int
		distinct, printed      int
		byFile                 = map[string][2]int{} // errors, accepted
		outputs                = map[string]bool{}   // distinct accepted outputs
		firstCase              = map[string]int{}    // outcome: index of its first case
		reached, reachedByRule = map[string]bool{}, map[string]bool{}
		originals              = map[string][]byte{}
		spans                  = map[string][]recordSpan{}
		printedGroups          = map[string]bool{}
	)
	fail := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		mu.Lock()
		failures = append(failures, msg)
		mu.Unlock()
		if full {
			t.Log("FAIL " + msg) // streamed with -v: a long run shows what it found as it goes
		}
	}
	for _, f := range mutationFiles {
		originals[f] = readFile(t, filepath.Join(base, f))
		if f != "traces.otf2" {
			spans[f] = recordSpans(t, f, originals[f], MinChunkSize, strings.HasSuffix(f, ".evt"))
		}
	}
	var eg errgroup.Group
	eg.SetLimit(max(1, min(2, runtime.GOMAXPROCS(0))))
	// one runs case n in the archive copy work (where the case before it,
	// if any, was n-1) and reports whether to go on.
	one := func(n int, work string, after bool) bool {
		c := cases[n]
		path := filepath.Join(work, c.file)
		b := bytes.Clone(originals[c.file])
		if c.xor == 0 {
			b = b[:c.pos]
		} else {
			b[c.pos] ^= c.xor
		}
		if after && cases[n-1].file != c.file {
			prev := cases[n-1].file
			if err := testenv.ReplaceFile(filepath.Join(work, prev), originals[prev], 0o644); err != nil {
				fail("%v", err)
				return false
			}
		}
		if err := testenv.ReplaceFile(path, b, 0o644); err != nil {
			fail("%v", err)
			return false
		}
		if full && n%2000 == 0 {
			t.Logf("case %d of %d (%v), %.0f s", n, len(cases), c, time.Since(start).Seconds())
		}
		out := filepath.Join(tmp, "out", fmt.Sprint(n))
		err, h := runGuarded(func() error { return correctLikeClc(work, out) })
		if h {
			fail("%v: no result after %v", c, mutationTimeout)
			return false
		}
		class := outcome(c, err)
		mu.Lock()
		if k, ok := firstCase[class]; !ok || n < k {
			firstCase[class] = n
		}
		reached[class] = reached[class] || subset[c]
		reachedByRule[class] = reachedByRule[class] || structural[c]
		s := byFile[c.file]
		if err != nil {
			errored++
			s[0]++
			byFile[c.file] = s
			mu.Unlock()
			if strings.HasPrefix(err.Error(), "panic") || !placed(err) {
				fail("%v: error without its place (or a panic): %v", c, err)
			}
			return true
		}
		accepted++
		s[1]++
		byFile[c.file] = s
		mu.Unlock()
		all, err := archiveBytes(out)
		if err != nil {
			fail("%v: %v", c, err)
			return false
		}
		key := string(all)
		mu.Lock()
		seen := outputs[key]
		outputs[key] = true
		group := mutationGroup(c, spans[c.file])
		// By default (in order, one case at a time) the first distinct
		// output of each group; with CLC_TEST_FULL=1 the default subset's
		// and every twentieth case's.
		check := !seen && (every || (full && (subset[c] || n%20 == 0)) || (!full && !printedGroups[group]))
		if !seen {
			distinct++
			printedGroups[group] = true
		}
		if check {
			printed++
		}
		mu.Unlock()
		if seen {
			if err := os.RemoveAll(out); err != nil {
				fail("%v", err)
				return false
			}
			return true
		}
		eg.Go(func() error {
			defer os.RemoveAll(out)
			if check {
				cmd := exec.Command(printer, filepath.Join(out, "traces.otf2"))
				var stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = nil, &stderr
				if err := cmd.Run(); err != nil {
					fail("%v: exit 0, but otf2-print rejects the output: %v\n%s", c, err, stderr.String())
					return nil
				}
			}
			if err := readAll(out); err != nil {
				fail("%v: exit 0, but our reader rejects the output: %v", c, err)
			}
			return nil
		})
		return true
	}
	// The whole sweep runs in parts at once, each in its own copy of the
	// archive: the cases wait on the file system more than on the CPU.
	workers := 1
	if full {
		workers = max(2, runtime.GOMAXPROCS(0))
	}
	part := (len(cases) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		work := filepath.Join(tmp, fmt.Sprint("in", w))
		copyTree(t, base, work)
		lo, hi := w*part, min(len(cases), (w+1)*part)
		wg.Go(func() {
			for n := lo; n < hi; n++ {
				if !one(n, work, n > lo) {
					return
				}
			}
		})
	}
	wg.Wait()
	_ = eg.Wait()
	var files []string
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		t.Logf("%-14s %5d errors with their place, %5d accepted", f, byFile[f][0], byFile[f][1])
	}
	t.Logf("%d cases (full=%v, every=%v): %d refused with their place, %d accepted (%d distinct outputs, %d of them read by otf2-print), %d outcomes; %.1f s",
		len(cases), full, every, errored, accepted, distinct, printed, len(reached), time.Since(start).Seconds())
	sort.Strings(failures)
	for i, f := range failures {
		if i == 40 {
			t.Errorf("… and %d more", len(failures)-40)
			break
		}
		t.Error(f)
	}
	if !full {
		return
	}
	first := map[string]mutation{}
	for class, n := range firstCase {
		first[class] = cases[n]
	}
	if coverFile != "" {
		writeMutationCover(t, coverFile, first, reachedByRule)
		return
	}
	var missed []string
	for class, ok := range reached {
		if !ok {
			missed = append(missed, fmt.Sprintf("%v: %s", first[class], class))
		}
	}
	sort.Strings(missed)
	assert.Empty(t, missed, "outcomes of the whole sweep (%d) the default subset does not reach (write the cover anew: CLC_TEST_FULL=1 CLC_MUTATION_COVER=mutation_cover_test.go go test ./otf -run TestMutations)",
		len(reached))
}

// writeMutationCover writes mutationCover anew: for every outcome the
// structural rule does not reach, its first case.
func writeMutationCover(t *testing.T, name string, first map[string]mutation, reachedByRule map[string]bool) {
	t.Helper()
	var classes []string
	for class, ok := range reachedByRule {
		if !ok {
			classes = append(classes, class)
		}
	}
	// In the sweep's order: file by file, byte by byte.
	order := func(c mutation) [3]int {
		return [3]int{slices.Index(mutationFiles, c.file), c.pos, map[byte]int{0xFF: 0, 0x01: 1, 0: 2}[c.xor]}
	}
	sort.Slice(classes, func(i, j int) bool {
		a, b := order(first[classes[i]]), order(first[classes[j]])
		return slices.Compare(a[:], b[:]) < 0
	})
	var cover []string
	for _, class := range classes {
		c := first[class]
		cover = append(cover, fmt.Sprintf("{%q, %d, 0x%02x}, // %s\n", c.file, c.pos, c.xor, strings.ReplaceAll(class, "\n", " ")))
	}
	src := "// Code generated by TestMutations (CLC_TEST_FULL=1 CLC_MUTATION_COVER=mutation_cover_test.go); DO NOT EDIT.\n\n" +
		"package otf\n\n" +
		"// mutationCover holds, for every outcome of the whole mutation sweep that\n" +
		"// the default subset's structural rule does not reach, its first case.\n" +
		"var mutationCover = []mutation{\n" + strings.Join(cover, "") + "}\n"
	b, err := format.Source([]byte(src))
	require.NoError(t, err, "%s", src)
	require.NoError(t, os.WriteFile(name, b, 0o644))
	t.Logf("%s: %d cases", name, len(cover))
}

// The single-byte corruptions issue 13 found in the shipped Score-P trace,
// each of which clc-correct turned into an output otf2-print rejects (exit
// 0): the reference reader rejects the input too, so the correction must
// fail and say where.
func TestNamedCorruptions(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base")
	copyTree(t, realTrace, base)
	anchor, err := os.ReadFile(filepath.Join(base, "traces.otf2"))
	require.NoError(t, err)
	defs, err := os.ReadFile(filepath.Join(base, "traces.def"))
	require.NoError(t, err)
	prop := bytes.Index(anchor, []byte("OTF2::MPI_COMMUNICATION_COMPLETE"))
	var str recordSpan // the first String definition
	for _, sp := range recordSpans(t, "traces.def", defs, MinChunkSize, false) {
		if sp.kind == "10" {
			str = sp
			break
		}
	}
	for _, c := range []struct {
		m    mutation
		want string
	}{
		{mutation{"traces.otf2", anchorTraceFormatOff, 0x01}, "trace format 3"},
		{mutation{"traces.otf2", anchorFormatOff, 0x03}, "anchor format 0"},
		{mutation{"traces.otf2", prop + 4, 0x01}, "has no namespace"},
		{mutation{"traces.otf2", prop + 10, 0xFF}, "only A-Z, a-z, 0-9 and _"},
		{mutation{"traces.def", str.start + 1, 0x01}, "malformed OTF2 data: definition "},
		// String 1 ("machine") becomes a record of unknown type: otf2-print
		// crashes on the system-tree node whose class it names.
		{mutation{"traces.def", 42, 0xFF}, "refers to string 1, which is not defined"},
	} {
		dir := filepath.Join(t.TempDir(), "in")
		copyTree(t, base, dir)
		path := filepath.Join(dir, c.m.file)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		b[c.m.pos] ^= c.m.xor
		require.NoError(t, os.WriteFile(path, b, 0o644))
		ref := exec.Command(otf2PrintPath(t), filepath.Join(dir, "traces.otf2")).Run()
		assert.Error(t, ref, "%v: otf2-print of the input", c.m)
		err = correctLikeClc(dir, filepath.Join(t.TempDir(), "out"))
		var fe *FormatError
		if assert.ErrorAs(t, err, &fe, "%v", c.m) {
			assert.Equal(t, c.m.file, fe.File, "%v: the file the FormatError names", c.m)
			assert.ErrorContains(t, err, c.want, "%v", c.m)
		}
	}
}
