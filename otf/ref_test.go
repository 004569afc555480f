package otf

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
)

// writeRef writes an archive into dir with the reference library
// (testdata/otf2/genref.py, iters iterations).
func writeRef(py, dir string, iters int) error {
	out, err := exec.Command(py, "../testdata/otf2/genref.py", dir, strconv.Itoa(iters), strconv.Itoa(MinChunkSize)).CombinedOutput()
	if err != nil {
		return fmt.Errorf("genref.py: %v\n%s", err, out)
	}
	return nil
}

// genRef writes an archive of the test's own with the reference library
// and returns its directory.
func genRef(t testing.TB, iters int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ref")
	require.NoError(t, writeRef(testenv.PythonOTF2(t), dir, iters))
	return dir
}

// fixtures holds the archives several tests read and none changes.
var fixtures testenv.Fixtures

func TestMain(m *testing.M) {
	code := m.Run()
	if err := fixtures.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	os.Exit(code)
}

// sharedRef returns the directory of an archive written with the reference
// library (testdata/otf2/genref.py), made once per run; tests must not
// change it (genRef makes one of their own).
func sharedRef(t testing.TB, iters int) string {
	t.Helper()
	py := testenv.PythonOTF2(t)
	return fixtures.Dir(t, fmt.Sprint("genref ", iters), func(dir string) error { return writeRef(py, dir, iters) })
}

// readRef opens an archive of the reference library (sharedRef) and reads
// it whole.
func readRef(t testing.TB, iters int) (string, *Archive, *trace.Trace) {
	t.Helper()
	dir := sharedRef(t, iters)
	a, err := Open(dir)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	return dir, a, tr
}

func TestReadReference(t *testing.T) {
	_, _, tr := readRef(t, 120)
	require.NoError(t, tr.Validate())
	require.NoError(t, tr.Unordered())
	require.Len(t, tr.Locations, 4)
	assert.Equal(t, []trace.Node{{Name: "node0"}, {Name: "node1"}}, tr.Nodes)
	for li, l := range tr.Locations {
		assert.Equal(t, uint64(1)<<32+uint64(li), l.ID)
		assert.Equal(t, int32(li/2), l.Node)
	}
	// Communicators: world, "odd" (world ranks 3 and 1), and one
	// MPI_COMM_SELF per location.
	names := map[string][][]int32{}
	for _, c := range tr.Comms {
		names[c.Name] = append(names[c.Name], c.Members)
	}
	assert.Equal(t, [][]int32{{0, 1, 2, 3}}, names["MPI_COMM_WORLD"])
	assert.Equal(t, [][]int32{{3, 1}}, names["odd"])
	assert.Equal(t, [][]int32{{0}, {1}, {2}, {3}}, names["MPI_COMM_SELF"])

	counts := map[trace.Kind]int{}
	l1 := &tr.Locations[1].Events
	for i, k := range l1.Kind {
		counts[k]++
		switch k {
		case trace.KindSend:
			m := l1.Msg(i)
			if tr.Comms[m.Comm].Name == "MPI_COMM_SELF" {
				assert.Equal(t, []int32{1}, tr.Comms[m.Comm].Members)
			} else {
				assert.Equal(t, uint32(2), m.Peer)
			}
		case trace.KindNBCollComplete:
			c := l1.Coll(i)
			assert.Equal(t, "odd", tr.Comms[c.Comm].Name)
			assert.Equal(t, trace.OpAllreduce, c.Op)
			assert.Equal(t, trace.NoRoot, c.Root)
		}
	}
	for _, k := range []trace.Kind{trace.KindEnter, trace.KindLeave, trace.KindSend, trace.KindIsend,
		trace.KindIsendComplete, trace.KindIrecvRequest, trace.KindRecv, trace.KindIrecv,
		trace.KindRequestTest, trace.KindRequestCancelled, trace.KindCollBegin, trace.KindCollEnd,
		trace.KindNBCollRequest, trace.KindNBCollComplete, trace.KindCommCreate, trace.KindCommDestroy, trace.KindOther} {
		assert.Positive(t, counts[k], "kind %s", k)
	}
	assert.Equal(t, 120*2, counts[trace.KindIrecvRequest])
	assert.Equal(t, 120, counts[trace.KindRequestCancelled])
	// Every op 0..22 shows up on world.
	ops := map[trace.CollOp]bool{}
	for i, k := range l1.Kind {
		if k == trace.KindCollEnd {
			ops[l1.Coll(i).Op] = true
		}
	}
	assert.Len(t, ops, 23)
	// Attribute lists: one per send on world and on ProgramBegin/End.
	assert.Equal(t, 120+2, len(l1.Attach))
}

// Reading an archive of the reference library and rewriting it without
// correction gives an archive otf2-print prints identically.
func TestRewriteReferenceIdentity(t *testing.T) {
	dir, a, tr := readRef(t, 3000) // ~1 MB per location: several 256 KiB chunks
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, a.Rewrite(out, tr, nil))
	checkOTF2(t, filepath.Join(out, "traces.otf2"))
	// -A prints the anchor, the definitions and the events.
	args := []string{"-A", "-M", "-C"}
	want := otf2Print(t, filepath.Join(dir, "traces.otf2"), args...)
	got := otf2Print(t, filepath.Join(out, "traces.otf2"), args...)
	require.Greater(t, len(eventLines(want)), 300000)
	if want != got {
		wl, gl := eventLines(want), eventLines(got)
		require.Equal(t, len(wl), len(gl))
		for i := range wl {
			require.Equal(t, wl[i], gl[i], "line %d", i)
		}
		require.FailNow(t, "otf2-print differs outside the event lines", "otf2-print %v", args)
	}
}
