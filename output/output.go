// Package output owns every path a run writes: the output trace directory,
// the report, the profile, the HTML page. A Plan is made before anything is
// read. It refuses a path inside an input (or one that holds an input),
// compared by identity (device and inode), so that neither a symbolic link
// nor a bind mount leads a write into an input; two paths that clash with
// each other; a directory that does not hold only a trace (CheckTrace);
// a missing parent directory (a Plan creates nothing but its targets); and
// an unwritable place. It makes every write atomic: each target gets one
// temporary beside it, created at once (so a path that cannot be written
// fails before the work starts), renamed into place by Commit and removed
// by Abort. A new target's permissions are 0777 (a directory) or 0666 (a
// file) less the umask; a replaced file or directory keeps its own. A
// temporary's name is short (TempPrefix and a random number), so that any
// name the file system takes for a target works.
//
// Replacing a directory removes only what its inspection found when it was
// claimed: Commit moves it aside and, if anything was written into it (or
// a file of it changed) since, puts everything back and fails.
//
// A program makes one Plan, claims its targets, writes into the
// temporaries, and calls Commit on success or Abort on any failure,
// including cancellation by a signal. Nothing else in the module creates
// temporary directories for outputs.
package output

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/clc-tools/clc/otf"
)

// TempPrefix starts the name of every temporary a Plan creates, so that
// one left behind by a killed process is recognisable.
const TempPrefix = ".clc-tmp-"

// Replace says what may happen to a directory target that exists.
type Replace uint8

const (
	// KeepExisting refuses a non-empty existing directory.
	KeepExisting Replace = iota
	// ReplaceTrace replaces an existing directory only if it holds
	// nothing but a trace (CheckTrace); any other non-empty directory is
	// refused.
	ReplaceTrace
)

// Plan is the set of paths one run writes. Its methods are safe for
// concurrent use.
type Plan struct {
	guard *guard

	mu      sync.Mutex
	targets []*target
	done    bool
}

type target struct {
	what    string // "output", "report", … for messages
	path    string // as given
	abs     string // absolute, resolved
	tmp     string
	dir     bool
	replace bool        // an existing target is to be replaced
	mode    fs.FileMode // permissions of the replaced target, which its replacement takes
	owner   *syscall.Stat_t
	old     string // where Commit keeps the replaced target until it is done
	// inventory is what a replaced directory held when it was inspected:
	// what Commit may remove.
	inventory inventory
	placed    bool // Commit moved the temporary into place
}

// NewPlan returns a plan for a run that reads the given inputs: files, and
// directories with what lies up to three levels below them, where a
// trace's files are (symbolic links followed, the directories they reach
// included). No target may lie inside an input directory, inside the
// directory holding an input file, or contain either.
func NewPlan(inputs ...string) (*Plan, error) {
	p := &Plan{guard: newGuard()}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		if err := p.guard.addInput(in, true); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// AddInputFile protects one more input, a file read alone (a file of true
// times): unlike the inputs of NewPlan, its directory is no input, and a
// target may lie beside it; none may be the file or hold it.
func (p *Plan) AddInputFile(path string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.guard.addFile(path)
}

// Dir claims the directory path (what names it in messages, e.g.
// "output"), creates its temporary and returns the temporary's path, in
// which the caller writes the directory's contents. An existing empty
// directory is replaced; a non-empty one only as replace allows. A name
// ending in .otf2 is refused: the output is the directory that holds an
// archive's anchor, not the anchor.
func (p *Plan) Dir(what, path string, replace Replace) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if base := filepath.Base(filepath.Clean(path)); strings.HasSuffix(base, ".otf2") && len(base) > len(".otf2") {
		dir := strings.TrimSuffix(filepath.Clean(path), ".otf2")
		return "", fmt.Errorf("%s %s: the output is a directory, and a directory named *.otf2 would pass for an OTF2 anchor file; give the directory to write the archive into (%s, which then holds %s)",
			what, path, dir, filepath.Join(dir, otf.AnchorName))
	}
	t, err := p.claim(what, path, true)
	if err != nil {
		return "", err
	}
	st, err := os.Lstat(t.abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return "", fmt.Errorf("%s %s: %w", what, path, err)
	case !st.IsDir():
		return "", fmt.Errorf("%s %s exists and is not a directory", what, path)
	default:
		// What is found now is all that replacing the directory may
		// remove (Commit): a file written into it meanwhile is not.
		inv, err := p.guard.checkTree(t.abs)
		if err != nil || len(inv) > 1 {
			if replace != ReplaceTrace {
				return "", fmt.Errorf("%s %s exists and is not empty (use --force to replace a trace written before)", what, path)
			}
			if err == nil {
				err = checkTrace(t.abs)
			}
			if err != nil {
				return "", fmt.Errorf("%s %s exists and does not hold only a trace (%v): refusing to replace it even with --force", what, path, err)
			}
		}
		t.replace, t.inventory = true, inv
		t.keep(st)
	}
	if err := p.makeTemp(t); err != nil {
		return "", err
	}
	p.targets = append(p.targets, t)
	return t.tmp, nil
}

