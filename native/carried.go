package native

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/clc-tools/clc/internal/infile"
	"github.com/clc-tools/clc/trace"
)

// This file reads and writes the carried data of a version 4 trace: what
// the trace's source format defines beyond the model (trace.Carried; for
// OTF2 the anchor and the definition files), in CarriedName
// (docs/format.md, "Carried data (version 4)").

// CarriedName is the file of a trace directory that holds its carried
// data.
const CarriedName = "carried.clcd"

// carriedVersion is the version in the carried file's header.
const carriedVersion = 1

// maxPartName bounds the length of a part's name.
const maxPartName = 255

// maxCarriedBytes bounds the size of a carried file (it is read whole).
const maxCarriedBytes = 1 << 40

var carriedMagic = [8]byte{0x89, 'C', 'L', 'C', 'C', 'A', 'R', '\n'}

// carriedFormats names the formats whose data a trace may carry, by
// trace.Format* value.
var carriedFormats = map[uint8]string{trace.FormatOTF2: "otf2"}

// jsonCarried is the manifest's "carried" object.
type jsonCarried struct {
	Format string  `json:"format"`
	Length *uint64 `json:"length"`
	Parts  *uint64 `json:"parts"`
}

// carriedInfo is a checked jsonCarried.
type carriedInfo struct {
	format uint8
	length int64
	parts  int
}

// parseCarried checks the manifest's "carried" object (nil: none).
func parseCarried(path string, version int, jc *jsonCarried) (*carriedInfo, error) {
	if jc == nil {
		return nil, nil
	}
	bad := func(format string, args ...any) error {
		return formatErr(path, -1, -1, -1, -1, "carried: "+format, args...)
	}
	if version < NativeVersion {
		return nil, bad(`"carried" in a version %d manifest (carried data needs version %d)`, version, NativeVersion)
	}
	ci := &carriedInfo{format: 0xff}
	for f, name := range carriedFormats {
		if name == jc.Format {
			ci.format = f
		}
	}
	switch {
	case ci.format == 0xff:
		return nil, bad("unknown format %q (this reader knows \"otf2\")", jc.Format)
	case jc.Length == nil || jc.Parts == nil:
		return nil, bad(`"length" or "parts" missing`)
	case *jc.Length < fileHeaderSize || *jc.Length > maxCarriedBytes:
		return nil, bad("length %d outside [%d,%d]", *jc.Length, fileHeaderSize, maxCarriedBytes)
	case *jc.Parts > *jc.Length/3:
		return nil, bad("%d parts cannot fit in %d bytes", *jc.Parts, *jc.Length)
	}
	ci.length, ci.parts = int64(*jc.Length), int(*jc.Parts)
	return ci, nil
}

// attachCarried checks that the carried file of the trace in dir has the
// length the manifest says and sets defs.Carried to a loader for it.
func attachCarried(dir string, m *manifest) error {
	if m.carried == nil {
		return nil
	}
	path := filepath.Join(dir, CarriedName)
	st, err := os.Stat(path)
	if err == nil {
		err = infile.CheckRegular(path, st)
	}
	if err != nil {
		return &FormatError{Path: path, Offset: -1, Location: -1, Block: -1, Event: -1, Err: fmt.Errorf("carried data: %w", err)}
	}
	if st.Size() != m.carried.length {
		return &FormatError{Path: path, Offset: min(st.Size(), m.carried.length), Location: -1, Block: -1, Event: -1,
			Err: fmt.Errorf("%w: the file has %d bytes, the manifest says %d", ErrTruncated, st.Size(), m.carried.length)}
	}
	m.defs.Carried = &carriedFile{path: path, info: *m.carried, numLocs: len(m.defs.Locations)}
	return nil
}

// carriedFile is the carried data of a native trace, read and checked on
// first use.
type carriedFile struct {
	path    string
	info    carriedInfo
	numLocs int
	once    sync.Once
	parts   []trace.Part
	err     error
}

func (c *carriedFile) Format() uint8 { return c.info.format }

func (c *carriedFile) Parts() ([]trace.Part, error) {
	c.once.Do(func() {
		data, err := infile.ReadFile(c.path, c.info.length)
		if errors.Is(err, infile.ErrTooLarge) {
			err = fmt.Errorf("the file grew past the %d bytes the manifest says", c.info.length)
		}
		if err != nil {
			c.err = &FormatError{Path: c.path, Offset: -1, Location: -1, Block: -1, Event: -1, Err: fmt.Errorf("carried data: %w", err)}
			return
		}
		if int64(len(data)) != c.info.length {
			c.err = &FormatError{Path: c.path, Offset: min(int64(len(data)), c.info.length), Location: -1, Block: -1, Event: -1,
				Err: fmt.Errorf("%w: the file has %d bytes, the manifest says %d", ErrTruncated, len(data), c.info.length)}
			return
		}
		dec, err := newDecoder(1)
		if err != nil {
			c.err = fmt.Errorf("native reader: %w", err)
			return
		}
		defer dec.Close()
		c.parts, c.err = decodeCarried(c.path, data, c.numLocs, c.info.parts, dec)
	})
	return c.parts, c.err
}

