package otf

import (
	"encoding/binary"
)

// The rewrite's fast path: a chunk of an event file whose events keep the
// grouping of their TIMESTAMP records (the events that shared one still
// share one time) is copied as it is, with the TIMESTAMP values and the
// BufferFlush stop times patched in place. Times are corrected by functions
// of time (pre-synchronisation, the clock model) and by the CLC, which
// keeps equal times equal but for a receive that jumps away from an event
// it shared a time with, and even that one the backward amortization
// usually joins again; so nearly every chunk takes this path and the
// rewrite costs a walk over the record framing and a copy.

// patchState is what the fast path carries from chunk to chunk.
type patchState struct {
	done    int    // events of the file patched so far
	last    int64  // time of the last event patched
	srcTime uint64 // the last TIMESTAMP read (source time)
	end     bool   // END_OF_FILE seen
	patches []patchAt
}

type patchAt struct {
	at    int // offset in the chunk of the 8 bytes to write
	val   uint64
	flush bool // a BufferFlush stop time, not a TIMESTAMP
}

// patchChunk patches the chunk in c.buf for the corrected times of the
// file's events. It returns false, and leaves the chunk unchanged, when the
// chunk cannot be copied: a TIMESTAMP group would need several times, the
// framing or the event numbers are not what they should be (the slow path
// then reports the exact error), or times would go backwards. tr gathers
// the times written.
func patchChunk(c *chunkReader, times []int64, st *patchState, tr *timeRange) bool {
	b := c.buf
	first, last := c.first, c.last
	if first != uint64(st.done)+1 {
		return false
	}
	var u64 func([]byte) uint64
	var put func([]byte, uint64)
	if c.be {
		u64, put = binary.BigEndian.Uint64, binary.BigEndian.PutUint64
	} else {
		u64, put = binary.LittleEndian.Uint64, binary.LittleEndian.PutUint64
	}
	st.patches = st.patches[:0]
	i := st.done
	lastT := st.last
	srcTime := st.srcTime
	group := -1 // patch index of the open TIMESTAMP group, -1: none in this chunk yet
	var groupT int64
	groupUsed := false
	p := chunkHeaderLen
	end := false
	for !end {
		if p >= len(b) {
			return false
		}
		t := b[p]
		switch eventFraming[t] {
		case frameTimestamp:
			if p+9 > len(b) || group >= 0 && !groupUsed {
				return false // a TIMESTAMP without events before the next
			}
			srcTime = u64(b[p+1:])
			st.patches = append(st.patches, patchAt{at: p + 1})
			group, groupUsed = len(st.patches)-1, false
			p += 9
			continue
		case frameSingleton:
			if p+1 >= len(b) {
				return false
			}
			k := int(b[p+1])
			if k == 0xFF {
				k = 0
			} else if k > 8 {
				return false
			}
			p += 2 + k
		case frameLength:
			q := p + 1
			if q >= len(b) {
				return false
			}
			n := int(b[q])
			q++
			if n == 0xFF {
				if q+8 > len(b) {
					return false
				}
				u := u64(b[q:])
				q += 8
				if u > uint64(len(b)-q) {
					return false
				}
				n = int(u)
			}
			if n > len(b)-q {
				return false
			}
			if t == recAttributeList {
				p = q + n
				continue
			}
			if t == evBufferFlush {
				if n < 8 || i >= len(times) || group < 0 {
					return false
				}
				// patched below, once the event's time is known
				st.patches = append(st.patches, patchAt{at: q, val: u64(b[q:]), flush: true})
			}
			p = q + n
		default:
			switch t {
			case recEndOfChunk:
				if len(b) < c.size {
					return false
				}
				end = true
			case recEndOfFile:
				if p+1 >= len(b) || b[p+1] != recEndOfBuffer {
					return false
				}
				end, st.end = true, true
			default:
				return false
			}
			continue
		}
		// An event record: its corrected time.
		if t < 10 || group < 0 || i >= len(times) {
			return false
		}
		v := times[i]
		if v < lastT || v < 0 {
			return false
		}
		if !groupUsed {
			groupT, groupUsed = v, true
			st.patches[group].val = uint64(v)
		} else if v != groupT {
			return false // the group would split
		}
		if t == evBufferFlush {
			bf := &st.patches[len(st.patches)-1]
			bf.val = shiftStop(bf.val, srcTime, uint64(v))
		}
		lastT = v
		i++
	}
	if group >= 0 && !groupUsed || uint64(i) != last || first > last+1 {
		return false
	}
	for _, pa := range st.patches {
		put(b[pa.at:], pa.val)
	}
	if i > st.done {
		tr.add(uint64(times[st.done]))
		tr.add(uint64(times[i-1]))
	}
	for _, pa := range st.patches {
		if pa.flush {
			tr.add(pa.val)
		}
	}
	st.done, st.last, st.srcTime = i, lastT, srcTime
	return true
}
