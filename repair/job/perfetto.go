package job

import (
	"context"
	"path/filepath"

	"github.com/clc-tools/clc/perfetto"
)

// PerfettoFile is the name of the file a FormatPerfetto output directory
// holds.
const PerfettoFile = "trace.json.gz"

// writePerfetto writes the corrected trace into the output directory as
// trace.json.gz, a Chrome trace-event file for Perfetto's UI, and notes in
// the report what its size guard left out.
func (p *pipeline) writePerfetto(ctx context.Context) error {
	o := p.opts.Perfetto
	o.Creator = "clc-correct"
	s, err := perfetto.WriteFile(ctx, filepath.Join(p.j.outDir, PerfettoFile), p.tr, p.res.Graph, &o)
	if err != nil {
		return err
	}
	for _, l := range s.LeftOut {
		p.rep.Notes = append(p.rep.Notes, "perfetto export: "+l+" (see --perfetto-max-events, --perfetto-max-locations, --perfetto-window)")
	}
	return nil
}