// carriedHeader returns the 32-byte header of a carried file.
func carriedHeader() []byte {
	h := make([]byte, fileHeaderSize)
	copy(h[0:8], carriedMagic[:])
	binary.LittleEndian.PutUint32(h[8:], carriedVersion)
	binary.LittleEndian.PutUint32(h[28:], crc32.Checksum(h[:28], castagnoli))
	return h
}

// checkCarriedHeader checks a carried file's header.
func checkCarriedHeader(h []byte) error {
	if [8]byte(h[0:8]) != carriedMagic {
		return fmt.Errorf("bad carried-data magic % x", h[0:8])
	}
	if got := crc32.Checksum(h[:28], castagnoli); got != binary.LittleEndian.Uint32(h[28:]) {
		return fmt.Errorf("%w: file header CRC %08x, computed %08x", ErrChecksum, binary.LittleEndian.Uint32(h[28:]), got)
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != carriedVersion {
		return fmt.Errorf("carried-data version %d, this reader reads version %d", v, carriedVersion)
	}
	for _, r := range [][]byte{h[12:16], h[16:24], h[24:28]} {
		for _, b := range r {
			if b != 0 {
				return fmt.Errorf("flags or reserved header bytes % x not zero", h[12:28])
			}
		}
	}
	return nil
}

// writeCarried writes the carried data of w.defs, if any, to CarriedName
// and returns its manifest entry (nil: none).
func (w *DirWriter) writeCarried() (*jsonCarried, error) {
	c := w.defs.Carried
	if c == nil {
		return nil, nil
	}
	name, ok := carriedFormats[c.Format()]
	if !ok {
		return nil, fmt.Errorf("native writer: cannot carry data of format %d", c.Format())
	}
	parts, err := c.Parts()
	if err != nil {
		return nil, fmt.Errorf("native writer: carried data: %w", err)
	}
	data, err := encodeCarried(parts, len(w.defs.Locations), w.codec, w.enc, w.blockSize)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(w.dir, CarriedName), data, 0o666); err != nil {
		return nil, fmt.Errorf("native writer: %w", err)
	}
	n, np := uint64(len(data)), uint64(len(parts))
	return &jsonCarried{Format: name, Length: &n, Parts: &np}, nil
}

// encodeCarried encodes parts as a carried file: the header, then blocks
// whose records are pieces of parts (docs/format.md): location + 1, name,
// data. A part longer than the block size is split into pieces of at most
// blockSize bytes, in consecutive records.
func encodeCarried(parts []trace.Part, numLocs int, codec Codec, enc *zstd.Encoder, blockSize int) ([]byte, error) {
	type key struct {
		loc  int
		name string
	}
	seen := make(map[key]bool, len(parts))
	out := carriedHeader()
	var raw, block []byte
	var n uint32
	flush := func() {
		if n > 0 {
			block = sealBlock(block, enc, codec, raw, n)
			out = append(out, block...)
			raw, n = raw[:0], 0
		}
	}
	for i, p := range parts {
		k := key{p.Location, p.Name}
		switch {
		case p.Location < -1 || p.Location >= numLocs:
			return nil, fmt.Errorf("native writer: carried part %d (%q): location %d out of range [-1,%d)", i, p.Name, p.Location, numLocs)
		case len(p.Name) == 0 || len(p.Name) > maxPartName:
			return nil, fmt.Errorf("native writer: carried part %d: name of %d bytes (want 1 to %d)", i, len(p.Name), maxPartName)
		case seen[k]:
			return nil, fmt.Errorf("native writer: carried part %d: a second part %q of location %d", i, p.Name, p.Location)
		}
		seen[k] = true
		data := p.Data
		for first := true; first || len(data) > 0; first = false {
			m := min(len(data), blockSize)
			raw = binary.AppendUvarint(raw, uint64(p.Location+1))
			raw = binary.AppendUvarint(raw, uint64(len(p.Name)))
			raw = append(raw, p.Name...)
			raw = binary.AppendUvarint(raw, uint64(m))
			raw = append(raw, data[:m]...)
			data = data[m:]
			n++
			if len(raw) >= blockSize {
				flush()
			}
		}
	}
	flush()
	return out, nil
}

