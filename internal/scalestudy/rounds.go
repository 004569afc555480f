package scalestudy

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/clc-tools/clc/replay"
)

// Sizes of what a distributed correction exchanges, bytes.
const (
	// TimeBytes is one logical send's time with the message's place in
	// its channel (an 8-byte time, a 4-byte index).
	TimeBytes = 12
	// AggBytes is one part's contribution to a collective instance: the
	// instance's index and the replay's two aggregates (reference and
	// other senders) of three candidates each (time, location, node).
	AggBytes = 4 + 2*3*16
	// MatchBytes is what matching a point-to-point message across parts
	// exchanges: each side's event index for the other (8 bytes each way:
	// the channel's sequence number and the index).
	MatchBytes = 16
	// ExtremeBytes is one domain's latest send and earliest receive in a
	// collective instance (the clock model's collective bounds) with the
	// domain's index.
	ExtremeBytes = 20
	// OffsetBytes is one clock-offset record (time, offset, round trip,
	// deviation).
	OffsetBytes = 32
)

// Rounds describes a bulk-synchronous forward replay of the CLC over a
// plan: every part replays its locations as far as it can (superstep),
// then the parts exchange the times of the logical sends that crossed
// (point-to-point, in one sparse all-to-all) and the contributions to the
// collective instances that span parts and were completed (in one
// allreduce), and the next superstep begins. The supersteps are the
// length, in crossings, of the longest chain of happened-before relations
// (a chain that crosses k times needs k + 1 supersteps); an asynchronous
// engine (Scalasca's) waits the same number of network latencies on that
// chain.
type Rounds struct {
	// Supersteps is the number of supersteps; Supersteps − 1 exchanges
	// separate them.
	Supersteps int
	// Bytes is what all exchanges carry in all; RoundBytesMax the most one
	// exchange carries; PartBytesMax the most one part sends in one
	// exchange.
	Bytes, RoundBytesMax, PartBytesMax int64
	// Messages counts the point-to-point messages between parts over all
	// exchanges (one per pair of parts with times to send, per exchange),
	// PeersMax the most parts one part sends to in one exchange.
	Messages int64
	PeersMax int
	// Instances counts the crossing collective instances, InstancesMax
	// the most completed in one exchange (the allreduce carries AggBytes
	// for each).
	Instances, InstancesMax int64
	// CriticalEvents is the sum over the supersteps of the most events one
	// part replays in it: the replay's length in events when every part
	// replays at the same rate and waits for the slowest at every
	// exchange. WorkMax is the most events of one part (all supersteps).
	CriticalEvents, WorkMax int64
}

// forwardRounds measures the bulk-synchronous forward replay over the
// happened-before relation g of a trace whose locations have events[li]
// events, divided as part gives, with package replay's engine on np
// workers. cols is scratch with a column of at least events[li] entries
// per location (nil: allocated); it is overwritten.
func forwardRounds(g *replay.Graph, events []int64, part []int32, np int, cols [][]int64) (*Rounds, error) {
	n := len(g.Deps)
	if len(events) != n || len(part) != n {
		return nil, fmt.Errorf("a graph of %d locations, %d locations' events, %d locations' parts", n, len(events), len(part))
	}
	if cols == nil {
		cols = make([][]int64, n)
	}
	for li := range cols {
		if int64(len(cols[li])) < events[li] {
			cols[li] = make([]int64, events[li])
		}
	}
	// The engine adds the latency between the two ends' "nodes" to every
	// send's value: with the parts as nodes, 0 within a part and 1 across,
	// a receive's value is the superstep that can replay it.
	x := replay.NewShared(g, cols, part, nil, replay.Latency{Intra: 0, Inter: 1, Shared: 0})
	steps := make([]roundStep, n)
	for li := range steps {
		steps[li] = roundStep{li: li, deps: g.Deps[li], col: cols[li]}
	}
	if err := replay.Run(x, n, np, func(li int) (bool, error) { return steps[li].step(x) }); err != nil {
		return nil, err
	}
	return tally(g, events, part, cols), nil
}

// roundStep is one location's step of the replay of supersteps: each
// logical send or receive gets the superstep that can replay it, the
// largest of its predecessor's and, for a receive, its sends' plus one
// where they are in another part.
type roundStep struct {
	li        int
	deps      []replay.Dep
	col       []int64
	di, pend  int
	cur, best int64
	started   bool
}

