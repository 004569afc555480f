package tracer

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The region filter of TestUserRegions, in Score-P's syntax.
const testFilter = `# what tests/mpi/regions.c must not show
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE helper_*   # a function of the program
          noise      # a region it marks
  INCLUDE MANGLED _Z*never_matches*
SCOREP_REGION_NAMES_END
`

var (
	regionOnce = map[Flavour]*sync.Once{OpenMPI: {}, MPICH: {}}
	regionErr  = map[Flavour]error{}
)

// regionProgs builds tests/mpi/regions.c as C and as C++ with
// -finstrument-functions and fregions.f90 with the API's Fortran file,
// for kit k: regions.F, regionsxx.F, fregions.F in buildDir.
func regionProgs(t *testing.T, k mpiKit) {
	t.Helper()
	tools(t)
	regionOnce[k.fl].Do(func() {
		src, api := mustAbs("../tests/mpi"), mustAbs("../cmd/clc-trace/api")
		instr := []string{"-O1", "-finstrument-functions", "-finstrument-functions-exclude-file-list=expect.h,mpi.h,include/c++", "-I" + api}
		cxx := strings.Replace(k.cc, "mpicc", "mpicxx", 1)
		builds := [][]string{
			append(append([]string{k.cc}, instr...), "-o", filepath.Join(buildDir, "regions."+string(k.fl)), filepath.Join(src, "regions.c"), "-lm"),
			append(append([]string{cxx, "-x", "c++"}, instr...), "-o", filepath.Join(buildDir, "regionsxx."+string(k.fl)), filepath.Join(src, "regions.c"), "-lm"),
			{k.cc, "-c", "-o", filepath.Join(buildDir, "clc_user_f."+string(k.fl)+".o"), filepath.Join(api, "clc_user_f.c")},
			{k.fc, "-o", filepath.Join(buildDir, "fregions."+string(k.fl)), filepath.Join(src, "fregions.f90"), filepath.Join(buildDir, "clc_user_f."+string(k.fl)+".o")},
		}
		for _, b := range builds {
			if out, err := exec.Command(b[0], b[1:]...).CombinedOutput(); err != nil {
				regionErr[k.fl] = fmt.Errorf("%s: %v\n%s", strings.Join(b, " "), err, out)
				return
			}
		}
	})
	require.NoError(t, regionErr[k.fl])
}

type regionCase struct {
	prog string
	wrap bool
	otf2 bool
}

// TestUserRegions: regions marked with the C API and the Fortran one, and
// functions of a C and of a C++ program compiled with
// -finstrument-functions (names from the symbol table, demangled), with a
// filter file, under both MPIs in both launch styles and both formats:
// every rank holds exactly the regions the program says it entered (none
// of those the filter leaves out) and its MPI calls, properly nested; the
// OTF2 archive defines each region once and the reference library counts
// the same; clc-correct's report counts the user regions.
func TestUserRegions(t *testing.T) {
	filter := filepath.Join(t.TempDir(), "test.filter")
	require.NoError(t, os.WriteFile(filter, []byte(testFilter), 0o644))
	for ki, k := range kits {
		t.Run(string(k.fl), func(t *testing.T) {
			k := need(t, k)
			testenv.Tool(t, k.fc, mpiPackages)
			regionProgs(t, k)
			cases := []regionCase{{"regions", ki == 0, false}, {"regionsxx", ki != 0, true}, {"fregions", ki == 0, ki != 0}}
			if testenv.Full() {
				cases = nil
				for _, p := range []string{"regions", "regionsxx", "fregions"} {
					for _, c := range []regionCase{{p, false, false}, {p, true, false}, {p, false, true}, {p, true, true}} {
						cases = append(cases, c)
					}
				}
			}
			for _, c := range cases {
				name := c.prog + map[bool]string{true: "-wrap", false: "-per-rank"}[c.wrap] + map[bool]string{true: "-otf2", false: ""}[c.otf2]
				t.Run(name, func(t *testing.T) {
					const ranks = 3
					dir := filepath.Join(t.TempDir(), "trace")
					flags := []string{"--filter", filter}
					format := "native"
					if c.otf2 {
						format = "otf2"
						flags = append(flags, "--format", "otf2")
					}
					res := traceRun(t, k, c.wrap, ranks, dir, flags, filepath.Join(buildDir, c.prog+"."+string(k.fl)), "7")
					require.NoError(t, res.err, "traced run failed\n%s%s", res.stdout, res.stderr)
					exp := parseExpect(t, res)
					require.Len(t, exp, ranks, "CLC-EXPECT lines")
					tr := readTrace(t, dir, format)
					got, err := countTrace(tr)
					require.NoError(t, err)
					checkCounts(t, "our reader", got, exp)
					for r := range tr.Locations {
						checkStack(t, tr, r)
					}
					if c.otf2 {
						seen := map[string]bool{}
						for _, rg := range tr.Regions {
							if rg.Name != "" {
								assert.False(t, seen[rg.Name], "the archive defines region %q twice", rg.Name)
							}
							seen[rg.Name] = true
						}
						checkCounts(t, "python3-otf2", countPython(t, filepath.Join(dir, "traces.otf2"), ranks), exp)
					}
					in := dir
					if c.otf2 {
						in = filepath.Join(dir, "traces.otf2")
					}
					cr := run(t, timeoutCorrect, os.Environ(), correct, in, "--check")
					user := 0
					for _, n := range exp[0].Regions {
						if n > 0 {
							user++
						}
					}
					if assert.NoError(t, cr.err, "clc-correct\n%s%s", cr.stdout, cr.stderr) {
						assert.Contains(t, cr.stdout, fmt.Sprintf("user regions: %d (", user), "clc-correct's report of the user regions")
					}
				})
			}
		})
	}
}

