package graph

// blasName is the BLAS behind Gorgonia's matrix products: gonum's pure Go
// by default, OpenBLAS when built with the blas tag.
var blasName = "gonum"

// BLAS names the BLAS implementation the engine's matrix products use:
// "gonum" (pure Go, the default) or "openblas" (built with -tags blas).
func BLAS() string { return blasName }
