package tracer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/clc-tools/clc/tracer/abi"
)

// TailExt is the extension of a rank's tail file in MetaDir: the buffers
// of its streams, which outlive the process (package abi has the layout).
const TailExt = ".tail"

// TailResult is what RecoverTails did with one rank's tail file.
type TailResult struct {
	Rank int
	// Events is the number of events written from the tail: those the
	// stream file did not hold.
	Events int64
	// Running is set when the process that owns the tail still runs on
	// this host: its tail is left alone.
	Running bool
	// Pending is the number of events a tail that was left alone holds
	// beyond the stream file.
	Pending int64
}

type tailStream struct {
	commit  [2]uint64
	off     [2]uint64
	written [2]uint32
}

type tailFile struct {
	path     string
	data     []byte
	streams  int
	bufBytes uint64
	dataOff  uint64
	pid      int64
	rank     int
	closed   bool
	host     string
	s        [2]tailStream
}

func parseTail(path string) (*tailFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	bad := func(what string) error { return fmt.Errorf("%s: not a clc-trace tail file (%s)", path, what) }
	if len(data) < abi.TailCtlSize || string(data[:8]) != abi.TailMagic {
		return nil, bad("no magic: the process died starting")
	}
	le := binary.LittleEndian
	t := &tailFile{path: path, data: data}
	if v := le.Uint32(data[abi.TailOffVersion:]); v != abi.TailVersion {
		return nil, bad(fmt.Sprintf("version %d", v))
	}
	t.streams = int(le.Uint32(data[abi.TailOffStreams:]))
	t.bufBytes = le.Uint64(data[abi.TailOffBufBytes:])
	t.dataOff = le.Uint64(data[abi.TailOffData:])
	t.pid = int64(le.Uint64(data[abi.TailOffPID:]))
	t.rank = int(le.Uint32(data[abi.TailOffRank:]))
	t.closed = le.Uint32(data[abi.TailOffClosed:]) != 0
	h := data[abi.TailOffHost : abi.TailOffHost+64]
	if i := bytes.IndexByte(h, 0); i >= 0 {
		h = h[:i]
	}
	t.host = string(h)
	if t.streams < 1 || t.streams > 2 || t.bufBytes < 4096 || t.bufBytes > 1<<30 ||
		t.dataOff < abi.TailCtlSize || uint64(len(data)) < t.dataOff+uint64(2*t.streams)*t.bufBytes {
		return nil, bad("inconsistent sizes")
	}
	for s := 0; s < t.streams; s++ {
		o := abi.TailOffStream + s*abi.TailStreamSize
		for b := 0; b < 2; b++ {
			t.s[s].commit[b] = le.Uint64(data[o+abi.TailStreamOffCommit+8*b:])
			t.s[s].off[b] = le.Uint64(data[o+abi.TailStreamOffOff+8*b:])
			t.s[s].written[b] = le.Uint32(data[o+abi.TailStreamOffWritten+4*b:])
			n := t.s[s].commit[b] & 0xffffffff
			if n < blockHeader || n > t.bufBytes {
				return nil, bad(fmt.Sprintf("stream %d buffer %d holds %d bytes", s, b, n))
			}
		}
	}
	return t, nil
}

const blockHeader = 24

// hostName is this host's name as the library writes it.
func hostName() string {
	h, err := os.Hostname()
	if err != nil {
		return ""
	}
	b := []byte(h)
	for i, c := range b {
		if c <= ' ' || c == '"' || c == '\\' {
			b[i] = '_'
		}
	}
	if len(b) > 63 {
		b = b[:63]
	}
	return string(b)
}

