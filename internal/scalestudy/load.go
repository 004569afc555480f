package scalestudy

import (
	"time"

	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Loaded is a trace as clc-correct holds it before the correction: the
// definitions (their locations' events dropped once matched), every
// event's time as recorded, and the happened-before relation.
type Loaded struct {
	Defs  *trace.Trace
	Times [][]int64
	Graph *replay.Graph
	// Read is the wall time of reading (or simulating) the trace, Match
	// that of matching what the reader had not matched yet; ReadCPU and
	// MatchCPU are the process's CPU seconds in them.
	Read, Match       time.Duration
	ReadCPU, MatchCPU float64
}
