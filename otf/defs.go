package otf

import (
	"fmt"
	"io"
)

// Definition record types (global and local files share the numbering,
// except 5 and 6, which mean ClockProperties/Paradigm in global files and
// MappingTable/ClockOffset in local ones).
const (
	defClockProperties = 5
	defParadigm        = 6
	defMappingTable    = 5
	defClockOffset     = 6
	defString          = 10
	defAttribute       = 11
	defSystemTreeNode  = 12
	defLocationGroup   = 13
	defLocation        = 14
	defRegion          = 15
	defGroup           = 18
	defComm            = 22
	defInterComm       = 43
)

// Group types (OTF2_GroupType).
const (
	groupLocations     = 1
	groupCommLocations = 4
	groupCommGroup     = 5
	groupCommSelf      = 6
)

const groupFlagGlobalMembers = 1

// Mapping types (OTF2_MappingType) the reader uses.
const (
	mapRegion = 3
	mapComm   = 6
)

// rawRecord is a definition record as it was read: its type and payload.
type rawRecord struct {
	typ     uint8
	payload []byte
	off     int64 // file offset of the record's type byte
	poff    int64 // file offset of the payload
}

type stNode struct {
	id          uint32
	name, class uint32
	parent      uint32
	rec         int
}

type locGroup struct {
	id       uint32
	name     uint32
	typ      uint8
	stParent uint32
	// creator is the creating location group (OTF2 3.0: the process that
	// owns an accelerator's location group), undefined32 if none.
	creator uint32
	rec     int // index of its record in globalDefs.records
}

type locDef struct {
	id        uint64
	name      uint32
	typ       uint8
	numEvents uint64 // as announced: a hint, the event file counts
	group     uint32
	rec       int // index of its record in globalDefs.records
}

type regionDef struct {
	id       uint32
	name     uint32
	role     uint8 // OTF2 1.1; 0 (unknown) in older archives
	paradigm uint8
	rec      int
}

type groupDef struct {
	id       uint32
	name     uint32
	typ      uint8
	paradigm uint8
	flags    uint32
	members  []uint64
}

type commDef struct {
	id    uint32
	name  uint32
	group uint32
	inter bool
	rec   int
}

// globalDefs is what the reader keeps of the global definition file.
type globalDefs struct {
	name    string // file name, for errors
	records []rawRecord
	be      bool // byte order of the file (its first chunk)

	resolution   uint64
	globalOffset uint64
	traceLength  uint64
	clockRec     int // index of the ClockProperties record, -1 if none

	strings   map[uint32]string
	stNodes   []stNode
	locGroups []locGroup
	locations []locDef
	regions   []regionDef
	groups    []groupDef
	comms     []commDef
}

// recErr returns a FormatError about global definition record i, at offset
// at within its payload (-1: the record itself).
func (g *globalDefs) recErr(i, at int, format string, args ...any) error {
	r := &g.records[i]
	off := r.off
	if at >= 0 {
		off = r.poff + int64(at)
	}
	return &FormatError{File: g.name, Offset: off, Err: fmt.Errorf("%w: definition %d (%s): "+format,
		append([]any{ErrFormat, i, recordName(&globalDefNames, r.typ)}, args...)...)}
}

// Pre-1.2 group types (OTF2_GroupTypePre12), written in the withdrawn
// groupTypePre12 field by OTF2 versions before 1.2 (Score-P 1.x).
const (
	groupPre12Locations    = 1
	groupPre12Regions      = 2
	groupPre12Metric       = 3
	groupPre12MPIGroup     = 4
	groupPre12MPICommSelf  = 5
	groupPre12MPILocations = 6
)

// convertPre12 maps a pre-1.2 group type to type and paradigm as the
// reference reader does.
func convertPre12(t uint8) (typ, paradigm uint8) {
	switch t {
	case groupPre12Locations:
		return groupLocations, 0
	case groupPre12Regions, groupPre12Metric:
		return 2, 0 // OTF2_GROUP_TYPE_REGIONS, as the reference maps both
	case groupPre12MPIGroup:
		return groupCommGroup, paradigmMPI
	case groupPre12MPICommSelf:
		return groupCommSelf, paradigmMPI
	case groupPre12MPILocations:
		return groupCommLocations, paradigmMPI
	}
	return 0, 0
}

