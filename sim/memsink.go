package sim

import "github.com/clc-tools/clc/trace"

// memSink is a trace.Sink that appends the events to its definitions'
// locations, in memory.
type memSink struct{ defs *trace.Trace }

func (m *memSink) Defs() *trace.Trace { return m.defs }

func (m *memSink) Append(loc int, ev *trace.Events) error {
	appendEvents(&m.defs.Locations[loc].Events, ev)
	return nil
}

func (m *memSink) Close() error { return nil }

// appendEvents appends all of src to dst, rebasing payload references.
func appendEvents(dst, src *trace.Events) {
	base := uint32(dst.Len())
	mb, cb, rb, ob := uint32(len(dst.Msgs)), uint32(len(dst.Colls)), uint32(len(dst.Reqs)), uint32(len(dst.Opaque))
	tb := uint32(len(dst.Threads))
	dst.Kind = append(dst.Kind, src.Kind...)
	dst.Time = append(dst.Time, src.Time...)
	for i, k := range src.Kind {
		r := src.Ref[i]
		switch {
		case k.HasMsg():
			r += mb
		case k.HasColl():
			r += cb
		case k.HasReq():
			r += rb
		case k.HasThread():
			r += tb
		case k == trace.KindOther:
			r += ob
		}
		dst.Ref = append(dst.Ref, r)
	}
	dst.Msgs = append(dst.Msgs, src.Msgs...)
	dst.Colls = append(dst.Colls, src.Colls...)
	dst.Reqs = append(dst.Reqs, src.Reqs...)
	dst.Threads = append(dst.Threads, src.Threads...)
	dst.Opaque = append(dst.Opaque, src.Opaque...)
	for _, a := range src.Attach {
		a.Event += base
		dst.Attach = append(dst.Attach, a)
	}
}
