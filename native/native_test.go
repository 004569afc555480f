package native

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
)

// randString returns a short valid UTF-8 string, sometimes with quotes,
// control characters and non-ASCII runes that JSON must escape or keep.
func randString(rng *rand.Rand) string {
	const alphabet = "abcXYZ019 _-.\"\\/\n\t\x00\x1f<>&é€😀\u2028"
	rs := []rune(alphabet)
	n := rng.IntN(12)
	var b strings.Builder
	for range n {
		b.WriteRune(rs[rng.IntN(len(rs))])
	}
	return b.String()
}

// randU64 returns an interesting unsigned value: 0, small, boundary or random.
func randU64(rng *rand.Rand) uint64 {
	switch rng.IntN(8) {
	case 0:
		return 0
	case 1:
		return math.MaxUint64
	case 2:
		return math.MaxUint64 - uint64(rng.IntN(3))
	case 3:
		return uint64(1) << rng.IntN(64)
	case 4:
		return rng.Uint64()
	case 5:
		return math.MaxUint32 + uint64(rng.IntN(3)) - 1
	default:
		return uint64(rng.IntN(1000))
	}
}

func randU32(rng *rand.Rand) uint32 {
	switch rng.IntN(5) {
	case 0:
		return 0
	case 1:
		return math.MaxUint32
	case 2:
		return rng.Uint32()
	default:
		return uint32(rng.IntN(200))
	}
}

