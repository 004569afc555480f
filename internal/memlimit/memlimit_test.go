package memlimit

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
)

const meminfo = "MemTotal:       24628736 kB\nMemFree:         1000 kB\n"

func TestAvailable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  uint64
		ok    bool
	}{
		{"machine", map[string]string{"proc/meminfo": meminfo}, 24628736 * 1024, true},
		{"cgroup v2 without limit", map[string]string{"proc/meminfo": meminfo, "sys/fs/cgroup/memory.max": "max\n"}, 24628736 * 1024, true},
		{"cgroup v2 limit", map[string]string{"proc/meminfo": meminfo, "sys/fs/cgroup/memory.max": "8589934592\n"}, 8 << 30, true},
		{"cgroup v2 limit above the machine", map[string]string{"proc/meminfo": meminfo, "sys/fs/cgroup/memory.max": "68719476736\n"}, 24628736 * 1024, true},
		{"cgroup v1 unlimited", map[string]string{"proc/meminfo": meminfo, "sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n"}, 24628736 * 1024, true},
		{"cgroup v1 limit", map[string]string{"proc/meminfo": meminfo, "sys/fs/cgroup/memory/memory.limit_in_bytes": "4294967296"}, 4 << 30, true},
		{"cgroup only", map[string]string{"sys/fs/cgroup/memory.max": "1048576"}, 1 << 20, true},
		// A Slurm job's limit is on its job's group, an ancestor of the
		// task's group that /proc/self/cgroup names.
		{"cgroup v1 job's group", map[string]string{"proc/meminfo": meminfo,
			"proc/self/cgroup":                                                              "5:devices:/\n4:memory:/slurm_vm/uid_0/job_7/step_0/task_1\n0::/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                                    "9223372036854771712\n",
			"sys/fs/cgroup/memory/slurm_vm/uid_0/job_7/memory.limit_in_bytes":               "1073741824\n",
			"sys/fs/cgroup/memory/slurm_vm/uid_0/job_7/step_0/memory.limit_in_bytes":        "2147483648\n",
			"sys/fs/cgroup/memory/slurm_vm/uid_0/job_7/step_0/task_1/memory.limit_in_bytes": "9223372036854771712\n",
		}, 1 << 30, true},
		{"cgroup v2 own group", map[string]string{"proc/meminfo": meminfo,
			"proc/self/cgroup":                                "0::/system.slice/job.scope\n",
			"sys/fs/cgroup/memory.max":                        "max\n",
			"sys/fs/cgroup/system.slice/memory.max":           "max\n",
			"sys/fs/cgroup/system.slice/job.scope/memory.max": "536870912\n",
		}, 512 << 20, true},
		{"cgroup v1 other controllers only", map[string]string{"proc/meminfo": meminfo,
			"proc/self/cgroup": "3:cpu,cpuacct:/a\n",
			"sys/fs/cgroup/memory/a/memory.limit_in_bytes": "1048576",
		}, 24628736 * 1024, true},
		{"garbage", map[string]string{"proc/meminfo": "MemTotal: lots kB\n", "sys/fs/cgroup/memory.max": "x"}, 0, false},
		{"nothing", map[string]string{}, 0, false},
	} {
		fsys := fstest.MapFS{}
		for f, s := range tc.files {
			fsys[f] = &fstest.MapFile{Data: []byte(s)}
		}
		n, ok := Available(fsys)
		assert.Equal(t, tc.ok, ok, tc.name)
		assert.Equal(t, tc.want, n, tc.name)
	}
}

