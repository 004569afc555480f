package replay

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/trace"
)

// selected returns t with every location's events reduced to what Needs
// selects.
func selected(t *trace.Trace) *trace.Trace {
	keep := Needs(t)
	out := *t
	out.Locations = make([]*trace.Location, len(t.Locations))
	for li, l := range t.Locations {
		nl := *l
		nl.Events = l.Events.Select(keep)
		out.Locations[li] = &nl
	}
	return &out
}

// Matching the selection Needs makes finds exactly the relation matching
// the whole trace finds: the same dependencies (by position in the whole
// sequence), instances, counts and issues, on random MPI and hybrid traces,
// with and without collective begins.
func TestSelectionMatchesLikeTheWholeTrace(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	for seed := 0; seed < n; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 31))
		cfg := tracetest.Config{Locations: 1 + rng.IntN(8), Nodes: 1 + rng.IntN(3), Ops: rng.IntN(80),
			Latency: 1 + rng.Int64N(10), Offset: rng.Int64N(100), Unmatched: 0.05, Init: rng.IntN(2) == 0}
		if rng.IntN(2) == 0 {
			cfg.Threads = 1 + rng.IntN(4)
			cfg.Metrics = rng.IntN(2) == 0
		}
		tr, _ := tracetest.Random(rng, cfg)
		if rng.IntN(3) == 0 {
			tr = tracetest.WithoutCollBegins(tr)
		}
		name := fmt.Sprintf("seed %d (%+v)", seed, cfg)
		opt := &MatchOptions{Alltoallv: AlltoallvPolicy(rng.IntN(2))}
		want, err := Match(tr, opt)
		require.NoError(t, err, name)
		sel := selected(tr)
		require.NoError(t, sel.Validate(), name)
		got, err := Match(sel, opt)
		require.NoError(t, err, name)
		require.Equal(t, want.Deps, got.Deps, name)
		require.Equal(t, want.Instances, got.Instances, name)
		require.Equal(t, want.Parts, got.Parts, name)
		require.Equal(t, want.Messages, got.Messages, name)
		require.Equal(t, want.LogicalMessages, got.LogicalMessages, name)
		require.Equal(t, want.Ignored, got.Ignored, name)
		require.Equal(t, want.Issues, got.Issues, name)
	}
}
