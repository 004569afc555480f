package repair

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"hash/fnv"

	"github.com/clc-tools/clc/clc"
	"github.com/clc-tools/clc/comm"
)

// division is the group a correction is divided among and each
// location's process (Correction.Comm, Trace.Part).
type division struct {
	c    comm.Comm
	part []int32
}

// divided reports whether the correction is divided among several
// processes.
func (d division) divided() bool { return d.c != nil && d.c.Size() > 1 }

// correctedLocation is one location's corrected times and moved events
// as they travel.
type correctedLocation struct {
	Loc   int32
	Times []int64
	Moved clc.Moved
}

// gatherCorrected completes, on every process, the columns times and
// moved of which this process corrected its own locations (interim:
// the measures and the report are made of every location's, on every
// process alike).
func (d division) gatherCorrected(ctx context.Context, times [][]int64, moved []clc.Moved) error {
	me := int32(d.c.Rank())
	var mine []correctedLocation
	for li, p := range d.part {
		if p == me {
			mine = append(mine, correctedLocation{int32(li), times[li], moved[li]})
		}
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(mine); err != nil {
		return fmt.Errorf("gathering the corrected times: %w", err)
	}
	all, err := d.c.Allgather(ctx, buf.Bytes())
	if err != nil {
		return fmt.Errorf("gathering the corrected times: %w", err)
	}
	for q, b := range all {
		all[q] = nil // each part freed once decoded: the gather never holds two copies
		if int32(q) == me {
			continue
		}
		var got []correctedLocation
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&got); err != nil {
			return fmt.Errorf("gathering the corrected times: process %d's: %w", q, err)
		}
		for _, cl := range got {
			li := cl.Loc
			if li < 0 || int(li) >= len(times) || d.part[li] != int32(q) || len(cl.Times) != len(times[li]) {
				return fmt.Errorf("gathering the corrected times: process %d sent location %d with %d times", q, li, len(cl.Times))
			}
			copy(times[li], cl.Times)
			moved[li] = cl.Moved
		}
	}
	return nil
}

// sameOnAll checks that every process holds the same times (interim:
// the stages every process runs whole must give every process the same
// bits, whatever its CPU and parallelism), by an allgather of a hash of
// them; what names the times in the error.
func (d division) sameOnAll(ctx context.Context, what string, times [][]int64) error {
	h := fnv.New64a()
	var b [8]byte
	for _, ts := range times {
		binary.LittleEndian.PutUint64(b[:], uint64(len(ts)))
		h.Write(b[:])
		for _, v := range ts {
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			h.Write(b[:])
		}
	}
	all, err := d.c.Allgather(ctx, h.Sum(nil))
	if err != nil {
		return fmt.Errorf("comparing %s: %w", what, err)
	}
	for q, s := range all {
		if !bytes.Equal(s, all[0]) {
			return fmt.Errorf("%s differ between processes 0 and %d of a divided run", what, q)
		}
	}
	return nil
}
