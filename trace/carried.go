package trace

// Carried is data of a trace's source format that the model does not
// interpret: for OTF2, the anchor file and the global and local definition
// files as the source archive holds them (attributes, metrics, calling
// contexts, mapping tables … and the definitions the model does
// interpret, with the source's ids). A writer of that format uses it to
// write the trace back without loss; writers of other formats that can
// hold it (the native format, version 4) carry it along unchanged. The
// events of the model refer to the model's definitions as always; only a
// writer of the source format translates them back.
//
// A reader may load the data lazily: Parts reads it on first use, so a
// trace that is only corrected never pays for it. The data must not be
// changed by the caller.
type Carried interface {
	// Format is the source format (FormatOTF2).
	Format() uint8
	// Parts returns the carried parts, loading them if needed. Errors
	// name the file and the place of the damage.
	Parts() ([]Part, error)
}

// Part is one piece of carried data: for OTF2 a whole file of the source
// archive.
type Part struct {
	// Location is the index of the location the part belongs to (OTF2: its
	// local definitions), or -1 for a part of the whole trace (OTF2: the
	// anchor and the global definitions).
	Location int
	// Name says what the part is, in the source format's terms (OTF2:
	// "anchor" or "definitions").
	Name string
	Data []byte
	// Source says where the part was read from (a file, and a place in
	// it), for error messages about its content.
	Source string
}

// CarriedParts is a Carried held in memory.
type CarriedParts struct {
	Fmt  uint8
	List []Part
}

// Format returns c.Fmt.
func (c *CarriedParts) Format() uint8 { return c.Fmt }

// Parts returns c.List.
func (c *CarriedParts) Parts() ([]Part, error) { return c.List, nil }
