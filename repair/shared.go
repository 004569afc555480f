package repair

import (
	"fmt"
	"strings"

	"github.com/clc-tools/clc/measure"
	"github.com/clc-tools/clc/replay"
)

// This file holds the report's shared-memory parts (hybrid traces: the
// relations among the threads of a process, docs/algorithm.md).

// SharedReport is the order of the shared-memory relations in a set of
// times: their total, and by kind ("fork", "join", "barrier", "lock",
// "task-create", "taskwait", "thread-create", "thread-join").
type SharedReport struct {
	ClassReport
	ByKind map[string]ClassReport `json:"by_kind,omitempty"`
}

// mpiInstances counts the collective instances of g, leaving out the
// shared-memory ones (forks, joins, barriers, taskwaits).
func mpiInstances(g *replay.Graph) int64 {
	var n int64
	for i := range g.Instances {
		if g.Instances[i].Kind == 0 {
			n++
		}
	}
	return n
}

// sharedRelations counts the shared-memory relations of g by kind (nil
// for a trace without any).
func sharedRelations(g *replay.Graph) map[string]int64 {
	if g.SyncTotal() == 0 {
		return nil
	}
	out := map[string]int64{}
	for k := replay.SyncFork; k < replay.NumSyncKinds; k++ {
		if g.Sync[k] > 0 {
			out[k.String()] = g.Sync[k]
		}
	}
	return out
}

// sharedReport is the shared-memory part of a violation report (nil for
// a trace without shared-memory relations).
func sharedReport(v *measure.Violations, res uint64) *SharedReport {
	t := v.SharedTotal()
	if t.Messages == 0 {
		return nil
	}
	r := &SharedReport{ClassReport: classReport(t, res), ByKind: map[string]ClassReport{}}
	for k := replay.SyncFork; k < replay.NumSyncKinds; k++ {
		if v.Shared[k].Messages > 0 {
			r.ByKind[k.String()] = classReport(v.Shared[k], res)
		}
	}
	return r
}

// writeSharedText writes the shared-memory lines of the text report.
func (r *Report) writeSharedText(p func(format string, args ...any)) {
	if len(r.Messages.Shared) == 0 {
		return
	}
	var parts []string
	var total int64
	for k := replay.SyncFork; k < replay.NumSyncKinds; k++ {
		if n := r.Messages.Shared[k.String()]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
			total += n
		}
	}
	p("  shared memory: %d relations between threads (%s)\n", total, strings.Join(parts, ", "))
	line := func(name string, s *SharedReport) {
		if s == nil {
			return
		}
		p("  %-7s shared-memory violations %d, reversed %d", name, s.Violations, s.Reversed)
		var kinds []string
		for k := replay.SyncFork; k < replay.NumSyncKinds; k++ {
			if c, ok := s.ByKind[k.String()]; ok && c.Violations > 0 {
				kinds = append(kinds, fmt.Sprintf("%s %d", k, c.Violations))
			}
		}
		if len(kinds) > 0 {
			p(" (%s)", strings.Join(kinds, ", "))
		}
		p("\n")
	}
	line("before:", r.Before.Shared)
	line("after:", r.After.Shared)
	p("  %d receives moved with another thread of their process (shared-memory relations)\n", r.Correction.SharedMoved)
}
