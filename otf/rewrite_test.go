package otf

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/trace"
)

// chunkStarts checks the raw layout of an event file: every chunk is the
// chunk size (but the last), begins with a TIMESTAMP record, and its header
// numbers continue those of the chunk before. It returns the number of
// chunks.
func chunkStarts(t *testing.T, path string, size int, events uint64) int {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	next := uint64(1)
	n := 0
	for off := 0; off < len(b); off += size {
		end := off + size
		if end > len(b) {
			end = len(b)
		}
		c := b[off:end]
		require.GreaterOrEqual(t, len(c), chunkHeaderLen+2)
		require.Equal(t, byte(recChunkHeader), c[0])
		first := binary.LittleEndian.Uint64(c[2:])
		last := binary.LittleEndian.Uint64(c[10:])
		assert.Equal(t, next, first, "chunk %d of %s", n, path)
		if last >= first {
			assert.Equal(t, byte(recTimestamp), c[chunkHeaderLen], "chunk %d of %s does not start with a TIMESTAMP", n, path)
		}
		next = last + 1
		n++
	}
	assert.Equal(t, events, next-1)
	return n
}

var printedEventRE = regexp.MustCompile(`^[A-Z_0-9]+ +(\d+) +(\d+)`)

// printedTimes returns the times of the events otf2-print printed (its
// event lines), by location, each location's in its order.
func printedTimes(t *testing.T, lines []string) map[uint64][]int64 {
	t.Helper()
	times := map[uint64][]int64{}
	for _, l := range lines {
		m := printedEventRE.FindStringSubmatch(l)
		if m == nil {
			continue // an attribute line
		}
		loc, err := strconv.ParseUint(m[1], 10, 64)
		require.NoError(t, err)
		ts, err := strconv.ParseInt(m[2], 10, 64)
		require.NoError(t, err)
		times[loc] = append(times[loc], ts)
	}
	return times
}

