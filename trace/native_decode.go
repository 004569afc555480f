package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/klauspost/compress/zstd"
)

// This file decodes stored blocks into raw payloads and raw payloads into
// events (docs/format.md, "Block" and "Records").

// refLimits are the definitions decoded events are checked against.
type refLimits struct {
	regions  uint64
	commSize []uint64
}

func limitsOf(t *Trace) *refLimits {
	l := &refLimits{regions: uint64(len(t.Regions)), commSize: make([]uint64, len(t.Comms))}
	for i := range t.Comms {
		l.commSize[i] = uint64(t.Comms[i].Size())
	}
	return l
}

// decodeError is an error at raw byte offset off of a block payload, about
// the event with index event within the block (-1 if none).
type decodeError struct {
	off   int
	event int
	err   error
}

func (e *decodeError) Error() string {
	return fmt.Sprintf("event %d of block, raw offset %d: %v", e.event, e.off, e.err)
}
func (e *decodeError) Unwrap() error { return e.err }

// Varint failures, as negative positions returned by uvarint.
const (
	varTruncated = -1
	varOverflow  = -2
	varNonMin    = -3
)

func varintErr(code int, field string) error {
	switch code {
	case varTruncated:
		return fmt.Errorf("%s: varint runs past the end of the block", field)
	case varOverflow:
		return fmt.Errorf("%s: varint longer than 64 bits", field)
	case varNonMin:
		return fmt.Errorf("%s: varint not in its shortest form", field)
	}
	return fmt.Errorf("%s: bad varint", field)
}

// uvarint decodes an unsigned LEB128 varint at b[p:], returning the value
// and the position after it, or a negative position (varTruncated,
// varOverflow, varNonMin).
func uvarint(b []byte, p int) (uint64, int) {
	if p < len(b) && b[p] < 0x80 {
		return uint64(b[p]), p + 1
	}
	return uvarintSlow(b, p)
}

func uvarintSlow(b []byte, p int) (uint64, int) {
	var x uint64
	var s uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if p+i >= len(b) {
			return 0, varTruncated
		}
		c := b[p+i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, varOverflow
			}
			if i > 0 && c == 0 {
				return 0, varNonMin
			}
			return x | uint64(c)<<s, p + i + 1
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, varOverflow
}

// arena hands out copies of small byte strings from shared chunks so that
// decoding opaque records and attachments does not allocate per record.
type arena struct{ buf []byte }

const (
	arenaChunk = 64 << 10
	arenaLarge = 4 << 10
)

func (a *arena) copy(d []byte) []byte {
	if len(d) == 0 {
		return nil
	}
	if len(d) > arenaLarge {
		return append([]byte(nil), d...)
	}
	if cap(a.buf)-len(a.buf) < len(d) {
		a.buf = make([]byte, 0, arenaChunk)
	}
	p := len(a.buf)
	a.buf = append(a.buf, d...)
	return a.buf[p : p+len(d) : p+len(d)]
}

// eventsMark records the lengths of an Events' columns and tables.
type eventsMark struct{ n, msgs, colls, reqs, opaque, attach int }

func markOf(e *Events) eventsMark {
	return eventsMark{len(e.Kind), len(e.Msgs), len(e.Colls), len(e.Reqs), len(e.Opaque), len(e.Attach)}
}

// truncate cuts e back to the lengths of m.
func (m eventsMark) truncate(e *Events) {
	e.Kind, e.Time, e.Ref = e.Kind[:m.n], e.Time[:m.n], e.Ref[:m.n]
	e.Msgs, e.Colls, e.Reqs = e.Msgs[:m.msgs], e.Colls[:m.colls], e.Reqs[:m.reqs]
	e.Opaque, e.Attach = e.Opaque[:m.opaque], e.Attach[:m.attach]
}

