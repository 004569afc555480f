package sim

import (
	"cmp"
	"slices"

	"github.com/clc-tools/clc/trace"
)

// ring: every rank computes, then sends to its right neighbour and receives
// from its left one with blocking MPI_Send and MPI_Recv, even ranks sending
// first and odd ranks receiving first (the classic deadlock-free ring).
// Per rank and step: 8 events (compute 2, MPI_Send 3, MPI_Recv 3), one
// message; 2 events and no message with a single rank.
func (e *engine) ring() {
	n := e.n
	e.computeAll()
	if n < 2 {
		return
	}
	size := e.msgSize()
	sendRight := func(r int) {
		d := (r + 1) % n
		e.enter(r, regSend)
		t := e.send(r, trace.KindSend, trace.Message{Peer: uint32(d), Tag: tagRing, Bytes: size})
		e.arr[d] = t + e.delay(r, d, size)
		e.now[r] += e.sendOv
		e.leave(r, regSend)
	}
	recvLeft := func(r int) {
		s := (r - 1 + n) % n
		e.enter(r, regRecv)
		e.cur[r].AppendMsg(trace.KindRecv, e.at(r, e.arr[r]), trace.Message{Peer: uint32(s), Tag: tagRing, Bytes: size})
		e.leave(r, regRecv)
	}
	for r := 0; r < n; r += 2 {
		sendRight(r)
	}
	for r := 1; r < n; r += 2 {
		recvLeft(r)
		sendRight(r)
	}
	for r := 0; r < n; r += 2 {
		recvLeft(r)
	}
}

// Halo directions: west, east, south, north on the periodic px × py grid.
func opposite(d int) int { return d ^ 1 }

func (e *engine) neighbor(r, d int) int {
	px, py := e.grid.px, e.grid.py
	x, y := r%px, r/px
	switch d {
	case 0:
		x = (x - 1 + px) % px
	case 1:
		x = (x + 1) % px
	case 2:
		y = (y - 1 + py) % py
	default:
		y = (y + 1) % py
	}
	return y*px + x
}

type haloReq struct {
	recv bool
	d    int
	comp int64 // completion time: the arrival of a receive, the isend call of a send (eager)
	idx  int   // position among the rank's posted requests, receives first
}

// Halo variants: how a rank completes its requests.
const (
	haloWaitall  = iota // one MPI_Test on the first receive, then MPI_Waitall in a shuffled order
	haloWaitany         // one MPI_Waitany per request, in completion order
	haloWaitsome        // MPI_Waitsome until done, each returning what completed by its first event
)

// halo: a 2-D halo exchange on the periodic process grid, SMG2000-style:
// compute; MPI_Irecv from every neighbour; MPI_Isend to every neighbour
// (tag = 100 + direction of travel, so two directions to the same neighbour
// stay apart); then one completion variant, drawn per step for all ranks.
// Completions are recorded in an order other than posting: shuffled
// (Waitall), by completion time (Waitany, Waitsome).
func (e *engine) halo() {
	n := e.n
	if e.arr4 == nil {
		e.arr4 = make([]int64, 4*n)
		e.stime4 = make([]int64, 4*n)
		e.sreq4 = make([]uint64, 4*n)
		e.rreq4 = make([]uint64, 4*n)
	}
	// Face sizes: west/east messages carry sx bytes, south/north sy.
	sx := uint64(8 * (64 + e.rng.IntN(960)))
	sy := uint64(8 * (64 + e.rng.IntN(960)))
	size := func(d int) uint64 {
		if d < 2 {
			return sx
		}
		return sy
	}
	variant := e.rng.IntN(3)
	for r := range n {
		e.computePhase(r)
		for d := range 4 {
			nb := e.neighbor(r, d)
			if nb == r {
				continue
			}
			e.enter(r, regIrecv)
			q := e.newReq(r)
			e.cur[r].AppendReq(trace.KindIrecvRequest, e.at(r, none), q)
			e.rreq4[4*r+d] = q
			e.leave(r, regIrecv)
		}
		for d := range 4 {
			nb := e.neighbor(r, d)
			if nb == r {
				continue
			}
			e.enter(r, regIsend)
			q := e.newReq(r)
			t := e.send(r, trace.KindIsend, trace.Message{Peer: uint32(nb), Tag: tagHalo + uint32(d), Bytes: size(d), Request: q})
			e.sreq4[4*r+d] = q
			e.stime4[4*r+d] = t
			e.arr4[4*nb+opposite(d)] = t + e.delay(r, nb, size(d))
			e.leave(r, regIsend)
		}
	}
	for r := range n {
		e.haloComplete(r, variant, size)
	}
}

