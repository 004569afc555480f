package otf

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/require"
)

// fuzzChunkSize derives a chunk size from the first input byte: < 128 means
// one chunk as big as the input, otherwise small chunks (to reach chunk
// boundaries quickly).
func fuzzChunkSize(data []byte) (int, []byte) {
	if len(data) == 0 {
		return 64, data
	}
	if data[0] < 128 {
		n := len(data) - 1
		if n < 64 {
			n = 64
		}
		return n, data[1:]
	}
	return 32 + int(data[0]-128)*4, data[1:]
}

func fuzzIndex() *idIndex {
	m := &idIndex{}
	for i := 0; i < 16; i++ {
		m.set(uint64(i), uint32(i))
	}
	return m
}

// multiChunkSeed writes a small event buffer in 64-byte chunks.
func multiChunkSeed(be bool) []byte {
	var b bytes.Buffer
	cw := newChunkWriter("seed.evt", &b, 64, be, true, nil)
	e := enc{be: be}
	for i := 0; i < 12; i++ {
		e.b = e.b[:0]
		e.u32c(uint32(i % 3))
		_ = cw.event(uint64(1000+i/2), nil, evEnter, e.b)
		e.b = e.b[:0]
		e.u32c(1)
		e.u32c(0)
		e.u32c(7)
		e.u64c(1 << 20)
		attr := []byte{1, 0, 4, 1, 9}
		if be {
			attr = []byte{1, 0, 4, 1, 9} // single-byte values read the same either way
		}
		_ = cw.event(uint64(1000+i), attr, evMpiSend, e.b)
		_ = cw.event(uint64(1000+i), nil, 83, []byte{1, 8, 0})
	}
	_ = cw.close()
	return append([]byte{128 + 8}, b.Bytes()...)
}

func FuzzEventBuffer(f *testing.F) {
	for _, name := range []string{"0.evt", "1.evt"} {
		if b, err := os.ReadFile(filepath.Join(realTrace, "traces", name)); err == nil {
			f.Add(append([]byte{0}, b...))
		}
	}
	f.Add(multiChunkSeed(false))
	f.Add(multiChunkSeed(true))
	idx := fuzzIndex()
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, body := fuzzChunkSize(data)
		var ev trace.Events
		x := eventDecoder{
			s:       newScanner(newChunkReader("fuzz.evt", bytes.NewReader(body), cs, nil), true),
			ev:      &ev,
			regions: idx,
			comms:   idx,
		}
		err := x.run()
		// The decoder without its fast path gives the same result.
		var evSlow trace.Events
		xs := eventDecoder{
			s:       newScanner(newChunkReader("fuzz.evt", bytes.NewReader(body), cs, nil), true),
			ev:      &evSlow,
			regions: idx,
			comms:   idx,
			slow:    true,
		}
		errSlow := xs.run()
		require.Equal(t, err == nil, errSlow == nil, "fast path: %v; slow path: %v", err, errSlow)
		if err != nil {
			require.EqualError(t, errSlow, err.Error(), "the slow path's error against the fast path's")
			require.IsType(t, &FormatError{}, err, "the error: %v", err)
			return
		}
		require.Equal(t, ev.Kind, evSlow.Kind, "kinds: the slow path's against the fast path's")
		require.Equal(t, ev.Time, evSlow.Time, "times: the slow path's against the fast path's")
		require.Equal(t, ev.Ref, evSlow.Ref, "references: the slow path's against the fast path's")
		n := ev.Len()
		require.Len(t, ev.Time, n, "the time column")
		require.Len(t, ev.Ref, n, "the reference column")
		for i, k := range ev.Kind {
			r := int(ev.Ref[i])
			switch {
			case k.HasMsg() && r >= len(ev.Msgs), k.HasReq() && r >= len(ev.Reqs),
				k.HasColl() && r >= len(ev.Colls), k == trace.KindOther && r >= len(ev.Opaque):
				require.FailNow(t, "a reference out of range", "event %d (%s): ref %d", i, k, r)
			}
		}
		// What decoded is written back by the rewriter's chunk writer and
		// decodes to the same events.
		var out bytes.Buffer
		cw := newChunkWriter("re.evt", &out, MinChunkSize, false, true, nil)
		w := &Writer{opt: WriteOptions{EventChunkSize: MinChunkSize}}
		lw := &locWriter{cw: cw}
		if _, err := w.appendEvents(0, lw, &ev); err != nil {
			return // e.g. times that decrease: the writer refuses them
		}
		require.NoError(t, cw.close())
		var ev2 trace.Events
		y := eventDecoder{s: newScanner(newChunkReader("re.evt", &out, MinChunkSize, nil), true), ev: &ev2, regions: idx, comms: idx}
		require.NoError(t, y.run(), "re-read")
		require.Equal(t, n, ev2.Len(), "events re-read")
		for i := range ev.Kind {
			require.Equal(t, ev.Kind[i], ev2.Kind[i], "event %d after re-encoding: kind", i)
			require.Equal(t, ev.Time[i], ev2.Time[i], "event %d after re-encoding: time", i)
		}
	})
}

func FuzzDefinitions(f *testing.F) {
	for _, name := range []string{"traces.def", "traces/0.def", "traces/1.def"} {
		if b, err := os.ReadFile(filepath.Join(realTrace, filepath.FromSlash(name))); err == nil {
			f.Add(append([]byte{0}, b...))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, body := fuzzChunkSize(data)
		var buf []byte
		if _, err := readLocalDefs("fuzz.def", bytes.NewReader(body), cs, &buf); err != nil {
			require.IsType(t, &FormatError{}, err, "local: the error: %v", err)
		}
		g, err := readGlobalDefs("fuzz.def", bytes.NewReader(body), cs, &warnings{})
		if err != nil {
			require.IsType(t, &FormatError{}, err, "global: the error: %v", err)
			return
		}
		a := &Archive{name: "fuzz", anchor: &Anchor{}, defs: g}
		m, err := a.buildModel()
		if err != nil {
			return
		}
		require.Len(t, m.t.Locations, len(g.locations), "locations against those defined")
		for ci, c := range m.t.Comms {
			for _, mem := range c.Members {
				require.True(t, mem >= 0 && int(mem) < len(m.t.Locations), "communicator %d: member %d out of range", ci, mem)
			}
		}
	})
}
