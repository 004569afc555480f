package clc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/clc-tools/clc/comm"
	"github.com/clc-tools/clc/internal/tracetest"
	"github.com/clc-tools/clc/replay"
	"github.com/clc-tools/clc/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inputOf returns a fresh Input of tr's times.
func inputOf(tr *trace.Trace, g *replay.Graph) Input {
	in := Input{Resolution: tr.Resolution, Times: make([][]int64, len(tr.Locations)), Node: make([]int32, len(tr.Locations)), Follow: Leader(tr, g)}
	for li, l := range tr.Locations {
		in.Times[li], in.Node[li] = slices.Clone(l.Events.Time), l.Node
	}
	return in
}

// CorrectInPlace divided among P processes (comm.Local; each holding the
// input times of every location, correcting whole nodes) gives every
// location the one-process correction's times, bit for bit, and the same
// moved events, passes and dropped dependencies, on random traces with
// clock errors (hybrid ones among them; with and without a trusted
// reference and the γ control loop's repeated passes) at P = 2, 3, 4.
func TestCorrectDividedIsCorrect(t *testing.T) {
	cfgs := map[string]tracetest.Config{
		"plain":  {Locations: 12, Nodes: 4, Ops: 400, Latency: 200, Offset: 5000, Drift: 1e-4, Init: true},
		"hybrid": {Locations: 6, Nodes: 3, Ops: 200, Latency: 200, Offset: 5000, Drift: 1e-4, Threads: 3, Init: true},
	}
	params := map[string]Params{"default": DefaultParams()}
	tight := DefaultParams()
	tight.MaxShift = time.Nanosecond // every pass is over the threshold: the γ loop runs them all
	params["gamma loop"] = tight
	trusted := DefaultParams()
	trusted.TrustReference = true
	params["reference"] = trusted
	for name, cfg := range cfgs {
		for seed := range uint64(2) {
			tr, _ := tracetest.Random(rand.New(rand.NewPCG(seed, 13)), cfg)
			g, err := replay.Match(tr, nil)
			require.NoError(t, err)
			for pname, p := range params {
				wantIn := inputOf(tr, g)
				want, err := CorrectInPlace(wantIn, g, p, nil)
				require.NoError(t, err, "%s seed %d %s", name, seed, pname)
				require.Positive(t, want.Passes[len(want.Passes)-1].Jumps, "%s seed %d %s: the trace has violations", name, seed, pname)
				if pname == "gamma loop" {
					require.Greater(t, len(want.Passes), 1, "%s seed %d: passes of the γ loop", name, seed)
				}
				nodes := 0
				for _, l := range tr.Locations {
					nodes = max(nodes, int(l.Node)+1)
				}
				for _, np := range []int{2, 3, 4} {
					what := fmt.Sprintf("%s seed %d %s P=%d", name, seed, pname, np)
					part := make([]int32, len(tr.Locations))
					for li, l := range tr.Locations {
						part[li] = int32(int(l.Node) * np / nodes)
					}
					errs := comm.RunLocal(np, func(c comm.Comm) error {
						r := c.Rank()
						in := inputOf(tr, g)
						res, err := CorrectInPlace(in, g, p, &Options{Comm: c, Part: part, Parallel: 2, Context: context.Background()})
						if err != nil {
							return err
						}
						assert.Equal(t, want.Passes, res.Passes, "%s process %d: passes", what, r)
						assert.Equal(t, want.Dropped, res.Dropped, "%s process %d: dropped", what, r)
						assert.Equal(t, want.Threshold, res.Threshold, "%s process %d: threshold", what, r)
						for li := range in.Times {
							if part[li] != int32(r) {
								continue
							}
							assert.True(t, slices.Equal(wantIn.Times[li], in.Times[li]), "%s process %d: location %d's corrected times", what, r, li)
							assert.Equal(t, want.Moved[li].Original(wantIn.Times[li]), res.Moved[li].Original(in.Times[li]), "%s process %d: location %d's times before", what, r, li)
						}
						return nil
					})
					for r, err := range errs {
						assert.NoError(t, err, "%s process %d", what, r)
					}
				}
			}
		}
	}
}

// A failure of one process's locations (division.agree) stops every
// process: the failing one with its error, the others saying another
// failed.
func TestDivisionAgree(t *testing.T) {
	errs := comm.RunLocal(3, func(c comm.Comm) error {
		var err error
		if c.Rank() == 1 {
			err = fmt.Errorf("location 4: amortization failed")
		}
		d, derr := newDivision(c, make([]int32, 5), 5)
		if derr != nil {
			return derr
		}
		return d.agree(context.Background(), err)
	})
	assert.EqualError(t, errs[1], "location 4: amortization failed")
	assert.ErrorIs(t, errs[0], errElsewhere)
	assert.ErrorIs(t, errs[2], errElsewhere)
}
