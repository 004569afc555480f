package scalestudy

import (
	"fmt"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/partition"
	"github.com/clc-tools/clc/replay"
)

// Input is a trace as the measurements take it.
type Input struct {
	// Graph is the trace's happened-before relation (replay.Match).
	Graph *replay.Graph
	// Node, Domain, Events and Offsets give every location's node, clock
	// domain (clockmodel.Domains.Of), number of events and number of
	// clock-offset records.
	Node, Domain []int32
	Events       []int64
	Offsets      []int
	// Layout is the clock model's estimation (nil: not measured), over
	// the domains that Domain numbers.
	Layout *clockmodel.Layout
	// Parallel bounds the replay's workers (0: one per CPU).
	Parallel int
}

// check reports whether in's per-location slices agree.
func (in *Input) check() error {
	n := len(in.Graph.Deps)
	if len(in.Node) != n || len(in.Domain) != n || len(in.Events) != n || len(in.Offsets) != n {
		return fmt.Errorf("a graph of %d locations with %d nodes, %d domains, %d event counts and %d offset counts",
			n, len(in.Node), len(in.Domain), len(in.Events), len(in.Offsets))
	}
	return nil
}

// Result is what one plan divides and what crosses it.
type Result struct {
	Scheme partition.Scheme
	Parts  int
	// Locations and Events in all, and the most of one part.
	Locations, LocationsMax int
	Events, EventsMax       int64
	// Messages counts the matched point-to-point messages,
	// MessagesCrossing those between parts; MessagesPartMax is the most
	// crossing messages one part sends.
	Messages, MessagesCrossing, MessagesPartMax int64
	// Instances counts the MPI collective instances of two or more
	// members, InstancesCrossing those whose members are in several
	// parts, and InstanceParts the parts those span, summed.
	Instances, InstancesCrossing, InstanceParts int64
	// Logical counts the collectives' logical messages (replay.Graph's
	// LogicalMessages: (sender, receiver) pairs of distinct members),
	// LogicalCrossing those between parts: what a replay that did not
	// aggregate per part would send.
	Logical, LogicalCrossing int64
	// Forward is the bulk-synchronous forward replay.
	Forward Rounds
	// SendTimesBytes is one exchange of every crossing logical send's
	// final time (TimeBytes each, and AggBytes per part contributing to a
	// crossing instance), SendTimesPartMax the most one part sends: what
	// the clock model's point-to-point bounds, every measurement of the
	// clock condition and, the other way round (receive times), the
	// backward amortization's send limits each need once.
	SendTimesBytes, SendTimesPartMax int64
	// MatchBytes is what matching the crossing messages exchanges
	// (MatchBytes each), MatchPartMax the most one part sends.
	MatchBytes, MatchPartMax int64
	// ExtremesBytes is what the clock model's collective bounds need: per
	// crossing instance, the latest send and earliest receive of every
	// domain of the parts other than the one of its first member, sent
	// there (ExtremeBytes per domain).
	ExtremesBytes int64
	// DomainsSplit counts the clock domains whose locations are in
	// several parts; PresyncBytes is what grouping their offset
	// measurements in one part ships (OffsetBytes per record).
	DomainsSplit int
	PresyncBytes int64
	// Model is what crosses in the clock model's estimation (nil without
	// a Layout).
	Model *clockmodel.Coupling
}