// A correction that moves events apart (they shared a TIMESTAMP record),
// together (they had their own), and across chunk boundaries: the reference
// reader sees exactly the corrected times, BufferFlush's stopTime moves with
// its event, and the chunk headers stay right.
func TestRewriteMovedEvents(t *testing.T) {
	dir, a, tr := readRef(t, 3000)
	orig := make([][]int64, len(tr.Locations))
	for li, l := range tr.Locations {
		orig[li] = append([]int64(nil), l.Events.Time...)
	}
	// Location 0: every event that shares its time with the one before
	// moves 1 tick later, and everything after it too (order kept), so
	// shared TIMESTAMP records split; the growth moves chunk boundaries.
	ts := tr.Locations[0].Events.Time
	shift := int64(0)
	for i := 1; i < len(ts); i++ {
		if orig[0][i] == orig[0][i-1] {
			shift++
		}
		ts[i] = orig[0][i] + shift
	}
	// Location 1: pull events onto the time of their predecessor where
	// that keeps the order (they now share a TIMESTAMP).
	ts1 := tr.Locations[1].Events.Time
	for i := 1; i < len(ts1); i += 3 {
		ts1[i] = ts1[i-1]
	}
	// Location 2: every event 1,000 ticks later (its chunks are copied with
	// their TIMESTAMPs patched). Location 3: the same, and from its second
	// half on shared TIMESTAMP records split (its first chunks are patched,
	// the rest written anew).
	ts2 := tr.Locations[2].Events.Time
	for i := range ts2 {
		ts2[i] += 1000
	}
	ts3 := tr.Locations[3].Events.Time
	shift = 1000
	for i := range ts3 {
		if i > len(ts3)/2 && orig[3][i] == orig[3][i-1] {
			shift++
		}
		ts3[i] = orig[3][i] + shift
	}
	out := filepath.Join(t.TempDir(), "moved")
	require.NoError(t, a.Rewrite(out, tr, nil))
	checkOTF2(t, filepath.Join(out, "traces.otf2"))

	// The reference reader's times are ours, event for event.
	got := eventLines(otf2Print(t, filepath.Join(out, "traces.otf2")))
	times := printedTimes(t, got)
	require.Len(t, times, len(tr.Locations))
	for _, l := range tr.Locations {
		require.Equal(t, l.Events.Time, times[l.ID], "location %d", l.ID)
	}
	// BufferFlush: the stop time moved as far as the flush itself.
	want := eventLines(otf2Print(t, filepath.Join(dir, "traces.otf2")))
	flushLines := func(lines []string) [][]string {
		var out [][]string
		for _, l := range lines {
			if strings.HasPrefix(l, "BUFFER_FLUSH") && strings.Contains(l, " 4294967296 ") {
				out = append(out, strings.Fields(l))
			}
		}
		return out
	}
	wfl, gfl := flushLines(want), flushLines(got)
	require.Equal(t, len(wfl), len(gfl))
	flushes := len(wfl)
	for i := range wfl {
		wf, gf := wfl[i], gfl[i]
		wt, _ := strconv.ParseInt(wf[2], 10, 64)
		gt, _ := strconv.ParseInt(gf[2], 10, 64)
		ws, _ := strconv.ParseInt(wf[len(wf)-1], 10, 64)
		gs, _ := strconv.ParseInt(gf[len(gf)-1], 10, 64)
		assert.Equal(t, ws-wt, gs-gt, "flush duration kept: %q → %q", wf, gf)
		if i > 0 {
			assert.NotEqual(t, wt, gt)
		}
	}
	assert.Positive(t, flushes)
	// Raw layout: TIMESTAMP at every chunk start, right event numbers.
	for _, l := range tr.Locations {
		n := chunkStarts(t, filepath.Join(out, "traces", strconv.FormatUint(l.ID, 10)+".evt"), MinChunkSize, uint64(l.Events.Len()))
		assert.Greater(t, n, 2)
	}
	// And our reader agrees.
	b, err := Open(out)
	require.NoError(t, err)
	tr2, err := b.Read(context.Background(), nil)
	require.NoError(t, err)
	for li := range tr.Locations {
		assert.Equal(t, tr.Locations[li].Events.Time, tr2.Locations[li].Events.Time)
	}
	an := b.Anchor()
	assert.Equal(t, a.Anchor().NumGlobalDefs, an.NumGlobalDefs)
	// ClockProperties cover the corrected times.
	var lo, hi int64 = 1 << 62, 0
	for _, l := range tr.Locations {
		for _, v := range l.Events.Time {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	assert.Equal(t, uint64(lo), b.defs.globalOffset)
	assert.GreaterOrEqual(t, b.defs.globalOffset+b.defs.traceLength, uint64(hi))
}

func TestShiftStop(t *testing.T) {
	assert.Equal(t, uint64(150), shiftStop(100, 50, 100))
	assert.Equal(t, uint64(60), shiftStop(100, 50, 10))
	assert.Equal(t, uint64(10), shiftStop(5, 50, 10)) // never before its event
	assert.Equal(t, uint64(1<<64-2), shiftStop(1<<64-10, 0, 100))
	_ = trace.KindOther
}

func TestClockPropertiesPayload(t *testing.T) {
	e := enc{}
	e.u64c(1000)          // resolution: 1 tick = 1 ms
	e.u64c(5000)          // global offset
	e.u64c(100)           // trace length
	e.u64c(1_700_000_000) // realtime of the global offset, ns
	e.u8(7)               // a field of a later version
	out, err := clockPropertiesPayload(e.b, false, timeRange{min: 4990, max: 5200, any: true})
	require.NoError(t, err)
	d := dec{b: out}
	assert.Equal(t, uint64(1000), d.u64c())
	assert.Equal(t, uint64(4990), d.u64c())
	assert.Equal(t, uint64(210), d.u64c())
	assert.Equal(t, uint64(1_700_000_000-10_000_000), d.u64c()) // 10 ticks earlier = 10 ms
	assert.Equal(t, uint8(7), d.u8())
	require.NoError(t, d.err)
	assert.Zero(t, d.left())
	// Without a realtime field (OTF2 2.x) and with an undefined one.
	three := enc{}
	three.u64c(1000)
	three.u64c(5000)
	three.u64c(100)
	out, err = clockPropertiesPayload(three.b, false, timeRange{min: 1, max: 2, any: true})
	require.NoError(t, err)
	assert.Equal(t, []byte{2, 0xe8, 0x03, 1, 1, 1, 1}, out)
	u := enc{b: append([]byte(nil), three.b...)}
	u.u64c(undefined64)
	out, err = clockPropertiesPayload(u.b, false, timeRange{min: 1, max: 2, any: true})
	require.NoError(t, err)
	assert.Equal(t, byte(0xFF), out[len(out)-1])
}
