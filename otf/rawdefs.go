package otf

// DefRecord is one record of an archive's global definition file as it is
// on disk. Read maps some record types onto the trace model (see
// Interpreted); GlobalDefinitions gives every record, so that a caller who
// converts the archive into another format can carry the others through
// (metrics, attributes, calling contexts, parameters, system-tree
// properties, Cartesian topologies, paradigm properties, records of later
// OTF2 versions …) and write them back.
type DefRecord struct {
	// Type is the OTF2 global definition record type id
	// (the specification's record list; 5 is ClockProperties, 6 Paradigm, …).
	Type uint8
	// Name is the record type's name in the OTF2 specification, or ""
	// for a type this reader does not know (a later OTF2 version's).
	Name string
	// Payload holds the record's fields (after its type and length), in
	// little-endian order when LittleEndian is set; otherwise in the
	// archive's byte order (only for a big-endian archive's records of
	// unknown types, or with fields added by a later OTF2 version, which
	// cannot be swapped without knowing them).
	Payload      []byte
	LittleEndian bool
	// Offset is the byte offset of the record in the global definition
	// file; Index its position among the file's records.
	Offset int64
	Index  int
	// Interpreted tells whether Read maps the record onto the model:
	// ClockProperties (Resolution), String, SystemTreeNode, LocationGroup,
	// Location, Region, Group, Comm and InterComm.
	Interpreted bool
}

// interpretedDefs are the global definition types Read maps onto the model.
var interpretedDefs = [256]bool{
	defClockProperties: true, defString: true, defSystemTreeNode: true, defLocationGroup: true,
	defLocation: true, defRegion: true, defGroup: true, defComm: true, defInterComm: true,
}

// GlobalDefinitions returns every record of the global definition file, in
// file order, each with its type id and payload (see DefRecord). The
// payloads are copies.
func (a *Archive) GlobalDefinitions() []DefRecord {
	g := a.defs
	out := make([]DefRecord, len(g.records))
	for i, r := range g.records {
		d := DefRecord{Type: r.typ, Name: globalDefNames[r.typ], Offset: r.off, Index: i, Interpreted: interpretedDefs[r.typ]}
		d.Payload = append([]byte(nil), r.payload...)
		d.LittleEndian = !g.be
		if g.be {
			if p, ok := swapLayout(globalDefLayouts[r.typ], r.payload, false); ok {
				d.Payload, d.LittleEndian = p, true
			}
		}
		out[i] = d
	}
	return out
}

// swapLayout returns a copy of payload with the byte order of every field
// of layout l reversed (outBE: the byte order of the result). ok is false
// if the layout is unknown or the payload does not end with its last field.
func swapLayout(l string, payload []byte, outBE bool) ([]byte, bool) {
	if l == "" {
		return payload, false
	}
	out := append([]byte(nil), payload...)
	w := layoutWalker{b: out, be: !outBE, swap: true}
	w.walk(l, 0)
	if w.err != nil || w.p != len(out) {
		return payload, false
	}
	return out, true
}
