// Package job runs clc-correct on files: it opens the input (OTF2 or
// native), claims every path the run will write before anything is read
// (package output), reads what the correction needs, corrects it with
// repair.Correct, and writes the corrected trace (in the input's or
// another format, or for Perfetto), the JSON report and the HTML page
// atomically.
package job

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/clc-tools/clc/internal/truthfile"
	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Format is a trace format.
type Format string

// Formats clc reads and writes. FormatPerfetto is written only: OUTDIR/
// trace.json.gz, a Chrome trace-event file for Perfetto's UI.
const (
	FormatNative   Format = "native"
	FormatOTF2     Format = "otf2"
	FormatPerfetto Format = "perfetto"
)

// ParseFormat parses a --format value; "" and "input" mean the input's.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "input":
		return "", nil
	case "native", "clc":
		return FormatNative, nil
	case "otf2":
		return FormatOTF2, nil
	case "perfetto", "chrome":
		return FormatPerfetto, nil
	}
	return "", fmt.Errorf("unknown format %q (want otf2, native, input or perfetto)", s)
}

// Input is an opened input trace.
type Input struct {
	Path   string
	Format Format
	// Dir is the directory that holds the trace (the archive's directory
	// for OTF2, the trace directory for native).
	Dir string
	// name is an OTF2 archive's name: its anchor is Dir/name.otf2.
	name string
	// src is the opened trace (a *native.DirReader or an *otf.Archive),
	// opened by open and kept open for reading and rewriting it (Close
	// releases it).
	src trace.Source
}

// Open finds the trace at path (Locate) and opens it: reads an OTF2
// archive's anchor and global definitions, a native trace's manifest.
func Open(path string) (*Input, error) {
	in, err := Locate(path)
	if err != nil {
		return nil, err
	}
	if err := in.open(0); err != nil {
		return nil, err
	}
	return in, nil
}

// Locate finds the trace at path by the names of its files, reading none
// of their bytes: a native trace directory (it holds clc.json), an OTF2
// anchor file (*.otf2), or a directory holding one.
func Locate(path string) (*Input, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	if st.IsDir() {
		if _, err := os.Lstat(filepath.Join(path, native.ManifestName)); err == nil {
			return &Input{Path: path, Format: FormatNative, Dir: path}, nil
		}
	}
	if otf.HasAnchorFile(path) {
		dir, name, err := otf.Locate(path)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", path, err)
		}
		return &Input{Path: path, Format: FormatOTF2, Dir: dir, name: name}, nil
	}
	if st.IsDir() {
		return nil, fmt.Errorf("input %s: not a trace: no clc.json (native) and no OTF2 anchor (*.otf2) in the directory", path)
	}
	return nil, fmt.Errorf("input %s: not a trace: neither a directory nor an OTF2 anchor file", path)
}

// open reads what the input declares: an OTF2 archive's anchor and global
// definitions, a native trace's manifest (its directory stays open, read
// with parallel goroutines; 0: GOMAXPROCS).
func (in *Input) open(parallel int) error {
	var err error
	switch in.Format {
	case FormatNative:
		in.src, err = native.OpenDirWith(in.Path, &native.ReadOptions{Parallel: parallel})
	case FormatOTF2:
		in.src, err = otf.Open(filepath.Join(in.Dir, in.name+".otf2"))
	default:
		err = fmt.Errorf("unknown format %q", in.Format)
	}
	if err != nil {
		in.src = nil
		return fmt.Errorf("input %s: %w", in.Path, err)
	}
	return nil
}

// source returns the opened input, opening it first if it is not.
func (in *Input) source(parallel int) (trace.Source, error) {
	if in.src == nil {
		if err := in.open(parallel); err != nil {
			return nil, err
		}
	}
	return in.src, nil
}

// files returns what the input is read from, for the output plan: a
// native trace's directory; an OTF2 archive's anchor and global
// definition files and its directory of location files; the truth beside
// either.
func (in *Input) files() []string {
	var f []string
	switch in.Format {
	case FormatNative:
		f = []string{in.Dir}
	case FormatOTF2:
		f = []string{filepath.Join(in.Dir, in.name+".otf2"), filepath.Join(in.Dir, in.name+".def"), filepath.Join(in.Dir, in.name)}
	}
	if d := in.truthDir(); d != "" {
		f = append(f, d)
	}
	return f
}

// Read reads the whole trace into memory.
func (in *Input) Read(ctx context.Context, parallel int) (*trace.Trace, error) {
	src, err := in.source(parallel)
	if err != nil {
		return nil, err
	}
	return src.Read(ctx, &trace.ReadOptions{Parallel: parallel})
}

// ReadSelected reads of every location only the events the happened-before
// relation needs (replay.Needs), as a selection, and every event's time in
// a column of its own: what a correction needs, in a fraction of the
// memory. The output is then written by copying the input with new times.
// done, if not nil, is called as soon as a location has been read (see
// trace.ReadOptions.Done).
func (in *Input) ReadSelected(ctx context.Context, parallel int, done func(t *trace.Trace, li int) error) (*trace.Trace, [][]int64, error) {
	return in.readSelected(ctx, &trace.ReadOptions{Parallel: parallel, Done: done})
}

