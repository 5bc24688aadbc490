package backprop_test

import (
	"testing"

	"github.com/fpareto/fp/backprop"
)

// TestBLASName checks which BLAS the build uses: OpenBLAS exactly when built
// with the blas tag (blasTag is set per build in blastag*_test.go).
func TestBLASName(t *testing.T) {
	want := "gonum"
	if blasTag {
		want = "openblas"
	}
	if got := backprop.BLAS(); got != want {
		t.Errorf("BLAS() = %q, want %q", got, want)
	}
}
