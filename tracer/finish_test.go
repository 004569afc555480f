package tracer

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/trace"
	"github.com/clc-tools/clc/tracer/abi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deadRun writes the trace directory a per-rank run of ranks ranks left
// when every process died: each rank's stream cut before its last two
// blocks, which its tail holds (the process, pid 1<<30, is gone), and the
// ranks' metadata. It returns the directory and the events per rank.
func deadRun(t *testing.T, ranks int, truth bool) (string, int) {
	t.Helper()
	const perRank = 2000
	src := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "MPI_Init"}},
		Comms: []trace.Comm{{Name: "w", Members: []int32{0}}}}
	for r := 0; r < ranks; r++ {
		l := &trace.Location{ID: uint64(r), Name: fmt.Sprintf("rank %d", r)}
		for i := 0; i < perRank; i++ {
			l.Events.AppendRegion(trace.KindEnter, int64(i*10), 0)
		}
		src.Locations = append(src.Locations, l)
	}
	opt := native.DefaultWriteOptions()
	opt.Codec = native.CodecNone
	opt.BlockSize = 1000
	w := filepath.Join(t.TempDir(), "src")
	require.NoError(t, native.WriteDir(context.Background(), w, src, opt))
	dir := t.TempDir()
	subs := []string{"events", MetaDir}
	if truth {
		subs = append(subs, filepath.Join("truth", "events"))
	}
	for _, d := range subs {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	host := hostName()
	for r := 0; r < ranks; r++ {
		want, err := os.ReadFile(filepath.Join(w, "events", fmt.Sprintf("%d.clce", r)))
		require.NoError(t, err)
		bl := blocks(t, want)
		n := len(bl)
		offA := uint64(len(want) - len(bl[n-1]) - len(bl[n-2]))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "events", fmt.Sprintf("%d.clce", r)), want[:offA], 0o644))
		if truth {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "truth", "events", fmt.Sprintf("%d.clce", r)), want, 0o644))
		}
		tail := filepath.Join(dir, MetaDir, fmt.Sprintf("%d%s", r, TailExt))
		tailOf(t, tail, [2][]byte{bl[n-2], bl[n-1]}, [2]uint64{offA, offA + uint64(len(bl[n-2]))}, [2]bool{}, 1<<30, host)
		f, err := os.OpenFile(tail, os.O_WRONLY, 0)
		require.NoError(t, err)
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], uint32(r))
		_, err = f.WriteAt(b[:], abi.TailOffRank)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		m := fmt.Sprintf("clc-meta 1\nrank %d %d\nhost %s\nresolution 1000000000\nsignal 15 0\n", r, ranks, host)
		if r == 0 {
			m += "region 0 MPI_Init\ncomm 0 0 MPI_COMM_WORLD 0\n"
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, MetaDir, fmt.Sprintf("%d.txt", r)), []byte(m), 0o644))
	}
	return dir, perRank
}

// TestFinishersOneAtATime: the clc-trace processes of a per-rank launch
// finish the trace at the same time (issue 33: "open D/.clc-meta/3.tail:
// no such file or directory", then two summaries, 8,006 and 32,024
// events): no finisher fails on what another one recovered, exactly one
// is the last and says what the ranks kept, and it counts every event.
func TestFinishersOneAtATime(t *testing.T) {
	const ranks, finishers = 4, 12
	for round := 0; round < 20; round++ {
		dir, perRank := deadRun(t, ranks, false)
		var wg sync.WaitGroup
		us := make([]*Unfinished, finishers)
		errs := make([]error, finishers)
		for i := 0; i < finishers; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if i%2 == 0 { // the launcher-wrapping and --convert way
					us[i], errs[i] = FinishUnfinished(dir, nil, RecoverOptions{})
				} else {
					us[i], errs[i] = FinishRank(dir, i%ranks, nil)
				}
			}()
		}
		wg.Wait()
		last := 0
		for i := range us {
			require.NoError(t, errs[i], "round %d: finisher %d", round, i)
			require.NotNil(t, us[i], "round %d: finisher %d", round, i)
			if us[i].Last {
				last++
				assert.True(t, strings.HasPrefix(us[i].Summary(), Thousands(int64(ranks*perRank))+" events kept"),
					"round %d: the last finisher's summary %q", round, us[i].Summary())
			} else if i%2 == 1 {
				assert.True(t, us[i].Told, "round %d: finisher %d neither told the story nor knows another did", round, i)
			}
		}
		assert.Equal(t, 1, last, "round %d: finishers that say what the ranks kept", round)
		tr, err := native.ReadDir(dir, nil)
		require.NoError(t, err, "round %d: the finished trace", round)
		assert.EqualValues(t, ranks*perRank, tr.NumEvents(), "round %d: events of the finished trace", round)
		tails, _ := filepath.Glob(filepath.Join(dir, MetaDir, "*"+TailExt))
		assert.Empty(t, tails, "round %d: tails left", round)
	}
}

