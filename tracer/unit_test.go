package tracer

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFlavour(t *testing.T) {
	for in, want := range map[string]Flavour{"openmpi": OpenMPI, "OMPI": OpenMPI, "Open MPI": OpenMPI, "mpich": MPICH, "hydra": MPICH} {
		got, err := ParseFlavour(in)
		if assert.NoError(t, err, "ParseFlavour(%q)", in) {
			assert.Equal(t, want, got, "ParseFlavour(%q)", in)
		}
	}
	_, err := ParseFlavour("intel")
	assert.ErrorContains(t, err, "intel", "ParseFlavour(intel)")
}

func TestFlavourOfSoname(t *testing.T) {
	for so, want := range map[string]Flavour{
		"libmpi.so.40": OpenMPI, "libmpi_mpifh.so.40": OpenMPI, "libmpi_usempif08.so.40": OpenMPI,
		"libmpich.so.12": MPICH, "libmpichfort.so.12": MPICH, "libmpi.so.12": MPICH,
		"libc.so.6": "", "libgfortran.so.5": "", "libm.so.6": "",
	} {
		assert.Equal(t, want, flavourOfSoname(so), "flavourOfSoname(%q)", so)
	}
}

func TestFlavourOfProgramNotMPI(t *testing.T) {
	_, err := FlavourOfProgram("/bin/sh")
	assert.ErrorContains(t, err, "links no MPI library", "FlavourOfProgram(/bin/sh)")
	script := filepath.Join(t.TempDir(), "s")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755))
	_, err = FlavourOfProgram(script)
	assert.ErrorContains(t, err, "not an ELF", "FlavourOfProgram(script)")
}

func TestIsLauncher(t *testing.T) {
	for _, l := range []string{"mpirun", "/usr/bin/mpiexec", "mpirun.mpich", "mpiexec.hydra", "mpirun.openmpi"} {
		assert.True(t, IsLauncher(l), "IsLauncher(%q)", l)
	}
	for _, p := range []string{"./mpirunner", "ring"} {
		assert.False(t, IsLauncher(p), "IsLauncher(%q): a program", p)
	}
}

func TestLauncherEnv(t *testing.T) {
	o := &Options{Dir: "/d", Lib: "/c/lib.so", Flavour: OpenMPI, Emulate: "seed=1"}
	base := []string{"PATH=/bin", "LD_PRELOAD=/x.so", "OMPI_MCA_mca_base_env_list=FOO"}
	env, err := LauncherEnv(base, o)
	require.NoError(t, err)
	assert.Equal(t, "LD_PRELOAD=/c/lib.so:/x.so;CLC_TRACE_DIR;CLC_TRACE_FLAVOUR;CLC_TRACE_EMULATE;CLC_TRACE_FLUSH;FOO",
		getEnv(env, "OMPI_MCA_mca_base_env_list"), "Open MPI: the env list")
	assert.Equal(t, "/x.so", getEnv(env, "LD_PRELOAD"), "Open MPI: the launcher itself must not preload the library")
	assert.Equal(t, "/d", getEnv(env, "CLC_TRACE_DIR"), "Open MPI: CLC_TRACE_DIR")
	assert.Equal(t, "seed=1", getEnv(env, "CLC_TRACE_EMULATE"), "Open MPI: CLC_TRACE_EMULATE")
	o.Flavour = MPICH
	env, err = LauncherEnv(base, o)
	require.NoError(t, err)
	assert.Equal(t, "/c/lib.so:/x.so", getEnv(env, "LD_PRELOAD"), "MPICH: LD_PRELOAD")
	env = RankEnv([]string{"PATH=/bin"}, o)
	assert.Equal(t, "/c/lib.so", getEnv(env, "LD_PRELOAD"), "RankEnv: LD_PRELOAD")
	assert.Equal(t, "/d", getEnv(env, "CLC_TRACE_DIR"), "RankEnv: CLC_TRACE_DIR")
	o.Flavour, o.Lib = OpenMPI, "/a;b/lib.so"
	_, err = LauncherEnv(nil, o)
	assert.Error(t, err, "a ';' in the library path must be refused for Open MPI")
}

