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
}
