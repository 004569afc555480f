package tracer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"
)

// Compiler is an MPI C compiler wrapper of a known flavour.
type Compiler struct {
	Path    string
	Flavour Flavour
	// Show is what the wrapper says it runs (mpicc -showme / -show); it
	// goes into the cache key, so a changed MPI installation rebuilds.
	Show string
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
	return nil
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

// FindCompiler finds the MPI C compiler of flavour fl. If override is not
// empty it is the only candidate, and it must belong to fl.
func FindCompiler(fl Flavour, override string) (*Compiler, error) {
	cands := compilerCandidates(fl)
	if override != "" {
		cands = []string{override}
	}
	if len(cands) == 0 {
		return nil, fmt.Errorf("%w for flavour %q", ErrNoCompiler, fl)
	}
	var tried []string
	for _, c := range cands {
		p, err := LookPath(c)
		if err != nil {
			tried = append(tried, c+" (not found)")
			continue
		}
		got, show := compilerFlavour(p)
		if got != fl {
			what := "unknown MPI"
			if got != "" {
				what = string(got)
			}
			tried = append(tried, fmt.Sprintf("%s (is %s)", p, what))
			continue
		}
		return &Compiler{Path: p, Flavour: fl, Show: show}, nil
	}
	hint := "install libopenmpi-dev (Open MPI) or libmpich-dev (MPICH), or pass --mpicc"
	return nil, fmt.Errorf("%w for %s: tried %s; %s", ErrNoCompiler, fl, strings.Join(tried, ", "), hint)
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

// LibName is the file name of the built library.
const LibName = "libclctrace.so"

// sourceFiles lists the files of src in a stable order.
func sourceFiles(src fs.FS) ([]string, error) {
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

// BuildKey is the cache key of a build: a hash of the sources, the flavour
// and the compiler.
func BuildKey(src fs.FS, c *Compiler) (string, error) {
	names, err := sourceFiles(src)
	if err != nil {
		return "", fmt.Errorf("reading the embedded library sources: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "clc-trace pmpi 1\x00%s\x00%s\x00%s\x00", c.Flavour, c.Path, c.Show)
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

// BuildNotice is told, by the process that builds the library (not by one
// that finds it built or waits for another), what it builds before it
// starts and how long it took when it is done (took > 0).
type BuildNotice func(c *Compiler, dest string, took time.Duration)

// Build returns the path of the library for compiler c, building it into
// cacheDir/<flavour>-<key>/ if it is not there yet: one compiler process
// per source file, as many at once as there are CPUs, then the link.
// Concurrent callers (one clc-trace per rank) wait for one another on a
// lock file; the result appears atomically. notice, if not nil, hears
// about a build.
func Build(src fs.FS, c *Compiler, cacheDir string, notice BuildNotice) (string, error) {
	key, err := BuildKey(src, c)
	if err != nil {
		return "", err
	}
	dest := filepath.Join(cacheDir, string(c.Flavour)+"-"+key)
	lib := filepath.Join(dest, LibName)
	if _, err := os.Stat(lib); err == nil {
		return lib, nil
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
	if _, err := os.Stat(lib); err == nil {
		return lib, nil
	}
	start := time.Now()
	if notice != nil {
		notice(c, dest, 0)
	}
	if err := compile(src, c, cacheDir, dest); err != nil {
		return "", err
	}
	if notice != nil {
		notice(c, dest, time.Since(start))
	}
	return lib, nil
}

// compileFlags are the flags of every compilation.
var compileFlags = []string{"-O2", "-g", "-fPIC", "-std=gnu11", "-fvisibility=hidden"}

// compile builds the library into a temporary directory of cacheDir and
// renames it to dest.
func compile(src fs.FS, c *Compiler, cacheDir, dest string) error {
	tmp, err := os.MkdirTemp(cacheDir, ".build-")
	if err != nil {
		return fmt.Errorf("creating a build directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	names, err := sourceFiles(src)
	if err != nil {
		return err
	}
	var cfiles []string
	for _, n := range names {
		b, err := fs.ReadFile(src, n)
		if err != nil {
			return fmt.Errorf("reading embedded %s: %w", n, err)
		}
		if err := os.WriteFile(filepath.Join(tmp, filepath.Base(n)), b, 0o644); err != nil {
			return fmt.Errorf("writing the library source: %w", err)
		}
		if strings.HasSuffix(n, ".c") {
			if strings.HasPrefix(filepath.Base(n), "fortran") && c.Flavour != OpenMPI {
				continue // MPICH's Fortran bindings call the C functions: no second layer
			}
			cfiles = append(cfiles, filepath.Base(n))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	run := func(args ...string) error {
		cmd := exec.CommandContext(ctx, c.Path, args...)
		cmd.Dir = tmp
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("building the tracing library with %s %s: %w\n%s", c.Path, strings.Join(args, " "), err, out)
		}
		return nil
	}
	var g errgroup.Group
	g.SetLimit(runtime.NumCPU())
	var objs []string
	for _, f := range cfiles {
		obj := strings.TrimSuffix(f, ".c") + ".o"
		objs = append(objs, obj)
		g.Go(func() error { return run(append(append([]string{}, compileFlags...), "-c", "-o", obj, f)...) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	link := append([]string{"-shared", "-Wl,-z,lazy", "-o", LibName}, objs...)
	if err := run(append(link, "-lpthread", "-lm", "-ldl")...); err != nil {
		return err
	}
	record := fmt.Sprintf("flavour %s\ncompiler %s\nshow %s\ncompile %s -c\nlink %s -lpthread -lm -ldl\n", c.Flavour, c.Path, c.Show,
		strings.Join(compileFlags, " "), strings.Join(link, " "))
	if err := os.WriteFile(filepath.Join(tmp, "BUILD"), []byte(record), 0o644); err != nil {
		return fmt.Errorf("writing the build record: %w", err)
	}
	for _, o := range objs {
		os.Remove(filepath.Join(tmp, o))
	}
	if err := os.Rename(tmp, dest); err != nil {
		if _, serr := os.Stat(filepath.Join(dest, LibName)); serr == nil {
			return nil
		}
		return fmt.Errorf("installing the library into %s: %w", dest, err)
	}
	return nil
}
