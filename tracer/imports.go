package tracer

import (
	"bufio"
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clc-tools/clc/tracer/mpifn"
)

// Imports is what a program and the shared libraries it needs import from
// MPI, read from their ELF dynamic symbol tables before the run.
type Imports struct {
	// Funcs maps each imported MPI function (its C name; MPI_X_c for
	// MPI-4.0's large-count variants) to the objects that import it.
	Funcs map[string][]string
	// F08 lists the objects that call MPI through "use mpi_f08".
	F08 []string
	// Objects lists the files scanned, the program first.
	Objects []string
	// Missing lists needed libraries that were not found.
	Missing []string
}

// ScanImports reads the undefined dynamic symbols of the ELF program at
// path and, following DT_NEEDED through the library search path (DT_RPATH,
// LD_LIBRARY_PATH from env, DT_RUNPATH, /etc/ld.so.conf and the default
// directories), of every library it needs, except the MPI libraries
// themselves (their own calls are MPI's business, not the program's).
func ScanImports(path string, env []string) (*Imports, error) {
	im := &Imports{Funcs: map[string][]string{}}
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: not an ELF file: %w", path, err)
	}
	s := &scanner{im: im, seen: map[string]bool{}, ldPath: splitPath(getEnv(env, "LD_LIBRARY_PATH")),
		class: f.Class, machine: f.Machine, conf: ldSoConf()}
	f.Close()
	if err := s.scan(path, nil); err != nil {
		return nil, err
	}
	for n := range im.Funcs {
		sort.Strings(im.Funcs[n])
	}
	sort.Strings(im.F08)
	sort.Strings(im.Missing)
	return im, nil
}

type scanner struct {
	im      *Imports
	seen    map[string]bool
	ldPath  []string
	conf    []string
	class   elf.Class
	machine elf.Machine
}

func splitPath(p string) []string {
	var out []string
	for _, d := range strings.Split(p, ":") {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// defaultLibDirs are the dynamic linker's trusted directories on a
// multiarch Debian system.
var defaultLibDirs = []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"}

// ldSoConf returns the directories listed in /etc/ld.so.conf and the
// files it includes.
func ldSoConf() []string {
	var dirs []string
	var read func(path string, depth int)
	read = func(path string, depth int) {
		f, err := os.Open(path)
		if err != nil || depth > 8 {
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = strings.TrimSpace(line[:i])
			}
			if line == "" {
				continue
			}
			if rest, ok := strings.CutPrefix(line, "include "); ok {
				pat := strings.TrimSpace(rest)
				if !filepath.IsAbs(pat) {
					pat = filepath.Join(filepath.Dir(path), pat)
				}
				ms, _ := filepath.Glob(pat)
				sort.Strings(ms)
				for _, m := range ms {
					read(m, depth+1)
				}
				continue
			}
			dirs = append(dirs, line)
		}
	}
	read("/etc/ld.so.conf", 0)
	return dirs
}

func dynStrings(f *elf.File, tag elf.DynTag) []string {
	v, err := f.DynString(tag)
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range v {
		out = append(out, splitPath(s)...)
	}
	return out
}

// find locates a needed library like the dynamic linker does.
func (s *scanner) find(name, origin string, rpath, runpath []string) string {
	if strings.Contains(name, "/") {
		return name
	}
	var dirs []string
	if len(runpath) == 0 {
		dirs = append(dirs, rpath...)
	}
	dirs = append(dirs, s.ldPath...)
	dirs = append(dirs, runpath...)
	dirs = append(dirs, s.conf...)
	dirs = append(dirs, defaultLibDirs...)
	for _, d := range dirs {
		d = strings.ReplaceAll(strings.ReplaceAll(d, "${ORIGIN}", origin), "$ORIGIN", origin)
		p := filepath.Join(d, name)
		f, err := elf.Open(p)
		if err != nil {
			continue
		}
		ok := f.Class == s.class && f.Machine == s.machine
		f.Close()
		if ok {
			return p
		}
	}
	return ""
}

func (s *scanner) scan(path string, parentRpath []string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	if s.seen[real] {
		return nil
	}
	s.seen[real] = true
	f, err := elf.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	s.im.Objects = append(s.im.Objects, path)
	syms, err := f.DynamicSymbols()
	if err != nil && err != elf.ErrNoSymbols {
		return fmt.Errorf("%s: reading its dynamic symbols: %w", path, err)
	}
	f08 := false
	for _, sym := range syms {
		if sym.Section != elf.SHN_UNDEF {
			continue
		}
		if isF08Symbol(sym.Name) {
			f08 = true
		}
		if r, ok := mpifn.Resolve(sym.Name); ok {
			l := s.im.Funcs[r.Name]
			if len(l) == 0 || l[len(l)-1] != path {
				s.im.Funcs[r.Name] = append(l, path)
			}
		}
	}
	if f08 {
		s.im.F08 = append(s.im.F08, path)
	}
	needed, _ := f.ImportedLibraries()
	rpath := append(dynStrings(f, elf.DT_RPATH), parentRpath...)
	runpath := dynStrings(f, elf.DT_RUNPATH)
	origin := filepath.Dir(real)
	for _, n := range needed {
		if flavourOfSoname(n) != "" {
			continue // the MPI library itself
		}
		p := s.find(n, origin, rpath, runpath)
		if p == "" {
			s.im.Missing = append(s.im.Missing, n)
			continue
		}
		if err := s.scan(p, rpath); err != nil {
			return err
		}
	}
	return nil
}

// isF08Symbol recognises the entry points of the "use mpi_f08" bindings
// (mpi_send_f08_, mpi_send_f08ts_ …).
func isF08Symbol(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "mpi_") && (strings.Contains(n, "_f08_") || strings.Contains(n, "_f08ts_") || strings.HasSuffix(n, "_f08"))
}

