package trace

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Trace properties (Trace.Properties) that clc's commands write and read,
// in the native manifest's spelling. An OTF2 archive holds them as anchor
// properties in its own spelling (package otf maps the two).
const (
	// PropClockDomain says which locations share a clock: "node" when
	// every node has one clock (clc-sim; clc-trace unless its clock
	// emulation gives each rank its own).
	PropClockDomain = "clc.clock-domain"
	// PropIncomplete is "true" when the writer could not finish (a traced
	// program that aborted, a manifest with "complete": false).
	PropIncomplete = "clc.incomplete"
	// PropTruncated lists, comma-separated, the location indices whose
	// stream ended inside a block (or was missing); their last partial
	// block was dropped.
	PropTruncated = "clc.truncated"
	// PropUnrecordedMPI lists, comma-separated, the communicating MPI
	// functions the program imports and the tracer does not record
	// ("none" when there are none).
	PropUnrecordedMPI = "clc.unrecorded-mpi"
	// PropMPIGroups is the MPI function groups clc-trace recorded (its
	// --mpi-groups).
	PropMPIGroups = "clc.mpi-groups"
	// PropPolls says how clc-trace recorded unsuccessful tests and probes
	// (its --polls: "collapse" or "all").
	PropPolls = "clc.polls"
	// PropCorrected names the program that corrected the trace's times.
	PropCorrected = "clc.corrected"
)

// TruncatedList returns the value of PropTruncated for the locations
// locs: sorted, comma-separated ("" for none). It sorts locs.
func TruncatedList(locs []int) string {
	slices.Sort(locs)
	s := make([]string, len(locs))
	for i, l := range locs {
		s[i] = strconv.Itoa(l)
	}
	return strings.Join(s, ",")
}

// ParseTruncated returns the locations a PropTruncated value lists.
func ParseTruncated(v string) ([]int, error) {
	if v == "" {
		return nil, nil
	}
	var out []int
	for _, s := range strings.Split(v, ",") {
		l, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("property %s: %q is not a location: %w", PropTruncated, s, err)
		}
		out = append(out, l)
	}
	return out, nil
}
