package otf

import (
	"encoding/binary"
	"fmt"
	"io"
)

// chunkWriter writes an OTF2 buffer file: chunks of exactly size bytes
// (padded with END_OF_CHUNK), the last one ending with END_OF_FILE
// END_OF_BUFFER. In event mode it numbers the events in the chunk headers
// and starts every chunk with a TIMESTAMP record.
type chunkWriter struct {
	name   string
	w      io.Writer
	size   int
	be     bool
	events bool

	buf []byte // the unwritten part of the current chunk (from its header on, unless spilled)
	// spilled is the number of bytes of the current chunk already written
	// out by spill; its header is then patched with WriteAt when the chunk
	// is complete. chunkOff is the file offset of the current chunk.
	spilled  int
	chunkOff int64
	first    uint64 // number of the first event of the current chunk
	next     uint64 // number of the next event
	curTime  uint64 // time of the last TIMESTAMP in the current chunk
	haveTime bool
	err      error
	// Bytes counts what has been written to w.
	bytes int64
}

func newChunkWriter(name string, w io.Writer, size int, be, events bool, buf []byte) *chunkWriter {
	c := &chunkWriter{name: name, w: w, size: size, be: be, events: events, buf: buf[:0], next: 1}
	c.startChunk()
	return c
}

// continueAt makes a new writer go on after chunks written otherwise: its
// first event is event number next, and written bytes precede its first
// chunk in the file.
func (c *chunkWriter) continueAt(next uint64, written int64) {
	c.next, c.first = next, next
	c.chunkOff, c.bytes = written, written
}

func (c *chunkWriter) startChunk() {
	c.buf = c.buf[:0]
	c.buf = append(c.buf, recChunkHeader, markLittle)
	if c.be {
		c.buf[1] = markBig
	}
	c.buf = append(c.buf, make([]byte, 16)...)
	c.first = c.next
	c.haveTime = false
}

// header fills in the event numbers of a chunk header h (18 bytes).
func (c *chunkWriter) header(h []byte) {
	first, last := uint64(1), uint64(0)
	if c.events {
		first, last = c.first, c.next-1
	}
	if c.be {
		binary.BigEndian.PutUint64(h[2:], first)
		binary.BigEndian.PutUint64(h[10:], last)
	} else {
		binary.LittleEndian.PutUint64(h[2:], first)
		binary.LittleEndian.PutUint64(h[10:], last)
	}
}

// fill returns the number of bytes of the current chunk.
func (c *chunkWriter) fill() int { return c.spilled + len(c.buf) }

// endChunk writes what remains of the current chunk and puts its header
// right, in the buffer or, if the chunk was spilled, in the file.
func (c *chunkWriter) endChunk() {
	if c.spilled == 0 {
		c.header(c.buf)
		c.write(c.buf)
		return
	}
	c.write(c.buf)
	if c.err != nil {
		return
	}
	var h [chunkHeaderLen]byte
	h[0], h[1] = recChunkHeader, markLittle
	if c.be {
		h[1] = markBig
	}
	c.header(h[:])
	wa, ok := c.w.(io.WriterAt)
	if !ok {
		c.err = fmt.Errorf("otf2: writing %s: cannot patch a spilled chunk header", c.name)
		return
	}
	if _, err := wa.WriteAt(h[:], c.chunkOff); err != nil {
		c.err = fmt.Errorf("otf2: writing %s: %w", c.name, err)
	}
}

// spill writes the unwritten part of the current chunk out, so that it
// need not be kept in memory; the chunk goes on in the file.
func (c *chunkWriter) spill() {
	if len(c.buf) == 0 || c.err != nil {
		return
	}
	c.write(c.buf)
	c.spilled += len(c.buf)
	c.buf = nil
}

func (c *chunkWriter) write(b []byte) {
	if c.err != nil {
		return
	}
	n, err := c.w.Write(b)
	c.bytes += int64(n)
	if err != nil {
		c.err = fmt.Errorf("otf2: writing %s: %w", c.name, err)
	}
}

