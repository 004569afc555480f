package otf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
)

// Internal record types shared by every buffer.
const (
	recEndOfChunk    = 0
	recEndOfBuffer   = 1
	recEndOfFile     = 2
	recChunkHeader   = 3
	recTimestamp     = 5
	recAttributeList = 6
)

// Byte-order marks of a chunk header.
const (
	markLittle = 0x42
	markBig    = 0x23
)

// chunkHeaderLen is the size of a chunk header: type, byte order, first and
// last event number.
const chunkHeaderLen = 18

// undefined32 and undefined64 are OTF2's "undefined" reference values.
const (
	undefined32 = math.MaxUint32
	undefined64 = math.MaxUint64
)

// FormatError reports malformed OTF2 input: the file (relative to the
// archive's directory) and the byte offset where the problem was found.
type FormatError struct {
	File   string
	Offset int64
	Err    error
}

// Error returns "otf2: FILE: byte offset N: problem".
func (e *FormatError) Error() string {
	return fmt.Sprintf("otf2: %s: byte offset %d: %v", e.File, e.Offset, e.Err)
}

// Unwrap returns the underlying error (which wraps ErrFormat).
func (e *FormatError) Unwrap() error { return e.Err }

// ErrFormat is wrapped by every FormatError about malformed input.
var ErrFormat = errors.New("malformed OTF2 data")

// detail returns the message of an error wrapping ErrFormat without the
// "malformed OTF2 data: " prefix, for errors that wrap it again.
func detail(err error) string {
	return strings.TrimPrefix(err.Error(), ErrFormat.Error()+": ")
}

// errShort is the error of a read past the end of a record or chunk.
var errShort = fmt.Errorf("%w: unexpected end of data", ErrFormat)

// dec decodes primitive values from a byte slice in a given byte order.
// Errors are sticky: after the first one every read returns zero and err
// keeps the first error and the position where it happened.
type dec struct {
	b   []byte
	p   int
	be  bool
	err error
	at  int
}

func (d *dec) fail(err error) {
	if d.err == nil {
		d.err = err
		d.at = d.p
	}
	d.p = len(d.b)
}

func (d *dec) failf(format string, args ...any) {
	d.fail(fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...))
}

func (d *dec) left() int { return len(d.b) - d.p }

func (d *dec) u8() uint8 {
	if d.p >= len(d.b) {
		d.fail(errShort)
		return 0
	}
	v := d.b[d.p]
	d.p++
	return v
}

func (d *dec) u32full() uint32 {
	if d.p+4 > len(d.b) {
		d.fail(errShort)
		return 0
	}
	var v uint32
	if d.be {
		v = binary.BigEndian.Uint32(d.b[d.p:])
	} else {
		v = binary.LittleEndian.Uint32(d.b[d.p:])
	}
	d.p += 4
	return v
}

func (d *dec) u64full() uint64 {
	if d.p+8 > len(d.b) {
		d.fail(errShort)
		return 0
	}
	var v uint64
	if d.be {
		v = binary.BigEndian.Uint64(d.b[d.p:])
	} else {
		v = binary.LittleEndian.Uint64(d.b[d.p:])
	}
	d.p += 8
	return v
}

func (d *dec) f64() float64 { return math.Float64frombits(d.u64full()) }

// uc decodes a compressed unsigned integer of at most max bytes (4 or 8).
func (d *dec) uc(max int) uint64 {
	// Fast path: little-endian, zero or one value byte.
	if p := d.p; !d.be && p+1 < len(d.b) {
		switch d.b[p] {
		case 0:
			d.p = p + 1
			return 0
		case 1:
			d.p = p + 2
			return uint64(d.b[p+1])
		}
	}
	v, n, err := readCompressed(d.b, d.p, max, d.be)
	if err != nil {
		d.fail(err)
		return 0
	}
	d.p = n
	return v
}

