package otf

import (
	"fmt"
	"strings"
)

// Substrates and compressions an anchor file may declare.
const (
	SubstratePOSIX = 1
	SubstrateSION  = 2
	SubstrateNone  = 3

	CompressionNone = 1
	CompressionZlib = 2
)

// Chunk sizes the reference library accepts.
const (
	MinChunkSize = 256 << 10
	MaxChunkSize = 16 << 20
)

// Anchor is the content of an archive's anchor file (traces.otf2).
type Anchor struct {
	// BigEndian is the byte order the anchor was written in.
	BigEndian bool
	// AnchorFormat and TraceFormat are the format revision bytes.
	AnchorFormat uint8
	TraceFormat  uint8
	// Version is the OTF2 version (major, minor, bugfix) of the writer.
	Version [3]uint8
	// EventChunkSize and DefChunkSize are the chunk sizes of event and
	// definition files in bytes.
	EventChunkSize uint64
	DefChunkSize   uint64
	Substrate      uint8
	Compression    uint8
	// NumLocations is the number of locations; NumGlobalDefs the number of
	// records in the global definition file.
	NumLocations  uint64
	NumGlobalDefs uint64
	Machine       string
	Creator       string
	Description   string
	// Properties are the archive's name/value properties, in file order.
	Properties    []Property
	TraceID       uint64
	NumSnapshots  uint32
	NumThumbnails uint32
}

// Property is one name/value pair of an anchor file.
type Property struct {
	Name, Value string
}

var anchorMagic = []byte("OTF2\x00")

// Byte offsets of fixed anchor fields.
const (
	anchorFormatOff        = 7
	anchorTraceFormatOff   = 8
	anchorEventChunkOff    = 12
	anchorDefChunkOff      = 20
	anchorSubstrateOff     = 28
	anchorCompressionOff   = 29
	anchorNumLocationsOff  = 30
	anchorNumGlobalDefsOff = 38
)

// Anchor formats: 1 has no properties, 2 adds properties and the trace id,
// 3 (what OTF2 2.x and 3.x write) the snapshot and thumbnail counts and an
// END_OF_FILE check. The reference reader reads later formats as 3.
const (
	anchorFormatProperties = 2
	anchorFormatCurrent    = 3
	// maxTraceFormat is the newest trace format the reference reader
	// (OTF2 3.x) accepts.
	maxTraceFormat = 2
)