func TestParseEmulation(t *testing.T) {
	e, err := ParseEmulation("on")
	require.NoError(t, err, "on")
	require.Equal(t, DefaultEmulation, e, "on")
	e, err = ParseEmulation("offset=500us,drift=20ppm,wander=3µs,period=100ms,seed=7")
	require.NoError(t, err)
	assert.Equal(t, 500*time.Microsecond, e.Offset, "offset")
	assert.Equal(t, 20e-6, e.Drift, "drift")
	assert.Equal(t, 3*time.Microsecond, e.Wander, "wander")
	assert.Equal(t, 100*time.Millisecond, e.Period, "period")
	assert.EqualValues(t, 7, e.Seed, "seed")
	e.RanksPerNode = 4
	assert.Equal(t, "seed=7,offset=0.0005,drift=2e-05,wander=3e-06,period=0.1,rpn=4", e.Spec(), "Spec()")
	for _, bad := range []string{"offset", "offset=-1ms", "drift=2", "period=0s", "colour=red", "seed=x"} {
		_, err := ParseEmulation(bad)
		assert.Error(t, err, "ParseEmulation(%q)", bad)
	}
}

// TestCountWholeBlocks writes a stream with the trace package's writer (an
// independent implementation of the format), cuts it at every length and
// checks that the scanner counts exactly the events of the whole blocks.
func TestCountWholeBlocks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tr")
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "MPI_Init"}},
		Comms: []trace.Comm{{Name: "w", Members: []int32{0}}}, Locations: []*trace.Location{{ID: 0, Name: "rank 0"}}}
	for i := 0; i < 3000; i++ {
		tr.Locations[0].Events.AppendRegion(trace.KindEnter, int64(i*10), 0)
	}
	opt := native.DefaultWriteOptions()
	opt.Codec = native.CodecNone
	opt.BlockSize = 1000
	require.NoError(t, native.WriteDir(context.Background(), dir, tr, opt))
	path := filepath.Join(dir, "events", "0.clce")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	n, cut, err := CountWholeBlocks(path)
	require.NoError(t, err, "whole file")
	require.False(t, cut, "whole file: cut")
	require.EqualValues(t, 3000, n, "whole file: events")
	cp := filepath.Join(t.TempDir(), "cut.clce")
	prev := int64(0)
	for l := 32; l <= len(data); l += 7 {
		require.NoError(t, os.WriteFile(cp, data[:l], 0o644))
		n, _, err := CountWholeBlocks(cp)
		require.NoError(t, err, "cut at %d", l)
		require.True(t, prev <= n && n <= 3000, "cut at %d: %d events after %d", l, n, prev)
		prev = n
	}
	bad := append([]byte(nil), data...)
	bad[100] ^= 0xff
	require.NoError(t, os.WriteFile(cp, bad, 0o644))
	n, cut, _ = CountWholeBlocks(cp)
	assert.True(t, cut, "a flipped byte: cut")
	assert.Less(t, n, int64(3000), "a flipped byte: events")
}