// decodeRecords decodes the raw payload of a block holding n events,
// appending them to dst, with every reference checked against lim (nil: no
// checks). On error dst holds a prefix of the block's events and the error
// is a *decodeError.
func decodeRecords(raw []byte, n int, dst *Events, lim *refLimits, ar *arena) error {
	dst.Grow(n)
	base := len(dst.Kind)
	kinds, times, refs := dst.Kind, dst.Time, dst.Ref
	msgs, colls, reqs, opaque, attach := dst.Msgs, dst.Colls, dst.Reqs, dst.Opaque, dst.Attach
	defer func() {
		dst.Kind, dst.Time, dst.Ref = kinds, times, refs
		dst.Msgs, dst.Colls, dst.Reqs, dst.Opaque, dst.Attach = msgs, colls, reqs, opaque, attach
	}()
	var regions uint64 = math.MaxUint64
	var commSize []uint64
	check := lim != nil
	if check {
		regions, commSize = lim.regions, lim.commSize
	}
	var prev int64
	cnt := 0
	p := 0
	// fail builds the error for the record starting at start.
	var start int
	fail := func(err error) error { return &decodeError{off: start, event: cnt, err: err} }
	badVar := func(code int, field string) error { return fail(varintErr(code, field)) }
	// u32 reads a varint that must fit 32 bits.
	u32 := func(field string) (uint32, error) {
		v, q := uvarint(raw, p)
		if q < 0 {
			return 0, badVar(q, field)
		}
		if v > math.MaxUint32 {
			return 0, fail(fmt.Errorf("%s: %d does not fit 32 bits", field, v))
		}
		p = q
		return uint32(v), nil
	}
	u64 := func(field string) (uint64, error) {
		v, q := uvarint(raw, p)
		if q < 0 {
			return 0, badVar(q, field)
		}
		p = q
		return v, nil
	}
	// commRank checks a communicator and (if rank1 > 0) rank rank1-1 in it.
	commRank := func(k Kind, comm uint32, rank1 uint64, what string) error {
		if !check {
			return nil
		}
		if uint64(comm) >= uint64(len(commSize)) {
			return fail(fmt.Errorf("%w: %s: communicator %d out of range (%d communicators)", ErrInvalid, k, comm, len(commSize)))
		}
		if rank1 > commSize[comm] {
			return fail(fmt.Errorf("%w: %s: %s rank %d outside communicator %d of size %d", ErrInvalid, k, what, rank1-1, comm, commSize[comm]))
		}
		return nil
	}
	for p < len(raw) {
		start = p
		k := Kind(raw[p])
		p++
		if k == kindAttachment {
			if cnt == 0 {
				return fail(errors.New("attachment before the first event of its block"))
			}
			if p >= len(raw) {
				return fail(errors.New("attachment: format byte runs past the end of the block"))
			}
			format := raw[p]
			p++
			l, err := u64("attachment length")
			if err != nil {
				return err
			}
			if l > uint64(len(raw)-p) {
				return fail(fmt.Errorf("attachment: %d data bytes run past the end of the block (%d left)", l, len(raw)-p))
			}
			attach = append(attach, Attachment{Event: uint32(base + cnt - 1), Format: format, Data: ar.copy(raw[p : p+int(l)])})
			p += int(l)
			continue
		}
		if cnt == n {
			return fail(fmt.Errorf("more records than the %d events the block header declares", n))
		}
		ux, q := uvarint(raw, p)
		if q < 0 {
			return badVar(q, "dt")
		}
		p = q
		dt := int64(ux >> 1)
		if ux&1 != 0 {
			dt = ^dt
		}
		t := prev + dt
		var ref uint32
		switch k {
		case KindEnter, KindLeave:
			r, err := u32("region")
			if err != nil {
				return err
			}
			if uint64(r) >= regions {
				return fail(fmt.Errorf("%w: %s: region %d out of range (%d regions)", ErrInvalid, k, r, regions))
			}
			ref = r
		case KindSend, KindRecv, KindIsend, KindIrecv:
			var m Message
			var err error
			if m.Peer, err = u32("peer"); err != nil {
				return err
			}
			if m.Comm, err = u32("comm"); err != nil {
				return err
			}
			if m.Tag, err = u32("tag"); err != nil {
				return err
			}
			if m.Bytes, err = u64("bytes"); err != nil {
				return err
			}
			if k == KindIsend || k == KindIrecv {
				if m.Request, err = u64("request"); err != nil {
					return err
				}
			}
			if err := commRank(k, m.Comm, uint64(m.Peer)+1, "peer"); err != nil {
				return err
			}
			ref = uint32(len(msgs))
			msgs = append(msgs, m)
		case KindIsendComplete, KindIrecvRequest, KindRequestTest, KindRequestCancelled, KindNBCollRequest:
			r, err := u64("request")
			if err != nil {
				return err
			}
			ref = uint32(len(reqs))
			reqs = append(reqs, r)
		case KindCollBegin:
		case KindCollEnd, KindNBCollComplete:
			var c Collective
			if p >= len(raw) {
				return fail(errors.New("op byte runs past the end of the block"))
			}
			c.Op = CollOp(raw[p])
			p++
			var err error
			if c.Comm, err = u32("comm"); err != nil {
				return err
			}
			root1, err := u32("root1")
			if err != nil {
				return err
			}
			c.Root = root1 - 1
			if c.Sent, err = u64("sent"); err != nil {
				return err
			}
			if c.Received, err = u64("received"); err != nil {
				return err
			}
			if k == KindNBCollComplete {
				if c.Request, err = u64("request"); err != nil {
					return err
				}
			}
			if err := commRank(k, c.Comm, uint64(root1), "root"); err != nil {
				return err
			}
			ref = uint32(len(colls))
			colls = append(colls, c)
		case KindCommCreate, KindCommDestroy:
			r, err := u32("comm")
			if err != nil {
				return err
			}
			if err := commRank(k, r, 0, ""); err != nil {
				return err
			}
			ref = r
		case KindOther:
			if p >= len(raw) {
				return fail(errors.New("other: format byte runs past the end of the block"))
			}
			var o Opaque
			o.Format = raw[p]
			p++
			var err error
			if o.Type, err = u32("type"); err != nil {
				return err
			}
			l, err := u64("length")
			if err != nil {
				return err
			}
			if l > uint64(len(raw)-p) {
				return fail(fmt.Errorf("other: %d data bytes run past the end of the block (%d left)", l, len(raw)-p))
			}
			o.Data = ar.copy(raw[p : p+int(l)])
			p += int(l)
			ref = uint32(len(opaque))
			opaque = append(opaque, o)
		default:
			return fail(fmt.Errorf("unknown record kind %d", uint8(k)))
		}
		kinds = append(kinds, k)
		times = append(times, t)
		refs = append(refs, ref)
		prev = t
		cnt++
	}
	if cnt != n {
		start = len(raw)
		return fail(fmt.Errorf("block holds %d events, its header declares %d", cnt, n))
	}
	return nil
}

