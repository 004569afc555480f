package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/trace"
)

// These tests cover the defects of issue 26 ("Refuse, never harm"), each
// as a hostile user met it; each failed before its fix.

const scorepTrace = "../../testdata/scorep-pingpong"

// runOut runs clc-correct and returns its exit status, stdout and stderr.
func runOut(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// copyDir copies the directory src into a fresh directory and returns it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
	return dst
}

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, s := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
	}
}

// --force replaced any directory whose names looked like a trace's.
func TestForceKeepsWhatIsNotATrace(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"native names": {"clc.json": "my notes", "events/0.clce": "my data", "events/results.csv": "1,2,3"},
		"otf2 names":   {"traces.otf2": "x", "traces.def": "y", "traces/0.evt": "my data"},
		"named NAME":   {"thesis.otf2": "x", "thesis.def": "y", "thesis/chapter1.tex": "my data"},
	} {
		t.Run(name, func(t *testing.T) {
			d := filepath.Join(t.TempDir(), "home")
			writeFiles(t, d, files)
			before := hashTree(t, d)
			code, _, msg := runOut(simTrace, "-o", d, "--force", "-q")
			assert.Equal(t, exitError, code)
			assert.Contains(t, msg, "refusing to replace")
			assert.Equal(t, before, hashTree(t, d), "--force changed a directory that is no trace")
			assertNoTemporaries(t, filepath.Dir(d))
		})
	}
}

// --force refused a native trace clc-correct had written from an OTF2
// input (its carried.clcd); it replaces what clc wrote, in every format.
func TestForceReplacesWhatClcWrote(t *testing.T) {
	for _, in := range []string{scorepTrace, simTrace} {
		for _, format := range []string{"native", "otf2"} {
			out := filepath.Join(t.TempDir(), "out")
			code, _, msg := runOut(in, "-o", out, "-q", "--format", format)
			require.Equal(t, exitOK, code, msg)
			code, _, msg = runOut(in, "-o", out, "-q", "--format", format, "--force")
			assert.Equal(t, exitOK, code, "%s as %s: %s", in, format, msg)
			assertNoTemporaries(t, filepath.Dir(out))
		}
	}
}

// An input whose traces/ is a symbolic link into a trace directory X,
// corrected with -o X --force, got its event files replaced.
func TestForceNeverReplacesTheInputThroughALink(t *testing.T) {
	d := t.TempDir()
	x := filepath.Join(d, "x")
	code, _, msg := runOut(scorepTrace, "-o", x, "-q", "--format", "otf2")
	require.Equal(t, exitOK, code, msg)
	// The input: the Score-P anchor and definitions, its events in x.
	in := filepath.Join(d, "in")
	require.NoError(t, os.Mkdir(in, 0o755))
	for _, f := range []string{"traces.otf2", "traces.def"} {
		b, err := os.ReadFile(filepath.Join(x, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(in, f), b, 0o644))
	}
	require.NoError(t, os.Symlink(filepath.Join(x, "traces"), filepath.Join(in, "traces")))
	before := hashTree(t, x)
	code, _, msg = runOut(in, "-o", x, "--force", "-q")
	assert.Equal(t, exitError, code)
	assert.Contains(t, msg, "contains the input")
	assert.Equal(t, before, hashTree(t, x), "the input's events were replaced")
}

