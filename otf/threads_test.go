package otf

import (
	"context"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/trace"
)

// hybridModel returns a random hybrid trace (threads, teams, locks,
// tasks, pthreads, metric locations) with non-negative times and a legacy
// OpenMP task event on every master thread.
func hybridModel(seed uint64) *trace.Trace {
	rng := rand.New(rand.NewPCG(seed, 5))
	tr, _ := tracetest.Random(rng, tracetest.Config{Locations: 3, Nodes: 2, Ops: 120, Latency: 5,
		Offset: 50, Drift: 1e-4, Init: true, Threads: 3, Metrics: true})
	for _, l := range tr.Locations {
		ts := l.Events.Time
		for j := range ts {
			ts[j] += 1000
			if j > 0 && ts[j] < ts[j-1] {
				ts[j] = ts[j-1]
			}
		}
	}
	for r := range 3 {
		ev := &tr.Locations[r].Events
		ev.AppendThread(trace.KindThreadTaskCreate, ev.Time[ev.Len()-1], trace.Thread{Legacy: true, Model: trace.ParadigmOpenMP, Team: trace.NoComm, Sequence: 1<<40 | uint64(r)})
	}
	return tr
}

// A hybrid model written as an archive: the reference library reads the
// same thread records (legacy OpenMP ones included), otf2-print -Werror
// accepts the definitions, and our reader gives back the model —
// processes, location kinds, region roles and paradigms, team
// communicators with their paradigm, every thread event's payload.
func TestWriteReadThreads(t *testing.T) {
	want := hybridModel(1)
	require.NoError(t, want.Validate())
	dir := filepath.Join(t.TempDir(), "h")
	require.NoError(t, WriteTrace(context.Background(), dir, want, nil))
	checkOTF2(t, filepath.Join(dir, "traces.otf2"))
	py := pyDump(t, filepath.Join(dir, "traces.otf2"))
	require.Equal(t, modelLines(want), py)

	_, got := openRead(t, dir)
	require.NoError(t, got.Validate())
	require.Len(t, got.Processes, len(want.Processes))
	require.Len(t, got.Locations, len(want.Locations))
	for li, l := range want.Locations {
		g := got.Locations[li]
		require.Equal(t, l.Process, g.Process, "location %d", li)
		require.Equal(t, l.Kind, g.Kind, "location %d", li)
		require.Equal(t, l.Events.Kind, g.Events.Kind, "location %d", li)
		require.Equal(t, l.Events.Time, g.Events.Time, "location %d", li)
		require.Equal(t, l.Events.Threads, g.Events.Threads, "location %d", li)
	}
	for ri, r := range want.Regions {
		if r.Role != 0 {
			require.Equal(t, r, got.Regions[ri], "region %d", ri)
		}
	}
	for ci, c := range want.Comms {
		require.Equal(t, c.Members, got.Comms[ci].Members, "communicator %d", ci)
		require.Equal(t, commParadigm(c.Paradigm), got.Comms[ci].Paradigm, "communicator %d", ci)
	}
}

// Rewriting a hybrid archive with its own times reproduces what
// otf2-print shows, thread records included.
func TestRewriteThreadsIdentity(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "h")
	require.NoError(t, WriteTrace(context.Background(), dir, hybridModel(2), nil))
	a, tr := openRead(t, dir)
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, a.Rewrite(out, tr, nil))
	require.Equal(t, eventLines(otf2Print(t, filepath.Join(dir, "traces.otf2"))), eventLines(otf2Print(t, filepath.Join(out, "traces.otf2"))))
}

// openRead opens and reads the archive in dir.
func openRead(t *testing.T, dir string) (*Archive, *trace.Trace) {
	t.Helper()
	a, err := Open(dir)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	return a, tr
}

// A hybrid archive written by the reference library as Score-P lays one
// out (testdata/otf2/genhybrid.py): our reader sees the events the
// reference reader sees, the location groups as processes (threads and
// metric location each with their process), thread teams and contingents
// resolved through their paradigm's COMM_LOCATIONS group, region roles.
func TestReadReferenceHybrid(t *testing.T) {
	py := testenv.PythonOTF2(t)
	dir := t.TempDir()
	out, err := exec.Command(py, "../testdata/otf2/genhybrid.py", dir, "3", "3", "4", "7").CombinedOutput()
	require.NoError(t, err, "%s", out)
	_, tr := openRead(t, filepath.Join(dir, "rec"))
	require.NoError(t, tr.Validate())
	require.Equal(t, modelLines(tr), pyDump(t, filepath.Join(dir, "rec", "traces.otf2")))
	require.Len(t, tr.Processes, 3)
	kinds := map[trace.LocationKind]int{}
	for li, l := range tr.Locations {
		kinds[l.Kind]++
		require.Equal(t, int32(li/4), l.Process, "location %d", li)
	}
	require.Equal(t, map[trace.LocationKind]int{trace.LocationCPUThread: 9, trace.LocationMetric: 3}, kinds)
	teams := 0
	for _, c := range tr.Comms {
		if c.Name == "OpenMP thread team" {
			require.Equal(t, trace.ParadigmOpenMP, c.Paradigm)
			require.Len(t, c.Members, 3)
			for _, m := range c.Members {
				require.Equal(t, tr.Locations[c.Members[0]].Process, tr.Locations[m].Process)
			}
			teams++
		}
	}
	require.Equal(t, 3, teams)
	roles := map[trace.RegionRole]bool{}
	for _, r := range tr.Regions {
		roles[r.Role] = true
	}
	for _, r := range []trace.RegionRole{trace.RoleParallel, trace.RoleBarrier, trace.RoleImplicitBarrier, trace.RoleTaskWait, trace.RoleCritical} {
		require.True(t, roles[r], "role %d", r)
	}
}
