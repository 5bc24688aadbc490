//go:build blas

package backprop

/*
#cgo LDFLAGS: -lopenblas
void openblas_set_num_threads(int num_threads);
*/
import "C"

import (
	"os"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

// With the blas build tag, the wide matrix products that fp's own kernel
// does not take (CPUs without AVX2 and FMA, or the noasm tag) are whole
// Dgemm calls into OpenBLAS through cgo (gonum.org/v1/netlib): one call per
// product, as each crossing into C costs more than a row's worth of work. It needs cgo
// and OpenBLAS (Debian: libopenblas-dev); the default build needs neither.
// OpenBLAS is held to one thread unless OPENBLAS_NUM_THREADS says otherwise,
// since trainers run in goroutines of their own.
func init() {
	if os.Getenv("OPENBLAS_NUM_THREADS") == "" {
		C.openblas_set_num_threads(1)
	}
	blas64.Use(netlib.Implementation{})
	blasName = "openblas"
	wholeGemm = true
}
