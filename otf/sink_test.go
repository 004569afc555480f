package otf

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/trace"
)

// The Sink used as a generator would: many locations, each appended in
// several pieces, concurrently, with the definitions (offsets) completed
// before Close. With a memory budget below locations × chunk size the
// writer keeps unfinished chunks at their used size between Appends.
func TestSinkInPieces(t *testing.T) {
	const locs = 500
	defs := &trace.Trace{Resolution: 1000, Nodes: []trace.Node{{Name: "n0"}, {Name: "n1"}}}
	defs.Regions = []trace.Region{{Name: "MPI_Barrier"}, {Name: "work"}}
	world := trace.Comm{Name: "MPI_COMM_WORLD"}
	for i := 0; i < locs; i++ {
		defs.Locations = append(defs.Locations, &trace.Location{ID: uint64(i), Node: int32(i % 2)})
		world.Members = append(world.Members, int32(i))
	}
	defs.Comms = []trace.Comm{world}
	w, err := Create(filepath.Join(t.TempDir(), "sink"), defs, &WriteOptions{EventChunkSize: MinChunkSize, memBudget: 64 << 20})
	require.NoError(t, err)
	require.True(t, w.shrink)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for piece := 0; piece < 3; piece++ {
				for l := g; l < locs; l += 4 {
					var ev trace.Events
					t0 := int64(1000 + piece*100)
					ev.AppendRegion(trace.KindEnter, t0, 1)
					ev.AppendRegion(trace.KindLeave, t0+10, 1)
					if piece == 2 {
						ev.AppendRegion(trace.KindEnter, t0+20, 0)
						ev.AppendCollBegin(t0 + 20)
						ev.AppendColl(trace.KindCollEnd, t0+30, trace.Collective{Op: trace.OpBarrier, Root: trace.NoRoot})
						ev.AppendRegion(trace.KindLeave, t0+30, 0)
					}
					if err := w.Append(l, &ev); err != nil {
						errs <- err
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	w.Defs().Locations[7].Offsets = []trace.ClockOffset{{Time: 1000, Offset: 5}, {Time: 1300, Offset: 8, StdDev: 0.25}}
	require.NoError(t, w.Close())
	dir := filepath.Join(filepath.Dir(w.tmp), "sink")
	checkOTF2(t, filepath.Join(dir, "traces.otf2"))
	a, err := Open(dir)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	require.NoError(t, tr.Validate())
	require.Len(t, tr.Locations, locs)
	for _, l := range tr.Locations {
		require.Equal(t, 10, l.Events.Len())
	}
	assert.Equal(t, defs.Locations[7].Offsets, tr.Locations[7].Offsets)
	assert.Equal(t, []int64{1000, 1010, 1100, 1110, 1200, 1210, 1220, 1220, 1230, 1230}, tr.Locations[499].Events.Time)
	// The reference reader applies location 7's offsets: +5 at 1000, +8 at 1300.
	out := otf2Print(t, filepath.Join(dir, "traces.otf2"), "-L", "7")
	lines := eventLines(out)
	require.Len(t, lines, 10)
	assert.Contains(t, lines[0], " 1005 ")
	assert.Contains(t, lines[9], " 1237 ") // 1230 + 5 + round(3·230/300 = 2.3)
}

// Unknown record types and fields added by later versions are skipped by
// their length: an MpiSend with 3 extra trailing bytes reads as a send, a
// record of an unknown type is kept as it is, and the reference reader
// agrees.
func TestUnknownRecordsAndTrailingFields(t *testing.T) {
	defs := &trace.Trace{Resolution: 1000, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "main"}}}
	defs.Comms = []trace.Comm{{Name: "MPI_COMM_WORLD", Members: []int32{0, 1}}}
	for i := 0; i < 2; i++ {
		defs.Locations = append(defs.Locations, &trace.Location{ID: uint64(i)})
	}
	send := enc{}
	send.u32c(1)
	send.u32c(0)
	send.u32c(42)
	send.u64c(4096)
	send.b = append(send.b, 0x01, 0x07, 0x99) // a field from a future version
	ev := &defs.Locations[0].Events
	ev.AppendRegion(trace.KindEnter, 10, 0)
	ev.AppendOpaque(20, trace.Opaque{Format: trace.FormatOTF2, Type: evMpiSend, Data: send.b})
	ev.AppendOpaque(30, trace.Opaque{Format: trace.FormatOTF2, Type: 250, Data: []byte("future record")})
	ev.AppendOpaque(35, trace.Opaque{Format: trace.FormatNative, Type: 3, Data: []byte("x")})
	ev.AppendRegion(trace.KindLeave, 40, 0)
	dir := filepath.Join(t.TempDir(), "unknown")
	w, err := Create(dir, defs, nil)
	require.NoError(t, err)
	for li, l := range defs.Locations {
		require.NoError(t, w.Append(li, &l.Events))
	}
	require.NoError(t, w.Close())
	assert.Equal(t, int64(1), w.Dropped())
	checkOTF2(t, filepath.Join(dir, "traces.otf2"))
	lines := eventLines(otf2Print(t, filepath.Join(dir, "traces.otf2")))
	var names []string
	for _, l := range lines {
		names = append(names, strings.Fields(l)[0])
	}
	assert.Equal(t, []string{"ENTER", "MPI_SEND", "UNKNOWN", "LEAVE"}, names, "%s", strings.Join(lines, "\n"))
	assert.Contains(t, lines[1], "Tag: 42, Length: 4096")

	a, err := Open(dir)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	e := &tr.Locations[0].Events
	require.Equal(t, []trace.Kind{trace.KindEnter, trace.KindSend, trace.KindOther, trace.KindLeave}, e.Kind)
	assert.Equal(t, trace.Message{Peer: 1, Comm: 0, Tag: 42, Bytes: 4096}, *e.Msg(1))
	assert.Equal(t, trace.Opaque{Format: trace.FormatOTF2, Type: 250, Data: []byte("future record")}, e.Opaque[0])
}

// With a tiny memory budget every Append writes its location's unfinished
// chunk out and the chunk header is patched when the chunk is complete:
// the archive is the same as one written with plenty of memory.
func TestSinkSpill(t *testing.T) {
	build := func() *trace.Trace {
		defs := &trace.Trace{Resolution: 1000, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "work"}}}
		defs.Comms = []trace.Comm{{Name: "MPI_COMM_WORLD", Members: []int32{0, 1, 2}}}
		for i := 0; i < 3; i++ {
			defs.Locations = append(defs.Locations, &trace.Location{ID: uint64(i)})
		}
		return defs
	}
	write := func(dir string, opt *WriteOptions) {
		defs := build()
		w, err := Create(dir, defs, opt)
		require.NoError(t, err)
		tm := int64(0)
		for piece := 0; piece < 60; piece++ {
			for l := 0; l < 3; l++ {
				var ev trace.Events
				for i := 0; i < 1000; i++ {
					tm++
					ev.AppendRegion(trace.KindEnter, tm, 0)
					ev.AppendMsg(trace.KindSend, tm, trace.Message{Peer: uint32((l + 1) % 3), Tag: uint32(i), Bytes: uint64(tm)})
					ev.AppendRegion(trace.KindLeave, tm+1, 0)
				}
				require.NoError(t, w.Append(l, &ev))
			}
		}
		require.NoError(t, w.Close())
	}
	spilled := filepath.Join(t.TempDir(), "spilled")
	plain := filepath.Join(t.TempDir(), "plain")
	write(spilled, &WriteOptions{EventChunkSize: MinChunkSize, memBudget: 4096})
	write(plain, &WriteOptions{EventChunkSize: MinChunkSize})
	for _, f := range []string{"traces/0.evt", "traces/1.evt", "traces/2.evt", "traces.def"} {
		a, err := os.ReadFile(filepath.Join(spilled, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(plain, f))
		require.NoError(t, err)
		if strings.HasSuffix(f, ".evt") {
			require.Greater(t, len(a), 3*MinChunkSize, f)
		}
		require.True(t, bytes.Equal(a, b), "%s differs", f)
	}
	checkOTF2(t, filepath.Join(spilled, "traces.otf2"))
	a, err := Open(spilled)
	require.NoError(t, err)
	tr, err := a.Read(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, 180000, tr.Locations[2].Events.Len())
}