// Through a bind mount of the input (the same directory by another path)
// the output landed inside the input. Root only (CI runs as root).
func TestOutputNeverLandsInABindMountedInput(t *testing.T) {
	d := t.TempDir()
	in := copyTrace(t)
	mnt := filepath.Join(d, "mnt")
	require.NoError(t, os.Mkdir(mnt, 0o755))
	if err := syscall.Mount(in, mnt, "", syscall.MS_BIND, ""); err != nil {
		testenv.Unavailable(t, "root with CAP_SYS_ADMIN", "cannot bind-mount: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	before := hashTree(t, in)
	for _, args := range [][]string{
		{mnt, "-o", filepath.Join(in, "out")},
		{in, "-o", filepath.Join(mnt, "out")},
		{in, "--check", "--report", filepath.Join(mnt, "r.json")},
		{in, "-o", filepath.Join(mnt, "truth"), "--force"},
	} {
		code, _, msg := runOut(append(args, "-q")...)
		assert.Equal(t, exitError, code, "%q", args)
		assert.Contains(t, msg, "inside the input", "%q", args)
	}
	assert.Equal(t, before, hashTree(t, in), "the input changed")
}

// writeBomb writes a native trace of one location whose stream holds
// blocks copies of a zstd block of 2^25 minimal events (a few KiB each:
// docs/format.md's layout, written here by hand), its manifest declaring
// them all.
func writeBomb(t *testing.T, dir string, blocks int) int64 {
	t.Helper()
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	const n = 1 << 25
	raw := bytes.Repeat([]byte{byte(trace.KindCollBegin), 0}, n)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(false))
	require.NoError(t, err)
	payload := enc.EncodeAll(raw, nil)
	block := make([]byte, 24, 24+len(payload))
	copy(block, "CLCB")
	block[4] = 1 // zstd
	binary.LittleEndian.PutUint32(block[8:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(block[12:], uint32(len(raw)))
	binary.LittleEndian.PutUint32(block[16:], n)
	block = append(block, payload...)
	crc := crc32.Update(crc32.Update(0, castagnoli, block[:20]), castagnoli, payload)
	binary.LittleEndian.PutUint32(block[20:], crc)
	stream := make([]byte, 32)
	copy(stream, "\x89CLCEVT\n")
	binary.LittleEndian.PutUint32(stream[8:], 1)
	binary.LittleEndian.PutUint32(stream[28:], crc32.Checksum(stream[:28], castagnoli))
	for range blocks {
		stream = append(stream, block...)
	}
	events := int64(blocks) * n
	writeFiles(t, dir, map[string]string{
		"events/0.clce": string(stream),
		"clc.json": fmt.Sprintf(`{"format":"clc-native","version":1,"complete":true,"timer_resolution":1000000000,`+
			`"nodes":[{"name":"n"}],"locations":[{"id":0,"name":"rank 0","node":0,"events":%d}]}`, events),
	})
	return events
}

// 340 KB of zstd blocks declaring 1.3 G minimal events: Go's "fatal error:
// out of memory" at 5.3 GB. The run is refused from the declared counts,
// with the input, the memory it needs and the limit.
func TestDeclaredEventsBeyondMemoryAreRefused(t *testing.T) {
	in := filepath.Join(t.TempDir(), "bomb")
	events := writeBomb(t, in, 40)
	var size int64
	ents, err := os.ReadDir(filepath.Join(in, "events"))
	require.NoError(t, err)
	for _, e := range ents {
		st, err := e.Info()
		require.NoError(t, err)
		size += st.Size()
	}
	t.Logf("%d events in %d KiB", events, size>>10)
	out := filepath.Join(t.TempDir(), "out")
	code, _, msg := runOut(in, "-o", out, "-q")
	assert.Equal(t, exitError, code)
	assert.Contains(t, msg, "input "+in)
	assert.Contains(t, msg, fmt.Sprint(events)+" events")
	assert.Contains(t, msg, "GiB of memory, more than the")
	assertNoTemporaries(t, filepath.Dir(out))
	_, err = os.Stat(out)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// Only regular files are read: a named pipe anywhere in the input blocked
// open(2) for ever (SIGINT and SIGTERM ignored), a symbolic link to
// /dev/zero or a huge file named *.otf2 was read whole.
func TestSpecialInputFilesAreRefused(t *testing.T) {
	cases := []struct {
		src, file, kind string
	}{
		{simTrace, "clc.json", "fifo"},
		{simTrace, "events/3.clce", "fifo"},
		{simTrace, "truth/events/0.clce", "fifo"},
		{simTrace, "events/3.clce", "zero"},
		{scorepTrace, "traces.otf2", "fifo"},
		{scorepTrace, "traces.def", "fifo"},
		{scorepTrace, "traces/0.evt", "fifo"},
		{scorepTrace, "traces/1.def", "fifo"},
		{scorepTrace, "traces.otf2", "zero"},
		{scorepTrace, "traces.otf2", "huge"},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.src)+" "+strings.ReplaceAll(c.file, "/", "_")+" "+c.kind, func(t *testing.T) {
			in := copyDir(t, c.src)
			p := filepath.Join(in, c.file)
			switch c.kind {
			case testenv.SpecialFIFO, testenv.SpecialZero:
				testenv.MakeSpecial(t, p, c.kind)
			case "huge":
				require.NoError(t, os.Truncate(p, 1<<40)) // sparse
			}
			out := filepath.Join(t.TempDir(), "out")
			code, msg := runReturning(t, in, "-o", out, "-q")
			assert.Equal(t, exitError, code)
			assert.Contains(t, msg, p)
			_, err := os.Stat(out)
			assert.ErrorIs(t, err, os.ErrNotExist)
			assertNoTemporaries(t, filepath.Dir(out))
		})
	}
}

// runReturning runs clc-correct as runOut does and returns its exit status
// and stderr, or fails the test if the run does not return (a hang
// detector with a bound no run comes near, not a timing).
func runReturning(t *testing.T, args ...string) (int, string) {
	t.Helper()
	done := make(chan struct{})
	var code int
	var msg string
	go func() {
		defer close(done)
		code, _, msg = runOut(args...)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		require.FailNow(t, "clc-correct did not return")
	}
	return code, msg
}

// -j 5000000 on a 50 KB trace took 4.7 GB.
func TestParallelismIsBounded(t *testing.T) {
	code, _, msg := runOut(simTrace, "--check", "-q", "-j", "5000000")
	assert.Equal(t, cli.ExitUsage, code, "a usage error: nothing done")
	assert.Contains(t, msg, "5000000")
}

// traceOf writes a native trace of the given locations (events per
// location: enter/leave pairs at 1000-tick steps) with the given
// communicators.
func traceOf(t *testing.T, events []int, comms []trace.Comm, edit func(*trace.Trace)) string {
	t.Helper()
	tr := &trace.Trace{Resolution: 1e9, Regions: []trace.Region{{Name: "f"}}, Comms: comms}
	for i, n := range events {
		tr.Nodes = append(tr.Nodes, trace.Node{Name: fmt.Sprint("node", i)})
		l := &trace.Location{ID: uint64(i), Name: fmt.Sprintf("rank %d", i), Node: int32(i)}
		for k := range n {
			l.Events.AppendRegion(trace.KindEnter+trace.Kind(k%2), int64(1000*(k+1)), 0)
		}
		tr.Locations = append(tr.Locations, l)
	}
	if edit != nil {
		edit(tr)
	}
	in := filepath.Join(t.TempDir(), "in")
	require.NoError(t, native.WriteDir(context.Background(), in, tr, nil))
	return in
}

// Clock offsets whose interpolation overflows int64 were accepted, also
// with --strict: events at local time 2^62 came out at ~2,000 ns.
func TestPresyncOverflowIsAnError(t *testing.T) {
	in := traceOf(t, []int{2, 2}, nil, func(tr *trace.Trace) {
		ev := &tr.Locations[1].Events
		ev.Time[0], ev.Time[1] = 1<<62, 1<<62+1000
		tr.Locations[1].Offsets = []trace.ClockOffset{{Time: 0, Offset: 1 << 62}, {Time: 1000, Offset: 1 << 62}}
	})
	for _, strict := range []bool{false, true} {
		args := []string{in, "--check", "-q"}
		if strict {
			args = append(args, "--strict")
		}
		code, _, msg := runOut(args...)
		assert.Equal(t, exitError, code)
		assert.Contains(t, msg, `location "rank 1"`)
		assert.Contains(t, msg, "64-bit range")
	}
}

// A collective by a location that is not a member of its communicator
// (or on one with no members), an empty trace, a rank without events,
// times going backward within a location: dropped, accepted or put in
// order silently, --strict exited 0.
func TestStrictFailsOnForeignCollectivesAndEmptyTraces(t *testing.T) {
	coll := func(li int, comm uint32) func(*trace.Trace) {
		return func(tr *trace.Trace) {
			ev := &tr.Locations[li].Events
			ev.AppendCollBegin(10_000)
			ev.AppendColl(trace.KindCollEnd, 10_500, trace.Collective{Op: trace.OpBarrier, Comm: comm, Root: trace.NoRoot})
		}
	}
	for _, c := range []struct {
		name, want string
		in         string
	}{
		{"non-member", "collective outside its communicator", traceOf(t, []int{2, 2, 2}, []trace.Comm{{Name: "pair", Members: []int32{0, 1}}}, coll(2, 0))},
		{"no members", "collective outside its communicator", traceOf(t, []int{2, 2}, []trace.Comm{{Name: "nobody"}}, coll(0, 0))},
		{"no events", "trace without events", traceOf(t, []int{0, 0}, nil, nil)},
		{"a rank without events", "process without events", traceOf(t, []int{2, 0}, nil, nil)},
		// Times going backward within a location were put in order
		// silently.
		{"time going backward", "time going backward 2", traceOf(t, []int{4, 6}, nil, func(tr *trace.Trace) {
			ev := &tr.Locations[1].Events
			ev.Time[2], ev.Time[4] = 1500, 3500 // after 2000 and 4000
		})},
	} {
		code, out, msg := runOut(c.in, "--check", "--strict")
		assert.Equal(t, exitInconsistent, code, "%s: %s", c.name, msg)
		assert.Contains(t, out, c.want, c.name)
		code, _, msg = runOut(c.in, "--check", "-q")
		assert.Equal(t, exitOK, code, "%s without --strict: %s", c.name, msg)
	}
}

// A native trace with no locations was written as an OTF2 archive that the
// reference reader rejects, with exit 0.
func TestNoLocationsGiveNoOTF2Archive(t *testing.T) {
	in := traceOf(t, nil, nil, nil)
	out := filepath.Join(t.TempDir(), "out")
	code, _, msg := runOut(in, "-o", out, "-q")
	assert.Equal(t, exitError, code)
	assert.Contains(t, msg, "at least one location")
	_, err := os.Stat(out)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assertNoTemporaries(t, filepath.Dir(out))
	code, _, msg = runOut(in, "-o", out, "-q", "--format", "native", "--strict")
	assert.Equal(t, exitInconsistent, code, msg)
	assert.True(t, native.IsDir(out))
}

// Missing parents of -o, --report and --html were created (and stayed
// after a failure or Ctrl-C); --html /nonexistent/dir/r.html created
// /nonexistent/dir as root.
func TestNoParentIsCreated(t *testing.T) {
	d := t.TempDir()
	const nowhere = "/nonexistent-clc-test"
	_, err := os.Stat(nowhere)
	require.Error(t, err, "%s exists: remove it (a failed run of this test made it)", nowhere)
	t.Cleanup(func() { os.RemoveAll(nowhere) }) // if the run made it after all
	for _, args := range [][]string{
		{simTrace, "-o", filepath.Join(d, "a", "out")},
		{simTrace, "-o", filepath.Join(d, "out"), "--report", filepath.Join(d, "b", "r.json")},
		{simTrace, "--check", "--html", filepath.Join(d, "c", "r.html")},
		{simTrace, "--check", "--html", nowhere + "/dir/r.html"},
	} {
		code, _, msg := runOut(append(args, "-q")...)
		assert.Equal(t, exitError, code, "%q", args)
		assert.Contains(t, msg, "does not exist", "%q", args)
	}
	ents, err := os.ReadDir(d)
	require.NoError(t, err)
	assert.Empty(t, ents)
	_, err = os.Stat(nowhere)
	assert.ErrorIs(t, err, os.ErrNotExist)
	// A run that fails while reading leaves nothing either.
	in := copyTrace(t)
	require.NoError(t, os.WriteFile(filepath.Join(in, "events", "5.clce"), []byte("\x89CLCEVT\ncorrupt"), 0o644))
	code, _, msg := runOut(in, "-o", filepath.Join(d, "out"), "--report", filepath.Join(d, "r.json"), "--html", filepath.Join(d, "r.html"), "-q")
	assert.Equal(t, exitError, code)
	assert.Contains(t, msg, "5.clce")
	ents, err = os.ReadDir(d)
	require.NoError(t, err)
	assert.Empty(t, ents)
}

// A 0600 report was replaced by a 0644 one.
func TestReplacedReportKeepsItsMode(t *testing.T) {
	d := t.TempDir()
	rep, page := filepath.Join(d, "r.json"), filepath.Join(d, "r.html")
	for _, f := range []string{rep, page} {
		require.NoError(t, os.WriteFile(f, []byte("old"), 0o600))
		require.NoError(t, os.Chmod(f, 0o600))
	}
	code, _, msg := runOut(simTrace, "--check", "-q", "--report", rep, "--html", page)
	require.Equal(t, exitOK, code, msg)
	for _, f := range []string{rep, page} {
		st, err := os.Stat(f)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), f)
		assert.Greater(t, st.Size(), int64(3), f)
	}
}

