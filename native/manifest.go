package native

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clc-tools/clc/internal/infile"
	"github.com/clc-tools/clc/trace"
)

// This file reads and writes the manifest clc.json (docs/format.md,
// "Manifest").

type jsonManifest struct {
	Format          string            `json:"format"`
	Version         *int64            `json:"version"`
	Complete        *bool             `json:"complete"`
	TimerResolution *uint64           `json:"timer_resolution"`
	Properties      map[string]string `json:"properties,omitempty"`
	Nodes           []jsonNamed       `json:"nodes"`
	Processes       []jsonNamed       `json:"processes,omitempty"`
	Regions         []jsonRegion      `json:"regions"`
	Communicators   []jsonComm        `json:"communicators"`
	Carried         *jsonCarried      `json:"carried,omitempty"`
	Locations       []jsonLocation    `json:"locations"`
}

type jsonNamed struct {
	Name string `json:"name"`
}

// jsonRegion is a region; role and paradigm (version 3) use OTF2's
// numbering and are left out when 0.
type jsonRegion struct {
	Name     string `json:"name"`
	Role     uint8  `json:"role,omitempty"`
	Paradigm uint8  `json:"paradigm,omitempty"`
}

type jsonComm struct {
	Name     string  `json:"name"`
	Paradigm uint8   `json:"paradigm,omitempty"`
	Members  []int32 `json:"members"`
}

type jsonLocation struct {
	ID      *uint64       `json:"id"`
	Name    string        `json:"name"`
	Node    *int32        `json:"node"`
	Process *int32        `json:"process,omitempty"`
	Kind    string        `json:"kind,omitempty"`
	Events  *uint64       `json:"events,omitempty"`
	Offsets []jsonOffset  `json:"offsets,omitempty"`
	Extents *[]jsonExtent `json:"extents,omitempty"`
}

// jsonExtent is a byte range of a bundle file holding part of a location's
// stream (docs/format.md, "Bundles").
type jsonExtent struct {
	File   string  `json:"file"`
	Offset *uint64 `json:"offset"`
	Length *uint64 `json:"length"`
}

// extent is a checked jsonExtent: file is an index into manifest.files.
type extent struct {
	file     int32
	off, len int64
}

type jsonOffset struct {
	Time   int64   `json:"time"`
	Offset int64   `json:"offset"`
	RTT    int64   `json:"rtt"`
	StdDev float64 `json:"stddev"`
}

// encodeManifest renders the manifest of defs with the given per-location
// event counts (nil: none, for an incomplete trace). If exts is not nil,
// every location is bundled: exts[i] are the extents of location i in the
// files named by files (relative to the trace directory). carried
// describes the carried data written (nil: none). The version is the
// lowest that holds the trace: 4 with carried data, 3 when threaded
// (defs.Threaded(), or thread records in the streams), else 2 with
// bundles, else 1.
func encodeManifest(defs *trace.Trace, counts []uint64, complete bool, files []string, exts [][]extent, threaded bool, carried *jsonCarried) ([]byte, error) {
	version := int64(nativeVersion1)
	switch {
	case carried != nil:
		version = NativeVersion
	case threaded || defs.Threaded():
		version = nativeVersion3
	case exts != nil:
		version = nativeVersion2
	}
	res := defs.Resolution
	m := jsonManifest{
		Format:          NativeFormat,
		Version:         &version,
		Complete:        &complete,
		TimerResolution: &res,
		Properties:      defs.Properties,
		Nodes:           make([]jsonNamed, len(defs.Nodes)),
		Regions:         make([]jsonRegion, len(defs.Regions)),
		Communicators:   make([]jsonComm, len(defs.Comms)),
		Carried:         carried,
		Locations:       make([]jsonLocation, len(defs.Locations)),
	}
	for i, n := range defs.Nodes {
		m.Nodes[i].Name = n.Name
	}
	if len(defs.Processes) > 0 {
		m.Processes = make([]jsonNamed, len(defs.Processes))
		for i, p := range defs.Processes {
			m.Processes[i].Name = p.Name
		}
	}
	for i, r := range defs.Regions {
		m.Regions[i] = jsonRegion{Name: r.Name, Role: uint8(r.Role), Paradigm: uint8(r.Paradigm)}
	}
	for i, c := range defs.Comms {
		m.Communicators[i] = jsonComm{Name: c.Name, Paradigm: uint8(c.Paradigm), Members: c.Members}
		if c.Members == nil {
			m.Communicators[i].Members = []int32{}
		}
	}
	for i, l := range defs.Locations {
		node := l.Node
		id := l.ID
		jl := jsonLocation{ID: &id, Name: l.Name, Node: &node}
		if len(defs.Processes) > 0 {
			p := l.Process
			jl.Process = &p
		}
		if l.Kind != trace.LocationUnknown {
			jl.Kind = l.Kind.String()
		}
		if counts != nil {
			jl.Events = &counts[i]
		}
		if exts != nil {
			je := make([]jsonExtent, len(exts[i]))
			for k, e := range exts[i] {
				off, n := uint64(e.off), uint64(e.len)
				je[k] = jsonExtent{File: files[e.file], Offset: &off, Length: &n}
			}
			jl.Extents = &je
		}
		if len(l.Offsets) > 0 {
			jl.Offsets = make([]jsonOffset, len(l.Offsets))
			for k, o := range l.Offsets {
				if math.IsNaN(o.StdDev) || math.IsInf(o.StdDev, 0) {
					return nil, fmt.Errorf("location %d: clock offset %d: stddev %v is not a finite number", i, k, o.StdDev)
				}
				jl.Offsets[k] = jsonOffset(o)
			}
		}
		m.Locations[i] = jl
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&m); err != nil {
		return nil, fmt.Errorf("encoding manifest: %w", err)
	}
	return b.Bytes(), nil
}