// flushChunk writes the current (full) chunk padded to the chunk size.
func (c *chunkWriter) flushChunk() {
	for c.fill() < c.size {
		c.buf = append(c.buf, recEndOfChunk)
	}
	c.endChunk()
	c.chunkOff += int64(c.size)
	c.spilled = 0
	c.startChunk()
}

// room makes sure n more bytes fit in the current chunk, leaving one byte
// for END_OF_CHUNK. It reports whether a new chunk was started.
func (c *chunkWriter) room(n int) (bool, error) {
	if chunkHeaderLen+n+1 > c.size {
		return false, fmt.Errorf("otf2: writing %s: a record of %d bytes does not fit in a chunk of %d bytes", c.name, n, c.size)
	}
	if c.fill()+n+1 > c.size {
		c.flushChunk()
		return true, c.err
	}
	return false, c.err
}

// reserve makes room in the buffer for about n more bytes, no more than
// the current chunk can still take, in one allocation (instead of
// doublings as records are appended).
func (c *chunkWriter) reserve(n int) {
	n = min(n, c.size-c.fill())
	if n <= 0 || cap(c.buf)-len(c.buf) >= n {
		return
	}
	b := make([]byte, len(c.buf), len(c.buf)+n)
	copy(b, c.buf)
	c.buf = b
}

// bytesPerEvent is the mean size of the events written so far (the chunk
// headers and padding included), or guess before the first.
func (c *chunkWriter) bytesPerEvent(guess int) int {
	if c.numEvents() == 0 {
		return guess
	}
	return int((c.bytes+int64(c.fill()))/int64(c.numEvents())) + 1
}

// recordLen returns the encoded size of a record with the given payload.
func recordLen(typ uint8, n int, events bool) int {
	if events && singleton(typ) {
		return 1 + n
	}
	if n < 0xFF {
		return 2 + n
	}
	return 10 + n
}

func (c *chunkWriter) appendRecord(typ uint8, payload []byte) {
	c.buf = append(c.buf, typ)
	if !(c.events && singleton(typ)) {
		if len(payload) < 0xFF {
			c.buf = append(c.buf, byte(len(payload)))
		} else {
			c.buf = append(c.buf, 0xFF)
			if c.be {
				c.buf = binary.BigEndian.AppendUint64(c.buf, uint64(len(payload)))
			} else {
				c.buf = binary.LittleEndian.AppendUint64(c.buf, uint64(len(payload)))
			}
		}
	}
	c.buf = append(c.buf, payload...)
}

// def writes a definition record.
func (c *chunkWriter) def(typ uint8, payload []byte) error {
	if _, err := c.room(recordLen(typ, len(payload), false)); err != nil {
		return err
	}
	c.appendRecord(typ, payload)
	return nil
}

// event writes an event record at time t, preceded by a TIMESTAMP if the
// time changed or the chunk is new, and by its attribute list (the payload
// of an ATTRIBUTE_LIST record) if attr is not nil.
func (c *chunkWriter) event(t uint64, attr []byte, typ uint8, payload []byte) error {
	n := 9 + recordLen(typ, len(payload), true)
	if attr != nil {
		n += recordLen(recAttributeList, len(attr), false)
	}
	if _, err := c.room(n); err != nil {
		return err
	}
	if !c.haveTime || t != c.curTime {
		c.buf = append(c.buf, recTimestamp)
		if c.be {
			c.buf = binary.BigEndian.AppendUint64(c.buf, t)
		} else {
			c.buf = binary.LittleEndian.AppendUint64(c.buf, t)
		}
		c.curTime = t
		c.haveTime = true
	}
	if attr != nil {
		c.appendRecord(recAttributeList, attr)
	}
	c.appendRecord(typ, payload)
	c.next++
	return nil
}

// events returns the number of events written.
func (c *chunkWriter) numEvents() uint64 { return c.next - 1 }

// close ends the file: END_OF_FILE END_OF_BUFFER after the last record.
func (c *chunkWriter) close() error {
	if c.fill()+2 > c.size {
		c.flushChunk()
	}
	c.buf = append(c.buf, recEndOfFile, recEndOfBuffer)
	c.endChunk()
	return c.err
}
