//go:build blas

package graph

/*
#cgo LDFLAGS: -lopenblas
void openblas_set_num_threads(int num_threads);
*/
import "C"

import (
	"os"

	"gonum.org/v1/netlib/blas/netlib"
	G "gorgonia.org/gorgonia"
)

// With the blas build tag, Gorgonia's matrix products go to OpenBLAS through
// cgo (gonum.org/v1/netlib) rather than gonum's pure-Go BLAS: the products
// the fast paths leave to Gorgonia, and all wide ones on CPUs without fp's
// own kernel (or with the noasm tag), which takes them where it runs. It
// needs cgo and OpenBLAS (Debian: libopenblas-dev); the default build needs
// neither. Trainers run in goroutines of their own, so OpenBLAS is held to
// one thread unless OPENBLAS_NUM_THREADS says otherwise.
func init() {
	if os.Getenv("OPENBLAS_NUM_THREADS") == "" {
		C.openblas_set_num_threads(1)
	}
	G.Use(netlib.Implementation{})
	blasName = "openblas"
}
