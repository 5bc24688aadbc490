package backprop

// blasName is the BLAS behind the wide matrix products: gonum's pure Go
// implementation, or OpenBLAS with the blas build tag.
var blasName = "gonum"

// wholeGemm makes the wide products single Dgemm calls (right for OpenBLAS)
// rather than gonum's rank-1 updates over row blocks.
var wholeGemm = false

// BLAS names the BLAS implementation the wide matrix products use: "gonum"
// (the default, pure Go) or "openblas" (the blas build tag).
func BLAS() string { return blasName }