// TestIncompleteManifest builds an unfinished trace by hand: metadata of
// two ranks, a stream for rank 0 only; the manifest must read with the
// trace package and never replace an existing manifest.
func TestIncompleteManifest(t *testing.T) {
	dir := t.TempDir()
	src := &trace.Trace{Resolution: 2e9, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "MPI_Init"}, {Name: "MPI_Send"}},
		Comms: []trace.Comm{{Name: "w", Members: []int32{0, 1}}}, Locations: []*trace.Location{{ID: 0}, {ID: 1}}}
	ev := &src.Locations[0].Events
	ev.AppendRegion(trace.KindEnter, 5, 0)
	ev.AppendRegion(trace.KindLeave, 9, 0)
	ev.AppendMsg(trace.KindSend, 12, trace.Message{Peer: 1, Comm: 0, Tag: 3, Bytes: 8})
	opt := native.DefaultWriteOptions()
	opt.Codec = native.CodecNone
	require.NoError(t, native.WriteDir(context.Background(), filepath.Join(dir, "w"), src, opt))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "events"), 0o755))
	data, err := os.ReadFile(filepath.Join(dir, "w", "events", "0.clce"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "events", "0.clce"), data, 0o644))
	meta := filepath.Join(dir, MetaDir)
	require.NoError(t, os.MkdirAll(meta, 0o755))
	m0 := "clc-meta 1\nrank 0 2\nhost a\nresolution 2000000000\nregion 0 MPI_Init\nregion 1 MPI_Send\ncomm 0 0 MPI_COMM_WORLD 0 1\noffset 7 0 0\n"
	m1 := "clc-meta 1\nrank 1 2\nhost b\nresolution 2000000100\ncomm 2 0 MPI_Comm_split 1\ncomm 2 1 MPI_Comm_split 0\noffset 6 -40 300\n"
	require.NoError(t, os.WriteFile(filepath.Join(meta, "0.txt"), []byte(m0), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(meta, "1.txt"), []byte(m1), 0o644))
	wrote, err := WriteIncompleteManifest(dir, nil)
	require.NoError(t, err, "WriteIncompleteManifest")
	require.True(t, wrote, "WriteIncompleteManifest wrote")
	tr, err := native.ReadDir(dir, nil)
	require.NoError(t, err, "reading the incomplete trace")
	require.Equal(t, "true", tr.Properties[trace.PropIncomplete], "read back: %s", trace.PropIncomplete)
	require.EqualValues(t, 2e9, tr.Resolution, "read back: resolution")
	require.Len(t, tr.Locations, 2, "read back: locations")
	require.Len(t, tr.Nodes, 2, "read back: nodes")
	assert.Equal(t, []int32{1, 0}, tr.Comms[2].Members, "communicator 2 members (pieces in order)")
	assert.Zero(t, tr.Comms[1].Size(), "unused position 1 should be an empty placeholder: %+v", tr.Comms[1])
	l := tr.Locations[1]
	if assert.Len(t, l.Offsets, 1, "rank 1: offsets") {
		assert.EqualValues(t, -40, l.Offsets[0].Offset, "rank 1: offset")
		assert.EqualValues(t, 300, l.Offsets[0].RTT, "rank 1: RTT")
	}
	assert.Zero(t, l.Events.Len(), "rank 1: events")
	assert.Equal(t, 3, tr.Locations[0].Events.Len(), "rank 0: events")
	wrote, err = WriteIncompleteManifest(dir, nil)
	assert.NoError(t, err, "a second call")
	assert.False(t, wrote, "a second call replaced the manifest")
	_, err = WriteIncompleteManifest(t.TempDir(), nil)
	assert.ErrorContains(t, err, "no tracer metadata", "an empty directory")
}

// TestHelp: the clock-error emulation is a documented flag of clc-trace.
func TestHelp(t *testing.T) {
	ct := tools(t)
	res := run(t, time.Minute, os.Environ(), ct, "--help")
	require.NoError(t, res.err, "clc-trace --help\n%s", res.stderr)
	for _, want := range []string{"--emulate-clock", "--emulate-ranks-per-node", "offset=1ms,drift=10ppm,wander=2us,period=200ms,seed=1",
		"mpirun -np 4 clc-trace -o DIR ./app", "clc-trace -o DIR -- mpirun -np 4 ./app", "--sync", "--mpi"} {
		assert.Contains(t, res.stdout, want, "--help")
	}
	res = run(t, time.Minute, os.Environ(), ct, "--emulate-clock", "colour=red", "true")
	assert.Error(t, res.err, "a bad --emulate-clock spec")
	assert.Contains(t, res.stderr, "unknown key", "a bad --emulate-clock spec")
	res = run(t, time.Minute, os.Environ(), ct)
	assert.Error(t, res.err, "no program")
	assert.Contains(t, res.stderr, "no program", "no program")
}

func TestParseGroups(t *testing.T) {
	for spec, want := range map[string]string{
		"":                  "env,p2p,coll,cg,topo,io,rma,xreqtest",
		"all":               "env,p2p,coll,cg,topo,io,rma,xreqtest",
		"p2p,coll":          "env,p2p,coll",
		"all,-io,-xreqtest": "env,p2p,coll,cg,topo,rma",
		"COLL":              "env,coll",
	} {
		g, err := ParseGroups(spec)
		if assert.NoError(t, err, "ParseGroups(%q)", spec) {
			assert.Equal(t, want, g.String(), "ParseGroups(%q)", spec)
		}
	}
	for _, bad := range []string{"p2p,nope", "spawn", "-"} {
		_, err := ParseGroups(bad)
		assert.Error(t, err, "ParseGroups(%q)", bad)
	}
}

