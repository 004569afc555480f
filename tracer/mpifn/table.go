// Package mpifn is the one table of the MPI functions clc-trace knows
// (functions.tbl): which it records and how, which communicate, and their
// C parameters. The PMPI library's C and Fortran wrappers are generated
// from it (Generate, run by go generate in cmd/clc-trace), and clc-trace
// uses it to list the communicating MPI functions a program imports that
// the trace will not hold.
//
// # The table
//
// One function per line, fields separated by '|':
//
//	name | group | flags | C parameters | pre | post
//
// The name is the C name (MPI_Send). The group is the function group of
// --mpi-groups (env, p2p, coll, cg, topo, io, rma, spawn). Flags, separated
// by commas:
//
//   - special: the wrappers are written by hand (MPI_Init, MPI_Finalize …)
//   - local: does not communicate (MPI_Comm_rank, MPI_Group_union …)
//   - none: communicates but is not recorded (listed as unrecorded when a
//     program imports it)
//   - mpi4: an MPI-4.0 function (wrapped only where mpi.h declares it)
//   - len=PARAM:EXPR;PARAM:EXPR: the length of an array parameter that the
//     Fortran wrapper converts (C expression over the C parameters)
//
// pre and post are C statements run before and after the PMPI call. They
// see the parameters under their C names and types (the Fortran wrappers
// convert what they use), t0 (the enter time), and, in post, rc (the
// return code) and t1 (the leave time). An MPI_Status or status array they
// use is never MPI_STATUS(ES)_IGNORE: the wrapper substitutes its own. A
// recorded function without hooks is recorded as a region (enter, leave).
// A test or probe is a poll (its unsuccessful calls form runs that
// collapse) by its post hook: h_polled, h_test, h_testall, h_testany,
// h_testsome and h_get_status tell the library of an unsuccessful call.
package mpifn

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"
)

//go:embed functions.tbl
var tableText string

// Group is a function group of the tracer's filter (--mpi-groups), in the
// spirit of Score-P's SCOREP_MPI_ENABLE_GROUPS.
type Group uint8

// The function groups. Their bit in the library's mask is 1 << Group.
const (
	GroupEnv Group = iota
	GroupP2P
	GroupColl
	GroupCG
	GroupTopo
	GroupIO
	GroupRMA
	GroupSpawn
	// GroupReqTest is not a group of functions but of events: the
	// request-test events of unsuccessful tests (Score-P's xreqtest).
	GroupReqTest
	numGroups
)

var groupNames = [numGroups]string{"env", "p2p", "coll", "cg", "topo", "io", "rma", "spawn", "xreqtest"}

// String returns the group's name as --mpi-groups spells it.
func (g Group) String() string {
	if g < numGroups {
		return groupNames[g]
	}
	return fmt.Sprintf("group(%d)", uint8(g))
}

// Groups returns all groups in order.
func Groups() []Group {
	out := make([]Group, numGroups)
	for i := range out {
		out[i] = Group(i)
	}
	return out
}

// ParseGroup parses a group name.
func ParseGroup(s string) (Group, error) {
	for i, n := range groupNames {
		if strings.EqualFold(s, n) {
			return Group(i), nil
		}
	}
	return 0, fmt.Errorf("unknown MPI function group %q (want one of %s)", s, strings.Join(groupNames[:], ", "))
}

// Param is one C parameter.
type Param struct {
	// Type is the C type without the name, arrays written as pointers
	// ("const int *" for "const int sendcounts[]").
	Type string
	// Base is the type without const and pointers ("int").
	Base string
	Name string
	// Ptr is the number of pointer levels (an array counts as one).
	Ptr   int
	Const bool
	Array bool
	// Dims are further array dimensions ("[3]" for "int ranges[][3]").
	Dims string
}

// Func is one row of the table.
type Func struct {
	Name  string
	Group Group
	// Special functions have hand-written wrappers.
	Special bool
	// Local functions do not communicate.
	Local bool
	// Recorded is false for functions clc-trace knows but does not wrap.
	Recorded bool
	// MPI4 marks MPI-4.0 functions.
	MPI4      bool
	Params    []Param
	Pre, Post string
	// Len gives the length expression of array parameters the Fortran
	// wrapper converts.
	Len  map[string]string
	Line int
}

