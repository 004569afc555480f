package tracer

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Emulation describes the clock error clc-trace adds on top of the real
// timer of every rank (or emulated node) except the reference group, which
// holds rank 0: local(t) = t + Offset·u + Drift·(t−t0)·v +
// Σk Wander·a_k·sin(2π(t−t0)/P_k + φ_k), with u, v uniform in [−1, 1], a_k in
// [0.3, 1]/k and P_k in [0.5, 2]·k·Period, drawn per group from Seed.
type Emulation struct {
	Offset time.Duration // largest initial offset
	Drift  float64       // largest drift, as a fraction (20 ppm = 2e-5)
	Wander time.Duration // amplitude of the non-linear wander
	Period time.Duration // base period of the wander
	Seed   uint64
	// RanksPerNode groups consecutive ranks into emulated nodes sharing one
	// clock (1 = every rank its own clock).
	RanksPerNode int
}

// DefaultEmulation is what --emulate-clock=on means.
var DefaultEmulation = Emulation{Offset: time.Millisecond, Drift: 10e-6, Wander: 2 * time.Microsecond, Period: 200 * time.Millisecond, Seed: 1, RanksPerNode: 1}

// ParseEmulation reads "on" or a comma-separated list of key=value with
// keys offset, drift, wander, period (durations such as 500us, 1ms; drift
// as 20ppm or a fraction) and seed; keys left out keep their defaults.
func ParseEmulation(s string) (Emulation, error) {
	e := DefaultEmulation
	s = strings.TrimSpace(s)
	if s == "" || s == "on" || s == "default" || s == "true" {
		return e, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return e, fmt.Errorf("--emulate-clock: %q is not key=value", kv)
		}
		var err error
		switch k {
		case "offset":
			e.Offset, err = parseDur(v)
		case "wander":
			e.Wander, err = parseDur(v)
		case "period":
			e.Period, err = parseDur(v)
			if err == nil && e.Period <= 0 {
				err = fmt.Errorf("must be positive")
			}
		case "drift":
			if strings.HasSuffix(v, "ppm") {
				var f float64
				f, err = strconv.ParseFloat(strings.TrimSuffix(v, "ppm"), 64)
				e.Drift = f / 1e6
			} else {
				e.Drift, err = strconv.ParseFloat(v, 64)
			}
			if err == nil && (e.Drift < 0 || e.Drift > 0.01) {
				err = fmt.Errorf("must be between 0 and 1%% (10000ppm)")
			}
		case "seed":
			e.Seed, err = strconv.ParseUint(v, 10, 64)
		default:
			return e, fmt.Errorf("--emulate-clock: unknown key %q (want offset, drift, wander, period, seed)", k)
		}
		if err != nil {
			return e, fmt.Errorf("--emulate-clock: %s=%q: %v", k, v, err)
		}
	}
	return e, nil
}

func parseDur(v string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.ReplaceAll(v, "µ", "u"))
	if err != nil {
		return 0, err
	}
	if d < 0 {
		return 0, fmt.Errorf("must not be negative")
	}
	return d, nil
}

// Spec is the form the C library reads from CLC_TRACE_EMULATE.
func (e Emulation) Spec() string {
	rpn := e.RanksPerNode
	if rpn < 1 {
		rpn = 1
	}
	return fmt.Sprintf("seed=%d,offset=%g,drift=%g,wander=%g,period=%g,rpn=%d",
		e.Seed, e.Offset.Seconds(), e.Drift, e.Wander.Seconds(), e.Period.Seconds(), rpn)
}