func randBytes(rng *rand.Rand) []byte {
	var n int
	switch rng.IntN(10) {
	case 0:
		return nil
	case 1:
		n = arenaLarge + rng.IntN(3000) // beyond the arena's small-copy limit
	default:
		n = rng.IntN(40)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// randTimes returns n times in one of several regimes: ordered with small
// gaps, near the int64 extremes, wild jumps across the whole range.
func randTimes(rng *rand.Rand, n int) []int64 {
	ts := make([]int64, n)
	switch rng.IntN(5) {
	case 0: // wild: every value anywhere
		for i := range ts {
			ts[i] = int64(rng.Uint64())
		}
	case 1: // near the top
		t := int64(math.MaxInt64 - int64(n)*3)
		for i := range ts {
			t += int64(rng.IntN(3))
			ts[i] = t
		}
	case 2: // near the bottom, alternating with the top
		for i := range ts {
			if rng.IntN(2) == 0 {
				ts[i] = math.MinInt64 + int64(rng.IntN(5))
			} else {
				ts[i] = math.MaxInt64 - int64(rng.IntN(5))
			}
		}
	default: // realistic, with occasional large jumps and decreases
		t := rng.Int64N(1 << 40)
		for i := range ts {
			switch rng.IntN(20) {
			case 0:
				t += rng.Int64N(1 << 50)
			case 1:
				t -= rng.Int64N(1000)
			default:
				t += rng.Int64N(5000)
			}
			ts[i] = t
		}
	}
	return ts
}

// randTrace returns a random valid trace.
func randTrace(rng *rand.Rand) *trace.Trace {
	t := &trace.Trace{Resolution: randU64(rng) | 1}
	if rng.IntN(3) > 0 {
		t.Properties = map[string]string{}
		for range rng.IntN(4) {
			t.Properties[randString(rng)] = randString(rng)
		}
	}
	for range 1 + rng.IntN(3) {
		t.Nodes = append(t.Nodes, trace.Node{Name: randString(rng)})
	}
	threaded := rng.IntN(3) == 0 // version 3: processes, kinds, roles, paradigms
	for range rng.IntN(5) {
		r := trace.Region{Name: randString(rng)}
		if threaded && rng.IntN(2) == 0 {
			r.Role, r.Paradigm = trace.RegionRole(rng.IntN(40)), trace.Paradigm(rng.IntN(25))
		}
		t.Regions = append(t.Regions, r)
	}
	var nloc int
	switch rng.IntN(6) {
	case 0:
		nloc = 0
	case 1, 2:
		nloc = 1
	default:
		nloc = 2 + rng.IntN(6)
	}
	var procNode []int32
	if threaded && nloc > 0 && rng.IntN(2) == 0 {
		for range 1 + rng.IntN(nloc) {
			t.Processes = append(t.Processes, trace.Process{Name: randString(rng)})
			procNode = append(procNode, int32(rng.IntN(len(t.Nodes))))
		}
	}
	for i := range nloc {
		l := &trace.Location{ID: randU64(rng), Name: randString(rng), Node: int32(rng.IntN(len(t.Nodes)))}
		if procNode != nil {
			l.Process = int32(rng.IntN(len(procNode)))
			l.Node = procNode[l.Process]
		}
		if threaded && rng.IntN(2) == 0 {
			l.Kind = trace.LocationKind(rng.IntN(4))
		}
		if rng.IntN(2) == 0 {
			tm := int64(rng.Uint64() >> 2)
			if rng.IntN(2) == 0 {
				tm = -tm
			}
			for range rng.IntN(4) {
				l.Offsets = append(l.Offsets, trace.ClockOffset{Time: tm, Offset: int64(randU64(rng)), RTT: int64(randU64(rng)), StdDev: rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))})
				tm += 1 + rng.Int64N(1<<40)
			}
		}
		_ = i
		t.Locations = append(t.Locations, l)
	}
	if nloc > 0 {
		for range rng.IntN(4) {
			perm := rng.Perm(nloc)
			c := trace.Comm{Name: randString(rng)}
			if threaded && rng.IntN(2) == 0 {
				c.Paradigm = trace.Paradigm(rng.IntN(25))
			}
			for _, p := range perm[:rng.IntN(nloc+1)] {
				c.Members = append(c.Members, int32(p))
			}
			t.Comms = append(t.Comms, c)
		}
	}
	// Communicators with members, for messages and rooted collectives.
	var nonEmpty []int
	for i, c := range t.Comms {
		if c.Size() > 0 {
			nonEmpty = append(nonEmpty, i)
		}
	}
	for _, l := range t.Locations {
		var n int
		switch rng.IntN(5) {
		case 0:
			n = 0
		case 1:
			n = 1
		case 2:
			n = 200 + rng.IntN(800)
		default:
			n = rng.IntN(60)
		}
		ts := randTimes(rng, n)
		ev := &l.Events
		for i := range n {
			tm := ts[i]
			k := trace.Kind(1 + rng.IntN(int(trace.NumKinds)-1))
			switch {
			case (k == trace.KindEnter || k == trace.KindLeave) && len(t.Regions) > 0:
				ev.AppendRegion(k, tm, uint32(rng.IntN(len(t.Regions))))
			case k.HasMsg() && len(nonEmpty) > 0:
				c := nonEmpty[rng.IntN(len(nonEmpty))]
				m := trace.Message{Peer: uint32(rng.IntN(t.Comms[c].Size())), Comm: uint32(c), Tag: randU32(rng), Bytes: randU64(rng)}
				if k == trace.KindIsend || k == trace.KindIrecv {
					m.Request = randU64(rng)
				}
				ev.AppendMsg(k, tm, m)
			case k.HasReq():
				ev.AppendReq(k, tm, randU64(rng))
			case k == trace.KindCollBegin:
				ev.AppendCollBegin(tm)
			case k.HasColl() && len(t.Comms) > 0:
				c := rng.IntN(len(t.Comms))
				co := trace.Collective{Op: trace.CollOp(rng.IntN(256)), Comm: uint32(c), Root: trace.NoRoot, Sent: randU64(rng), Received: randU64(rng)}
				if sz := t.Comms[c].Size(); sz > 0 && rng.IntN(2) == 0 {
					co.Root = uint32(rng.IntN(sz))
				}
				if k == trace.KindNBCollComplete {
					co.Request = randU64(rng)
				}
				ev.AppendColl(k, tm, co)
			case (k == trace.KindCommCreate || k == trace.KindCommDestroy) && len(t.Comms) > 0:
				ev.AppendComm(k, tm, uint32(rng.IntN(len(t.Comms))))
			case k.HasThread() && threaded:
				th := trace.Thread{Model: trace.Paradigm(rng.IntN(256)), Legacy: rng.IntN(2) == 0, Team: trace.NoComm,
					Lock: randU32(rng), Order: randU32(rng), Threads: randU32(rng), Creator: randU32(rng),
					Generation: randU32(rng), Sequence: randU64(rng)}
				if len(t.Comms) > 0 && rng.IntN(3) > 0 {
					th.Team = uint32(rng.IntN(len(t.Comms)))
				}
				ev.AppendThread(k, tm, th)
			default:
				ev.AppendOpaque(tm, trace.Opaque{Format: uint8(rng.IntN(3)), Type: randU32(rng), Data: randBytes(rng)})
			}
			for range max(0, rng.IntN(8)-5) {
				ev.AttachLast(uint8(rng.IntN(256)), randBytes(rng))
			}
		}
	}
	return t
}

