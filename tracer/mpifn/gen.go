package mpifn

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Generated files of the PMPI library, written into cmd/clc-trace/pmpi/.
const (
	RegionsFile = "regions_gen.h"
	CFile       = "wrap_gen.c"
	FortranFile = "fortran_gen.c"
)

const header = "/* Generated from tracer/mpifn/functions.tbl by go generate (cmd/clc-trace); DO NOT EDIT. */\n"

// Generate returns the generated C sources of the PMPI library by file
// name.
func Generate() (map[string][]byte, error) {
	fs := Funcs()
	out := map[string][]byte{}
	out[RegionsFile] = genRegions(fs)
	c, err := genC(fs)
	if err != nil {
		return nil, err
	}
	out[CFile] = c
	f, err := genFortran(fs)
	if err != nil {
		return nil, err
	}
	out[FortranFile] = f
	return out, nil
}

func genRegions(fs []*Func) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("#ifndef CLC_REGIONS_GEN_H\n#define CLC_REGIONS_GEN_H\n\n")
	b.WriteString("/* Function groups (--mpi-groups); bit 1 << G_X in the mask. */\nenum clc_group {")
	for i, g := range Groups() {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " G_%s = %d", strings.ToUpper(g.String()), i)
	}
	b.WriteString(" };\n#define CLC_GROUP_NAMES {")
	for i, g := range Groups() {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", g.String())
	}
	b.WriteString("}\n\n")
	b.WriteString("/* Every recorded MPI function, in the order of the manifest's region\n * table: X(name, group). */\n#define CLC_REGIONS(X)")
	for _, f := range Recorded() {
		guard := ""
		if f.MPI4 {
			guard = " /* MPI-4.0 */"
		}
		fmt.Fprintf(&b, " \\\n  X(%s, G_%s)%s", f.Name, strings.ToUpper(f.Group.String()), guard)
	}
	b.WriteString("\n\n#endif\n")
	return b.Bytes()
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// idents returns the identifiers of C code.
func idents(code ...string) map[string]bool {
	out := map[string]bool{}
	for _, c := range code {
		for _, id := range identRE.FindAllString(c, -1) {
			out[id] = true
		}
	}
	return out
}

// countParam returns the parameter giving the length of request and
// status arrays.
func (f *Func) countParam() string {
	for _, n := range []string{"count", "incount"} {
		if f.param(n) != nil {
			return n
		}
	}
	return ""
}

func args(f *Func) string {
	var a []string
	for _, p := range f.Params {
		a = append(a, p.Name)
	}
	return strings.Join(a, ", ")
}

func cParams(f *Func) string {
	if len(f.Params) == 0 {
		return "void"
	}
	var a []string
	for _, p := range f.Params {
		a = append(a, p.decl())
	}
	return strings.Join(a, ", ")
}

func indent(code string) string {
	if code == "" {
		return ""
	}
	return "  " + code + "\n"
}

