package native

import (
	"context"
	"fmt"
	"io"
	"maps"

	"github.com/clc-tools/clc/trace"
)

// RewriteTimes writes into dst (which must not exist or be empty) a copy of
// the native trace src in which event i of location li has the time
// times[li][i]: every record, payload and attachment is copied, one block
// at a time, so memory does not grow with the trace. The definitions are
// src's with its clock offsets left out (the new times have them folded
// in) and props as the trace properties. Each column must hold as many
// times as src's location holds events (of a trace cut mid-run: as many as
// can be read).
func RewriteTimes(ctx context.Context, dst, src string, times [][]int64, props map[string]string, opt *WriteOptions) error {
	par := 0
	if opt != nil {
		par = opt.Parallel
	}
	r, err := openDir(src, par)
	if err != nil {
		return err
	}
	defer r.Close()
	in := r.Defs()
	if len(times) != len(in.Locations) {
		return fmt.Errorf("native rewrite: %d time columns for the %d locations of %s", len(times), len(in.Locations), src)
	}
	defs := *in
	defs.Properties = maps.Clone(props)
	defs.Locations = make([]*trace.Location, len(in.Locations))
	for i, l := range in.Locations {
		nl := *l
		nl.Offsets = nil
		nl.Events = trace.Events{}
		defs.Locations[i] = &nl
	}
	w, err := CreateDir(dst, &defs, opt)
	if err != nil {
		return err
	}
	err = forEach(len(times), parallelism(par), func(li int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, err := r.Stream(li)
		if err != nil {
			return err
		}
		defer s.Close()
		ts := times[li]
		var ev trace.Events
		off := 0
		for {
			ev.Reset()
			err := s.Next(&ev)
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			n := ev.Len()
			if off+n > len(ts) {
				return fmt.Errorf("native rewrite: location %d of %s has more than the %d events given times", li, src, len(ts))
			}
			copy(ev.Time, ts[off:off+n])
			off += n
			if err := w.Append(li, &ev); err != nil {
				return err
			}
		}
		if off != len(ts) {
			return fmt.Errorf("native rewrite: location %d of %s has %d events, %d times given", li, src, off, len(ts))
		}
		return nil
	})
	if err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}
