package clockmodel

import (
	"math"
	"math/rand/v2"
	"slices"
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

// bruteAnchored is the oracle of anchored: every message between two
// clock domains bounded through all anchors of each domain, grouped by
// ordered domain pair, class and the anchor nearest the receive (of the
// sender when the receiver is the reference), the second smallest group
// per pair, the smallest pair per class, and nothing for a class with a
// negative bound.
func bruteAnchored(times [][]int64, g *replay.Graph, node []int32, dom *Domains, anchors []anchorObs) (out [2]int64, refused int) {
	rng := func(d int32, t int64) (lo, hi float64, near int, ok bool) {
		if d == dom.Ref {
			return 0, 0, -1, true
		}
		lo, hi, near = math.Inf(-1), math.Inf(1), -1
		best, k := math.Inf(1), 0
		for _, a := range anchors {
			if a.d != d {
				continue
			}
			dt := math.Abs(float64(t - a.t))
			e := a.sigma + BoundRate*dt
			lo, hi = math.Max(lo, a.v-e), math.Min(hi, a.v+e)
			if dt < best {
				best, near = dt, k
			}
			k++
		}
		return lo, hi, near, near >= 0
	}
	type key struct{ p, q, near, c int }
	groups := map[key]int64{}
	for li, deps := range g.Deps {
		for _, d := range deps {
			p, q := dom.Of[d.Peer], dom.Of[li]
			if d.Role != replay.RoleRecv || p == q {
				continue
			}
			s, r := times[d.Peer][d.Ref], times[li][d.Idx]
			_, uq, nq, okq := rng(q, r)
			lp, _, np, okp := rng(p, s)
			if !okq || !okp || nq < 0 && np < 0 {
				continue
			}
			k := key{int(p), int(q), nq, 1}
			if nq < 0 {
				k.near = np
			}
			if node[d.Peer] == node[li] {
				k.c = 0
			}
			b := int64(math.Floor(float64(r-s) + uq - lp))
			if v, ok := groups[k]; !ok || b < v {
				groups[k] = b
			}
		}
	}
	out = [2]int64{-1, -1}
	for c := range 2 {
		byPair := map[[2]int][]int64{}
		neg := false
		for k, b := range groups {
			if k.c == c {
				byPair[[2]int{k.p, k.q}] = append(byPair[[2]int{k.p, k.q}], b)
				neg = neg || b < 0
			}
		}
		if neg {
			refused++
			continue
		}
		for _, bs := range byPair {
			if len(bs) < 2 {
				continue
			}
			slices.Sort(bs)
			if out[c] < 0 || bs[1] < out[c] {
				out[c] = bs[1]
			}
		}
	}
	return out, refused
}

// anchored bounds μ by the one-way messages where the anchors pin the
// clocks, as the brute-force oracle does, on random traces with domains
// across nodes and random anchors: lowered where two measurements of a
// pair support a bound below it, left where any bound of the class is
// negative (and then no bound reported).
func TestAnchoredLatencyMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	lowered, refused := 0, 0
	for it := range 300 {
		// A third of the traces with clock offsets: messages that arrive
		// before they were sent, whose bounds are negative.
		offset := int64(0)
		if it%3 == 0 {
			offset = 3000
		}
		tr, _ := tracetest.Random(rng, tracetest.Config{Locations: 2 + rng.IntN(7), Nodes: 1 + rng.IntN(3), Ops: 40, Latency: 400, Offset: offset, Init: it%2 == 0})
		g, err := replay.Match(tr, &replay.MatchOptions{Alltoallv: replay.AlltoallvNToN})
		require.NoError(t, err)
		times := tracetest.Times(tr)
		node := make([]int32, len(tr.Locations))
		var lo, hi int64 = math.MaxInt64, math.MinInt64
		for i, l := range tr.Locations {
			node[i] = l.Node
			for _, v := range times[i] {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		locs := make([]Location, len(tr.Locations))
		for i := range locs {
			locs[i] = Location{Node: 0, Process: int32(i % 3)}
		}
		dom := DetectDomains(locs, "process", 1)
		var anchors []anchorObs
		for d := range int32(dom.Count()) {
			if d == dom.Ref || rng.IntN(5) == 0 {
				continue
			}
			for range 1 + rng.IntN(3) {
				anchors = append(anchors, anchorObs{d: d, t: lo + rng.Int64N(hi-lo+1), v: rng.NormFloat64() * 20, sigma: 1 + rng.Float64()*30})
			}
		}
		slices.SortFunc(anchors, func(a, b anchorObs) int {
			if a.d != b.d {
				return int(a.d - b.d)
			}
			return int(a.t - b.t)
		})
		want, neg := bruteAnchored(times, g, node, &dom, anchors)
		refused += neg
		def := replay.Latency{Intra: 600, Inter: 900}
		l := newLatencies(def, [2]bool{})
		l.anchored(times, g, node, &dom, anchors, 1+it%3, nil)
		for c, got := range []Latency{l.Intra, l.Inter} {
			d := []int64{def.Intra, def.Inter}[c]
			assert.Equal(t, want[c], got.Anchored, "trace %d class %d", it, c)
			if want[c] >= 0 && want[c] < d {
				lowered++
				assert.Equal(t, want[c], got.Ticks, "trace %d class %d", it, c)
				assert.Equal(t, SourceAnchored, got.Source)
			} else {
				assert.Equal(t, d, got.Ticks, "trace %d class %d", it, c)
				assert.Equal(t, SourceDefault, got.Source)
			}
		}
	}
	assert.Positive(t, lowered, "some trace lowers μ")
	assert.Positive(t, refused, "some class has a negative bound")
}
