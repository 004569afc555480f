package native

import (
	"context"
	"fmt"
	"io"
	"maps"
	"sync"

	"github.com/clc-tools/clc/internal/par"
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
	return r.RewriteTimes(ctx, dst, times, props, opt)
}

// RewriteTimes is the package's RewriteTimes from the open directory r
// (after ReadSelected, without reading its manifest again): the
// definitions are the manifest's, whatever the caller did to Defs().
func (r *DirReader) RewriteTimes(ctx context.Context, dst string, times [][]int64, props map[string]string, opt *WriteOptions) error {
	src := r.dir
	// The writer does not change the definitions: the reader's copy serves.
	defs := r.rewriteDefs
	if len(times) != len(defs.Locations) {
		return fmt.Errorf("native rewrite: %d time columns for the %d locations of %s", len(times), len(defs.Locations), src)
	}
	defs.Properties = maps.Clone(props)
	weight := func(li int) int64 { return int64(len(times[li])) + 1 }
	w, err := createDir(dst, &defs, opt, weight)
	if err != nil {
		return err
	}
	// Each location is finished before the next of its range, so that a
	// bundle's bytes do not depend on scheduling (eachRange).
	err = w.eachRange(weight, func(lo, hi int) error {
		var ev trace.Events
		for li := lo; li < hi; li++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := rewriteLocation(ctx, r, w, li, times[li], src, &ev); err != nil {
				return err
			}
			if _, err := w.finish(li); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// CopyTo streams every location's events into sink, one block at a time,
// event i of location li with the time times[li][i] (a column as long as
// the location's events, as for RewriteTimes), or with its own time when
// times is nil: a conversion to another format (an OTF2 archive's
// otf.Writer, say) in the memory of a few blocks. It runs opt.Parallel
// locations at a time (opt nil: GOMAXPROCS); the locations of each range
// of a trace.RangedSink one after another, in order. Of a trace whose run
// did not finish, it marks the definitions (Defs) as a read does
// (trace.PropIncomplete, trace.PropTruncated). It does not close sink, and stops at the
// next location when ctx is cancelled.
func (r *DirReader) CopyTo(ctx context.Context, sink trace.Sink, times [][]int64, opt *ReadOptions) error {
	n := len(r.m.counts)
	if times != nil && len(times) != n {
		return fmt.Errorf("native copy: %d time columns for the %d locations of %s", len(times), n, r.dir)
	}
	np := 0
	if opt != nil {
		np = opt.Parallel
	}
	b, err := trace.AppendRanges(sink, n)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	var truncated []int
	err = par.DoEachWith(ctx, len(b)-1, parallelism(np), func() *trace.Events { return new(trace.Events) },
		func(ev *trace.Events, k int) error {
			for li := b[k]; li < b[k+1]; li++ {
				if err := ctx.Err(); err != nil {
					return err
				}
				var ts []int64 // nil: the events' own times
				if times != nil {
					if ts = times[li]; ts == nil {
						ts = []int64{}
					}
				}
				cut, err := copyLocation(ctx, r, sink, li, ts, r.dir, ev)
				if err != nil {
					return err
				}
				if cut {
					mu.Lock()
					truncated = append(truncated, li)
					mu.Unlock()
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	r.markIncomplete(truncated)
	return nil
}

// appender takes a location's events a part at a time: a DirWriter, a
// trace.Sink.
type appender interface {
	Append(loc int, ev *trace.Events) error
}

// rewriteLocation appends location li of r to w with the times ts.
func rewriteLocation(ctx context.Context, r *DirReader, w appender, li int, ts []int64, src string, ev *trace.Events) error {
	if ts == nil {
		ts = []int64{}
	}
	_, err := copyLocation(ctx, r, w, li, ts, src, ev)
	return err
}

// copyLocation appends location li of r to w, with the times ts (nil: the
// events' own), and reports whether its stream was cut (a run that did not
// finish). It stops when ctx is cancelled.
func copyLocation(ctx context.Context, r *DirReader, w appender, li int, ts []int64, src string, ev *trace.Events) (bool, error) {
	s, err := r.Stream(li)
	if err != nil {
		return false, err
	}
	defer s.Close()
	off := 0
	for {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		ev.Reset()
		err := s.Next(ev)
		if err == io.EOF {
			break
		}
		if err != nil {
			return false, err
		}
		n := ev.Len()
		if ts != nil {
			if off+n > len(ts) {
				return false, fmt.Errorf("native: location %d of %s has more than the %d events given times", li, src, len(ts))
			}
			copy(ev.Time, ts[off:off+n])
		}
		off += n
		if err := w.Append(li, ev); err != nil {
			return false, err
		}
	}
	if ts != nil && off != len(ts) {
		return false, fmt.Errorf("native: location %d of %s has %d events, %d times given", li, src, off, len(ts))
	}
	return s.Truncated(), nil
}