// Measure measures plan p on in. cols is scratch for the replay (see
// forwardRounds; nil: allocated).
func Measure(in *Input, p *partition.Plan, cols [][]int64) (*Result, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	if len(p.Of) != len(in.Node) {
		return nil, fmt.Errorf("a plan of %d locations for a trace of %d", len(p.Of), len(in.Node))
	}
	g, part := in.Graph, p.Of
	r := &Result{Scheme: p.Scheme, Parts: p.Parts, Locations: len(part)}
	locs := make([]int, p.Parts)
	evs := make([]int64, p.Parts)
	sent := make([]int64, p.Parts)     // crossing messages sent, per part
	timesOut := make([]int64, p.Parts) // send times out, per part
	for li, deps := range g.Deps {
		a := part[li]
		locs[a]++
		evs[a] += in.Events[li]
		r.Events += in.Events[li]
		for _, d := range deps {
			if d.Role != replay.RoleSend && d.Role != replay.RoleSyncSend {
				continue
			}
			if d.Role == replay.RoleSend {
				r.Messages++
			}
			if part[d.Peer] != a {
				if d.Role == replay.RoleSend {
					r.MessagesCrossing++
				}
				sent[a]++
				timesOut[a] += TimeBytes
			}
		}
	}
	for k := range p.Parts {
		r.LocationsMax = max(r.LocationsMax, locs[k])
		r.EventsMax = max(r.EventsMax, evs[k])
		r.MessagesPartMax = max(r.MessagesPartMax, sent[k])
		r.MatchPartMax = max(r.MatchPartMax, sent[k]*MatchBytes)
	}
	r.MatchBytes = r.MessagesCrossing * MatchBytes
	r.instances(g, part, in.Domain, timesOut)
	for k := range p.Parts {
		r.SendTimesBytes += timesOut[k]
		r.SendTimesPartMax = max(r.SendTimesPartMax, timesOut[k])
	}
	fw, err := forwardRounds(g, in.Events, part, in.Parallel, cols)
	if err != nil {
		return nil, err
	}
	r.Forward = *fw
	domPart := r.presync(in, part)
	if in.Layout != nil {
		c, err := in.Layout.Split(domPart)
		if err != nil {
			return nil, err
		}
		r.Model = &c
	}
	return r, nil
}

// instances counts the collective instances and their logical messages
// that cross, and adds to timesOut each part's contributions to them.
func (r *Result) instances(g *replay.Graph, part, domain []int32, timesOut []int64) {
	r.Logical = g.LogicalMessages
	nparts := len(timesOut)
	snd, rcv := make([]int64, nparts), make([]int64, nparts)
	doms := make([]map[int32]bool, nparts)
	var touched []int32
	for i := range g.Instances {
		in := &g.Instances[i]
		if in.Kind != 0 || in.N < 2 {
			continue
		}
		r.Instances++
		parts := g.InstanceParts(uint32(i))
		root := part[parts[0].Loc]
		spans := false
		for _, m := range parts {
			spans = spans || part[m.Loc] != root
		}
		if !spans {
			continue
		}
		r.InstancesCrossing++
		touched = touched[:0]
		for _, m := range parts {
			a := part[m.Loc]
			if snd[a] == 0 && rcv[a] == 0 && doms[a] == nil {
				touched = append(touched, a)
				doms[a] = map[int32]bool{}
			}
			doms[a][domain[m.Loc]] = true
			if m.Send != replay.NoEvent {
				snd[a]++
			}
			if m.Recv != replay.NoEvent {
				rcv[a]++
			}
		}
		r.InstanceParts += int64(len(touched))
		if in.Class == replay.ClassScan {
			// Rank k's send precedes every receive of a higher rank: the
			// pairs k < i of distinct parts, as replay counts scans.
			before := make(map[int32]int64, len(touched))
			for k, m := range parts {
				a := part[m.Loc]
				r.LogicalCrossing += int64(k) - before[a]
				before[a]++
			}
		} else {
			var rtot int64
			for _, a := range touched {
				rtot += rcv[a]
			}
			for _, a := range touched {
				r.LogicalCrossing += snd[a] * (rtot - rcv[a])
			}
		}
		for _, a := range touched {
			if snd[a] > 0 {
				timesOut[a] += AggBytes
			}
			if a != root {
				r.ExtremesBytes += int64(len(doms[a])) * ExtremeBytes
			}
			snd[a], rcv[a], doms[a] = 0, 0, nil
		}
	}
}

// presync counts the domains the plan splits and what grouping their
// offset records ships, and returns each domain's part: the part of its
// first location.
func (r *Result) presync(in *Input, part []int32) []int32 {
	nd := 0
	for _, d := range in.Domain {
		nd = max(nd, int(d)+1)
	}
	domPart := make([]int32, nd)
	seen := make([]bool, nd)
	split := make([]bool, nd)
	for li, d := range in.Domain {
		switch {
		case !seen[d]:
			seen[d], domPart[d] = true, part[li]
		case part[li] != domPart[d]:
			split[d] = true
			r.PresyncBytes += int64(in.Offsets[li]) * OffsetBytes
		}
	}
	for _, s := range split {
		if s {
			r.DomainsSplit++
		}
	}
	return domPart
}