// validPropertyChar reports whether c may appear in a component of a
// property name (the reference library's rule).
func validPropertyChar(c byte) bool {
	return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// checkPropertyName checks the NAMESPACE::NAME form of a property name:
// at least two non-empty components of [A-Za-z0-9_] separated by "::".
func checkPropertyName(name string) error {
	parts := strings.Split(name, "::")
	if len(parts) < 2 {
		return fmt.Errorf("property name %q has no namespace (NAMESPACE::NAME)", name)
	}
	for _, p := range parts {
		if p == "" {
			return fmt.Errorf("property name %q has an empty component", name)
		}
		for i := 0; i < len(p); i++ {
			if !validPropertyChar(p[i]) {
				return fmt.Errorf("property name %q contains %q (only A-Z, a-z, 0-9 and _ are allowed)", name, p[i])
			}
		}
	}
	return nil
}

// parseAnchor decodes an anchor file and checks it as the reference reader
// does; name is used in errors.
func parseAnchor(name string, b []byte) (*Anchor, error) {
	bad := func(off int, format string, args ...any) error {
		return &FormatError{File: name, Offset: int64(off), Err: fmt.Errorf("%w: anchor file is corrupt: "+format, append([]any{ErrFormat}, args...)...)}
	}
	if len(b) < 2+len(anchorMagic) || b[0] != recChunkHeader || string(b[2:2+len(anchorMagic)]) != string(anchorMagic) {
		return nil, bad(0, "no \"03 xx OTF2\" signature (not an OTF2 anchor file)")
	}
	a := &Anchor{}
	switch b[1] {
	case markLittle:
	case markBig:
		a.BigEndian = true
	default:
		return nil, bad(1, "unknown byte-order mark 0x%02x", b[1])
	}
	d := dec{b: b, p: 2 + len(anchorMagic), be: a.BigEndian}
	a.AnchorFormat = d.u8()
	if d.err == nil && a.AnchorFormat == 0 {
		return nil, bad(anchorFormatOff, "anchor format 0")
	}
	a.TraceFormat = d.u8()
	a.Version[0], a.Version[1], a.Version[2] = d.u8(), d.u8(), d.u8()
	a.EventChunkSize = d.u64full()
	a.DefChunkSize = d.u64full()
	a.Substrate = d.u8()
	a.Compression = d.u8()
	a.NumLocations = d.u64full()
	a.NumGlobalDefs = d.u64full()
	a.Machine = d.str()
	a.Creator = d.str()
	a.Description = d.str()
	if d.err != nil {
		return nil, bad(d.at, "%s", detail(d.err))
	}
	if err := a.checkFixed(bad); err != nil {
		return nil, err
	}
	if a.AnchorFormat >= anchorFormatProperties {
		if err := a.parseProperties(&d, bad); err != nil {
			return nil, err
		}
		a.TraceID = d.u64full()
	}
	if a.AnchorFormat >= anchorFormatCurrent {
		a.NumSnapshots = d.u32full()
		a.NumThumbnails = d.u32full()
	}
	if d.err != nil {
		return nil, bad(d.at, "%s", detail(d.err))
	}
	if a.AnchorFormat == anchorFormatCurrent {
		if at := d.p; d.u8() != recEndOfFile {
			return nil, bad(at, "no END_OF_FILE after the last field")
		}
	}
	return a, nil
}

// checkFixed checks the fixed-size fields as the reference reader does.
func (a *Anchor) checkFixed(bad func(int, string, ...any) error) error {
	if a.TraceFormat > maxTraceFormat {
		return bad(anchorTraceFormatOff, "trace format %d, newer than the %d this reader (and OTF2 3.x) knows", a.TraceFormat, maxTraceFormat)
	}
	for _, cs := range []struct {
		what string
		off  int
		v    uint64
	}{{"event", anchorEventChunkOff, a.EventChunkSize}, {"definition", anchorDefChunkOff, a.DefChunkSize}} {
		if cs.v < MinChunkSize || cs.v > MaxChunkSize {
			return bad(cs.off, "%s chunk size %d out of range (%d to %d)", cs.what, cs.v, MinChunkSize, MaxChunkSize)
		}
	}
	switch a.Substrate {
	case SubstratePOSIX, SubstrateNone:
	case SubstrateSION:
		return bad(anchorSubstrateOff, "the archive uses the SION substrate, which this reader does not support; record with the POSIX substrate (Score-P: SCOREP_TRACING_USE_SION=false)")
	default:
		return bad(anchorSubstrateOff, "unknown file substrate %d", a.Substrate)
	}
	if a.Compression != CompressionNone {
		return bad(anchorCompressionOff, "the archive is compressed (compression %d), which this reader does not support (OTF2 3.x cannot write compressed archives either)", a.Compression)
	}
	return nil
}

// parseProperties reads the property count and the name/value pairs.
func (a *Anchor) parseProperties(d *dec, bad func(int, string, ...any) error) error {
	at := d.p
	np := d.u32full()
	if d.err == nil && uint64(np) > uint64(d.left()/2) {
		return bad(at, "%d properties cannot fit in %d bytes", np, d.left())
	}
	seen := map[string]bool{}
	for i := uint32(0); i < np && d.err == nil; i++ {
		at := d.p
		k := d.str()
		v := d.str()
		if d.err != nil {
			break
		}
		if err := checkPropertyName(k); err != nil {
			return bad(at, "property %d: %v", i, err)
		}
		// The reference reader upper-cases names; a name twice is an error,
		// unless the later value is empty (which removes the property).
		if up := strings.ToUpper(k); seen[up] && v != "" {
			return bad(at, "property %d: %s is set twice", i, k)
		} else {
			seen[up] = true
		}
		a.Properties = append(a.Properties, Property{k, v})
	}
	return nil
}

// encode returns the anchor file's bytes: the fields of its anchor format.
func (a *Anchor) encode() []byte {
	e := enc{be: a.BigEndian}
	e.u8(recChunkHeader)
	if a.BigEndian {
		e.u8(markBig)
	} else {
		e.u8(markLittle)
	}
	e.b = append(e.b, anchorMagic...)
	e.u8(a.AnchorFormat)
	e.u8(a.TraceFormat)
	e.u8(a.Version[0])
	e.u8(a.Version[1])
	e.u8(a.Version[2])
	e.u64full(a.EventChunkSize)
	e.u64full(a.DefChunkSize)
	e.u8(a.Substrate)
	e.u8(a.Compression)
	e.u64full(a.NumLocations)
	e.u64full(a.NumGlobalDefs)
	e.str(a.Machine)
	e.str(a.Creator)
	e.str(a.Description)
	if a.AnchorFormat >= anchorFormatProperties {
		e.u32full(uint32(len(a.Properties)))
		for _, p := range a.Properties {
			e.str(p.Name)
			e.str(p.Value)
		}
		e.u64full(a.TraceID)
	}
	if a.AnchorFormat >= anchorFormatCurrent {
		e.u32full(a.NumSnapshots)
		e.u32full(a.NumThumbnails)
	}
	e.u8(recEndOfFile)
	e.u8(recEndOfBuffer)
	e.u8(0)
	return e.b
}
