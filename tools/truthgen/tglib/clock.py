"""Node clocks as physical oscillators read through a timer.

A node's clock maps true time t (seconds since the simulated job started) to
timer ticks:

    C(t) = R * (base + offset + t + drift * t + W(t)) + S(t)

R is the timer's nominal resolution (ticks per second, the same for every node,
as it is for a cluster whose timers are all specified at, say, 2.4 GHz), base
the common epoch (the reference clock's reading at t = 0 is about R * base),
offset the node's initial offset in seconds, drift its constant frequency error
(a fraction: 1e-6 is one ppm), W(t) the integral of the frequency wander and
S(t) the steps and slews that an NTP-like daemon applies. What a timer records
is floor(C(t)); a reading never goes below the previous one (timers are
monotonic), which the writer enforces per location.

The frequency wander w(t) = dW/dt is the sum of

* sinusoids  a_k sin(2 pi t / P_k + phi_k)  (temperature cycles, fan control;
  periods of seconds), integrated in closed form, and
* a mean-reverting random walk of the rate (an Ornstein-Uhlenbeck process,
  the usual model of an oscillator's flicker and random-walk frequency noise),
  sampled on a grid and integrated exactly as a piecewise-linear rate.

Steps add a constant number of seconds from a true time on (forward only: a
backward step would make the timer run backwards, which no tracer's timer
does); a slew adds a rate for a bounded interval (positive or negative, at most
a few hundred ppm, so the clock stays monotonic).
"""

import math


class NodeClock:
    """One node's clock. All arguments in seconds or fractions (not ppm)."""

    __slots__ = ("res", "base", "offset", "drift", "sines", "rw_dt", "rw_rate",
                 "rw_cum", "steps", "slews", "perfect")

    def __init__(self, res, base, offset=0.0, drift=0.0, sines=(), rw_dt=0.0,
                 rw_rate=(), steps=(), slews=()):
        self.res = float(res)
        self.base = float(base)
        self.offset = float(offset)
        self.drift = float(drift)
        # (amplitude of the rate, period s, phase rad)
        self.sines = tuple((float(a), float(p), float(ph)) for a, p, ph in sines)
        self.rw_dt = float(rw_dt)
        self.rw_rate = tuple(float(x) for x in rw_rate)
        cum = [0.0]
        for i in range(len(self.rw_rate) - 1):
            cum.append(cum[-1] + 0.5 * (self.rw_rate[i] + self.rw_rate[i + 1]) * self.rw_dt)
        self.rw_cum = tuple(cum)
        self.steps = tuple(sorted((float(t), float(d)) for t, d in steps))
        for _, d in self.steps:
            if d < 0:
                raise ValueError("clock steps must be forward (a timer never runs backwards)")
        self.slews = tuple((float(a), float(b), float(r)) for a, b, r in slews)
        for a, b, r in self.slews:
            if not (b > a) or abs(r) >= 0.01:
                raise ValueError("slew needs t1 > t0 and |rate| < 1 %")
        self.perfect = (self.offset == 0.0 and self.drift == 0.0 and not self.sines
                        and not self.rw_rate and not self.steps and not self.slews)

    def wander(self, t):
        """W(t): seconds the wander has added by true time t."""
        w = 0.0
        for a, p, ph in self.sines:
            w += a * p / (2.0 * math.pi) * (math.cos(ph) - math.cos(2.0 * math.pi * t / p + ph))
        if self.rw_rate:
            dt = self.rw_dt
            n = len(self.rw_rate)
            if t <= 0.0:
                w += self.rw_rate[0] * t
            else:
                i = int(t / dt)
                if i >= n - 1:
                    w += self.rw_cum[-1] + self.rw_rate[-1] * (t - (n - 1) * dt)
                else:
                    x = t - i * dt
                    r0 = self.rw_rate[i]
                    r1 = self.rw_rate[i + 1]
                    w += self.rw_cum[i] + r0 * x + 0.5 * (r1 - r0) / dt * x * x
        return w

    def rate(self, t):
        """dC/dt / R - 1 at true time t (the clock's fractional frequency error)."""
        r = self.drift
        for a, p, ph in self.sines:
            r += a * math.sin(2.0 * math.pi * t / p + ph)
        if self.rw_rate:
            i = min(max(int(t / self.rw_dt), 0), len(self.rw_rate) - 2)
            x = (t - i * self.rw_dt) / self.rw_dt
            x = min(max(x, 0.0), 1.0)
            r += self.rw_rate[i] * (1 - x) + self.rw_rate[i + 1] * x
        for a, b, s in self.slews:
            if a <= t < b:
                r += s
        return r

    def seconds(self, t):
        """C(t) / R: the clock's reading in seconds (not quantised)."""
        if self.perfect:
            return self.base + t
        s = self.base + self.offset + t + self.drift * t
        if self.sines or self.rw_rate:
            s += self.wander(t)
        for ts, d in self.steps:
            if t >= ts:
                s += d
        for a, b, r in self.slews:
            if t > a:
                s += r * (min(t, b) - a)
        return s

    def ticks(self, t):
        """floor(C(t)): what the timer reads at true time t."""
        return math.floor(self.seconds(t) * self.res)

    def to_json(self):
        return {
            "offset_s": self.offset, "drift_ppm": self.drift * 1e6,
            "sines": [{"amplitude_ppm": a * 1e6, "period_s": p, "phase_rad": ph}
                      for a, p, ph in self.sines],
            "random_walk": ({"grid_s": self.rw_dt, "samples": len(self.rw_rate),
                             "max_abs_rate_ppm": max(abs(x) for x in self.rw_rate) * 1e6}
                            if self.rw_rate else None),
            "steps": [{"at_s": t, "seconds": d} for t, d in self.steps],
            "slews": [{"from_s": a, "to_s": b, "rate_ppm": r * 1e6} for a, b, r in self.slews],
        }


def ou_rate(rng, duration, dt, sigma, tau):
    """Samples of an Ornstein-Uhlenbeck rate on a grid of dt seconds.

    sigma is the stationary standard deviation of the rate (a fraction), tau
    the correlation time in seconds. Starts from the stationary distribution.
    """
    n = int(duration / dt) + 3
    a = math.exp(-dt / tau)
    b = sigma * math.sqrt(1.0 - a * a)
    x = rng.gauss(0.0, sigma)
    out = []
    for _ in range(n):
        out.append(x)
        x = a * x + b * rng.gauss(0.0, 1.0)
    return out


def monotone_ticks(clock, times):
    """Timer readings at the given non-decreasing true times, never decreasing."""
    out = []
    prev = None
    for t in times:
        v = clock.ticks(t)
        if prev is not None and v < prev:
            v = prev
        out.append(v)
        prev = v
    return out
