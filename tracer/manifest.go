package tracer

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/clc-tools/clc/native"
	"github.com/clc-tools/clc/trace"

	"github.com/clc-tools/clc/tracer/abi"
)

// MetaDir is the directory, inside a trace directory, where every rank of a
// traced run keeps its definitions as they arise (host, communicators it
// defined, clock offsets). Readers of the native format ignore it.
const MetaDir = ".clc-meta"

// RankMeta is what one rank's metadata file says.
type RankMeta struct {
	Rank, Size int
	Host       string
	Resolution uint64 // the first estimate, at MPI_Init
	Regions    map[int]string
	Comms      map[uint32]*MetaComm
	Offsets    [][3]int64
	// Events is the count the rank wrote at MPI_Finalize, MPI_Abort or an
	// exit without MPI_Finalize (-1: none).
	Events int64
	Done   bool // the rank finished MPI_Finalize's part
	// Ended says how a rank that did not finish ended, as far as it could
	// say: "aborted" (MPI_Abort), "exited" (exit without MPI_Finalize),
	// "signal N" (the last signal it handled); "" when it said nothing.
	Ended string
	// Told is set when the rank's clc-trace finished the unfinished trace
	// and said so (FinishRank appends the line toldLine).
	Told bool
}

// MetaComm is a communicator definition from a metadata file.
type MetaComm struct {
	Name    string
	Members []int32
}