// TestFinishWritesTheMissingTruthManifest: a finisher killed between the
// trace's manifest and its truth's (issue 33: "stat …/truth/clc.json: no
// such file") leaves no truth manifest; the next finisher, or --convert,
// writes it. And WriteIncompleteManifest writes the truth's first, so
// that the trace's manifest is the last thing a finisher writes.
func TestFinishWritesTheMissingTruthManifest(t *testing.T) {
	dir, perRank := deadRun(t, 2, true)
	_, err := FinishUnfinished(dir, nil, RecoverOptions{})
	require.NoError(t, err, "first finisher")
	require.NoError(t, os.Remove(filepath.Join(dir, "truth", native.ManifestName)), "the truth's manifest of the first finisher")
	_, err = FinishUnfinished(dir, nil, RecoverOptions{})
	require.NoError(t, err, "second finisher")
	truth, err := native.ReadDir(filepath.Join(dir, "truth"), nil)
	require.NoError(t, err, "the truth after the second finisher")
	assert.EqualValues(t, 2*perRank, truth.NumEvents(), "the truth's events")

	// the order: when the truth's manifest cannot be written (a missing
	// stream whose empty one cannot be made: a link into nowhere), the
	// trace's is not written either
	dir, _ = deadRun(t, 2, true)
	s := filepath.Join(dir, "truth", "events", "1.clce")
	require.NoError(t, os.Remove(s))
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere", "x"), s))
	_, err = WriteIncompleteManifest(dir, nil)
	assert.Error(t, err, "the truth's manifest could not be written")
	_, err = os.Stat(filepath.Join(dir, native.ManifestName))
	assert.ErrorIs(t, err, os.ErrNotExist, "the trace's manifest was written before the truth's")
}

// deadOTF2Run is deadRun with a truth, as the native trace of an OTF2 run:
// DIR/clc-native. It returns DIR and the events per rank.
func deadOTF2Run(t *testing.T, ranks int) (string, int) {
	t.Helper()
	nat, perRank := deadRun(t, ranks, true)
	dir := t.TempDir()
	require.NoError(t, os.Rename(nat, filepath.Join(dir, NativeSubdir)))
	return dir, perRank
}

// waitLockWaiter waits until a process waits for the flock of path
// (/proc/locks lists it with "->"); it fails the test if done is closed
// first or after a minute.
func waitLockWaiter(t *testing.T, path string, done <-chan struct{}) {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	ino := fmt.Sprintf(":%d ", st.Sys().(*syscall.Stat_t).Ino)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		b, err := os.ReadFile("/proc/locks")
		require.NoError(t, err)
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "->") && strings.Contains(l, "FLOCK") && strings.Contains(l, ino) {
				return
			}
		}
		select {
		case <-done:
			require.FailNow(t, "it did not wait for the trace's lock")
		case <-time.After(5 * time.Millisecond):
		}
	}
	require.FailNow(t, "nothing waited for the trace's lock within a minute")
}