// defsOnly returns a shallow copy of t whose locations have no events.
func defsOnly(t *trace.Trace) *trace.Trace {
	c := *t
	c.Locations = make([]*trace.Location, len(t.Locations))
	locs := make([]trace.Location, len(t.Locations))
	for i, l := range t.Locations {
		if l == nil {
			continue
		}
		locs[i] = trace.Location{ID: l.ID, Name: l.Name, Node: l.Node, Process: l.Process, Kind: l.Kind, Offsets: l.Offsets}
		c.Locations[i] = &locs[i]
	}
	return &c
}

// flatEvent is one event with its payload resolved, independent of how
// the payload tables are laid out.
type flatEvent struct {
	Kind   trace.Kind
	Time   int64
	Ref    uint32 // region or communicator, for kinds whose Ref is not a table index
	Msg    trace.Message
	Coll   trace.Collective
	Req    uint64
	Thread trace.Thread
	Opaque trace.Opaque
	Att    []trace.Attachment // Event set to 0
}

func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

func flatten(e *trace.Events) []flatEvent {
	out := make([]flatEvent, e.Len())
	for i, k := range e.Kind {
		f := flatEvent{Kind: k, Time: e.Time[i]}
		switch {
		case k.HasMsg():
			f.Msg = *e.Msg(i)
		case k.HasColl():
			f.Coll = *e.Coll(i)
		case k.HasReq():
			f.Req = e.Req(i)
		case k.HasThread():
			f.Thread = *e.Thread(i)
		case k == trace.KindOther:
			f.Opaque = e.Opaque[e.Ref[i]]
			f.Opaque.Data = nilIfEmpty(f.Opaque.Data)
		case k == trace.KindCollBegin:
		default:
			f.Ref = e.Ref[i]
		}
		out[i] = f
	}
	for _, a := range e.Attach {
		out[a.Event].Att = append(out[a.Event].Att, trace.Attachment{Format: a.Format, Data: nilIfEmpty(a.Data)})
	}
	return out
}

// defsView is a trace's definitions with empty and nil collections unified.
type defsView struct {
	Resolution uint64
	Nodes      []trace.Node
	Processes  []trace.Process
	Regions    []trace.Region
	Comms      []trace.Comm
	Properties map[string]string
	Locations  []trace.Location
}

func viewDefs(t *trace.Trace) defsView {
	v := defsView{Resolution: t.Resolution, Nodes: t.Nodes, Processes: t.Processes, Regions: t.Regions}
	if len(v.Processes) == 0 {
		v.Processes = nil
	}
	if len(v.Nodes) == 0 {
		v.Nodes = nil
	}
	if len(v.Regions) == 0 {
		v.Regions = nil
	}
	for _, c := range t.Comms {
		if len(c.Members) == 0 {
			c.Members = nil
		}
		v.Comms = append(v.Comms, c)
	}
	if len(t.Properties) > 0 {
		v.Properties = t.Properties
	}
	for _, l := range t.Locations {
		c := trace.Location{ID: l.ID, Name: l.Name, Node: l.Node, Process: l.Process, Kind: l.Kind, Offsets: l.Offsets}
		if len(c.Offsets) == 0 {
			c.Offsets = nil
		}
		v.Locations = append(v.Locations, c)
	}
	return v
}

// requireSameTrace checks that got holds the same definitions and events as want.
func requireSameTrace(t *testing.T, want, got *trace.Trace, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, viewDefs(want), viewDefs(got), msgAndArgs...)
	for i := range want.Locations {
		require.Equal(t, flatten(&want.Locations[i].Events), flatten(&got.Locations[i].Events), append([]any{"location %d"}, i)...)
	}
}

