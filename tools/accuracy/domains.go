package main

import (
	"fmt"
	"io"
	"math"

	"github.com/clc-tools/clc/repair"
)

// domainErrors is one clock domain's distances to the truth: of the
// corrected times, and of the clock model's estimate (the pre-synchronised
// time plus the estimated correction, whether or not it was applied), with
// the error bars of each and the estimate's mean error in each fifth of
// every location's events.
type domainErrors struct {
	n, within, bar     float64
	sum, sum2, largest float64
	est, est2, estIn   float64
	unc                float64
	fifth, fifthN      [5]float64
}

// writeDomains writes, for each clock domain of res's trace, how far its
// corrected times and its estimate lie from the truth and how wide their
// error bars are: where the bars fail to hold the truth, this tells a
// bias common to a domain (the estimate's mean error beyond its own bar)
// from scatter. It needs the pre-synchronised times (KeepPresync) and an
// estimate with error bars, and writes nothing without them.
func writeDomains(w io.Writer, name string, times, truth [][]int64, res *repair.Result) {
	if res.Model == nil || !res.Model.HasErrorBars() || res.Presync == nil || res.Domains == nil {
		return
	}
	dom := res.Domains
	s := make([]domainErrors, dom.Count())
	for li, ts := range times {
		d := dom.Of[li]
		x := &s[d]
		bc := res.Model.BarCursor(d)
		for i, f := range ts {
			c, tr := res.Presync[li][i], float64(truth[li][i])
			bar := bc.At(c, f)
			e := float64(f) - tr
			x.n++
			x.bar += bar
			x.sum += e
			x.sum2 += e * e
			x.largest = math.Max(x.largest, math.Abs(e))
			if math.Abs(e) <= bar {
				x.within++
			}
			ee := float64(c) + res.Model.Estimated(d, c) - tr
			u := res.Model.Uncertainty(d, c)
			x.est += ee
			x.est2 += ee * ee
			x.unc += u
			if math.Abs(ee) <= u {
				x.estIn++
			}
			k := i * 5 / len(ts)
			x.fifth[k] += ee
			x.fifthN[k]++
		}
	}
	fmt.Fprintf(w, "%s: per clock domain, ticks (corrected: covered, mean ± sd error, largest, mean bar | estimate: covered, mean ± sd error, mean bar, mean error by fifth of the events)\n", name)
	for d, x := range s {
		if x.n == 0 {
			continue
		}
		m, me := x.sum/x.n, x.est/x.n
		fmt.Fprintf(w, "  %3d %7.0f events  %5.1f %% %8.1f ± %6.1f %7.0f %7.1f | %5.1f %% %8.1f ± %6.1f %7.1f  [", d, x.n,
			100*x.within/x.n, m, math.Sqrt(max(0, x.sum2/x.n-m*m)), x.largest, x.bar/x.n,
			100*x.estIn/x.n, me, math.Sqrt(max(0, x.est2/x.n-me*me)), x.unc/x.n)
		for k := range x.fifth {
			fmt.Fprintf(w, " %.0f", x.fifth[k]/max(x.fifthN[k], 1))
		}
		fmt.Fprintln(w, " ]")
	}
}
