//go:build blas

package graph

import "testing"

func TestBLASNameOpenBLAS(t *testing.T) {
	if BLAS() != "openblas" {
		t.Errorf("BLAS() = %q with the blas tag, want openblas", BLAS())
	}
}
