package tracer

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/trace"
	"github.com/clc-tools/clc/tracer/mpifn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tracedCounts traces a test program and returns what the program says it
// did and what the trace holds.
func tracedCounts(t *testing.T, k mpiKit, wrap bool, n int, flags []string, name string, args ...string) (map[int]*expectation, []*counts, *trace.Trace, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "trace")
	res := traceRun(t, k, wrap, n, dir, flags, prog(t, k, name), args...)
	require.NoError(t, res.err, "traced run failed\n%s%s", res.stdout, res.stderr)
	exp := parseExpect(t, res)
	require.Len(t, exp, n, "CLC-EXPECT lines")
	tr, got := readCounts(t, dir)
	return exp, got, tr, res.stderr
}

// readCounts reads the native trace in dir and counts what each location did.
func readCounts(t *testing.T, dir string) (*trace.Trace, []*counts) {
	t.Helper()
	tr, err := native.ReadDir(dir, nil)
	require.NoError(t, err)
	got, err := countTrace(tr)
	require.NoError(t, err)
	return tr, got
}

// TestPollRuns: runs of unsuccessful polls collapse by default to their
// first and last call, the last carrying the run's length, so that the
// calls the program made are still known exactly; --polls all keeps every
// call. Both traces hold exactly the program's counts.
func TestPollRuns(t *testing.T) {
	for _, k := range kits {
		t.Run(string(k.fl), func(t *testing.T) {
			k := need(t, k)
			args := []string{"60", "20", "20"}
			exp, got, tr, _ := tracedCounts(t, k, false, 2, nil, "poll", args...)
			runs := checkCounts(t, "collapsed", got, exp)
			assert.Equal(t, "collapse", tr.Properties["clc.polls"], "clc.polls")
			expAll, gotAll, trAll, _ := tracedCounts(t, k, true, 2, []string{"--polls", "all"}, "poll", args...)
			assert.Zero(t, checkCounts(t, "--polls all", gotAll, expAll), "--polls all: collapsed runs")
			assert.Equal(t, "all", trAll.Properties["clc.polls"], "--polls all: clc.polls")
			polls, pollsAll := 0, 0
			for r := range exp {
				polls += exp[r].Calls["MPI_Testany"]
				pollsAll += expAll[r].Calls["MPI_Testany"]
			}
			t.Logf("collapsed: %d events for %d MPI_Testany calls (%d runs); all: %d events for %d calls",
				tr.NumEvents(), polls, runs, trAll.NumEvents(), pollsAll)
			assert.NotZero(t, runs, "runs of unsuccessful MPI_Testany calls collapsed")
		})
	}
}

// TestGroupFilter: --mpi-groups records only the groups it names; the
// other communicating functions the program imports are listed as
// unrecorded, and request-test events go with xreqtest.
func TestGroupFilter(t *testing.T) {
	for _, k := range kits {
		t.Run(string(k.fl), func(t *testing.T) {
			k := need(t, k)
			exp, got, tr, stderr := tracedCounts(t, k, true, 3, []string{"--mpi-groups", "all,-coll,-xreqtest"}, "colls", "1")
			for r, c := range got {
				e := exp[r]
				for name, n := range e.Calls {
					f := mpifn.Lookup(name)
					want := n
					require.NotNil(t, f, "the program calls %s, which the table does not know", name)
					if f.Group == mpifn.GroupColl {
						want = 0
					}
					assert.Equal(t, want, c.Calls[name], "rank %d: %s: calls in the trace", r, name)
				}
				assert.Empty(t, c.Ops, "rank %d: blocking collectives recorded with coll filtered out", r)
				assert.Empty(t, c.NBOps, "rank %d: non-blocking collectives recorded with coll filtered out", r)
				for i, kd := range tr.Locations[r].Events.Kind {
					require.NotContains(t, []trace.Kind{trace.KindRequestTest, trace.KindNBCollRequest, trace.KindCollBegin}, kd,
						"rank %d event %d: recorded with coll and xreqtest filtered out", r, i)
				}
			}
			assert.Equal(t, "env,p2p,cg,topo,io,rma", tr.Properties["clc.mpi-groups"], "clc.mpi-groups")
			un := strings.Split(tr.Properties["clc.unrecorded-mpi"], ",")
			for _, want := range []string{"MPI_Allreduce", "MPI_Ibarrier", "MPI_Alltoallw"} {
				assert.Contains(t, un, want, "clc.unrecorded-mpi")
			}
			assert.Contains(t, stderr, "MPI_Ibarrier (group coll filtered out)", "what clc-trace says before the run")
		})
	}
}

