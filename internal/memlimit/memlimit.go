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
// /proc/meminfo, lowered to the limit of the process's own control group
// when one is set, or of any group above it (cgroup v2 memory.max, v1
// memory.limit_in_bytes; Slurm and systemd limit a job's group, not the
// root). The group is the one /proc/self/cgroup names, found under the
// cgroup file systems /proc/self/mountinfo lists (by default
// /sys/fs/cgroup for v2 and /sys/fs/cgroup/memory for v1). fsys is the
// file system's root ("/" on a running system); ok is false when neither
// is readable (another operating system).
func Available(fsys fs.FS) (n uint64, ok bool) {
	if b, err := fs.ReadFile(fsys, "proc/meminfo"); err == nil {
		n, ok = memTotal(b)
	}
	if v, found := cgroupLimit(fsys); found && (!ok || v < n) {
		n, ok = v, true
	}
	return n, ok
}

// cgroupLimit returns the lowest memory limit set on the process's control
// group or one above it, v1 or v2, and whether one is set.
func cgroupLimit(fsys fs.FS) (limit uint64, found bool) {
	mounts := cgroupMounts(fsys)
	groups, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		// No process information: the roots' limits.
		groups = []byte("0::/\n1:memory:/\n")
	}
	for _, line := range strings.Split(string(groups), "\n") {
		// hierarchy-ID:controllers:path
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		var m mount
		var file string
		switch {
		case f[0] == "0" && f[1] == "":
			m, file = mounts.v2, "memory.max"
		case slices.Contains(strings.Split(f[1], ","), "memory"):
			m, file = mounts.v1, "memory.limit_in_bytes"
		default:
			continue
		}
		for _, dir := range m.groupDirs(f[2]) {
			b, err := fs.ReadFile(fsys, path.Join(dir, file))
			if err != nil {
				continue
			}
			s := strings.TrimSpace(string(b))
			// v1 reports "no limit" as a huge number, above any MemTotal;
			// v2 as "max".
			if v, err := strconv.ParseUint(s, 10, 64); err == nil && v > 0 && (!found || v < limit) {
				limit, found = v, true
			}
		}
	}
	return limit, found
}

// mount is where a cgroup hierarchy is mounted (relative to the file
// system's root) and which of its groups the mount's root is.
type mount struct{ point, root string }

// groupDirs returns the directories of the group at path (as
// /proc/self/cgroup names it) and of every group above it up to the
// mount's root, the group's first.
func (m mount) groupDirs(group string) []string {
	g, root := path.Clean(group), path.Clean(m.root)
	rel := "."
	switch {
	case root == "/":
		rel = strings.TrimPrefix(g, "/")
	case strings.HasPrefix(g, root+"/"):
		rel = g[len(root)+1:]
	}
	if rel == "" {
		rel = "."
	}
	// Outside the mount's root (another cgroup namespace's view): the
	// mount's root is the nearest group to read.
	var dirs []string
	for ; ; rel = path.Dir(rel) {
		dirs = append(dirs, path.Join(m.point, rel))
		if rel == "." {
			return dirs
		}
	}
}

// cgroupMounts finds the cgroup v2 hierarchy and the v1 memory hierarchy
// in /proc/self/mountinfo; where it names none, the usual places.
func cgroupMounts(fsys fs.FS) (ms struct{ v1, v2 mount }) {
	ms.v2 = mount{point: "sys/fs/cgroup", root: "/"}
	ms.v1 = mount{point: "sys/fs/cgroup/memory", root: "/"}
	b, err := fs.ReadFile(fsys, "proc/self/mountinfo")
	if err != nil {
		return ms
	}
	var v1, v2 bool
	for _, line := range strings.Split(string(b), "\n") {
		// ID parent major:minor root mount-point options [optional...] - type source super-options
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 1 {
			continue
		}
		m := mount{root: unescape(f[3]), point: strings.TrimPrefix(path.Clean(unescape(f[4])), "/")}
		if m.point == "" {
			m.point = "."
		}
		switch {
		case g[0] == "cgroup2" && !v2:
			ms.v2, v2 = m, true
		case g[0] == "cgroup" && len(g) >= 3 && slices.Contains(strings.Split(g[2], ","), "memory") && !v1:
			ms.v1, v1 = m, true
		}
	}
	return ms
}

// unescape undoes mountinfo's octal escapes of space, tab, newline and
// backslash (\040 …).
func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	return strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`).Replace(s)
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

// Limit returns the bytes of memory the process may use: the smallest of
// the runtime's soft memory limit (GOMEMLIMIT, or Set) and Available. ok
// is false when neither is known.
func Limit() (n int64, ok bool) {
	a, ok := Available(os.DirFS("/"))
	n = int64(min(a, math.MaxInt64))
	if l := debug.SetMemoryLimit(-1); l < math.MaxInt64 && (!ok || l < n) {
		n, ok = l, true
	}
	return n, ok
}