// Communicating reports whether calls of f move data or synchronise
// processes (what the unrecorded list is about).
func (f *Func) Communicating() bool { return !f.Local && f.Group != GroupEnv }

// Lower returns the name in lower case (mpi_send).
func (f *Func) Lower() string { return strings.ToLower(f.Name) }

var (
	parseOnce sync.Once
	funcs     []*Func
	byLower   map[string]*Func
	parseErr  error
)

func load() {
	parseOnce.Do(func() {
		funcs, parseErr = Parse(tableText)
		byLower = map[string]*Func{}
		for _, f := range funcs {
			byLower[f.Lower()] = f
		}
	})
	if parseErr != nil {
		panic("mpifn: functions.tbl: " + parseErr.Error())
	}
}

// Funcs returns the table in its order (the order of the trace's regions
// for the recorded functions).
func Funcs() []*Func {
	load()
	return funcs
}

// Recorded returns the recorded functions in table order: the regions of a
// trace written by clc-trace, in this order.
func Recorded() []*Func {
	var out []*Func
	for _, f := range Funcs() {
		if f.Recorded {
			out = append(out, f)
		}
	}
	return out
}

// Lookup finds a function by its C name, in any case.
func Lookup(name string) *Func {
	load()
	return byLower[strings.ToLower(name)]
}

