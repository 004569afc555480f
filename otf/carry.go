package otf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/clc-tools/clc/internal/infile"
	"github.com/clc-tools/clc/trace"
)

// This file carries an archive's definitions through the trace model
// (trace.Carried): Archive.Carried gives them to a trace read from the
// archive, and Create, given a trace that carries them, writes them back
// with the events in the source's ids (docs/format.md, version 4;
// docs/otf2.md, "Round trips through the native format").

// Part names of the OTF2 data a trace carries (trace.Part.Name).
const (
	// PartAnchor is the anchor file, a part of the whole trace.
	PartAnchor = "anchor"
	// PartDefinitions is the global definition file (a part of the whole
	// trace) or a location's local definition file (a part of the
	// location).
	PartDefinitions = "definitions"
)

// Carried returns the archive's definition files as data a trace carries:
// the anchor file, the global definition file and every location's local
// definition file (location i is the i-th Location definition, as in
// Read), byte for byte. They are read from the archive's directory when
// first asked for, and must then still be what Open read.
func (a *Archive) Carried() trace.Carried { return &archiveCarried{a: a} }

// archiveCarried is an archive's trace.Carried.
type archiveCarried struct {
	a     *Archive
	once  sync.Once
	parts []trace.Part
	err   error
}

func (c *archiveCarried) Format() uint8 { return trace.FormatOTF2 }

func (c *archiveCarried) Parts() ([]trace.Part, error) {
	c.once.Do(c.load)
	return c.parts, c.err
}

func (c *archiveCarried) load() {
	a := c.a
	read := func(name string) ([]byte, string, error) {
		path := filepath.Join(a.dir, filepath.FromSlash(name))
		b, err := infile.ReadFile(path, math.MaxInt64)
		return b, path, err
	}
	ab, apath, err := read(a.name + ".otf2")
	if err != nil {
		c.err = fmt.Errorf("otf2: carried definitions: %w", err)
		return
	}
	db, dpath, err := read(a.name + ".def")
	if err != nil {
		c.err = fmt.Errorf("otf2: carried definitions: %w", err)
		return
	}
	again, err := openDefs(a.dir, a.name, ab, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(db)), nil })
	if err != nil || !sameArchive(a, again) {
		c.err = fmt.Errorf("otf2: %s: the anchor or global definitions changed since the archive was opened", a.dir)
		return
	}
	parts := []trace.Part{
		{Location: -1, Name: PartAnchor, Data: ab, Source: apath},
		{Location: -1, Name: PartDefinitions, Data: db, Source: dpath},
	}
	for li, ld := range a.defs.locations {
		b, path, err := read(a.defName(ld.id))
		if errors.Is(err, fs.ErrNotExist) {
			continue // tolerated, as by the reference reader
		}
		if err != nil {
			c.err = fmt.Errorf("otf2: carried definitions: %w", err)
			return
		}
		parts = append(parts, trace.Part{Location: li, Name: PartDefinitions, Data: b, Source: path})
	}
	c.parts = parts
}

// sameArchive reports whether two openings of an archive read the same
// anchor and global definition records.
func sameArchive(a, b *Archive) bool {
	if !reflect.DeepEqual(a.anchor, b.anchor) || a.defs.be != b.defs.be || len(a.defs.records) != len(b.defs.records) {
		return false
	}
	for i, r := range a.defs.records {
		o := b.defs.records[i]
		if r.typ != o.typ || !bytes.Equal(r.payload, o.payload) {
			return false
		}
	}
	return true
}

// carried is the OTF2 data a trace carries, parsed for Create: the source's
// anchor and global definitions, each location's local definitions, and the
// translations of the model's region and communicator indices back to the
// source's ids.
type carried struct {
	a        *Archive // in memory: no directory
	regionID []uint32 // model region → its global id
	commID   []uint32 // model communicator → its global id
	// selfOf is, for a model communicator that is a location's copy of a
	// COMM_SELF communicator, that location; -1 for the others.
	selfOf []int32
	locals []localCarried
}

// localCarried is one location's carried local definitions.
type localCarried struct {
	data   []byte // the local definition file; nil if the source had none
	source string
	// tab are the mapping tables (local → global id) by mapping type; inv
	// their inverses for regions and communicators (global → the smallest
	// local id that maps to it).
	tab        map[uint8]map[uint64]uint64
	regionsInv *idIndex
	commsInv   *idIndex
}

