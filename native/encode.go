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

// This file turns events into the records of a raw block payload and raw
// payloads into stored blocks (docs/format.md, "Block" and "Records").

// maxFixedRecord bounds the encoded size of every record without data
// bytes: kind, dt and up to six 64-bit varints and a byte.
const maxFixedRecord = 64

// blockEncoder accumulates the raw records of one block of one stream.
type blockEncoder struct {
	buf  []byte // raw payload so far
	n    uint32 // events in buf
	prev int64  // time of the last event in buf (0 at the start of a block)
}

func (b *blockEncoder) reset() {
	b.buf = b.buf[:0]
	b.n = 0
	b.prev = 0
}

// refTracker remembers the largest region and, per communicator, the
// largest rank that a stream's events refer to, so a streaming writer can
// check them against the definitions at Close (which may still change while
// events are appended).
type refTracker struct {
	regions uint64 // largest region index + 1
	// needs maps a communicator to (largest rank referenced + 1), 0 if the
	// communicator is referenced without a rank.
	needs map[uint32]uint64
	// A one-entry cache in front of needs: most events use one communicator.
	lastComm uint32
	lastNeed uint64
	haveLast bool
	// threads is set once a thread record was encoded (the manifest must
	// then have version 3).
	threads bool
}

func (t *refTracker) region(r uint32) {
	if uint64(r) >= t.regions {
		t.regions = uint64(r) + 1
	}
}

// comm records a reference to communicator c, and to rank (rank+1 = need)
// within it when need > 0.
func (t *refTracker) comm(c uint32, need uint64) {
	if t.haveLast && c == t.lastComm {
		if need > t.lastNeed {
			t.lastNeed = need
		}
		return
	}
	t.spill()
	t.lastComm, t.lastNeed, t.haveLast = c, need, true
}

func (t *refTracker) spill() {
	if !t.haveLast {
		return
	}
	if t.needs == nil {
		t.needs = make(map[uint32]uint64)
	}
	if old, ok := t.needs[t.lastComm]; !ok || t.lastNeed > old {
		t.needs[t.lastComm] = t.lastNeed
	}
	t.haveLast = false
}

// check compares the references with the definitions.
func (t *refTracker) check(defs *trace.Trace) error {
	t.spill()
	if t.regions > uint64(len(defs.Regions)) {
		return fmt.Errorf("%w: region %d out of range (%d regions)", trace.ErrInvalid, t.regions-1, len(defs.Regions))
	}
	for c, need := range t.needs {
		if uint64(c) >= uint64(len(defs.Comms)) {
			return fmt.Errorf("%w: communicator %d out of range (%d communicators)", trace.ErrInvalid, c, len(defs.Comms))
		}
		if size := uint64(defs.Comms[c].Size()); need > size {
			return fmt.Errorf("%w: rank %d outside communicator %d of size %d", trace.ErrInvalid, need-1, c, size)
		}
	}
	return nil
}

// encodeError is an error about event Event of the Events being encoded.
type encodeError struct {
	event int
	err   error
}

func (e *encodeError) Error() string { return fmt.Sprintf("event %d: %v", e.event, e.err) }
func (e *encodeError) Unwrap() error { return e.err }

func zigzag(x int64) uint64 { return uint64(x<<1) ^ uint64(x>>63) }

// putUvarint writes x at b[0:] (which must have room) and returns the length.
func putUvarint(b []byte, x uint64) int {
	i := 0
	for x >= 0x80 {
		b[i] = byte(x) | 0x80
		x >>= 7
		i++
	}
	b[i] = byte(x)
	return i + 1
}

// room returns buf with capacity for at least need more bytes, growing
// geometrically but not far beyond limit unless need demands it.
func room(buf []byte, need, limit int) []byte {
	if cap(buf)-len(buf) >= need {
		return buf
	}
	c := 2 * cap(buf)
	if c < 512 {
		c = 512 // small: a trace may have very many locations with few events
	}
	if c > limit+maxFixedRecord {
		c = limit + maxFixedRecord
	}
	if c < len(buf)+need {
		c = len(buf) + need
	}
	nb := make([]byte, len(buf), c)
	copy(nb, buf)
	return nb
}

