package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/clc-tools/clc/internal/truthfile"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/repair/job"
	"github.com/clc-tools/clc/trace"
)

// truthgenCases generates the independent generator's scenarios for
// every seed into the cache (once: a directory that holds its archives is
// reused) and lists them.
func truthgenCases(ctx context.Context, c *config) ([]testCase, error) {
	var out []testCase
	for _, seed := range c.seeds {
		root := filepath.Join(c.cache, fmt.Sprintf("truthgen-%d", seed))
		if _, err := os.Stat(filepath.Join(root, "done")); err != nil {
			if err := os.RemoveAll(root); err != nil {
				return nil, err
			}
			fmt.Fprintf(os.Stderr, "generating the truthgen archives of seed %d into %s\n", seed, root)
			cmd := exec.CommandContext(ctx, "/usr/bin/python3", "tools/truthgen/truthgen.py", root, "--all", "--seed", strconv.FormatInt(seed, 10))
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			if err := cmd.Run(); err != nil {
				return nil, fmt.Errorf("tools/truthgen/truthgen.py: %w", err)
			}
			if err := os.WriteFile(filepath.Join(root, "done"), nil, 0o644); err != nil {
				return nil, err
			}
		}
		cases, err := archiveCases(root)
		if err != nil {
			return nil, err
		}
		for i := range cases {
			if len(c.seeds) > 1 {
				cases[i].name = fmt.Sprintf("%s, seed %d", cases[i].name, seed)
			}
		}
		out = append(out, cases...)
	}
	return out, nil
}

// archiveCases lists the OTF2 archives with a truth.json beside them in the
// subdirectories of root.
func archiveCases(root string) ([]testCase, error) {
	dirs, err := filepath.Glob(filepath.Join(root, "*", "truth.json"))
	if err != nil {
		return nil, err
	}
	withDir, err := filepath.Glob(filepath.Join(root, "*", "truth", native.ManifestName))
	if err != nil {
		return nil, err
	}
	for _, m := range withDir {
		dirs = append(dirs, filepath.Dir(m))
	}
	slices.Sort(dirs)
	var out []testCase
	for _, tj := range dirs {
		dir := filepath.Dir(tj)
		load := func(ctx context.Context) (*trace.Trace, [][]int64, error) { return loadArchive(ctx, dir) }
		if filepath.Base(tj) == "truth" {
			load = func(ctx context.Context) (*trace.Trace, [][]int64, error) { return loadRecording(ctx, dir) }
		}
		out = append(out, testCase{name: filepath.Base(dir), load: load})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no */truth.json in %s", root)
	}
	return out, nil
}

// loadArchive reads the trace in dir and its truth.json: {"resolution":
// ticks per second, "<location id>": [the true time of each of that
// location's events, in file order]}.
func loadArchive(ctx context.Context, dir string) (*trace.Trace, [][]int64, error) {
	tr, err := readTrace(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	truth, err := truthfile.ReadFor(filepath.Join(dir, truthfile.Name), tr)
	if err != nil {
		return nil, nil, err
	}
	return tr, truth, nil
}

// readTrace reads the whole trace at path (OTF2 or native).
func readTrace(ctx context.Context, path string) (*trace.Trace, error) {
	in, err := job.Open(path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return in.Read(ctx, 0)
}

// recordedCases lists the recordings with a truth/ directory: those in
// testdata/emulated and in the directories of -recorded.
func recordedCases(c *config) ([]testCase, error) {
	var dirs []string
	for _, root := range append([]string{"testdata/emulated"}, c.recorded...) {
		m, err := filepath.Glob(filepath.Join(root, "*", "truth", native.ManifestName))
		if err != nil {
			return nil, err
		}
		for _, t := range m {
			dirs = append(dirs, filepath.Dir(filepath.Dir(t)))
		}
	}
	slices.Sort(dirs)
	var out []testCase
	for _, dir := range dirs {
		out = append(out, testCase{name: filepath.Base(dir), load: func(ctx context.Context) (*trace.Trace, [][]int64, error) {
			return loadRecording(ctx, dir)
		}})
	}
	return out, nil
}

// loadRecording reads the trace in dir and the true times of its truth/
// directory, a native trace of the same events (as clc-trace writes it).
func loadRecording(ctx context.Context, dir string) (*trace.Trace, [][]int64, error) {
	tr, err := readTrace(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	truth, err := native.ReadDir(filepath.Join(dir, "truth"), nil)
	if err != nil {
		return nil, nil, err
	}
	if len(truth.Locations) != len(tr.Locations) {
		return nil, nil, fmt.Errorf("%s/truth has %d locations, the trace %d", dir, len(truth.Locations), len(tr.Locations))
	}
	tt := make([][]int64, len(truth.Locations))
	for i, l := range truth.Locations {
		tt[i] = l.Events.Time
	}
	return tr, tt, nil
}