// readGlobalDefs reads a global definition file. Every record is checked
// against its layout; the records the model needs are decoded. A second
// definition of an id is ignored with a warning (the reference reader keeps
// the first too).
func readGlobalDefs(name string, r io.Reader, chunkSize int, warn *warnings) (*globalDefs, error) {
	g := &globalDefs{name: name, strings: map[uint32]string{}, clockRec: -1}
	s := newScanner(newChunkReader(name, r, chunkSize, nil), false)
	seen := map[[2]uint64]int{} // (type, id) → record of the first definition
	dup := func(i int, t uint8, id uint64) bool {
		k := [2]uint64{uint64(t), id}
		if first, ok := seen[k]; ok {
			warn.add(name, g.records[i].off, "definition %d (%s): id %d defined again (first at definition %d, byte offset %d); the first counts",
				i, recordName(&globalDefNames, t), id, first, g.records[first].off)
			return true
		}
		seen[k] = i
		return false
	}
	type strUse struct {
		rec int
		off int64
		id  uint64
	}
	var strUses []strUse
	var rec record
	for {
		err := s.next(&rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		i := len(g.records)
		if i == 0 {
			g.be = s.c.be
		} else if s.c.be != g.be {
			return nil, s.c.errf(s.c.off+1, "chunk %d changes the byte order", s.c.index)
		}
		payload := append([]byte(nil), rec.payload...)
		g.records = append(g.records, rawRecord{typ: rec.typ, payload: payload, off: rec.off, poff: rec.poff})
		if l := globalDefLayouts[rec.typ]; l != "" {
			use := func(id uint64, at int) { strUses = append(strUses, strUse{i, rec.poff + int64(at), id}) }
			if at, err := checkLayout(l, payload, g.be, use); err != nil {
				return nil, g.recErr(i, at, "%s", detail(err))
			}
		}
		if err := g.decode(i, dup); err != nil {
			return nil, err
		}
	}
	// Every string a definition refers to must be defined: the reference
	// reader warns, or crashes (otf2-print on a system-tree node's).
	for _, u := range strUses {
		if _, ok := g.strings[uint32(u.id)]; !ok && u.id != undefined32 && u.id != undefined64 {
			return nil, g.recErr(u.rec, -1, "its field at byte offset %d refers to string %d, which is not defined", u.off, u.id)
		}
	}
	if g.clockRec < 0 {
		return nil, &FormatError{File: name, Offset: 0, Err: fmt.Errorf("%w: no ClockProperties definition", ErrFormat)}
	}
	if g.resolution == 0 {
		return nil, g.recErr(g.clockRec, -1, "timer resolution 0")
	}
	return g, nil
}

// decode decodes record i (already checked against its layout) if the model
// needs it.
func (g *globalDefs) decode(i int, dup func(int, uint8, uint64) bool) error {
	r := &g.records[i]
	d := dec{b: r.payload, be: g.be}
	switch r.typ {
	case defClockProperties:
		if g.clockRec >= 0 {
			return g.recErr(i, -1, "a second ClockProperties definition (the first is definition %d)", g.clockRec)
		}
		g.clockRec = i
		g.resolution = d.u64c()
		g.globalOffset = d.u64c()
		g.traceLength = d.u64c()
	case defString:
		id := d.u32c()
		str := d.str()
		if !dup(i, r.typ, uint64(id)) {
			g.strings[id] = str
		}
	case defSystemTreeNode:
		n := stNode{id: d.u32c(), name: d.u32c(), class: d.u32c(), parent: d.u32c(), rec: i}
		if !dup(i, r.typ, uint64(n.id)) {
			g.stNodes = append(g.stNodes, n)
		}
	case defLocationGroup:
		lg := locGroup{id: d.u32c(), name: d.u32c(), typ: d.u8(), stParent: d.u32c(), creator: undefined32, rec: i}
		if d.err == nil && d.left() > 0 {
			lg.creator = d.u32c()
		}
		if !dup(i, r.typ, uint64(lg.id)) {
			g.locGroups = append(g.locGroups, lg)
		}
	case defLocation:
		l := locDef{id: d.u64c(), name: d.u32c(), typ: d.u8(), numEvents: d.u64c(), group: d.u32c(), rec: i}
		if !dup(i, r.typ, l.id) {
			g.locations = append(g.locations, l)
		}
	case defRegion:
		rd := parseRegion(&d)
		rd.rec = i
		if !dup(i, r.typ, uint64(rd.id)) {
			g.regions = append(g.regions, rd)
		}
	case defGroup:
		gr := groupDef{id: d.u32c(), name: d.u32c()}
		pre12 := d.u8()
		gr.members = make([]uint64, d.u32c())
		for k := range gr.members {
			gr.members[k] = d.u64c()
		}
		if d.left() > 0 {
			gr.typ = d.u8()
			gr.paradigm = d.u8()
			gr.flags = d.u32c()
		} else {
			gr.typ, gr.paradigm = convertPre12(pre12)
		}
		if !dup(i, r.typ, uint64(gr.id)) {
			g.groups = append(g.groups, gr)
		}
	case defComm, defInterComm:
		c := commDef{id: d.u32c(), name: d.u32c(), group: d.u32c(), rec: i}
		if r.typ == defInterComm {
			c.group, c.inter = undefined32, true
		}
		// Comm and InterComm share one id space.
		if !dup(i, defComm, uint64(c.id)) {
			g.comms = append(g.comms, c)
		}
	}
	if d.err != nil {
		// The layout check passed, so this is an internal inconsistency.
		return g.recErr(i, d.at, "%s", detail(d.err))
	}
	return nil
}

// localDefs is what the reader keeps of one location's local definitions.
type localDefs struct {
	maps    map[uint8]map[uint64]uint64
	offsets []clockOffset
}

type clockOffset struct {
	time   uint64
	offset int64
	stddev float64
	off    int64
}

// parseIDMap decodes an OTF2_IdMap: count, mode (0 dense, 1 sparse), then
// the global ids (dense) or local/global pairs (sparse).
func parseIDMap(d *dec) map[uint64]uint64 {
	n := d.u64c()
	mode := d.u8()
	if d.err != nil {
		return nil
	}
	per := 1
	if mode == 1 {
		per = 2
	} else if mode != 0 {
		d.failf("id map mode %d", mode)
		return nil
	}
	if n > uint64(d.left()/per) {
		d.failf("id map of %d entries cannot fit in %d bytes", n, d.left())
		return nil
	}
	m := make(map[uint64]uint64, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		if mode == 0 {
			m[i] = d.u64c()
		} else {
			l := d.u64c()
			m[l] = d.u64c()
		}
	}
	return m
}

// readLocalDefs reads a location's local definition file.
func readLocalDefs(name string, r io.Reader, chunkSize int, buf *[]byte) (*localDefs, error) {
	ld := &localDefs{}
	cr := newChunkReader(name, r, chunkSize, *buf)
	defer func() { *buf = cr.buf }()
	s := newScanner(cr, false)
	var rec record
	recErr := func(k int, off int64, format string, args ...any) error {
		return &FormatError{File: name, Offset: off, Err: fmt.Errorf("%w: local definition %d (%s): "+format,
			append([]any{ErrFormat, k, recordName(&localDefNames, rec.typ)}, args...)...)}
	}
	for k := 0; ; k++ {
		err := s.next(&rec)
		if err == io.EOF {
			return ld, nil
		}
		if err != nil {
			return nil, err
		}
		if l := localDefLayouts[rec.typ]; l != "" {
			if at, err := checkLayout(l, rec.payload, s.c.be, nil); err != nil {
				return nil, recErr(k, rec.poff+int64(at), "%s", detail(err))
			}
		}
		d := dec{b: rec.payload, be: s.c.be}
		switch rec.typ {
		case defMappingTable:
			t := d.u8()
			m := parseIDMap(&d)
			if d.err == nil {
				if ld.maps == nil {
					ld.maps = map[uint8]map[uint64]uint64{}
				}
				if ld.maps[t] != nil {
					for k, v := range m {
						ld.maps[t][k] = v
					}
				} else {
					ld.maps[t] = m
				}
			}
		case defClockOffset:
			co := clockOffset{time: d.u64full(), offset: d.i64c(), stddev: d.f64(), off: rec.off}
			if d.err == nil {
				if n := len(ld.offsets); n > 0 && co.time <= ld.offsets[n-1].time {
					return nil, recErr(k, rec.off, "clock offset at time %d is not after the previous one at %d", co.time, ld.offsets[n-1].time)
				}
				ld.offsets = append(ld.offsets, co)
			}
		}
		if d.err != nil {
			return nil, recErr(k, rec.poff+int64(d.at), "%s", detail(d.err))
		}
	}
}

// parseRegion decodes the fields of a Region definition the model keeps:
// id, name and, from OTF2 1.1 on, role and paradigm (after description,
// the withdrawn regionType, sourceFile, begin and end line and
// canonicalName).
func parseRegion(d *dec) regionDef {
	r := regionDef{id: d.u32c(), name: d.u32c()}
	if d.err != nil {
		return r
	}
	// The rest on a copy: an OTF2 1.0 region ends after its line numbers,
	// and the reader has always needed only the id and name.
	rest := *d
	rest.u32c() // description
	rest.u8()   // regionType (withdrawn in 1.1, still written)
	rest.u32c() // sourceFile
	rest.u32c() // beginLineNumber
	rest.u32c() // endLineNumber
	if rest.err != nil || rest.left() == 0 {
		return r
	}
	rest.u32c() // canonicalName
	role, paradigm := rest.u8(), rest.u8()
	if rest.err == nil {
		r.role, r.paradigm = role, paradigm
	}
	return r
}