// loadCarried parses the OTF2 data t carries and checks it against t's
// definitions: the model it defines must be t's (same locations, nodes,
// processes, regions and communicators), or the events could not be
// written in its ids.
func loadCarried(t *trace.Trace) (*carried, error) {
	parts, err := t.Carried.Parts()
	if err != nil {
		return nil, err
	}
	var anchor, defs *trace.Part
	c := &carried{locals: make([]localCarried, len(t.Locations))}
	seen := make([]bool, len(t.Locations))
	for i := range parts {
		p := &parts[i]
		switch {
		case p.Location == -1 && p.Name == PartAnchor && anchor == nil:
			anchor = p
		case p.Location == -1 && p.Name == PartDefinitions && defs == nil:
			defs = p
		case p.Location >= 0 && p.Location < len(t.Locations) && p.Name == PartDefinitions && !seen[p.Location]:
			seen[p.Location] = true
			c.locals[p.Location] = localCarried{data: p.Data, source: p.Source}
		default:
			return nil, fmt.Errorf("otf2: carried OTF2 data (%s): unexpected part %q of location %d (the trace has %d locations)", p.Source, p.Name, p.Location, len(t.Locations))
		}
	}
	if anchor == nil || defs == nil {
		return nil, fmt.Errorf("otf2: carried OTF2 data without an anchor or global definitions")
	}
	a, err := parseCarried(t.Carried, anchor, defs)
	if err != nil {
		return nil, err
	}
	c.a = a
	m, err := a.buildModel()
	if err != nil {
		return nil, fmt.Errorf("otf2: carried OTF2 data from %s: %w", defs.Source, err)
	}
	if err := sameModel(m.t, t); err != nil {
		return nil, fmt.Errorf("otf2: the trace does not match the OTF2 definitions it carries (from %s): %w (was it changed after it was read from OTF2?)", defs.Source, err)
	}
	c.regionID = make([]uint32, len(m.t.Regions))
	m.regions.each(func(id uint64, idx uint32) { c.regionID[idx] = uint32(id) })
	c.commID = make([]uint32, len(m.t.Comms))
	c.selfOf = make([]int32, len(m.t.Comms))
	for i := range c.selfOf {
		c.selfOf[i] = -1
	}
	m.comms.each(func(id uint64, idx uint32) { c.commID[idx] = uint32(id) })
	for k, id := range m.selfComms {
		for li := range t.Locations {
			c.commID[m.selfBase[k]+uint32(li)] = id
			c.selfOf[m.selfBase[k]+uint32(li)] = int32(li)
		}
	}
	var buf []byte
	for li := range c.locals {
		lc := &c.locals[li]
		if lc.data == nil {
			continue
		}
		name := a.defName(a.defs.locations[li].id)
		ld, err := readLocalDefs(name, bytes.NewReader(lc.data), int(a.anchor.DefChunkSize), &buf)
		if err != nil {
			return nil, fmt.Errorf("otf2: carried OTF2 data from %s: %w", lc.source, err)
		}
		lc.tab = ld.maps
		lc.regionsInv = inverse(ld.maps[mapRegion])
		lc.commsInv = inverse(ld.maps[mapComm])
	}
	return c, nil
}

// parseCarried parses the carried anchor and global definitions into an
// archive in memory (no directory, named ArchiveName). Those an open archive
// carries (Archive.Carried) are the ones it was opened from, as its load
// made sure: its parse is reused.
func parseCarried(tc trace.Carried, anchor, defs *trace.Part) (*Archive, error) {
	if ac, ok := tc.(*archiveCarried); ok {
		g := *ac.a.defs
		g.name = ArchiveName + ".def"
		return &Archive{name: ArchiveName, anchor: ac.a.anchor, defs: &g, warn: &warnings{}}, nil
	}
	a, err := openDefs("", ArchiveName, anchor.Data, func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(defs.Data)), nil })
	if err != nil {
		src := defs.Source
		var fe *FormatError
		if errors.As(err, &fe) && fe.File == AnchorName {
			// The anchor's own fields, or its counts against the
			// global definitions.
			src = anchor.Source + " (with the global definitions from " + defs.Source + ")"
		}
		return nil, fmt.Errorf("otf2: carried OTF2 data from %s: %w", src, err)
	}
	return a, nil
}

