// Package scalarizations writes scalarizations as Gorgonia graph code for
// the graph engine: a scalarization maps the standardized risk R̃, the
// standardized unfairness Ũ and the trade-off weight λ, all scalar nodes,
// to the one scalar node a network minimises (docs/method.md §3.5). The
// built-ins are Chebyshev (cheb), Linear (linear) and AugmentedChebyshev
// (cheb-aug); New is the extension point for a scalarization of one's own.
//
// Every Scalarization is also a scalarize.Scalarization: its name, the
// version of its code and its numeric value with the partial derivatives
// with respect to R̃ and Ũ, which the plateau schedule and held-out
// stopping read. The built-ins' numeric forms are scalarize's (Cheb, Lin,
// ChebAug), whose marker methods the handwritten engine recognises; it
// refuses any other scalarization before training starts.
package scalarizations
