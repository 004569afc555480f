package otf

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/testenv"
)

// The layout tables are those of the OTF2 specification that python3-otf2
// installs (the one the reference library is generated from).
func TestLayoutsMatchSpecification(t *testing.T) {
	py := testenv.PythonOTF2(t)
	run := func(kind string) []string {
		out, err := exec.Command(py, "../testdata/otf2/layouts.py", kind).CombinedOutput()
		require.NoError(t, err, "%s", out)
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	for _, l := range run("events") {
		f := strings.Fields(l)
		id, err := strconv.Atoi(f[0])
		require.NoError(t, err)
		name, layout, singletonFlag := f[1], strings.TrimPrefix(f[2], "."), f[3]
		assert.Equal(t, layout, eventLayouts[id], "event %d", id)
		assert.Equal(t, name, eventNames[id], "event %d", id)
		assert.True(t, knownEvent[id], "event %d", id)
		assert.Equal(t, singletonFlag == "S", singleton(uint8(id)), "event %d singleton", id)
	}
	for _, l := range run("defs") {
		f := strings.Fields(l)
		id, err := strconv.Atoi(f[0])
		require.NoError(t, err)
		kind, name, layout := f[1], f[2], f[3]
		if kind != "LocalOnly" {
			assert.Equal(t, layout, globalDefLayouts[id], "global definition %s", name)
			assert.Equal(t, name, globalDefNames[id])
		}
		if kind != "GlobalOnly" {
			assert.Equal(t, layout, localDefLayouts[id], "local definition %s", name)
			assert.Equal(t, name, localDefNames[id])
		}
	}
}

// TestCheckAttributeListTwice: an attribute id twice in one list is an
// error at the repeated entry, in a short list (compared one by one) as in
// a long one (the map, reused from list to list).
func TestCheckAttributeListTwice(t *testing.T) {
	list := func(ids ...uint32) ([]byte, []int) {
		e := enc{}
		e.u32c(uint32(len(ids)))
		var at []int
		for _, id := range ids {
			at = append(at, len(e.b))
			e.u32c(id)
			e.u8(typeUint32)
			e.u32c(7)
		}
		return e.b, at
	}
	var seen map[uint64]bool
	for _, n := range []int{2, shortAttributeList, shortAttributeList + 1, 40} {
		ids := make([]uint32, n)
		for i := range ids {
			ids[i] = uint32(100 + i)
		}
		p, _ := list(ids...)
		_, err := checkAttributeList(p, false, &seen)
		require.NoError(t, err, "%d distinct ids", n)
		ids[n-1] = ids[0]
		p, at := list(ids...)
		off, err := checkAttributeList(p, false, &seen)
		require.Error(t, err, "%d ids, one twice", n)
		assert.Contains(t, err.Error(), "attribute "+strconv.Itoa(int(ids[0]))+" twice in one list")
		assert.Equal(t, at[n-1], off)
	}
}
