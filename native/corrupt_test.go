package native

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
)

// smallTrace is a valid trace with every kind of event, attachments and
// opaque data, two locations.
func smallTrace() *trace.Trace {
	tr := &trace.Trace{
		Resolution: 1e9,
		Nodes:      []trace.Node{{Name: "a"}, {Name: "b"}},
		Regions:    []trace.Region{{Name: "MPI_Init"}, {Name: "MPI_Send"}, {Name: "work"}},
		Comms:      []trace.Comm{{Name: "world", Members: []int32{0, 1}}, {Name: "self", Members: []int32{1}}},
		Locations:  []*trace.Location{{ID: 0, Name: "rank 0", Node: 0}, {ID: 1, Name: "rank 1", Node: 1}},
	}
	for li, l := range tr.Locations {
		e := &l.Events
		t := int64(1000 * (li + 1))
		step := func() int64 { t += 137; return t }
		for rep := range 4 {
			e.AppendRegion(trace.KindEnter, step(), 2)
			e.AppendMsg(trace.KindSend, step(), trace.Message{Peer: uint32(1 - li), Comm: 0, Tag: 7, Bytes: 1 << 20})
			e.AppendMsg(trace.KindIsend, step(), trace.Message{Peer: 0, Comm: 0, Tag: math.MaxUint32, Bytes: math.MaxUint64, Request: 99})
			e.AppendReq(trace.KindIsendComplete, step(), 99)
			e.AppendReq(trace.KindIrecvRequest, step(), 100)
			e.AppendMsg(trace.KindRecv, step(), trace.Message{Peer: 1, Comm: 0, Tag: 0, Bytes: 8})
			e.AttachLast(1, []byte{1, 2, 3})
			e.AppendMsg(trace.KindIrecv, step(), trace.Message{Peer: 0, Comm: 0, Tag: 3, Bytes: 0, Request: 100})
			e.AppendReq(trace.KindRequestTest, step(), 5)
			e.AppendReq(trace.KindRequestCancelled, step(), 6)
			e.AppendCollBegin(step())
			e.AppendColl(trace.KindCollEnd, step(), trace.Collective{Op: trace.OpAllreduce, Comm: 0, Root: trace.NoRoot, Sent: 8, Received: 8})
			e.AppendReq(trace.KindNBCollRequest, step(), 7)
			e.AppendColl(trace.KindNBCollComplete, step(), trace.Collective{Op: trace.OpBcast, Comm: 0, Root: 1, Sent: 0, Received: 4, Request: 7})
			e.AppendComm(trace.KindCommCreate, step(), 1)
			e.AppendComm(trace.KindCommDestroy, step(), 1)
			e.AppendOpaque(step(), trace.Opaque{Format: trace.FormatOTF2, Type: 42, Data: []byte("opaque" + strconv.Itoa(rep))})
			e.AttachLast(1, nil)
			e.AttachLast(2, []byte("second"))
			e.AppendRegion(trace.KindLeave, step(), 2)
		}
	}
	return tr
}

// blockEnds parses a stream file's block headers (independently of the
// reader) and returns the end offset and cumulative event count after each
// block, starting with the file header.
func blockEnds(t *testing.T, data []byte) (ends []int, counts []int) {
	t.Helper()
	off, n := fileHeaderSize, 0
	ends, counts = append(ends, off), append(counts, n)
	for off < len(data) {
		require.Equal(t, "CLCB", string(data[off:off+4]))
		s := int(binary.LittleEndian.Uint32(data[off+8:]))
		n += int(binary.LittleEndian.Uint32(data[off+16:]))
		off += blockHeaderSize + s
		ends, counts = append(ends, off), append(counts, n)
	}
	require.Equal(t, len(data), off)
	return ends, counts
}

func writeSmall(t *testing.T, codec Codec) (string, *trace.Trace) {
	t.Helper()
	tr := smallTrace()
	dir := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(context.Background(), dir, tr, &WriteOptions{Codec: codec, BlockSize: 150}))
	return dir, tr
}

// requireStreamError checks that err is a *FormatError about the stream
// file path of location loc.
func requireStreamError(t *testing.T, err error, path string, loc int, msgAndArgs ...any) {
	t.Helper()
	require.Error(t, err, msgAndArgs...)
	var fe *FormatError
	require.True(t, errors.As(err, &fe), "not a *FormatError: %v", err)
	require.Equal(t, path, fe.Path, msgAndArgs...)
	require.Equal(t, loc, fe.Location, msgAndArgs...)
	require.Contains(t, err.Error(), path)
	require.Contains(t, err.Error(), "location "+strconv.Itoa(loc))
}

