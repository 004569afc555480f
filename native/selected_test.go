package native

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// ReadSelected equals ReadDir plus Select, with blocks small enough that a
// collective's enter and end often lie in different blocks, on random MPI
// and hybrid traces with and without collective begins.
func TestReadSelected(t *testing.T) {
	for seed := range 60 {
		rng := rand.New(rand.NewPCG(uint64(seed), 9))
		cfg := tracetest.Config{Locations: 1 + rng.IntN(6), Nodes: 1 + rng.IntN(3), Ops: 20 + rng.IntN(100),
			Latency: 3, Offset: 50, Unmatched: 0.05, Init: seed%2 == 0}
		if seed%3 == 0 {
			cfg.Threads, cfg.Metrics = 3, true
		}
		tr, _ := tracetest.Random(rng, cfg)
		if seed%4 == 1 {
			tr = tracetest.WithoutCollBegins(tr)
		}
		dir := filepath.Join(t.TempDir(), fmt.Sprint(seed))
		require.NoError(t, WriteDir(context.Background(), dir, tr, &WriteOptions{BlockSize: 64 + rng.IntN(256)}))
		whole, err := ReadDir(dir, nil)
		require.NoError(t, err)
		got, times, err := ReadSelected(dir, &ReadOptions{Parallel: 2}, replay.Needs)
		require.NoError(t, err)
		keep := replay.Needs(whole)
		for li, l := range whole.Locations {
			want := l.Events.Select(keep)
			g := &got.Locations[li].Events
			require.NoError(t, g.Check())
			name := fmt.Sprintf("seed %d location %d", seed, li)
			require.True(t, slices.Equal(want.Kind, g.Kind), name)
			require.True(t, slices.Equal(want.Time, g.Time), name)
			require.True(t, slices.Equal(want.Ref, g.Ref), name)
			require.True(t, slices.Equal(want.Index, g.Index), name)
			require.True(t, slices.Equal(want.Msgs, g.Msgs), name)
			require.True(t, slices.Equal(want.Colls, g.Colls), name)
			require.True(t, slices.Equal(want.Reqs, g.Reqs), name)
			require.True(t, slices.Equal(want.Threads, g.Threads), name)
			require.True(t, slices.Equal(l.Events.Time, times[li]), name)
		}
	}
}

// reserveSelection reserves the selection's columns and payload tables
// for the whole location at the share its first block selects: a
// location four times the block gets about four times the block's
// selection, not less (no growth by copying) and not much more.
func TestReserveSelection(t *testing.T) {
	var block trace.Events
	for i := range 1000 {
		switch i % 10 {
		case 0, 1:
			block.AppendMsg(trace.KindSend, int64(i), trace.Message{Peer: 1})
		case 2:
			block.AppendReq(trace.KindRequestTest, int64(i), 7)
		default:
			block.AppendRegion(trace.KindEnter, int64(i), 0)
		}
	}
	keep := func(k trace.Kind, _ uint32) bool { return k == trace.KindSend }
	var e trace.Events
	reserveSelection(&e, &block, keep, 4000)
	for name, c := range map[string]int{"Kind": cap(e.Kind), "Ref": cap(e.Ref), "Index": cap(e.Index), "Msgs": cap(e.Msgs)} {
		assert.GreaterOrEqual(t, c, 800, name)
		assert.LessOrEqual(t, c, 1000, name)
	}
	assert.Zero(t, cap(e.Reqs), "no request selected")
	assert.Zero(t, cap(e.Colls))
}