// Unrecorded is an imported communicating MPI function the trace will not
// hold.
type Unrecorded struct {
	Name string
	// Why: "not wrapped", "MPI-4.0 large count", or "group G filtered out".
	Why     string
	Objects []string
}

// Unrecorded lists the communicating MPI functions im holds that the
// tracer does not record, with enabled giving the groups --mpi-groups
// keeps.
func (im *Imports) Unrecorded(enabled GroupSet) []Unrecorded {
	var out []Unrecorded
	names := make([]string, 0, len(im.Funcs))
	for n := range im.Funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		r, _ := mpifn.Resolve(n)
		f := r.Func
		if f == nil || !f.Communicating() {
			continue
		}
		why := ""
		switch {
		case r.LargeCount:
			why = "MPI-4.0 large count, not wrapped"
		case !f.Recorded:
			why = "not wrapped"
		case !enabled.Has(f.Group):
			why = "group " + f.Group.String() + " filtered out"
		}
		if why != "" {
			out = append(out, Unrecorded{Name: n, Why: why, Objects: im.Funcs[n]})
		}
	}
	return out
}

// UnrecordedNames returns the names of u, comma-separated (the manifest's
// clc.unrecorded-mpi).
func UnrecordedNames(u []Unrecorded) string {
	names := make([]string, len(u))
	for i, x := range u {
		names[i] = x.Name
	}
	return strings.Join(names, ",")
}

// GroupSet is a set of function groups.
type GroupSet uint32

// AllGroups holds every group the tracer records.
const AllGroups = GroupSet(1<<mpifn.GroupEnv | 1<<mpifn.GroupP2P | 1<<mpifn.GroupColl | 1<<mpifn.GroupCG |
	1<<mpifn.GroupTopo | 1<<mpifn.GroupIO | 1<<mpifn.GroupRMA | 1<<mpifn.GroupReqTest)

// Has reports whether g is in the set.
func (s GroupSet) Has(g mpifn.Group) bool { return s&(1<<g) != 0 }

// String lists the set's groups, comma-separated.
func (s GroupSet) String() string {
	var out []string
	for _, g := range mpifn.Groups() {
		if s.Has(g) {
			out = append(out, g.String())
		}
	}
	return strings.Join(out, ",")
}

// ParseGroups parses --mpi-groups: "all", a list of groups
// ("p2p,coll,cg"), or "all,-io,-xreqtest" to remove some. env is always
// recorded (MPI_Init and MPI_Finalize are the trace's frame).
func ParseGroups(spec string) (GroupSet, error) {
	var s GroupSet
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return AllGroups, nil
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		neg := strings.HasPrefix(item, "-")
		item = strings.TrimPrefix(item, "-")
		var add GroupSet
		if strings.EqualFold(item, "all") || strings.EqualFold(item, "default") {
			add = AllGroups
		} else {
			g, err := mpifn.ParseGroup(item)
			if err != nil {
				return 0, fmt.Errorf("--mpi-groups: %w", err)
			}
			if g == mpifn.GroupSpawn {
				return 0, fmt.Errorf("--mpi-groups: the spawn group is never recorded")
			}
			add = 1 << g
		}
		if neg {
			s &^= add
		} else {
			s |= add
		}
	}
	return s | 1<<mpifn.GroupEnv, nil
}
