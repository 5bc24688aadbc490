package vec

import "math"

// MaskBits is how many random bits decide one entry of a dropout mask in
// MaskSplitMix.
const MaskBits = 21

// MaskEntriesPlain sets the entries of a dropout mask m from random words:
// entry i takes the 21 bits of word 4⌊i/12⌋ + i mod 4 that start at bit
// 21·⌊(i mod 12)/4⌋, read as an integer v, and is 0 when v < t and keep
// otherwise. Twelve entries use four words, each word's bits 0–62; words
// must hold 4⌈len(m)/12⌉ of them. The layout lets four words in vector
// lanes give four consecutive entries at once.
func MaskEntriesPlain(m []float64, words []uint64, t uint64, keep float64) {
	kb := math.Float64bits(keep)
	for i := range m {
		v := words[i/12*4+i%4] >> (MaskBits * (i % 12 / 4)) & (1<<MaskBits - 1)
		drop := -((v - t) >> 63) // all ones when v < t
		m[i] = math.Float64frombits(kb &^ drop)
	}
}

// splitMixGamma is SplitMix64's increment (Steele, Lea and Flood 2014).
const splitMixGamma = 0x9e3779b97f4a7c15

// splitMix is SplitMix64's output for the state s (after its increment).
func splitMix(s uint64) uint64 {
	z := s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// MaskSplitMixPlain is MaskSplitMix written plainly: the words of
// SplitMix64 from seed, then MaskEntriesPlain.
func MaskSplitMixPlain(m []float64, seed, t uint64, keep float64) {
	const chunk = 768 // entries per batch of 256 words
	var words [chunk / 3]uint64
	for start := 0; start < len(m); start += chunk {
		part := m[start:min(start+chunk, len(m))]
		w := words[:(len(part)+11)/12*4]
		for j := range w {
			seed += splitMixGamma
			w[j] = splitMix(seed)
		}
		MaskEntriesPlain(part, w, t, keep)
	}
}
