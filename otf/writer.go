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

	buf      []byte // current chunk, header included
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

func (c *chunkWriter) putHeader() {
	first, last := uint64(1), uint64(0)
	if c.events {
		first, last = c.first, c.next-1
	}
	if c.be {
		binary.BigEndian.PutUint64(c.buf[2:], first)
		binary.BigEndian.PutUint64(c.buf[10:], last)
	} else {
		binary.LittleEndian.PutUint64(c.buf[2:], first)
		binary.LittleEndian.PutUint64(c.buf[10:], last)
	}
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
	c.putHeader()
	for len(c.buf) < c.size {
		c.buf = append(c.buf, recEndOfChunk)
	}
	c.write(c.buf)
	c.startChunk()
}

// room makes sure n more bytes fit in the current chunk, leaving one byte
// for END_OF_CHUNK. It reports whether a new chunk was started.
func (c *chunkWriter) room(n int) (bool, error) {
	if chunkHeaderLen+n+1 > c.size {
		return false, fmt.Errorf("otf2: writing %s: a record of %d bytes does not fit in a chunk of %d bytes", c.name, n, c.size)
	}
	if len(c.buf)+n+1 > c.size {
		c.flushChunk()
		return true, c.err
	}
	return false, c.err
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
	if len(c.buf)+2 > c.size {
		c.flushChunk()
	}
	c.putHeader()
	c.buf = append(c.buf, recEndOfFile, recEndOfBuffer)
	c.write(c.buf)
	return c.err
}