// ParseMeta reads one rank's metadata file.
func ParseMeta(path string) (*RankMeta, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := &RankMeta{Rank: -1, Regions: map[int]string{}, Comms: map[uint32]*MetaComm{}, Events: -1}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	line := 0
	for sc.Scan() {
		line++
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		bad := func() error { return fmt.Errorf("%s:%d: malformed %q line", path, line, fs[0]) }
		num := func(i int) int64 {
			if i >= len(fs) {
				return 0
			}
			v, err := strconv.ParseInt(fs[i], 10, 64)
			if err != nil {
				return 0
			}
			return v
		}
		switch fs[0] {
		case "rank":
			if len(fs) != 3 {
				return nil, bad()
			}
			m.Rank, m.Size = int(num(1)), int(num(2))
		case "host":
			if len(fs) >= 2 {
				m.Host = fs[1]
			}
		case "resolution":
			// the first estimate, at MPI_Init: what an incomplete manifest
			// takes, whoever writes it (the library after MPI_Abort or an
			// exit, or clc-trace)
			v, err := strconv.ParseFloat(fs[len(fs)-1], 64)
			if err == nil && v > 0 {
				m.Resolution = uint64(v + 0.5)
			}
		case "region":
			if len(fs) != 3 {
				return nil, bad()
			}
			m.Regions[int(num(1))] = fs[2]
		case "uregion":
			// uregion ID NAME: a user region; the name may hold blanks
			parts := strings.SplitN(sc.Text(), " ", 3)
			if len(parts) != 3 {
				return nil, bad()
			}
			id, err := strconv.Atoi(parts[1])
			if err != nil || id < 0 || id >= 1<<31 {
				return nil, bad()
			}
			m.Regions[id] = parts[2]
		case "aborted", "exited":
			m.Ended = fs[0]
		case "signal": // signal SIG EVENTS
			if len(fs) != 3 {
				return nil, bad()
			}
			m.Ended = "signal " + fs[1]
		case "comm":
			if len(fs) < 4 {
				return nil, bad()
			}
			pos := uint32(num(1))
			c := m.Comms[pos]
			if c == nil {
				c = &MetaComm{Name: fs[3]}
				m.Comms[pos] = c
			}
			for i := 4; i < len(fs); i++ {
				c.Members = append(c.Members, int32(num(i)))
			}
		case "offset":
			if len(fs) != 4 {
				return nil, bad()
			}
			m.Offsets = append(m.Offsets, [3]int64{num(1), num(2), num(3)})
		case "events":
			m.Events = num(1)
		case "done":
			m.Done = true
		case toldLine:
			m.Told = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if m.Rank < 0 {
		return nil, fmt.Errorf("%s: no rank line", path)
	}
	return m, nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CountWholeBlocks scans the block headers of a stream file and returns the
// number of events in its whole blocks whose checksum is right, stopping at
// the first cut or damaged block, and whether it stopped early.
func CountWholeBlocks(path string) (events int64, cut bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var fh [32]byte
	if _, err := io.ReadFull(r, fh[:]); err != nil {
		return 0, true, nil
	}
	if !bytes.Equal(fh[:8], []byte("\x89CLCEVT\n")) {
		return 0, false, fmt.Errorf("%s: not a clc event stream (bad magic)", path)
	}
	var hdr [24]byte
	buf := make([]byte, 0, 1<<20)
	for {
		_, err := io.ReadFull(r, hdr[:])
		if err == io.EOF {
			return events, false, nil
		}
		if err != nil || !bytes.Equal(hdr[:4], []byte("CLCB")) {
			return events, true, nil
		}
		s := binary.LittleEndian.Uint32(hdr[8:])
		n := binary.LittleEndian.Uint32(hdr[16:])
		if s > 64<<20 {
			return events, true, nil
		}
		if cap(buf) < int(s) {
			buf = make([]byte, s)
		}
		buf = buf[:s]
		if _, err := io.ReadFull(r, buf); err != nil {
			return events, true, nil
		}
		c := crc32.Update(crc32.Update(0, castagnoli, hdr[:20]), castagnoli, buf)
		if c != binary.LittleEndian.Uint32(hdr[20:]) {
			return events, true, nil
		}
		events += int64(n)
	}
}

type jsonManifest struct {
	Format          string            `json:"format"`
	Version         int               `json:"version"`
	Complete        bool              `json:"complete"`
	TimerResolution uint64            `json:"timer_resolution"`
	Properties      map[string]string `json:"properties"`
	Nodes           []jsonNamed       `json:"nodes"`
	Regions         []jsonNamed       `json:"regions"`
	Communicators   []jsonComm        `json:"communicators"`
	Locations       []jsonLocation    `json:"locations"`
}
type jsonNamed struct {
	Name string `json:"name"`
}
type jsonComm struct {
	Name    string  `json:"name"`
	Members []int32 `json:"members"`
}
type jsonLocation struct {
	ID      uint64       `json:"id"`
	Name    string       `json:"name"`
	Node    int          `json:"node"`
	Events  *int64       `json:"events,omitempty"`
	Offsets []jsonOffset `json:"offsets"`
}
type jsonOffset struct {
	Time   int64 `json:"time"`
	Offset int64 `json:"offset"`
	RTT    int64 `json:"rtt"`
	StdDev int   `json:"stddev"`
}

// ErrNoMeta is returned by WriteIncompleteManifest when the directory holds
// no metadata of a traced run.
var ErrNoMeta = errors.New("no tracer metadata")

// OTF2Attributes defines the OTF2 attributes the PMPI library attaches to
// events (the manifest's clc.otf2-attributes, otf.PropAttributes; the C
// library's CLC_OTF2_ATTRIBUTES): one per line, id, type, name, description.
var OTF2Attributes = abi.AttributeSpec()

// WriteIncompleteManifest writes DIR/clc.json (and DIR/truth/clc.json when
// there are truth streams) with "complete": false from the metadata the
// ranks left and the whole blocks of their streams, with the properties
// props added. It never replaces an existing manifest: it reports whether
// it wrote one.
func WriteIncompleteManifest(dir string, props map[string]string) (bool, error) {
	paths, _ := filepath.Glob(filepath.Join(dir, MetaDir, "*.txt"))
	if len(paths) == 0 {
		return false, fmt.Errorf("%s: %w (did the program call MPI_Init with the library preloaded?)", dir, ErrNoMeta)
	}
	metas := map[int]*RankMeta{}
	size := 0
	for _, p := range paths {
		m, err := ParseMeta(p)
		if err != nil {
			return false, err
		}
		metas[m.Rank] = m
		if m.Size > size {
			size = m.Size
		}
	}
	var res uint64
	regions := map[int]string{}
	comms := map[uint32]*MetaComm{}
	for r := 0; r < size; r++ {
		m := metas[r]
		if m == nil {
			continue
		}
		if res == 0 || r == 0 {
			if m.Resolution != 0 {
				res = m.Resolution
			}
		}
		for k, v := range m.Regions {
			regions[k] = v
		}
		for k, v := range m.Comms {
			comms[k] = v
		}
	}
	if len(regions) == 0 {
		return false, fmt.Errorf("%s: rank 0 left no region table in %s", dir, MetaDir)
	}
	if res == 0 {
		return false, fmt.Errorf("%s: no timer resolution in %s", dir, MetaDir)
	}
	jm := jsonManifest{Format: "clc-native", Version: 1, Complete: false, TimerResolution: res,
		Properties: map[string]string{"creator": "clc-trace 1 (manifest written after an unfinished run)", "timer": "tsc", trace.PropClockDomain: "node",
			"clc.otf2-attributes": OTF2Attributes}}
	for k, v := range props {
		jm.Properties[k] = v
	}
	nreg := 0
	for k := range regions {
		if k+1 > nreg {
			nreg = k + 1
		}
	}
	jm.Regions = make([]jsonNamed, nreg)
	for k, v := range regions {
		jm.Regions[k].Name = v
	}
	ncomm := 0
	for k := range comms {
		if int(k)+1 > ncomm {
			ncomm = int(k) + 1
		}
	}
	jm.Communicators = make([]jsonComm, ncomm)
	for i := range jm.Communicators {
		jm.Communicators[i].Members = []int32{}
	}
	for k, v := range comms {
		jm.Communicators[k] = jsonComm{Name: v.Name, Members: v.Members}
	}
	nodeOf := map[string]int{}
	var missing []string
	for r := 0; r < size; r++ {
		host := "unknown"
		if m := metas[r]; m != nil && m.Host != "" {
			host = m.Host
		} else {
			missing = append(missing, strconv.Itoa(r))
		}
		if _, ok := nodeOf[host]; !ok {
			nodeOf[host] = len(jm.Nodes)
			jm.Nodes = append(jm.Nodes, jsonNamed{Name: host})
		}
		loc := jsonLocation{ID: uint64(r), Name: fmt.Sprintf("rank %d", r), Node: nodeOf[host], Offsets: []jsonOffset{}}
		if m := metas[r]; m != nil {
			for _, o := range m.Offsets {
				loc.Offsets = append(loc.Offsets, jsonOffset{Time: o[0], Offset: o[1], RTT: o[2]})
			}
		}
		jm.Locations = append(jm.Locations, loc)
	}
	if len(missing) > 0 {
		jm.Properties["ranks_without_metadata"] = strings.Join(missing, ",")
	}
	// The truth's manifest first: the trace's is the one a finisher and
	// clc-trace --convert look for, and a kill between the two must leave
	// the trace looking unfinished, not finished without its truth.
	if st, err := os.Stat(filepath.Join(dir, "truth", "events")); err == nil && st.IsDir() {
		tm := jm
		tm.Locations = make([]jsonLocation, len(jm.Locations))
		copy(tm.Locations, jm.Locations)
		for i := range tm.Locations {
			tm.Locations[i].Offsets = []jsonOffset{}
		}
		tm.Properties = map[string]string{"creator": jm.Properties["creator"], "truth": "true times of ../events (real TSC, the reference clock)"}
		if _, err := writeManifestFor(filepath.Join(dir, "truth"), &tm, size); err != nil {
			return false, err
		}
	}
	return writeManifestFor(dir, &jm, size)
}

func writeManifestFor(dir string, jm *jsonManifest, size int) (bool, error) {
	var cut []string
	for r := 0; r < size; r++ {
		p := filepath.Join(dir, "events", strconv.Itoa(r)+".clce")
		n, c, err := CountWholeBlocks(p)
		if errors.Is(err, os.ErrNotExist) {
			err = writeEmptyStream(p, r)
			if errors.Is(err, os.ErrExist) { // its rank made it meanwhile
				n, c, err = CountWholeBlocks(p)
			}
		}
		if err != nil {
			return false, err
		}
		if c {
			cut = append(cut, strconv.Itoa(r))
		}
		// "events" stays out: ranks still running may add blocks after
		// this manifest was written; the reader then takes every whole block.
		_ = n
	}
	sort.Strings(cut)
	if len(cut) > 0 {
		jm.Properties["cut_streams"] = strings.Join(cut, ",")
	}
	data, err := json.MarshalIndent(jm, "", "  ")
	if err != nil {
		return false, fmt.Errorf("encoding the manifest: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".clc.json.tmp-")
	if err != nil {
		return false, fmt.Errorf("writing the manifest: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return false, fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	// link, not rename: a complete manifest written meanwhile by rank 0 wins
	if err := os.Link(tmp.Name(), filepath.Join(dir, native.ManifestName)); err != nil {
		if errors.Is(err, os.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("writing the manifest: %w", err)
	}
	return true, nil
}

// writeEmptyStream writes a stream file with a header and no blocks, for a
// rank that never got as far as opening its own. It makes neither the file
// over an existing one (os.ErrExist) nor a missing directory: the events
// directory of a trace that another finisher moved away (FinishOTF2's
// truth) stays away, not made again empty for a later finisher to take
// for the trace's.
func writeEmptyStream(path string, loc int) error {
	var h [32]byte
	copy(h[:], "\x89CLCEVT\n")
	binary.LittleEndian.PutUint32(h[8:], 1)
	binary.LittleEndian.PutUint64(h[16:], uint64(loc))
	binary.LittleEndian.PutUint32(h[28:], crc32.Checksum(h[:28], castagnoli))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(h[:])
	return errors.Join(err, f.Close())
}