func (s *roundStep) step(x replay.Exchange) (bool, error) {
	for s.di < len(s.deps) {
		idx := s.deps[s.di].Idx
		end := s.di
		for end < len(s.deps) && s.deps[end].Idx == idx {
			end++
		}
		if !s.started {
			s.started, s.pend, s.best = true, s.di, s.cur
		}
		for ; s.pend < end; s.pend++ {
			d := &s.deps[s.pend]
			if !d.Role.IsRecv() {
				continue
			}
			var v int64
			var has bool
			var st replay.Status
			if d.Role == replay.RoleCollRecv {
				v, _, has, st = x.AwaitInstance(s.li, d.Ref, d.Peer)
			} else {
				v, st = x.AwaitSend(s.li, d.Peer, d.Ref, d.Role == replay.RoleSyncRecv)
				has = st == replay.Ready
			}
			if st == replay.Blocked {
				return false, nil
			}
			if has && v > s.best { // a wait given up (a cycle) constrains nothing, as in the CLC
				s.best = v
			}
		}
		s.col[idx], s.cur = s.best, s.best
		for ; s.di < end; s.di++ {
			switch d := &s.deps[s.di]; d.Role {
			case replay.RoleSend, replay.RoleSyncSend:
				x.Sent(s.li, idx, s.best)
			case replay.RoleCollSend:
				x.Contribute(s.li, d.Ref, s.best)
			}
		}
		s.started = false
	}
	return true, nil
}

// crossing is one part's times for another part in one exchange.
type crossing struct {
	key   uint64 // exchange<<40 | from<<20 | to
	bytes int64
}

// tally sums the supersteps the replay gave every logical send and
// receive (cols) into Rounds.
func tally(g *replay.Graph, events []int64, part []int32, cols [][]int64) *Rounds {
	n := len(g.Deps)
	var last int64
	for li, deps := range g.Deps {
		for _, d := range deps {
			last = max(last, cols[li][d.Idx])
		}
	}
	r := &Rounds{Supersteps: int(last) + 1}
	nparts := 0
	for _, p := range part {
		nparts = max(nparts, int(p)+1)
	}
	// Events per part and superstep: an event is replayed in the
	// superstep of the last logical send or receive at or before it (0
	// before the first).
	work := make([]int64, nparts*r.Supersteps)
	var xs []crossing
	for li := range n {
		p := int(part[li])
		var from, step int64
		deps := g.Deps[li]
		for k, d := range deps {
			if k > 0 && d.Idx == deps[k-1].Idx {
				continue
			}
			work[p*r.Supersteps+int(step)] += int64(d.Idx) - from
			from, step = int64(d.Idx), cols[li][d.Idx]
		}
		work[p*r.Supersteps+int(step)] += events[li] - from
		for _, d := range deps {
			if (d.Role == replay.RoleSend || d.Role == replay.RoleSyncSend) && part[d.Peer] != part[li] {
				xs = append(xs, crossing{key: uint64(cols[li][d.Idx])<<40 | uint64(part[li])<<20 | uint64(part[d.Peer]), bytes: TimeBytes})
			}
		}
	}
	for p := range nparts {
		var sum int64
		for s := range r.Supersteps {
			sum += work[p*r.Supersteps+s]
		}
		r.WorkMax = max(r.WorkMax, sum)
	}
	for s := range r.Supersteps {
		var m int64
		for p := range nparts {
			m = max(m, work[p*r.Supersteps+s])
		}
		r.CriticalEvents += m
	}
	// Collective instances that span parts: exchanged (in the allreduce)
	// after the superstep of their last logical send.
	insts := make([]int64, r.Supersteps)
	for i := range g.Instances {
		in := &g.Instances[i]
		if in.Senders == 0 {
			continue
		}
		parts := g.InstanceParts(uint32(i))
		spans, done := false, int64(0)
		for _, m := range parts {
			spans = spans || part[m.Loc] != part[parts[0].Loc]
			if m.Send != replay.NoEvent {
				done = max(done, cols[m.Loc][m.Send])
			}
		}
		if spans {
			insts[done]++
			r.Instances++
		}
	}
	slices.SortFunc(xs, func(a, b crossing) int { return cmp.Compare(a.key, b.key) })
	roundBytes := make([]int64, r.Supersteps)
	for i := 0; i < len(xs); {
		j := i
		var b int64
		for j < len(xs) && xs[j].key == xs[i].key {
			b += xs[j].bytes
			j++
		}
		round := xs[i].key >> 40
		roundBytes[round] += b
		r.Messages++
		i = j
	}
	// Per exchange and sending part: bytes and peers.
	for i := 0; i < len(xs); {
		j := i
		var b int64
		peers := 0
		var prev uint64 = ^uint64(0)
		for j < len(xs) && xs[j].key>>20 == xs[i].key>>20 {
			b += xs[j].bytes
			if xs[j].key != prev {
				peers++
				prev = xs[j].key
			}
			j++
		}
		r.PartBytesMax = max(r.PartBytesMax, b)
		r.PeersMax = max(r.PeersMax, peers)
		i = j
	}
	for s := range r.Supersteps {
		b := roundBytes[s] + insts[s]*AggBytes
		r.Bytes += b
		r.RoundBytesMax = max(r.RoundBytesMax, b)
		r.InstancesMax = max(r.InstancesMax, insts[s])
	}
	return r
}