// File claims the file path and returns the temporary file's path, which
// exists (empty) and which the caller writes. An existing regular file is
// replaced by Commit; a directory or anything else there is refused.
func (p *Plan) File(what, path string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, err := p.claim(what, path, false)
	if err != nil {
		return "", err
	}
	st, err := os.Lstat(t.abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return "", fmt.Errorf("%s %s: %w", what, path, err)
	case st.IsDir():
		return "", fmt.Errorf("%s %s is a directory; give a file name", what, path)
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("%s %s exists and is not a regular file", what, path)
	default:
		t.replace = true
		t.keep(st)
	}
	if err := p.makeTemp(t); err != nil {
		return "", err
	}
	p.targets = append(p.targets, t)
	return t.tmp, nil
}

// keep records the permissions and owner of the target st describes, which
// its replacement takes over.
func (t *target) keep(st fs.FileInfo) {
	t.mode = st.Mode().Perm()
	if s, ok := st.Sys().(*syscall.Stat_t); ok && (int(s.Uid) != os.Geteuid() || int(s.Gid) != os.Getegid()) {
		t.owner = s
	}
}

// claim checks path against the inputs and the targets claimed so far.
// The caller holds p.mu and records the target once it is ready.
func (p *Plan) claim(what, path string, dir bool) (*target, error) {
	if path == "" {
		return nil, fmt.Errorf("%s: empty path", what)
	}
	abs, err := absResolved(path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	}
	if filepath.Dir(abs) == abs {
		return nil, fmt.Errorf("%s %s: cannot replace the file system root", what, path)
	}
	if err := p.guard.check(what, path, abs); err != nil {
		return nil, err
	}
	if p.done {
		return nil, errors.New("output: plan already committed or aborted")
	}
	for _, o := range p.targets {
		if within(abs, o.abs) || within(o.abs, abs) {
			return nil, fmt.Errorf("%s %s clashes with the %s %s: give them separate places", what, path, o.what, o.path)
		}
	}
	return &target{what: what, path: path, abs: abs, dir: dir}, nil
}

// makeTemp creates the temporary of t beside it, in a directory that must
// exist: a plan creates no directory but its targets.
func (p *Plan) makeTemp(t *target) error {
	parent := filepath.Dir(t.abs)
	st, err := os.Stat(parent)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s %s: the directory %s does not exist (clc creates no directory but its outputs)", t.what, t.path, parent)
	case err != nil:
		return fmt.Errorf("%s %s: %w", t.what, t.path, err)
	case !st.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", t.what, t.path, parent)
	}
	// The name is short and not derived from the target's, so that any
	// name the file system takes for the target works; the permissions are
	// 0777 or 0666 less the umask, as for any new file, unless the target
	// replaces one whose permissions it keeps (t.mode).
	for range 100 {
		name := filepath.Join(parent, TempPrefix+strconv.FormatUint(rand.Uint64(), 36))
		if t.dir {
			if err = os.Mkdir(name, 0o777); err == nil {
				t.tmp = name
			}
		} else {
			var f *os.File
			if f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666); err == nil {
				t.tmp = name
				err = f.Close()
			}
		}
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err == nil && t.replace {
		err = os.Chmod(t.tmp, t.mode)
	}
	if err == nil && t.owner != nil {
		// Only root may give a file away; anyone else keeps it.
		if cerr := os.Lchown(t.tmp, int(t.owner.Uid), int(t.owner.Gid)); cerr != nil && !errors.Is(cerr, fs.ErrPermission) {
			err = cerr
		}
	}
	if err != nil {
		if t.tmp != "" {
			os.RemoveAll(t.tmp)
			t.tmp = ""
		}
		return fmt.Errorf("%s %s: cannot write there: %w", t.what, t.path, err)
	}
	return nil
}

