package tracer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/trace"
)

// NativeSubdir is where clc-trace --format otf2 records the native trace
// inside the output directory until it is converted.
const NativeSubdir = "clc-native"

// archiveFiles are the files and directories of an OTF2 archive written by
// package otf.
var archiveFiles = []string{"traces.otf2", "traces.def", "traces"}

// ConvertToOTF2 writes the native trace in src (complete or not) as an
// OTF2 archive (traces.otf2, traces.def, traces/) into dir, beside whatever
// else dir holds, streaming each location's events a block at a time
// (native.DirReader.CopyTo): the memory does not grow with the trace. It
// returns the number of events written.
func ConvertToOTF2(src, dir string) (int64, error) {
	for _, n := range archiveFiles {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			return 0, fmt.Errorf("%s already holds %s", dir, n)
		}
	}
	r, err := native.OpenDir(src)
	if err != nil {
		return 0, fmt.Errorf("reading the native trace: %w", err)
	}
	defer r.Close()
	tr := r.Defs()
	tmp := filepath.Join(dir, ".clc-otf2")
	if err := os.RemoveAll(tmp); err != nil {
		return 0, err
	}
	w, err := otf.Create(tmp, tr, &otf.WriteOptions{Creator: "clc-trace"})
	if err != nil {
		return 0, fmt.Errorf("writing OTF2: %w", err)
	}
	sink := &trace.CountingSink{Sink: w}
	if err := r.CopyTo(context.Background(), sink, nil, nil); err != nil {
		w.Abort()
		return 0, fmt.Errorf("converting the native trace: %w", err)
	}
	// The native manifest's clc.* properties (and those CopyTo set for a
	// run that did not finish) as OTF2 anchor properties
	// (NAMESPACE::NAME), which the writer takes at Close; otf's reader maps
	// them back.
	for v, k := range otf.CLCProperties {
		if x, ok := tr.Properties[k]; ok {
			if x == "" {
				x = "none" // OTF2 anchor properties cannot be empty
			}
			tr.Properties[v] = x
		}
	}
	if err := w.Close(); err != nil {
		return 0, fmt.Errorf("writing OTF2: %w", err)
	}
	defer os.RemoveAll(tmp)
	// the anchor last: a directory with traces.otf2 is a whole archive
	for _, n := range []string{"traces.def", "traces", "traces.otf2"} {
		if err := os.Rename(filepath.Join(tmp, n), filepath.Join(dir, n)); err != nil {
			return 0, err
		}
	}
	return sink.Events(), nil
}

// FinishOTF2 converts the native trace of an OTF2 run in dir/clc-native to
// the archive in dir, moves its truth (if any) to dir/truth and removes
// the native trace. A native trace without a manifest (a run that did not
// finish) gets an incomplete one first, with props.
func FinishOTF2(dir string, props map[string]string) (int64, error) {
	src := filepath.Join(dir, NativeSubdir)
	if _, err := os.Stat(filepath.Join(src, "clc.json")); errors.Is(err, os.ErrNotExist) {
		if _, err := WriteIncompleteManifest(src, props); err != nil {
			return 0, err
		}
	}
	n, err := ConvertToOTF2(src, dir)
	if err != nil {
		return 0, err
	}
	if _, err := os.Stat(filepath.Join(src, "truth", "clc.json")); err == nil {
		if err := os.RemoveAll(filepath.Join(dir, "truth")); err != nil {
			return n, err
		}
		if err := os.Rename(filepath.Join(src, "truth"), filepath.Join(dir, "truth")); err != nil {
			return n, err
		}
	}
	return n, os.RemoveAll(src)
}
