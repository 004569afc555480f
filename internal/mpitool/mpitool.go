// Package mpitool is what clc-trace's PMPI library and comm/mpi's helper
// share about the machine's MPI: its flavours, the variables its launchers
// set, its C compiler wrapper (mpicc), and the per-user cache of what is
// built with that wrapper, keyed by the sources and the MPI, filled under a
// lock by one of the concurrently starting ranks and by an atomic rename.
package mpitool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Flavour is an MPI implementation family. What is built for one crashes
// under the other, so every build and launch is tied to one flavour.
type Flavour string

// The MPI flavours clc supports.
const (
	OpenMPI Flavour = "openmpi"
	MPICH   Flavour = "mpich"
)

// Name is the flavour as people write it: "Open MPI" or "MPICH".
func (f Flavour) Name() string {
	if f == OpenMPI {
		return "Open MPI"
	}
	return "MPICH"
}

// FlavourOfEnv recognises the variables each launcher sets in its ranks
// ("" when none is there).
func FlavourOfEnv(env []string) Flavour {
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "OMPI_COMM_WORLD_RANK="):
			return OpenMPI
		case strings.HasPrefix(kv, "PMI_RANK="), strings.HasPrefix(kv, "HYDI_CONTROL_FD="), strings.HasPrefix(kv, "MPIR_CVAR_"):
			return MPICH
		}
	}
	return ""
}

// LookupEnv returns the value of the variable name in env, "" if unset.
func LookupEnv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// intOfEnv returns the value of the first of names set to an integer in
// env, and whether one was.
func intOfEnv(env []string, names ...string) (int, bool) {
	for _, name := range names {
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, name+"="); ok {
				if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
					return n, true
				}
			}
		}
	}
	return 0, false
}

// RankOfEnv returns the world rank an MPI launcher gave this process
// (Open MPI's, MPICH's PMI or PMIx's variable), or -1.
func RankOfEnv(env []string) int {
	if r, ok := intOfEnv(env, "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"); ok {
		return r
	}
	return -1
}

// StepRankOfEnv returns the task number srun gave this process in a job
// step (SLURM_PROCID with SLURM_STEP_NUM_TASKS), or -1: a batch script
// has SLURM_PROCID too, but it is no step of several tasks.
func StepRankOfEnv(env []string) int {
	if _, ok := intOfEnv(env, "SLURM_STEP_NUM_TASKS"); !ok {
		return -1
	}
	if r, ok := intOfEnv(env, "SLURM_PROCID"); ok {
		return r
	}
	return -1
}

// SizeOfEnv returns the number of processes a launcher started, or 0 when
// no launcher's variable says. PMIx sets no size variable of its own:
// under srun SLURM_STEP_NUM_TASKS says it (the step's tasks: SLURM_NTASKS
// is also set in a batch script, which is not a step of several tasks).
func SizeOfEnv(env []string) int {
	if n, ok := intOfEnv(env, "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"); ok && n > 0 {
		return n
	}
	return 0
}

// LookPath resolves prog like a shell does (a name with a slash is taken as
// it is).
func LookPath(prog string) (string, error) {
	if strings.Contains(prog, "/") {
		if _, err := os.Stat(prog); err != nil {
			return "", err
		}
		return prog, nil
	}
	return exec.LookPath(prog)
}

// Compiler is an MPI C compiler wrapper of a known flavour.
type Compiler struct {
	Path    string
	Flavour Flavour
	// Show is what the wrapper says it runs (mpicc -showme / -show).
	Show string
	// Header identifies the MPI's mpi.h: the version it defines and a
	// hash of its bytes ("" if the wrapper names no directory holding
	// it). With Show it goes into the cache key, so that an MPI upgraded
	// in place rebuilds.
	Header string
}

// ErrNoCompiler is wrapped by FindCompiler's errors.
var ErrNoCompiler = errors.New("no MPI C compiler")

