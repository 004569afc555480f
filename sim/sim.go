// Package sim is clc's ground truth: a discrete-event simulator of MPI
// programs that records what a tracer would, twice — once with per-node
// clock error (offset, drift and non-linear wander, plus noisy offset
// measurements at MPI_Init and MPI_Finalize), once with the true times.
//
// The simulation runs in true time, in integer ticks of the timer
// resolution, with a latency model (minimum latency within and between
// nodes, bandwidth, exponential jitter, send overhead) and compute phases of
// random length. Sends are eager (they never wait for the receiver), so any
// mix of patterns runs without deadlock. Every receive completes no earlier
// than its send plus the latency plus the transfer time, and every
// collective obeys the happened-before relations of the table of logical
// messages in docs/algorithm.md plus latency; the tests check this with an
// independent checker.
//
// Memory is O(ranks) plus the buffered events: Run simulates step by step
// and hands the events to trace.Sinks whenever Config.FlushEvents are
// buffered, converting true times to clock readings on the way, in parallel
// with the simulation of the next steps. See docs/sim.md.
package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/clc-tools/clc/internal/par"
	"github.com/clc-tools/clc/trace"
)

// DefaultFlushEvents is the default of Config.FlushEvents (raised to 64
// events per rank for very many ranks).
const DefaultFlushEvents = 1 << 22

// none is the "no dependency" time.
const none = math.MinInt64

// Tags of the point-to-point patterns.
const (
	tagWork   = 0  // master → worker
	tagResult = 1  // worker → master: 1, 2 or 3
	tagRing   = 10 // ring
	tagPairs  = 20 // random pairs: 20 … 27
	tagHalo   = 100
)

// Generate simulates cfg in memory and returns the recorded trace (clock
// error applied, offset measurements in Location.Offsets) and the truth (the
// same events in the same order, with the true times).
func Generate(cfg Config) (recorded, truth *trace.Trace, err error) {
	recDefs, err := Definitions(cfg)
	if err != nil {
		return nil, nil, err
	}
	truthDefs, err := TruthDefinitions(cfg)
	if err != nil {
		return nil, nil, err
	}
	rec, tru := &memSink{defs: recDefs}, &memSink{defs: truthDefs}
	if err := Run(cfg, rec, tru); err != nil {
		return nil, nil, err
	}
	return recDefs, truthDefs, nil
}

// Run simulates cfg and streams the recorded trace into rec and the truth
// into truth, location by location in pieces, from up to GOMAXPROCS
// goroutines at once (never two for the same location). If a sink is a
// trace.RangedSink (a native writer with bundles), each of its ranges is
// appended by one goroutine at a time, in location order, so the sink's
// bytes do not depend on the scheduling. The sinks' Defs
// must have cfg.Ranks locations and cfg.Resolution (create them with
// Definitions and TruthDefinitions). Before it returns, Run sets the offset
// measurements of rec.Defs()'s locations. It does not close the sinks.
func Run(cfg Config, rec, truth trace.Sink) error {
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	for _, s := range []struct {
		name string
		sink trace.Sink
	}{{"recorded", rec}, {"truth", truth}} {
		if s.sink == nil {
			return fmt.Errorf("sim: %s sink is nil", s.name)
		}
		d := s.sink.Defs()
		if d == nil || len(d.Locations) != cfg.Locations() || d.Resolution != cfg.Resolution {
			return fmt.Errorf("sim: %s sink's definitions do not match the configuration (want %d locations at %d ticks/s)", s.name, cfg.Locations(), cfg.Resolution)
		}
	}
	e := newEngine(cfg)
	fl, err := newFlusher(e, rec, truth)
	if err != nil {
		return err
	}
	e.fl = fl
	err = e.run()
	if werr := e.fl.wait(); err == nil {
		err = werr
	}
	if err != nil {
		return err
	}
	defs := rec.Defs()
	for loc, l := range defs.Locations {
		r := e.rankOf(loc) // a rank's threads have its measurements, as in Score-P
		l.Offsets = e.recordedOffsets(l.Offsets[:0], r)
	}
	return nil
}

// engine is the state of one simulation: O(ranks) plus buffered events.
type engine struct {
	cfg  Config
	n    int
	rpn  int
	rng  *rand.Rand // the program: times, sizes, choices
	crng *rand.Rand // the clocks and their offset measurements
	clk  *clocks

	latIntra, latInter   int64
	jitter, sendOv, call int64
	compute, turn        int64
	tpb                  float64 // ticks per byte
	noise                float64 // offset-measurement noise, ticks

	grid    grid
	comms   []trace.Comm
	sub     bool
	collSeq int
	subSeq  int

	now     []int64
	bufs    [2][]trace.Events
	cur     []trace.Events // bufs[curSet]
	curSet  int
	pending int   // events buffered in cur
	flushed int64 // events handed to the flusher
	flushAt int
	nextReq []uint64
	offsets []trace.ClockOffset // 2 per rank: at MPI_Init, at MPI_Finalize

	tr  maxTracker
	net network
	// scratch
	arr     []int64
	u32     []uint32
	u64     []uint64
	perm    []int32
	arr4    []int64
	stime4  []int64
	sreq4   []uint64
	rreq4   []uint64
	cb, cd  []int64
	cs, cr  []uint64
	pendReq []haloReq

	fl *flusher
	hy *hybridSim // nil unless cfg.Threads > 1 (threads.go)
}

