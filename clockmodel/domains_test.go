package clockmodel

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clc-tools/clc/trace"
)

func offs(pairs ...int64) []trace.ClockOffset {
	var out []trace.ClockOffset
	for i := 0; i+2 < len(pairs)+1; i += 3 {
		out = append(out, trace.ClockOffset{Time: pairs[i], Offset: pairs[i+1], RTT: pairs[i+2]})
	}
	return out
}

func TestDomainsDeclaredNode(t *testing.T) {
	locs := []Location{{Node: 0, Process: -1}, {Node: 0, Process: -1}, {Node: 1, Process: -1}, {Node: 1, Process: -1}, {Node: 0, Process: -1}}
	d := DetectDomains(locs, "node", 1000)
	assert.Equal(t, []int32{0, 0, 1, 1, 0}, d.Of)
	assert.Equal(t, int32(0), d.Ref)
	assert.Equal(t, []int32{3, 2}, d.Size)
	assert.Equal(t, []int32{0, 1}, d.Node)
	assert.Contains(t, d.Basis, "clc.clock-domain = node")
}

func TestDomainsThreadsShareTheirProcess(t *testing.T) {
	// Two processes with two threads each on one node, declared per
	// process: one domain per process.
	locs := []Location{{Node: 0, Process: 0}, {Node: 0, Process: 0}, {Node: 0, Process: 1}, {Node: 0, Process: 1}}
	d := DetectDomains(locs, "process", 1000)
	assert.Equal(t, []int32{0, 0, 1, 1}, d.Of)
	assert.Equal(t, 2, d.Count())
}

func TestDomainsByOffsets(t *testing.T) {
	// Node 0: locations 0 and 1 agree (within their round trips), 2 is
	// 50 µs off, 3 has no measurements (joins the node's first clock).
	// Node 1: its two locations agree with each other, not with node 0 —
	// but nodes are never merged.
	locs := []Location{
		{Node: 0, Process: -1, Offsets: offs(1000, 0, 0, 9000, 0, 0)},
		{Node: 0, Process: -1, Offsets: offs(1100, 300, 1000, 9100, -200, 1000)},
		{Node: 0, Process: -1, Offsets: offs(1200, 50000, 1000, 9200, 50100, 1000)},
		{Node: 0, Process: -1},
		{Node: 1, Process: -1, Offsets: offs(1000, 7000, 800, 9000, 7100, 800)},
		{Node: 1, Process: -1, Offsets: offs(1300, 7200, 900, 9300, 7000, 900)},
	}
	d := DetectDomains(locs, "", 1000)
	assert.Equal(t, []int32{0, 0, 1, 0, 2, 2}, d.Of)
	assert.Equal(t, []int32{0, 0, 1}, d.Node)
	assert.Equal(t, "node (offsets agree)", d.Basis)
	// With drift: the offsets of one clock change between MPI_Init and
	// MPI_Finalize; a measurement in between agrees with the interpolation.
	a := offs(0, 0, 100, 1e9, 10000, 100)
	assert.True(t, offsetsAgree(a, offs(5e8, 5000, 100), 10))
	assert.False(t, offsetsAgree(a, offs(5e8, 5400, 100), 10))
	// One measurement each: held, with 50 ppm of the time between.
	assert.True(t, offsetsAgree(offs(0, 0, 0), offs(1e7, 400, 0), 10))
	assert.False(t, offsetsAgree(offs(0, 0, 0), offs(1e7, 700, 0), 10))
}

func TestDomainsEveryLocationItsOwn(t *testing.T) {
	locs := []Location{{Node: 0, Process: -1, Offsets: offs(0, 0, 100)}, {Node: 0, Process: -1, Offsets: offs(0, 90000, 100)}}
	d := DetectDomains(locs, "", 1000)
	assert.Equal(t, 2, d.Count())
	assert.Equal(t, "process", d.Basis)
	d = DetectDomains(locs, "process", 1000)
	assert.Equal(t, 2, d.Count())
	assert.Contains(t, d.String(), "2 clock domain(s) of 1 location(s)")
}