// readSelected is ReadSelected with the read's options.
func (in *Input) readSelected(ctx context.Context, opt *trace.ReadOptions) (*trace.Trace, [][]int64, error) {
	src, err := in.source(opt.Parallel)
	if err != nil {
		return nil, nil, err
	}
	return src.ReadSelected(ctx, opt, replay.Needs)
}

// ReadMatched reads what a correction needs (ReadSelected) and matches as
// it reads: each location is checked and scanned for the happened-before
// relation as soon as it is read, and its selection dropped, so the whole
// trace's selections never are in memory at once. It returns the
// definitions (their locations without events), every event's time and
// the matcher, fed with every location (nil when the trace has no
// locations); the relation is the matcher's Finish.
func (in *Input) ReadMatched(ctx context.Context, parallel int, opt *replay.MatchOptions) (*trace.Trace, [][]int64, *replay.Matcher, error) {
	return in.readMatched(ctx, &trace.ReadOptions{Parallel: parallel}, opt)
}

// readMatched is ReadMatched with the read's options (their Done is
// replaced): of the locations ro.Locations chooses, when it is set.
func (in *Input) readMatched(ctx context.Context, ro *trace.ReadOptions, opt *replay.MatchOptions) (*trace.Trace, [][]int64, *replay.Matcher, error) {
	var m *replay.Matcher
	var once sync.Once
	var defsErr error
	read := *ro
	read.Done = func(t *trace.Trace, li int) error {
		// Other locations are still being read (their clock offsets
		// among them): check what they share once, and each location's
		// own data when it is read.
		once.Do(func() {
			if defsErr = t.ValidateSharedDefs(); defsErr == nil {
				m = replay.NewMatcher(t, opt)
			}
		})
		if defsErr != nil {
			return defsErr
		}
		if err := t.ValidateOffsets(li); err != nil {
			return err
		}
		if err := t.ValidateEvents(li); err != nil {
			return err
		}
		m.Scan(li, &t.Locations[li].Events)
		t.Locations[li].Events = trace.Events{}
		return nil
	}
	tr, times, err := in.readSelected(ctx, &read)
	return tr, times, m, err
}

// rewrite writes into dir a copy of the input, in its own format, with the
// times (the properties props replace a native trace's; an OTF2 archive
// keeps its definitions), from the source ReadSelected left open.
func (in *Input) rewrite(ctx context.Context, dir string, times [][]int64, props map[string]string, parallel int) error {
	switch src := in.src.(type) {
	case *native.DirReader:
		return src.RewriteTimes(ctx, dir, times, props, &native.WriteOptions{Codec: native.CodecZstd, Parallel: parallel})
	case *otf.Archive:
		return src.RewriteTimes(ctx, dir, times, &otf.WriteOptions{Parallel: parallel})
	}
	return fmt.Errorf("input %s: not open for rewriting", in.Path)
}

// convert writes into dir the input with the times in the format out,
// streaming each location's events from the source ReadSelected left open
// (trace.Source.CopyTo: a native trace a block at a time, an OTF2 archive
// a location at a time) into out's writer, with the definitions tr of the
// selection read. The events need no check of their own: the readers
// check every record's references as they decode it.
func (in *Input) convert(ctx context.Context, dir string, out Format, tr *trace.Trace, times [][]int64, parallel int) error {
	if in.src == nil {
		return fmt.Errorf("input %s: not open for streaming", in.Path)
	}
	var w interface {
		trace.Sink
		Abort()
	}
	var err error
	switch out {
	case FormatOTF2:
		w, err = otf.Create(dir, tr, &otf.WriteOptions{Parallel: parallel, Creator: "clc-correct"})
	case FormatNative:
		w, err = native.CreateDir(dir, tr, &native.WriteOptions{Codec: native.CodecZstd, Parallel: parallel})
	default:
		err = fmt.Errorf("cannot convert %s into %s", in.Format, out)
	}
	if err != nil {
		return err
	}
	if err := in.src.CopyTo(ctx, w, times, &trace.ReadOptions{Parallel: parallel}); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// Close releases what open and a read left open (a native input's files).
// The input can be read again afterwards.
func (in *Input) Close() error {
	if in.src == nil {
		return nil
	}
	err := in.src.Close()
	in.src = nil
	return err
}

// Archive returns the OTF2 archive of an opened OTF2 input, or nil.
func (in *Input) Archive() *otf.Archive {
	a, _ := in.src.(*otf.Archive)
	return a
}

// truthDir returns the true times beside the input: its truth/ directory,
// else its truth.json file; "" when there is neither. A truth/ directory
// with a manifest, or a truth.json, counts even if it is corrupt, so that
// reading it reports the damage instead of silently leaving out the
// comparison.
func (in *Input) truthDir() string {
	d := filepath.Join(in.Dir, "truth")
	if _, err := os.Stat(filepath.Join(d, native.ManifestName)); err == nil {
		return d
	}
	if f := filepath.Join(in.Dir, truthfile.Name); fileExists(f) {
		return f
	}
	return ""
}

// fileExists reports whether path names something other than a directory.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}
