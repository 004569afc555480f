package sim

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clc-tools/clc/internal/testenv"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func generate(t testing.TB, cfg Config) (rec, truth *trace.Trace) {
	t.Helper()
	rec, truth, err := Generate(cfg)
	require.NoError(t, err, "Generate")
	return rec, truth
}

// checkConsistent runs the independent checker on a generated pair.
func checkConsistent(t *testing.T, cfg Config, rec, truth *trace.Trace) *matching {
	t.Helper()
	require.NoError(t, sameEvents(rec, truth), "the events of the recorded trace against the truth's")
	for name, tr := range map[string]*trace.Trace{"recorded": rec, "truth": truth} {
		require.NoError(t, tr.Validate(), name)
		require.NoError(t, tr.Unordered(), "%s: times decrease", name)
	}
	m, err := match(truth)
	require.NoError(t, err, "checker")
	v := countViolations(truth, m, latModelOf(cfg), true)
	require.Zero(t, v.total(), "violations in the truth: %+v", v)
	require.Zero(t, v.p2pReversed, "reversed messages in the truth: %+v", v)
	return m
}

func TestTruthConsistent(t *testing.T) {
	patterns := append(PatternNames(), "")
	for ri, ranks := range []int{1, 2, 3, 7, 12, 16} {
		for qi, rpn := range []int{1, 2, 4} {
			for pi, p := range patterns {
				// By default a third of the grid: each pattern at every
				// rank count, at every ranks-per-node twice, and every
				// (ranks, ranks-per-node) pair with a third of the patterns.
				if !testenv.Full() && (ri+qi+pi)%3 != 0 {
					continue
				}
				name := p
				if p == "" {
					name = "default"
				}
				t.Run(fmt.Sprintf("%s/ranks=%d/rpn=%d", name, ranks, rpn), func(t *testing.T) {
					cfg := DefaultConfig()
					cfg.Ranks, cfg.RanksPerNode, cfg.Steps = ranks, rpn, 6
					cfg.Seed = int64(ranks*100 + rpn)
					if p != "" {
						cfg.Patterns = []string{p, p} // twice per step: instances follow each other closely
						cfg.Steps = 20
					}
					rec, truth := generate(t, cfg)
					checkConsistent(t, cfg, rec, truth)
				})
			}
		}
	}
}

// Extreme settings: no latency jitter, no call overhead, low resolution
// (many equal times), infinite bandwidth, every event still consistent.
func TestTruthConsistentExtremes(t *testing.T) {
	for i, mod := range []func(*Config){
		func(c *Config) { c.Jitter, c.CallOverhead, c.SendOverhead, c.Compute = 0, 0, 0, 0 },
		func(c *Config) { c.Resolution = 1_000_000 }, // 1 µs ticks: latencies of 1 and 2 ticks
		func(c *Config) { c.Resolution = 1000; c.Compute = 10 * time.Millisecond },
		func(c *Config) { c.Bandwidth = 0 },
		func(c *Config) { c.LatencyIntra, c.LatencyInter = 3*time.Microsecond, time.Microsecond }, // intra slower
		func(c *Config) { c.LatencyIntra, c.LatencyInter = 0, 0 },
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Ranks, cfg.Steps, cfg.Seed = 13, 8, int64(i)
			mod(&cfg)
			rec, truth := generate(t, cfg)
			checkConsistent(t, cfg, rec, truth)
		})
	}
}

// The checker's two ways of computing collective bounds agree.
func TestCheckerBoundsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for it := range 2000 {
		n := 1 + rng.IntN(40)
		tr := &trace.Trace{Resolution: 1}
		rpn := 1 + rng.IntN(5)
		locs := make([]int, n)
		begin := make([]int64, n)
		send, recv := make([]bool, n), make([]bool, n)
		for i := range n {
			tr.Locations = append(tr.Locations, &trace.Location{Node: int32(i / rpn)})
			locs[i] = i
			begin[i] = rng.Int64N(50)
			send[i], recv[i] = rng.IntN(3) != 0, rng.IntN(3) != 0
		}
		rng.Shuffle(n, func(i, j int) { locs[i], locs[j] = locs[j], locs[i] })
		lm := latModel{intra: rng.Int64N(10), inter: rng.Int64N(10)}
		prefix := it%2 == 0
		a := bounds(tr, lm, locs, begin, send, recv, prefix, true)
		b := bounds(tr, lm, locs, begin, send, recv, prefix, false)
		require.Equal(t, a, b, "iteration %d (prefix %v): bounds pairwise and aggregated", it, prefix)
	}
}

