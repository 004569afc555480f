package main

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clc-tools/clc/internal/cli"
	"github.com/clc-tools/clc/tracer"
)

// config holds the flags as given.
type config struct {
	out, mpi, mpicc, cache, sync, syncRounds, emulate string
	rpn                                               int
	buffer, flush                                     string
	format, polls, groups, convert, filter            string
	writeAPI, completion                              string
	force, buildOnly, quiet                           bool
}

// settings are the flags checked and converted.
type settings struct {
	flavour     tracer.Flavour
	buffer      int64
	flushEvents uint32
	flushAfter  time.Duration
	emulate     string
	groups      tracer.GroupSet
	filter      tracer.Filter
}

// Limits of the flags' values.
const (
	minBuffer     = 4 << 10
	maxBuffer     = 64 << 20
	maxSyncRounds = 100000
	minFlushAfter = time.Millisecond
)

// sizeUnits are the suffixes --buffer accepts, longest first: binary
// (KiB, and K, k as their short forms) and decimal (kB, KB, MB, GB).
var sizeUnits = []struct {
	suf string
	m   int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"kB", 1000}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000},
	{"K", 1 << 10}, {"k", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1}}

// parseSize reads --buffer: a number of bytes with an optional unit.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.suf) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suf)), u.m
			break
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 {
		return 0, cli.Usagef("--buffer %q: not a size (bytes, or with a unit: 64KiB, 1MiB, 4MB …)", s)
	}
	if v > math.MaxInt64/mult {
		return 0, cli.Usagef("--buffer %s: more than %s bytes, outside 4KiB..64MiB", s, tracer.Thousands(math.MaxInt64))
	}
	if v*mult < minBuffer || v*mult > maxBuffer {
		return 0, cli.Usagef("--buffer %s: %s bytes is outside 4KiB..64MiB", s, tracer.Thousands(v*mult))
	}
	return v * mult, nil
}

// parseSyncRounds checks --sync-rounds MIN,PATIENCE,MAX.
func parseSyncRounds(s string) error {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	var v [3]int
	bad := len(parts) != 3
	for i := 0; !bad && i < 3; i++ {
		n, err := strconv.Atoi(strings.TrimSpace(parts[i]))
		v[i], bad = n, err != nil
	}
	switch {
	case bad:
		return cli.Usagef("--sync-rounds %q: want MIN,PATIENCE,MAX (three whole numbers, e.g. 20,10,400)", s)
	case v[0] < 1 || v[1] < 1:
		return cli.Usagef("--sync-rounds %s: MIN and PATIENCE must be at least 1", s)
	case v[2] < v[0]:
		return cli.Usagef("--sync-rounds %s: MAX must be at least MIN", s)
	case v[2] > maxSyncRounds:
		return cli.Usagef("--sync-rounds %s: MAX above %d rounds would stall MPI_Init", s, maxSyncRounds)
	}
	return nil
}

// parseFlush reads --flush EVENTS,DURATION.
func parseFlush(s string) (uint32, time.Duration, error) {
	a, b, ok := strings.Cut(s, ",")
	n, err := strconv.ParseUint(strings.TrimSpace(a), 10, 32)
	var d time.Duration
	if ok && err == nil {
		if b = strings.TrimSpace(b); b == "0" {
			d = 0
		} else {
			d, err = time.ParseDuration(b)
		}
	}
	switch {
	case !ok || err != nil || d < 0:
		return 0, 0, cli.Usagef("--flush %q: want EVENTS,DURATION, e.g. 65536,1s (0 for no bound)", s)
	case d > 0 && d < minFlushAfter:
		return 0, 0, cli.Usagef("--flush %s: a DURATION below %v would keep the writer busy", s, minFlushAfter)
	}
	return uint32(n), d, nil
}

// check checks and converts the flags that do not need the program.
func check(c *config) (*settings, error) {
	s := &settings{}
	var err error
	if c.mpi != "" {
		if s.flavour, err = tracer.ParseFlavour(c.mpi); err != nil {
			return nil, cli.Usage(err)
		}
	}
	if c.sync != "flat" && c.sync != "tree" {
		return nil, cli.Usagef("--sync %q: want flat or tree", c.sync)
	}
	if err := parseSyncRounds(c.syncRounds); err != nil {
		return nil, err
	}
	if c.format != "native" && c.format != "otf2" {
		return nil, cli.Usagef("--format %q: want native or otf2", c.format)
	}
	if c.polls != "collapse" && c.polls != "all" {
		return nil, cli.Usagef("--polls %q: want collapse or all", c.polls)
	}
	if s.groups, err = tracer.ParseGroups(c.groups); err != nil {
		return nil, cli.Usage(err)
	}
	if s.buffer, err = parseSize(c.buffer); err != nil {
		return nil, err
	}
	if s.flushEvents, s.flushAfter, err = parseFlush(c.flush); err != nil {
		return nil, err
	}
	if c.rpn < 1 {
		return nil, cli.Usagef("--emulate-ranks-per-node %d: want 1 or more ranks per emulated clock", c.rpn)
	}
	if c.emulate != "" && c.emulate != "off" {
		e, err := tracer.ParseEmulation(c.emulate)
		if err != nil {
			return nil, cli.Usage(err)
		}
		e.RanksPerNode = c.rpn
		s.emulate = e.Spec()
	} else if c.rpn != 1 {
		return nil, cli.Usagef("--emulate-ranks-per-node %d needs --emulate-clock", c.rpn)
	}
	if c.filter != "" {
		if s.filter, err = tracer.ReadFilter(c.filter); err != nil {
			return nil, cli.Usage(err)
		}
	}
	if c.out == "" && c.force {
		return nil, cli.Usagef("--force needs -o: the default output directory is always a new one")
	}
	return s, nil
}