// TestNativeCorruptFlip flips bytes of every stream file (every offset with
// CLC_TEST_FULL=1; by default every fifth, a different fifth in each of the
// four files): each flip must give an error naming the file and location.
func TestNativeCorruptFlip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	phase := 0
	for _, codec := range []Codec{CodecNone, CodecZstd} {
		dir, _ := writeSmall(t, codec)
		for loc := range 2 {
			path := filepath.Join(dir, EventsDirName, strconv.Itoa(loc)+StreamExt)
			orig, err := os.ReadFile(path)
			require.NoError(t, err)
			ends, _ := blockEnds(t, orig)
			require.Greater(t, len(ends), 4, "want several blocks")
			phase++
			for off := range orig {
				if !testenv.Full() && (off+phase)%5 != 0 {
					continue
				}
				for _, mask := range []byte{0xff, 1 << rng.IntN(8)} {
					data := append([]byte(nil), orig...)
					data[off] ^= mask
					require.NoError(t, testenv.ReplaceFile(path, data, 0o666))
					_, err := ReadDir(dir, &ReadOptions{Parallel: 1})
					requireStreamError(t, err, path, loc, "codec %v, location %d, offset %d, mask %#x", codec, loc, off, mask)
				}
			}
			require.NoError(t, testenv.ReplaceFile(path, orig, 0o666))
		}
		_, err := ReadDir(dir, nil)
		require.NoError(t, err)
	}
}

// TestNativeCutEveryOffset cuts each stream file at every offset (with
// CLC_TEST_FULL=1; by default at every fifth, a different fifth in each of
// the four files, and at every block end). In a complete trace every cut is
// an error naming the file and location; with complete=false every cut
// reads the whole blocks before it.
func TestNativeCutEveryOffset(t *testing.T) {
	phase := 0
	for _, codec := range []Codec{CodecNone, CodecZstd} {
		dir, tr := writeSmall(t, codec)
		for loc := range 2 {
			path := filepath.Join(dir, EventsDirName, strconv.Itoa(loc)+StreamExt)
			orig, err := os.ReadFile(path)
			require.NoError(t, err)
			ends, counts := blockEnds(t, orig)
			phase++
			for cut := range len(orig) {
				if !testenv.Full() && (cut+phase)%5 != 0 && !slices.Contains(ends, cut) {
					continue
				}
				require.NoError(t, testenv.ReplaceFile(path, orig[:cut], 0o666))
				setComplete(t, dir, true)
				_, err := ReadDir(dir, nil)
				requireStreamError(t, err, path, loc, "codec %v, cut at %d", codec, cut)

				setComplete(t, dir, false)
				got, err := ReadDir(dir, nil)
				require.NoError(t, err, "codec %v, cut at %d", codec, cut)
				// Events of the whole blocks before the cut.
				want := 0
				atEnd := false
				for b, e := range ends {
					if e <= cut {
						want = counts[b]
						atEnd = e == cut
					}
				}
				require.Equal(t, want, got.Locations[loc].Events.Len(), "cut at %d", cut)
				var prefix trace.Events
				att := 0
				for i := range want {
					prefix.Append(&tr.Locations[loc].Events, i, &att)
				}
				require.Equal(t, flatten(&prefix), flatten(&got.Locations[loc].Events))
				require.Equal(t, "true", got.Properties[trace.PropIncomplete])
				if atEnd {
					require.Empty(t, got.Properties[trace.PropTruncated], "cut at block end %d", cut)
				} else {
					require.Equal(t, strconv.Itoa(loc), got.Properties[trace.PropTruncated], "cut at %d", cut)
				}
				requireSameTrace(t, &trace.Trace{Locations: tr.Locations[1-loc : 2-loc]}, &trace.Trace{Locations: got.Locations[1-loc : 2-loc]})
			}
			require.NoError(t, testenv.ReplaceFile(path, orig, 0o666))
			setComplete(t, dir, true)
		}
	}
}

