package otf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clc-tools/clc/internal/infile"
	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/trace"
)

// Archive is an opened OTF2 archive: its anchor and global definitions.
// Event files are read by Read and streamed by Rewrite.
type Archive struct {
	dir    string // directory holding the anchor file
	name   string // archive name: the anchor is <dir>/<name>.otf2
	anchor *Anchor
	defs   *globalDefs
	warn   *warnings
}

// Locate resolves path (an anchor file or a directory holding exactly
// one, preferably traces.otf2) to the anchor's directory and archive name,
// by file names alone: it reads no byte of the archive.
func Locate(path string) (dir, name string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", "", fmt.Errorf("otf2: %w", err)
	}
	if !st.IsDir() {
		if !strings.HasSuffix(path, ".otf2") {
			return "", "", fmt.Errorf("otf2: %s: not an anchor file (the name must end in .otf2)", path)
		}
		return filepath.Dir(path), strings.TrimSuffix(filepath.Base(path), ".otf2"), nil
	}
	if st, err := os.Stat(filepath.Join(path, AnchorName)); err == nil && !st.IsDir() {
		return path, ArchiveName, nil
	}
	m := anchorNames(path)
	switch len(m) {
	case 0:
		return "", "", fmt.Errorf("otf2: %s: no anchor file (*.otf2) in the directory", path)
	case 1:
		return path, strings.TrimSuffix(m[0], ".otf2"), nil
	}
	return "", "", fmt.Errorf("otf2: %s: several anchor files (%d); name one", path, len(m))
}

// anchorNames lists the names ending in .otf2 in the directory dir, except
// directories.
func anchorNames(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var m []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".otf2") && len(e.Name()) > len(".otf2") && !e.IsDir() {
			m = append(m, e.Name())
		}
	}
	return m
}

// HasAnchorFile reports whether path is a file named *.otf2 or a directory
// holding one, whatever its content: Open then says what is wrong with it.
func HasAnchorFile(path string) bool {
	st, err := os.Stat(path)
	if err != nil {
		return false
	}
	if !st.IsDir() {
		return strings.HasSuffix(path, ".otf2")
	}
	return len(anchorNames(path)) > 0
}

// IsArchive reports whether path is an OTF2 anchor file or a directory
// holding one, judged by the anchor's signature.
func IsArchive(path string) bool {
	dir, name, err := Locate(path)
	if err != nil {
		return false
	}
	f, _, err := infile.Open(filepath.Join(dir, name+".otf2"))
	if err != nil {
		return false
	}
	defer f.Close()
	var b [7]byte
	if _, err := f.Read(b[:]); err != nil {
		return false
	}
	return b[0] == recChunkHeader && string(b[2:7]) == string(anchorMagic)
}

// Open opens the archive at path, which is the anchor file (…/traces.otf2)
// or the directory holding it, and reads its anchor and global definitions.
func Open(path string) (*Archive, error) {
	dir, name, err := Locate(path)
	if err != nil {
		return nil, err
	}
	ab, err := readAnchorFile(filepath.Join(dir, name+".otf2"))
	if err != nil {
		return nil, err
	}
	return openDefs(dir, name, ab, func() (io.ReadCloser, error) {
		f, _, err := infile.Open(filepath.Join(dir, name+".def"))
		if err != nil {
			return nil, fmt.Errorf("otf2: global definitions: %w", err)
		}
		return f, nil
	})
}

// MaxAnchorSize bounds the size of an anchor file: it holds a fixed
// header, a few names and the archive's properties (the reference library
// writes a few hundred bytes).
const MaxAnchorSize = 16 << 20

// readAnchorFile reads the anchor file at path, a regular file of at most
// MaxAnchorSize bytes.
func readAnchorFile(path string) ([]byte, error) {
	b, err := infile.ReadFile(path, MaxAnchorSize)
	if err != nil {
		return nil, fmt.Errorf("otf2: anchor: %w", err)
	}
	return b, nil
}