// Commit moves every temporary into place, replacing what was there. It
// moves the replaced targets aside first and puts them back if any target
// cannot be placed, so that a failed Commit leaves every target as it was
// and no temporary behind.
func (p *Plan) Commit() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return errors.New("output: plan already committed or aborted")
	}
	p.done = true
	var err error
	for _, t := range p.targets {
		if err = t.place(); err != nil {
			break
		}
	}
	if err == nil {
		// A replaced directory is aside now, out of reach of its path: what
		// was written into it since it was inspected is there to see, and
		// keeps it where it was.
		for _, t := range p.targets {
			if err = t.checkOld(); err != nil {
				break
			}
		}
	}
	if err != nil {
		for i := len(p.targets) - 1; i >= 0; i-- {
			p.targets[i].unplace()
		}
		p.removeTemporaries()
		return err
	}
	var first error
	for _, t := range p.targets {
		if t.old == "" {
			continue
		}
		if !t.dir {
			if rerr := os.Remove(t.old); rerr != nil && first == nil {
				first = fmt.Errorf("%s %s: removing the replaced %s: %w", t.what, t.path, t.old, rerr)
			}
			continue
		}
		if left := t.inventory.remove(t.old); len(left) > 0 && first == nil {
			first = fmt.Errorf("%s %s: the replaced directory, kept at %s, holds %s, which appeared after it was inspected: it was left there",
				t.what, t.path, t.old, strings.Join(left, ", "))
		}
	}
	return first
}

// checkOld refuses to replace a directory that holds, once moved aside, an
// entry that its inspection did not find (or one changed since).
func (t *target) checkOld() error {
	if t.old == "" || !t.dir {
		return nil
	}
	rel, err := t.inventory.foreign(t.old)
	switch {
	case err != nil:
		return fmt.Errorf("%s %s: checking the directory to replace: %w", t.what, t.path, err)
	case rel != "":
		return fmt.Errorf("%s %s: %s appeared in it or changed since it was inspected at the start of the run: refusing to replace it; it is as it was, and nothing was written",
			t.what, t.path, filepath.Join(t.path, rel))
	}
	return nil
}

// place moves t's temporary into place, the replaced target aside.
func (t *target) place() error {
	if t.replace {
		// A file is replaced atomically (rename(2)); a hard link keeps the
		// old one for unplace. A directory moves aside first.
		old := t.tmp + ".old"
		var err error
		if t.dir {
			err = os.Rename(t.abs, old)
		} else {
			err = os.Link(t.abs, old)
		}
		switch {
		case err == nil:
			t.old = old
		case t.dir:
			return fmt.Errorf("%s %s: moving the old directory aside: %w", t.what, t.path, err)
		}
	}
	if err := os.Rename(t.tmp, t.abs); err != nil {
		return fmt.Errorf("%s %s: %w", t.what, t.path, err)
	}
	t.placed = true
	return nil
}

// unplace undoes place: the temporary back, the replaced target back.
func (t *target) unplace() {
	if t.placed {
		if t.old != "" && !t.dir {
			os.Rename(t.old, t.abs) // the old file back, atomically
		} else {
			os.Rename(t.abs, t.tmp)
		}
		t.placed = false
	}
	if t.old != "" {
		if t.dir {
			os.Rename(t.old, t.abs)
		}
		os.Remove(t.old)
		t.old = ""
	}
}

// Abort removes every temporary. It is safe to call more than once, from
// another goroutine while the temporaries are written (a second interrupt)
// and after Commit (it then does nothing).
func (p *Plan) Abort() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.done = true
	p.removeTemporaries()
}

// removeTemporaries removes every target's temporary. A temporary is
// renamed before it is removed, so that a writer still at work cannot
// create files under its name.
func (p *Plan) removeTemporaries() {
	for _, t := range p.targets {
		if t.tmp == "" {
			continue
		}
		gone := t.tmp + ".gone"
		if os.Rename(t.tmp, gone) == nil {
			os.RemoveAll(gone)
		}
		os.RemoveAll(t.tmp)
		t.tmp = ""
	}
}

// Temporaries returns the temporaries created so far (for tests and
// diagnostics).
func (p *Plan) Temporaries() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, t := range p.targets {
		if t.tmp != "" {
			out = append(out, t.tmp)
		}
	}
	return out
}

// absResolved returns the absolute form of p with symbolic links resolved
// as far as the path exists.
func absResolved(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return resolve(abs), nil
}

func resolve(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if dir == p || dir == "." || dir == "" {
		return p
	}
	return filepath.Join(resolve(dir), base)
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