// Random traces (100 by default, 300 with CLC_TEST_FULL=1) read back as
// they were written.
func TestNativeRoundTripRandom(t *testing.T) {
	n := 100
	if testenv.Full() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for it := range n {
		tr := randTrace(rng)
		require.NoError(t, tr.Validate())
		opt := &WriteOptions{Codec: Codec(it % 2), Parallel: 1 + rng.IntN(3)}
		switch rng.IntN(4) {
		case 0:
			opt.BlockSize = 1 + rng.IntN(16)
		case 1:
			opt.BlockSize = 16 + rng.IntN(500)
		case 2:
			opt.BlockSize = 0
		default:
			opt.BlockSize = 4096
		}
		if rng.IntN(4) == 0 {
			opt.Level = 1 + rng.IntN(4)
		}
		opt.Bundles = rng.IntN(5) - 1 // per-location files, automatic, 1-3 bundles
		dir := filepath.Join(t.TempDir(), "tr")
		require.NoError(t, WriteDir(context.Background(), dir, tr, opt), "trace %d", it)
		requireLayout(t, dir, len(tr.Locations), min(max(opt.Bundles, 0), len(tr.Locations)))
		require.Equal(t, tr.Threaded(), readTestManifest(t, dir).Version == nativeVersion3, "trace %d: version 3 exactly for threaded traces", it)
		require.True(t, IsDir(dir))
		got, err := ReadDir(dir, &ReadOptions{Parallel: 1 + rng.IntN(3)})
		require.NoError(t, err, "trace %d", it)
		requireSameTrace(t, tr, got, "trace %d (opts %+v)", it, *opt)
		require.NoError(t, got.Validate(), "trace %d", it)
	}
}

// TestNativeDirWriterPieces appends each location in pieces of random
// sizes from concurrent goroutines and checks the result equals WriteDir's
// input.
func TestNativeDirWriterPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := range 60 {
		tr := randTrace(rng)
		dir := filepath.Join(t.TempDir(), "tr")
		bundles := rng.IntN(4) - 1
		w, err := CreateDir(dir, defsOnly(tr), &WriteOptions{Codec: CodecZstd, BlockSize: 1 + rng.IntN(300), Bundles: bundles})
		require.NoError(t, err)
		done := make(chan error, len(tr.Locations))
		for li, l := range tr.Locations {
			seed := rng.Uint64()
			go func() {
				r := rand.New(rand.NewPCG(seed, 0))
				src := &l.Events
				att := 0
				for i := 0; i < src.Len(); {
					var piece trace.Events
					for n := 1 + r.IntN(50); n > 0 && i < src.Len(); n-- {
						piece.Append(src, i, &att)
						i++
					}
					if err := w.Append(li, &piece); err != nil {
						done <- err
						return
					}
				}
				done <- w.Append(li, &trace.Events{}) // empty pieces are fine
			}()
		}
		for range tr.Locations {
			require.NoError(t, <-done)
		}
		require.NoError(t, w.Close())
		require.Error(t, w.Close(), "second Close")
		requireLayout(t, dir, len(tr.Locations), min(max(bundles, 0), len(tr.Locations)))
		got, err := ReadDir(dir, nil)
		require.NoError(t, err, "trace %d", it)
		requireSameTrace(t, tr, got, "trace %d", it)
	}
}