func genC(fs []*Func) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("/* The C wrappers: enter, the pre hook, the PMPI call, the post hook, leave\n * (see clc.h and hooks.c). */\n#include \"clc.h\"\n")
	for _, f := range fs {
		if !f.Recorded || f.Special {
			continue
		}
		used := idents(f.Pre, f.Post)
		if f.MPI4 {
			b.WriteString("\n#if MPI_VERSION >= 4")
		}
		fmt.Fprintf(&b, "\nCLC_EXPORT int %s(%s) {\n", f.Name, cParams(f))
		fmt.Fprintf(&b, "  if (!CLC_ON()) return P%s(%s);\n", f.Name, args(f))
		if used["t0"] {
			fmt.Fprintf(&b, "  const int64_t t0 = clc_enter(R_%s);\n", f.Name)
		} else {
			fmt.Fprintf(&b, "  clc_enter(R_%s);\n", f.Name)
		}
		for _, p := range f.Params {
			if p.Base != "MPI_Status" || !used[p.Name] {
				continue
			}
			if p.Array {
				n := f.countParam()
				if n == "" {
					return nil, fmt.Errorf("%s: status array %s without a count parameter", f.Name, p.Name)
				}
				fmt.Fprintf(&b, "  if (%s == MPI_STATUSES_IGNORE) %s = clc_scratch_status(%s);\n", p.Name, p.Name, n)
			} else {
				fmt.Fprintf(&b, "  MPI_Status clc_st_%s;\n  if (%s == MPI_STATUS_IGNORE) %s = &clc_st_%s;\n", p.Name, p.Name, p.Name, p.Name)
			}
		}
		b.WriteString(indent(f.Pre))
		fmt.Fprintf(&b, "  int rc = P%s(%s);\n", f.Name, args(f))
		b.WriteString("  const int64_t t1 = clc_now();\n")
		b.WriteString(indent(f.Post))
		b.WriteString("  clc_leave(t1);\n  return rc;\n}\n")
		if f.MPI4 {
			b.WriteString("#endif\n")
		}
	}
	return b.Bytes(), nil
}

// Fortran wrappers (Open MPI). Open MPI's mpif.h and "use mpi" bindings do
// not call the C functions, so every name they export is defined here: the
// wrapper records, converting the Fortran arguments its hooks use, and
// calls the real Fortran function (found with dlsym(RTLD_NEXT)) with the
// arguments it was given. The "use mpi_f08" bindings of Open MPI call
// ompi_<name>_f or pmpi_<name>_, which are defined too.

// handleF2C names the f2c conversion of each MPI handle type.
var handleF2C = map[string]string{
	"MPI_Comm": "MPI_Comm_f2c", "MPI_Datatype": "MPI_Type_f2c", "MPI_Op": "MPI_Op_f2c",
	"MPI_Info": "MPI_Info_f2c", "MPI_Group": "MPI_Group_f2c", "MPI_Win": "MPI_Win_f2c",
	"MPI_File": "MPI_File_f2c", "MPI_Message": "MPI_Message_f2c", "MPI_Request": "MPI_Request_f2c",
	"MPI_Errhandler": "MPI_Errhandler_f2c",
}

// fortranType is the C type of the Fortran binding's parameter.
func fortranType(p *Param) string {
	switch {
	case p.Base == "void" || (p.Base == "char" && p.Ptr == 1):
		return p.Base + " *"
	case p.Base == "MPI_Aint" || p.Base == "MPI_Offset" || p.Base == "MPI_Count":
		return p.Base + " *"
	case p.Base == "char":
		return "" // char **: not supported
	}
	return "MPI_Fint *"
}

// FortranNames returns the symbols the Fortran wrapper of f defines.
func FortranNames(f *Func) []string {
	l := f.Lower()
	rest := strings.TrimPrefix(l, "mpi_")
	return []string{strings.ToUpper(l), l, l + "_", l + "__", "p" + l + "_", "ompi_" + rest + "_f"}
}

// Fortran returns whether the table's Fortran wrappers cover f.
func (f *Func) Fortran() bool {
	if !f.Recorded || f.MPI4 {
		return false
	}
	for i := range f.Params {
		if fortranType(&f.Params[i]) == "" {
			return false
		}
	}
	return true
}

type fgen struct {
	f                *Func
	used             map[string]bool
	pre, post, extra bytes.Buffer
	call             []string
	lens             []string
	slot             int
}

func genFortran(fs []*Func) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("/* The Fortran wrappers for Open MPI (mpif.h, \"use mpi\", \"use mpi_f08\"); see\n * fortran.c. */\n#include \"clc.h\"\n#include \"fortran.h\"\n")
	for _, f := range fs {
		if !f.Fortran() || f.Special {
			continue
		}
		if err := genFortranFunc(&b, f); err != nil {
			return nil, fmt.Errorf("%s (line %d): %w", f.Name, f.Line, err)
		}
	}
	return b.Bytes(), nil
}

