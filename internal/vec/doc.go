// Package vec runs the elementwise loops of a training step (products,
// sums, the ReLU gate) four to eight float64s at a time with AVX2, and one
// row through a dense layer (Affine) 32 outputs at a time.
//
// Have reports whether the loops run on this CPU (amd64 with AVX2 and FMA,
// unless built with the noasm tag); callers of the elementwise loops keep
// plain loops for when they do not, and Affine falls back to AffinePlain
// itself. The results are bit for bit those of the plain loops: products
// are rounded before they are added, never fused.
package vec