// For OTF2 the anchor and definitions were read before the output paths
// were checked: a wrong -o was reported late, or never.
func TestOutputCheckedBeforeTheAnchorIsRead(t *testing.T) {
	in := copyDir(t, scorepTrace)
	require.NoError(t, os.WriteFile(filepath.Join(in, "traces.otf2"), []byte("not an anchor"), 0o644))
	bad := filepath.Join(t.TempDir(), "missing", "out")
	code, _, msg := runOut(in, "-o", bad, "-q")
	assert.Equal(t, exitError, code)
	assert.Contains(t, msg, "output "+bad)
	assert.NotContains(t, msg, "anchor")
}

// -o x.otf2 made a directory named x.otf2.
func TestOutputNamedLikeAnAnchor(t *testing.T) {
	d := t.TempDir()
	code, _, msg := runOut(simTrace, "-o", filepath.Join(d, "fixed.otf2"), "-q")
	assert.Equal(t, exitError, code)
	assert.Contains(t, msg, "("+filepath.Join(d, "fixed")+", which then holds "+filepath.Join(d, "fixed", "traces.otf2")+")")
	ents, err := os.ReadDir(d)
	require.NoError(t, err)
	assert.Empty(t, ents)
}

// The report names each issue in its text.
func TestIssuesInTheTextReport(t *testing.T) {
	in := traceOf(t, []int{2, 0}, nil, nil)
	code, out, _ := runOut(in, "--check")
	require.Equal(t, exitOK, code)
	assert.True(t, strings.Contains(out, "process without events"), out)
}
