// Package tracelabel names the locations and nodes of a trace for people
// reading a report or a timeline.
package tracelabel

import (
	"fmt"

	"github.com/clc-tools/clc/trace"
)

// Locations returns a label for every location of t: its name, with its
// rank in MPI_COMM_WORLD when the name does not say it (Score-P calls every
// rank "Master thread"), or "location i" when it has no name.
func Locations(t *trace.Trace) []string {
	rank := make([]int, len(t.Locations))
	for i := range rank {
		rank[i] = -1
	}
	for i := range t.Comms {
		if t.Comms[i].Name == "MPI_COMM_WORLD" {
			for r, m := range t.Comms[i].Members {
				rank[m] = r
			}
			break
		}
	}
	out := make([]string, len(t.Locations))
	for i, l := range t.Locations {
		r := rank[i]
		switch {
		case l.Name == "" && r >= 0:
			out[i] = fmt.Sprintf("rank %d", r)
		case l.Name == "":
			out[i] = fmt.Sprintf("location %d", i)
		case r >= 0 && l.Name != fmt.Sprintf("rank %d", r):
			out[i] = fmt.Sprintf("rank %d (%s)", r, l.Name)
		default:
			out[i] = l.Name
		}
	}
	return out
}

// Nodes returns a label for every node of t: its name, or "node i".
func Nodes(t *trace.Trace) []string {
	out := make([]string, len(t.Nodes))
	for i, n := range t.Nodes {
		out[i] = n.Name
		if n.Name == "" {
			out[i] = fmt.Sprintf("node %d", i)
		}
	}
	return out
}
