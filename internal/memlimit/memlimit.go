// Package memlimit finds how much memory a process may use on Linux (the
// machine's memory, or its control group's limit when that is lower) and
// sets the Go runtime's soft memory limit to a share of it.
//
// clc-correct keeps a trace's time columns and happened-before relation in
// memory and collects garbage at 50 % heap growth. On the largest traces
// that growth would pass the machine's memory although the live heap fits;
// with a soft limit the collector runs more often near it instead.
package memlimit

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// Available returns the bytes of memory the process may use: MemTotal of
// /proc/meminfo, lowered to the lowest limit of the control groups that
// hold the process (cgroup v2 memory.max, or v1 memory.limit_in_bytes): the
// mount's root group's, and those of the process's own group and its
// ancestors as /proc/self/cgroup names them (a Slurm job's memory limit
// is on its job's group, below the root). fsys is the file system's root
// ("/" on a running system); ok is false when nothing is readable
// (another operating system).
func Available(fsys fs.FS) (n uint64, ok bool) {
	if b, err := fs.ReadFile(fsys, "proc/meminfo"); err == nil {
		n, ok = memTotal(b)
	}
	for _, f := range limitFiles(fsys) {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			continue
		}
		// v1 reports "no limit" as a huge number, above any MemTotal.
		if v, err := strconv.ParseUint(s, 10, 64); err == nil && v > 0 && (!ok || v < n) {
			n, ok = v, true
		}
	}
	return n, ok
}

// limitFiles lists the memory limit files that may bound the process: the
// root group's (v2, v1), then those of its own group and every ancestor.
func limitFiles(fsys fs.FS) []string {
	files := []string{"sys/fs/cgroup/memory.max", "sys/fs/cgroup/memory/memory.limit_in_bytes"}
	b, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return files
	}
	for _, line := range strings.Split(string(b), "\n") {
		// "ID:CONTROLLERS:PATH"; v2's line is "0::PATH".
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 || !strings.HasPrefix(f[2], "/") {
			continue
		}
		var dir, name string
		switch {
		case f[0] == "0" && f[1] == "":
			dir, name = "sys/fs/cgroup", "memory.max"
		case slices.Contains(strings.Split(f[1], ","), "memory"):
			dir, name = "sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		for p := path.Clean(f[2]); p != "/" && p != "."; p = path.Dir(p) {
			files = append(files, path.Join(dir, p, name))
		}
	}
	return files
}

// memTotal parses the MemTotal line of /proc/meminfo ("MemTotal: N kB").
func memTotal(b []byte) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			v, err := strconv.ParseUint(f[1], 10, 64)
			return v * 1024, err == nil
		}
	}
	return 0, false
}

// Set sets the runtime's soft memory limit to share (0 < share ≤ 1) of
// Available unless the environment sets GOMEMLIMIT, which wins. It returns
// the limit set, or 0 when it set none.
func Set(share float64) (int64, error) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0, nil
	}
	if share <= 0 || share > 1 {
		return 0, fmt.Errorf("memory share %g is not in (0, 1]", share)
	}
	n, ok := Available(os.DirFS("/"))
	if !ok {
		return 0, nil
	}
	limit := int64(float64(n) * share)
	debug.SetMemoryLimit(limit)
	return limit, nil
}

// Limit returns the bytes of memory the process may use: the runtime's
// soft memory limit when one is set (GOMEMLIMIT, or Set), else Available.
// ok is false when neither is known.
func Limit() (n int64, ok bool) {
	if l := debug.SetMemoryLimit(-1); l < math.MaxInt64 {
		return l, true
	}
	a, ok := Available(os.DirFS("/"))
	return int64(min(a, math.MaxInt64)), ok
}
