// Package output owns every path a run writes: the output trace directory,
// the report, the profile, the HTML page. A Plan is made before anything is
// read. It refuses a path inside an input (or one that contains an input),
// two paths that clash with each other, a directory that is not safe to
// replace, and an unwritable place, and it makes every write atomic: each
// target gets one temporary beside it, created at once (so a path that
// cannot be written fails before the work starts), renamed into place by
// Commit and removed by Abort.
//
// A program makes one Plan, claims its targets, writes into the
// temporaries, and calls Commit on success or Abort on any failure,
// including cancellation by a signal. Nothing else in the module creates
// temporary directories for outputs.
package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	// nothing but a trace clc could have written (see IsReplaceable); any
	// other non-empty directory is refused.
	ReplaceTrace
)

// Plan is the set of paths one run writes. Its methods are safe for
// concurrent use.
type Plan struct {
	inputs []string // absolute, symbolic links resolved

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
	replace bool // an existing target is to be replaced
}

// NewPlan returns a plan for a run that reads the given inputs (files or
// directories); no target may lie inside one of them or contain one.
func NewPlan(inputs ...string) (*Plan, error) {
	p := &Plan{}
	for _, in := range inputs {
		if in == "" {
			continue
		}
		abs, err := absResolved(in)
		if err != nil {
			return nil, fmt.Errorf("input %s: %w", in, err)
		}
		p.inputs = append(p.inputs, abs)
	}
	return p, nil
}

// Dir claims the directory path (what names it in messages, e.g.
// "output"), creates its temporary and returns the temporary's path, in
// which the caller writes the directory's contents. An existing empty
// directory is replaced; a non-empty one only as replace allows.
func (p *Plan) Dir(what, path string, replace Replace) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
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
		ents, err := os.ReadDir(t.abs)
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", what, path, err)
		}
		if len(ents) > 0 {
			if replace != ReplaceTrace {
				return "", fmt.Errorf("%s %s exists and is not empty (use --force to replace a trace written before)", what, path)
			}
			if why := notReplaceable(t.abs, ents); why != "" {
				return "", fmt.Errorf("%s %s exists and does not hold only a trace (%s): refusing to replace it even with --force", what, path, why)
			}
		}
		t.replace = true
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
	}
	if err := p.makeTemp(t); err != nil {
		return "", err
	}
	p.targets = append(p.targets, t)
	return t.tmp, nil
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
	for _, in := range p.inputs {
		switch {
		case within(abs, in):
			return nil, fmt.Errorf("%s %s is inside the input %s: clc never writes into its input", what, path, in)
		case within(in, abs):
			return nil, fmt.Errorf("%s %s contains the input %s: replacing it would destroy the input", what, path, in)
		}
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

// makeTemp creates the temporary of t beside it, creating missing parent
// directories.
func (p *Plan) makeTemp(t *target) error {
	parent := filepath.Dir(t.abs)
	if err := os.MkdirAll(parent, 0o777); err != nil {
		return fmt.Errorf("%s %s: %w", t.what, t.path, err)
	}
	pattern := TempPrefix + filepath.Base(t.abs) + "-"
	var err error
	if t.dir {
		t.tmp, err = os.MkdirTemp(parent, pattern)
		if err == nil {
			err = os.Chmod(t.tmp, 0o755)
		}
	} else {
		var f *os.File
		f, err = os.CreateTemp(parent, pattern)
		if err == nil {
			t.tmp = f.Name()
			if err = f.Chmod(0o644); err == nil {
				err = f.Close()
			} else {
				f.Close()
			}
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

// Commit moves every temporary into place, in the order the targets were
// claimed, replacing what was there. After an error the remaining
// temporaries are removed; targets already in place stay.
func (p *Plan) Commit() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return errors.New("output: plan already committed or aborted")
	}
	p.done = true
	var first error
	for _, t := range p.targets {
		if t.tmp == "" {
			continue
		}
		if first != nil {
			os.RemoveAll(t.tmp)
			continue
		}
		if err := commitOne(t); err != nil {
			first = err
			os.RemoveAll(t.tmp)
		}
	}
	return first
}

func commitOne(t *target) error {
	if !t.replace {
		if err := os.Rename(t.tmp, t.abs); err != nil {
			return fmt.Errorf("%s %s: %w", t.what, t.path, err)
		}
		return nil
	}
	if !t.dir {
		// rename(2) replaces a file atomically.
		if err := os.Rename(t.tmp, t.abs); err != nil {
			return fmt.Errorf("%s %s: %w", t.what, t.path, err)
		}
		return nil
	}
	// A directory: move the old one aside, the new one in, then remove the
	// old one.
	old := t.tmp + ".old"
	if err := os.Rename(t.abs, old); err != nil {
		return fmt.Errorf("%s %s: moving the old directory aside: %w", t.what, t.path, err)
	}
	if err := os.Rename(t.tmp, t.abs); err != nil {
		_ = os.Rename(old, t.abs)
		return fmt.Errorf("%s %s: %w", t.what, t.path, err)
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("%s %s: removing the replaced directory %s: %w", t.what, t.path, old, err)
	}
	return nil
}

// Abort removes every temporary. It is safe to call more than once and
// after Commit (it then does nothing).
func (p *Plan) Abort() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	p.done = true
	for _, t := range p.targets {
		if t.tmp != "" {
			os.RemoveAll(t.tmp)
		}
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

// IsReplaceable reports whether the directory dir holds nothing but a trace
// clc could have written: a native trace (clc.json, events/, truth/) or one
// OTF2 archive (NAME.otf2, NAME.def, NAME/), with a truth/ beside it.
func IsReplaceable(dir string) bool {
	ents, err := os.ReadDir(dir)
	return err == nil && notReplaceable(dir, ents) == ""
}

// notReplaceable returns why the directory with entries ents may not be
// replaced by --force, or "".
func notReplaceable(dir string, ents []os.DirEntry) string {
	var anchors []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".otf2") && !e.IsDir() {
			anchors = append(anchors, strings.TrimSuffix(e.Name(), ".otf2"))
		}
	}
	if len(anchors) > 1 {
		return "several OTF2 archives"
	}
	allowed := map[string]bool{"clc.json": false, "events": true, "truth": true}
	for _, a := range anchors {
		allowed[a+".otf2"], allowed[a+".def"], allowed[a] = false, false, true
	}
	native := false
	for _, e := range ents {
		isDir, ok := allowed[e.Name()]
		if !ok {
			return "it holds " + e.Name()
		}
		if isDir != e.IsDir() {
			return e.Name() + " has the wrong type"
		}
		if e.Name() == "clc.json" {
			native = true
		}
	}
	if !native && len(anchors) == 0 {
		return "no clc.json and no OTF2 anchor"
	}
	return ""
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
