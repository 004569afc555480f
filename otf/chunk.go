package otf

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// chunkReader reads an OTF2 buffer file (every file but the anchor) chunk by
// chunk: each chunk is exactly size bytes, except the last, which ends after
// END_OF_FILE END_OF_BUFFER. Only one chunk is in memory at a time.
type chunkReader struct {
	name string // file name for errors, relative to the archive
	r    io.Reader
	size int

	buf   []byte // current chunk (len = bytes read)
	off   int64  // file offset of the current chunk
	next  int64  // file offset of the next chunk
	be    bool
	first uint64
	last  uint64
	index int // number of chunks loaded so far
	eof   bool
	// fileSize is the size of the file if known, else -1: buffers are not
	// made bigger than the file.
	fileSize int64
	// ctx, if not nil, cancels the reading: load looks at it before each
	// chunk.
	ctx context.Context
}

// newChunkReader reads r in chunks of size bytes, reusing buf if it is big
// enough. If r is an *os.File, or a *bytes.Reader at its start (a file held
// in memory), its size limits the buffer.
func newChunkReader(name string, r io.Reader, size int, buf []byte) *chunkReader {
	c := &chunkReader{name: name, r: r, size: size, buf: buf[:0], fileSize: -1}
	switch f := r.(type) {
	case *os.File:
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			c.fileSize = st.Size()
		}
	case *bytes.Reader:
		if f.Len() == int(f.Size()) {
			c.fileSize = f.Size()
		}
	}
	return c
}

func (c *chunkReader) errAt(off int64, err error) error {
	return &FormatError{File: c.name, Offset: off, Err: err}
}

func (c *chunkReader) errf(off int64, format string, args ...any) error {
	return c.errAt(off, fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...))
}

// load reads the next chunk. It returns io.EOF when the file has no more
// bytes.
func (c *chunkReader) load() error {
	if c.eof {
		return io.EOF
	}
	if c.ctx != nil {
		if err := c.ctx.Err(); err != nil {
			return err
		}
	}
	if cap(c.buf) < c.size {
		n := int64(c.size)
		if c.fileSize >= 0 && c.fileSize-c.next+1 < n {
			n = c.fileSize - c.next + 1 // +1 to see the end of the file
			if n < chunkHeaderLen {
				n = chunkHeaderLen
			}
		}
		if int64(cap(c.buf)) < n {
			c.buf = make([]byte, n)
		}
	}
	want := c.size
	if want > cap(c.buf) {
		want = cap(c.buf)
	}
	buf := c.buf[:want]
	n, err := io.ReadFull(c.r, buf)
	switch {
	case err == io.EOF:
		c.eof = true
		return io.EOF
	case err == io.ErrUnexpectedEOF:
		c.eof = true
	case err == nil && want < c.size:
		// The buffer was sized to the file; make sure the file did not grow.
		var one [1]byte
		if m, _ := io.ReadFull(c.r, one[:]); m > 0 {
			return fmt.Errorf("otf2: %s: the file changed while it was read", c.name)
		}
		c.eof = true
	case err != nil:
		return fmt.Errorf("otf2: %s: %w", c.name, err)
	}
	c.buf = buf[:n]
	c.off = c.next
	c.next += int64(n)
	c.index++
	if n < chunkHeaderLen {
		return c.errf(c.off, "chunk %d: %d bytes, shorter than a chunk header", c.index, n)
	}
	if c.buf[0] != recChunkHeader {
		return c.errf(c.off, "chunk %d: starts with record type %d, not a chunk header", c.index, c.buf[0])
	}
	switch c.buf[1] {
	case markLittle:
		c.be = false
		c.first = binary.LittleEndian.Uint64(c.buf[2:])
		c.last = binary.LittleEndian.Uint64(c.buf[10:])
	case markBig:
		c.be = true
		c.first = binary.BigEndian.Uint64(c.buf[2:])
		c.last = binary.BigEndian.Uint64(c.buf[10:])
	default:
		return c.errf(c.off+1, "chunk %d: unknown byte-order mark 0x%02x", c.index, c.buf[1])
	}
	return nil
}

// A record as the scanner returns it.
type record struct {
	typ     uint8
	payload []byte // slice into the chunk buffer: valid until the next call
	off     int64  // file offset of the record's type byte
	// poff is the file offset of the payload.
	poff int64
	// start is the offset of the type byte within the chunk; used by the
	// rewriter to copy records verbatim.
	start int
}

// scanner walks the records of a buffer file. In event mode it knows the
// framing of TIMESTAMP records and singleton events.
type scanner struct {
	c      *chunkReader
	p      int // position in c.buf
	events bool
	done   bool
	// chunkEvents counts the event records of the current chunk (event mode).
	chunkEvents uint64
	// nextEvent is the 1-based number the next event record must have.
	nextEvent uint64
	started   bool
}

func newScanner(c *chunkReader, events bool) *scanner {
	return &scanner{c: c, events: events, nextEvent: 1}
}

// singleton reports whether event record type t is written without a length.
func singleton(t uint8) bool {
	switch t {
	case 12, 13, 16, 17, 20, 21, 24, 28, 29, 30:
		return true
	}
	return false
}

// endChunk checks the event numbers of a finished chunk.
func (s *scanner) endChunk() error {
	if !s.events || !s.started {
		return nil
	}
	c := s.c
	if s.chunkEvents == 0 && c.last+1 == c.first {
		return nil
	}
	if c.first != s.nextEvent-s.chunkEvents || c.last != s.nextEvent-1 {
		return c.errf(c.off+2, "chunk %d: header says events %d to %d, the chunk holds events %d to %d",
			c.index, c.first, c.last, s.nextEvent-s.chunkEvents, s.nextEvent-1)
	}
	return nil
}