// TestNativeStreamReader reads block by block and checks that Next appends
// to what dst already holds.
func TestNativeStreamReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tr := &trace.Trace{Resolution: 1e9, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "r"}}, Locations: []*trace.Location{{Name: "0"}}}
	ev := &tr.Locations[0].Events
	for i := range 5000 {
		if rng.IntN(3) == 0 {
			ev.AppendOpaque(int64(i), trace.Opaque{Format: 1, Type: 7, Data: randBytes(rng)})
			ev.AttachLast(2, []byte("x"))
		} else {
			ev.AppendRegion(trace.KindEnter, int64(i)*3, 0)
		}
	}
	dir := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(context.Background(), dir, tr, &WriteOptions{Codec: CodecZstd, BlockSize: 1000}))
	r, err := OpenDir(dir)
	require.NoError(t, err)
	require.True(t, r.Complete())
	require.Equal(t, int64(5000), r.NumEvents(0))
	require.Len(t, r.Defs().Locations, 1)
	require.Zero(t, r.Defs().Locations[0].Events.Len())
	s, err := r.Stream(0)
	require.NoError(t, err)
	var dst trace.Events
	dst.AppendRegion(trace.KindLeave, -5, 0) // already there: Next appends after it
	dst.AttachLast(9, []byte("pre"))
	blocks := 0
	for {
		err := s.Next(&dst)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		blocks++
	}
	require.Greater(t, blocks, 10)
	require.Equal(t, io.EOF, s.Next(&dst))
	require.NoError(t, s.Close())
	var want trace.Events
	want.AppendRegion(trace.KindLeave, -5, 0)
	want.AttachLast(9, []byte("pre"))
	att := 0
	for i := range ev.Len() {
		want.Append(ev, i, &att)
	}
	require.Equal(t, flatten(&want), flatten(&dst))
	_, err = r.Stream(1)
	require.Error(t, err)
}

func TestNativeWriterErrors(t *testing.T) {
	base := func() *trace.Trace {
		tr := &trace.Trace{Resolution: 1, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "r"}},
			Comms: []trace.Comm{{Name: "w", Members: []int32{0}}}, Locations: []*trace.Location{{}}}
		return tr
	}
	cases := map[string]func(tr *trace.Trace){
		"region out of range": func(tr *trace.Trace) { tr.Locations[0].Events.AppendRegion(trace.KindEnter, 0, 1) },
		"peer out of range": func(tr *trace.Trace) {
			tr.Locations[0].Events.AppendMsg(trace.KindSend, 0, trace.Message{Peer: 1, Comm: 0})
		},
		"comm out of range": func(tr *trace.Trace) {
			tr.Locations[0].Events.AppendComm(trace.KindCommCreate, 0, 1)
		},
		"root out of range": func(tr *trace.Trace) {
			tr.Locations[0].Events.AppendColl(trace.KindCollEnd, 0, trace.Collective{Root: 1})
		},
		"payload index": func(tr *trace.Trace) {
			e := &tr.Locations[0].Events
			e.AppendMsg(trace.KindSend, 0, trace.Message{})
			e.Msgs = nil
		},
		"invalid kind": func(tr *trace.Trace) {
			e := &tr.Locations[0].Events
			e.Kind, e.Time, e.Ref = []trace.Kind{trace.KindInvalid}, []int64{0}, []uint32{0}
		},
		"attachment out of range": func(tr *trace.Trace) {
			e := &tr.Locations[0].Events
			e.AppendCollBegin(0)
			e.Attach = append(e.Attach, trace.Attachment{Event: 1})
		},
		"attachments out of order": func(tr *trace.Trace) {
			e := &tr.Locations[0].Events
			e.AppendCollBegin(0)
			e.AppendCollBegin(0)
			e.Attach = append(e.Attach, trace.Attachment{Event: 1}, trace.Attachment{Event: 0})
		},
		"columns differ": func(tr *trace.Trace) {
			e := &tr.Locations[0].Events
			e.AppendCollBegin(0)
			e.Time = nil
		},
		"node out of range": func(tr *trace.Trace) { tr.Locations[0].Node = 1 },
		"zero resolution":   func(tr *trace.Trace) { tr.Resolution = 0 },
		"NaN stddev": func(tr *trace.Trace) {
			tr.Locations[0].Offsets = []trace.ClockOffset{{StdDev: math.NaN()}}
		},
	}
	for name, mod := range cases {
		t.Run(name, func(t *testing.T) {
			tr := base()
			mod(tr)
			dir := filepath.Join(t.TempDir(), "tr")
			err := WriteDir(context.Background(), dir, tr, nil)
			require.Error(t, err)
			_, statErr := os.Stat(filepath.Join(dir, ManifestName))
			require.True(t, errors.Is(statErr, os.ErrNotExist), "manifest left behind after %v", err)
		})
	}
	t.Run("non-empty dir", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "x"), nil, 0o666))
		require.Error(t, WriteDir(context.Background(), dir, base(), nil))
	})
	t.Run("empty dir is fine", func(t *testing.T) {
		require.NoError(t, WriteDir(context.Background(), t.TempDir(), base(), nil))
	})
	t.Run("bad options", func(t *testing.T) {
		for _, o := range []WriteOptions{{Codec: 2}, {Codec: CodecZstd, Level: 5}, {BlockSize: -1}, {BlockSize: MaxBlockSize + 1}} {
			require.Error(t, WriteDir(context.Background(), filepath.Join(t.TempDir(), "tr"), base(), &o), "%+v", o)
		}
	})
	t.Run("append after error and close", func(t *testing.T) {
		w, err := CreateDir(filepath.Join(t.TempDir(), "tr"), base(), nil)
		require.NoError(t, err)
		var e trace.Events
		e.AppendRegion(trace.KindEnter, 0, 0)
		require.Error(t, w.Append(1, &e))
		require.NoError(t, w.Append(0, &e))
		bad := trace.Events{Kind: []trace.Kind{trace.KindInvalid}, Time: []int64{0}, Ref: []uint32{0}}
		require.Error(t, w.Append(0, &bad))
		require.Error(t, w.Append(0, &e), "Append after an error")
		require.Error(t, w.Close())
	})
}