// encode appends the records of events ev[i:end] (and their attachments,
// from ev.Attach[*att] on) to the block, stopping once the block holds at
// least limit bytes or when the next event would not fit in a block at all
// together with what the block holds. It returns the index of the first
// event not encoded. Events must be in range; refs collects references for
// a later check against the definitions.
func (b *blockEncoder) encode(ev *trace.Events, i, end int, att *int, limit int, refs *refTracker) (int, error) {
	kinds, times, rs := ev.Kind, ev.Time, ev.Ref
	msgs, colls, reqs, opaque, attach := ev.Msgs, ev.Colls, ev.Reqs, ev.Opaque, ev.Attach
	buf, prev, n := b.buf, b.prev, b.n
	defer func() { b.buf, b.prev, b.n = buf, prev, n }()
	for ; i < end && len(buf) < limit; i++ {
		k := kinds[i]
		r := rs[i]
		// Records with data bytes: make sure the event and its attachments
		// fit in one block.
		hasAtt := *att < len(attach) && attach[*att].Event == uint32(i)
		if k == trace.KindOther || hasAtt {
			need := maxFixedRecord
			if k == trace.KindOther {
				if int(r) >= len(opaque) {
					return i, &encodeError{i, fmt.Errorf("other: opaque index %d out of range [0,%d)", r, len(opaque))}
				}
				need += len(opaque[r].Data)
			}
			for a := *att; a < len(attach) && attach[a].Event == uint32(i); a++ {
				need += 16 + len(attach[a].Data)
			}
			if need > maxBlockBytes {
				return i, &encodeError{i, fmt.Errorf("%s record with attachments needs %d bytes, more than a block's %d", k, need, maxBlockBytes)}
			}
			if len(buf) > 0 && len(buf)+need > maxBlockBytes {
				return i, nil // the caller flushes the block first
			}
			buf = room(buf, need, limit)
		} else if cap(buf)-len(buf) < maxFixedRecord {
			buf = room(buf, maxFixedRecord, limit)
		}
		t := times[i]
		p := len(buf)
		w := buf[p : p+maxFixedRecord]
		w[0] = byte(k)
		q := 1 + putUvarint(w[1:], zigzag(t-prev))
		switch k {
		case trace.KindEnter, trace.KindLeave:
			refs.region(r)
			q += putUvarint(w[q:], uint64(r))
		case trace.KindSend, trace.KindRecv, trace.KindIsend, trace.KindIrecv:
			if int(r) >= len(msgs) {
				return i, &encodeError{i, fmt.Errorf("%s: message index %d out of range [0,%d)", k, r, len(msgs))}
			}
			m := &msgs[r]
			refs.comm(m.Comm, uint64(m.Peer)+1)
			q += putUvarint(w[q:], uint64(m.Peer))
			q += putUvarint(w[q:], uint64(m.Comm))
			q += putUvarint(w[q:], uint64(m.Tag))
			q += putUvarint(w[q:], m.Bytes)
			if k == trace.KindIsend || k == trace.KindIrecv {
				q += putUvarint(w[q:], m.Request)
			}
		case trace.KindIsendComplete, trace.KindIrecvRequest, trace.KindRequestTest, trace.KindRequestCancelled, trace.KindNBCollRequest:
			if int(r) >= len(reqs) {
				return i, &encodeError{i, fmt.Errorf("%s: request index %d out of range [0,%d)", k, r, len(reqs))}
			}
			q += putUvarint(w[q:], reqs[r])
		case trace.KindCollBegin:
			// Ref is unused and not stored.
		case trace.KindCollEnd, trace.KindNBCollComplete:
			if int(r) >= len(colls) {
				return i, &encodeError{i, fmt.Errorf("%s: collective index %d out of range [0,%d)", k, r, len(colls))}
			}
			c := &colls[r]
			if c.Root == trace.NoRoot {
				refs.comm(c.Comm, 0)
			} else {
				refs.comm(c.Comm, uint64(c.Root)+1)
			}
			w[q] = byte(c.Op)
			q++
			q += putUvarint(w[q:], uint64(c.Comm))
			q += putUvarint(w[q:], uint64(c.Root+1))
			q += putUvarint(w[q:], c.Sent)
			q += putUvarint(w[q:], c.Received)
			if k == trace.KindNBCollComplete {
				q += putUvarint(w[q:], c.Request)
			}
		case trace.KindCommCreate, trace.KindCommDestroy:
			refs.comm(r, 0)
			q += putUvarint(w[q:], uint64(r))
		case trace.KindOther:
			o := &opaque[r]
			w[q] = o.Format
			q++
			q += putUvarint(w[q:], uint64(o.Type))
			q += putUvarint(w[q:], uint64(len(o.Data)))
			buf = append(buf[:p+q], o.Data...)
			p, q = len(buf), 0
		default:
			if !k.HasThread() {
				return i, &encodeError{i, fmt.Errorf("invalid kind %d", uint8(k))}
			}
			if int(r) >= len(ev.Threads) {
				return i, &encodeError{i, fmt.Errorf("%s: thread payload index %d out of range [0,%d)", k, r, len(ev.Threads))}
			}
			th := &ev.Threads[r]
			refs.threads = true
			if th.Team != trace.NoComm {
				refs.comm(th.Team, 0)
			}
			q += encodeThread(w[q:], th)
		}
		buf = buf[:p+q]
		prev = t
		n++
		for ; *att < len(attach) && attach[*att].Event == uint32(i); *att++ {
			a := &attach[*att]
			var h [1 + 1 + binary.MaxVarintLen64]byte
			h[0] = kindAttachment
			h[1] = a.Format
			hl := 2 + putUvarint(h[2:], uint64(len(a.Data)))
			buf = append(buf, h[:hl]...)
			buf = append(buf, a.Data...)
		}
		if *att < len(attach) && attach[*att].Event < uint32(i) {
			return i, &encodeError{i, fmt.Errorf("attachment %d refers to event %d: attachments out of order", *att, attach[*att].Event)}
		}
	}
	return i, nil
}

