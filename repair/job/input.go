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
	name    string
	archive *otf.Archive
	// nat is a native input's directory, opened by open and kept open
	// for reading and rewriting it (Close releases it).
	nat *native.DirReader
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
	switch in.Format {
	case FormatNative:
		r, err := native.OpenDirWith(in.Path, &native.ReadOptions{Parallel: parallel})
		if err != nil {
			return fmt.Errorf("input %s: %w", in.Path, err)
		}
		in.nat = r
	case FormatOTF2:
		a, err := otf.Open(filepath.Join(in.Dir, in.name+".otf2"))
		if err != nil {
			return fmt.Errorf("input %s: %w", in.Path, err)
		}
		in.archive = a
	}
	return nil
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
	switch in.Format {
	case FormatNative:
		opt := &native.ReadOptions{Parallel: parallel}
		if in.nat == nil {
			if err := in.open(parallel); err != nil {
				return nil, err
			}
		}
		return in.nat.Read(ctx, opt)
	case FormatOTF2:
		return in.archive.Read(ctx, &otf.ReadOptions{Parallel: parallel})
	}
	return nil, fmt.Errorf("input %s: unknown format %q", in.Path, in.Format)
}

// ReadSelected reads of every location only the events the happened-before
// relation needs (replay.Needs), as a selection, and every event's time in
// a column of its own: what a correction needs, in a fraction of the
// memory. The output is then written by copying the input with new times.
// done, if not nil, is called as soon as a location has been read (see
// otf.ReadOptions.Done).
func (in *Input) ReadSelected(ctx context.Context, parallel int, done func(t *trace.Trace, li int) error) (*trace.Trace, [][]int64, error) {
	switch in.Format {
	case FormatNative:
		opt := &native.ReadOptions{Parallel: parallel, Done: done}
		if in.nat == nil {
			if err := in.open(parallel); err != nil {
				return nil, nil, err
			}
		}
		return in.nat.ReadSelected(ctx, opt, replay.Needs)
	case FormatOTF2:
		return in.archive.ReadSelected(ctx, &otf.ReadOptions{Parallel: parallel, Done: done}, replay.Needs)
	}
	return nil, nil, fmt.Errorf("input %s: unknown format %q", in.Path, in.Format)
}

// rewriteNative writes into dir a copy of the native input with the
// times, from the directory ReadSelected left open (without decoding its
// manifest again).
func (in *Input) rewriteNative(ctx context.Context, dir string, times [][]int64, props map[string]string, parallel int) error {
	r, err := in.openNative()
	if err != nil {
		return err
	}
	return r.RewriteTimes(ctx, dir, times, props, &native.WriteOptions{Codec: native.CodecZstd, Parallel: parallel})
}

// openNative returns the native directory open and ReadSelected left
// open: the writes of a native input stream from it.
func (in *Input) openNative() (*native.DirReader, error) {
	if in.nat == nil {
		return nil, fmt.Errorf("input %s: not read with ReadSelected, so not open for streaming", in.Path)
	}
	return in.nat, nil
}

// convert writes into dir the input with the times in the other format
// (a native input as OTF2, an OTF2 input as native), streaming each
// location's events from the input (native.DirReader.CopyTo from the
// directory ReadSelected left open, a block at a time;
// otf.Archive.CopyTo, a location at a time) into the other format's
// writer, with the definitions tr of the selection read. The events need
// no check of their own: the readers check every record's references as
// they decode it.
func (in *Input) convert(ctx context.Context, dir string, tr *trace.Trace, times [][]int64, parallel int) error {
	var w interface {
		trace.Sink
		Abort()
	}
	var copyTo func(trace.Sink) error
	switch in.Format {
	case FormatNative:
		r, err := in.openNative()
		if err != nil {
			return err
		}
		ow, err := otf.Create(dir, tr, &otf.WriteOptions{Parallel: parallel, Creator: "clc-correct"})
		if err != nil {
			return err
		}
		w = ow
		copyTo = func(s trace.Sink) error { return r.CopyTo(ctx, s, times, &native.ReadOptions{Parallel: parallel}) }
	case FormatOTF2:
		nw, err := native.CreateDir(dir, tr, &native.WriteOptions{Codec: native.CodecZstd, Parallel: parallel})
		if err != nil {
			return err
		}
		w = nw
		copyTo = func(s trace.Sink) error {
			return in.archive.CopyTo(ctx, s, times, &otf.ReadOptions{Parallel: parallel})
		}
	default:
		return fmt.Errorf("input %s: cannot convert %s", in.Path, in.Format)
	}
	if err := copyTo(w); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// Close releases what open and a read left open (a native input's files).
// The input can be read again afterwards.
func (in *Input) Close() error {
	if in.nat == nil {
		return nil
	}
	err := in.nat.Close()
	in.nat = nil
	return err
}

// Archive returns the OTF2 archive of an OTF2 input, or nil.
func (in *Input) Archive() *otf.Archive { return in.archive }

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
