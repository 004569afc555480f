package otf

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// checkSelected reads the archive at dir both ways and requires that
// ReadSelected gives exactly what Read followed by Select gives, and every
// time of the whole sequences.
func checkSelected(t *testing.T, dir string) {
	t.Helper()
	a, err := Open(dir)
	require.NoError(t, err, dir)
	whole, err := a.Read(context.Background(), &ReadOptions{Parallel: 2})
	require.NoError(t, err, dir)
	got, times, err := a.ReadSelected(context.Background(), &ReadOptions{Parallel: 2}, replay.Needs)
	require.NoError(t, err, dir)
	keep := replay.Needs(whole)
	require.Len(t, times, len(whole.Locations))
	for li, l := range whole.Locations {
		want := l.Events.Select(keep)
		g := &got.Locations[li].Events
		require.NoError(t, g.Check(), "%s location %d", dir, li)
		nilEmpty(&want)
		nilEmpty(g)
		require.Equal(t, want.Kind, g.Kind, "%s location %d", dir, li)
		require.Equal(t, want.Time, g.Time, "%s location %d", dir, li)
		require.Equal(t, want.Ref, g.Ref, "%s location %d", dir, li)
		require.Equal(t, want.Index, g.Index, "%s location %d", dir, li)
		require.Equal(t, want.Msgs, g.Msgs, "%s location %d", dir, li)
		require.Equal(t, want.Colls, g.Colls, "%s location %d", dir, li)
		require.Equal(t, want.Reqs, g.Reqs, "%s location %d", dir, li)
		require.Equal(t, want.Threads, g.Threads, "%s location %d", dir, li)
		require.Empty(t, g.Opaque, dir)
		require.Empty(t, g.Attach, dir)
		require.True(t, slices.Equal(l.Events.Time, times[li]), "%s location %d: the times of the whole sequence", dir, li)
		require.Equal(t, l.Offsets, got.Locations[li].Offsets, dir)
	}
	require.Equal(t, whole.Comms, got.Comms, dir)
	require.Equal(t, whole.Regions, got.Regions, dir)
}

// ReadSelected equals Read plus Select on the real archives and on random
// MPI and hybrid traces written as OTF2, some without collective begins
// (the enter then stands for the logical send).
func TestReadSelected(t *testing.T) {
	for _, dir := range realArchives(t) {
		checkSelected(t, dir)
	}
	for seed := range 40 {
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		cfg := tracetest.Config{Locations: 1 + rng.IntN(6), Nodes: 1 + rng.IntN(3), Ops: 20 + rng.IntN(80),
			Latency: 3, Offset: 50, Unmatched: 0.05, Init: seed%2 == 0}
		if seed%3 == 0 {
			cfg.Threads, cfg.Metrics = 3, true
		}
		tr, _ := tracetest.Random(rng, cfg)
		if seed%4 == 1 {
			tr = tracetest.WithoutCollBegins(tr)
		}
		for _, l := range tr.Locations { // OTF2 times are unsigned
			for i := range l.Events.Time {
				l.Events.Time[i] += 1_000_000
			}
			for i := range l.Offsets {
				l.Offsets[i].Time += 1_000_000
			}
		}
		dir := filepath.Join(t.TempDir(), fmt.Sprint(seed))
		require.NoError(t, WriteTrace(context.Background(), dir, tr, nil))
		checkSelected(t, dir)
	}
}

// nilEmpty makes every empty column of e nil, so that selections built in
// different ways compare equal.
func nilEmpty(e *trace.Events) {
	if len(e.Kind) == 0 {
		e.Kind, e.Ref, e.Index = nil, nil, nil
	}
	if len(e.Time) == 0 {
		e.Time = nil
	}
	if len(e.Msgs) == 0 {
		e.Msgs = nil
	}
	if len(e.Colls) == 0 {
		e.Colls = nil
	}
	if len(e.Reqs) == 0 {
		e.Reqs = nil
	}
	if len(e.Threads) == 0 {
		e.Threads = nil
	}
}