// compilerCandidates lists the wrapper names tried for a flavour, in order.
func compilerCandidates(fl Flavour) []string {
	switch fl {
	case OpenMPI:
		return []string{"mpicc.openmpi", "mpicc"}
	case MPICH:
		return []string{"mpicc.mpich", "mpicc"}
	}
	return []string{"mpicc", "mpicc.openmpi", "mpicc.mpich"}
}

// compilerFlavour asks a wrapper which MPI it belongs to.
func compilerFlavour(path string) (Flavour, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, path, "-showme").CombinedOutput(); err == nil && len(out) > 0 {
		s := strings.TrimSpace(string(out))
		if strings.Contains(s, "openmpi") || strings.Contains(s, "-lmpi") {
			return OpenMPI, s
		}
	}
	if out, err := exec.CommandContext(ctx, path, "-show").CombinedOutput(); err == nil && len(out) > 0 {
		s := strings.TrimSpace(string(out))
		if strings.Contains(s, "mpich") || strings.Contains(s, "-lmpi") {
			return MPICH, s
		}
	}
	return "", ""
}

// headerOf finds mpi.h in the include directories of a wrapper's command
// line (then /usr/include) and returns its version defines and a hash of
// it, or "".
func headerOf(show string) string {
	var dirs []string
	for _, f := range strings.Fields(show) {
		if d, ok := strings.CutPrefix(f, "-I"); ok && d != "" {
			dirs = append(dirs, d)
		}
	}
	for _, d := range append(dirs, "/usr/include") {
		b, err := os.ReadFile(filepath.Join(d, "mpi.h"))
		if err != nil {
			continue
		}
		var version []string
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) == 3 && f[0] == "#define" && (f[1] == "MPICH_VERSION" || strings.HasPrefix(f[1], "OMPI_") && strings.HasSuffix(f[1], "_VERSION")) {
				version = append(version, f[1]+"="+f[2])
			}
		}
		sum := sha256.Sum256(b)
		return fmt.Sprintf("%s %s sha256:%x", filepath.Join(d, "mpi.h"), strings.Join(version, " "), sum[:8])
	}
	return ""
}

// FindCompiler finds the MPI C compiler of flavour fl ("": the first
// wrapper of a known flavour, mpicc first). If override is not empty it is
// the only candidate, and it must belong to fl.
func FindCompiler(fl Flavour, override string) (*Compiler, error) {
	cands := compilerCandidates(fl)
	if override != "" {
		cands = []string{override}
	}
	var tried []string
	for _, c := range cands {
		p, err := LookPath(c)
		if err != nil {
			tried = append(tried, c+" (not found)")
			continue
		}
		got, show := compilerFlavour(p)
		if got == "" || fl != "" && got != fl {
			what := "unknown MPI"
			if got != "" {
				what = string(got)
			}
			tried = append(tried, fmt.Sprintf("%s (is %s)", p, what))
			continue
		}
		return &Compiler{Path: p, Flavour: got, Show: show, Header: headerOf(show)}, nil
	}
	hint := "install libopenmpi-dev (Open MPI) or libmpich-dev (MPICH), or name the wrapper (clc-trace --mpicc PATH; clc-correct: $CLC_MPICC)"
	what := string(fl)
	if what == "" {
		what = "any MPI"
	}
	return nil, fmt.Errorf("%w for %s: tried %s; %s", ErrNoCompiler, what, strings.Join(tried, ", "), hint)
}

// DefaultCacheDir is $CLC_CACHE_DIR, else $XDG_CACHE_HOME/clc, else
// ~/.cache/clc.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("CLC_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set CLC_CACHE_DIR): %w", err)
	}
	return filepath.Join(d, "clc"), nil
}

// Setup finds the compiler of flavour fl (wrapper is FindCompiler's
// override) and the cache directory: cacheDir, or DefaultCacheDir() when
// it is "".
func Setup(fl Flavour, wrapper, cacheDir string) (*Compiler, string, error) {
	c, err := FindCompiler(fl, wrapper)
	if err != nil {
		return nil, "", err
	}
	if cacheDir == "" {
		if cacheDir, err = DefaultCacheDir(); err != nil {
			return nil, "", err
		}
	}
	return c, cacheDir, nil
}