// inverse returns the global → local index of a mapping table (the
// smallest local id where several map to one global id), nil for none.
func inverse(tab map[uint64]uint64) *idIndex {
	if tab == nil {
		return nil
	}
	inv := &idIndex{}
	for l, g := range tab {
		if l > undefined32 {
			continue // not a 32-bit reference
		}
		if old, ok := inv.get(g); !ok || uint32(l) < old {
			inv.set(g, uint32(l))
		}
	}
	return inv
}

// localID returns the local id under which location li's events refer to
// global id g of mapping type typ (OTF2's default: the global id itself,
// unless the table remaps that local id).
func (c *carried) localID(li int, typ uint8, inv *idIndex, g uint32) (uint32, bool) {
	if inv != nil {
		if l, ok := inv.get(uint64(g)); ok {
			return l, true
		}
	}
	if _, remapped := c.locals[li].tab[typ][uint64(g)]; remapped {
		return 0, false
	}
	return g, true
}

// region returns the id location li's events use for model region r.
func (c *carried) region(li int, r uint32) (uint32, error) {
	if int(r) >= len(c.regionID) {
		return 0, fmt.Errorf("otf2: region %d out of range [0,%d)", r, len(c.regionID))
	}
	g := c.regionID[r]
	l, ok := c.localID(li, mapRegion, c.locals[li].regionsInv, g)
	if !ok {
		return 0, fmt.Errorf("otf2: region %d (global id %d) has no local id in location %d's mapping table", r, g, li)
	}
	return l, nil
}

// comm returns the id location li's events use for model communicator ci.
func (c *carried) comm(li int, ci uint32) (uint32, error) {
	if int(ci) >= len(c.commID) {
		return 0, fmt.Errorf("otf2: communicator %d out of range [0,%d)", ci, len(c.commID))
	}
	g := c.commID[ci]
	if o := c.selfOf[ci]; o >= 0 && int(o) != li {
		return 0, fmt.Errorf("otf2: communicator %d is location %d's copy of COMM_SELF communicator %d, not this location's", ci, o, g)
	}
	l, ok := c.localID(li, mapComm, c.locals[li].commsInv, g)
	if !ok {
		return 0, fmt.Errorf("otf2: communicator %d (global id %d) has no local id in location %d's mapping table", ci, g, li)
	}
	return l, nil
}

// sameModel returns an error naming the first difference between the
// definitions of the model built from carried definitions (got) and those
// of the trace that carries them (want): resolution, nodes, processes,
// locations, regions and communicators. Names are compared as the native
// format stores them (every byte of invalid UTF-8 as U+FFFD).
func sameModel(got, want *trace.Trace) error {
	diff := func(what string, g, w any) error {
		return fmt.Errorf("%s is %v in the trace, %v in the carried definitions", what, w, g)
	}
	name := func(what, g, w string) error {
		if validUTF8(g) != validUTF8(w) {
			return diff(what, fmt.Sprintf("%q", g), fmt.Sprintf("%q", w))
		}
		return nil
	}
	if got.Resolution != want.Resolution {
		return diff("the timer resolution", got.Resolution, want.Resolution)
	}
	for _, n := range []struct {
		what      string
		got, want int
	}{{"nodes", len(got.Nodes), len(want.Nodes)}, {"processes", len(got.Processes), len(want.Processes)},
		{"locations", len(got.Locations), len(want.Locations)}, {"regions", len(got.Regions), len(want.Regions)},
		{"communicators", len(got.Comms), len(want.Comms)}} {
		if n.got != n.want {
			return diff("the number of "+n.what, n.got, n.want)
		}
	}
	for i := range got.Nodes {
		if err := name(fmt.Sprintf("node %d's name", i), got.Nodes[i].Name, want.Nodes[i].Name); err != nil {
			return err
		}
	}
	for i := range got.Processes {
		if err := name(fmt.Sprintf("process %d's name", i), got.Processes[i].Name, want.Processes[i].Name); err != nil {
			return err
		}
	}
	for i, g := range got.Locations {
		w := want.Locations[i]
		if w == nil {
			return fmt.Errorf("location %d is nil", i)
		}
		if g.ID != w.ID || g.Node != w.Node || g.Kind != w.Kind || (len(got.Processes) > 0 && g.Process != w.Process) {
			return diff(fmt.Sprintf("location %d", i), fmt.Sprintf("id %d, node %d, process %d, kind %s", g.ID, g.Node, g.Process, g.Kind),
				fmt.Sprintf("id %d, node %d, process %d, kind %s", w.ID, w.Node, w.Process, w.Kind))
		}
		if err := name(fmt.Sprintf("location %d's name", i), g.Name, w.Name); err != nil {
			return err
		}
	}
	for i, g := range got.Regions {
		w := want.Regions[i]
		if g.Role != w.Role || g.Paradigm != w.Paradigm {
			return diff(fmt.Sprintf("region %d's role and paradigm", i), fmt.Sprint(g.Role, g.Paradigm), fmt.Sprint(w.Role, w.Paradigm))
		}
		if err := name(fmt.Sprintf("region %d's name", i), g.Name, w.Name); err != nil {
			return err
		}
	}
	for i, g := range got.Comms {
		w := want.Comms[i]
		if g.Paradigm != w.Paradigm || !reflect.DeepEqual(nilIfEmpty(g.Members), nilIfEmpty(w.Members)) {
			return diff(fmt.Sprintf("communicator %d", i), fmt.Sprintf("paradigm %d, members %v", g.Paradigm, g.Members),
				fmt.Sprintf("paradigm %d, members %v", w.Paradigm, w.Members))
		}
		if err := name(fmt.Sprintf("communicator %d's name", i), g.Name, w.Name); err != nil {
			return err
		}
	}
	return nil
}