// decodeCarried decodes and checks a carried file read from path, of a
// trace with numLocs locations whose manifest announces wantParts parts
// (-1: unchecked).
func decodeCarried(path string, data []byte, numLocs, wantParts int, dec *zstd.Decoder) ([]trace.Part, error) {
	bad := func(off int64, loc, block int, format string, args ...any) error {
		return formatErr(path, off, loc, block, -1, format, args...)
	}
	if len(data) < fileHeaderSize {
		return nil, &FormatError{Path: path, Offset: 0, Location: -1, Block: -1, Event: -1, Err: fmt.Errorf("%w: file header: %d bytes, the header has %d", ErrTruncated, len(data), fileHeaderSize)}
	}
	if err := checkCarriedHeader(data[:fileHeaderSize]); err != nil {
		return nil, bad(0, -1, -1, "%v", err)
	}
	type key struct {
		loc  int
		name string
	}
	seen := map[key]bool{}
	var parts []trace.Part
	var raw []byte
	off := int64(fileHeaderSize)
	for block := 0; off < int64(len(data)); block++ {
		left := int64(len(data)) - off
		if left < blockHeaderSize {
			return nil, &FormatError{Path: path, Offset: off, Location: -1, Block: block, Event: -1, Err: fmt.Errorf("%w: block header needs %d bytes, %d left", ErrTruncated, blockHeaderSize, left)}
		}
		h := data[off : off+blockHeaderSize]
		bh, err := parseBlockHeader(h)
		if err != nil {
			return nil, bad(off, -1, block, "%v", err)
		}
		if int64(bh.stored) > left-blockHeaderSize {
			return nil, &FormatError{Path: path, Offset: off, Location: -1, Block: block, Event: -1, Err: fmt.Errorf("%w: block payload needs %d bytes, %d left", ErrTruncated, bh.stored, left-blockHeaderSize)}
		}
		stored := data[off+blockHeaderSize : off+blockHeaderSize+int64(bh.stored)]
		payload, err := unpackBlock(bh, h, stored, dec, raw)
		if bh.codec == CodecZstd {
			raw = payload // reused for the next block (never the file's bytes)
		}
		if err != nil {
			return nil, bad(off, -1, block, "%v", err)
		}
		p := 0
		for r := 0; r < int(bh.n); r++ {
			start := p
			fail := func(format string, args ...any) error {
				return bad(off, -1, block, "record %d (raw offset %d): %s", r, start, fmt.Sprintf(format, args...))
			}
			var loc1, nlen, dlen uint64
			if loc1, p = uvarint(payload, p); p < 0 {
				return nil, fail("%v", varintErr(p, "location"))
			}
			if nlen, p = uvarint(payload, p); p < 0 {
				return nil, fail("%v", varintErr(p, "name length"))
			}
			if nlen == 0 || nlen > maxPartName || nlen > uint64(len(payload)-p) {
				return nil, fail("name of %d bytes (want 1 to %d, %d left)", nlen, maxPartName, len(payload)-p)
			}
			name := string(payload[p : p+int(nlen)])
			p += int(nlen)
			if dlen, p = uvarint(payload, p); p < 0 {
				return nil, fail("%v", varintErr(p, "data length"))
			}
			if dlen > uint64(len(payload)-p) {
				return nil, fail("%d data bytes, %d left in the block", dlen, len(payload)-p)
			}
			piece := payload[p : p+int(dlen)]
			p += int(dlen)
			if loc1 > uint64(numLocs) {
				return nil, fail("location %d out of range [-1,%d)", int64(loc1)-1, numLocs)
			}
			k := key{int(loc1) - 1, name}
			if last := len(parts) - 1; last >= 0 && parts[last].Location == k.loc && parts[last].Name == name {
				parts[last].Data = append(parts[last].Data, piece...) // a continuation
				continue
			}
			if seen[k] {
				return nil, fail("a second part %q of location %d", name, k.loc)
			}
			seen[k] = true
			parts = append(parts, trace.Part{Location: k.loc, Name: name, Data: append([]byte{}, piece...),
				Source: fmt.Sprintf("%s: part %d (%q of location %d, from block %d at byte offset %d)", path, len(parts), name, k.loc, block, off)})
		}
		if p != len(payload) {
			return nil, bad(off, -1, block, "%d records use %d of the block's %d raw bytes", bh.n, p, len(payload))
		}
		off += blockHeaderSize + int64(bh.stored)
	}
	if wantParts >= 0 && len(parts) != wantParts {
		return nil, bad(int64(len(data)), -1, -1, "%d parts, the manifest says %d", len(parts), wantParts)
	}
	return parts, nil
}