// SourceFiles lists the C sources and headers of src in a stable order.
func SourceFiles(src fs.FS) ([]string, error) {
	var names []string
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".c") || strings.HasSuffix(p, ".h")) {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	return names, err
}

// Key is the cache key of a build of what (a name and version of the
// thing built): a hash of it, the sources of src, and the compiler's
// flavour, path, command line and mpi.h.
func Key(what string, src fs.FS, c *Compiler) (string, error) {
	names, err := SourceFiles(src)
	if err != nil {
		return "", fmt.Errorf("reading the embedded sources of %s: %w", what, err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00", what, c.Flavour, c.Path, c.Show, c.Header)
	for _, n := range names {
		b, err := fs.ReadFile(src, n)
		if err != nil {
			return "", fmt.Errorf("reading embedded %s: %w", n, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// WriteSources copies the files of src (flattened to their base names)
// into dir and returns the base names of the C files among them.
func WriteSources(src fs.FS, dir string) ([]string, error) {
	names, err := SourceFiles(src)
	if err != nil {
		return nil, err
	}
	var cfiles []string
	for _, n := range names {
		b, err := fs.ReadFile(src, n)
		if err != nil {
			return nil, fmt.Errorf("reading embedded %s: %w", n, err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(n)), b, 0o644); err != nil {
			return nil, fmt.Errorf("writing the source %s into %s: %w", filepath.Base(n), dir, err)
		}
		if strings.HasSuffix(n, ".c") {
			cfiles = append(cfiles, filepath.Base(n))
		}
	}
	return cfiles, nil
}

// Notice is told, by the process that builds (not by one that finds the
// build done or waits for another), where it builds with which compiler
// before it starts (took == 0) and how long it took when it is done.
type Notice func(c *Compiler, dest string, took time.Duration)

// Announce is the Notice that tells w, as program prog, that it builds
// what: "PROG: building WHAT for FLAVOUR with MPICC (once per MPI
// installation; into DIR) …" and "PROG: built WHAT in S s".
func Announce(w io.Writer, prog, what string) Notice {
	return func(c *Compiler, dest string, took time.Duration) {
		if took == 0 {
			fmt.Fprintf(w, "%s: building %s for %s with %s (once per MPI installation; into %s) …\n", prog, what, c.Flavour.Name(), c.Path, dest)
		} else {
			fmt.Fprintf(w, "%s: built %s in %.1f s\n", prog, what, took.Seconds())
		}
	}
}

// Cached returns cacheDir/<flavour>-<key>/<file>, building it first if it
// is not there: build fills a new temporary directory of cacheDir, which
// is then renamed to <flavour>-<key>. Concurrent callers (one per rank)
// wait for one another on the lock file cacheDir/.lock, so one builds and
// the others find its result; the result appears whole or not at all.
// notice, if not nil, hears about a build.
func Cached(cacheDir string, c *Compiler, key, file string, notice Notice, build func(tmp string) error) (string, error) {
	dest := filepath.Join(cacheDir, string(c.Flavour)+"-"+key)
	out := filepath.Join(dest, file)
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("creating the cache directory: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(cacheDir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("locking the cache directory: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("locking %s: %w", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	start := time.Now()
	if notice != nil {
		notice(c, dest, 0)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".build-")
	if err != nil {
		return "", fmt.Errorf("creating a build directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := build(tmp); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(tmp, file)); err != nil {
		return "", fmt.Errorf("the build made no %s: %w", file, err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		if _, serr := os.Stat(out); serr != nil {
			return "", fmt.Errorf("installing %s into %s: %w", file, dest, err)
		}
	}
	if notice != nil {
		notice(c, dest, time.Since(start))
	}
	return out, nil
}
