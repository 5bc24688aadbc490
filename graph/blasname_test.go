//go:build !blas

package graph

import "testing"

func TestBLASNameDefault(t *testing.T) {
	if BLAS() != "gonum" {
		t.Errorf("BLAS() = %q in the default build, want gonum", BLAS())
	}
}