// TestNativeManifestErrors damages clc.json in many ways; each must give a
// *FormatError naming clc.json.
func TestNativeManifestErrors(t *testing.T) {
	dir, tr := writeSmall(t, CodecZstd)
	mpath := filepath.Join(dir, ManifestName)
	orig, err := os.ReadFile(mpath)
	require.NoError(t, err)
	s := string(orig)
	ev0 := fmt.Sprintf(`,"events":%d}`, tr.Locations[0].Events.Len())
	repl := func(old, new string) string {
		require.Contains(t, s, old)
		return strings.Replace(s, old, new, 1)
	}
	cases := map[string]string{
		"empty":                 "",
		"not JSON":              "hello",
		"truncated":             s[:len(s)/2],
		"trailing garbage":      s + "{}",
		"array":                 "[]",
		"wrong format":          repl(`"format":"clc-native"`, `"format":"otf2"`),
		"wrong version":         repl(`"version":1`, `"version":5`),
		"fractional version":    repl(`"version":1`, `"version":1.5`),
		"no version":            repl(`"version":1,`, ``),
		"no complete":           repl(`"complete":true,`, ``),
		"string complete":       repl(`"complete":true`, `"complete":"yes"`),
		"zero resolution":       repl(`"timer_resolution":1000000000`, `"timer_resolution":0`),
		"negative resolution":   repl(`"timer_resolution":1000000000`, `"timer_resolution":-1`),
		"exponent resolution":   repl(`"timer_resolution":1000000000`, `"timer_resolution":1e9`),
		"node out of range":     repl(`"node":1`, `"node":2`),
		"negative node":         repl(`"node":1`, `"node":-1`),
		"no node":               repl(`"node":1,`, ``),
		"no id":                 repl(`"id":1,`, ``),
		"member out of range":   repl(`"members":[1]`, `"members":[2]`),
		"member beyond int32":   repl(`"members":[1]`, `"members":[4294967296]`),
		"member twice":          repl(`"members":[0,1]`, `"members":[1,1]`),
		"no events":             repl(ev0, `}`),
		"events beyond uint32":  repl(ev0, `,"events":4294967296}`),
		"negative events":       repl(ev0, `,"events":-1}`),
		"nodes not array":       repl(`"nodes":[`, `"nodes":{"x":`),
		"offsets not ascending": repl(`"name":"rank 0","node":0,`, `"name":"rank 0","node":0,"offsets":[{"time":5,"offset":0,"rtt":0,"stddev":0},{"time":5,"offset":0,"rtt":0,"stddev":0}],`),
		"property not a string": repl(`"format":"clc-native",`, `"format":"clc-native","properties":{"a":1},`),
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(mpath, []byte(text), 0o666))
			_, err := ReadDir(dir, nil)
			require.Error(t, err)
			var fe *FormatError
			require.True(t, errors.As(err, &fe), "not a *FormatError: %v", err)
			require.Equal(t, mpath, fe.Path, "%v", err)
			_, err = OpenDir(dir)
			require.Error(t, err)
		})
	}
	require.NoError(t, os.WriteFile(mpath, orig, 0o666))
	_, err = ReadDir(dir, nil)
	require.NoError(t, err)

	t.Run("syntax error offset", func(t *testing.T) {
		require.NoError(t, os.WriteFile(mpath, []byte(`{"format": "clc-native", x}`), 0o666))
		_, err := ReadDir(dir, nil)
		var fe *FormatError
		require.ErrorAs(t, err, &fe)
		require.Equal(t, int64(25), fe.Offset, "%v", err)
		require.NoError(t, os.WriteFile(mpath, orig, 0o666))
	})
	t.Run("missing manifest", func(t *testing.T) {
		require.NoError(t, os.Rename(mpath, mpath+".x"))
		defer os.Rename(mpath+".x", mpath)
		_, err := ReadDir(dir, nil)
		require.ErrorIs(t, err, os.ErrNotExist)
		require.False(t, IsDir(dir))
	})
	require.True(t, IsDir(dir))
	require.False(t, IsDir(filepath.Join(dir, EventsDirName)))
}

