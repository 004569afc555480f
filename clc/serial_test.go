package clc

import (
	"math"
	"math/big"

	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// serialCLC is a plain serial implementation of the same equations, kept
// as the oracle of the parallel replay: no goroutines, no aggregates (every
// logical pair is looked at), exact rationals in the backward pass. It uses
// the matching of replay.Match (tested on its own) but nothing else of the
// production code. Shared-memory relations (point-to-point and instances)
// are treated as messages with the shared-memory latency; an event may
// have several roles; passive locations follow their process's leader.
func serialCLC(tr *trace.Trace, g *replay.Graph, p Params) (times [][]int64, passes []Pass) {
	res := tr.Resolution
	shm := int64(math.Round(float64(p.LatencyShared) * float64(res) / 1e9))
	latMPI := func(a, b int) int64 {
		if tr.Locations[a].Node == tr.Locations[b].Node {
			return int64(math.Round(float64(p.LatencyIntra) * float64(res) / 1e9))
		}
		return int64(math.Round(float64(p.LatencyInter) * float64(res) / 1e9))
	}
	delta := int64(math.Round(float64(p.Delta) * float64(res) / 1e9))
	if delta <= 0 {
		delta = 1
	}
	n := len(tr.Locations)
	c := make([][]int64, n)
	role := make([]map[uint32][]replay.Dep, n)
	for i, l := range tr.Locations {
		c[i] = l.Events.Time
		role[i] = map[uint32][]replay.Dep{}
		for _, d := range g.Deps[i] {
			role[i][d.Idx] = append(role[i][d.Idx], d)
		}
	}
	// rankOf[instance][loc] and the logical senders/receivers.
	type member struct {
		loc        int
		rank       int
		send, recv uint32
	}
	members := make([][]member, len(g.Instances))
	for ii := range g.Instances {
		for r, pt := range g.InstanceParts(uint32(ii)) {
			members[ii] = append(members[ii], member{int(pt.Loc), r, pt.Send, pt.Recv})
		}
	}
	isScan := func(ii uint32) bool { return g.Instances[ii].Class == replay.ClassScan }
	// instLat is the latency between two members of instance ii.
	instLat := func(ii uint32, a, b int) int64 {
		if g.Instances[ii].Kind != 0 {
			return shm
		}
		return latMPI(a, b)
	}
	// sendersOf returns the (loc, event, latency, shared) of the sends the
	// receive of member me of instance ii depends on.
	sendersOf := func(ii uint32, meLoc int) [][4]int64 {
		var me member
		for _, m := range members[ii] {
			if m.loc == meLoc {
				me = m
			}
		}
		var out [][4]int64
		for _, m := range members[ii] {
			if m.loc == meLoc || m.send == replay.NoEvent || (isScan(ii) && m.rank > me.rank) {
				continue
			}
			out = append(out, [4]int64{int64(m.loc), int64(m.send), instLat(ii, m.loc, meLoc), int64(g.Instances[ii].Kind)})
		}
		return out
	}
	receiversOf := func(ii uint32, meLoc int) [][3]int64 {
		var me member
		for _, m := range members[ii] {
			if m.loc == meLoc {
				me = m
			}
		}
		var out [][3]int64
		for _, m := range members[ii] {
			if m.loc == meLoc || m.recv == replay.NoEvent || (isScan(ii) && m.rank < me.rank) {
				continue
			}
			out = append(out, [3]int64{int64(m.loc), int64(m.recv), instLat(ii, meLoc, m.loc)})
		}
		return out
	}
	// depsOf returns what the receive roles of event j of location li
	// depend on: (loc, event, latency, shared), and whether it has any.
	depsOf := func(li int, j uint32) (out [][4]int64, any bool) {
		for _, d := range role[li][j] {
			switch d.Role {
			case replay.RoleRecv:
				out = append(out, [4]int64{int64(d.Peer), int64(d.Ref), latMPI(int(d.Peer), li), 0})
			case replay.RoleSyncRecv:
				out = append(out, [4]int64{int64(d.Peer), int64(d.Ref), shm, 1})
			case replay.RoleCollRecv:
				out = append(out, sendersOf(d.Ref, li)...)
			default:
				continue
			}
			any = true
		}
		return out, any
	}

	// Threshold of the γ control, from the input's largest violation.
	threshold := int64(math.Round(float64(p.MaxShift) * float64(res) / 1e9))
	if threshold == 0 {
		var worst int64
		for li := range c {
			for j := range c[li] {
				deps, _ := depsOf(li, uint32(j))
				for _, s := range deps {
					worst = max(worst, c[s[0]][s[1]]+s[2]-c[li][j])
				}
			}
		}
		threshold = int64(p.ShiftFactor*float64(worst)) + int64(math.Round(float64(p.LatencyInter)*float64(res)/1e9))
	}

	gamma, informed := p.Gamma, p.InformedGamma
	var lc [][]int64
	var jumps [][]Jump
	for pass := 1; ; pass++ {
		lc = make([][]int64, n)
		jumps = make([][]Jump, n)
		for i := range lc {
			lc[i] = make([]int64, 0, len(c[i]))
		}
		isRef := func(li int) bool { return p.TrustReference && tr.Locations[li].Node == tr.Locations[0].Node }
		// cur1mg is the 1−γ in effect on each location: its default, or
		// that of its last jump.
		cur1mg := make([]float64, n)
		for li := range cur1mg {
			cur1mg[li] = 1 - gamma
			if isRef(li) {
				cur1mg[li] = 1 - p.ReferenceGamma
			}
		}
		anchorC := make([]int64, n)
		anchorL := make([]int64, n)
		var maxShift, nj, nshared int64
		for progress := true; progress; {
			progress = false
			for li := 0; li < n; li++ {
			events:
				for len(lc[li]) < len(c[li]) {
					j := len(lc[li])
					cj := c[li][j]
					l := cj
					byGamma := false
					if j > 0 {
						prevC, prevL := c[li][j-1], lc[li][j-1]
						step := max(cj-prevC, 0)
						l = max(l, prevL+min(delta, step))
						if cj >= anchorC[li] {
							since := cj - anchorC[li]
							gv := anchorL[li] + since - int64(math.Floor(float64(since)*cur1mg[li]))
							if gv > l {
								l, byGamma = gv, true
							}
						}
					}
					if deps, ok := depsOf(li, uint32(j)); ok {
						best, bestRef := int64(math.MinInt64), int64(math.MinInt64)
						shared := false
						for _, s := range deps {
							if int64(len(lc[s[0]])) <= s[1] {
								break events // not computed yet
							}
							v := lc[s[0]][s[1]] + s[2]
							switch {
							case v > best:
								best, shared = v, s[3] != 0
							case v == best:
								shared = shared || s[3] != 0
							}
							if isRef(int(s[0])) {
								bestRef = max(bestRef, v)
							}
						}
						if len(deps) > 0 && best > l {
							if shared {
								nshared++
							}
							jp := Jump{Idx: uint32(j), Delta: best - l, Slope: p.Slope}
							if !isRef(li) {
								cur1mg[li] = 1 - gamma
								if p.TrustReference && bestRef == best {
									cur1mg[li] = 1 - informed
									jp.Slope = p.InformedSlope
								}
							}
							jumps[li] = append(jumps[li], jp)
							l, byGamma = best, false
							nj++
						}
					}
					if !byGamma {
						anchorC[li], anchorL[li] = cj, l
					}
					lc[li] = append(lc[li], l)
					maxShift = max(maxShift, l-cj)
					progress = true
				}
			}
		}
		for li := range lc {
			if len(lc[li]) != len(c[li]) {
				panic("serial reference: stuck (cyclic trace)")
			}
		}
		passes = append(passes, Pass{Gamma: gamma, Jumps: nj, MaxShift: maxShift, SharedJumps: nshared})
		if maxShift <= threshold || pass >= p.MaxPasses {
			break
		}
		next := 1 - 10*(1-gamma)
		if gamma == 1 {
			next = 0.999
		}
		if next <= 0 {
			break
		}
		ni := 1 - 10*(1-informed)
		if informed == 1 {
			ni = 0.999
		}
		gamma, informed = next, max(ni, 0)
	}
	// Send limits from the forward times: the smallest over all of an
	// event's send roles and their receivers.
	limit := make([]map[int]int64, n)
	for li := range c {
		limit[li] = map[int]int64{}
		lower := func(idx uint32, u int64) {
			if old, ok := limit[li][int(idx)]; !ok || u < old {
				limit[li][int(idx)] = u
			}
		}
		for _, d := range g.Deps[li] {
			switch d.Role {
			case replay.RoleSend:
				lower(d.Idx, lc[d.Peer][d.Ref]-latMPI(li, int(d.Peer)))
			case replay.RoleSyncSend:
				lower(d.Idx, lc[d.Peer][d.Ref]-shm)
			case replay.RoleCollSend:
				for _, r := range receiversOf(d.Ref, li) {
					lower(d.Idx, lc[r[0]][r[1]]-r[2])
				}
			}
		}
	}
	for li := range lc {
		if p.TrustReference && tr.Locations[li].Node == tr.Locations[0].Node {
			continue // the reference node is not amortized backward
		}
		t := lc[li]
		for _, jp := range jumps[li] {
			end := int(jp.Idx)
			endTime := t[end] - jp.Delta
			target := jp.Delta
			m := jp.Slope
			for target > 0 && end > 0 && m > 0 {
				// default ramp: c(d) = target − ⌈m·d⌉
				def := func(dist int64) int64 { return target - int64(math.Ceil(float64(dist)*m)) }
				star := -1
				var starSlope *big.Rat
				var starRoom int64
				e := end - 1
				for ; e >= 0 && def(endTime-t[e]) > 0; e-- {
					u, ok := limit[li][e]
					if !ok {
						continue
					}
					room := max(u-t[e], 0)
					if def(endTime-t[e]) <= room {
						continue
					}
					dist := endTime - t[e]
					var slope *big.Rat
					if dist == 0 {
						// infinitely steep; order by room (smaller is steeper)
						slope = new(big.Rat).SetInt64(math.MaxInt64 - room)
					} else {
						slope = big.NewRat(target-room, dist)
					}
					if star < 0 || slope.Cmp(starSlope) > 0 {
						star, starSlope, starRoom = e, slope, room
					}
				}
				if star < 0 {
					for k := end - 1; k > e; k-- {
						t[k] += def(endTime - t[k])
					}
					break
				}
				starDist := endTime - t[star]
				for k := end - 1; k > star; k-- {
					if starDist == 0 {
						t[k] += starRoom
						continue
					}
					// target − ⌈(target−room)·dist/starDist⌉
					q := new(big.Rat).Mul(big.NewRat(target-starRoom, starDist), new(big.Rat).SetInt64(endTime-t[k]))
					ceil := new(big.Int).Neg(new(big.Int).Div(new(big.Int).Neg(q.Num()), q.Denom()))
					t[k] += target - ceil.Int64()
				}
				end, endTime, target = star, t[star], starRoom
				t[star] += starRoom
			}
		}
	}
	// Passive locations take their leader's shift at their times.
	for li, l := range tr.Locations {
		if !l.Kind.Passive() || len(g.Deps[li]) > 0 {
			continue
		}
		leader := -1
		for m := range tr.Locations {
			if tr.ProcessOf(m) == tr.ProcessOf(li) && !tr.Locations[m].Kind.Passive() {
				leader = m
				break
			}
		}
		if leader < 0 {
			continue
		}
		for j, v := range c[li] {
			nv := v
			k, run := -1, int64(math.MinInt64)
			for i, mv := range c[leader] {
				run = max(run, mv)
				if run <= v {
					k = i
				}
			}
			if k >= 0 {
				nv = v + lc[leader][k] - c[leader][k]
			}
			if j > 0 {
				nv = max(nv, lc[li][j-1])
			}
			lc[li][j] = nv
		}
	}
	return lc, passes
}