// The checker is not vacuous: it finds a message received too early, a
// collective left too early and a receive without send.
func TestCheckerCatchesErrors(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.Steps, cfg.Patterns = 8, 2, []string{"ring", "allreduce", "scan"}
	_, truth := generate(t, cfg)
	m, err := match(truth)
	require.NoError(t, err)
	lm := latModelOf(cfg)
	p := m.p2p[3]
	ev := &truth.Locations[p.recv.loc].Events
	saved := ev.Time[p.recv.idx]
	ev.Time[p.recv.idx] = truth.Locations[p.send.loc].Events.Time[p.send.idx] + lm.lat(truth, p.send.loc, p.recv.loc) - 1
	v := countViolations(truth, m, lm, false)
	assert.Equal(t, 1, v.p2pLate, "moved receive: late messages (%+v)", v)
	ev.Time[p.recv.idx] = saved
	for _, inst := range m.colls {
		if inst.op != trace.OpScan {
			continue
		}
		last := inst.end[len(inst.end)-1]
		ev := &truth.Locations[last.loc].Events
		ev.Time[last.idx] = truth.Locations[inst.begin[0].loc].Events.Time[inst.begin[0].idx]
		v := countViolations(truth, m, lm, false)
		assert.NotZero(t, v.collLate, "scan end moved before rank 0's begin: late collectives")
		break
	}
	// A receive whose source is changed has no matching send.
	msg := truth.Locations[p.recv.loc].Events.Msg(p.recv.idx)
	msg.Tag += 1000
	_, err = match(truth)
	assert.Error(t, err, "receive with a changed tag")
}

// counts of one trace: events by kind, region enters by name, messages.
func counts(t *testing.T, tr *trace.Trace) *matching {
	t.Helper()
	m, err := match(tr)
	require.NoError(t, err)
	return m
}

