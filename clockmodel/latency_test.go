package clockmodel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/replay"
)

// bruteSameClock is the oracle of sameClock: every logical message, pair by
// pair (collectives: every sender and receiver of an instance, a member
// never its own sender, scans from lower to higher rank), between two
// locations of one domain, by class.
func bruteSameClock(times [][]int64, g *replay.Graph, node []int32, dom *Domains) (min [2]int64, n [2]int64) {
	min = [2]int64{math.MaxInt64, math.MaxInt64}
	add := func(a, b int32, v int64) {
		if dom.Of[a] != dom.Of[b] {
			return
		}
		c := 0
		if node[a] != node[b] {
			c = 1
		}
		n[c]++
		if v < min[c] {
			min[c] = v
		}
	}
	for li, deps := range g.Deps {
		for _, d := range deps {
			if d.Role == replay.RoleRecv {
				add(d.Peer, int32(li), times[li][d.Idx]-times[d.Peer][d.Ref])
			}
		}
	}
	for ii := range g.Instances {
		in := &g.Instances[ii]
		if in.Kind != 0 || in.Class == 0 || in.N < 2 {
			continue
		}
		ps := g.InstanceParts(uint32(ii))
		for i, s := range ps {
			for j, r := range ps {
				if i == j || s.Send == replay.NoEvent || r.Recv == replay.NoEvent || (in.Class == replay.ClassScan && i > j) {
					continue
				}
				add(s.Loc, r.Loc, times[r.Loc][r.Recv]-times[s.Loc][s.Send])
			}
		}
	}
	return min, n
}

func TestSameClockLatencyMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for it := range 200 {
		tr, _ := tracetest.Random(rng, tracetest.Config{Locations: 2 + rng.IntN(9), Nodes: 1 + rng.IntN(3), Ops: 40, Latency: 50, Offset: 300, Drift: 1e-4, Init: it%2 == 0})
		g, err := replay.Match(tr, &replay.MatchOptions{Alltoallv: replay.AlltoallvNToN})
		require.NoError(t, err)
		times := tracetest.Times(tr)
		node := make([]int32, len(tr.Locations))
		for i, l := range tr.Locations {
			node[i] = l.Node
		}
		// Domains that span nodes, so that both classes occur.
		locs := make([]Location, len(tr.Locations))
		for i := range locs {
			locs[i] = Location{Node: 0, Process: int32(i % 3)}
		}
		dom := DetectDomains(locs, "process", 1)
		want, wn := bruteSameClock(times, g, node, &dom)
		l := newLatencies(replay.Latency{Intra: math.MaxInt32, Inter: math.MaxInt32}, [2]bool{})
		l.sameClock(times, g, node, &dom, 2, nil)
		for c, got := range []Latency{l.Intra, l.Inter} {
			if wn[c] == 0 {
				assert.Equal(t, int64(-1), got.SameClock, "trace %d class %d", it, c)
				continue
			}
			assert.Equal(t, want[c], got.SameClock, "trace %d class %d", it, c)
			assert.Equal(t, max(want[c], 0), got.Ticks, "trace %d class %d", it, c)
			assert.Equal(t, SourceSameClock, got.Source)
			assert.Positive(t, got.SameClockMessages)
		}
	}
}

func TestLatencyFlagsWin(t *testing.T) {
	l := newLatencies(replay.Latency{Intra: 300, Inter: 1000}, [2]bool{true, false})
	l.Intra.lower(100, SourceSameClock)
	l.Inter.lower(700, SourceSameClock)
	l.Inter.lower(800, SourceRoundTrip) // not lower: kept
	assert.Equal(t, int64(300), l.Intra.Ticks)
	assert.Equal(t, SourceFlag, l.Intra.Source)
	assert.Equal(t, int64(700), l.Inter.Ticks)
	assert.Equal(t, SourceSameClock, l.Inter.Source)
	assert.Equal(t, replay.Latency{Intra: 300, Inter: 700}, l.Replay())
	l.Inter.lower(-5, SourceSameClock)
	assert.Equal(t, int64(0), l.Inter.Ticks, "μ is never negative")
	l.clamp()
	assert.Equal(t, int64(0), l.Intra.Ticks, "μ within a node never exceeds μ across nodes")
}

// μ must hold for every pair of clock domains: a pair fast in both
// directions lowers it by its own round trip, however many windows the
// slower pairs have (pooled, their widths would set the percentile).
func TestRoundTripsPerPair(t *testing.T) {
	dom := &Domains{Of: []int32{0, 1, 2}, Node: []int32{0, 1, 2}, Size: []int32{1, 1, 1}}
	lat := replay.Latency{Intra: 300, Inter: 1000}
	var bs []band
	for i := range 200 { // pair (0,1): round trips of 2·1000 + 6000..6199 ticks
		w := 6000 + float64(i)
		bs = append(bs, band{p: 0, q: 1, t: int64(i), lo: -w / 2, hi: w / 2, nlo: 1, nhi: 1})
	}
	for i := range 10 { // pair (1,2): 2·1000 + 400..409
		w := 400 + float64(i)
		bs = append(bs, band{p: 2, q: 1, t: int64(i), lo: -w / 2, hi: w / 2, nlo: 1, nhi: 1})
	}
	bs = append(bs, band{p: 0, q: 2, lo: -1, hi: 1e9, nlo: 0, nhi: 1}) // one-sided: no round trip
	l := newLatencies(lat, [2]bool{})
	l.roundTrips(bs, dom, lat)
	// Pair (1,2) has fewer than 20 windows: its narrowest, 400, counts
	// (pooled, the 5th percentile of all 210 would be pair (0,1)'s 6000):
	// half the round trip 1000 + 200, μ a quarter of the round trip.
	assert.Equal(t, int64(1200), l.Inter.RoundTrip)
	assert.Equal(t, int64(600), l.Inter.Ticks)
	assert.Equal(t, SourceRoundTrip, l.Inter.Source)
	assert.Equal(t, int64(300), l.Intra.Ticks, "no pair within a node: μ within a node kept")
}
