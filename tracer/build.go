package tracer

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/clc-tools/clc/internal/mpitool"
)

// Compiler is an MPI C compiler wrapper of a known flavour (package
// mpitool finds it).
type Compiler = mpitool.Compiler

// LibName is the file name of the built library.
const LibName = "libclctrace.so"

// BuildKey is the cache key of a build: a hash of the sources, the flavour
// and the compiler.
func BuildKey(src fs.FS, c *Compiler) (string, error) {
	return mpitool.Key("clc-trace pmpi 1", src, c)
}

// Build returns the path of the library for compiler c, building it into
// cacheDir/<flavour>-<key>/ if it is not there yet (mpitool.Cached: one
// rank builds under a lock, the result appears atomically): one compiler
// process per source file, as many at once as there are CPUs, then the
// link. notice, if not nil, hears about a build.
func Build(src fs.FS, c *Compiler, cacheDir string, notice mpitool.Notice) (string, error) {
	key, err := BuildKey(src, c)
	if err != nil {
		return "", err
	}
	return mpitool.Cached(cacheDir, c, key, LibName, notice, func(tmp string) error { return compile(src, c, tmp) })
}

// compileFlags are the flags of every compilation.
var compileFlags = []string{"-O2", "-g", "-fPIC", "-std=gnu11", "-fvisibility=hidden"}

// compile builds the library in the directory tmp.
func compile(src fs.FS, c *Compiler, tmp string) error {
	all, err := mpitool.WriteSources(src, tmp)
	if err != nil {
		return err
	}
	var cfiles []string
	for _, f := range all {
		if strings.HasPrefix(f, "fortran") && c.Flavour != OpenMPI {
			continue // MPICH's Fortran bindings call the C functions: no second layer
		}
		cfiles = append(cfiles, f)
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
	return nil
}
