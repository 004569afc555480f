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
// production code.
func serialCLC(tr *trace.Trace, g *replay.Graph, p Params) (times [][]int64, passes []Pass) {
	res := tr.Resolution
	lat := func(a, b int) int64 {
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
	role := make([]map[uint32]replay.Dep, n)
	for i, l := range tr.Locations {
		c[i] = l.Events.Time
		role[i] = map[uint32]replay.Dep{}
		for _, d := range g.Deps[i] {
			role[i][d.Idx] = d
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
	// sendersOf returns the (loc, event) pairs whose times the receive of
	// member me of instance ii depends on.
	sendersOf := func(ii uint32, meLoc int) [][2]int {
		var me member
		for _, m := range members[ii] {
			if m.loc == meLoc {
				me = m
			}
		}
		var out [][2]int
		for _, m := range members[ii] {
			if m.loc == meLoc || m.send == replay.NoEvent || (isScan(ii) && m.rank > me.rank) {
				continue
			}
			out = append(out, [2]int{m.loc, int(m.send)})
		}
		return out
	}
	receiversOf := func(ii uint32, meLoc int) [][2]int {
		var me member
		for _, m := range members[ii] {
			if m.loc == meLoc {
				me = m
			}
		}
		var out [][2]int
		for _, m := range members[ii] {
			if m.loc == meLoc || m.recv == replay.NoEvent || (isScan(ii) && m.rank < me.rank) {
				continue
			}
			out = append(out, [2]int{m.loc, int(m.recv)})
		}
		return out
	}

	// Threshold of the γ control, from the input's largest violation.
	threshold := int64(math.Round(float64(p.MaxShift) * float64(res) / 1e9))
	if threshold == 0 {
		var worst int64
		for li := range c {
			for j := range c[li] {
				d, ok := role[li][uint32(j)]
				if !ok {
					continue
				}
				var deps [][2]int
				switch d.Role {
				case replay.RoleRecv:
					deps = [][2]int{{int(d.Peer), int(d.Ref)}}
				case replay.RoleCollRecv:
					deps = sendersOf(d.Ref, li)
				}
				for _, s := range deps {
					worst = max(worst, c[s[0]][s[1]]+lat(s[0], li)-c[li][j])
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
		var maxShift, nj int64
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
					if d, ok := role[li][uint32(j)]; ok && (d.Role == replay.RoleRecv || d.Role == replay.RoleCollRecv) {
						var deps [][2]int
						if d.Role == replay.RoleRecv {
							deps = [][2]int{{int(d.Peer), int(d.Ref)}}
						} else {
							deps = sendersOf(d.Ref, li)
						}
						best, bestRef := int64(math.MinInt64), int64(math.MinInt64)
						for _, s := range deps {
							if len(lc[s[0]]) <= s[1] {
								break events // not computed yet
							}
							v := lc[s[0]][s[1]] + lat(s[0], li)
							best = max(best, v)
							if isRef(s[0]) {
								bestRef = max(bestRef, v)
							}
						}
						if len(deps) > 0 && best > l {
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
		passes = append(passes, Pass{Gamma: gamma, Jumps: nj, MaxShift: maxShift})
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
	// Send limits from the forward times.
	limit := make([]map[int]int64, n)
	for li := range c {
		limit[li] = map[int]int64{}
		for _, d := range g.Deps[li] {
			switch d.Role {
			case replay.RoleSend:
				limit[li][int(d.Idx)] = lc[d.Peer][d.Ref] - lat(li, int(d.Peer))
			case replay.RoleCollSend:
				rs := receiversOf(d.Ref, li)
				if len(rs) == 0 {
					continue
				}
				u := int64(math.MaxInt64)
				for _, r := range rs {
					u = min(u, lc[r[0]][r[1]]-lat(li, r[0]))
				}
				limit[li][int(d.Idx)] = u
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
	return lc, passes
}
