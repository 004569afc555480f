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
	off     int64
}

type stNode struct {
	id          uint32
	name, class uint32
	parent      uint32
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
	numEvents uint64
	group     uint32
	rec       int // index of its record in globalDefs.records
}

type regionDef struct {
	id       uint32
	name     uint32
	role     uint8 // OTF2 1.1; 0 (unknown) in older archives
	paradigm uint8
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
}

// globalDefs is what the reader keeps of the global definition file.
type globalDefs struct {
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

// readGlobalDefs reads and decodes a global definition file.
func readGlobalDefs(name string, r io.Reader, chunkSize int) (*globalDefs, error) {
	g := &globalDefs{strings: map[uint32]string{}, clockRec: -1}
	s := newScanner(newChunkReader(name, r, chunkSize, nil), false)
	var rec record
	for {
		err := s.next(&rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(g.records) == 0 {
			g.be = s.c.be
		} else if s.c.be != g.be {
			return nil, s.errAt(&rec, nil, fmt.Errorf("%w: chunk %d changes the byte order", ErrFormat, s.c.index))
		}
		payload := append([]byte(nil), rec.payload...)
		g.records = append(g.records, rawRecord{typ: rec.typ, payload: payload, off: rec.off})
		d := dec{b: payload, be: s.c.be}
		switch rec.typ {
		case defClockProperties:
			if g.clockRec >= 0 {
				return nil, s.errAt(&rec, nil, fmt.Errorf("%w: a second ClockProperties definition", ErrFormat))
			}
			g.clockRec = len(g.records) - 1
			g.resolution = d.u64c()
			g.globalOffset = d.u64c()
			g.traceLength = d.u64c()
		case defString:
			id := d.u32c()
			str := d.str()
			if d.err == nil {
				if _, dup := g.strings[id]; dup {
					return nil, s.errAt(&rec, nil, fmt.Errorf("%w: string %d defined twice", ErrFormat, id))
				}
				g.strings[id] = str
			}
		case defSystemTreeNode:
			n := stNode{id: d.u32c(), name: d.u32c(), class: d.u32c(), parent: d.u32c()}
			g.stNodes = append(g.stNodes, n)
		case defLocationGroup:
			lg := locGroup{id: d.u32c(), name: d.u32c(), typ: d.u8(), stParent: d.u32c(), creator: undefined32, rec: len(g.records) - 1}
			if d.err == nil && d.left() > 0 {
				lg.creator = d.u32c()
			}
			g.locGroups = append(g.locGroups, lg)
		case defLocation:
			l := locDef{id: d.u64c(), name: d.u32c(), typ: d.u8(), numEvents: d.u64c(), group: d.u32c(), rec: len(g.records) - 1}
			g.locations = append(g.locations, l)
		case defRegion:
			g.regions = append(g.regions, parseRegion(&d))
		case defGroup:
			gr := groupDef{id: d.u32c(), name: d.u32c()}
			d.u8() // groupTypePre12
			n := d.u32c()
			if d.err == nil && uint64(n) > uint64(d.left()) {
				d.failf("group with %d members cannot fit in %d bytes", n, d.left())
			}
			if d.err == nil {
				gr.members = make([]uint64, n)
				for i := range gr.members {
					gr.members[i] = d.u64c()
				}
			}
			if d.left() > 0 {
				gr.typ = d.u8()
				gr.paradigm = d.u8()
				gr.flags = d.u32c()
			}
			g.groups = append(g.groups, gr)
		case defComm:
			g.comms = append(g.comms, commDef{id: d.u32c(), name: d.u32c(), group: d.u32c()})
		case defInterComm:
			g.comms = append(g.comms, commDef{id: d.u32c(), name: d.u32c(), group: undefined32, inter: true})
		}
		if d.err != nil {
			return nil, s.errAt(&rec, &d, d.err)
		}
	}
	if g.clockRec < 0 {
		return nil, &FormatError{File: name, Offset: 0, Err: fmt.Errorf("%w: no ClockProperties definition", ErrFormat)}
	}
	if g.resolution == 0 {
		return nil, &FormatError{File: name, Offset: g.records[g.clockRec].off, Err: fmt.Errorf("%w: timer resolution 0", ErrFormat)}
	}
	return g, nil
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
	for {
		err := s.next(&rec)
		if err == io.EOF {
			return ld, nil
		}
		if err != nil {
			return nil, err
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
					return nil, s.errAt(&rec, nil, fmt.Errorf("%w: clock offset at time %d is not after the previous one at %d", ErrFormat, co.time, ld.offsets[n-1].time))
				}
				ld.offsets = append(ld.offsets, co)
			}
		}
		if d.err != nil {
			return nil, s.errAt(&rec, &d, d.err)
		}
	}
}