// running reports whether the process of t still runs here and holds the
// tail mapped.
func (t *tailFile) running() bool {
	if t.host != hostName() || t.pid <= 0 {
		return false
	}
	if err := syscall.Kill(int(t.pid), 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", t.pid))
	if err != nil {
		return true // it exists and cannot be looked at: leave it
	}
	abs, _ := filepath.Abs(t.path)
	return bytes.Contains(maps, []byte(abs))
}

// recover writes the unwritten blocks of stream s into path and cuts the
// file after the last block; with dry set, it only counts the events it
// would write.
func (t *tailFile) recover(s int, path string, dry bool) (int64, error) {
	flag := os.O_RDWR
	if dry {
		flag = os.O_RDONLY
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	st := &t.s[s]
	var n int64
	var end, endOff uint64
	for b := 0; b < 2; b++ {
		nev := uint32(st.commit[b] >> 32)
		size := st.commit[b] & 0xffffffff
		off := st.off[b]
		e := off
		if nev > 0 {
			e += size
		}
		if off >= endOff {
			end, endOff = e, off
		}
		if st.written[b] != 0 || nev == 0 {
			continue
		}
		if off < 32 {
			return n, fmt.Errorf("%s: stream %d buffer %d: block offset %d", t.path, s, b, off)
		}
		start := t.dataOff + uint64(2*s+b)*t.bufBytes
		payload := t.data[start+blockHeader : start+size]
		var h [blockHeader]byte
		copy(h[:], "CLCB")
		binary.LittleEndian.PutUint32(h[8:], uint32(len(payload)))
		binary.LittleEndian.PutUint32(h[12:], uint32(len(payload)))
		binary.LittleEndian.PutUint32(h[16:], nev)
		c := crc32.Update(crc32.Update(0, castagnoli, h[:20]), castagnoli, payload)
		binary.LittleEndian.PutUint32(h[20:], c)
		block := append(h[:], payload...)
		// the process may have written it itself (a signal, MPI_Abort):
		// only what is missing counts
		have := make([]byte, len(block))
		if k, _ := f.ReadAt(have, int64(off)); k == len(block) && bytes.Equal(have, block) {
			continue
		}
		if dry {
			n += int64(nev)
			continue
		}
		if _, err := f.WriteAt(block, int64(off)); err != nil {
			return n, fmt.Errorf("writing %s: %w", path, err)
		}
		n += int64(nev)
	}
	if dry {
		return n, nil
	}
	if fi, err := f.Stat(); err == nil && uint64(fi.Size()) > end && end >= 32 {
		if err := f.Truncate(int64(end)); err != nil {
			return n, fmt.Errorf("cutting %s: %w", path, err)
		}
	}
	if err := f.Close(); err != nil {
		return n, fmt.Errorf("writing %s: %w", path, err)
	}
	return n, nil
}

// RecoverOptions select the tails RecoverTails recovers.
type RecoverOptions struct {
	// Only selects ranks (nil: all).
	Only func(rank int) bool
	// ThisHost recovers only the tails of processes of this host (where
	// it can tell that they are gone); otherwise a process of another host
	// is taken to be gone.
	ThisHost bool
}

// RecoverTails finishes the streams of the ranks of the trace in dir whose
// process died before writing them: for every tail file in dir/.clc-meta
// that o selects and whose process does not run any more, it writes the
// blocks the tail says are unwritten into the rank's stream files (events/
// and truth/events/), cuts them after the last block and removes the
// tail. A tail whose process still runs on this host is left alone
// (Running), as are those o does not select; Pending counts what they
// hold.
func RecoverTails(dir string, o RecoverOptions) ([]TailResult, error) {
	paths, err := filepath.Glob(filepath.Join(dir, MetaDir, "*"+TailExt))
	if err != nil {
		return nil, err
	}
	var out []TailResult
	var errs []error
	for _, p := range paths {
		rank, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(p), TailExt))
		if err != nil {
			continue
		}
		t, err := parseTail(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // its process closed it, or another finisher recovered it
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if t.rank != rank {
			errs = append(errs, fmt.Errorf("%s: the tail of rank %d", p, t.rank))
			continue
		}
		res := TailResult{Rank: rank}
		streams := []string{filepath.Join(dir, "events", strconv.Itoa(rank)+".clce"),
			filepath.Join(dir, "truth", "events", strconv.Itoa(rank)+".clce")}
		leave := (o.Only != nil && !o.Only(rank)) || (o.ThisHost && t.host != hostName())
		if !t.closed && !leave && t.running() {
			res.Running, leave = true, true
		}
		if leave {
			if !t.closed {
				res.Pending, _ = t.recover(0, streams[0], true)
			}
			out = append(out, res)
			continue
		}
		if !t.closed {
			ok := true
			for s := 0; s < t.streams; s++ {
				n, err := t.recover(s, streams[s], false)
				if err != nil {
					errs = append(errs, err)
					ok = false
					break
				}
				if s == 0 {
					res.Events = n
				}
			}
			if !ok {
				continue
			}
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
		out = append(out, res)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rank < out[j].Rank })
	return out, errors.Join(errs...)
}

// RunningRanks lists the ranks of the trace in dir whose process still
// runs on this host with its tail open.
func RunningRanks(dir string) []int {
	paths, _ := filepath.Glob(filepath.Join(dir, MetaDir, "*"+TailExt))
	var out []int
	for _, p := range paths {
		if t, err := parseTail(p); err == nil && !t.closed && t.running() {
			out = append(out, t.rank)
		}
	}
	sort.Ints(out)
	return out
}