// blockHeader is a parsed block header.
type blockHeader struct {
	codec  Codec
	stored uint32 // S
	raw    uint32 // R
	n      uint32 // N
	crc    uint32
}

// parseBlockHeader checks everything in a block header that does not need
// the payload.
func parseBlockHeader(h []byte) (blockHeader, error) {
	var bh blockHeader
	if [4]byte(h[0:4]) != blockMagic {
		return bh, fmt.Errorf("bad block magic % x", h[0:4])
	}
	bh.codec = Codec(h[4])
	if bh.codec != CodecNone && bh.codec != CodecZstd {
		return bh, fmt.Errorf("unknown codec %d", h[4])
	}
	if h[5] != 0 || h[6] != 0 || h[7] != 0 {
		return bh, fmt.Errorf("reserved header bytes % x not zero", h[5:8])
	}
	bh.stored = binary.LittleEndian.Uint32(h[8:])
	bh.raw = binary.LittleEndian.Uint32(h[12:])
	bh.n = binary.LittleEndian.Uint32(h[16:])
	bh.crc = binary.LittleEndian.Uint32(h[20:])
	switch {
	case bh.stored > maxBlockBytes:
		return bh, fmt.Errorf("stored length %d exceeds %d", bh.stored, maxBlockBytes)
	case bh.raw > maxBlockBytes:
		return bh, fmt.Errorf("raw length %d exceeds %d", bh.raw, maxBlockBytes)
	case bh.codec == CodecNone && bh.stored != bh.raw:
		return bh, fmt.Errorf("codec none with stored length %d != raw length %d", bh.stored, bh.raw)
	case bh.n == 0:
		return bh, errors.New("block with 0 events")
	case uint64(bh.n)*2 > uint64(bh.raw):
		return bh, fmt.Errorf("%d events cannot fit in %d raw bytes", bh.n, bh.raw)
	}
	return bh, nil
}

