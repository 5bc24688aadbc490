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
