package clc

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/clc-tools/clc/replay"
)

// sendLimit is the latest time a logical send may be moved to without
// violating the clock condition with any of its receivers after the forward
// pass: min over its receivers of (receive time − latency).
type sendLimit struct {
	idx   uint32
	limit int64
}

// backward runs the backward amortization of one location in place on t
// (its forward-pass times): for each jump in trace order, it ramps the
// events before the receive up towards the jump along a line of slope m,
// bending the line wherever a send would pass its limit (Fig. 2 of the
// paper). sends lists the location's logical sends in event order with
// their limits. Each jump has its own slope m (0: not amortized). Every
// change goes through shift(k, d), which adds d ≥ 0 to t[k] (and records
// it).
func backward(ctx context.Context, t []int64, jumps []Jump, sends []sendLimit, shift func(k int, d int64)) error {
	for _, jp := range jumps {
		if err := ctx.Err(); err != nil {
			return err
		}
		m := jp.Slope
		if m <= 0 {
			continue
		}
		r := int(jp.Idx)
		end := r
		endTime := t[r] - jp.Delta
		target := jp.Delta
		// Sends before end, searched from the back.
		si := searchSends(sends, uint32(end))
		for target > 0 && end > 0 {
			// Find the window of the default line and the steepest send
			// that the default line would push past its limit.
			star := -1
			var starRoom, starDist int64
			e := end - 1
			s := si - 1
			for ; e >= 0; e-- {
				dist := endTime - t[e]
				if lineDefault(target, dist, m) <= 0 {
					break
				}
				for s >= 0 && int(sends[s].idx) > e {
					s--
				}
				if s < 0 || int(sends[s].idx) != e {
					continue
				}
				room := sends[s].limit - t[e]
				if room < 0 {
					room = 0
				}
				if lineDefault(target, dist, m) <= room {
					continue
				}
				if star < 0 || steeper(target, room, dist, starRoom, starDist) {
					star, starRoom, starDist = e, room, dist
				}
			}
			if star < 0 {
				// No send in the way: the default line over the window.
				for k := end - 1; k > e; k-- {
					shift(k, lineDefault(target, endTime-t[k], m))
				}
				break
			}
			// The line through (endTime, target) and the steepest send on
			// its limit, for the events after that send.
			for k := end - 1; k > star; k-- {
				shift(k, lineThrough(target, starRoom, starDist, endTime-t[k]))
			}
			// Continue before the send with its room as the new jump.
			end, endTime, target = star, t[star], starRoom
			shift(star, starRoom)
			si = searchSends(sends, uint32(end))
		}
	}
	for k := 1; k < len(t); k++ {
		if t[k] < t[k-1] {
			return fmt.Errorf("internal error: backward amortization made event %d (%d) earlier than event %d (%d)", k, t[k], k-1, t[k-1])
		}
	}
	return nil
}