func (e *engine) haloComplete(r, variant int, size func(int) uint64) {
	list := e.pendReq[:0]
	for d := range 4 {
		if e.neighbor(r, d) != r {
			list = append(list, haloReq{recv: true, d: d, comp: e.arr4[4*r+d], idx: len(list)})
		}
	}
	for d := range 4 {
		if e.neighbor(r, d) != r {
			list = append(list, haloReq{d: d, comp: e.stime4[4*r+d], idx: len(list)})
		}
	}
	e.pendReq = list
	if len(list) == 0 {
		return
	}
	record := func(q haloReq, t int64) {
		if q.recv {
			nb := e.neighbor(r, q.d)
			od := opposite(q.d)
			e.cur[r].AppendMsg(trace.KindIrecv, t, trace.Message{
				Peer: uint32(nb), Tag: tagHalo + uint32(od), Bytes: size(od), Request: e.rreq4[4*r+q.d],
			})
		} else {
			e.cur[r].AppendReq(trace.KindIsendComplete, t, e.sreq4[4*r+q.d])
		}
	}
	switch variant {
	case haloWaitall:
		// MPI_Test on the first receive: it completes inside MPI_Test if
		// its message is there already, otherwise the test fails.
		e.enter(r, regTest)
		t := e.at(r, none)
		if list[0].comp <= t {
			record(list[0], t)
			list = list[1:]
		} else {
			e.cur[r].AppendReq(trace.KindRequestTest, t, e.rreq4[4*r+list[0].d])
		}
		e.leave(r, regTest)
		e.enter(r, regWaitall)
		last := int64(none)
		for _, q := range list {
			last = max(last, q.comp)
		}
		e.rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
		for i, q := range list {
			dep := int64(none)
			if i == 0 {
				dep = last
			}
			record(q, e.at(r, dep))
		}
		e.leave(r, regWaitall)
	case haloWaitany:
		sortByCompletion(list)
		for _, q := range list {
			e.enter(r, regWaitany)
			record(q, e.at(r, q.comp))
			e.leave(r, regWaitany)
		}
	default:
		sortByCompletion(list)
		for i := 0; i < len(list); {
			e.enter(r, regWaitsome)
			t := e.at(r, list[i].comp)
			record(list[i], t)
			for i++; i < len(list) && list[i].comp <= t; i++ {
				record(list[i], e.at(r, none))
			}
			e.leave(r, regWaitsome)
		}
	}
}

func sortByCompletion(list []haloReq) {
	slices.SortFunc(list, func(a, b haloReq) int {
		return cmp.Or(cmp.Compare(a.comp, b.comp), cmp.Compare(a.idx, b.idx))
	})
}