// TestFinishOTF2HoldsTheLock: per rank, the clc-trace that says what the
// ranks kept converts the trace (FinishOTF2) while the others, and a
// --convert, may still finish it. Seen in CI (Open MPI, SIGSEGV, per rank,
// OTF2): another finisher, writing the truth's manifest as the truth was
// moved beside the archive, made the native trace again with empty
// streams, and --convert moved that truth over the run's: every rank's
// truth without events. FinishOTF2 waits for the trace's lock, and one
// that finds the trace converted once it has it says what the archive
// holds; a finisher after the conversion knows it is done and makes
// nothing; one that writes into the truth after it was moved makes no
// directory; the truth beside the archive holds every event.
func TestFinishOTF2HoldsTheLock(t *testing.T) {
	const ranks = 4
	dir, perRank := deadOTF2Run(t, ranks)
	src := filepath.Join(dir, NativeSubdir)
	u, err := FinishRank(src, 0, nil)
	require.NoError(t, err, "the finisher that says what the ranks kept")
	require.True(t, u.Last, "the finisher that says what the ranks kept")

	release := lockMeta(src) // another finisher's
	done := make(chan struct{})
	var n int64
	go func() {
		defer close(done)
		n, _, err = FinishOTF2(dir, nil, RecoverOptions{ThisHost: true})
	}()
	waitLockWaiter(t, filepath.Join(src, MetaDir), done)
	// what the holder does: it converts the trace
	want, cerr := ConvertToOTF2(src, dir)
	require.NoError(t, cerr)
	require.NoError(t, os.Rename(filepath.Join(src, "truth"), filepath.Join(dir, "truth")))
	require.NoError(t, removeNative(dir))
	release()
	<-done
	require.NoError(t, err, "FinishOTF2 that finds the trace converted once it has the lock")
	assert.Equal(t, want, n, "the events it says the archive holds")

	u, err = FinishRank(src, 1, nil)
	require.NoError(t, err, "a finisher after the conversion")
	assert.True(t, u.Told, "a finisher after the conversion knows another said what the ranks kept")
	assert.NoDirExists(t, src, "a finisher after the conversion made the native trace again")
	_, err = writeManifestFor(filepath.Join(src, "truth"), &jsonManifest{Properties: map[string]string{}}, ranks)
	assert.Error(t, err, "writing the truth's manifest into the truth moved away")
	assert.NoDirExists(t, src, "writing the truth's manifest made the native trace again")

	truth, err := native.ReadDir(filepath.Join(dir, "truth"), nil)
	require.NoError(t, err, "the truth beside the archive")
	for r, l := range truth.Locations {
		assert.Equal(t, perRank, l.Events.Len(), "rank %d: the truth's events", r)
	}
}

// TestFinishersOfAnOTF2Run: the clc-trace processes of a per-rank OTF2
// launch finish the trace at the same time, as cmd/clc-trace does (each
// calls FinishRank until it is the last or another one was; the last
// converts): the one that converts succeeds, the others know it did, and
// the archive and the truth beside it hold every event.
func TestFinishersOfAnOTF2Run(t *testing.T) {
	const ranks = 4
	for round := 0; round < 10; round++ {
		dir, perRank := deadOTF2Run(t, ranks)
		src := filepath.Join(dir, NativeSubdir)
		var wg sync.WaitGroup
		us := make([]*Unfinished, ranks)
		errs := make([]error, ranks)
		var n int64
		var cerr error
		for r := 0; r < ranks; r++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					us[r], errs[r] = FinishRank(src, r, nil)
					if us[r] == nil || us[r].Told || us[r].Last || errs[r] != nil {
						break
					}
				}
				if us[r] != nil && us[r].Last {
					n, _, cerr = FinishOTF2(dir, nil, RecoverOptions{ThisHost: true})
				}
			}()
		}
		wg.Wait()
		last := 0
		for r := range us {
			require.NoError(t, errs[r], "round %d: finisher %d", round, r)
			if us[r].Last {
				last++
			} else {
				assert.True(t, us[r].Told, "round %d: finisher %d neither converted nor knows another did", round, r)
			}
		}
		require.Equal(t, 1, last, "round %d: finishers that convert", round)
		require.NoError(t, cerr, "round %d: FinishOTF2", round)
		assert.EqualValues(t, ranks*perRank, n, "round %d: events in the archive", round)
		assert.NoDirExists(t, src, "round %d: the native trace", round)
		truth, err := native.ReadDir(filepath.Join(dir, "truth"), nil)
		require.NoError(t, err, "round %d: the truth beside the archive", round)
		for r, l := range truth.Locations {
			assert.Equal(t, perRank, l.Events.Len(), "round %d: rank %d: the truth's events", round, r)
		}
	}
}
