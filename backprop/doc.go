// Package backprop is fp's handwritten training engine: the built-in model of
// docs/method.md §2 (a ReLU MLP with dropout masks and a logit output), the stable
// binary cross-entropy risk, the built-in penalties (the ATO penalties
// ato-penultimate, ato-all, ato-penultimate-normalized and ato-output, and
// dp-mean, eo-mean, dp-mv and eo-mv on the predicted probability) and their
// forms for a sensitive attribute of R groups (docs/method.md §3.3), and the built-in
// scalarizations (cheb, linear, cheb-aug), differentiated by hand over flat
// row-major float64 buffers.
//
// It computes what the Gorgonia graph engine computes — the same
// pre-activations, ReLU′(0) = 1, |x|′(0) = 0 for the penalty, the Chebyshev
// tie going to the risk side, masks applied only when the spec has dropout —
// so the two engines agree to rounding (losses and gradients to about 1e-13
// relative), but it allocates its buffers once per trainer and nothing per
// step. It does not support custom penalties, risks or scalarizations:
// those are graph code and need the graph engine. Engine.Check says so
// before any data is read; it recognises the built-ins by the ATOPenalty,
// NormalizedATOPenalty, OutputATOPenalty (with GroupATOPenalty for the
// R-group forms), EOMeanPenalty, MVPenalty, BCERisk, ChebyshevScalarization,
// LinearScalarization and AugmentedChebyshevScalarization interfaces, so
// this package needs neither Gorgonia nor the packages of graph code.
//
// Matrix products on wide layers go through a register-tiled AVX2/FMA
// assembly kernel on amd64 CPUs that have it, and through gonum's blas64
// (rank-1 updates over row blocks) elsewhere or with the noasm build tag; the 4-unit layers of the COMPAS network use unrolled
// loops, where a BLAS call would cost more than the work. The ReLU and
// dropout steps are branch-free.
package backprop