// nmImports lists the undefined dynamic symbols of an ELF file with
// binutils' nm: an independent reader of what ScanImports reads.
func nmImports(t *testing.T, path string) []string {
	t.Helper()
	nm := testenv.Tool(t, "nm", "binutils")
	out, err := exec.Command(nm, "-D", "--undefined-only", path).Output()
	require.NoError(t, err, "nm %s", path)
	var syms []string
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && f[0] == "U" {
			syms = append(syms, f[1])
		}
	}
	return syms
}

// TestUnrecordedFunctions: a program that imports communicating MPI
// functions clc-trace does not record gets them listed before the run, in
// the manifest (clc.unrecorded-mpi) and in the OTF2 anchor
// (CLC::UNRECORDED_MPI). The expected names are those the program's source
// (tests/mpi/unrec.c) imports; ScanImports agrees with nm.
func TestUnrecordedFunctions(t *testing.T) {
	for _, k := range kits {
		t.Run(string(k.fl), func(t *testing.T) {
			k := need(t, k)
			p := prog(t, k, "unrec")
			want := []string{"MPI_Comm_accept", "MPI_Comm_spawn"}
			if k.fl == MPICH { // MPI-4.0
				want = append(want, "MPI_Isendrecv", "MPI_Send_c")
			}
			sort.Strings(want)
			// ScanImports against nm
			im, err := ScanImports(p, os.Environ())
			require.NoError(t, err)
			for _, s := range nmImports(t, p) {
				if r, ok := mpifn.Resolve(s); ok {
					assert.NotEmpty(t, im.Funcs[r.Name], "nm lists %s, ScanImports misses %s", s, r.Name)
				}
			}
			// native, per rank
			_, _, tr, stderr := tracedCounts(t, k, false, 2, nil, "unrec")
			assert.Equal(t, strings.Join(want, ","), tr.Properties["clc.unrecorded-mpi"], "clc.unrecorded-mpi")
			for _, w := range want {
				assert.Regexp(t, `\n  `+w+` \(`, stderr, "clc-trace lists %s before the run", w)
			}
			// OTF2, wrapping the launcher
			dir := filepath.Join(t.TempDir(), "trace")
			res := traceRun(t, k, true, 2, dir, []string{"--format", "otf2"}, p)
			require.NoError(t, res.err, "%s", res.stderr)
			a := readTrace(t, dir, "otf2")
			assert.Equal(t, strings.Join(want, ","), a.Properties["CLC::UNRECORDED_MPI"], "CLC::UNRECORDED_MPI")
		})
	}
}

// TestMPICHF08Refused: MPICH's "use mpi_f08" bindings bypass the MPI
// functions a PMPI library sees; clc-trace says so before the run instead
// of writing an empty or partial trace.
func TestMPICHF08Refused(t *testing.T) {
	k := need(t, kits[1])
	p := prog(t, k, "ff08")
	dir := filepath.Join(t.TempDir(), "trace")
	res := traceRun(t, k, true, 2, dir, nil, p)
	assertFails(t, res, "a program using mpi_f08", `"use mpi_f08"`, "cannot record")
	_, err := os.Stat(filepath.Join(dir, "clc.json"))
	assert.Error(t, err, "a trace was written")
}

// TestRealRunNoEventMoved: on one machine all ranks read one clock, so a
// real (not emulated) run has no clock error, and clc-correct must leave
// every event where it is (its report counts the events it moved beyond
// pre-synchronisation).
func TestRealRunNoEventMoved(t *testing.T) {
	for _, k := range kits {
		t.Run(string(k.fl), func(t *testing.T) {
			k := need(t, k)
			tools(t)
			for _, c := range []struct {
				prog string
				args []string
			}{{"ring", []string{"20"}}, {"colls", []string{"2"}}, {"halo", []string{"20", "64"}}} {
				dir := filepath.Join(t.TempDir(), "trace")
				res := traceRun(t, k, false, 4, dir, nil, prog(t, k, c.prog), c.args...)
				require.NoError(t, res.err, "%s", res.stderr)
				out := filepath.Join(t.TempDir(), "fixed")
				rep := filepath.Join(t.TempDir(), "report.json")
				cr := run(t, timeoutCorrect, os.Environ(), correct, dir, "-o", out, "--format", "native", "--report", rep)
				require.NoError(t, cr.err, "clc-correct\n%s%s", cr.stdout, cr.stderr)
				var r struct {
					Events     int64 `json:"events"`
					Correction struct {
						EventsMoved int64 `json:"events_moved"`
					} `json:"correction"`
				}
				data, err := os.ReadFile(rep)
				require.NoError(t, err)
				require.NoError(t, json.Unmarshal(data, &r), rep)
				require.NotZero(t, r.Events, "the events the report counts:\n%s", data)
				assert.LessOrEqual(t, r.Correction.EventsMoved, int64(0), "%s: events clc-correct moved, of %d, in a real one-clock run (issue 8: a minimum latency above this machine's shared-memory latency does that)\n%s",
					c.prog, r.Events, cr.stdout)
				t.Logf("%s: clc-correct moved none of %d events", c.prog, r.Events)
			}
		})
	}
}