func (d *dec) u32c() uint32 { return uint32(d.uc(4)) }
func (d *dec) u64c() uint64 { return d.uc(8) }
func (d *dec) i64c() int64  { return int64(d.uc(8)) }

// str decodes a NUL-terminated string.
func (d *dec) str() string {
	for i := d.p; i < len(d.b); i++ {
		if d.b[i] == 0 {
			s := string(d.b[d.p:i])
			d.p = i + 1
			return s
		}
	}
	d.failf("string without terminating NUL")
	return ""
}

// readCompressed decodes a compressed integer at b[p:]: a size byte n (0 =
// zero, 0xFF = all ones), then the n low-order bytes in the buffer's byte
// order. It returns the value and the position after it.
func readCompressed(b []byte, p, max int, be bool) (uint64, int, error) {
	if p >= len(b) {
		return 0, p, errShort
	}
	n := int(b[p])
	switch {
	case n == 0:
		return 0, p + 1, nil
	case n == 0xFF:
		if max == 4 {
			return undefined32, p + 1, nil
		}
		return undefined64, p + 1, nil
	case n > max:
		return 0, p, fmt.Errorf("%w: compressed integer of %d bytes, at most %d allowed", ErrFormat, n, max)
	}
	if p+1+n > len(b) {
		return 0, p, errShort
	}
	var v uint64
	if be {
		for _, c := range b[p+1 : p+1+n] {
			v = v<<8 | uint64(c)
		}
	} else if p+9 <= len(b) {
		v = binary.LittleEndian.Uint64(b[p+1:]) & (1<<(8*uint(n)) - 1)
		if n == 8 {
			v = binary.LittleEndian.Uint64(b[p+1:])
		}
	} else {
		for i := n - 1; i >= 0; i-- {
			v = v<<8 | uint64(b[p+1+i])
		}
	}
	return v, p + 1 + n, nil
}

// enc appends primitive values to a byte slice in a given byte order.
type enc struct {
	b  []byte
	be bool
}

func (e *enc) u8(v uint8) { e.b = append(e.b, v) }

func (e *enc) u32full(v uint32) {
	if e.be {
		e.b = binary.BigEndian.AppendUint32(e.b, v)
	} else {
		e.b = binary.LittleEndian.AppendUint32(e.b, v)
	}
}

func (e *enc) u64full(v uint64) {
	if e.be {
		e.b = binary.BigEndian.AppendUint64(e.b, v)
	} else {
		e.b = binary.LittleEndian.AppendUint64(e.b, v)
	}
}

func (e *enc) f64(v float64) { e.u64full(math.Float64bits(v)) }

func (e *enc) u32c(v uint32) {
	if v == undefined32 {
		e.b = append(e.b, 0xFF)
		return
	}
	e.b = appendCompressed(e.b, uint64(v), e.be)
}

func (e *enc) u64c(v uint64) {
	if v == undefined64 {
		e.b = append(e.b, 0xFF)
		return
	}
	e.b = appendCompressed(e.b, v, e.be)
}

// i64c encodes a compressed signed integer as its unsigned bit pattern:
// negative values take all 8 bytes (−1 the 0xFF form).
func (e *enc) i64c(v int64) { e.u64c(uint64(v)) }

func (e *enc) str(s string) {
	e.b = append(e.b, s...)
	e.b = append(e.b, 0)
}

// appendCompressed appends v as a size byte and its low-order bytes. It
// never produces the 0xFF "all ones" form: callers handle undefined values.
func appendCompressed(b []byte, v uint64, be bool) []byte {
	if v == 0 {
		return append(b, 0)
	}
	n := (bitsLen(v) + 7) / 8
	b = append(b, byte(n))
	if be {
		for i := n - 1; i >= 0; i-- {
			b = append(b, byte(v>>(8*uint(i))))
		}
		return b
	}
	for i := 0; i < n; i++ {
		b = append(b, byte(v>>(8*uint(i))))
	}
	return b
}

func bitsLen(v uint64) int { return bits.Len64(v) }