func genFortranFunc(b *bytes.Buffer, f *Func) error {
	g := &fgen{f: f, used: idents(f.Pre, f.Post)}
	// what the hooks use, and what computing it needs
	for _, p := range f.Params {
		if !g.used[p.Name] {
			continue
		}
		if p.Array && (p.Base == "MPI_Request" || p.Base == "MPI_Status") {
			if n := f.countParam(); n != "" {
				g.used[n] = true
			}
		}
		if p.Name == "array_of_indices" {
			g.used["outcount"] = true
		}
		if e, ok := f.Len[p.Name]; ok {
			for id := range idents(e) {
				g.used[id] = true
			}
		}
	}
	var fparams []string
	var hidden []string
	for i := range f.Params {
		p := &f.Params[i]
		ft := fortranType(p)
		fparams = append(fparams, ft+"f_"+p.Name)
		g.call = append(g.call, "f_"+p.Name)
		if p.Base == "char" {
			hidden = append(hidden, "size_t f_"+p.Name+"_len")
			g.lens = append(g.lens, "f_"+p.Name+"_len")
		}
	}
	// scalars first, then arrays (their lengths use scalars)
	for pass := 0; pass < 2; pass++ {
		for i := range f.Params {
			p := &f.Params[i]
			if !g.used[p.Name] || (pass == 0) == (p.Array && p.Base != "MPI_Status") {
				continue
			}
			if err := g.convert(i, p); err != nil {
				return err
			}
		}
	}
	fparams = append(fparams, "MPI_Fint *ierr")
	fparams = append(fparams, hidden...)
	sig := strings.Join(fparams, ", ")
	call := strings.Join(append(append(g.call, "ierr"), g.lens...), ", ")
	origCall := make([]string, 0, len(f.Params)+1+len(g.lens))
	for _, p := range f.Params {
		origCall = append(origCall, "f_"+p.Name)
	}
	origCall = append(append(origCall, "ierr"), g.lens...)
	l := f.Lower()
	rest := strings.TrimPrefix(l, "mpi_")
	fmt.Fprintf(b, "\nCLC_FREAL(%s, (%s))\n", rest, sig)
	fmt.Fprintf(b, "void clc_f_%s(%s) {\n", rest, sig)
	fmt.Fprintf(b, "  CLC_FRESOLVE(%s);\n", rest)
	fmt.Fprintf(b, "  if (!CLC_ON()) { real_%s(%s); return; }\n", rest, strings.Join(origCall, ", "))
	if g.used["t0"] {
		fmt.Fprintf(b, "  const int64_t t0 = clc_enter(R_%s);\n", f.Name)
	} else {
		fmt.Fprintf(b, "  clc_enter(R_%s);\n", f.Name)
	}
	b.Write(g.pre.Bytes())
	b.WriteString(indent(f.Pre))
	fmt.Fprintf(b, "  real_%s(%s);\n", rest, call)
	b.WriteString("  const int64_t t1 = clc_now();\n")
	if g.used["rc"] {
		b.WriteString("  const int rc = (int)*ierr;\n")
	}
	b.Write(g.post.Bytes())
	b.WriteString(indent(f.Post))
	b.WriteString("  clc_leave(t1);\n}\n")
	names := FortranNames(f)
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(b, "CLC_FALIAS(clc_f_%s, %s);\n", rest, n)
	}
	return nil
}

