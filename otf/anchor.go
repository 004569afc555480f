package otf

import (
	"fmt"
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

// parseAnchor decodes an anchor file; name is used in errors.
func parseAnchor(name string, b []byte) (*Anchor, error) {
	bad := func(off int, format string, args ...any) error {
		return &FormatError{File: name, Offset: int64(off), Err: fmt.Errorf("%w: anchor: "+format, append([]any{ErrFormat}, args...)...)}
	}
	if len(b) < 2+len(anchorMagic) || b[0] != recChunkHeader || string(b[2:2+len(anchorMagic)]) != string(anchorMagic) {
		return nil, bad(0, "not an OTF2 anchor file (no \"03 xx OTF2\" signature)")
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
	np := d.u32full()
	if d.err == nil && uint64(np) > uint64(d.left()/2) {
		return nil, bad(d.p-4, "%d properties cannot fit in %d bytes", np, d.left())
	}
	for i := uint32(0); i < np && d.err == nil; i++ {
		k := d.str()
		v := d.str()
		a.Properties = append(a.Properties, Property{k, v})
	}
	a.TraceID = d.u64full()
	a.NumSnapshots = d.u32full()
	a.NumThumbnails = d.u32full()
	if d.err != nil {
		return nil, bad(d.at, "%v", d.err)
	}
	switch a.Substrate {
	case SubstratePOSIX, SubstrateNone:
	case SubstrateSION:
		return nil, bad(0x1c, "the archive uses the SION substrate, which this reader does not support; record with the POSIX substrate (Score-P: SCOREP_TRACING_USE_SION=false)")
	default:
		return nil, bad(0x1c, "unknown file substrate %d", a.Substrate)
	}
	if a.Compression != CompressionNone {
		return nil, bad(0x1d, "the archive is compressed (compression %d), which this reader does not support (OTF2 3.x cannot write compressed archives either)", a.Compression)
	}
	for _, cs := range []struct {
		what string
		v    uint64
	}{{"event", a.EventChunkSize}, {"definition", a.DefChunkSize}} {
		if cs.v < chunkHeaderLen+16 || cs.v > 1<<30 {
			return nil, bad(12, "%s chunk size %d out of range", cs.what, cs.v)
		}
	}
	return a, nil
}

// encode returns the anchor file's bytes.
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
	e.u32full(uint32(len(a.Properties)))
	for _, p := range a.Properties {
		e.str(p.Name)
		e.str(p.Value)
	}
	e.u64full(a.TraceID)
	e.u32full(a.NumSnapshots)
	e.u32full(a.NumThumbnails)
	e.u8(recEndOfFile)
	e.u8(recEndOfBuffer)
	e.u8(0)
	return e.b
}