// The limit of the process's own control group, or of one above it, was
// ignored: only the root's file was read (issue 33: a 1 GiB Slurm or
// systemd group, and clc-correct said it "may use 18.8 GiB").
func TestAvailableReadsTheProcessesGroup(t *testing.T) {
	const (
		v1Mounts = "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" +
			"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
		v1Groups  = "5:devices:/\n4:memory:/slurm/uid_0/job_7\n1:cpu:/\n0::/\n"
		v2Mounts  = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
		v2Groups  = "0::/system.slice/clc.service\n"
		unlimited = "9223372036854771712\n"
	)
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  uint64
	}{
		{"v1: the job's group", map[string]string{
			"proc/self/mountinfo": v1Mounts, "proc/self/cgroup": v1Groups,
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                   unlimited,
			"sys/fs/cgroup/memory/slurm/memory.limit_in_bytes":             unlimited,
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes": "1073741824\n",
		}, 1 << 30},
		{"v1: a group above", map[string]string{
			"proc/self/mountinfo": v1Mounts, "proc/self/cgroup": v1Groups,
			"sys/fs/cgroup/memory/slurm/uid_0/memory.limit_in_bytes":       "2147483648\n",
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes": unlimited,
		}, 2 << 30},
		{"v1: the lower of two", map[string]string{
			"proc/self/mountinfo": v1Mounts, "proc/self/cgroup": v1Groups,
			"sys/fs/cgroup/memory/slurm/memory.limit_in_bytes":             "1073741824\n",
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes": "2147483648\n",
		}, 1 << 30},
		{"v2: the service's group", map[string]string{
			"proc/self/mountinfo": v2Mounts, "proc/self/cgroup": v2Groups,
			"sys/fs/cgroup/system.slice/memory.max":             "max\n",
			"sys/fs/cgroup/system.slice/clc.service/memory.max": "1073741824\n",
		}, 1 << 30},
		{"v2: a slice above", map[string]string{
			"proc/self/mountinfo": v2Mounts, "proc/self/cgroup": v2Groups,
			"sys/fs/cgroup/system.slice/memory.max":             "536870912\n",
			"sys/fs/cgroup/system.slice/clc.service/memory.max": "max\n",
		}, 512 << 20},
		{"v2 mounted elsewhere", map[string]string{
			"proc/self/mountinfo": "30 23 0:26 / /run/my\\040cgroups rw - cgroup2 none rw\n", "proc/self/cgroup": v2Groups,
			"run/my cgroups/system.slice/clc.service/memory.max": "1073741824\n",
			"sys/fs/cgroup/system.slice/clc.service/memory.max":  "1048576\n", // not the mount
		}, 1 << 30},
		{"v2 in a container: the mount's root is the group", map[string]string{
			"proc/self/mountinfo":          "30 23 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
			"proc/self/cgroup":             "0::/docker/abc/sub\n",
			"sys/fs/cgroup/memory.max":     "1073741824\n",
			"sys/fs/cgroup/sub/memory.max": "max\n",
		}, 1 << 30},
		{"no limit anywhere", map[string]string{
			"proc/self/mountinfo": v1Mounts, "proc/self/cgroup": v1Groups,
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                   unlimited,
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes": unlimited,
		}, 24628736 * 1024},
	} {
		fsys := fstest.MapFS{"proc/meminfo": &fstest.MapFile{Data: []byte(meminfo)}}
		for f, s := range tc.files {
			fsys[f] = &fstest.MapFile{Data: []byte(s)}
		}
		n, ok := Available(fsys)
		assert.True(t, ok, tc.name)
		assert.Equal(t, tc.want, n, tc.name)
	}
}

func TestSetRespectsEnvironment(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	n, err := Set(0.8)
	assert.NoError(t, err)
	assert.Zero(t, n)
}

func TestSetRejectsShare(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	_, err := Set(1.5)
	assert.Error(t, err)
}

func TestLimitIsTheRuntimesWhenSet(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	debug.SetMemoryLimit(math.MaxInt64)
	n, ok := Limit()
	if a, aok := Available(os.DirFS("/")); aok {
		assert.True(t, ok)
		assert.Equal(t, int64(a), n, "no soft limit: the machine's")
	}
	debug.SetMemoryLimit(3 << 30)
	n, ok = Limit()
	assert.True(t, ok)
	assert.Equal(t, int64(3<<30), n)
	// A soft limit (GOMEMLIMIT) above the memory or the control group's
	// limit: the lower.
	if a, aok := Available(os.DirFS("/")); aok {
		debug.SetMemoryLimit(int64(a) + 1<<40)
		n, ok = Limit()
		assert.True(t, ok)
		assert.Equal(t, int64(a), n, "a soft limit above the memory")
	}
}