// manifest is a decoded and checked clc.json.
type manifest struct {
	defs     *trace.Trace
	version  int
	counts   []int64 // per location, -1 where "events" is absent
	complete bool
	// files are the distinct file names (relative to the trace directory,
	// slash-separated) that extents refer to.
	files []string
	// extents are the extents of each location, nil for a location whose
	// stream is events/<i>.clce (non-nil and empty: an empty stream).
	extents [][]extent
	// carried describes the trace's carried data (CarriedName), nil if
	// none.
	carried *carriedInfo
}

// readManifest reads and checks dir/clc.json: syntax, format and version,
// required fields, and the definitions' internal references (Validate).
// A large manifest's locations are decoded on np goroutines.
func readManifest(dir string, np int) (*manifest, error) {
	path := filepath.Join(dir, ManifestName)
	bad := func(off int64, format string, args ...any) error {
		return formatErr(path, off, -1, -1, -1, format, args...)
	}
	data, err := infile.ReadFile(path, maxManifestBytes)
	switch {
	case errors.Is(err, infile.ErrTooLarge):
		return nil, bad(maxManifestBytes, "manifest larger than %d bytes", maxManifestBytes)
	case err != nil:
		return nil, fmt.Errorf("native trace %s: %w", dir, err)
	}
	return parseManifest(path, data, np)
}