func nilIfEmpty(s []int32) []int32 {
	if len(s) == 0 {
		return nil
	}
	return s
}

// validUTF8 replaces every byte of s that is not part of valid UTF-8 with
// U+FFFD, as encoding/json writes strings.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// writeLocalDefs writes location li's local definition file as the source
// had it, record by record in its byte order, with its ClockOffset records
// replaced by offsets (the location's Offsets, written where the first
// ClockOffset record was, else at the end: empty after pre-synchronisation,
// which folds them into the times).
func (c *carried) writeLocalDefs(f io.Writer, name string, li int, offsets []trace.ClockOffset) error {
	cs := int(c.a.anchor.DefChunkSize)
	be := c.a.anchor.BigEndian
	var cw *chunkWriter
	done := false
	if lc := &c.locals[li]; lc.data != nil {
		s := newScanner(newChunkReader(name, bytes.NewReader(lc.data), cs, nil), false)
		var rec record
		for {
			err := s.next(&rec)
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("otf2: carried OTF2 data from %s: %w", lc.source, err) // checked by loadCarried
			}
			if cw == nil {
				be = s.c.be
				cw = newChunkWriter(name, f, cs, be, false, nil)
			} else if s.c.be != be {
				return fmt.Errorf("otf2: carried OTF2 data from %s: %w", lc.source, s.c.errf(s.c.off+1, "chunk %d changes the byte order", s.c.index))
			}
			if rec.typ == defClockOffset {
				if !done {
					if err := putOffsets(cw, li, offsets); err != nil {
						return err
					}
					done = true
				}
				continue
			}
			if err := cw.def(rec.typ, rec.payload); err != nil {
				return err
			}
		}
	}
	if cw == nil {
		cw = newChunkWriter(name, f, cs, be, false, nil)
	}
	if !done {
		if err := putOffsets(cw, li, offsets); err != nil {
			return err
		}
	}
	return cw.close()
}

// writeCarriedDefs writes the global definitions and the anchor of an
// archive with carried definitions, as Rewrite writes them: every record as
// the source had it, but ClockProperties (the time range written, all) and
// the Location event counts (as written).
func (w *Writer) writeCarriedDefs(all timeRange) error {
	a := w.carry.a
	counts := make([]uint64, len(w.locs))
	for li, lw := range w.locs {
		counts[li] = lw.cw.numEvents()
	}
	if err := a.rewriteGlobalDefs(w.tmp, all, counts); err != nil {
		return err
	}
	an := a.Anchor()
	an.NumSnapshots, an.NumThumbnails = 0, 0 // not carried: their times would be stale
	an.NumLocations = uint64(len(w.locs))
	if err := os.WriteFile(filepath.Join(w.tmp, AnchorName), an.encode(), 0o666); err != nil {
		return fmt.Errorf("otf2: %w", err)
	}
	return nil
}