// openDefs is Open of the archive name in dir whose anchor file holds ab
// and whose global definition file opens with defFile.
func openDefs(dir, name string, ab []byte, defFile func() (io.ReadCloser, error)) (*Archive, error) {
	an, err := parseAnchor(name+".otf2", ab)
	if err != nil {
		return nil, err
	}
	f, err := defFile()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	warn := &warnings{}
	defs, err := readGlobalDefs(name+".def", f, int(an.DefChunkSize), warn)
	if err != nil {
		return nil, err
	}
	// The reference reader refuses a wrong count of global definitions but
	// reads past a wrong count of locations.
	if uint64(len(defs.records)) != an.NumGlobalDefs {
		return nil, &FormatError{File: name + ".otf2", Offset: anchorNumGlobalDefsOff, Err: fmt.Errorf("%w: the anchor announces %d global definitions, %s.def holds %d", ErrFormat, an.NumGlobalDefs, name, len(defs.records))}
	}
	if uint64(len(defs.locations)) != an.NumLocations {
		warn.add(name+".otf2", anchorNumLocationsOff, "the anchor announces %d locations, %s.def defines %d", an.NumLocations, name, len(defs.locations))
	}
	return &Archive{dir: dir, name: name, anchor: an, defs: defs, warn: warn}, nil
}

// Warnings returns what the reader found wrong but read past (see Warning),
// from Open and from every Read so far, ordered by file and offset.
func (a *Archive) Warnings() []Warning { return a.warn.sorted() }

// Anchor returns a copy of the archive's anchor.
func (a *Archive) Anchor() Anchor {
	c := *a.anchor
	c.Properties = append([]Property(nil), a.anchor.Properties...)
	return c
}

// Dir returns the directory holding the anchor file; Name the archive name
// (the anchor is Dir()/Name().otf2).
func (a *Archive) Dir() string { return a.dir }

// Name returns the archive name.
func (a *Archive) Name() string { return a.name }

// NumEvents returns the total of the Location definitions' event counts, as
// the definitions announce them: a hint (the event files count; Read reads
// every event of a file whatever its definition announces).
func (a *Archive) NumEvents() int64 {
	var n int64
	for _, l := range a.defs.locations {
		n += int64(l.numEvents)
	}
	return n
}

// EventBound returns at most how many events a read of the archive holds
// in memory, before any event is read: each location's announced count,
// capped by its event file's size (every event takes two bytes at least;
// the reader reads a file to its end, as the reference reader does, and
// sizes its columns by the same bound).
func (a *Archive) EventBound() int64 {
	var n int64
	for _, e := range a.locationBounds() {
		n += e
	}
	return n
}

// locationBounds returns EventBound's bound of each location.
func (a *Archive) locationBounds() []int64 {
	out := make([]int64, len(a.defs.locations))
	for li, l := range a.defs.locations {
		st, err := os.Stat(filepath.Join(a.dir, filepath.FromSlash(a.evtName(l.id))))
		if err != nil {
			continue // a missing file holds no event
		}
		out[li] = int64(min(l.numEvents, uint64(st.Size())/2))
	}
	return out
}

// NumLocations returns the number of locations the global definitions
// define.
func (a *Archive) NumLocations() int { return len(a.defs.locations) }

// DefinitionBytes returns the size of the archive's global definition
// file.
func (a *Archive) DefinitionBytes() int64 {
	st, err := os.Stat(filepath.Join(a.dir, a.name+".def"))
	if err != nil {
		return 0
	}
	return st.Size()
}

// Declared returns what the archive declares before any event is read:
// at most how many events a read holds (EventBound), the locations, and
// the bytes its global definitions take in memory (DefinitionMemory).
func (a *Archive) Declared() (trace.Declared, error) {
	per := a.locationBounds()
	var n int64
	for _, e := range per {
		n += e
	}
	return trace.Declared{Events: n, Locations: a.NumLocations(), LocationEvents: per, HeldBytes: DefinitionMemory(a.DefinitionBytes())}, nil
}

