//go:build amd64 && !noasm

package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The AVX-512 kernel gives the AVX2 kernel's results bit for bit, so that a
// run does not depend on which of the two the CPU has.
func TestKernelsAgreeBitForBit(t *testing.T) {
	if !have512 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, sh := range [][3]int{{4, 32, 93}, {1000, 32, 32}, {93, 32, 1000}, {9, 70, 40}, {6, 45, 33}} {
		rows, cols, k := sh[0], sh[1], sh[2]
		for _, trans := range []bool{false, true} {
			a := randSlice(rng, rows*k)
			rs, cs := k, 1
			if trans {
				rs, cs = 1, rows
			}
			b := randSlice(rng, k*cols)
			c512 := randSlice(rng, rows*cols)
			c256 := append([]float64(nil), c512...)
			Add(rows, cols, k, a, rs, cs, b, cols, c512, cols)
			have512 = false
			Add(rows, cols, k, a, rs, cs, b, cols, c256, cols)
			have512 = true
			for i := range c512 {
				if math.Float64bits(c512[i]) != math.Float64bits(c256[i]) {
					t.Fatalf("%v trans=%v: element %d is %v with AVX-512, %v with AVX2", sh, trans, i, c512[i], c256[i])
				}
			}
		}
	}
}