// pairs: every rank computes, then the ranks are paired at random (one
// idle when the count is odd) and each pair either exchanges messages with
// MPI_Sendrecv (4 events per rank) or sends one message with MPI_Send to
// MPI_Recv (3 events per rank); tags 20 … 27.
func (e *engine) pairs() {
	n := e.n
	e.computeAll()
	perm := e.perm[:n]
	for i := range perm {
		perm[i] = int32(i)
	}
	e.rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	for i := 0; i+1 < n; i += 2 {
		a, b := int(perm[i]), int(perm[i+1])
		tag := uint32(tagPairs + e.rng.IntN(8))
		sa, sb := e.msgSize(), e.msgSize()
		if e.rng.IntN(2) == 0 {
			e.enter(a, regSendrecv)
			ta := e.send(a, trace.KindSend, trace.Message{Peer: uint32(b), Tag: tag, Bytes: sa})
			e.now[a] += e.sendOv
			e.enter(b, regSendrecv)
			tb := e.send(b, trace.KindSend, trace.Message{Peer: uint32(a), Tag: tag, Bytes: sb})
			e.now[b] += e.sendOv
			arrAB := ta + e.delay(a, b, sa)
			arrBA := tb + e.delay(b, a, sb)
			e.cur[a].AppendMsg(trace.KindRecv, e.at(a, arrBA), trace.Message{Peer: uint32(b), Tag: tag, Bytes: sb})
			e.leave(a, regSendrecv)
			e.cur[b].AppendMsg(trace.KindRecv, e.at(b, arrAB), trace.Message{Peer: uint32(a), Tag: tag, Bytes: sa})
			e.leave(b, regSendrecv)
		} else {
			e.enter(a, regSend)
			ta := e.send(a, trace.KindSend, trace.Message{Peer: uint32(b), Tag: tag, Bytes: sa})
			e.now[a] += e.sendOv
			e.leave(a, regSend)
			e.enter(b, regRecv)
			e.cur[b].AppendMsg(trace.KindRecv, e.at(b, ta+e.delay(a, b, sa)), trace.Message{Peer: uint32(a), Tag: tag, Bytes: sa})
			e.leave(b, regRecv)
		}
	}
}

// master: master–worker with rank 0 as the master. Every rank computes;
// each worker sends its result (tag 1, 2 or 3) with MPI_Send and posts an
// MPI_Recv for new work; the master receives with MPI_ANY_SOURCE and
// MPI_ANY_TAG, so its receives complete in arrival order (recorded with the
// resolved source and tag), and answers each sender at once with MPI_Send
// (tag 0). Per step: 2 + 6·(n−1) events at the master, 8 at each worker,
// 2·(n−1) messages.
func (e *engine) master() {
	n := e.n
	e.computeAll()
	if n < 2 {
		return
	}
	work := e.msgSize()
	for w := 1; w < n; w++ {
		tag := uint32(tagResult + e.rng.IntN(3))
		size := e.msgSize()
		e.enter(w, regSend)
		t := e.send(w, trace.KindSend, trace.Message{Peer: 0, Tag: tag, Bytes: size})
		e.arr[w] = t + e.delay(w, 0, size)
		e.u32[w], e.u64[w] = tag, size
		e.now[w] += e.sendOv
		e.leave(w, regSend)
		e.enter(w, regRecv)
	}
	order := e.perm[:n-1]
	for i := range order {
		order[i] = int32(i + 1)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(e.arr[a], e.arr[b]), cmp.Compare(a, b))
	})
	for _, w32 := range order {
		w := int(w32)
		e.enter(0, regRecv)
		e.cur[0].AppendMsg(trace.KindRecv, e.at(0, e.arr[w]), trace.Message{Peer: uint32(w), Tag: e.u32[w], Bytes: e.u64[w]})
		e.leave(0, regRecv)
		e.enter(0, regSend)
		ts := e.send(0, trace.KindSend, trace.Message{Peer: uint32(w), Tag: tagWork, Bytes: work})
		e.now[0] += e.sendOv
		e.leave(0, regSend)
		e.cur[w].AppendMsg(trace.KindRecv, e.at(w, ts+e.delay(0, w, work)), trace.Message{Peer: 0, Tag: tagWork, Bytes: work})
		e.leave(w, regRecv)
	}
}