// DefinitionMemory returns the bytes that global definitions of size
// bytes take in memory: Open reads them whole, at about twice their size
// (the file and what it decodes to). It saturates at the largest int64.
func DefinitionMemory(size int64) int64 {
	if size > math.MaxInt64/2 {
		return math.MaxInt64
	}
	return 2 * size
}

// Close does nothing: an Archive keeps no file open between its reads,
// and can be read again. It makes an Archive a trace.Source.
func (a *Archive) Close() error { return nil }

// ReadOptions control an Archive's reads (trace.ReadOptions, the options
// of every trace.Source). The zero value (or nil) is fine.
type ReadOptions = trace.ReadOptions

func (a *Archive) evtName(id uint64) string {
	return a.name + "/" + strconv.FormatUint(id, 10) + ".evt"
}

func (a *Archive) defName(id uint64) string {
	return a.name + "/" + strconv.FormatUint(id, 10) + ".def"
}

// maxSelfComms bounds the model communicators made for COMM_SELF
// communicators (one per location each), so that a corrupt definition file
// cannot make the reader allocate without end.
const maxSelfComms = 1 << 24

// model is the trace model's definitions built from the global definitions,
// with the id translations the event decoder needs.
type model struct {
	t       *trace.Trace
	regions *idIndex
	comms   *idIndex
	// selfComms lists global ids of COMM_SELF communicators; each has one
	// model communicator per location, starting at selfBase[i].
	selfComms []uint32
	selfBase  []uint32
}

// strOf returns string id, referred to by global definition record rec.
func (a *Archive) strOf(id uint32, rec int, what string) (string, error) {
	if id == undefined32 {
		return "", nil
	}
	s, ok := a.defs.strings[id]
	if !ok {
		return "", a.defs.recErr(rec, -1, "%s refers to string %d, which is not defined", what, id)
	}
	return s, nil
}

// CLCProperties maps the anchor properties of clc's archives to the
// properties of the native manifest: the writer writes the native names
// under these (an empty value as "none": OTF2 cannot hold one), and Read
// sets both.
var CLCProperties = map[string]string{
	"CLC::CLOCK_DOMAIN":   trace.PropClockDomain,
	"CLC::INCOMPLETE":     trace.PropIncomplete,
	"CLC::TRUNCATED":      trace.PropTruncated,
	"CLC::UNRECORDED_MPI": trace.PropUnrecordedMPI,
	"CLC::MPI_GROUPS":     trace.PropMPIGroups,
	"CLC::POLLS":          trace.PropPolls,
}

func (a *Archive) buildModel() (*model, error) {
	g := a.defs
	t := &trace.Trace{Resolution: g.resolution, Properties: map[string]string{}}
	for _, p := range a.anchor.Properties {
		t.Properties[p.Name] = p.Value
		// clc-trace's anchor properties also under the native manifest's
		// names, so that clc's tools read one property for both formats
		if n, ok := CLCProperties[p.Name]; ok {
			v := p.Value
			if v == "none" { // OTF2 cannot hold an empty value
				v = ""
			}
			t.Properties[n] = v
		}
	}
	if a.anchor.Creator != "" {
		t.Properties["otf2.creator"] = a.anchor.Creator
	}
	m := &model{t: t, regions: &idIndex{}, comms: &idIndex{}}
	locIdx, err := a.buildLocations(t)
	if err != nil {
		return nil, err
	}
	for i, r := range g.regions {
		name, err := a.strOf(r.name, r.rec, fmt.Sprintf("region %d", r.id))
		if err != nil {
			return nil, err
		}
		m.regions.set(uint64(r.id), uint32(i))
		t.Regions = append(t.Regions, trace.Region{Name: name, Role: trace.RegionRole(r.role), Paradigm: trace.Paradigm(r.paradigm)})
	}
	if err := a.buildComms(m, locIdx); err != nil {
		return nil, err
	}
	return m, nil
}