func newEngine(cfg Config) *engine {
	n := cfg.Ranks
	res := cfg.Resolution
	nodes := (n + cfg.RanksPerNode - 1) / cfg.RanksPerNode
	e := &engine{
		cfg:      cfg,
		n:        n,
		rpn:      cfg.RanksPerNode,
		rng:      rand.New(rand.NewPCG(uint64(cfg.Seed), 0x9e3779b97f4a7c15)),
		crng:     rand.New(rand.NewPCG(uint64(cfg.Seed), 0xc1c0c1c0deadbeef)),
		latIntra: ticksCeil(cfg.LatencyIntra, res),
		latInter: ticksCeil(cfg.LatencyInter, res),
		jitter:   ticks(cfg.Jitter, res),
		sendOv:   ticks(cfg.SendOverhead, res),
		call:     ticks(cfg.CallOverhead, res),
		compute:  ticks(cfg.Compute, res),
		noise:    cfg.OffsetNoise.Seconds() * float64(res),
		grid:     newGrid(n),
		sub:      usesSubComms(cfg.Patterns),
		now:      make([]int64, cfg.Locations()),
		nextReq:  make([]uint64, n),
		offsets:  make([]trace.ClockOffset, 2*n),
		arr:      make([]int64, n),
		u32:      make([]uint32, n),
		u64:      make([]uint64, n),
		perm:     make([]int32, n),
		cb:       make([]int64, n),
		cd:       make([]int64, n),
		cs:       make([]uint64, n),
		cr:       make([]uint64, n),
	}
	e.turn = 2 * e.call
	if cfg.Bandwidth > 0 {
		e.tpb = float64(res) / cfg.Bandwidth
	}
	e.comms = buildComms(n, e.grid, e.sub)
	// The run starts one second after the epoch, later if the clock error
	// could otherwise make a reading negative.
	t0 := int64(res)
	if extra := cfg.ClockOffset + cfg.ClockWander; extra >= 500*time.Millisecond {
		t0 = ticks(2*extra, res)
	}
	e.clk = newClocks(&cfg, nodes, t0, e.crng)
	for r := range e.now {
		e.now[r] = t0
	}
	for r := range e.nextReq {
		e.nextReq[r] = 1
	}
	e.flushAt = cfg.FlushEvents
	if e.flushAt == 0 {
		e.flushAt = max(DefaultFlushEvents, 64*n)
	}
	// Preallocate the event columns of both buffer sets for an even share
	// of a flush: growing them by doubling would copy most events twice.
	per := min(e.flushAt/len(e.now)+64, 1<<20)
	for k := range e.bufs {
		e.bufs[k] = make([]trace.Events, len(e.now))
		for r := range e.bufs[k] {
			e.bufs[k][r].Grow(per)
		}
	}
	e.cur = e.bufs[0]
	e.net = newNetwork(&cfg, nodes)
	e.tr.init(nodes, e.net.sendX, e.net.recvX)
	e.hy = newHybridSim(&cfg, len(e.comms))
	return e
}

func (e *engine) run() error {
	e.initPhase()
	if e.sub {
		e.commSplit(1)
		e.commSplit(1 + e.grid.py)
	}
	// With Steps 0, run steps while the events so far, plus MPI_Finalize's
	// 3 per rank, plus half a step stay within cfg.Events: the total ends
	// within half a step of the target.
	finalize := 3 * int64(e.n)
	for step := 0; ; step++ {
		if e.cfg.Steps > 0 && step == e.cfg.Steps {
			break
		}
		before := e.emitted()
		for _, p := range e.cfg.Patterns {
			e.runPattern(p)
			if e.pending >= e.flushAt {
				if err := e.flush(); err != nil {
					return err
				}
			}
		}
		if e.cfg.Steps == 0 && e.emitted()+finalize+(e.emitted()-before)/2 > e.cfg.Events {
			break
		}
	}
	e.finalizePhase()
	return e.flush()
}

// emitted is the number of events simulated so far.
func (e *engine) emitted() int64 { return e.flushed + int64(e.pending) }

