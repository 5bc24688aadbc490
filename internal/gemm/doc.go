// Package gemm adds matrix products into row-major float64 buffers with a
// register-tiled AVX2/FMA kernel, for the layer shapes of fp's networks.
//
// Have reports whether the kernel runs on this CPU (amd64 with AVX2 and FMA,
// unless built with the noasm tag); callers keep a fallback for when it does
// not. Products computed with FMA round differently from separate multiplies
// and adds, so they can differ from other implementations in the last bits.
package gemm