// buildLocations adds the locations and their nodes (the system-tree
// parents of their location groups) to t and returns the index of each
// location id.
func (a *Archive) buildLocations(t *trace.Trace) (map[uint64]int32, error) {
	g := a.defs
	lgs := map[uint32]*locGroup{}
	for i := range g.locGroups {
		lgs[g.locGroups[i].id] = &g.locGroups[i]
	}
	stns := map[uint32]*stNode{}
	for i := range g.stNodes {
		stns[g.stNodes[i].id] = &g.stNodes[i]
	}
	nodeOf := map[uint32]int32{}
	procOf := map[uint32]int32{} // owning location group id → process
	locIdx := map[uint64]int32{}
	for i, ld := range g.locations {
		locIdx[ld.id] = int32(i)
		name, err := a.strOf(ld.name, ld.rec, fmt.Sprintf("location %d", ld.id))
		if err != nil {
			return nil, err
		}
		stn := uint32(undefined32)
		var owner *locGroup
		if ld.group != undefined32 {
			lg, ok := lgs[ld.group]
			if !ok {
				return nil, g.recErr(ld.rec, -1, "location %d refers to location group %d, which is not defined", ld.id, ld.group)
			}
			if owner, err = owningGroup(g, lgs, lg); err != nil {
				return nil, err
			}
			stn = owner.stParent
		}
		ni, ok := nodeOf[stn]
		if !ok {
			nodeName := "unknown"
			if n, ok := stns[stn]; ok {
				if nodeName, err = a.strOf(n.name, n.rec, fmt.Sprintf("system tree node %d", n.id)); err != nil {
					return nil, err
				}
			} else if stn != undefined32 {
				return nil, g.recErr(ld.rec, -1, "location %d: its location group's system-tree parent %d is not defined", ld.id, stn)
			}
			ni = int32(len(t.Nodes))
			nodeOf[stn] = ni
			t.Nodes = append(t.Nodes, trace.Node{Name: nodeName})
		}
		// The process: the owning location group, or (no group) one of
		// the location's own.
		pi, ok := int32(-1), false
		if owner != nil {
			pi, ok = procOf[owner.id]
		}
		if !ok {
			pname := name
			if owner != nil {
				if pname, err = a.strOf(owner.name, owner.rec, fmt.Sprintf("location group %d", owner.id)); err != nil {
					return nil, err
				}
				procOf[owner.id] = int32(len(t.Processes))
			}
			pi = int32(len(t.Processes))
			t.Processes = append(t.Processes, trace.Process{Name: pname})
		}
		kind := trace.LocationKind(ld.typ)
		if kind > trace.LocationMetric {
			kind = trace.LocationUnknown
		}
		t.Locations = append(t.Locations, &trace.Location{ID: ld.id, Name: name, Node: ni, Process: pi, Kind: kind})
	}
	return locIdx, nil
}

