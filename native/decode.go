package native

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/klauspost/compress/zstd"

	"github.com/clc-tools/clc/trace"
)

// This file decodes stored blocks into raw payloads and raw payloads into
// events (docs/format.md, "Block" and "Records").

// refLimits are the definitions decoded events are checked against.
type refLimits struct {
	regions  uint64
	commSize []uint64
	// noThreads rejects thread records (manifests before version 3).
	noThreads bool
}

// limitsOf returns the limits of the definitions t of a trace whose
// manifest has the given version.
func limitsOf(t *trace.Trace, version int) *refLimits {
	l := &refLimits{regions: uint64(len(t.Regions)), commSize: make([]uint64, len(t.Comms)), noThreads: version < nativeVersion3}
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
// varOverflow, varNonMin). A negative p is passed through, so a record's
// fields can be read in a row and checked once.
func uvarint(b []byte, p int) (uint64, int) {
	if uint(p) < uint(len(b)) && b[p] < 0x80 {
		return uint64(b[p]), p + 1
	}
	return uvarintSlow(b, p)
}

func uvarintSlow(b []byte, p int) (uint64, int) {
	if p < 0 {
		return 0, p
	}
	if p+1 < len(b) && b[p+1] < 0x80 && b[p+1] != 0 {
		return uint64(b[p]&0x7f) | uint64(b[p+1])<<7, p + 2
	}
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

// uvarints decodes len(v) varints in a row from b[p:] into v and returns
// the position after them, or -1 if any is malformed or runs past the end
// (the caller then reads the record again with uvarint to name the field).
func uvarints(b []byte, p int, v []uint64) int {
	for i := range v {
		var x uint64
		var s uint
		for {
			if p >= len(b) {
				return -1
			}
			c := b[p]
			p++
			if c < 0x80 {
				if (c == 0 && s > 0) || (s == 63 && c > 1) {
					return -1
				}
				x |= uint64(c) << s
				break
			}
			if s == 63 {
				return -1
			}
			x |= uint64(c&0x7f) << s
			s += 7
		}
		v[i] = x
	}
	return p
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
type eventsMark struct{ n, msgs, colls, reqs, threads, opaque, attach int }

func markOf(e *trace.Events) eventsMark {
	return eventsMark{len(e.Kind), len(e.Msgs), len(e.Colls), len(e.Reqs), len(e.Threads), len(e.Opaque), len(e.Attach)}
}

// truncate cuts e back to the lengths of m.
func (m eventsMark) truncate(e *trace.Events) {
	e.Kind, e.Time, e.Ref = e.Kind[:m.n], e.Time[:m.n], e.Ref[:m.n]
	e.Msgs, e.Colls, e.Reqs, e.Threads = e.Msgs[:m.msgs], e.Colls[:m.colls], e.Reqs[:m.reqs], e.Threads[:m.threads]
	e.Opaque, e.Attach = e.Opaque[:m.opaque], e.Attach[:m.attach]
}

// recDecoder reads the fields of records other than enter and leave (the
// hot path is inline in decodeRecords). The first failure is kept in err;
// later reads return 0 without advancing.
type recDecoder struct {
	raw       []byte
	p         int
	err       error
	check     bool
	noThreads bool
	commSize  []uint64
	msgs      []trace.Message
	colls     []trace.Collective
	reqs      []uint64
	threads   []trace.Thread
	opaque    []trace.Opaque
	ar        *arena
}

func (d *recDecoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
	d.p = len(d.raw)
}

func (d *recDecoder) u64(field string) uint64 {
	if d.err != nil {
		return 0
	}
	v, q := uvarint(d.raw, d.p)
	if q < 0 {
		d.fail(varintErr(q, field))
		return 0
	}
	d.p = q
	return v
}

func (d *recDecoder) u32(field string) uint32 {
	v := d.u64(field)
	if v > math.MaxUint32 {
		d.fail(fmt.Errorf("%s: %d does not fit 32 bits", field, v))
		return 0
	}
	return uint32(v)
}

func (d *recDecoder) byte1(field string) byte {
	if d.err != nil {
		return 0
	}
	if d.p >= len(d.raw) {
		d.fail(fmt.Errorf("%s: byte runs past the end of the block", field))
		return 0
	}
	d.p++
	return d.raw[d.p-1]
}

// data reads a length-prefixed byte string and copies it to the arena.
func (d *recDecoder) data(what string) []byte {
	l := d.u64(what + " length")
	if d.err != nil {
		return nil
	}
	if l > uint64(len(d.raw)-d.p) {
		d.fail(fmt.Errorf("%s: %d data bytes run past the end of the block (%d left)", what, l, len(d.raw)-d.p))
		return nil
	}
	b := d.ar.copy(d.raw[d.p : d.p+int(l)])
	d.p += int(l)
	return b
}

// commRank checks a communicator and (if rank1 > 0) rank rank1-1 in it.
func (d *recDecoder) commRank(k trace.Kind, comm uint32, rank1 uint64, what string) {
	if !d.check || d.err != nil {
		return
	}
	if uint64(comm) >= uint64(len(d.commSize)) {
		d.fail(fmt.Errorf("%w: %s: communicator %d out of range (%d communicators)", trace.ErrInvalid, k, comm, len(d.commSize)))
	} else if rank1 > d.commSize[comm] {
		d.fail(fmt.Errorf("%w: %s: %s rank %d outside communicator %d of size %d", trace.ErrInvalid, k, what, rank1-1, comm, d.commSize[comm]))
	}
}

// payload reads the fields of a record of kind k (not enter or leave) and
// returns the event's Ref.
func (d *recDecoder) payload(k trace.Kind) uint32 {
	switch k {
	case trace.KindSend, trace.KindRecv, trace.KindIsend, trace.KindIrecv:
		var m trace.Message
		m.Peer = d.u32("peer")
		m.Comm = d.u32("comm")
		m.Tag = d.u32("tag")
		m.Bytes = d.u64("bytes")
		if k == trace.KindIsend || k == trace.KindIrecv {
			m.Request = d.u64("request")
		}
		d.commRank(k, m.Comm, uint64(m.Peer)+1, "peer")
		d.msgs = append(d.msgs, m)
		return uint32(len(d.msgs) - 1)
	case trace.KindIsendComplete, trace.KindIrecvRequest, trace.KindRequestTest, trace.KindRequestCancelled, trace.KindNBCollRequest:
		d.reqs = append(d.reqs, d.u64("request"))
		return uint32(len(d.reqs) - 1)
	case trace.KindCollBegin:
		return 0
	case trace.KindCollEnd, trace.KindNBCollComplete:
		var c trace.Collective
		c.Op = trace.CollOp(d.byte1("op"))
		c.Comm = d.u32("comm")
		root1 := d.u32("root1")
		c.Root = root1 - 1
		c.Sent = d.u64("sent")
		c.Received = d.u64("received")
		if k == trace.KindNBCollComplete {
			c.Request = d.u64("request")
		}
		d.commRank(k, c.Comm, uint64(root1), "root")
		d.colls = append(d.colls, c)
		return uint32(len(d.colls) - 1)
	case trace.KindCommCreate, trace.KindCommDestroy:
		c := d.u32("comm")
		d.commRank(k, c, 0, "")
		return c
	case trace.KindOther:
		var o trace.Opaque
		o.Format = d.byte1("format")
		o.Type = d.u32("type")
		o.Data = d.data("other")
		d.opaque = append(d.opaque, o)
		return uint32(len(d.opaque) - 1)
	default:
		if k.HasThread() {
			return d.thread(k)
		}
	}
	d.fail(fmt.Errorf("unknown record kind %d", uint8(k)))
	return 0
}

// thread reads the fields of a thread record of kind k (k.HasThread()) and
// returns the event's Ref.
func (d *recDecoder) thread(k trace.Kind) uint32 {
	if d.noThreads {
		d.fail(fmt.Errorf("%s record in a trace whose manifest has a version below %d", k, nativeVersion3))
		return 0
	}
	var th trace.Thread
	flags := d.byte1("flags")
	if flags&^threadLegacy != 0 {
		d.fail(fmt.Errorf("%s: unknown flags %#x", k, flags))
		return 0
	}
	th.Legacy = flags&threadLegacy != 0
	th.Model = trace.Paradigm(d.byte1("model"))
	th.Team = d.u32("team1") - 1
	th.Lock = d.u32("lock")
	th.Order = d.u32("order")
	th.Threads = d.u32("threads")
	th.Creator = d.u32("creator")
	th.Generation = d.u32("generation")
	th.Sequence = d.u64("sequence")
	if th.Team != trace.NoComm {
		d.commRank(k, th.Team, 0, "")
	}
	d.threads = append(d.threads, th)
	return uint32(len(d.threads) - 1)
}

// decodeRecords decodes the raw payload of a block holding n events,
// appending them to dst, with every reference checked against lim (nil: no
// checks). On error dst holds a prefix of the block's events and the error
// is a *decodeError.
func decodeRecords(raw []byte, n int, dst *trace.Events, lim *refLimits, ar *arena) error {
	dst.Grow(n)
	base := len(dst.Kind)
	// Write the columns by index within the capacity Grow made.
	kinds, times, refs := dst.Kind[base:base+n], dst.Time[base:base+n], dst.Ref[base:base+n]
	d := recDecoder{raw: raw, msgs: dst.Msgs, colls: dst.Colls, reqs: dst.Reqs, threads: dst.Threads, opaque: dst.Opaque, ar: ar}
	attach := dst.Attach
	regions := uint64(1) << 32 // unchecked: any 32-bit value
	if lim != nil {
		d.check, d.commSize, regions, d.noThreads = true, lim.commSize, lim.regions, lim.noThreads
	}
	var prev int64
	cnt, p, start := 0, 0, 0
	defer func() {
		dst.Kind, dst.Time, dst.Ref = dst.Kind[:base+cnt], dst.Time[:base+cnt], dst.Ref[:base+cnt]
		dst.Msgs, dst.Colls, dst.Reqs, dst.Threads, dst.Opaque, dst.Attach = d.msgs, d.colls, d.reqs, d.threads, d.opaque, attach
	}()
	fail := func(err error) error { return &decodeError{off: start, event: cnt, err: err} }
	for p < len(raw) {
		start = p
		k := trace.Kind(raw[p])
		p++
		if k == kindAttachment {
			if cnt == 0 {
				return fail(errors.New("attachment before the first event of its block"))
			}
			d.p = p
			format := d.byte1("attachment format")
			data := d.data("attachment")
			if d.err != nil {
				return fail(d.err)
			}
			p = d.p
			attach = append(attach, trace.Attachment{Event: uint32(base + cnt - 1), Format: format, Data: data})
			continue
		}
		if cnt == n {
			return fail(fmt.Errorf("more records than the %d events the block header declares", n))
		}
		// dt, with its common one- and two-byte forms inline.
		var ux uint64
		if p < len(raw) && raw[p] < 0x80 {
			ux = uint64(raw[p])
			p++
		} else if p+1 < len(raw) && raw[p+1] < 0x80 && raw[p+1] != 0 {
			ux = uint64(raw[p]&0x7f) | uint64(raw[p+1])<<7
			p += 2
		} else if ux, p = uvarintSlow(raw, p); p < 0 {
			return fail(varintErr(p, "dt"))
		}
		t := prev + (int64(ux>>1) ^ -int64(ux&1))
		// Fast paths for the common kinds read the fields without naming
		// them; on any problem the record is read again by d.payload (or
		// below), which names the field.
		var ref uint32
		switch k {
		case trace.KindEnter, trace.KindLeave:
			var v uint64
			q := p + 1
			if p < len(raw) && raw[p] < 0x80 {
				v = uint64(raw[p])
			} else if v, q = uvarintSlow(raw, p); q < 0 {
				return fail(varintErr(q, "region"))
			}
			if v >= regions {
				if v > math.MaxUint32 {
					return fail(fmt.Errorf("region: %d does not fit 32 bits", v))
				}
				return fail(fmt.Errorf("%w: %s: region %d out of range (%d regions)", trace.ErrInvalid, k, v, regions))
			}
			ref, p = uint32(v), q
			goto store
		case trace.KindSend, trace.KindRecv, trace.KindIsend, trace.KindIrecv:
			var f [5]uint64 // peer, comm, tag, bytes, request
			nf := 4
			if k == trace.KindIsend || k == trace.KindIrecv {
				nf = 5
			}
			q := uvarints(raw, p, f[:nf])
			peer, comm := f[0], f[1]
			if q < 0 || peer|comm|f[2] > math.MaxUint32 {
				break
			}
			if d.check && (comm >= uint64(len(d.commSize)) || peer >= d.commSize[comm]) {
				break
			}
			ref, p = uint32(len(d.msgs)), q
			d.msgs = append(d.msgs, trace.Message{Peer: uint32(peer), Comm: uint32(comm), Tag: uint32(f[2]), Bytes: f[3], Request: f[4]})
			goto store
		case trace.KindIsendComplete, trace.KindIrecvRequest, trace.KindRequestTest, trace.KindRequestCancelled, trace.KindNBCollRequest:
			var f [1]uint64
			q := uvarints(raw, p, f[:])
			if q < 0 {
				break
			}
			ref, p = uint32(len(d.reqs)), q
			d.reqs = append(d.reqs, f[0])
			goto store
		case trace.KindCollBegin:
			goto store
		}
		d.p = p
		ref = d.payload(k)
		if d.err != nil {
			return fail(d.err)
		}
		p = d.p
	store:
		kinds[cnt], times[cnt], refs[cnt] = k, t, ref
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

// checkStreamHeader checks the stream header of location loc, of a
// per-location file or (bundled) of an extent.
func checkStreamHeader(h []byte, loc int, bundled bool) error {
	if [8]byte(h[0:8]) != streamMagic {
		return fmt.Errorf("bad stream magic % x", h[0:8])
	}
	if got := crc32.Checksum(h[:28], castagnoli); got != binary.LittleEndian.Uint32(h[28:]) {
		return fmt.Errorf("%w: file header CRC %08x, computed %08x", ErrChecksum, binary.LittleEndian.Uint32(h[28:]), got)
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != streamVersion {
		return fmt.Errorf("stream version %d, this reader reads version %d", v, streamVersion)
	}
	if f := binary.LittleEndian.Uint32(h[12:]); f != 0 {
		return fmt.Errorf("unknown stream flags %#x", f)
	}
	if l := binary.LittleEndian.Uint64(h[16:]); l != uint64(loc) {
		if bundled {
			return fmt.Errorf("stream header says location %d, the manifest's extent is location %d's", l, loc)
		}
		return fmt.Errorf("stream header says location %d, file name says %d", l, loc)
	}
	if r := binary.LittleEndian.Uint32(h[24:]); r != 0 {
		return fmt.Errorf("reserved header field %#x not zero", r)
	}
	return nil
}