func (s *scanner) startChunk() error {
	if err := s.c.load(); err != nil {
		if err == io.EOF {
			return s.c.errf(s.c.next, "file ends without END_OF_FILE")
		}
		return err
	}
	s.p = chunkHeaderLen
	s.chunkEvents = 0
	s.started = true
	return nil
}

// Framing of a record type: how its payload length is found.
const (
	frameInternal  = iota // END_OF_CHUNK, END_OF_FILE, …: handled apart
	frameLength           // a 1- or 9-byte length follows the type
	frameTimestamp        // TIMESTAMP: 8 raw bytes
	frameSingleton        // singleton event: one compressed integer
)

// framings returns the framing table of event files (events) or
// definition files.
func framings(events bool) (f [256]uint8) {
	for t := range f {
		f[t] = frameLength
	}
	f[recEndOfChunk], f[recEndOfBuffer], f[recEndOfFile], f[recChunkHeader] = frameInternal, frameInternal, frameInternal, frameInternal
	if events {
		for _, t := range []int{4, 7, 8, 9} { // reserved internal types
			f[t] = frameInternal
		}
		f[recTimestamp] = frameTimestamp
		for t := range f {
			if singleton(uint8(t)) {
				f[t] = frameSingleton
			}
		}
	}
	return f
}

var (
	eventFraming = framings(true)
	defFraming   = framings(false)
)

// next returns the next record. At the end of the file it returns io.EOF.
// Internal records other than TIMESTAMP and ATTRIBUTE_LIST are consumed.
func (s *scanner) next(r *record) error {
	if s.done {
		return io.EOF
	}
	if !s.started {
		if err := s.startChunk(); err != nil {
			return err
		}
	}
	framing := &defFraming
	if s.events {
		framing = &eventFraming
	}
	for {
		c := s.c
		b := c.buf
		start := s.p
		if start >= len(b) {
			return c.errf(c.off+int64(start), "chunk %d ends without END_OF_CHUNK", c.index)
		}
		t := b[start]
		p := start + 1
		var n int
		switch framing[t] {
		case frameSingleton:
			if p >= len(b) {
				return c.errf(c.off+int64(start), "record type %d runs past the end of chunk %d", t, c.index)
			}
			k := int(b[p])
			if k == 0xFF {
				k = 0
			} else if k > 8 {
				return c.errf(c.off+int64(p), "singleton record type %d: compressed integer of %d bytes", t, k)
			}
			n = 1 + k
		case frameTimestamp:
			n = 8
		case frameLength:
			if p >= len(b) {
				return c.errf(c.off+int64(start), "record type %d runs past the end of chunk %d", t, c.index)
			}
			n = int(b[p])
			p++
			if n == 0xFF {
				if p+8 > len(b) {
					return c.errf(c.off+int64(start), "record type %d: 9-byte length runs past the end of chunk %d", t, c.index)
				}
				var u uint64
				if c.be {
					u = binary.BigEndian.Uint64(b[p:])
				} else {
					u = binary.LittleEndian.Uint64(b[p:])
				}
				p += 8
				if u > uint64(len(b)-p) {
					return c.errf(c.off+int64(start), "record type %d of %d bytes runs past the end of chunk %d (%d bytes left)", t, u, c.index, len(b)-p)
				}
				n = int(u)
			}
		default:
			done, err := s.internal(t, start)
			if err != nil || done {
				return err
			}
			continue
		}
		if n > len(b)-p {
			return c.errf(c.off+int64(start), "record type %d of %d bytes runs past the end of chunk %d (%d bytes left)", t, n, c.index, len(b)-p)
		}
		r.typ = t
		r.payload = b[p : p+n]
		r.off = c.off + int64(start)
		r.start = start
		r.poff = c.off + int64(p)
		s.p = p + n
		if s.events && t >= 10 {
			s.chunkEvents++
			s.nextEvent++
		}
		return nil
	}
}

// internal handles a buffer-internal record at start: END_OF_CHUNK moves to
// the next chunk, END_OF_FILE ends the file (done, with io.EOF).
func (s *scanner) internal(t uint8, start int) (done bool, err error) {
	c := s.c
	b := c.buf
	switch t {
	case recEndOfChunk:
		if err := s.endChunk(); err != nil {
			return true, err
		}
		if len(b) < c.size {
			return true, c.errf(c.off+int64(start), "END_OF_CHUNK in the last chunk (%d bytes, chunk size %d)", len(b), c.size)
		}
		if err := s.startChunk(); err != nil {
			return true, err
		}
		return false, nil
	case recEndOfFile:
		if err := s.endChunk(); err != nil {
			return true, err
		}
		if start+1 >= len(b) || b[start+1] != recEndOfBuffer {
			return true, c.errf(c.off+int64(start), "END_OF_FILE not followed by END_OF_BUFFER")
		}
		s.done = true
		return true, io.EOF
	case recEndOfBuffer:
		return true, c.errf(c.off+int64(start), "END_OF_BUFFER without END_OF_FILE")
	case recChunkHeader:
		return true, c.errf(c.off+int64(start), "chunk header inside a chunk")
	}
	return true, c.errf(c.off+int64(start), "reserved internal record type %d", t)
}

// errAt wraps err, found while decoding the payload of r with d, as a
// FormatError naming the file and the byte offset.
func (s *scanner) errAt(r *record, d *dec, err error) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return err
	}
	off := r.off
	if d != nil {
		off = r.poff + int64(d.at)
	}
	return &FormatError{File: s.c.name, Offset: off, Err: fmt.Errorf("record type %d: %w", r.typ, err)}
}