// Parse reads a table in the format of functions.tbl.
func Parse(text string) ([]*Func, error) {
	var out []*Func
	seen := map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		ln := i + 1
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "|")
		for len(fs) < 6 {
			fs = append(fs, "")
		}
		if len(fs) > 6 {
			return nil, fmt.Errorf("line %d: %d fields, want at most 6", ln, len(fs))
		}
		for j := range fs {
			fs[j] = strings.TrimSpace(fs[j])
		}
		f := &Func{Name: fs[0], Recorded: true, Pre: fs[4], Post: fs[5], Line: ln}
		if !strings.HasPrefix(f.Name, "MPI_") || strings.ContainsAny(f.Name, " \t") {
			return nil, fmt.Errorf("line %d: bad function name %q", ln, f.Name)
		}
		if p, dup := seen[strings.ToLower(f.Name)]; dup {
			return nil, fmt.Errorf("line %d: %s already defined on line %d", ln, f.Name, p)
		}
		seen[strings.ToLower(f.Name)] = ln
		g, err := ParseGroup(fs[1])
		if err != nil || g == GroupReqTest {
			return nil, fmt.Errorf("line %d: %s: bad group %q", ln, f.Name, fs[1])
		}
		f.Group = g
		if err := f.parseFlags(fs[2]); err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", ln, f.Name, err)
		}
		if f.Params, err = parseParams(fs[3]); err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", ln, f.Name, err)
		}
		if f.Recorded && fs[3] == "" {
			return nil, fmt.Errorf("line %d: %s is recorded but has no parameters", ln, f.Name)
		}
		if !f.Recorded && (f.Pre != "" || f.Post != "") {
			return nil, fmt.Errorf("line %d: %s is not recorded but has hooks", ln, f.Name)
		}
		for p := range f.Len {
			if f.param(p) == nil {
				return nil, fmt.Errorf("line %d: %s: len= names %s, which is no parameter", ln, f.Name, p)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

func (f *Func) parseFlags(s string) error {
	for _, fl := range strings.Split(s, ",") {
		fl = strings.TrimSpace(fl)
		switch {
		case fl == "":
		case fl == "special":
			f.Special = true
		case fl == "local":
			f.Local = true
		case fl == "none":
			f.Recorded = false
		case fl == "mpi4":
			f.MPI4 = true
		case strings.HasPrefix(fl, "len="):
			f.Len = map[string]string{}
			for _, kv := range strings.Split(fl[4:], ";") {
				k, v, ok := strings.Cut(kv, ":")
				if !ok || strings.TrimSpace(k) == "" || strings.TrimSpace(v) == "" {
					return fmt.Errorf("bad len= entry %q", kv)
				}
				f.Len[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		default:
			return fmt.Errorf("unknown flag %q", fl)
		}
	}
	return nil
}

func (f *Func) param(name string) *Param {
	for i := range f.Params {
		if f.Params[i].Name == name {
			return &f.Params[i]
		}
	}
	return nil
}

func parseParams(s string) ([]Param, error) {
	if s == "" || s == "void" {
		return nil, nil
	}
	var out []Param
	for _, raw := range strings.Split(s, ",") {
		p, err := parseParam(strings.TrimSpace(raw))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func parseParam(s string) (Param, error) {
	var p Param
	if i := strings.Index(s, "[]["); i >= 0 && strings.HasSuffix(s, "]") {
		p.Dims = s[i+2:]
		s = s[:i+2]
	}
	if strings.HasSuffix(s, "[]") {
		p.Array = true
		s = strings.TrimSpace(strings.TrimSuffix(s, "[]"))
	}
	i := strings.LastIndexAny(s, " *")
	if i < 0 {
		return p, fmt.Errorf("parameter %q has no name", s)
	}
	p.Name = s[i+1:]
	if !isIdent(p.Name) {
		return p, fmt.Errorf("parameter %q: bad name %q", s, p.Name)
	}
	typ := strings.TrimSpace(s[:i+1])
	p.Ptr = strings.Count(typ, "*")
	base := strings.TrimSpace(strings.ReplaceAll(typ, "*", ""))
	if strings.HasPrefix(base, "const ") {
		p.Const = true
		base = strings.TrimSpace(strings.TrimPrefix(base, "const "))
	}
	if !isIdent(base) {
		return p, fmt.Errorf("parameter %q: bad type %q", s, base)
	}
	p.Base = base
	if p.Array {
		p.Ptr++
	}
	p.Type = base + " " + strings.Repeat("*", p.Ptr)
	if p.Const {
		p.Type = "const " + p.Type
	}
	p.Type = strings.TrimSpace(p.Type)
	return p, nil
}

// decl returns the parameter's C declaration as the table wrote it.
func (p *Param) decl() string {
	t := p.Base
	if p.Const {
		t = "const " + t
	}
	ptr := p.Ptr
	if p.Array {
		ptr--
	}
	s := t + " " + strings.Repeat("*", ptr) + p.Name
	if p.Array {
		s += "[]" + p.Dims
	}
	return s
}

// Symbol says what an imported dynamic symbol is.
type Symbol struct {
	Func *Func
	// Name is the MPI function as a user would name it: the C name, with
	// "_c" for MPI-4.0's large-count variants.
	Name string
	// LargeCount marks MPI-4.0's MPI_X_c variants, which are never recorded.
	LargeCount bool
}

// Resolve maps an imported symbol (MPI_Send, PMPI_Send, mpi_send_,
// MPI_SEND, mpi_send_f08_, ompi_send_f, MPI_Send_c …) to a function of the
// table. ok is false for symbols that are not MPI functions the table
// knows.
func Resolve(sym string) (s Symbol, ok bool) {
	load()
	n := strings.ToLower(sym)
	if i := strings.IndexByte(n, '@'); i >= 0 { // versioned symbol
		n = n[:i]
	}
	switch {
	case strings.HasPrefix(n, "ompi_") && strings.HasSuffix(n, "_f"):
		n = "mpi_" + strings.TrimSuffix(strings.TrimPrefix(n, "ompi_"), "_f")
	case strings.HasPrefix(n, "pmpi_"):
		n = n[1:]
	}
	if !strings.HasPrefix(n, "mpi_") {
		return s, false
	}
	n = strings.TrimRight(n, "_")
	for _, suf := range []string{"_f08ts", "_f08", "_cdesc"} {
		n = strings.TrimSuffix(n, suf)
	}
	if f := byLower[n]; f != nil {
		return Symbol{Func: f, Name: f.Name}, true
	}
	if base, ok := strings.CutSuffix(n, "_c"); ok {
		if f := byLower[base]; f != nil {
			return Symbol{Func: f, Name: f.Name + "_c", LargeCount: true}, true
		}
	}
	return s, false
}

// Names returns the sorted C names of fs.
func Names(fs []*Func) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	sort.Strings(out)
	return out
}
