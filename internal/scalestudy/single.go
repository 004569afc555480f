package scalestudy

import (
	"context"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/clc-tools/clc/clockmodel"
	"github.com/clc-tools/clc/repair"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
)

// Stage is one stage of a correction on one node: its wall time, the CPU
// time of the process while it ran (user and system; less disturbed than
// the wall time when other jobs share the machine) and the most heap its
// objects took (sampled every HeapSample).
type Stage struct {
	Name    string
	Seconds float64
	CPU     float64
	Heap    uint64
}

// CPUSeconds returns the process's user and system CPU time so far.
func CPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// HeapSample is how often Single samples the heap.
const HeapSample = 10 * time.Millisecond

// SingleNode is what a correction of the whole trace in one process did
// and cost.
type SingleNode struct {
	// Stages are reading (or simulating) and matching (from Loaded), then
	// repair.Correct's pre-synchronisation, clock model and CLC.
	Stages []Stage
	// Report is repair.Correct's.
	Report *repair.Report
	// DefsBytes is the heap that a copy of the definitions without events
	// takes (what every process of a distributed correction would hold).
	DefsBytes uint64
	// GraphBytes is what the happened-before relation's dependencies,
	// instances and members take.
	GraphBytes int64
	// Domain is each location's clock domain, Domains their number (the
	// clock model's).
	Domain  []int32
	Domains int
}

// heapSampler records the largest heap of live and unswept objects per
// stage.
type heapSampler struct {
	mu     sync.Mutex
	peaks  map[string]uint64
	cpu    map[string]float64
	cpu0   float64
	stage  string
	stop   chan struct{}
	done   chan struct{}
	sample []metrics.Sample
}

func newHeapSampler() *heapSampler {
	h := &heapSampler{peaks: map[string]uint64{}, cpu: map[string]float64{}, stop: make(chan struct{}), done: make(chan struct{}),
		sample: []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}}
	go func() {
		defer close(h.done)
		tick := time.NewTicker(HeapSample)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
				h.read()
			}
		}
	}()
	return h
}

func (h *heapSampler) read() {
	h.mu.Lock()
	defer h.mu.Unlock()
	metrics.Read(h.sample)
	if v := h.sample[0].Value; v.Kind() == metrics.KindUint64 && h.stage != "" {
		h.peaks[h.stage] = max(h.peaks[h.stage], v.Uint64())
	}
}

// enter starts stage, one of repair.Correct's (the CLC's own steps, the
// forward pass and the backward amortization, stay in StageCorrect).
func (h *heapSampler) enter(stage string) {
	switch stage {
	case StagePresync, StageModel, StageCorrect:
	default:
		return
	}
	h.read()
	h.mu.Lock()
	h.endStage()
	h.stage = stage
	h.mu.Unlock()
	h.read()
}

// endStage adds the CPU time since the last boundary to the current
// stage; the caller holds h.mu.
func (h *heapSampler) endStage() {
	now := CPUSeconds()
	if h.stage != "" {
		h.cpu[h.stage] += now - h.cpu0
	}
	h.cpu0 = now
}

func (h *heapSampler) close() {
	h.read()
	h.mu.Lock()
	h.endStage()
	h.mu.Unlock()
	close(h.stop)
	<-h.done
}

// Stage names.
const (
	StageRead    = "read"
	StageMatch   = "match"
	StagePresync = "pre-synchronising"
	StageModel   = "estimating the clocks"
	StageCorrect = "correcting"
)

// Single corrects l in this process as clc-correct does (repair.Correct,
// the default method, np workers), timing each stage and sampling its
// heap, and returns the layout of the clock model's estimation (nil
// without one). The corrected times replace l.Times.
func Single(ctx context.Context, l *Loaded, np int) (*SingleNode, *clockmodel.Layout, error) {
	sn := &SingleNode{Stages: []Stage{{Name: StageRead, Seconds: l.Read.Seconds(), CPU: l.ReadCPU}, {Name: StageMatch, Seconds: l.Match.Seconds(), CPU: l.MatchCPU}}}
	sn.DefsBytes = defsBytes(l.Defs)
	sn.GraphBytes = graphBytes(l.Graph)
	h := newHeapSampler()
	runtime.GC()
	res, err := repair.Correct(ctx, &repair.Trace{Defs: l.Defs, Times: l.Times, Graph: l.Graph},
		&repair.Correction{Parallel: np, Progress: h.enter, ClockModel: repair.ClockModelOptions{Layout: true}})
	h.close()
	if err != nil {
		return nil, nil, err
	}
	sn.Report = res.Report
	if res.Domains != nil {
		sn.Domain, sn.Domains = res.Domains.Of, res.Domains.Count()
	}
	tm := res.Report.Timing
	for _, s := range []Stage{{Name: StagePresync, Seconds: tm.Presync}, {Name: StageModel, Seconds: tm.Model}, {Name: StageCorrect, Seconds: tm.Correct}} {
		s.Heap, s.CPU = h.peaks[s.Name], h.cpu[s.Name]
		sn.Stages = append(sn.Stages, s)
	}
	var lay *clockmodel.Layout
	if res.Model != nil {
		lay = res.Model.Layout
	}
	return sn, lay, nil
}

// graphBytes returns what g's dependencies, instances and members take
// (their slices' lengths).
func graphBytes(g *replay.Graph) int64 {
	var n int64
	for _, d := range g.Deps {
		n += int64(len(d)) * int64(unsafe.Sizeof(replay.Dep{}))
	}
	return n + int64(len(g.Instances))*int64(unsafe.Sizeof(replay.Instance{})) + int64(len(g.Parts))*int64(unsafe.Sizeof(replay.Part{}))
}

// defsBytes returns the heap a copy of t's definitions without events
// takes.
func defsBytes(t *trace.Trace) uint64 {
	live := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := live()
	c := &trace.Trace{Resolution: t.Resolution, Nodes: append([]trace.Node(nil), t.Nodes...),
		Processes: append([]trace.Process(nil), t.Processes...), Regions: append([]trace.Region(nil), t.Regions...),
		Comms: make([]trace.Comm, len(t.Comms)), Locations: make([]*trace.Location, len(t.Locations))}
	for i, cm := range t.Comms {
		c.Comms[i] = cm
		c.Comms[i].Members = append([]int32(nil), cm.Members...)
	}
	for i, l := range t.Locations {
		c.Locations[i] = &trace.Location{ID: l.ID, Name: strings.Clone(l.Name), Node: l.Node, Process: l.Process, Kind: l.Kind,
			Offsets: append([]trace.ClockOffset(nil), l.Offsets...)}
	}
	after := live()
	runtime.KeepAlive(c)
	if after < before {
		return 0
	}
	return after - before
}
