package output

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// fileID is a file's identity: its device and inode. Two paths to one
// directory (a symbolic link, a bind mount, a hard link) have the same
// identity; paths alone cannot tell.
type fileID struct{ dev, ino uint64 }

// idOf returns the identity of the file st describes.
func idOf(st fs.FileInfo) fileID {
	s := st.Sys().(*syscall.Stat_t)
	return fileID{dev: uint64(s.Dev), ino: uint64(s.Ino)} //nolint:unconvert // the field types differ between platforms
}

// guard knows the directories a run reads, by identity.
type guard struct {
	// dirs are the input's directories, by identity, with the input each
	// belongs to (for messages): no target may lie inside one.
	dirs map[fileID]string
	// walked are the directories of dirs whose content was walked, with
	// the depth they were walked to.
	walked map[fileID]int
	// above are the directories that hold an input directory or file (at
	// any depth): no target may be one of them, which replacing would
	// destroy the input.
	above map[fileID]string
	// files are the inputs protected alone (a file of true times), not
	// with their directory: no target may be one of them.
	files map[fileID]string
}

func newGuard() *guard {
	return &guard{dirs: map[fileID]string{}, walked: map[fileID]int{}, above: map[fileID]string{}, files: map[fileID]string{}}
}

// addFile protects the input file at path alone: a target may be beside
// it, but neither be it (by identity, so neither through a link) nor hold
// it.
func (g *guard) addFile(path string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("input %s: %w", path, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("input %s: %w", path, err)
	}
	g.files[idOf(st)] = path
	g.addAbove(real, path)
	return nil
}

// walkDepth bounds how deep addInput walks an input directory: a trace's
// files lie at most three levels below it (truth/events/0.clce), and a
// link in a hostile input must not make the plan walk the file system.
const walkDepth = 3

// addInput protects the input at path: a file (the directory that holds
// it), or a directory with what lies below it (walkDepth levels). walk
// says whether to walk a directory's content: symbolic links in it are
// followed, and the directories they reach are protected as well.
func (g *guard) addInput(path string, walk bool) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("input %s: %w", path, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("input %s: %w", path, err)
	}
	depth := 0
	if walk {
		depth = walkDepth
	}
	if st.IsDir() {
		g.addDir(abs, path, depth)
		return nil
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return fmt.Errorf("input %s: %w", path, err)
	}
	g.addDir(filepath.Dir(real), path, 0)
	return nil
}

// addDir protects the directory dir of the input named in, and walks its
// content depth levels deep. Unreadable entries and broken links are
// skipped: what the run cannot read it cannot be asked to protect.
func (g *guard) addDir(dir, in string, depth int) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return
	}
	id := idOf(st)
	if _, ok := g.dirs[id]; !ok {
		g.dirs[id] = in
		g.addAbove(dir, in)
	}
	if depth <= 0 || g.walked[id] >= depth {
		return
	}
	g.walked[id] = depth
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			g.addDir(p, in, depth-1)
		case e.Type()&fs.ModeSymlink != 0:
			st, err := os.Stat(p)
			if err != nil {
				continue
			}
			if st.IsDir() {
				g.addDir(p, in, depth-1)
			} else if real, err := filepath.EvalSymlinks(p); err == nil {
				g.addDir(filepath.Dir(real), in, 0)
			}
		}
	}
}

// addAbove records every directory above dir (its real path's parents).
func (g *guard) addAbove(dir, in string) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return
	}
	for d := filepath.Dir(real); ; d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil {
			id := idOf(st)
			if _, ok := g.above[id]; ok {
				return // and so are its parents
			}
			g.above[id] = in
		}
		if filepath.Dir(d) == d {
			return
		}
	}
}

