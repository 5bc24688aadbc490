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

// MaskEntries sets the entries of a dropout mask m from random words: entry
// i takes the 21 bits of word 4⌊i/12⌋ + i mod 4 that start at bit
// 21·⌊(i mod 12)/4⌋, read as an integer v, and is 0 when v < t and keep
// otherwise. Twelve entries use four words, each word's bits 0–62; words
// must hold 4⌈len(m)/12⌉ of them. The layout lets four words give four
// consecutive entries at once.
func MaskEntries(m []float64, words []uint64, t uint64, keep float64) {
	n := len(m) / 12 * 12
	_ = words[:(len(m)+11)/12*4]
	if Have && n > 0 {
		maskEntries12(m[:n], words, t, keep)
	}
	if n < len(m) {
		MaskEntriesPlain(m[n:], words[n/3:], t, keep)
	}
}

//go:noescape
func maskEntries12(m []float64, words []uint64, t uint64, keep float64)

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
