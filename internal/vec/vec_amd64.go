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
