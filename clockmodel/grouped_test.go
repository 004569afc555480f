package clockmodel

import (
	"math/rand/v2"
)

// groupedSystem is randomSystem with its two-block rows cut into groups of
// consecutive rows that share an eliminated bias, half of them with a
// prior: the normal matrix then has the groups' low-rank terms, which the
// blocks' preconditioner takes by Woodbury's identity.
func groupedSystem(rng *rand.Rand, nd, k int) *system {
	s := randomSystem(rng, nd, k, 1e3, nil)
	first := 0
	for first < len(s.rows) && s.rows[first].len() != 4 {
		first++
	}
	for lo := first; lo < len(s.rows); {
		hi := min(len(s.rows), lo+5+rng.IntN(40))
		for i := lo; i < hi; i++ {
			if s.rows[i].len() != 4 {
				hi = i
				break
			}
		}
		if hi == lo {
			break
		}
		wb := 0.0
		if rng.IntN(2) == 0 {
			wb = 1 / (1 + rng.Float64())
		}
		s.groups = append(s.groups, rowGroup{lo: int32(lo), hi: int32(hi), wb: wb})
		lo = hi
	}
	return s
}
