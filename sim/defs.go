package sim

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/clc-tools/clc/trace"
)

// Region indices of the definitions every simulated trace carries.
const (
	regMain uint32 = iota
	regCompute
	regInit
	regFinalize
	regSend
	regRecv
	regIsend
	regIrecv
	regSendrecv
	regWaitall
	regWaitany
	regWaitsome
	regTest
	regCommSplit
	regCollBase // + CollOp: MPI_Barrier … MPI_Reduce_scatter_block
)

// collRegionNames are the MPI function names of the collective operations,
// indexed by trace.CollOp.
var collRegionNames = []string{
	"MPI_Barrier", "MPI_Bcast", "MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv",
	"MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw",
	"MPI_Allreduce", "MPI_Reduce", "MPI_Reduce_scatter", "MPI_Scan", "MPI_Exscan",
	"MPI_Reduce_scatter_block",
}

// RegionNames returns the names of the regions of every simulated trace,
// in the order of Trace.Regions.
func RegionNames() []string {
	out := []string{
		"main", "compute", trace.RegionMPIInit, trace.RegionMPIFinalize,
		"MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Sendrecv",
		"MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test", "MPI_Comm_split",
	}
	return append(out, collRegionNames...)
}

func collRegion(op trace.CollOp) uint32 { return regCollBase + uint32(op) }

// grid is the px × py process grid of the halo exchange and of the row and
// column communicators: rank r sits at x = r mod px, y = r / px.
type grid struct{ px, py int }

// newGrid factors n into px × py with px ≥ py and px as close to √n as
// possible (a prime n gives n × 1).
func newGrid(n int) grid {
	py := 1
	for d := 1; d*d <= n; d++ {
		if n%d == 0 {
			py = d
		}
	}
	return grid{px: n / py, py: py}
}

// usesSubComms reports whether the patterns need the row and column
// communicators.
func usesSubComms(patterns []string) bool {
	for _, p := range patterns {
		if p == "subcoll" {
			return true
		}
	}
	return false
}

// Communicator layout: 0 is MPI_COMM_WORLD; with "subcoll", rows follow
// (row y at 1+y, members in ascending world rank) and then columns (column x
// at 1+py+x, members in DESCENDING world rank: split with key = −rank, so
// that communicator ranks differ from world order).
func buildComms(n int, g grid, sub bool) []trace.Comm {
	world := make([]int32, n)
	for i := range world {
		world[i] = int32(i)
	}
	comms := []trace.Comm{{Name: "MPI_COMM_WORLD", Members: world}}
	if !sub {
		return comms
	}
	for y := 0; y < g.py; y++ {
		m := make([]int32, g.px)
		for x := range m {
			m[x] = int32(y*g.px + x)
		}
		comms = append(comms, trace.Comm{Name: "row " + strconv.Itoa(y), Members: m})
	}
	for x := 0; x < g.px; x++ {
		m := make([]int32, g.py)
		for i := range m {
			m[i] = int32((g.py-1-i)*g.px + x)
		}
		comms = append(comms, trace.Comm{Name: "column " + strconv.Itoa(x), Members: m})
	}
	return comms
}

// Definitions returns the definitions (nodes, locations, regions,
// communicators, resolution, properties; no events, no offsets) of the
// recorded trace cfg describes. Create the recorded trace's sink with them;
// Run adds the offset measurements to the sink's Defs before it returns.
func Definitions(cfg Config) (*trace.Trace, error) {
	return definitions(cfg, false)
}

// TruthDefinitions returns the definitions of the truth trace: the same as
// Definitions' but marked as truth; its times are true times, so it never
// has offsets.
func TruthDefinitions(cfg Config) (*trace.Trace, error) {
	return definitions(cfg, true)
}

func definitions(cfg Config, truth bool) (*trace.Trace, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	n := cfg.Ranks
	nodes := (n + cfg.RanksPerNode - 1) / cfg.RanksPerNode
	t := &trace.Trace{
		Resolution: cfg.Resolution,
		Nodes:      make([]trace.Node, nodes),
		Locations:  make([]*trace.Location, n),
		Comms:      buildComms(n, newGrid(n), usesSubComms(cfg.Patterns)),
		Properties: map[string]string{"creator": "clc-sim 1"},
	}
	for i := range t.Nodes {
		t.Nodes[i].Name = "node" + strconv.Itoa(i)
	}
	locs := make([]trace.Location, n)
	for r := range locs {
		locs[r] = trace.Location{ID: uint64(r), Name: "rank " + strconv.Itoa(r), Node: int32(r / cfg.RanksPerNode)}
		t.Locations[r] = &locs[r]
	}
	for _, name := range RegionNames() {
		t.Regions = append(t.Regions, trace.Region{Name: name})
	}
	if cfg.Threads > 1 {
		addThreadDefs(t, &cfg)
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("sim: encoding the configuration: %w", err)
	}
	t.Properties["clc-sim.config"] = string(js)
	t.Properties["clc-sim.seed"] = strconv.FormatInt(cfg.Seed, 10)
	// Ranks on a node share its clock (trace.PropClockDomain).
	t.Properties[trace.PropClockDomain] = "node"
	if truth {
		t.Properties["clc-sim.role"] = "truth"
	} else {
		t.Properties["clc-sim.role"] = "recorded"
	}
	return t, nil
}