// convert writes the conversion of Fortran parameter p (index i) to a C
// local of its C name.
func (g *fgen) convert(i int, p *Param) error {
	f := g.f
	n := p.Name
	fa := "f_" + n
	inPre := idents(f.Pre)[n]
	inPost := idents(f.Post)[n] || !inPre // used only by Len or count needs: convert before
	switch {
	case p.Base == "void" && p.Ptr == 1:
		fmt.Fprintf(&g.pre, "  %s = clc_fbuf(%s);\n", cDecl(p), fa)
	case p.Base == "char":
		return fmt.Errorf("hooks use the string parameter %s", n)
	case p.Base == "MPI_Status" && !p.Array:
		fmt.Fprintf(&g.pre, "  MPI_Fint clc_fst_%s[CLC_FSTATUS_SIZE];\n  if (clc_fstatus_ignored(%s)) %s = clc_fst_%s;\n", n, fa, fa, n)
		fmt.Fprintf(&g.post, "  MPI_Status %s_v, *%s = &%s_v;\n  MPI_Status_f2c(%s, %s);\n", n, n, n, fa, n)
	case p.Base == "MPI_Status":
		cnt := f.countParam()
		fmt.Fprintf(&g.pre, "  if (clc_fstatuses_ignored(%s)) %s = clc_fstatus_scratch(%s);\n", fa, fa, cnt)
		fmt.Fprintf(&g.post, "  MPI_Status *%s = clc_f2c_statuses(%s, %s);\n", n, fa, cnt)
	case p.Array && p.Base == "int" && n == "array_of_indices":
		fmt.Fprintf(&g.post, "  int *%s = clc_f2c_indices(%s, outcount);\n", n, fa)
	case p.Array && p.Base == "int":
		fmt.Fprintf(&g.pre, "  %s = (%s)%s;\n", cDecl(p), p.Type, fa)
	case p.Array && p.Base == "MPI_Aint":
		fmt.Fprintf(&g.pre, "  %s = %s;\n", cDecl(p), fa)
	case p.Array && p.Base == "MPI_Request":
		cnt := f.countParam()
		if cnt == "" {
			return fmt.Errorf("request array %s without a count parameter", n)
		}
		fmt.Fprintf(&g.pre, "  MPI_Request *%s = clc_f2c_requests(%s, %s);\n", n, fa, cnt)
	case p.Array && p.Base == "MPI_Datatype":
		e, ok := f.Len[n]
		if !ok {
			return fmt.Errorf("datatype array %s without len=", n)
		}
		fmt.Fprintf(&g.pre, "  %s = clc_f2c_types(%s, %s, %d);\n", cDecl(p), fa, e, g.slot)
		g.slot++
	case p.Array:
		return fmt.Errorf("hooks use the array %s of %s, which the generator cannot convert", n, p.Base)
	case p.Ptr == 0:
		if conv, ok := handleF2C[p.Base]; ok {
			fmt.Fprintf(&g.pre, "  const %s %s = %s(*%s);\n", p.Base, n, conv, fa)
		} else {
			fmt.Fprintf(&g.pre, "  const %s %s = (%s)*%s;\n", p.Base, n, p.Base, fa)
		}
	case p.Ptr == 1:
		var conv string
		switch {
		case p.Base == "int" && n == "flag":
			conv = "(*" + fa + " != 0)"
		case p.Base == "int" && n == "index":
			conv = "clc_f2c_index(*" + fa + ")"
		case p.Base == "int":
			conv = "(int)*" + fa
		default:
			c, ok := handleF2C[p.Base]
			if !ok {
				return fmt.Errorf("hooks use %s of type %s *, which the generator cannot convert", n, p.Base)
			}
			conv = c + "(*" + fa + ")"
		}
		fmt.Fprintf(&g.pre, "  %s %s_v, *%s = &%s_v;\n", p.Base, n, n, n)
		if inPre {
			fmt.Fprintf(&g.pre, "  %s_v = %s;\n", n, conv)
		}
		if inPost {
			fmt.Fprintf(&g.post, "  %s_v = %s;\n", n, conv)
		}
	default:
		return fmt.Errorf("hooks use %s of type %s, which the generator cannot convert", n, p.Type)
	}
	return nil
}

// cDecl declares a C local for p: "const int *sendcounts".
func cDecl(p *Param) string {
	return p.Type + " " + p.Name
}