// flush hands the buffered events to the flusher (waiting for the previous
// flush to finish) and continues with the other buffer set.
func (e *engine) flush() error {
	if err := e.fl.wait(); err != nil {
		return err
	}
	e.fl.start(e.cur)
	e.curSet ^= 1
	e.cur = e.bufs[e.curSet]
	e.flushed += int64(e.pending)
	e.pending = 0
	return nil
}

func (e *engine) runPattern(p string) {
	switch p {
	case "ring":
		e.ring()
	case "halo":
		e.halo()
	case "pairs":
		e.pairs()
	case "master":
		e.master()
	case "silence":
		e.silence()
	case "coll":
		op := collPatternOps[e.collSeq%len(collPatternOps)]
		e.collSeq++
		e.computeAll()
		e.collective(0, op)
	case "subcoll":
		op := collPatternOps[e.subSeq%len(collPatternOps)]
		base, count := 1, e.grid.py // rows
		if e.subSeq%2 == 1 {
			base, count = 1+e.grid.py, e.grid.px // columns
		}
		e.subSeq++
		e.computeAll()
		for c := base; c < base+count; c++ {
			e.collective(c, op)
		}
	default:
		op, _ := lookupOp(p)
		e.computeAll()
		e.collective(0, op)
	}
}

// ---- time and event helpers ----

// node returns the node of location r (a rank, or one of its threads).
func (e *engine) node(r int) int32 { return int32(e.rankOf(r) / e.rpn) }

// gap is the time between two consecutive events of a rank inside a call.
func (e *engine) gap() int64 {
	if e.call == 0 {
		return 0
	}
	return e.call/2 + e.rng.Int64N(e.call+1)
}

func (e *engine) expJitter() int64 {
	if e.jitter == 0 {
		return 0
	}
	return int64(e.rng.ExpFloat64() * float64(e.jitter))
}

func (e *engine) xfer(bytes uint64) int64 { return int64(float64(bytes) * e.tpb) }

// at advances rank r to its next event, no earlier than dep, and counts it.
func (e *engine) at(r int, dep int64) int64 {
	t := e.now[r] + e.gap()
	if dep > t {
		t = dep
	}
	e.now[r] = t
	e.pending++
	return t
}

func (e *engine) enter(r int, reg uint32) {
	e.cur[r].AppendRegion(trace.KindEnter, e.at(r, none), reg)
}

func (e *engine) leave(r int, reg uint32) {
	e.cur[r].AppendRegion(trace.KindLeave, e.at(r, none), reg)
}

func (e *engine) newReq(r int) uint64 {
	q := e.nextReq[r]
	e.nextReq[r]++
	return q
}

func (e *engine) msgSize() uint64 { return uint64(8 << e.rng.IntN(13)) } // 8 B … 32 KiB

func (e *engine) computePhase(r int) {
	if e.hy != nil {
		e.parallelRegion(r) // hybrid: the threads compute (threads.go)
		return
	}
	e.enter(r, regCompute)
	e.now[r] += e.computeTime()
	e.leave(r, regCompute)
}

// computeTime draws the duration of a compute phase: uniform in
// [0.5, 1.5]·Compute, one in a hundred five times longer.
func (e *engine) computeTime() int64 {
	d := e.compute
	if d > 0 {
		d = d/2 + e.rng.Int64N(d+1)
		if e.rng.IntN(100) == 0 {
			d *= 5 // an outlier (OS noise, imbalance)
		}
	}
	return d
}

func (e *engine) computeAll() {
	for r := range e.n {
		e.computePhase(r)
	}
}

func (e *engine) send(r int, kind trace.Kind, m trace.Message) int64 {
	t := e.at(r, none)
	e.cur[r].AppendMsg(kind, t, m)
	return t
}

// ---- buffers → sinks ----

// flusher converts buffered true times to clock readings and appends both
// versions to the sinks, in parallel over ranges of locations, in the
// background. Each range is appended by one goroutine, location after
// location, and the ranges are the sinks' (trace.RangedSink: the native
// writers' bundles) if they have any, so that what the sinks write does
// not depend on the scheduling.
type flusher struct {
	e           *engine
	rec, truth  trace.Sink
	workers     int
	bounds      []int // range i is the locations [bounds[i], bounds[i+1])
	wg          sync.WaitGroup
	err         error
	perRankKeep int
}

func newFlusher(e *engine, rec, truth trace.Sink) (*flusher, error) {
	workers := par.Workers(0)
	n := len(e.now)
	bounds, err := flushBounds(n, min(max(n/(16*workers), 1), 64), rec, truth)
	if err != nil {
		return nil, err
	}
	return &flusher{
		e: e, rec: rec, truth: truth,
		workers:     workers,
		bounds:      bounds,
		perRankKeep: max(4096, 4*e.flushAt/e.n),
	}, nil
}

