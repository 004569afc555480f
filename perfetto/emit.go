package perfetto

import (
	"sort"
	"strconv"
	"strings"

	"github.com/clc-tools/clc/internal/tracelabel"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// raw appends s to the output buffer.
func (x *exporter) raw(s string) {
	x.buf = append(x.buf, s...)
	if len(x.buf) >= 256<<10 {
		x.flush()
	}
}

func (x *exporter) flush() {
	if x.err == nil && len(x.buf) > 0 {
		_, x.err = x.w.Write(x.buf)
	}
	x.buf = x.buf[:0]
}

// quote returns s as a JSON string.
func quote(s string) string { return strconv.Quote(jsonSafe(s)) }

// begin starts a trace event on track (pid, tid) of location l.
func (x *exporter) begin(ph string, l int) {
	if x.first {
		x.buf = append(x.buf, "\n{\"ph\":\""...)
		x.first = false
	} else {
		x.buf = append(x.buf, ",\n{\"ph\":\""...)
	}
	x.buf = append(x.buf, ph...)
	x.buf = append(x.buf, `","pid":`...)
	x.buf = strconv.AppendInt(x.buf, int64(x.t.Locations[l].Node)+1, 10)
	x.buf = append(x.buf, `,"tid":`...)
	x.buf = strconv.AppendInt(x.buf, int64(l)+1, 10)
}

// appendMicros appends nanoseconds as microseconds with three decimals.
func appendMicros(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1000, 10)
	f := ns % 1000
	return append(b, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
}

// slice writes a complete event from a to b (ticks) with name and category
// (JSON strings) and the JSON members in extra (may be "").
func (x *exporter) slice(l int, a, b int64, name, cat, extra string) {
	x.begin("X", l)
	na, nb := x.ns(a), x.ns(b)
	x.buf = append(x.buf, `,"ts":`...)
	x.buf = appendMicros(x.buf, na)
	x.buf = append(x.buf, `,"dur":`...)
	x.buf = appendMicros(x.buf, nb-na)
	x.buf = append(x.buf, `,"name":`...)
	x.buf = append(x.buf, name...)
	x.buf = append(x.buf, `,"cat":`...)
	x.buf = append(x.buf, cat...)
	x.buf = append(x.buf, extra...)
	x.buf = append(x.buf, '}')
	if len(x.buf) >= 256<<10 {
		x.flush()
	}
}

// header writes the file's metadata and the names of the kept nodes and
// locations.
func (x *exporter) header(o *Options) {
	creator := o.Creator
	if creator == "" {
		creator = "clc"
	}
	x.raw(`{"displayTimeUnit":"ns","otherData":{"creator":` + quote(creator))
	x.raw(`,"time_zero":` + quote("the trace's first event, "+strconv.FormatInt(x.t0, 10)+" ticks"))
	x.raw(`,"timer_resolution":` + strconv.FormatUint(x.t.Resolution, 10))
	x.raw(`,"tracks":"one thread per location (tid = location index + 1), one process per node (pid = node index + 1)"`)
	if len(x.s.LeftOut) > 0 {
		x.raw(`,"left_out":` + quote(strings.Join(x.s.LeftOut, "; ")))
	}
	x.raw(`},"traceEvents":[`)
	nodes := tracelabel.Nodes(x.t)
	named := make([]bool, len(nodes))
	for l, loc := range x.t.Locations {
		if !x.kept[l] {
			continue
		}
		if n := loc.Node; !named[n] {
			named[n] = true
			x.begin("M", l)
			x.raw(`,"name":"process_name","args":{"name":` + quote(nodes[n]) + `}}`)
			x.begin("M", l)
			x.raw(`,"name":"process_sort_index","args":{"sort_index":` + strconv.Itoa(int(n)) + `}}`)
		}
		x.begin("M", l)
		x.raw(`,"name":"thread_name","args":{"name":` + x.labels[l] + `}}`)
		x.begin("M", l)
		x.raw(`,"name":"thread_sort_index","args":{"sort_index":` + strconv.Itoa(l) + `}}`)
	}
}

// pair finds, for each enter and blocking-collective begin of ev, the
// index of its leave or end (-1: none before the location's end).
func (x *exporter) pair(ev *trace.Events) []int32 {
	n := ev.Len()
	if cap(x.end) < n {
		x.end = make([]int32, n)
	}
	end := x.end[:n]
	var stack []int32
	coll := int32(-1)
	for i, k := range ev.Kind {
		end[i] = -1
		switch k {
		case trace.KindEnter:
			stack = append(stack, int32(i))
		case trace.KindLeave:
			if len(stack) == 0 {
				x.unopened++
				continue
			}
			end[stack[len(stack)-1]] = int32(i)
			stack = stack[:len(stack)-1]
		case trace.KindCollBegin:
			coll = int32(i)
		case trace.KindCollEnd:
			if coll >= 0 {
				end[coll] = int32(i)
				coll = -1
			}
		}
	}
	return end
}

// depAt returns location l's dependency at event i, if any.
func (x *exporter) depAt(l, i int) (replay.Dep, bool) {
	deps := x.g.Deps[l]
	k := sort.Search(len(deps), func(j int) bool { return int(deps[j].Idx) >= i })
	if k < len(deps) && int(deps[k].Idx) == i {
		return deps[k], true
	}
	return replay.Dep{}, false
}

func (x *exporter) in(t int64) bool { return t >= x.win[0] && t <= x.win[1] }

// location writes the slices of location l.
func (x *exporter) location(l int) {
	ev := &x.t.Locations[l].Events
	n := ev.Len()
	if n == 0 {
		return
	}
	end := x.pair(ev)
	ts := ev.Time
	for i, k := range ev.Kind {
		if i%cancelEvery == cancelEvery-1 {
			if x.err = x.ctx.Err(); x.err != nil {
				return
			}
		}
		switch {
		case k == trace.KindEnter || k == trace.KindCollBegin:
			e, extra := int(end[i]), ""
			if e < 0 {
				e, extra = n-1, `,"args":{"unclosed":true}`
				if k == trace.KindEnter {
					x.unclosed++
				}
			}
			a, b := ts[i], ts[e]
			if a > x.win[1] || b < x.win[0] {
				continue
			}
			a, b = max(a, x.win[0]), min(b, x.win[1])
			if k == trace.KindEnter {
				r := ev.Ref[i]
				x.slice(l, a, b, x.regions[r], x.cats[r], extra)
				x.s.Slices++
			} else {
				x.collective(l, i, e, a, b)
			}
		case k == trace.KindNBCollRequest || k == trace.KindNBCollComplete:
			if x.in(ts[i]) {
				x.nbCollective(l, i)
			}
		case k.HasMsg():
			if x.in(ts[i]) {
				x.endpoint(l, i)
			}
		}
	}
}

// collective writes a blocking collective's slice from its begin i to its
// end e, clipped to [a, b].
func (x *exporter) collective(l, i, e int, a, b int64) {
	ev := &x.t.Locations[l].Events
	x.s.Collectives++
	if ev.Kind[e] != trace.KindCollEnd {
		x.slice(l, a, b, `"collective"`, `"collective"`, `,"args":{"unclosed":true}`)
		return
	}
	c := ev.Coll(e)
	x.slice(l, a, b, quote(c.Op.String()), `"collective"`, x.collArgs(l, e, i, c))
}

// collArgs describes a collective for its slice's args.
func (x *exporter) collArgs(l, at, alt int, c *trace.Collective) string {
	var b strings.Builder
	b.WriteString(`,"args":{`)
	d, ok := x.depAt(l, at)
	if !ok {
		d, ok = x.depAt(l, alt)
	}
	if ok && (d.Role == replay.RoleCollSend || d.Role == replay.RoleCollRecv) {
		in := &x.g.Instances[d.Ref]
		b.WriteString(`"instance":` + strconv.FormatUint(uint64(d.Ref), 10) + `,"members":` + strconv.FormatUint(uint64(in.N), 10) + `,"pattern":` + quote(in.Class.String()) + `,`)
	} else {
		b.WriteString(`"instance":"none (kept internal)",`)
	}
	if c != nil {
		if int(c.Comm) < len(x.t.Comms) {
			b.WriteString(`"comm":` + x.comms[c.Comm] + `,`)
		}
		if c.Root != trace.NoRoot {
			b.WriteString(`"root":` + strconv.FormatUint(uint64(c.Root), 10) + `,`)
		}
		b.WriteString(`"sent":` + strconv.FormatUint(c.Sent, 10) + `,"received":` + strconv.FormatUint(c.Received, 10))
	} else {
		b.WriteString(`"part":"start"`)
	}
	b.WriteString("}")
	return b.String()
}

// nbCollective marks the start (request) or end (completion) of a
// non-blocking collective with a slice of length 0.
func (x *exporter) nbCollective(l, i int) {
	ev := &x.t.Locations[l].Events
	t := ev.Time[i]
	x.s.Collectives++
	if ev.Kind[i] == trace.KindNBCollComplete {
		c := ev.Coll(i)
		x.slice(l, t, t, quote(c.Op.String()+" complete"), `"collective"`, x.collArgs(l, i, i, c))
		return
	}
	name := `"non-blocking collective start"`
	if d, ok := x.depAt(l, i); ok && d.Role == replay.RoleCollSend {
		name = quote(x.g.Instances[d.Ref].Op.String() + " start")
	}
	x.slice(l, t, t, name, `"collective"`, x.collArgs(l, i, i, nil))
}

// endpoint writes the send or receive of a point-to-point message as a
// slice of length 0, with its end of the message's flow arrow when the
// other end is written too.
func (x *exporter) endpoint(l, i int) {
	ev := &x.t.Locations[l].Events
	t := ev.Time[i]
	m := ev.Msg(i)
	send := ev.Kind[i].IsSend()
	var b strings.Builder
	name, dir := `"recv"`, "from"
	if send {
		name, dir = `"send"`, "to"
	}
	b.WriteString(`,"args":{"` + dir + `":`)
	comm := &x.t.Comms[m.Comm]
	if int(m.Peer) < len(comm.Members) {
		b.WriteString(x.labels[comm.Members[m.Peer]])
	} else {
		b.WriteString(strconv.FormatUint(uint64(m.Peer), 10))
	}
	b.WriteString(`,"tag":` + strconv.FormatUint(uint64(m.Tag), 10) + `,"bytes":` + strconv.FormatUint(m.Bytes, 10) + `,"comm":` + x.comms[m.Comm])
	d, ok := x.depAt(l, i)
	matched := ok && (d.Role == replay.RoleSend || d.Role == replay.RoleRecv)
	if !matched {
		b.WriteString(`,"unmatched":true}`)
	} else {
		b.WriteString("}")
		peerT := x.t.Locations[d.Peer].Events.Time[d.Ref]
		switch {
		case !x.kept[d.Peer] || !x.in(peerT):
			x.halfFlows++ // counted at the one end that is written
		case send:
			b.WriteString(`,"bind_id":"0x` + strconv.FormatInt(x.base[l]+int64(i), 16) + `","flow_out":true`)
			x.s.Flows++
		default:
			b.WriteString(`,"bind_id":"0x` + strconv.FormatInt(x.base[d.Peer]+int64(d.Ref), 16) + `","flow_in":true`)
		}
	}
	x.slice(l, t, t, name, `"p2p"`, b.String())
	x.s.Endpoints++
}
