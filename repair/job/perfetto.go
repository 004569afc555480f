package job

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/clc-tools/clc/perfetto"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// PerfettoFile is the name of the file a FormatPerfetto output directory
// holds.
const PerfettoFile = "trace.json.gz"

// writePerfetto writes the corrected trace into the output directory as
// trace.json.gz, a Chrome trace-event file for Perfetto's UI, and notes in
// the report what its size guard left out.
func (p *pipeline) writePerfetto(ctx context.Context) error {
	return p.perfettoOf(ctx, p.tr, p.res.Graph)
}

// perfettoOf writes tr, whose messages g relates, as writePerfetto does.
func (p *pipeline) perfettoOf(ctx context.Context, tr *trace.Trace, g *replay.Graph) error {
	o := p.opts.Perfetto
	o.Creator = "clc-correct"
	s, err := perfetto.WriteFile(ctx, filepath.Join(p.j.outDir, PerfettoFile), tr, g, &o)
	if err != nil {
		return err
	}
	for _, l := range s.LeftOut {
		p.rep.Notes = append(p.rep.Notes, "perfetto export: "+l+" (see --perfetto-max-events, --perfetto-max-locations, --perfetto-window)")
	}
	return nil
}

// writePerfettoWhole writes the Perfetto export of a divided run on
// process 0, which holds every location's corrected times (p.times): it
// reads the input's events whole, as one process does for the export,
// gives them those times and matches their messages for the export's
// arrows.
func (p *pipeline) writePerfettoWhole(ctx context.Context) error {
	tr, err := p.j.in.Read(ctx, p.np)
	if err != nil {
		return p.inputErr(err)
	}
	if len(tr.Locations) != len(p.times) {
		return p.inputErr(fmt.Errorf("%d locations read whole for the Perfetto export, %d corrected", len(tr.Locations), len(p.times)))
	}
	for li := range tr.Locations {
		ev := &tr.Locations[li].Events
		if ev.Len() != len(p.times[li]) {
			return p.inputErr(fmt.Errorf("location %d: %d events read whole for the Perfetto export, %d corrected", li, ev.Len(), len(p.times[li])))
		}
		copy(ev.Time, p.times[li])
		tr.Locations[li].Offsets = nil // the corrected times include them
	}
	tr.Properties = p.tr.Properties // the correction's marks
	g, err := replay.Match(tr, p.matchOptions())
	if err != nil {
		return p.inputErr(err)
	}
	return p.perfettoOf(ctx, tr, g)
}