func TestPatternCounts(t *testing.T) {
	const n, s = 16, 5 // 4 × 4 grid: four distinct neighbours
	run := func(t *testing.T, steps int, patterns ...string) (*matching, *trace.Trace) {
		cfg := DefaultConfig()
		cfg.Ranks, cfg.Steps, cfg.Patterns = n, steps, patterns
		rec, truth := generate(t, cfg)
		checkConsistent(t, cfg, rec, truth)
		return counts(t, truth), truth
	}
	total := func(tr *trace.Trace) int { return int(tr.NumEvents()) }
	const fixed = 6 * n // main, MPI_Init, MPI_Finalize

	t.Run("ring", func(t *testing.T) {
		m, tr := run(t, s, "ring")
		assert.Equal(t, fixed+8*n*s, total(tr), "events")
		assert.Len(t, m.p2p, n*s, "messages")
		assert.Equal(t, n*s, m.kinds[trace.KindSend], "sends")
		assert.Equal(t, n*s, m.kinds[trace.KindRecv], "receives")
		assert.Equal(t, n*s, m.regions["MPI_Send"], "MPI_Send")
	})
	t.Run("halo", func(t *testing.T) {
		m, tr := run(t, 30, "halo")
		msgs := 4 * n * 30
		assert.Len(t, m.p2p, msgs, "messages")
		for _, k := range []trace.Kind{trace.KindIsend, trace.KindIrecvRequest, trace.KindIrecv, trace.KindIsendComplete} {
			assert.Equal(t, msgs, m.kinds[k], "events of kind %s", k)
		}
		assert.Equal(t, msgs, m.regions["MPI_Irecv"], "MPI_Irecv")
		assert.Equal(t, msgs, m.regions["MPI_Isend"], "MPI_Isend")
		assert.Equal(t, n*30, m.regions["compute"], "compute")
		// Variants: a Waitall step has one MPI_Test and one MPI_Waitall per
		// rank, a Waitany step 8 MPI_Waitany per rank, a Waitsome step
		// between 1 and 8 MPI_Waitsome per rank.
		wa, wy, ws := m.regions["MPI_Waitall"], m.regions["MPI_Waitany"], m.regions["MPI_Waitsome"]
		assert.Equal(t, wa, m.regions["MPI_Test"], "MPI_Test against MPI_Waitall")
		assert.Zero(t, wa%n, "MPI_Waitall %d: a multiple of the ranks", wa)
		assert.Zero(t, wy%(8*n), "MPI_Waitany %d: a multiple of 8 per rank", wy)
		a, y := wa/n, wy/(8*n)
		c := 30 - a - y
		assert.True(t, a > 0 && y > 0 && c > 0, "variants: %d waitall, %d waitany, %d waitsome steps: want each", a, y, c)
		assert.True(t, n*c <= ws && ws <= 8*n*c, "%d waitsome steps with %d MPI_Waitsome: want 1 to 8 per rank and step", c, ws)
		// compute and posting; enter and leave of every MPI_Test, Waitall,
		// Waitany, Waitsome; failed tests; one completion per request
		want := fixed + 30*n*(2+6*4) + 2*(2*wa+wy+ws) + m.kinds[trace.KindRequestTest] + msgs*2
		assert.Equal(t, want, total(tr), "events")
		failed := m.kinds[trace.KindRequestTest]
		assert.True(t, failed != 0 && failed != wa, "MPI_Test always the same: %d failed tests of %d", failed, wa)
		checkCompletionOrders(t, tr)
	})
	t.Run("pairs", func(t *testing.T) {
		m, tr := run(t, s, "pairs")
		pairs := s * (n / 2)
		x := len(m.p2p) - pairs // exchanges (2 messages) beyond one message per pair
		assert.True(t, 0 < x && x < pairs, "messages %d for %d pairs: want both kinds of pair", len(m.p2p), pairs)
		assert.Equal(t, fixed+2*n*s+6*pairs+2*x, total(tr), "events")
		assert.Equal(t, 2*x, m.regions["MPI_Sendrecv"], "MPI_Sendrecv")
	})
	t.Run("master", func(t *testing.T) {
		m, tr := run(t, s, "master")
		assert.Equal(t, fixed+s*(2*n+12*(n-1)), total(tr), "events")
		assert.Len(t, m.p2p, 2*(n-1)*s, "messages")
		// ANY_SOURCE: the master receives in arrival order, not rank order.
		var sources []uint32
		ev := &tr.Locations[0].Events
		for i, k := range ev.Kind {
			if k == trace.KindRecv {
				sources = append(sources, ev.Msg(i).Peer)
			}
		}
		assert.False(t, slices.IsSorted(sources[:n-1]) && slices.IsSorted(sources[n-1:2*(n-1)]),
			"master received in rank order in the first two steps: %v", sources)
	})
	for _, op := range collPatternOps {
		t.Run(op.String(), func(t *testing.T) {
			m, tr := run(t, s, op.String())
			assert.Equal(t, fixed+6*n*s, total(tr), "events")
			assert.Empty(t, m.p2p, "messages")
			assert.Len(t, m.colls, s, "collectives")
			for _, c := range m.colls {
				assert.Equal(t, op, c.op, "an instance's operation")
				assert.Equal(t, rooted(op), c.root != trace.NoRoot, "instance %s root %d: rooted", c.op, c.root)
			}
		})
	}
	t.Run("coll", func(t *testing.T) {
		k := len(collPatternOps)
		m, tr := run(t, 3*k, "coll")
		assert.Equal(t, fixed+6*n*3*k, total(tr), "events")
		ops := map[trace.CollOp]int{}
		for _, c := range m.colls {
			ops[c.op]++
		}
		for _, op := range collPatternOps {
			assert.Equal(t, 3, ops[op], "%s: instances", op)
		}
		checkZeroByteMembers(t, tr, m)
	})
	t.Run("subcoll", func(t *testing.T) {
		k := len(collPatternOps)
		m, tr := run(t, 2*k, "subcoll")
		assert.Equal(t, 2*fixed+6*n*2*k, total(tr), "events")
		assert.Equal(t, 2*n, m.kinds[trace.KindCommCreate], "comm-create events")
		assert.Equal(t, 2*n, m.regions["MPI_Comm_split"], "MPI_Comm_split")
		// 4 rows and 4 columns; each op once on the rows and once on the
		// columns of the 4 × 4 grid.
		require.Len(t, tr.Comms, 9, "communicators")
		seen := map[string]int{}
		for _, c := range m.colls {
			assert.NotZero(t, c.comm, "an instance's communicator")
			assert.Len(t, c.locs, 4, "members of an instance on comm %d", c.comm)
			fam := "row"
			if c.comm > 4 {
				fam = "column"
			}
			seen[fam+" "+c.op.String()]++
		}
		for _, op := range collPatternOps {
			assert.Equal(t, 4, seen["row "+op.String()], "%s: row instances", op)
			assert.Equal(t, 4, seen["column "+op.String()], "%s: column instances", op)
		}
		// Column communicators list their members in descending world rank.
		assert.Equal(t, []int32{12, 8, 4, 0}, tr.Comms[5].Members, "column 0 members")
	})
}

