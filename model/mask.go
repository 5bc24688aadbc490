package model

import "math/rand/v2"

// FillMask fills m with an inverted-dropout mask: each entry is 0 with
// probability p and 1/(1−p) otherwise, drawn from rng. p = 0 gives all ones.
// Engines multiply the hidden activations by it, so the same generator gives
// the same masks to every engine.
func FillMask(rng *rand.Rand, m []float64, p float64) {
	if p <= 0 {
		for i := range m {
			m[i] = 1
		}
		return
	}
	keep := 1 / (1 - p)
	for i := range m {
		if rng.Float64() < p {
			m[i] = 0
		} else {
			m[i] = keep
		}
	}
}
