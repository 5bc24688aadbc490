package model

import (
	"math"
	"math/rand/v2"
)

// FillMask fills m with an inverted-dropout mask: each entry is 0 with
// probability p and 1/(1−p) otherwise, drawn from rng. p = 0 gives all ones.
// Engines multiply the hidden activations by it, so the same generator gives
// the same masks to every engine.
//
// Entry i is 0 exactly when the generator's Float64 would be below p; the
// comparison is made on the integer it is made of, and without a branch,
// which the random outcome would mispredict one time in five at p = 0.2.
func FillMask(rng *rand.Rand, m []float64, p float64) {
	if p <= 0 {
		for i := range m {
			m[i] = 1
		}
		return
	}
	keep := math.Float64bits(1 / (1 - p))
	// Float64 is u/2⁵³ with u = Uint64()>>11, exactly; u/2⁵³ < p ⟺ u < t.
	t := uint64(math.Ceil(math.Ldexp(p, 53)))
	for i := range m {
		u := rng.Uint64() << 11 >> 11
		drop := -((u - t) >> 63) // all ones when u < t
		m[i] = math.Float64frombits(keep &^ drop)
	}
}