// blockCRC computes a block's CRC over its header's first 20 bytes and its
// stored payload.
func blockCRC(h, stored []byte) uint32 {
	return crc32.Update(crc32.Update(0, castagnoli, h[:20]), castagnoli, stored)
}

// unpackBlock checks the CRC of a block and returns its raw payload,
// decompressing into rawBuf (grown as needed) with dec.
func unpackBlock(bh blockHeader, h, stored []byte, dec *zstd.Decoder, rawBuf []byte) ([]byte, error) {
	if got := blockCRC(h, stored); got != bh.crc {
		return rawBuf, fmt.Errorf("%w: block CRC %08x, computed %08x", ErrChecksum, bh.crc, got)
	}
	if bh.codec == CodecNone {
		return stored, nil
	}
	if cap(rawBuf) < int(bh.raw) {
		rawBuf = make([]byte, 0, bh.raw)
	}
	out, err := dec.DecodeAll(stored, rawBuf[:0:bh.raw])
	if err != nil {
		return rawBuf, fmt.Errorf("zstd: %w", err)
	}
	if len(out) != int(bh.raw) {
		return rawBuf, fmt.Errorf("zstd payload decompresses to %d bytes, header says %d", len(out), bh.raw)
	}
	return out, nil
}

// newDecoder returns the shared zstd decoder of a reader.
func newDecoder(parallel int) (*zstd.Decoder, error) {
	return zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(parallel),
		zstd.WithDecoderMaxMemory(maxBlockBytes),
		zstd.WithDecoderMaxWindow(maxBlockBytes),
		zstd.WithDecodeAllCapLimit(true),
	)
}

// checkStreamHeader checks a stream file header for location loc.
func checkStreamHeader(h []byte, loc int) error {
	if [8]byte(h[0:8]) != streamMagic {
		return fmt.Errorf("bad stream magic % x", h[0:8])
	}
	if got := crc32.Checksum(h[:28], castagnoli); got != binary.LittleEndian.Uint32(h[28:]) {
		return fmt.Errorf("%w: file header CRC %08x, computed %08x", ErrChecksum, binary.LittleEndian.Uint32(h[28:]), got)
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != NativeVersion {
		return fmt.Errorf("stream version %d, this reader reads version %d", v, NativeVersion)
	}
	if f := binary.LittleEndian.Uint32(h[12:]); f != 0 {
		return fmt.Errorf("unknown stream flags %#x", f)
	}
	if l := binary.LittleEndian.Uint64(h[16:]); l != uint64(loc) {
		return fmt.Errorf("stream header says location %d, file name says %d", l, loc)
	}
	if r := binary.LittleEndian.Uint32(h[24:]); r != 0 {
		return fmt.Errorf("reserved header field %#x not zero", r)
	}
	return nil
}