// TestNativeManifestV3Errors damages the version 3 fields of the hybrid
// golden trace's manifest, and puts them into version 1 and 2 manifests:
// each is an error naming clc.json. A version 2 manifest over streams with
// thread records is an error naming the stream.
func TestNativeManifestV3Errors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tr")
	require.NoError(t, WriteDir(context.Background(), dir, goldenHybridTrace(), &WriteOptions{Codec: CodecNone}))
	mpath := filepath.Join(dir, ManifestName)
	orig, err := os.ReadFile(mpath)
	require.NoError(t, err)
	s := string(orig)
	repl := func(old, new string) string {
		require.Contains(t, s, old)
		return strings.Replace(s, old, new, 1)
	}
	cases := map[string]string{
		"processes in version 2": repl(`"version":3`, `"version":2`),
		"process out of range":   repl(`"process":1,"kind":"cpu-thread"`, `"process":2,"kind":"cpu-thread"`),
		"no process":             repl(`"process":0,"kind":"cpu-thread","events":13`, `"kind":"cpu-thread","events":13`),
		"process on two nodes":   repl(`"id":4294967297,"name":"OMP thread 1","node":1,`, `"id":4294967297,"name":"OMP thread 1","node":0,`),
		"unknown kind":           repl(`"kind":"metric"`, `"kind":"gpu"`),
		"negative process":       repl(`"process":1,"kind":"metric"`, `"process":-1,"kind":"metric"`),
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(mpath, []byte(text), 0o666))
			_, err := ReadDir(dir, nil)
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			require.Equal(t, mpath, fe.Path, "%v", err)
		})
	}
	// A version 1 manifest with a role, a kind or a paradigm.
	small, _ := writeSmall(t, CodecNone)
	spath := filepath.Join(small, ManifestName)
	sorig, err := os.ReadFile(spath)
	require.NoError(t, err)
	for name, pair := range map[string][2]string{
		"role in version 1":     {`{"name":"work"}`, `{"name":"work","role":15}`},
		"paradigm in version 1": {`"name":"world",`, `"name":"world","paradigm":3,`},
		"kind in version 1":     {`"name":"rank 0",`, `"name":"rank 0","kind":"metric",`},
		"process in version 1":  {`"name":"rank 0",`, `"name":"rank 0","process":0,`},
	} {
		require.Contains(t, string(sorig), pair[0], name)
		require.NoError(t, os.WriteFile(spath, []byte(strings.Replace(string(sorig), pair[0], pair[1], 1)), 0o666))
		_, err := ReadDir(small, nil)
		var fe *FormatError
		require.ErrorAs(t, err, &fe, name)
		require.Equal(t, spath, fe.Path, "%s: %v", name, err)
	}
	// Thread records under a version 2 manifest without processes: the
	// stream is at fault.
	noProc := strings.NewReplacer(`"version":3`, `"version":2`, `"processes":[{"name":"MPI Rank 0"},{"name":"MPI Rank 1"}],`, ``,
		`"process":0,`, ``, `"process":1,`, ``, `,"role":1,"paradigm":1`, ``, `,"role":5,"paradigm":3`, ``,
		`,"role":16,"paradigm":3`, ``, `"paradigm":3,`, ``, `"kind":"cpu-thread",`, ``, `"kind":"metric",`, ``).Replace(s)
	require.NoError(t, os.WriteFile(mpath, []byte(noProc), 0o666))
	_, err = ReadDir(dir, &ReadOptions{Parallel: 1}) // the first location's stream fails first
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, filepath.Join(dir, EventsDirName, "0"+StreamExt), fe.Path, "%v", err)
	require.ErrorContains(t, err, "version below 3")
}

