// Package vec runs the elementwise loops of a training step (products,
// sums, the ReLU gate) four to eight float64s at a time with AVX2.
//
// Have reports whether the loops run on this CPU (amd64 with AVX2 and FMA,
// unless built with the noasm tag); callers keep plain loops for when they
// do not. The results are bit for bit those of the plain loops.
package vec