// TestNativeIncomplete reads a trace whose manifest says complete=false
// with a stream cut inside a block and another missing.
func TestNativeIncomplete(t *testing.T) {
	tr := &trace.Trace{Resolution: 10, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "r"}}}
	for range 3 {
		l := &trace.Location{}
		for i := range 100 {
			l.Events.AppendRegion(trace.KindEnter, int64(i), 0)
		}
		tr.Locations = append(tr.Locations, l)
	}
	dir := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(context.Background(), dir, tr, &WriteOptions{Codec: CodecNone, BlockSize: 100}))
	setComplete(t, dir, false)
	p1 := filepath.Join(dir, EventsDirName, "1"+StreamExt)
	fi, err := os.Stat(p1)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(p1, fi.Size()-5))
	require.NoError(t, os.Remove(filepath.Join(dir, EventsDirName, "2"+StreamExt)))
	got, err := ReadDir(dir, nil)
	require.NoError(t, err)
	require.Equal(t, "true", got.Properties[trace.PropIncomplete])
	require.Equal(t, "1,2", got.Properties[trace.PropTruncated])
	require.Equal(t, 100, got.Locations[0].Events.Len())
	require.Equal(t, 0, got.Locations[2].Events.Len())
	n1 := got.Locations[1].Events.Len()
	require.True(t, n1 > 0 && n1 < 100, "location 1 has %d events", n1)
	require.Equal(t, tr.Locations[1].Events.Time[:n1], got.Locations[1].Events.Time)

	// The same damage in a complete trace is an error naming the file.
	setComplete(t, dir, true)
	_, err = ReadDir(dir, &ReadOptions{Parallel: 1})
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	require.Contains(t, []int{1, 2}, fe.Location)
}

// setComplete rewrites the "complete" field of a manifest.
func setComplete(t *testing.T, dir string, complete bool) {
	t.Helper()
	p := filepath.Join(dir, ManifestName)
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	s := string(data)
	old, repl := `"complete":true`, `"complete":false`
	if complete {
		old, repl = repl, old
	}
	if !strings.Contains(s, repl) {
		require.Contains(t, s, old)
		require.NoError(t, os.WriteFile(p, []byte(strings.Replace(s, old, repl, 1)), 0o666))
	}
}

func TestNativeAutoBlockSize(t *testing.T) {
	require.Equal(t, DefaultBlockSize, autoBlockSize(16))
	require.Equal(t, 64<<10, autoBlockSize(65536))
	require.Equal(t, minAutoBlockSize, autoBlockSize(1<<22))
	for _, n := range []int{1, 1000, 16384, 65536, 1 << 20} {
		require.LessOrEqual(t, int64(n)*int64(autoBlockSize(n)), int64(blockMemoryBudget)+int64(n)*minAutoBlockSize, fmt.Sprint(n))
	}
}