// check refuses a target at abs (absolute, resolved as far as it exists;
// path as given, for messages) that is an input directory or lies inside
// one, or that holds one.
func (g *guard) check(what, path, abs string) error {
	for d := abs; ; d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil {
			id := idOf(st)
			if in, ok := g.dirs[id]; ok {
				return fmt.Errorf("%s %s is inside the input %s: clc never writes into its input", what, path, in)
			}
			if in, ok := g.files[id]; ok && d == abs {
				return fmt.Errorf("%s %s is the input %s: clc never writes into its input", what, path, in)
			}
			if in, ok := g.above[id]; ok && d == abs {
				return fmt.Errorf("%s %s contains the input %s: replacing it would destroy the input", what, path, in)
			}
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// checkTree walks the existing directory dir, which a target is to
// replace, and returns why it may not be replaced, or nil: it must hold
// only directories and regular files, on dir's file system (no mount
// point, no symbolic link: removing the old directory must not reach
// anything else), and no input directory (through a bind mount, say).
// It returns what it found (an inventory), the only entries that
// replacing dir may remove.
func (g *guard) checkTree(dir string) (inventory, error) {
	top, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	dev := idOf(top).dev
	inv := inventory{}
	err = walkInfo(dir, func(_, rel string, d fs.DirEntry, st fs.FileInfo) error {
		id := idOf(st)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link", rel)
		case !d.IsDir() && !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file", rel)
		case id.dev != dev:
			return fmt.Errorf("%s is on another file system (a mount point)", rel)
		}
		if d.IsDir() {
			if in, ok := g.dirs[id]; ok {
				return fmt.Errorf("%s is the input %s (mounted or linked there)", rel, in)
			}
		}
		inv[rel] = stateOf(st)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return inv, nil
}

// fileState is what tells a file from one that replaced it or was
// changed: its identity, type, size and time of modification.
type fileState struct {
	id    fileID
	dir   bool
	size  int64
	mtime int64
}

func stateOf(st fs.FileInfo) fileState {
	s := fileState{id: idOf(st), dir: st.IsDir(), mtime: st.ModTime().UnixNano()}
	if !s.dir {
		s.size = st.Size()
	}
	return s
}

// inventory is the content of a directory a target replaces, as inspected
// before the run: its entries' paths relative to it ("." the directory
// itself) and their states.
type inventory map[string]fileState

// walk calls f on every entry of dir (where the inspected directory now
// is) with its path, its path relative to dir, whether it is a directory,
// and whether the inventory holds it as it is now: a directory by its
// identity (its time changes with its entries, which the walk compares one
// by one), anything else by its identity, type, size and time.
func (inv inventory) walk(dir string, f func(p, rel string, isDir, known bool) error) error {
	return walkInfo(dir, func(p, rel string, _ fs.DirEntry, st fs.FileInfo) error {
		was, ok := inv[rel]
		now := stateOf(st)
		known := ok && was.dir == now.dir && ((now.dir && was.id == now.id) || (!now.dir && was == now))
		return f(p, rel, now.dir, known)
	})
}

// foreign returns the first entry of the directory dir (where the
// inspected directory now is) that the inventory does not hold as it is
// now, or "": a file written into the directory since it was inspected,
// or a trace file changed.
func (inv inventory) foreign(dir string) (string, error) {
	var found string
	err := inv.walk(dir, func(_, rel string, _, known bool) error {
		if !known {
			found = rel
			return filepath.SkipAll
		}
		return nil
	})
	return found, err
}

// remove removes from dir (where the inspected directory now is) the
// entries of the inventory, files first, then the directories left
// empty, deepest first. Anything else stays: it returns the entries
// left, which keep dir too.
func (inv inventory) remove(dir string) []string {
	var dirs, left []string
	_ = inv.walk(dir, func(p, rel string, isDir, known bool) error {
		switch {
		case isDir && known:
			dirs = append(dirs, p)
		case isDir:
			left = append(left, rel)
			return filepath.SkipDir
		case !known || os.Remove(p) != nil:
			left = append(left, rel)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i]) // fails on a directory that keeps an entry
	}
	return left
}

// walkInfo calls f on dir and every entry below it, with its path, its path
// relative to dir, its entry and what lstat(2) says of it; the first error
// stops the walk.
func walkInfo(dir string, f func(p, rel string, d fs.DirEntry, st fs.FileInfo) error) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		st, err := d.Info()
		if err != nil {
			return err
		}
		return f(p, rel, d, st)
	})
}
