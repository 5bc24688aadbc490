package model

import (
	"math"
	"math/rand/v2"

	"github.com/fpareto/fp/internal/vec"
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

// MaskBlockBits is how many random bits decide one entry of
// FillMaskBlocks.
const MaskBlockBits = vec.MaskBits

// FillMaskBlocks fills m with an inverted-dropout mask as FillMask does,
// from one draw of rng for the whole of m: that 64-bit value seeds a
// SplitMix64 sequence (Steele, Lea and Flood 2014) whose outputs give 21
// bits to each entry, three per output: entry i reads output
// 4⌊i/12⌋ + i mod 4 from bit 21·⌊(i mod 12)/4⌋ (so that four outputs give
// four consecutive entries at a time, vec.MaskSplitMix). An entry is 0 when
// its 21 bits, read as an integer v, have v < ⌈p·2²¹⌉, so with probability
// ⌈p·2²¹⌉/2²¹: p rounded up to the next multiple of 2⁻²¹ (0.2000002 for
// p = 0.2); kept entries are 1/(1−p) as in FillMask. Lockstep training
// draws its masks this way: at the COMPAS shape a draw of the generator
// per entry costs as much as the arithmetic of the step.
func FillMaskBlocks(rng *rand.Rand, m []float64, p float64) {
	if p <= 0 {
		FillMask(rng, m, p)
		return
	}
	t := uint64(math.Ceil(math.Ldexp(p, MaskBlockBits)))
	vec.MaskSplitMix(m, rng.Uint64(), t, 1/(1-p))
}
