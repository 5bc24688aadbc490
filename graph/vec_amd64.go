//go:build !noasm

package graph

import "github.com/fpareto/fp/internal/gemm"

// The elementwise loops that dominate an MLP step after the matrix products
// (the dropout and ReLU products, the bias sums, the ReLU gate), four or
// eight at a time with AVX2 on CPUs that have it (the matrix kernel's test
// covers the same CPU features).
var haveVec = gemm.Have

//go:noescape
func mulVVasm(o, a, b []float64)

//go:noescape
func addVVasm(o, a, b []float64)

//go:noescape
func geVSasm(o, a []float64, s float64)