// parseManifest decodes and checks the manifest data read from path (a
// large one's locations on np goroutines).
func parseManifest(path string, data []byte, np int) (*manifest, error) {
	bad := func(off int64, format string, args ...any) error {
		return formatErr(path, off, -1, -1, -1, format, args...)
	}
	var m jsonManifest
	if err := decodeManifest(data, &m, np, parallelManifestBytes); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off := se.Offset // bytes read when the error was found
			if strings.HasPrefix(se.Error(), "invalid character") && off > 0 {
				off-- // the offending character
			}
			return nil, bad(off, "invalid JSON: %v", err)
		case errors.As(err, &te):
			return nil, bad(te.Offset, "invalid manifest: %v", err)
		}
		return nil, bad(-1, "invalid manifest: %v", err)
	}
	if m.Format != NativeFormat {
		return nil, bad(-1, "format is %q, want %q", m.Format, NativeFormat)
	}
	if m.Version == nil {
		return nil, bad(-1, "no version")
	}
	if *m.Version < nativeVersion1 || *m.Version > NativeVersion {
		return nil, bad(-1, "version %d, this reader reads versions %d to %d", *m.Version, nativeVersion1, NativeVersion)
	}
	version := int(*m.Version)
	if version < nativeVersion3 && len(m.Processes) > 0 {
		return nil, bad(-1, `"processes" in a version %d manifest (processes need version %d)`, version, nativeVersion3)
	}
	if m.Complete == nil {
		return nil, bad(-1, `no "complete" field`)
	}
	carried, err := parseCarried(path, version, m.Carried)
	if err != nil {
		return nil, err
	}
	if m.TimerResolution == nil || *m.TimerResolution == 0 {
		return nil, bad(-1, "timer_resolution missing or 0")
	}
	t := &trace.Trace{
		Resolution: *m.TimerResolution,
		Properties: m.Properties,
		Nodes:      make([]trace.Node, len(m.Nodes)),
		Processes:  make([]trace.Process, len(m.Processes)),
		Regions:    make([]trace.Region, len(m.Regions)),
		Comms:      make([]trace.Comm, len(m.Communicators)),
		Locations:  make([]*trace.Location, len(m.Locations)),
	}
	for i, n := range m.Nodes {
		t.Nodes[i].Name = n.Name
	}
	if len(t.Processes) == 0 {
		t.Processes = nil
	}
	for i, p := range m.Processes {
		t.Processes[i].Name = p.Name
	}
	for i, r := range m.Regions {
		if version < nativeVersion3 && (r.Role != 0 || r.Paradigm != 0) {
			return nil, bad(-1, "region %d: role or paradigm in a version %d manifest (they need version %d)", i, version, nativeVersion3)
		}
		t.Regions[i] = trace.Region{Name: r.Name, Role: trace.RegionRole(r.Role), Paradigm: trace.Paradigm(r.Paradigm)}
	}
	for i, c := range m.Communicators {
		if version < nativeVersion3 && c.Paradigm != 0 {
			return nil, bad(-1, "communicator %d: paradigm in a version %d manifest (it needs version %d)", i, version, nativeVersion3)
		}
		t.Comms[i] = trace.Comm{Name: c.Name, Paradigm: trace.Paradigm(c.Paradigm), Members: c.Members}
	}
	locs := make([]trace.Location, len(m.Locations))
	counts := make([]int64, len(m.Locations))
	var files []string
	var fileIdx map[string]int32
	var exts [][]extent
	for i, jl := range m.Locations {
		if jl.ID == nil {
			return nil, formatErr(path, -1, i, -1, -1, `location without "id"`)
		}
		if jl.Node == nil {
			return nil, formatErr(path, -1, i, -1, -1, `location without "node"`)
		}
		counts[i] = -1
		if jl.Events != nil {
			if *jl.Events > trace.MaxEvents {
				return nil, formatErr(path, -1, i, -1, -1, "%d events, more than %d", *jl.Events, uint64(trace.MaxEvents))
			}
			counts[i] = int64(*jl.Events)
		} else if *m.Complete {
			return nil, formatErr(path, -1, i, -1, -1, `location without "events" in a complete trace`)
		}
		if jl.Extents != nil {
			if *m.Version == nativeVersion1 {
				return nil, formatErr(path, -1, i, -1, -1, `"extents" in a version %d manifest (bundles need version %d)`, nativeVersion1, nativeVersion2)
			}
			if exts == nil {
				exts = make([][]extent, len(m.Locations))
				fileIdx = make(map[string]int32)
			}
			le := make([]extent, len(*jl.Extents))
			for k, je := range *jl.Extents {
				bad := func(format string, args ...any) error {
					return formatErr(path, -1, i, -1, -1, "extent %d: %s", k, fmt.Sprintf(format, args...))
				}
				if err := checkBundleName(je.File); err != nil {
					return nil, bad("%v", err)
				}
				if je.Offset == nil || je.Length == nil {
					return nil, bad(`"offset" or "length" missing`)
				}
				off, n := *je.Offset, *je.Length
				if n < fileHeaderSize {
					return nil, bad("%s: length %d is shorter than a stream header (%d bytes)", je.File, n, fileHeaderSize)
				}
				if off > math.MaxInt64 || n > math.MaxInt64-off {
					return nil, bad("%s: offset %d + length %d beyond 2^63-1", je.File, off, n)
				}
				fi, ok := fileIdx[je.File]
				if !ok {
					fi = int32(len(files))
					fileIdx[je.File] = fi
					files = append(files, je.File)
				}
				le[k] = extent{file: fi, off: int64(off), len: int64(n)}
			}
			exts[i] = le
		}
		l := &locs[i]
		l.ID, l.Name, l.Node = *jl.ID, jl.Name, *jl.Node
		if err := locationV3(path, i, version, len(m.Processes), &jl, l); err != nil {
			return nil, err
		}
		if len(jl.Offsets) > 0 {
			l.Offsets = make([]trace.ClockOffset, len(jl.Offsets))
			for k, o := range jl.Offsets {
				l.Offsets[k] = trace.ClockOffset(o)
			}
		}
		t.Locations[i] = l
	}
	if err := t.ValidateDefs(); err != nil {
		var ee *trace.EventError
		if errors.As(err, &ee) {
			return nil, &FormatError{Path: path, Offset: -1, Location: ee.Location, Block: -1, Event: -1, Err: ee.Err}
		}
		return nil, &FormatError{Path: path, Offset: -1, Location: -1, Block: -1, Event: -1, Err: err}
	}
	if exts != nil {
		// Locations before the first one with extents got nil slices
		// meaning per-location files; that is what they are.
		if err := checkOverlaps(path, files, exts); err != nil {
			return nil, err
		}
	}
	return &manifest{defs: t, version: version, counts: counts, complete: *m.Complete, files: files, extents: exts, carried: carried}, nil
}