// buildComms adds the communicators to the model: their members as location
// indices, one copy per location of each COMM_SELF communicator.
func (a *Archive) buildComms(m *model, locIdx map[uint64]int32) error {
	g, t := a.defs, m.t
	groups := map[uint32]*groupDef{}
	commLocs := map[uint8]*groupDef{} // COMM_LOCATIONS group by paradigm
	for i := range g.groups {
		gr := &g.groups[i]
		groups[gr.id] = gr
		if gr.typ == groupCommLocations && commLocs[gr.paradigm] == nil {
			commLocs[gr.paradigm] = gr // the first, as for every duplicate
		}
	}
	for _, c := range g.comms {
		defErr := func(format string, args ...any) error {
			return g.recErr(c.rec, -1, "communicator %d: "+format, append([]any{c.id}, args...)...)
		}
		toLocs := func(ids []uint64) ([]int32, error) {
			out := make([]int32, len(ids))
			for i, id := range ids {
				li, ok := locIdx[id]
				if !ok {
					return nil, defErr("member %d is location %d, which is not defined", i, id)
				}
				out[i] = li
			}
			return out, nil
		}
		name, err := a.strOf(c.name, c.rec, fmt.Sprintf("communicator %d", c.id))
		if err != nil {
			return err
		}
		var members []int32
		var paradigm trace.Paradigm
		if !c.inter && c.group != undefined32 {
			gr, ok := groups[c.group]
			if !ok {
				return defErr("refers to group %d, which is not defined", c.group)
			}
			paradigm = trace.Paradigm(gr.paradigm)
			switch {
			case gr.typ == groupCommSelf:
				if (len(m.selfComms)+1)*len(t.Locations) > maxSelfComms {
					return defErr("more than %d per-location copies of COMM_SELF communicators", maxSelfComms)
				}
				m.selfComms = append(m.selfComms, c.id)
				m.selfBase = append(m.selfBase, uint32(len(t.Comms)))
				for li := range t.Locations {
					t.Comms = append(t.Comms, trace.Comm{Name: name, Paradigm: paradigm, Members: []int32{int32(li)}})
				}
				continue
			case gr.typ == groupCommLocations || gr.typ == groupLocations || gr.flags&groupFlagGlobalMembers != 0:
				if members, err = toLocs(gr.members); err != nil {
					return err
				}
			case gr.typ == groupCommGroup:
				parent := commLocs[gr.paradigm]
				if parent == nil {
					return defErr("group %d lists ranks, but no COMM_LOCATIONS group of paradigm %d is defined", gr.id, gr.paradigm)
				}
				ids := make([]uint64, len(gr.members))
				for i, r := range gr.members {
					if r >= uint64(len(parent.members)) {
						return defErr("group %d: rank %d outside the %d locations of group %d", gr.id, r, len(parent.members), parent.id)
					}
					ids[i] = parent.members[r]
				}
				if members, err = toLocs(ids); err != nil {
					return err
				}
			}
		}
		m.comms.set(uint64(c.id), uint32(len(t.Comms)))
		t.Comms = append(t.Comms, trace.Comm{Name: name, Paradigm: paradigm, Members: members})
	}
	return nil
}

// Read reads the whole archive into the trace model. Events keep their raw
// (un-synchronised) times; each location's ClockOffset definitions become
// its Offsets. Event i of a location is the i-th event record of its file.
// The trace carries the archive's definition files (Carried, loaded only
// when a writer asks for them). It stops at the next location when ctx is
// cancelled.
func (a *Archive) Read(ctx context.Context, opt *ReadOptions) (*trace.Trace, error) {
	t, _, err := a.read(ctx, opt, nil)
	return t, err
}

// ReadSelected reads the archive as Read does, but keeps of each location
// only the events keep accepts, as a selection (trace.Events.Index), and
// every event's raw time in a column of its own: what a correction needs
// (replay.Needs makes keep from the definitions), in a fraction of the
// memory. Opaque records and attribute lists are checked, not kept; a
// rewrite copies them from the archive. It stops at the next location
// when ctx is cancelled.
func (a *Archive) ReadSelected(ctx context.Context, opt *ReadOptions, needs func(defs *trace.Trace) func(trace.Kind, uint32) bool) (*trace.Trace, [][]int64, error) {
	return a.read(ctx, opt, needs)
}