// flushBounds returns the bounds of the ranges of the n locations that the
// flusher appends whole: the ranges of the RangedSinks among sinks, merged
// where they differ (a bound of every one of them bounds a range), or,
// without RangedSinks, batches of consecutive locations.
func flushBounds(n, batch int, sinks ...trace.Sink) ([]int, error) {
	cuts := make([]int, n+1) // how many sinks' ranges end before location i
	ranged := 0
	for _, s := range sinks {
		b := trace.SinkRanges(s)
		if b == nil {
			continue
		}
		if err := trace.CheckRanges(b, n); err != nil {
			return nil, fmt.Errorf("sim: sink ranges: %w", err)
		}
		ranged++
		for _, i := range b {
			cuts[i]++
		}
	}
	bounds := []int{0}
	for i := 1; i <= n; i++ {
		if i == n || ranged > 0 && cuts[i] == ranged || ranged == 0 && i%batch == 0 {
			bounds = append(bounds, i)
		}
	}
	return bounds, nil
}

func (f *flusher) wait() error {
	f.wg.Wait()
	return f.err
}

func (f *flusher) start(bufs []trace.Events) {
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		f.err = f.flush(bufs)
	}()
}

// flush appends the buffered events to the sinks, the ranges from
// f.workers goroutines, and empties the buffers.
func (f *flusher) flush(bufs []trace.Events) error {
	return par.DoEachWith(context.Background(), len(f.bounds)-1, f.workers, func() *[]int64 { return new([]int64) }, func(times *[]int64, k int) error {
		return f.appendRange(bufs, f.bounds[k], f.bounds[k+1], times)
	})
}

// appendRange appends the buffered events of locations [lo, hi) to the
// sinks, one location after the other, and empties their buffers; times
// is scratch space.
func (f *flusher) appendRange(bufs []trace.Events, lo, hi int, times *[]int64) error {
	for r := lo; r < hi; r++ {
		ev := &bufs[r]
		if ev.Len() == 0 {
			continue
		}
		*times = f.e.clk.localTimes((*times)[:0], f.e.node(r), ev.Time)
		view := *ev
		view.Time = *times
		if err := f.rec.Append(r, &view); err != nil {
			return fmt.Errorf("sim: writing location %d of the recorded trace: %w", r, err)
		}
		if err := f.truth.Append(r, ev); err != nil {
			return fmt.Errorf("sim: writing location %d of the truth: %w", r, err)
		}
		if cap(ev.Kind) > f.perRankKeep {
			*ev = trace.Events{}
		} else {
			ev.Reset()
		}
	}
	return nil
}

// ---- max tracker: the latest logical send per receiver, O(1) per query ----

// maxTracker keeps, over the times added, the maximum per node and the two
// largest per-node maxima of distinct nodes, so that the latest arrival at
// a receiver on node n, max over added j of (t_j + lat(j, n)), is O(1).
// With asymmetric latencies (sx, rx: per-node send and receive delays of
// inter-node messages, nil when off) the inter-node maxima are taken over
// t_j + sx[node j], and dep adds rx[n].
type maxTracker struct {
	nodeMax    []int64
	stamp      []uint32
	epoch      uint32
	top1, top2 int64
	top1Node   int32
	sx, rx     []int64
}

func (m *maxTracker) init(nodes int, sx, rx []int64) {
	m.nodeMax = make([]int64, nodes)
	m.stamp = make([]uint32, nodes)
	m.sx, m.rx = sx, rx
}

func (m *maxTracker) reset() {
	m.epoch++
	if m.epoch == 0 {
		clear(m.stamp)
		m.epoch = 1
	}
	m.top1, m.top2, m.top1Node = none, none, -1
}

func (m *maxTracker) add(node int32, t int64) {
	if m.stamp[node] != m.epoch {
		m.stamp[node] = m.epoch
		m.nodeMax[node] = t
	} else if t > m.nodeMax[node] {
		m.nodeMax[node] = t
	}
	if m.sx != nil {
		t += m.sx[node]
	}
	switch {
	case node == m.top1Node:
		m.top1 = max(m.top1, t)
	case t > m.top1:
		m.top2, m.top1, m.top1Node = m.top1, t, node
	case t > m.top2:
		m.top2 = t
	}
}

// dep returns the latest arrival at a receiver on node, or none.
func (m *maxTracker) dep(node int32, intra, inter int64) int64 {
	d := int64(none)
	if m.stamp[node] == m.epoch {
		d = m.nodeMax[node] + intra
	}
	other := m.top1
	if m.top1Node == node {
		other = m.top2
	}
	if other != none {
		if m.rx != nil {
			other += m.rx[node]
		}
		d = max(d, other+inter)
	}
	return d
}