// checkStack: every leave leaves the innermost open region, and none is
// open at the end.
func checkStack(t *testing.T, tr *trace.Trace, r int) {
	t.Helper()
	var open []uint32
	ev := &tr.Locations[r].Events
	for i, k := range ev.Kind {
		switch k {
		case trace.KindEnter:
			open = append(open, ev.Ref[i])
		case trace.KindLeave:
			require.True(t, len(open) > 0 && open[len(open)-1] == ev.Ref[i],
				"rank %d event %d: leaves %s, but the innermost open region is %v", r, i, tr.Regions[ev.Ref[i]].Name, open)
			open = open[:len(open)-1]
		}
	}
	assert.Empty(t, open, "rank %d: regions not left", r)
}

// TestNewDirectoryPerRun: without -o each run writes a new directory
// clc-trace-YYYYMMDD_HHMMSS[_N] in the working directory, in both launch
// styles (per rank, rank 0's library makes it and tells every rank); each
// holds a complete trace.
func TestNewDirectoryPerRun(t *testing.T) {
	for ki, k := range kits {
		t.Run(string(k.fl), func(t *testing.T) {
			k := need(t, k)
			p := prog(t, k, "ring")
			styles := []bool{ki == 0}
			if testenv.Full() {
				styles = []bool{false, true}
			}
			for _, wrap := range styles {
				for _, format := range []string{"native", "otf2"} {
					t.Run(fmt.Sprintf("wrap=%v/%s", wrap, format), func(t *testing.T) {
						wd := t.TempDir()
						for i := 0; i < 2; i++ {
							name, argv := traceArgs(t, k, wrap, 3, "", []string{"--format", format}, p, "2")
							cmd := exec.Command(name, argv...)
							cmd.Dir = wd
							cmd.Env = append(mpiEnv(t), "CLC_EXPECT_DIR="+t.TempDir())
							out, err := cmd.CombinedOutput()
							require.NoError(t, err, "run %d\n%s", i, out)
						}
						dirs, err := filepath.Glob(filepath.Join(wd, "clc-trace-*"))
						require.NoError(t, err)
						require.Len(t, dirs, 2, "the directories two runs made")
						for _, d := range dirs {
							tr := readTrace(t, d, format)
							assert.Len(t, tr.Locations, 3, "%s: locations", d)
							assert.NotEqual(t, "true", tr.Properties[trace.PropIncomplete], "%s: %s", d, trace.PropIncomplete)
						}
					})
				}
			}
		})
	}
}
