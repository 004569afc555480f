// Package truthfile reads the true times of a trace's events from a JSON
// file, the form in which generators of test traces outside clc (and the
// traces users send with their true times) give them:
//
//	{"resolution": ticks per second,
//	 "<location id>": [the true time of each of its events, in file order], …}
//
// A native truth/ directory (clc-sim, clc-trace's clock emulation) is read
// by package native instead.
package truthfile

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/clc-tools/clc/internal/infile"
	"github.com/clc-tools/clc/trace"
)

// Name is the file's name beside an archive.
const Name = "truth.json"

// bytesPerTime bounds the bytes of one time in the file: 20 digits and a
// sign, a separator, and indentation.
const bytesPerTime = 48

// Read reads the true times of a trace's events from the file at path:
// one column per location, ids[i] the location's OTF2 id and events[i]
// its number of events, in the trace's order. It fails, naming the file
// and the location, when the resolution differs from res (ticks per
// second), a location has no times, or a location's count differs from
// its events'.
// The file is read only if it is a regular file of at most the size such
// times can take (bytesPerTime per event, a little more per location).
func Read(path string, res uint64, ids []uint64, events []int) ([][]int64, error) {
	limit := int64(1 << 20)
	for i := range ids {
		limit += 64 + bytesPerTime*int64(events[i])
	}
	b, err := infile.ReadFile(path, limit)
	if err != nil {
		return nil, fmt.Errorf("truth file: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var r uint64
	if err := json.Unmarshal(raw["resolution"], &r); err != nil {
		return nil, fmt.Errorf("%s: resolution: %w", path, err)
	}
	if r != res {
		return nil, fmt.Errorf("%s: resolution %d, the trace's %d", path, r, res)
	}
	truth := make([][]int64, len(ids))
	for i, id := range ids {
		v, ok := raw[strconv.FormatUint(id, 10)]
		if !ok {
			return nil, fmt.Errorf("%s: no times for location %d", path, id)
		}
		if err := json.Unmarshal(v, &truth[i]); err != nil {
			return nil, fmt.Errorf("%s: location %d: %w", path, id, err)
		}
		if len(truth[i]) != events[i] {
			return nil, fmt.Errorf("%s: location %d has %d times for %d events", path, id, len(truth[i]), events[i])
		}
	}
	return truth, nil
}

// ReadFor reads the true times of tr's events (Read with tr's resolution,
// locations and events).
func ReadFor(path string, tr *trace.Trace) ([][]int64, error) {
	ids := make([]uint64, len(tr.Locations))
	events := make([]int, len(tr.Locations))
	for i, l := range tr.Locations {
		ids[i], events[i] = l.ID, l.Events.Len()
	}
	return Read(path, tr.Resolution, ids, events)
}
