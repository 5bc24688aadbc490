//go:build noasm || !amd64

package vec

// Have is false: there are no vector loops for this architecture or build.
const Have = false

func Mul(o, a, b []float64)        { panic("vec: no vector kernels here") }
func Add(o, a, b []float64)        { panic("vec: no vector kernels here") }
func GE(o, a []float64, s float64) { panic("vec: no vector kernels here") }

// Affine sets o[j] = b[j] + Σ_k x[k]·w[k·len(o)+j] for j < len(o) (see the
// amd64 version); here it is AffinePlain.
func Affine(o, b, x, w []float64) { AffinePlain(o, b, x, w) }

// Adam is AdamPlain (see the amd64 version).
func Adam(p, g, m, v []float64, b1, b2, step, bc2, eps float64) {
	AdamPlain(p, g, m, v, b1, b2, step, bc2, eps)
}

// MaskSplitMix is MaskSplitMixPlain (see the amd64 version).
func MaskSplitMix(m []float64, seed, t uint64, keep float64) { MaskSplitMixPlain(m, seed, t, keep) }
