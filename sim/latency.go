package sim

import "math/rand/v2"

// network is the part of the latency model beyond the minimum latencies,
// bandwidth and jitter: direction-dependent inter-node latencies and
// congestion phases (Config.LatencyAsymmetry, Config.Congestion).
type network struct {
	// sendX and recvX are each node's extra delay for the inter-node
	// messages it sends and receives (ticks); nil without asymmetry.
	sendX, recvX []int64
	congP        float64
	congMean     float64 // ticks
	congPeriod   int64
	seed         uint64
}

func newNetwork(cfg *Config, nodes int) network {
	res := cfg.Resolution
	nw := network{congP: cfg.Congestion, seed: uint64(cfg.Seed)}
	if cfg.LatencyAsymmetry > 0 {
		// A stream of its own, so that the asymmetry does not change
		// the other draws.
		rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x5eed0a5e11a7e9c3))
		span := cfg.LatencyAsymmetry * cfg.LatencyInter.Seconds() * float64(res)
		nw.sendX, nw.recvX = make([]int64, nodes), make([]int64, nodes)
		for n := range nodes {
			nw.sendX[n] = int64(span * rng.Float64())
			nw.recvX[n] = int64(span * rng.Float64())
		}
	}
	if nw.congP > 0 {
		nw.congMean = cfg.CongestionDelay.Seconds() * float64(res)
		p := cfg.CongestionPeriod
		if p == 0 {
			p = defaultCongestionPeriod
		}
		nw.congPeriod = max(1, ticks(p, res))
	}
	return nw
}

// lat is the latency of a message from rank a to rank b without jitter,
// transfer or congestion: the minimum latency of its class, plus the
// sender's and receiver's direction-dependent delays between nodes.
func (e *engine) lat(a, b int) int64 {
	na, nb := a/e.rpn, b/e.rpn
	if na == nb {
		return e.latIntra
	}
	l := e.latInter
	if e.net.sendX != nil {
		l += e.net.sendX[na] + e.net.recvX[nb]
	}
	return l
}

// delay is the time a message of the given size takes from a to b, sent
// at a's current time.
func (e *engine) delay(a, b int, bytes uint64) int64 {
	d := e.lat(a, b) + e.xfer(bytes) + e.expJitter()
	if a/e.rpn != b/e.rpn {
		d += e.congestion(e.now[a])
	}
	return d
}

// congestion is the extra delay of an inter-node message sent at true time
// t: 0 outside congestion phases. Whether the phase of t is congested is a
// hash of the seed and the phase, so it draws nothing; the delay itself
// draws from the program's stream (congestion changes the truth).
func (e *engine) congestion(t int64) int64 {
	if e.net.congP == 0 || e.net.congMean == 0 {
		return 0
	}
	k := floorDiv(t, e.net.congPeriod)
	if unit(hash4(e.net.seed^0x636f6e6765737469, uint64(k), 0, 0)) >= e.net.congP {
		return 0
	}
	return int64(e.net.congMean * (0.5 + e.rng.ExpFloat64()))
}
