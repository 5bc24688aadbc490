// Package backprop is fp's handwritten training engine: the built-in model of
// SPEC §2 (a ReLU MLP with dropout masks and a logit output), the stable
// binary cross-entropy risk and the built-in ATO penalties, differentiated by
// hand over flat row-major float64 buffers.
//
// It computes exactly what the Gorgonia graph engine computes (same
// pre-activations, ReLU′(0) = 1, |x|′(0) = 0 for the penalty, the Chebyshev tie
// going to the risk side), so the two engines agree to rounding, but it
// allocates its buffers once per trainer and nothing per step. It does not
// support custom penalties or risks: those are graph code and need the graph
// engine (--engine graph).
//
// Matrix products go through hand-written loops that skip the zeros left by
// ReLU and dropout; the widest products can use gonum's BLAS (blas64), which
// the `blas` build tag points at OpenBLAS.
package backprop