// searchSends returns the number of sends with an event index below idx.
func searchSends(sends []sendLimit, idx uint32) int {
	lo, hi := 0, len(sends)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if sends[h].idx < idx {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// lineDefault is the correction at distance dist before the end of a ramp
// of height target and slope m, rounded down (never above the real line).
func lineDefault(target, dist int64, m float64) int64 {
	return target - int64(math.Ceil(float64(dist)*m))
}

// lineThrough is the correction at distance dist before the end of a ramp
// from (0, target) down to (starDist, room), rounded down, computed exactly
// in integers: target − ⌈(target − room)·dist / starDist⌉. For dist ≤
// starDist it lies between room and target.
func lineThrough(target, room, starDist, dist int64) int64 {
	if starDist == 0 {
		return room
	}
	drop := uint64(target - room)
	hi, lo := bits.Mul64(drop, uint64(dist))
	q, rem := bits.Div64(hi, lo, uint64(starDist))
	if rem != 0 {
		q++
	}
	return target - int64(q)
}

// steeper reports whether the line from (0, target) to (da, target − ra)
// ... measured backwards ... needs a steeper slope than the one to
// (db, target − rb): (target − ra)/da > (target − rb)/db, with a zero
// distance counting as infinitely steep (then the smaller room wins).
func steeper(target, ra, da, rb, db int64) bool {
	if da == 0 || db == 0 {
		if da == 0 && db == 0 {
			return ra < rb
		}
		return da == 0
	}
	h1, l1 := bits.Mul64(uint64(target-ra), uint64(db))
	h2, l2 := bits.Mul64(uint64(target-rb), uint64(da))
	return h1 > h2 || (h1 == h2 && l1 > l2)
}

// limits computes the send limits of location li from the forward-pass
// times of all locations. An event with several send roles gets the
// smallest of their limits.
func limits(li int, deps []replay.Dep, times [][]int64, node []int32, lat replay.Latency, recvAgg []instLimits) []sendLimit {
	var out []sendLimit
	add := func(idx uint32, lim int64) {
		if n := len(out); n > 0 && out[n-1].idx == idx {
			out[n-1].limit = min(out[n-1].limit, lim)
			return
		}
		out = append(out, sendLimit{idx: idx, limit: lim})
	}
	for _, d := range deps {
		switch d.Role {
		case replay.RoleSend:
			add(d.Idx, times[d.Peer][d.Ref]-lat.Between(node[li], node[d.Peer]))
		case replay.RoleSyncSend:
			add(d.Idx, times[d.Peer][d.Ref]-lat.Shared)
		case replay.RoleCollSend:
			if lim, ok := recvAgg[d.Ref].limitFor(int32(li), node[li], d.Peer); ok {
				add(d.Idx, lim)
			}
		}
	}
	return out
}

// instLimits holds, per collective instance, what its senders need to know
// of its receivers after the forward pass: min over the receivers of
// (receive time − latency), with the sender itself excluded. Values are
// stored negated so that the max-aggregate of package replay serves.
type instLimits struct {
	agg  replay.Agg
	scan []int64        // per rank, for scans: limit from the receivers of higher rank
	lat  replay.Latency // the instance's latencies (Latency.ForSync of its kind)
}

func (il *instLimits) limitFor(loc, node, rank int32) (int64, bool) {
	if il.scan != nil {
		v := il.scan[rank]
		return v, v != replay.NoTime
	}
	neg, ok := il.agg.For(loc, node, il.lat)
	return -neg, ok
}

// buildInstLimits computes instLimits for instance in; receivers, if not
// nil, gives the aggregate of the negated receive times of an instance
// that is not a scan (replay.Divided.ReceiversAgg, where other processes'
// receive times are not in times).
func buildInstLimits(g *replay.Graph, in uint32, times [][]int64, node []int32, lat replay.Latency, receivers func(in uint32) replay.Agg) instLimits {
	parts := g.InstanceParts(in)
	lat = lat.ForSync(g.Instances[in].Kind)
	il := instLimits{lat: lat}
	if g.Instances[in].Class == replay.ClassScan {
		il.scan = make([]int64, len(parts))
		suffix := replay.NewAgg()
		for r := len(parts) - 1; r >= 0; r-- {
			p := parts[r]
			neg, ok := suffix.For(p.Loc, node[p.Loc], lat)
			il.scan[r] = replay.NoTime
			if ok {
				il.scan[r] = -neg
			}
			if p.Recv != replay.NoEvent {
				suffix.Add(-times[p.Loc][p.Recv], p.Loc, node[p.Loc])
			}
		}
		return il
	}
	if receivers != nil {
		il.agg = receivers(in)
		return il
	}
	il.agg = replay.NewAgg()
	for _, p := range parts {
		if p.Recv != replay.NoEvent {
			il.agg.Add(-times[p.Loc][p.Recv], p.Loc, node[p.Loc])
		}
	}
	return il
}