func (a *Archive) read(ctx context.Context, opt *ReadOptions, needs func(defs *trace.Trace) func(trace.Kind, uint32) bool) (*trace.Trace, [][]int64, error) {
	m, err := a.buildModel()
	if err != nil {
		return nil, nil, err
	}
	t := m.t
	var keep func(trace.Kind, uint32) bool
	var times [][]int64
	if needs != nil {
		keep = needs(t)
		times = make([][]int64, len(t.Locations))
	}
	own, err := opt.Chosen(t)
	if err != nil {
		return nil, nil, err
	}
	type bufs struct{ evt, def []byte }
	err = par.DoEachWith(ctx, len(t.Locations), opt.Workers(), func() *bufs { return &bufs{} }, func(b *bufs, li int) error {
		if own != nil && !own[li] {
			return nil
		}
		var all *[]int64
		if keep != nil {
			all = &times[li]
		}
		if err := a.readLocation(ctx, m, li, &b.evt, &b.def, keep, all); err != nil {
			return err
		}
		if opt != nil && opt.Done != nil {
			return opt.Done(t, li)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	t.Carried = a.Carried()
	return t, times, nil
}

// CopyTo streams every location's events into sink, event i of location
// li with the time times[li][i] (a column as long as the location's
// events, as RewriteTimes takes) or with its own when times is nil: a
// conversion to another format (a native trace's native.DirWriter, say) in
// the memory of one location per goroutine, not of the whole trace. The
// sink's definitions must be a read of this archive (Read or ReadSelected:
// the same regions and communicators); the locations' clock offsets are
// not read again. It runs opt.Parallel locations at a time, the locations
// of each range of a trace.RangedSink one after another, in order; it does
// not close sink, and stops at the next location when ctx is cancelled.
func (a *Archive) CopyTo(ctx context.Context, sink trace.Sink, times [][]int64, opt *ReadOptions) error {
	m, err := a.buildModel()
	if err != nil {
		return err
	}
	n := len(m.t.Locations)
	if times != nil && len(times) != n {
		return fmt.Errorf("otf2 copy: %d time columns for the %d locations of %s", len(times), n, a.name)
	}
	b, err := trace.AppendRanges(sink, n)
	if err != nil {
		return err
	}
	type scratch struct {
		ev       trace.Events
		evt, def []byte
	}
	return par.DoEachWith(ctx, len(b)-1, opt.Workers(), func() *scratch { return &scratch{} }, func(sc *scratch, k int) error {
		for li := b[k]; li < b[k+1]; li++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			sc.ev.Reset()
			if err := a.readLocationInto(ctx, m, li, &sc.ev, nil, &sc.evt, &sc.def, nil, nil); err != nil {
				return err
			}
			if times != nil {
				if len(times[li]) != sc.ev.Len() {
					return fmt.Errorf("otf2 copy: location %d of %s has %d events, %d times given", li, a.name, sc.ev.Len(), len(times[li]))
				}
				copy(sc.ev.Time, times[li])
			}
			if err := sink.Append(li, &sc.ev); err != nil {
				return err
			}
		}
		return nil
	})
}

// openLocal opens a file of the archive; a missing file gives (nil, nil).
func (a *Archive) openLocal(name string) (*os.File, error) {
	f, _, err := infile.Open(filepath.Join(a.dir, filepath.FromSlash(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("otf2: %w", err)
	}
	return f, nil
}

func (a *Archive) readLocalDefs(id uint64, buf *[]byte) (*localDefs, error) {
	f, err := a.openLocal(a.defName(id))
	if err != nil || f == nil {
		return &localDefs{}, err
	}
	defer f.Close()
	return readLocalDefs(a.defName(id), f, int(a.anchor.DefChunkSize), buf)
}

// readLocation reads location li's local definitions and events into
// the model; with keep the events become a selection and every time goes
// to all.
func (a *Archive) readLocation(ctx context.Context, m *model, li int, evbuf, defbuf *[]byte, keep func(trace.Kind, uint32) bool, all *[]int64) error {
	loc := m.t.Locations[li]
	return a.readLocationInto(ctx, m, li, &loc.Events, &loc.Offsets, evbuf, defbuf, keep, all)
}

// readLocationInto is readLocation into ev and offsets (nil: the clock
// offsets are not kept).
func (a *Archive) readLocationInto(ctx context.Context, m *model, li int, ev *trace.Events, offsets *[]trace.ClockOffset, evbuf, defbuf *[]byte, keep func(trace.Kind, uint32) bool, all *[]int64) error {
	ld := a.defs.locations[li]
	lds, err := a.readLocalDefs(ld.id, defbuf)
	if err != nil {
		return err
	}
	if offsets != nil {
		for _, co := range lds.offsets {
			*offsets = append(*offsets, trace.ClockOffset{Time: int64(co.time), Offset: co.offset, StdDev: co.stddev})
		}
	}
	regions := m.regions
	if tab := lds.maps[mapRegion]; tab != nil {
		regions = compose(tab, m.regions)
	}
	comms := m.comms
	if tab := lds.maps[mapComm]; tab != nil || len(m.selfComms) > 0 {
		global := m.comms
		if len(m.selfComms) > 0 {
			global = &idIndex{}
			m.comms.each(func(id uint64, idx uint32) { global.set(id, idx) })
			for i, id := range m.selfComms {
				global.set(uint64(id), m.selfBase[i]+uint32(li))
			}
		}
		comms = global
		if tab != nil {
			comms = compose(tab, global)
		}
	}
	name := a.evtName(ld.id)
	f, err := a.openLocal(name)
	if err != nil {
		return err
	}
	if f == nil {
		if ld.numEvents == 0 {
			return nil
		}
		return &FormatError{File: name, Offset: 0, Err: fmt.Errorf("%w: event file missing (location %d announces %d events)", ErrFormat, ld.id, ld.numEvents)}
	}
	defer f.Close()
	// The announced count is a hint: the reference reader reads to the end
	// of the file. Every event takes at least 2 bytes on disk, so the file
	// size caps what is allocated up front.
	expect := ld.numEvents
	if st, err := f.Stat(); err == nil && expect > uint64(st.Size())/2 {
		expect = uint64(st.Size()) / 2
	}
	cs := int(a.anchor.EventChunkSize)
	if keep == nil {
		ev.Grow(int(expect))
	} else {
		*all = make([]int64, 0, expect)
	}
	cr := newChunkReader(name, f, cs, *evbuf)
	cr.ctx = ctx
	defer func() { *evbuf = cr.buf }()
	x := eventDecoder{
		s:       newScanner(cr, true),
		ev:      ev,
		expect:  int(expect),
		regions: regions,
		comms:   comms,
		keep:    keep,
		all:     all,
	}
	if err := x.run(); err != nil {
		return err
	}
	n := uint64(ev.Len())
	if all != nil {
		n = uint64(len(*all))
	}
	if n != ld.numEvents {
		a.warn.add(a.name+".def", a.defs.records[ld.rec].off, "location %d announces %d events, %s holds %d (read to its end, as the reference reader does)", ld.id, ld.numEvents, name, n)
	}
	return nil
}

// owningGroup returns the location group that owns lg's locations as a
// process: lg itself, or for a group that is not a process (an
// accelerator's, OTF2 3.0) the process group that created it.
func owningGroup(g *globalDefs, lgs map[uint32]*locGroup, lg *locGroup) (*locGroup, error) {
	for range len(lgs) + 1 {
		if lg.typ == locGroupTypeProcess || lg.creator == undefined32 {
			return lg, nil
		}
		c, ok := lgs[lg.creator]
		if !ok {
			return nil, g.recErr(lg.rec, -1, "location group %d: its creating location group %d is not defined", lg.id, lg.creator)
		}
		lg = c
	}
	return nil, g.recErr(lg.rec, -1, "location group %d: its creating location groups form a cycle", lg.id)
}

// Files returns the files the archive is made of, relative to its
// directory and slash-separated: the anchor, the global definitions, and
// of every location its event file and its local definition file (either
// may be missing, as the reference reader allows).
func (a *Archive) Files() []string {
	names := []string{a.name + ".otf2", a.name + ".def"}
	for _, l := range a.defs.locations {
		names = append(names, a.evtName(l.id), a.defName(l.id))
	}
	return names
}

// HasChunkHeader reports whether the file at path begins as the event and
// definition files of an archive do: a chunk header record with a byte
// order mark.
func HasChunkHeader(path string) bool {
	f, _, err := infile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [2]byte
	_, err = io.ReadFull(f, b[:])
	return err == nil && b[0] == recChunkHeader && (b[1] == markLittle || b[1] == markBig)
}

// An Archive is a trace.Source.
var _ trace.Source = (*Archive)(nil)
