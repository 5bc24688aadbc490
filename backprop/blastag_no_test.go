//go:build !blas

package backprop_test

const blasTag = false