// TestScanImportsFollowsLibraries: the imports of a shared library the
// program needs count (found through DT_RUNPATH with $ORIGIN), those of
// the MPI library itself do not.
func TestScanImportsFollowsLibraries(t *testing.T) {
	cc := testenv.Tool(t, "mpicc.mpich", "mpich libmpich-dev")
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib", "libhelper.so")
	require.NoError(t, os.MkdirAll(filepath.Dir(lib), 0o755))
	src := filepath.Join(dir, "helper.c")
	require.NoError(t, os.WriteFile(src, []byte("#include <mpi.h>\nint helper(void) { MPI_Comm c; return MPI_Comm_connect(\"p\", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c); }\n"), 0o644))
	out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput()
	require.NoError(t, err, "%s", out)
	main := filepath.Join(dir, "main.c")
	require.NoError(t, os.WriteFile(main, []byte("int helper(void);\nint main(void) { return helper(); }\n"), 0o644))
	exe := filepath.Join(dir, "app")
	out, err = exec.Command(cc, "-o", exe, main, "-L"+filepath.Dir(lib), "-lhelper", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/lib").CombinedOutput()
	require.NoError(t, err, "%s", out)
	im, err := ScanImports(exe, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{lib}, im.Funcs["MPI_Comm_connect"], "the objects importing MPI_Comm_connect (objects %v, missing %v)", im.Objects, im.Missing)
	for _, o := range im.Objects {
		assert.Empty(t, flavourOfSoname(o), "scanned the MPI library %s", o)
	}
	u := im.Unrecorded(AllGroups)
	if assert.Len(t, u, 1, "unrecorded functions %+v", u) {
		assert.Equal(t, "MPI_Comm_connect", u[0].Name, "the unrecorded function")
	}
}

// TestEnvOwnsItsNamespace: CLC_TRACE_* variables the user's environment
// holds (directly, or in Open MPI's env list, which every rank's MPI_Init
// applies) never reach the program: only what the options say does
// (issue 33: CLC_TRACE_GROUPS=garbage recorded 8 of 462 events,
// CLC_TRACE_NEWDIR overrode -o).
func TestEnvOwnsItsNamespace(t *testing.T) {
	stray := []string{"PATH=/bin", "CLC_TRACE_GROUPS=garbage", "CLC_TRACE_EMULATE=on", "CLC_TRACE_NEWDIR=/elsewhere",
		"CLC_TRACE_DIR_NOTE=/home/u/thesis.txt", "CLC_TRACE_FUTURE=1", "CLC_TRACE_DIR=/wrong",
		"OMPI_MCA_mca_base_env_list=CLC_TRACE_POLLS=all;FOO=1;CLC_TRACE_GROUPS"}
	o := &Options{Dir: "/d", Lib: "/c/lib.so", Flavour: OpenMPI}
	check := func(what string, env []string) {
		t.Helper()
		want := map[string]bool{}
		for _, kv := range o.Vars() {
			want[kv] = true
		}
		for _, kv := range env {
			if strings.HasPrefix(kv, VarPrefix) {
				assert.True(t, want[kv], "%s: %s reaches the program, the options do not say it", what, kv)
			}
		}
		assert.Equal(t, "/bin", getEnv(env, "PATH"), "%s: other variables stay", what)
		for _, item := range strings.Split(getEnv(env, "OMPI_MCA_mca_base_env_list"), ";") {
			assert.False(t, strings.HasPrefix(item, "CLC_TRACE_POLLS=") || item == "CLC_TRACE_GROUPS",
				"%s: the env list still carries the user's %s", what, item)
		}
	}
	check("per rank", RankEnv(stray, o))
	assert.Contains(t, getEnv(RankEnv(stray, o), "OMPI_MCA_mca_base_env_list"), "FOO=1", "per rank: the user's other items stay")
	env, err := LauncherEnv(stray, o)
	require.NoError(t, err)
	check("Open MPI launcher", env)
	assert.Contains(t, getEnv(env, "OMPI_MCA_mca_base_env_list"), "FOO=1", "Open MPI launcher: the user's other items stay")
	o.Flavour = MPICH
	env, err = LauncherEnv(stray, o)
	require.NoError(t, err)
	check("MPICH launcher", env)
	assert.Equal(t, "/d", getEnv(env, "CLC_TRACE_DIR"), "MPICH launcher: -o's directory")
}