// locationV3 checks and copies a location's version 3 fields: "process"
// (required when the manifest has processes, absent otherwise) and "kind".
func locationV3(path string, i, version, procs int, jl *jsonLocation, l *trace.Location) error {
	bad := func(format string, args ...any) error {
		return formatErr(path, -1, i, -1, -1, format, args...)
	}
	switch {
	case procs > 0 && jl.Process == nil:
		return bad(`location without "process" in a trace with processes`)
	case procs == 0 && jl.Process != nil:
		return bad(`"process" in a trace without processes`)
	case jl.Process != nil:
		l.Process = *jl.Process
	}
	if jl.Kind != "" {
		if version < nativeVersion3 {
			return bad(`"kind" in a version %d manifest (it needs version %d)`, version, nativeVersion3)
		}
		k, ok := parseLocationKind(jl.Kind)
		if !ok {
			return bad("unknown location kind %q (want cpu-thread, accelerator-stream, metric or unknown)", jl.Kind)
		}
		l.Kind = k
	}
	return nil
}

func parseLocationKind(s string) (trace.LocationKind, bool) {
	for k := trace.LocationUnknown; k <= trace.LocationMetric; k++ {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

// checkBundleName checks the "file" of an extent: "events/" followed by a
// name of 1 to 255 characters from [A-Za-z0-9._-], not starting with a dot,
// without "..", and not ending in ".clce" (so it is never a per-location
// stream file, never a parent directory, never a path out of events/).
func checkBundleName(name string) error {
	base, ok := strings.CutPrefix(name, EventsDirName+"/")
	if !ok || len(base) == 0 || len(base) > 255 || base[0] == '.' || strings.Contains(base, "..") || strings.HasSuffix(base, StreamExt) {
		return fmt.Errorf("file %q is not \"events/\" followed by a bundle file name", name)
	}
	for i := 0; i < len(base); i++ {
		c := base[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("file %q: character %q not allowed in a bundle file name", name, c)
		}
	}
	return nil
}

// checkOverlaps reports extents that share bytes of a file.
func checkOverlaps(path string, files []string, exts [][]extent) error {
	type ref struct {
		e      extent
		loc, k int
	}
	var all []ref
	for loc, le := range exts {
		for k, e := range le {
			all = append(all, ref{e, loc, k})
		}
	}
	sort.SliceStable(all, func(a, b int) bool {
		if all[a].e.file != all[b].e.file {
			return all[a].e.file < all[b].e.file
		}
		return all[a].e.off < all[b].e.off
	})
	for i := 1; i < len(all); i++ {
		p, c := all[i-1], all[i]
		if p.e.file == c.e.file && c.e.off < p.e.off+p.e.len {
			return formatErr(path, -1, c.loc, -1, -1, "extent %d (%s, offset %d, length %d) overlaps extent %d of location %d (offset %d, length %d)",
				c.k, files[c.e.file], c.e.off, c.e.len, p.k, p.loc, p.e.off, p.e.len)
		}
	}
	return nil
}

// IsDir reports whether dir looks like a native trace: it has a clc.json,
// a JSON object whose first "format" key (in any case, as encoding/json
// matches keys) is "clc-native". It reads the object only up to that key
// (the first one that clc writes; the locations of a large manifest come
// last) and checks nothing else.
func IsDir(dir string) bool {
	f, _, err := infile.Open(filepath.Join(dir, ManifestName))
	if err != nil {
		return false
	}
	defer f.Close()
	dec := json.NewDecoder(io.LimitReader(f, maxManifestBytes))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, ok := tok.(string)
		if !ok {
			return false
		}
		if strings.EqualFold(key, "format") {
			var format string
			return dec.Decode(&format) == nil && format == NativeFormat
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return false
}
