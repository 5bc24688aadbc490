//go:build !noasm

package vec

import "github.com/fpareto/fp/internal/gemm"

// Have reports whether the AVX2 loops can run here: on amd64 CPUs with
// AVX2 and FMA, the matrix kernel's condition.
var Have = gemm.Have

// Mul sets o[i] = a[i]·b[i] for i < len(o); a and b must be at least as long.
//
//go:noescape
func Mul(o, a, b []float64)

// Add sets o[i] = a[i]+b[i] for i < len(o); a and b must be at least as long.
//
//go:noescape
func Add(o, a, b []float64)

// GE sets o[i] = 1 if a[i] ≥ s and 0 otherwise (NaN included), for
// i < len(o); a must be at least as long.
//
//go:noescape
func GE(o, a []float64, s float64)

// Affine sets o[j] = b[j] + Σ_k x[k]·w[k·len(o)+j] for j < len(o): one row
// through a dense layer whose weights w are stored input-major. Each product
// is rounded before it is added, in the order of x, so the result is bit for
// bit the plain loop's (AffinePlain). b must be at least len(o) long and w
// at least len(x)·len(o).
func Affine(o, b, x, w []float64) {
	n := len(o)
	if !Have || len(x) == 0 || n == 0 {
		AffinePlain(o, b, x, w)
		return
	}
	_ = b[n-1]
	_ = w[len(x)*n-1]
	j := 0
	for ; j+32 <= n; j += 32 {
		affine32(o[j:], b[j:], x, w[j:], n)
	}
	for ; j+4 <= n; j += 4 {
		affine4(o[j:], b[j:], x, w[j:], n)
	}
	if j < n {
		affineTail(o, b, x, w, j)
	}
}

//go:noescape
func affine32(o, b, x, w []float64, stride int)

//go:noescape
func affine4(o, b, x, w []float64, stride int)

// Adam is AdamPlain four entries at a time, bit for bit (square root and
// division are correctly rounded, and no operation is fused).
func Adam(p, g, m, v []float64, b1, b2, step, bc2, eps float64) {
	n := len(p) / 4 * 4
	_, _, _ = g[:len(p)], m[:len(p)], v[:len(p)]
	if Have && n > 0 {
		adam4(p[:n], g, m, v, b1, b2, step, bc2, eps)
	}
	if n < len(p) {
		AdamPlain(p[n:], g[n:], m[n:], v[n:], b1, b2, step, bc2, eps)
	}
}

//go:noescape
func adam4(p, g, m, v []float64, b1, b2, step, bc2, eps float64)

// MaskSplitMix fills the dropout mask m from SplitMix64's sequence from
// seed: word j (from 0) is SplitMix64's output after j+1 increments, and
// entry i reads word 4⌊i/12⌋ + i mod 4 as MaskEntries does. It is
// MaskSplitMixPlain bit for bit, with the words made four at a time in
// vector lanes (64-bit products from 32-bit ones) and never stored.
func MaskSplitMix(m []float64, seed, t uint64, keep float64) {
	n := len(m) / 12 * 12
	if Have && n > 0 {
		g := uint64(splitMixGamma)
		lanes := [4]uint64{seed + g, seed + 2*g, seed + 3*g, seed + 4*g}
		maskSplitMix12(m[:n], &lanes, t, keep)
		seed += uint64(n/3) * g
	} else {
		n = 0
	}
	if n < len(m) {
		MaskSplitMixPlain(m[n:], seed, t, keep)
	}
}

//go:noescape
func maskSplitMix12(m []float64, lanes *[4]uint64, t uint64, keep float64)
