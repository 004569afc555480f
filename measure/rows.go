package measure

import (
	"encoding/binary"
	"fmt"

	"github.com/clc-tools/clc/comm"
)

// GatherRows completes vals, one per location of a trace divided among the
// processes of g, of which this process filled its own (own[li]), with
// every other process's: each value travels as k 64-bit words (enc writes
// them, dec reads them back), one allgather. Every process so holds every
// location's value and can combine them in the locations' order, as one
// process does. With g nil it does nothing.
func GatherRows[T any](g *comm.Group, what string, own []bool, vals []T, k int, enc func(*T, []uint64), dec func([]uint64, *T)) {
	if g == nil {
		return
	}
	w := make([]uint64, k)
	var buf []byte
	for li := range vals {
		if !own[li] {
			continue
		}
		enc(&vals[li], w)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(li))
		for _, x := range w {
			buf = binary.LittleEndian.AppendUint64(buf, x)
		}
	}
	all := g.Allgather(what, buf)
	if g.Err() != nil {
		return
	}
	size := 4 + 8*k
	for q, b := range all {
		if q == g.Rank() {
			continue
		}
		if len(b)%size != 0 {
			g.Fail(fmt.Errorf("%s: process %d sent %d bytes, not a multiple of %d", what, q, len(b), size))
			return
		}
		for ; len(b) > 0; b = b[size:] {
			li := int(binary.LittleEndian.Uint32(b))
			if li >= len(vals) || own[li] {
				g.Fail(fmt.Errorf("%s: process %d sent location %d", what, q, li))
				return
			}
			for j := range w {
				w[j] = binary.LittleEndian.Uint64(b[4+8*j:])
			}
			dec(w, &vals[li])
		}
	}
}