// TestNativeDanglingEventRefs removes definitions that events refer to:
// the error names the stream, location and event.
func TestNativeDanglingEventRefs(t *testing.T) {
	dir, tr := writeSmall(t, CodecZstd)
	mpath := filepath.Join(dir, ManifestName)
	orig, err := os.ReadFile(mpath)
	require.NoError(t, err)
	s := string(orig)
	n0 := tr.Locations[0].Events.Len()
	ev0 := fmt.Sprintf(`"events":%d}`, n0)
	firstOf := func(loc int, pred func(k trace.Kind) bool) int64 {
		for i, k := range tr.Locations[loc].Events.Kind {
			if pred(k) {
				return int64(i)
			}
		}
		require.FailNow(t, "no such event")
		return -1
	}
	cases := []struct {
		name, old, new string
		loc            int
		event          int64
	}{
		{"region", `,{"name":"work"}`, ``, 0, firstOf(0, func(k trace.Kind) bool { return k == trace.KindEnter })},
		// Location 1 sends to rank 0 of world; its Isend peer 0 is fine,
		// but with world = [1] rank 1 is outside for location 0's sends.
		{"peer", `"members":[0,1]`, `"members":[0]`, 0, firstOf(0, func(k trace.Kind) bool { return k == trace.KindSend })},
		{"communicator", `,{"name":"self","members":[1]}`, ``, 0, firstOf(0, func(k trace.Kind) bool { return k == trace.KindCommCreate })},
		{"events count", ev0, fmt.Sprintf(`"events":%d}`, n0+1), 0, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Contains(t, s, c.old)
			require.NoError(t, os.WriteFile(mpath, []byte(strings.Replace(s, c.old, c.new, 1)), 0o666))
			_, err := ReadDir(dir, &ReadOptions{Parallel: 1})
			path := filepath.Join(dir, EventsDirName, strconv.Itoa(c.loc)+StreamExt)
			requireStreamError(t, err, path, c.loc)
			var fe *FormatError
			require.ErrorAs(t, err, &fe)
			require.Equal(t, c.event, fe.Event, "%v", err)
			if c.event >= 0 {
				require.ErrorIs(t, err, trace.ErrInvalid)
			}
		})
	}
	require.NoError(t, os.WriteFile(mpath, orig, 0o666))

	t.Run("stream of another location", func(t *testing.T) {
		p0 := filepath.Join(dir, EventsDirName, "0"+StreamExt)
		p1 := filepath.Join(dir, EventsDirName, "1"+StreamExt)
		d0, err := os.ReadFile(p0)
		require.NoError(t, err)
		d1, err := os.ReadFile(p1)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(p1, d0, 0o666))
		_, err = ReadDir(dir, nil)
		requireStreamError(t, err, p1, 1)
		require.Contains(t, err.Error(), "header says location 0")
		require.NoError(t, os.WriteFile(p1, d1, 0o666))
	})
	t.Run("missing stream", func(t *testing.T) {
		p1 := filepath.Join(dir, EventsDirName, "1"+StreamExt)
		require.NoError(t, os.Rename(p1, p1+".x"))
		defer os.Rename(p1+".x", p1)
		_, err := ReadDir(dir, nil)
		requireStreamError(t, err, p1, 1)
	})
}