// checkCompletionOrders: some rank completes its receives in an order other
// than it posted them, and some completion happens inside MPI_Test.
func checkCompletionOrders(t *testing.T, tr *trace.Trace) {
	t.Helper()
	reordered, inTest := 0, 0
	for _, l := range tr.Locations {
		ev := &l.Events
		var posted, completed []uint64
		region := ""
		for i, k := range ev.Kind {
			switch k {
			case trace.KindEnter:
				region = tr.Regions[ev.Ref[i]].Name
			case trace.KindIrecvRequest:
				posted = append(posted, ev.Req(i))
			case trace.KindIrecv:
				completed = append(completed, ev.Msg(i).Request)
				if region == "MPI_Test" {
					inTest++
				}
			}
		}
		for i := range completed {
			if completed[i] != posted[i] {
				reordered++
				break
			}
		}
	}
	assert.Positive(t, reordered, "ranks that complete out of posting order")
	assert.Positive(t, inTest, "completions inside MPI_Test")
}

// checkZeroByteMembers: every v-variant has instances where some member
// sends or receives zero bytes while others do not.
func checkZeroByteMembers(t *testing.T, tr *trace.Trace, m *matching) {
	t.Helper()
	found := map[trace.CollOp]bool{}
	for _, c := range m.colls {
		var zero, nonzero bool
		for i, loc := range c.locs {
			if i == int(c.root) {
				continue
			}
			ce := tr.Locations[loc].Events.Coll(c.end[i].idx)
			if ce.Sent == 0 && ce.Received == 0 {
				zero = true
			} else {
				nonzero = true
			}
			if (c.op == trace.OpReduceScatter || c.op == trace.OpAllgatherv) && (ce.Sent == 0) != (ce.Received == 0) {
				zero, nonzero = true, true
			}
		}
		if zero && nonzero {
			found[c.op] = true
		}
	}
	for _, op := range []trace.CollOp{trace.OpScatterv, trace.OpGatherv, trace.OpAllgatherv, trace.OpAlltoallv, trace.OpAlltoallw, trace.OpReduceScatter} {
		assert.True(t, found[op], "%s: an instance with zero-byte members", op)
	}
}

func TestEventsTarget(t *testing.T) {
	for _, want := range []int64{50_000, 500_000} {
		for _, ranks := range []int{4, 64} {
			cfg := DefaultConfig()
			cfg.Ranks, cfg.Events = ranks, want
			rec, _ := generate(t, cfg)
			got := rec.NumEvents()
			t.Logf("ranks %d, events %d: got %d", ranks, want, got)
			assert.InEpsilon(t, want, got, 0.15, "ranks %d: events against the target", ranks)
		}
	}
}

// presync applies a location's offset measurements by linear interpolation
// (extrapolated outside), independently of presync/.
func presync(tr *trace.Trace) *trace.Trace {
	out := &trace.Trace{Resolution: tr.Resolution, Nodes: tr.Nodes, Regions: tr.Regions, Comms: tr.Comms}
	for _, l := range tr.Locations {
		nl := *l
		nl.Offsets = nil
		nl.Events.Time = slices.Clone(l.Events.Time)
		if len(l.Offsets) >= 2 {
			a, b := l.Offsets[0], l.Offsets[len(l.Offsets)-1]
			slope := float64(b.Offset-a.Offset) / float64(b.Time-a.Time)
			for i, tm := range nl.Events.Time {
				nl.Events.Time[i] = tm + a.Offset + int64(float64(tm-a.Time)*slope)
			}
		}
		out.Locations = append(out.Locations, &nl)
	}
	return out
}

