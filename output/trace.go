package output

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/otf"
)

// Directories clc-trace keeps in a trace directory beside the trace: the
// ranks' metadata files (<rank>.txt), and the native recording of a run
// asked for as OTF2 until it is converted (tracer.MetaDir and
// tracer.NativeSubdir).
const (
	tracerMetaDir   = ".clc-meta"
	tracerNativeDir = "clc-native"
	truthDir        = "truth"
)

// CheckTrace returns nil if the directory dir holds a trace as clc's
// tools write it and nothing else, or an error saying why not. The
// content decides, not the names: a native trace's manifest must read as
// one and every file under events/ must be a stream or bundle it names,
// beginning with a stream header; an OTF2 archive's anchor and global
// definitions must read as an archive and every file under NAME/ must be
// an event or local definition file of one of its locations, beginning
// with a chunk header. Beside the trace: truth/ (itself a native trace),
// and clc-trace's .clc-meta/ (its ranks' <rank>.txt files) and clc-native/
// (a native trace). Symbolic links, mount points and special files are
// refused anywhere in the tree.
func CheckTrace(dir string) error {
	if _, err := newGuard().checkTree(dir); err != nil {
		return err
	}
	return checkTrace(dir)
}

// checkTrace is CheckTrace without the walk for links and mounts.
func checkTrace(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var anchors []string
	has := map[string]bool{}
	for _, e := range ents {
		has[e.Name()] = true
		if strings.HasSuffix(e.Name(), ".otf2") && e.Type().IsRegular() {
			anchors = append(anchors, strings.TrimSuffix(e.Name(), ".otf2"))
		}
	}
	extra := map[string]bool{truthDir: true, tracerMetaDir: true}
	switch {
	case has[native.ManifestName]:
		return checkNative(dir, ents, extra)
	case len(anchors) > 1:
		return fmt.Errorf("it holds several OTF2 archives (%s.otf2, %s.otf2)", anchors[0], anchors[1])
	case len(anchors) == 1:
		extra[tracerNativeDir] = true
		return checkOTF2(dir, anchors[0], ents, extra)
	case has[tracerNativeDir]:
		// clc-trace's OTF2 recording that was not converted.
		extra[tracerNativeDir] = true
		return checkBeside(dir, ents, nil, extra)
	}
	if len(ents) == 0 {
		return fmt.Errorf("it holds no trace (no %s and no OTF2 anchor)", native.ManifestName)
	}
	return fmt.Errorf("it holds %s and no trace (no %s and no OTF2 anchor)", ents[0].Name(), native.ManifestName)
}

// checkNative checks the native trace in dir, whose entries are ents;
// extra are the directories allowed beside it.
func checkNative(dir string, ents []os.DirEntry, extra map[string]bool) error {
	r, err := native.OpenDir(dir)
	if err != nil {
		return fmt.Errorf("%s is not a native trace's manifest: %w", native.ManifestName, err)
	}
	defer r.Close()
	files := map[string]bool{}
	for _, f := range r.Files() {
		files[f] = true
	}
	trace := map[string]bool{native.ManifestName: false, native.EventsDirName: true}
	if files[native.CarriedName] {
		trace[native.CarriedName] = false
	}
	if err := checkBeside(dir, ents, trace, extra); err != nil {
		return err
	}
	return checkFiles(dir, native.EventsDirName, files, native.HasStreamHeader, "a stream header")
}

// checkOTF2 checks the OTF2 archive name in dir, whose entries are ents;
// extra are the directories allowed beside it.
func checkOTF2(dir, name string, ents []os.DirEntry, extra map[string]bool) error {
	a, err := otf.Open(filepath.Join(dir, name+".otf2"))
	if err != nil {
		return fmt.Errorf("%s.otf2 is not an OTF2 archive's anchor: %w", name, err)
	}
	files := map[string]bool{}
	for _, f := range a.Files() {
		files[f] = true
	}
	trace := map[string]bool{name + ".otf2": false, name + ".def": false, name: true}
	if err := checkBeside(dir, ents, trace, extra); err != nil {
		return err
	}
	return checkFiles(dir, name, files, otf.HasChunkHeader, "a chunk header")
}

// checkBeside checks the entries ents of dir: each one of the trace's
// (name → is a directory) or one of the extra directories, which are
// checked in turn.
func checkBeside(dir string, ents []os.DirEntry, trace, extra map[string]bool) error {
	for _, e := range ents {
		n := e.Name()
		if isDir, ok := trace[n]; ok {
			if isDir != e.IsDir() {
				return fmt.Errorf("%s has the wrong type", n)
			}
			continue
		}
		if !extra[n] {
			return fmt.Errorf("it holds %s", n)
		}
		if !e.IsDir() {
			return fmt.Errorf("%s is not a directory", n)
		}
		sub := filepath.Join(dir, n)
		var err error
		if n == tracerMetaDir {
			err = checkMeta(sub)
		} else {
			err = checkNativeOnly(sub)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
	}
	return nil
}

// checkNativeOnly checks that dir holds a native trace and nothing else.
func checkNativeOnly(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	return checkNative(dir, ents, nil)
}

// checkFiles checks that the subdirectory sub of dir holds only files the
// trace names (files, slash-separated relative to dir) that begin as head
// says.
func checkFiles(dir, sub string, files map[string]bool, head func(string) bool, what string) error {
	ents, err := os.ReadDir(filepath.Join(dir, sub))
	if err != nil {
		return err
	}
	for _, e := range ents {
		rel := sub + "/" + e.Name()
		if !files[rel] || e.IsDir() {
			return fmt.Errorf("it holds %s, which is not a file of the trace", rel)
		}
		if !head(filepath.Join(dir, filepath.FromSlash(rel))) {
			return fmt.Errorf("%s does not begin with %s", rel, what)
		}
	}
	return nil
}

// checkMeta checks clc-trace's metadata directory: <rank>.txt files only.
func checkMeta(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		rank, ok := strings.CutSuffix(e.Name(), ".txt")
		if !ok || rank == "" || strings.Trim(rank, "0123456789") != "" || e.IsDir() {
			return fmt.Errorf("it holds %s", e.Name())
		}
	}
	return nil
}