// TestFortranFileAndWindow: the Fortran wrappers of file and window
// functions (a file name with its hidden length, MPI_Offset and MPI_Aint
// arguments) record the bytes tests/mpi/fio.f90 moves: 64 written and 32
// read per rank, 24 put. With "abort" its rank 1 then calls the Fortran
// MPI_ABORT (under Open MPI the Fortran layer's wrapper, under MPICH the
// C one its binding calls): that rank's trace still holds those calls
// and ends with the enter of MPI_Abort, and the manifest says the trace
// is incomplete, and both ranks (rank 0 killed by the launcher) hold
// everything they did.
// Open MPI 4.1's one-sided rdma component fails in this container; the
// test uses pt2pt.
func TestFortranFileAndWindow(t *testing.T) {
	for _, k := range kits {
		for _, how := range []string{"complete", "abort"} {
			t.Run(string(k.fl)+"/"+how, func(t *testing.T) {
				k := need(t, k)
				dir := filepath.Join(t.TempDir(), "trace")
				res := traceRunEnv(t, k, false, 2, dir, nil, []string{"OMPI_MCA_osc=pt2pt"}, prog(t, k, "fio"), t.TempDir(), how)
				if how == "abort" {
					require.Error(t, res.err, "%s run\n%s%s", how, res.stdout, res.stderr)
				} else {
					require.NoError(t, res.err, "%s run\n%s%s", how, res.stdout, res.stderr)
				}
				if how == "abort" {
					finishedTrace(t, dir, false, res) // clc-trace --convert when the launcher killed clc-trace
				}
				tr, got := readCounts(t, dir)
				if how == "abort" {
					checkAborted(t, tr, 1)
				}
				for _, r := range []int{0, 1} {
					checkFio(t, r, got[r])
				}
			})
		}
	}
}

// checkFio compares what rank r of tests/mpi/fio.f90 did with its counts.
func checkFio(t *testing.T, r int, c *counts) {
	t.Helper()
	want := map[string]int64{"MPI_File_write_at": 64, "MPI_File_read_at_all": 32, "MPI_Put": 24}
	for f, b := range want {
		assert.Equal(t, b, c.Bytes[f], "rank %d: %s: bytes", r, f)
		assert.Equal(t, 1, c.Calls[f], "rank %d: %s: calls", r, f)
	}
	for _, f := range []string{"MPI_File_open", "MPI_File_close", "MPI_Win_create", "MPI_Win_free"} {
		assert.Equal(t, 1, c.Calls[f], "rank %d: calls of %s", r, f)
	}
	assert.Equal(t, 2, c.Calls["MPI_Win_fence"], "rank %d: calls of MPI_Win_fence", r)
}

// checkAborted checks the trace of a run whose rank r called MPI_Abort: the
// manifest says incomplete and r's events end with MPI_Abort's enter.
func checkAborted(t *testing.T, tr *trace.Trace, r int) {
	t.Helper()
	assert.Equal(t, "true", tr.Properties[trace.PropIncomplete], "the manifest says incomplete; properties %v", tr.Properties)
	ev := &tr.Locations[r].Events
	last := ev.Len() - 1
	if assert.GreaterOrEqual(t, last, 0, "rank %d: events", r) {
		assert.Equal(t, trace.KindEnter, ev.Kind[last], "rank %d: the kind of the last of %d events", r, ev.Len())
		assert.Equal(t, "MPI_Abort", tr.Regions[ev.Ref[last]].Name, "rank %d: the region of the last of %d events", r, ev.Len())
	}
}