func TestClockViolations(t *testing.T) {
	base := DefaultConfig()
	base.Ranks, base.Steps = 16, 40
	lm := latModelOf(base)

	// Default clock error: many violations in the recorded times.
	rec, truth := generate(t, base)
	m := checkConsistent(t, base, rec, truth)
	v := countViolations(rec, m, lm, false)
	t.Logf("default clock error: %d of %d messages reversed, %d late; %d collective, %d init/finalize violations",
		v.p2pReversed, len(m.p2p), v.p2pLate, v.collLate, v.initLate)
	assert.NotZero(t, v.p2pReversed, "default clock error: reversed messages")
	assert.NotZero(t, v.collLate, "default clock error: late collectives")

	// No clock error: the recorded times are the true times.
	perfect := base
	perfect.PerfectClocks()
	rec0, truth0 := generate(t, perfect)
	v0 := countViolations(rec0, m, lm, true)
	assert.Zero(t, v0.total(), "perfect clocks: violations (%+v)", v0)
	assert.Zero(t, v0.p2pReversed, "perfect clocks: reversed messages")
	for li := range rec0.Locations {
		require.True(t, slices.Equal(rec0.Locations[li].Events.Time, truth0.Locations[li].Events.Time),
			"perfect clocks: location %d recorded times differ from truth", li)
	}
	// The truth does not depend on the clock error.
	assert.True(t, reflect.DeepEqual(truth.Locations, truth0.Locations), "truth changes with the clock error")

	// Linear offset interpolation removes offset and drift but not the
	// wander: with a wander period near the run's length, violations stay.
	wavy := base
	wavy.WanderPeriod, wavy.ClockWander, wavy.OffsetNoise = 40*time.Millisecond, 5*time.Microsecond, 0
	recW, truthW := generate(t, wavy)
	mw := checkConsistent(t, wavy, recW, truthW)
	vw := countViolations(presync(recW), mw, lm, false)
	t.Logf("after linear pre-synchronisation with wander: %+v", vw)
	assert.NotZero(t, vw.total(), "wander: violations after linear pre-synchronisation")
	// Without wander and offset noise, linear interpolation is exact up to
	// rounding: no violation, and every time within 2 ticks of the truth.
	linear := base
	linear.ClockWander, linear.OffsetNoise = 0, 0
	recL, truthL := generate(t, linear)
	ps := presync(recL)
	vl := countViolations(ps, m, latModel{}, false)
	assert.Zero(t, vl.total(), "no wander: violations after pre-synchronisation: %+v", vl)
	worst := int64(0)
	for li := range ps.Locations {
		for i, tm := range ps.Locations[li].Events.Time {
			worst = max(worst, abs(tm-truthL.Locations[li].Events.Time[i]))
		}
	}
	assert.LessOrEqual(t, worst, int64(2), "no wander: ticks between linear pre-synchronisation and the truth")
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Offsets follow docs/format.md: at local time Time the reference read
// Time + Offset. Check against the truth at the event after the
// measurement (the leave of MPI_Init / MPI_Finalize): the error is at most
// half the round-trip time.
func TestOffsets(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.Steps = 12, 5
	rec, truth := generate(t, cfg)
	m := counts(t, truth)
	for li, l := range rec.Locations {
		require.Len(t, l.Offsets, 2, "location %d: offsets", li)
		for k, leave := range []int{m.initLeave[li], m.finLeave[li]} {
			o := l.Offsets[k]
			local := l.Events.Time[leave]
			trueOff := truth.Locations[li].Events.Time[leave] - local
			enter := []int{m.initEnter[li], m.finEnter[li]}[k]
			assert.True(t, l.Events.Time[enter] <= o.Time && o.Time <= local,
				"location %d offset %d: time %d outside the MPI call [%d, %d]", li, k, o.Time, l.Events.Time[enter], local)
			// drift and wander between the measurement and the leave: < 1e-4 of the distance
			tol := o.RTT/2 + 2 + (local-o.Time)/10_000
			if li == 0 {
				assert.Zero(t, o.Offset, "rank 0 offset %d", k)
				assert.Zero(t, o.RTT, "rank 0 offset %d: RTT", k)
			} else {
				assert.InDelta(t, trueOff, o.Offset, float64(tol), "location %d offset %d: measured against true (RTT %d)", li, k, o.RTT)
				assert.Positive(t, o.RTT, "location %d offset %d: RTT", li, k)
			}
		}
		// Ranks on node 0 share the reference clock.
		if l.Node == 0 {
			assert.True(t, slices.Equal(l.Events.Time, truth.Locations[li].Events.Time), "location %d on node 0 has clock error", li)
		}
	}
	// Ranks on one node share a clock: same true time, same reading. Check
	// through the offset between truth and recording at MPI_Init's leave,
	// which differs only by the clock's change over the spread of leaves.
	for li := 1; li < len(rec.Locations); li++ {
		if rec.Locations[li].Node != rec.Locations[li-1].Node {
			continue
		}
		d := func(l int) int64 {
			return truth.Locations[l].Events.Time[m.initLeave[l]] - rec.Locations[l].Events.Time[m.initLeave[l]]
		}
		assert.InDelta(t, d(li-1), d(li), 1, "locations %d and %d on one node: clock errors", li-1, li)
	}
}

func TestDeterministic(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.Steps = 24, 10
	a1, b1 := generate(t, cfg)
	a2, b2 := generate(t, cfg)
	require.True(t, reflect.DeepEqual(a1, a2), "same seed, different recorded traces")
	require.True(t, reflect.DeepEqual(b1, b2), "same seed, different truths")
	// Flushing in small pieces (double-buffered, in parallel) changes nothing.
	small := cfg
	small.FlushEvents = 97
	a3, b3 := generate(t, small)
	delete(a3.Properties, "clc-sim.config")
	delete(b3.Properties, "clc-sim.config")
	delete(a1.Properties, "clc-sim.config")
	delete(b1.Properties, "clc-sim.config")
	require.True(t, reflect.DeepEqual(a1, a3), "flush size changes the recorded trace")
	require.True(t, reflect.DeepEqual(b1, b3), "flush size changes the truth")
	other := cfg
	other.Seed++
	a4, _ := generate(t, other)
	require.False(t, reflect.DeepEqual(a1.Locations, a4.Locations), "different seeds, same traces")
}

func TestConfigErrors(t *testing.T) {
	for name, mod := range map[string]func(*Config){
		"ranks":         func(c *Config) { c.Ranks = 0 },
		"rpn":           func(c *Config) { c.RanksPerNode = 0 },
		"no length":     func(c *Config) { c.Steps, c.Events = 0, 0 },
		"no patterns":   func(c *Config) { c.Patterns = nil },
		"bad pattern":   func(c *Config) { c.Patterns = []string{"ring", "nope"} },
		"resolution":    func(c *Config) { c.Resolution = 0 },
		"latency":       func(c *Config) { c.LatencyInter = -1 },
		"bandwidth":     func(c *Config) { c.Bandwidth = -1 },
		"drift":         func(c *Config) { c.ClockDrift = -1 },
		"steep wander":  func(c *Config) { c.ClockWander, c.WanderPeriod = time.Millisecond, time.Millisecond },
		"wander period": func(c *Config) { c.WanderPeriod = 0 },
		"rounds":        func(c *Config) { c.OffsetRounds = 0 },
	} {
		cfg := DefaultConfig()
		mod(&cfg)
		_, _, err := Generate(cfg)
		assert.Error(t, err, name)
	}
	_, err := ParsePatterns("ring, halo,,scan")
	assert.NoError(t, err)
	_, err = ParsePatterns("ring,bogus")
	assert.Error(t, err, "ParsePatterns(\"ring,bogus\")")
	// Sinks with the wrong definitions.
	cfg := DefaultConfig()
	defs, err := Definitions(cfg)
	require.NoError(t, err)
	other := cfg
	other.Ranks++
	bad, err := Definitions(other)
	require.NoError(t, err)
	assert.Error(t, Run(cfg, &memSink{defs}, &memSink{bad}), "Run with a sink with the wrong number of locations")
}

// failSink fails after n appends (from any number of goroutines).
type failSink struct {
	memSink
	n atomic.Int64
}

func (f *failSink) Append(loc int, ev *trace.Events) error {
	if f.n.Add(-1) < 0 {
		return fmt.Errorf("disk full")
	}
	return f.memSink.Append(loc, ev)
}

func TestSinkError(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Ranks, cfg.Steps, cfg.FlushEvents = 8, 20, 50
	rd, _ := Definitions(cfg)
	td, _ := TruthDefinitions(cfg)
	fs := &failSink{memSink: memSink{td}}
	fs.n.Store(30)
	err := Run(cfg, &memSink{rd}, fs)
	require.Error(t, err, "a failing sink")
	t.Log(err)
}

// The scale test: 65,536 ranks, about a million events, checked.
func TestScale65536(t *testing.T) {
	testenv.NeedFull(t)
	cfg := DefaultConfig()
	cfg.Ranks, cfg.RanksPerNode, cfg.Events = 65536, 16, 1_000_000
	cfg.Patterns = []string{"allreduce", "pairs"}
	rec, truth := generate(t, cfg)
	t.Logf("%d ranks, %d events", len(rec.Locations), rec.NumEvents())
	assert.InDelta(t, 1_000_000, rec.NumEvents(), 300_000, "events: about a million")
	m := checkConsistent(t, cfg, rec, truth)
	v := countViolations(rec, m, latModelOf(cfg), false)
	assert.NotZero(t, v.total(), "violations in the recorded trace")
}