// TestNativeRecordsByHand decodes a raw payload written by hand from
// docs/format.md, with every record kind, and encodes the events back.
func TestNativeRecordsByHand(t *testing.T) {
	raw := []byte{
		1, 10, 2, // enter, t=5 (zigzag 10), region 2
		2, 1, 2, // leave, dt=-1 → t=4
		3, 2, 1, 0, 7, 0x80, 0x01, // send dt=1 (t=5), peer 1, comm 0, tag 7, bytes 128
		4, 0, 0, 1, 0, 0, 5, // isend dt=0, peer 0, comm 1, tag 0, bytes 0, request 5
		5, 0, 5, // isend-complete, request 5
		6, 0, 6, // irecv-request, request 6
		7, 0, 0, 0, 0, 0, // recv
		8, 0, 0, 0, 0, 0, 6, // irecv, request 6
		9, 0, 6, // request-test
		10, 0, 6, // request-cancelled
		11, 0, // coll-begin
		12, 0, 11, 0, 0, 8, 8, // coll-end allreduce, comm 0, no root, sent 8, received 8
		13, 0, 9, // nbcoll-request 9
		14, 0, 1, 1, 2, 4, 0, 9, // nbcoll-complete bcast, comm 1, root 1, sent 4, received 0, request 9
		15, 0, 1, // comm-create 1
		16, 0, 1, // comm-destroy 1
		17, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 1, 0x2a, 2, 'h', 'i', // other, dt=MaxInt64 (zigzag 2^64-2, 10 bytes), format 1, type 42, "hi"
		255, 3, 1, 'z', // attachment format 3, "z"
		255, 4, 0, // attachment format 4, empty
		18, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, // thread-fork dt=0, flags 0, model 3 (OpenMP), no team, threads 4
		20, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, // thread-team-begin, team 1 (team1 2)
		22, 0, 1, 3, 0, 7, 9, 0, 0, 0, 0, // thread-acquire-lock, legacy, model 3, lock 7, order 9
		24, 0, 0, 0, 1, 0, 0, 0, 2, 0x80, 0x01, 0, // thread-task-create, team 0, creator 2, generation 128
		27, 0, 0, 7, 1, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, // thread-create, model 7, team 0, sequence 2^64-1
	}
	var want trace.Events
	want.AppendRegion(trace.KindEnter, 5, 2)
	want.AppendRegion(trace.KindLeave, 4, 2)
	want.AppendMsg(trace.KindSend, 5, trace.Message{Peer: 1, Comm: 0, Tag: 7, Bytes: 128})
	want.AppendMsg(trace.KindIsend, 5, trace.Message{Peer: 0, Comm: 1, Tag: 0, Bytes: 0, Request: 5})
	want.AppendReq(trace.KindIsendComplete, 5, 5)
	want.AppendReq(trace.KindIrecvRequest, 5, 6)
	want.AppendMsg(trace.KindRecv, 5, trace.Message{})
	want.AppendMsg(trace.KindIrecv, 5, trace.Message{Request: 6})
	want.AppendReq(trace.KindRequestTest, 5, 6)
	want.AppendReq(trace.KindRequestCancelled, 5, 6)
	want.AppendCollBegin(5)
	want.AppendColl(trace.KindCollEnd, 5, trace.Collective{Op: trace.OpAllreduce, Comm: 0, Root: trace.NoRoot, Sent: 8, Received: 8})
	want.AppendReq(trace.KindNBCollRequest, 5, 9)
	want.AppendColl(trace.KindNBCollComplete, 5, trace.Collective{Op: trace.OpBcast, Comm: 1, Root: 1, Sent: 4, Received: 0, Request: 9})
	want.AppendComm(trace.KindCommCreate, 5, 1)
	want.AppendComm(trace.KindCommDestroy, 5, 1)
	want.AppendOpaque(math.MinInt64+4, trace.Opaque{Format: 1, Type: 42, Data: []byte("hi")}) // 5 + MaxInt64 wraps around to MinInt64 + 4
	want.AttachLast(3, []byte("z"))
	want.AttachLast(4, nil)
	tw := int64(math.MinInt64 + 4)
	want.AppendThread(trace.KindThreadFork, tw, trace.Thread{Model: trace.ParadigmOpenMP, Team: trace.NoComm, Threads: 4})
	want.AppendThread(trace.KindThreadTeamBegin, tw, trace.Thread{Team: 1})
	want.AppendThread(trace.KindThreadAcquireLock, tw, trace.Thread{Legacy: true, Model: trace.ParadigmOpenMP, Team: trace.NoComm, Lock: 7, Order: 9})
	want.AppendThread(trace.KindThreadTaskCreate, tw, trace.Thread{Team: 0, Creator: 2, Generation: 128})
	want.AppendThread(trace.KindThreadCreate, tw, trace.Thread{Model: trace.ParadigmPthread, Team: 0, Sequence: math.MaxUint64})

	var got trace.Events
	var ar arena
	require.NoError(t, decodeRecords(raw, want.Len(), &got, &refLimits{regions: 3, commSize: []uint64{2, 2}}, &ar))
	require.Equal(t, flatten(&want), flatten(&got))
	enc, err := encodeAll(&want)
	require.NoError(t, err)
	require.Equal(t, raw, enc)

	bad := map[string][]byte{
		"unknown kind":          {31, 0},
		"thread flags":          {18, 0, 2, 3, 0, 0, 0, 4, 0, 0, 0},
		"thread team range":     {20, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0},
		"thread truncated":      {20, 0, 0, 0, 2, 0, 0},
		"kind 0":                {0, 0},
		"attachment first":      {255, 0, 0},
		"non-minimal varint":    {1, 0x80, 0x00, 0},
		"varint too long":       {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0},
		"varint of 11 bytes":    {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0},
		"region beyond 32 bits": {1, 0, 0x80, 0x80, 0x80, 0x80, 0x10},
		"region out of range":   {1, 0, 3},
		"peer out of range":     {3, 0, 2, 0, 0, 0},
		"comm out of range":     {15, 0, 2},
		"root out of range":     {12, 0, 0, 0, 3, 0, 0},
		"truncated record":      {3, 0, 1, 0},
		"truncated varint":      {1, 0, 0x80},
		"data past end":         {17, 0, 0, 0, 5, 'a'},
		"attachment past end":   {11, 0, 255, 0, 2, 'a'},
		"missing op":            {12, 0},
		"count too small":       {11, 0, 11, 0},
		"trailing partial":      {11, 0, 1},
	}
	for name, b := range bad {
		var e trace.Events
		err := decodeRecords(b, 1, &e, &refLimits{regions: 3, commSize: []uint64{2, 2}}, &ar)
		require.Error(t, err, name)
		var de *decodeError
		require.ErrorAs(t, err, &de, name)
	}
	var e trace.Events
	require.Error(t, decodeRecords([]byte{11, 0}, 2, &e, nil, &ar), "count too large")
	// Thread records need a version 3 manifest.
	err = decodeRecords([]byte{20, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0}, 1, &e, &refLimits{regions: 3, commSize: []uint64{2, 2}, noThreads: true}, &ar)
	require.ErrorContains(t, err, "version below 3")
}
