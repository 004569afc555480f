package tracer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/trace"
)

// NativeSubdir is where clc-trace --format otf2 records the native trace
// inside the output directory until it is converted.
const NativeSubdir = "clc-native"

// archiveFiles are the files and directories of an OTF2 archive written by
// package otf.
var archiveFiles = []string{otf.AnchorName, otf.ArchiveName + ".def", otf.ArchiveName}

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
	tr, remap := unifyRegions(r.Defs())
	tmp := filepath.Join(dir, ".clc-otf2")
	if err := os.RemoveAll(tmp); err != nil {
		return 0, err
	}
	w, err := otf.Create(tmp, tr, &otf.WriteOptions{Creator: "clc-trace"})
	if err != nil {
		return 0, fmt.Errorf("writing OTF2: %w", err)
	}
	var inner trace.Sink = w
	if remap != nil {
		inner = &regionSink{Sink: w, remap: remap}
	}
	sink := &trace.CountingSink{Sink: inner}
	if err := r.CopyTo(context.Background(), sink, nil, nil); err != nil {
		w.Abort()
		return 0, fmt.Errorf("converting the native trace: %w", err)
	}
	// The native manifest's clc.* properties (and those CopyTo sets for a
	// run that did not finish) become OTF2 anchor properties at Close:
	// the writer maps them (otf.CLCProperties) and otf's reader maps them
	// back.
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

// ErrPending is returned by FinishOTF2 when ranks' buffers are left to be
// written later: converting now would lose them.
var ErrPending = errors.New("some ranks' buffers are not written yet")

// FinishOTF2 converts the native trace of an OTF2 run in dir/clc-native to
// the archive in dir, moves its truth (if any) to dir/truth and removes
// the native trace. A run that did not finish is finished first (what
// FinishUnfinished does, with o): the returned *Unfinished says what the
// ranks kept (nil when the run finished).
//
// It holds the trace's lock (lockMeta) throughout, as every finisher of
// the trace does: the clc-trace processes of a per-rank launch and a
// --convert that finish the trace meanwhile wait (FinishRank, FinishOTF2),
// and one that finds the native trace gone once it has the lock finds the
// archive whole and returns its count. It resumes a
// finish that was killed half-way (a launcher ends every process of the
// job): an archive whose anchor is in dir is whole (the anchor is placed
// last), so only the truth and the native trace are left to move and
// remove; the parts of an archive without its anchor, and a truth beside
// them, are written again. A truth beside a whole archive is the run's
// (it is moved there after the anchor) and stays.
func FinishOTF2(dir string, props map[string]string, o RecoverOptions) (int64, *Unfinished, error) {
	src := filepath.Join(dir, NativeSubdir)
	if _, err := os.Stat(src); err != nil {
		return 0, nil, fmt.Errorf("no native trace of an OTF2 run in %s: %w", dir, err)
	}
	defer lockMeta(src)()
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		// the finisher this one waited for converted it
		n, err := archiveEvents(dir)
		return n, nil, err
	}
	var u *Unfinished
	var n int64
	truth := filepath.Join(dir, "truth")
	if _, err := os.Stat(filepath.Join(dir, otf.AnchorName)); err == nil {
		// The archive is whole: it was converted from the finished native
		// trace, and what is left of that (a removal cut short, or a
		// dying rank's last write after the conversion) is not read again.
		if n, err = archiveEvents(dir); err != nil {
			return 0, nil, err
		}
	} else {
		if complete, err := ManifestComplete(src); err != nil || !complete {
			if u, err = finishUnfinished(src, props, o); err != nil {
				return 0, u, err
			}
			if u.Pending() {
				return 0, u, ErrPending
			}
		}
		for _, f := range slices.Concat(archiveFiles, []string{"truth"}) {
			if err := os.RemoveAll(filepath.Join(dir, f)); err != nil {
				return 0, u, err
			}
		}
		var err error
		if n, err = ConvertToOTF2(src, dir); err != nil {
			return 0, u, err
		}
	}
	_, moved := os.Stat(filepath.Join(truth, native.ManifestName))
	if _, err := os.Stat(filepath.Join(src, "truth", native.ManifestName)); err == nil && moved != nil {
		if err := os.RemoveAll(truth); err != nil {
			return n, u, err
		}
		if err := os.Rename(filepath.Join(src, "truth"), truth); err != nil {
			return n, u, err
		}
	}
	return n, u, removeNative(dir)
}

// archiveEvents returns the number of events the whole OTF2 archive in dir
// declares.
func archiveEvents(dir string) (int64, error) {
	a, err := otf.Open(dir)
	if err != nil {
		return 0, fmt.Errorf("reading the archive: %w", err)
	}
	d, err := a.Declared()
	a.Close()
	if err != nil {
		return 0, fmt.Errorf("reading the archive: %w", err)
	}
	return d.Events, nil
}

// removingSuffix names the native trace of an OTF2 run while it is being
// removed (removeNative).
const removingSuffix = ".removing"

// removeNative removes DIR's native trace once the archive is placed: it
// renames it first, so that a launcher's kill during the removal leaves
// either the whole native trace (FinishOTF2 resumes) or a directory of
// another name, never a native trace without its metadata, which
// --convert could not read (seen in CI: Open MPI, MPI_Abort, per rank,
// OTF2). A leftover of an earlier removal goes too.
func removeNative(dir string) error {
	src := filepath.Join(dir, NativeSubdir)
	gone := filepath.Join(dir, "."+NativeSubdir+removingSuffix)
	if err := os.RemoveAll(gone); err != nil {
		return err
	}
	if err := os.Rename(src, gone); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.RemoveAll(gone)
}

// unifyRegions gives a region defined by several ranks (a user region,
// which each rank defines itself) one definition: the first of its name,
// role and paradigm. It returns the definitions to write and the map from
// the trace's region positions to theirs (nil when nothing changes).
func unifyRegions(tr *trace.Trace) (*trace.Trace, []uint32) {
	type key struct {
		name     string
		role     trace.RegionRole
		paradigm trace.Paradigm
	}
	first := map[key]uint32{}
	remap := make([]uint32, len(tr.Regions))
	var regions []trace.Region
	for i, r := range tr.Regions {
		k := key{r.Name, r.Role, r.Paradigm}
		j, ok := first[k]
		if !ok {
			j = uint32(len(regions))
			first[k] = j
			regions = append(regions, r)
		}
		remap[i] = j
	}
	if len(regions) == len(tr.Regions) {
		return tr, nil
	}
	u := *tr
	u.Regions = regions
	return &u, remap
}

// regionSink rewrites the regions of enter and leave events by remap.
type regionSink struct {
	trace.Sink
	remap []uint32
}

func (s *regionSink) Append(loc int, ev *trace.Events) error {
	e := *ev
	e.Ref = make([]uint32, len(ev.Ref))
	for i, k := range ev.Kind {
		e.Ref[i] = ev.Ref[i]
		if (k == trace.KindEnter || k == trace.KindLeave) && int(ev.Ref[i]) < len(s.remap) {
			e.Ref[i] = s.remap[ev.Ref[i]]
		}
	}
	return s.Sink.Append(loc, &e)
}

// Ranges returns the wrapped sink's ranges.
func (s *regionSink) Ranges() []int { return trace.SinkRanges(s.Sink) }
