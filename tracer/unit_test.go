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
)

func TestParseFlavour(t *testing.T) {
	for in, want := range map[string]Flavour{"openmpi": OpenMPI, "OMPI": OpenMPI, "Open MPI": OpenMPI, "mpich": MPICH, "hydra": MPICH} {
		got, err := ParseFlavour(in)
		if err != nil || got != want {
			t.Errorf("ParseFlavour(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseFlavour("intel"); err == nil || !strings.Contains(err.Error(), "intel") {
		t.Errorf("ParseFlavour(intel): %v", err)
	}
}

func TestFlavourOfSoname(t *testing.T) {
	for so, want := range map[string]Flavour{
		"libmpi.so.40": OpenMPI, "libmpi_mpifh.so.40": OpenMPI, "libmpi_usempif08.so.40": OpenMPI,
		"libmpich.so.12": MPICH, "libmpichfort.so.12": MPICH, "libmpi.so.12": MPICH,
		"libc.so.6": "", "libgfortran.so.5": "", "libm.so.6": "",
	} {
		if got := flavourOfSoname(so); got != want {
			t.Errorf("flavourOfSoname(%q) = %q, want %q", so, got, want)
		}
	}
}

func TestFlavourOfProgramNotMPI(t *testing.T) {
	_, err := FlavourOfProgram("/bin/sh")
	if err == nil || !strings.Contains(err.Error(), "links no MPI library") {
		t.Errorf("FlavourOfProgram(/bin/sh): %v", err)
	}
	script := filepath.Join(t.TempDir(), "s")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := FlavourOfProgram(script); err == nil || !strings.Contains(err.Error(), "not an ELF") {
		t.Errorf("FlavourOfProgram(script): %v", err)
	}
}

func TestEnvAndRank(t *testing.T) {
	if f := FlavourOfEnv([]string{"A=1", "OMPI_COMM_WORLD_RANK=3"}); f != OpenMPI {
		t.Errorf("FlavourOfEnv Open MPI = %q", f)
	}
	if f := FlavourOfEnv([]string{"PMI_RANK=2"}); f != MPICH {
		t.Errorf("FlavourOfEnv MPICH = %q", f)
	}
	if r := RankOfEnv([]string{"PMI_RANK=2"}); r != 2 {
		t.Errorf("RankOfEnv = %d", r)
	}
	if r := RankOfEnv([]string{"HOME=/"}); r != -1 {
		t.Errorf("RankOfEnv without launcher = %d", r)
	}
	for _, l := range []string{"mpirun", "/usr/bin/mpiexec", "mpirun.mpich", "mpiexec.hydra", "mpirun.openmpi"} {
		if !IsLauncher(l) {
			t.Errorf("IsLauncher(%q) = false", l)
		}
	}
	if IsLauncher("./mpirunner") || IsLauncher("ring") {
		t.Error("IsLauncher accepts a program")
	}
}

func TestLauncherEnv(t *testing.T) {
	o := &Options{Dir: "/d", Lib: "/c/lib.so", Flavour: OpenMPI, Emulate: "seed=1"}
	base := []string{"PATH=/bin", "LD_PRELOAD=/x.so", "OMPI_MCA_mca_base_env_list=FOO"}
	env, err := LauncherEnv(base, o)
	if err != nil {
		t.Fatal(err)
	}
	list := getEnv(env, "OMPI_MCA_mca_base_env_list")
	if list != "LD_PRELOAD=/c/lib.so:/x.so;CLC_TRACE_DIR;CLC_TRACE_FLAVOUR;CLC_TRACE_EMULATE;CLC_TRACE_FLUSH;FOO" {
		t.Errorf("env list %q", list)
	}
	if getEnv(env, "LD_PRELOAD") != "/x.so" {
		t.Errorf("Open MPI: the launcher itself must not preload the library: %q", getEnv(env, "LD_PRELOAD"))
	}
	if getEnv(env, "CLC_TRACE_DIR") != "/d" || getEnv(env, "CLC_TRACE_EMULATE") != "seed=1" {
		t.Errorf("options missing: %v", env)
	}
	o.Flavour = MPICH
	env, err = LauncherEnv(base, o)
	if err != nil {
		t.Fatal(err)
	}
	if getEnv(env, "LD_PRELOAD") != "/c/lib.so:/x.so" {
		t.Errorf("MPICH LD_PRELOAD = %q", getEnv(env, "LD_PRELOAD"))
	}
	env = RankEnv([]string{"PATH=/bin"}, o)
	if getEnv(env, "LD_PRELOAD") != "/c/lib.so" || getEnv(env, "CLC_TRACE_DIR") != "/d" {
		t.Errorf("RankEnv = %v", env)
	}
	o.Flavour, o.Lib = OpenMPI, "/a;b/lib.so"
	if _, err := LauncherEnv(nil, o); err == nil {
		t.Error("a ';' in the library path must be refused for Open MPI")
	}
}

func TestParseEmulation(t *testing.T) {
	e, err := ParseEmulation("on")
	if err != nil || e != DefaultEmulation {
		t.Fatalf("on: %+v %v", e, err)
	}
	e, err = ParseEmulation("offset=500us,drift=20ppm,wander=3µs,period=100ms,seed=7")
	if err != nil {
		t.Fatal(err)
	}
	if e.Offset != 500*time.Microsecond || e.Drift != 20e-6 || e.Wander != 3*time.Microsecond || e.Period != 100*time.Millisecond || e.Seed != 7 {
		t.Errorf("parsed %+v", e)
	}
	e.RanksPerNode = 4
	if s := e.Spec(); s != "seed=7,offset=0.0005,drift=2e-05,wander=3e-06,period=0.1,rpn=4" {
		t.Errorf("Spec() = %q", s)
	}
	for _, bad := range []string{"offset", "offset=-1ms", "drift=2", "period=0s", "colour=red", "seed=x"} {
		if _, err := ParseEmulation(bad); err == nil {
			t.Errorf("ParseEmulation(%q) accepted", bad)
		}
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
	if err := native.WriteDir(context.Background(), dir, tr, opt); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "events", "0.clce")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, cut, err := CountWholeBlocks(path)
	if err != nil || cut || n != 3000 {
		t.Fatalf("whole file: %d events, cut %v, %v", n, cut, err)
	}
	cp := filepath.Join(t.TempDir(), "cut.clce")
	prev := int64(0)
	for l := 32; l <= len(data); l += 7 {
		if err := os.WriteFile(cp, data[:l], 0o644); err != nil {
			t.Fatal(err)
		}
		n, _, err := CountWholeBlocks(cp)
		if err != nil {
			t.Fatalf("cut at %d: %v", l, err)
		}
		if n < prev || n > 3000 {
			t.Fatalf("cut at %d: %d events after %d", l, n, prev)
		}
		prev = n
	}
	bad := append([]byte(nil), data...)
	bad[100] ^= 0xff
	if err := os.WriteFile(cp, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if n, cut, _ := CountWholeBlocks(cp); !cut || n >= 3000 {
		t.Errorf("a flipped byte: %d events, cut %v", n, cut)
	}
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
	if err := native.WriteDir(context.Background(), filepath.Join(dir, "w"), src, opt); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "events"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "w", "events", "0.clce"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "events", "0.clce"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	meta := filepath.Join(dir, MetaDir)
	if err := os.MkdirAll(meta, 0o755); err != nil {
		t.Fatal(err)
	}
	m0 := "clc-meta 1\nrank 0 2\nhost a\nresolution 2000000000\nregion 0 MPI_Init\nregion 1 MPI_Send\ncomm 0 0 MPI_COMM_WORLD 0 1\noffset 7 0 0\n"
	m1 := "clc-meta 1\nrank 1 2\nhost b\nresolution 2000000100\ncomm 2 0 MPI_Comm_split 1\ncomm 2 1 MPI_Comm_split 0\noffset 6 -40 300\n"
	if err := os.WriteFile(filepath.Join(meta, "0.txt"), []byte(m0), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(meta, "1.txt"), []byte(m1), 0o644); err != nil {
		t.Fatal(err)
	}
	wrote, err := WriteIncompleteManifest(dir, nil)
	if err != nil || !wrote {
		t.Fatalf("WriteIncompleteManifest: %v %v", wrote, err)
	}
	tr, err := native.ReadDir(dir, nil)
	if err != nil {
		t.Fatalf("reading the incomplete trace: %v", err)
	}
	if tr.Properties[native.PropIncomplete] != "true" || tr.Resolution != 2e9 || len(tr.Locations) != 2 || len(tr.Nodes) != 2 {
		t.Fatalf("read back %+v", tr)
	}
	if got := tr.Comms[2].Members; len(got) != 2 || got[0] != 1 || got[1] != 0 {
		t.Errorf("communicator 2 members %v, want [1 0] (pieces in order)", got)
	}
	if tr.Comms[1].Size() != 0 {
		t.Errorf("unused position 1 should be an empty placeholder: %+v", tr.Comms[1])
	}
	if l := tr.Locations[1]; len(l.Offsets) != 1 || l.Offsets[0].Offset != -40 || l.Offsets[0].RTT != 300 || l.Events.Len() != 0 {
		t.Errorf("rank 1: %+v", l)
	}
	if tr.Locations[0].Events.Len() != 3 {
		t.Errorf("rank 0: %d events, want 3", tr.Locations[0].Events.Len())
	}
	if wrote, err := WriteIncompleteManifest(dir, nil); err != nil || wrote {
		t.Errorf("a second call replaced the manifest: %v %v", wrote, err)
	}
	if _, err := WriteIncompleteManifest(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "no tracer metadata") {
		t.Errorf("empty directory: %v", err)
	}
}

// TestHelp: the clock-error emulation is a documented flag of clc-trace.
func TestHelp(t *testing.T) {
	ct := tools(t)
	res := run(t, time.Minute, os.Environ(), ct, "--help")
	if res.err != nil {
		t.Fatalf("clc-trace --help: %v\n%s", res.err, res.stderr)
	}
	for _, want := range []string{"--emulate-clock", "--emulate-ranks-per-node", "offset=1ms,drift=10ppm,wander=2us,period=200ms,seed=1",
		"mpirun -np 4 clc-trace -o DIR ./app", "clc-trace -o DIR -- mpirun -np 4 ./app", "--sync", "--mpi"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("--help does not mention %q", want)
		}
	}
	res = run(t, time.Minute, os.Environ(), ct, "--emulate-clock", "colour=red", "true")
	if res.err == nil || !strings.Contains(res.stderr, "unknown key") {
		t.Errorf("a bad --emulate-clock spec: %v\n%s", res.err, res.stderr)
	}
	res = run(t, time.Minute, os.Environ(), ct)
	if res.err == nil || !strings.Contains(res.stderr, "no program") {
		t.Errorf("no program: %v\n%s", res.err, res.stderr)
	}
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
		if err != nil || g.String() != want {
			t.Errorf("ParseGroups(%q) = %q, %v; want %q", spec, g, err, want)
		}
	}
	for _, bad := range []string{"p2p,nope", "spawn", "-"} {
		if _, err := ParseGroups(bad); err == nil {
			t.Errorf("ParseGroups(%q) accepted", bad)
		}
	}
}

// TestScanImportsFollowsLibraries: the imports of a shared library the
// program needs count (found through DT_RUNPATH with $ORIGIN), those of
// the MPI library itself do not.
func TestScanImportsFollowsLibraries(t *testing.T) {
	cc := testenv.Tool(t, "mpicc.mpich", "mpich libmpich-dev")
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib", "libhelper.so")
	if err := os.MkdirAll(filepath.Dir(lib), 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "helper.c")
	if err := os.WriteFile(src, []byte("#include <mpi.h>\nint helper(void) { MPI_Comm c; return MPI_Comm_connect(\"p\", MPI_INFO_NULL, 0, MPI_COMM_WORLD, &c); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	main := filepath.Join(dir, "main.c")
	if err := os.WriteFile(main, []byte("int helper(void);\nint main(void) { return helper(); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "app")
	if out, err := exec.Command(cc, "-o", exe, main, "-L"+filepath.Dir(lib), "-lhelper", "-Wl,--enable-new-dtags,-rpath,$ORIGIN/lib").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	im, err := ScanImports(exe, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Funcs["MPI_Comm_connect"]) != 1 || im.Funcs["MPI_Comm_connect"][0] != lib {
		t.Errorf("MPI_Comm_connect imported by %v, want %s (objects %v, missing %v)", im.Funcs["MPI_Comm_connect"], lib, im.Objects, im.Missing)
	}
	for _, o := range im.Objects {
		if flavourOfSoname(o) != "" {
			t.Errorf("scanned the MPI library %s", o)
		}
	}
	u := im.Unrecorded(AllGroups)
	if len(u) != 1 || u[0].Name != "MPI_Comm_connect" {
		t.Errorf("unrecorded %+v, want MPI_Comm_connect", u)
	}
}