// threadLegacy is bit 0 of a thread record's flags byte: the event came
// from an OTF2 1.0 OpenMP record (trace.Thread.Legacy).
const threadLegacy = 1

// encodeThread writes the fields of a thread record after its dt (every
// thread kind has the same layout, docs/format.md) and returns the length:
// flags:u8 model:u8 team1:uv lock:uv order:uv threads:uv creator:uv
// generation:uv sequence:uv. At most 2 + 6·5 + 10 = 42 bytes.
func encodeThread(w []byte, th *trace.Thread) int {
	w[0] = 0
	if th.Legacy {
		w[0] = threadLegacy
	}
	w[1] = byte(th.Model)
	q := 2
	q += putUvarint(w[q:], uint64(th.Team+1))
	q += putUvarint(w[q:], uint64(th.Lock))
	q += putUvarint(w[q:], uint64(th.Order))
	q += putUvarint(w[q:], uint64(th.Threads))
	q += putUvarint(w[q:], uint64(th.Creator))
	q += putUvarint(w[q:], uint64(th.Generation))
	q += putUvarint(w[q:], th.Sequence)
	return q
}

// encodeAll encodes a whole Events as the records of one raw payload,
// without block limits (used by tests and the fuzz target).
func encodeAll(ev *trace.Events) ([]byte, error) {
	var b blockEncoder
	var refs refTracker
	att := 0
	i, err := b.encode(ev, 0, ev.Len(), &att, math.MaxInt-maxFixedRecord, &refs)
	if err != nil {
		return nil, err
	}
	if i != ev.Len() {
		return nil, errors.New("events do not fit in one block")
	}
	if att != len(ev.Attach) {
		return nil, fmt.Errorf("attachment %d refers to event %d, out of range", att, ev.Attach[att].Event)
	}
	return b.buf, nil
}

// sealBlock appends to out[:0] the block header and stored payload of the
// raw payload raw holding n events, compressing with enc when codec is
// CodecZstd and compression makes the block smaller.
func sealBlock(out []byte, enc *zstd.Encoder, codec Codec, raw []byte, n uint32) []byte {
	out = append(out[:0], make([]byte, blockHeaderSize)...)
	if codec == CodecZstd {
		out = enc.EncodeAll(raw, out)
		if len(out)-blockHeaderSize >= len(raw) {
			codec = CodecNone
		}
	}
	if codec == CodecNone {
		out = append(out[:blockHeaderSize], raw...)
	}
	h := out[:blockHeaderSize]
	copy(h[0:4], blockMagic[:])
	h[4] = byte(codec)
	h[5], h[6], h[7] = 0, 0, 0
	binary.LittleEndian.PutUint32(h[8:], uint32(len(out)-blockHeaderSize))
	binary.LittleEndian.PutUint32(h[12:], uint32(len(raw)))
	binary.LittleEndian.PutUint32(h[16:], n)
	crc := crc32.Update(0, castagnoli, h[:20])
	crc = crc32.Update(crc, castagnoli, out[blockHeaderSize:])
	binary.LittleEndian.PutUint32(h[20:], crc)
	return out
}

// streamHeader returns the 32-byte file header of location loc's stream.
func streamHeader(loc int) []byte {
	h := make([]byte, fileHeaderSize)
	copy(h[0:8], streamMagic[:])
	binary.LittleEndian.PutUint32(h[8:], streamVersion)
	binary.LittleEndian.PutUint64(h[16:], uint64(loc))
	binary.LittleEndian.PutUint32(h[28:], crc32.Checksum(h[:28], castagnoli))
	return h
}

// newEncoder returns the shared zstd encoder for a writer.
func newEncoder(level, parallel int) (*zstd.Encoder, error) {
	return zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.EncoderLevel(level)),
		zstd.WithEncoderConcurrency(parallel),
		zstd.WithEncoderCRC(false), // the block CRC covers the payload
	)
}
