package vec

import "math"

// MaskBits is how many random bits decide one entry of a dropout mask in
// MaskEntries.
const MaskBits = 21

// MaskEntriesPlain is MaskEntries written plainly.
func MaskEntriesPlain(m []float64, words []uint64, t uint64, keep float64) {
	kb := math.Float64bits(keep)
	for i := range m {
		v := words[i/12*4+i%4] >> (MaskBits * (i % 12 / 4)) & (1<<MaskBits - 1)
		drop := -((v - t) >> 63) // all ones when v < t
		m[i] = math.Float64frombits(kb &^ drop)
	}
}