// TestNativeFewFileDescriptors writes 1,000 locations from 1,000
// goroutines with the process limited to 100 open files, with one file per
// location (the writer opens a stream only while it writes a block) and
// with bundles (at most 64 files), and reads them back block by block and
// with ReadDir (the reader's cache keeps at most 64 files open).
func TestNativeFewFileDescriptors(t *testing.T) {
	const locs = 1000
	var old syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old))
	lim := old
	lim.Cur = 100
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)

	tr := &trace.Trace{Resolution: 1, Nodes: []trace.Node{{Name: "n"}}, Regions: []trace.Region{{Name: "r"}}}
	for range locs {
		tr.Locations = append(tr.Locations, &trace.Location{})
	}
	for _, bundles := range []int{-1, 0} {
		fewFileDescriptors(t, tr, bundles)
	}
}

func fewFileDescriptors(t *testing.T, tr *trace.Trace, bundles int) {
	locs := len(tr.Locations)
	dir := filepath.Join(t.TempDir(), "tr")
	w, err := CreateDir(dir, tr, &WriteOptions{Codec: CodecNone, BlockSize: 200, Bundles: bundles})
	require.NoError(t, err)
	errs := make(chan error, locs)
	for loc := range locs {
		go func() {
			var e trace.Events
			for i := range 3 * loc % 97 {
				e.AppendRegion(trace.KindEnter, int64(i), 0)
			}
			for range 3 {
				if err := w.Append(loc, &e); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range locs {
		require.NoError(t, <-errs)
	}
	require.NoError(t, w.Close())
	r, err := OpenDir(dir)
	require.NoError(t, err)
	for loc := range locs {
		s, err := r.Stream(loc)
		require.NoError(t, err)
		var e trace.Events
		for {
			err := s.Next(&e)
			if err == io.EOF {
				break
			}
			require.NoError(t, err, "location %d", loc)
		}
		require.Equal(t, 3*(3*loc%97), e.Len())
	}
	require.NoError(t, r.Close())
	got, err := ReadDir(dir, &ReadOptions{Parallel: 8})
	require.NoError(t, err)
	for loc, l := range got.Locations {
		require.Equal(t, 3*(3*loc%97), l.Events.Len())
	}
}

func TestNativeAbort(t *testing.T) {
	tr := smallTrace()
	dir := filepath.Join(t.TempDir(), "tr")
	w, err := CreateDir(dir, defsOnly(tr), &WriteOptions{Codec: CodecZstd, BlockSize: 100})
	require.NoError(t, err)
	require.NoError(t, w.Append(0, &tr.Locations[0].Events))
	w.Abort()
	require.Error(t, w.Append(1, &tr.Locations[1].Events))
	require.Error(t, w.Close())
	_, err = os.Stat(filepath.Join(dir, ManifestName))
	require.ErrorIs(t, err, os.ErrNotExist)
	require.False(t, IsDir(dir))
}

// TestNativeNoAllocsPerEvent checks that encoding and decoding a block of
// ordinary events allocate nothing once the buffers have their size.
func TestNativeNoAllocsPerEvent(t *testing.T) {
	tr := synthTrace(20000, 1)
	ev := &tr.Locations[0].Events
	raw, err := encodeAll(ev)
	require.NoError(t, err)
	var b blockEncoder
	b.buf = make([]byte, 0, len(raw)+maxFixedRecord)
	var refs refTracker
	encAllocs := testing.AllocsPerRun(5, func() {
		b.reset()
		att := 0
		_, err := b.encode(ev, 0, ev.Len(), &att, len(raw)+1, &refs)
		require.NoError(t, err)
	})
	require.Equal(t, raw, b.buf)
	require.Zero(t, encAllocs)

	var dst trace.Events
	dst.Grow(ev.Len())
	dst.Msgs = make([]trace.Message, 0, len(ev.Msgs))
	dst.Colls = make([]trace.Collective, 0, len(ev.Colls))
	dst.Reqs = make([]uint64, 0, len(ev.Reqs))
	lim := limitsOf(tr, NativeVersion)
	var ar arena
	decAllocs := testing.AllocsPerRun(5, func() {
		dst.Reset()
		require.NoError(t, decodeRecords(raw, ev.Len(), &dst, lim, &ar))
	})
	require.Equal(t, flatten(ev), flatten(&dst))
	require.Zero(t, decAllocs)
}
