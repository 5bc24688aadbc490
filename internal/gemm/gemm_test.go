package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestGemmKern checks the kernel product against a plain triple loop for
// both layouts of A, with edges in every dimension, C accumulated into or
// overwritten.
func TestGemmKern(t *testing.T) {
	if !Have {
		t.Skip("no kernel on this CPU or build (the blas64 paths are tested by the engine tests)")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sh := range [][3]int{{1, 8, 1}, {4, 8, 3}, {5, 9, 7}, {13, 32, 93}, {93, 32, 1000}, {1000, 32, 32}, {7, 17, 5000}, {9, 70, 40}, {6, 45, 33}} {
		rows, cols, k := sh[0], sh[1], sh[2]
		for _, c := range []struct{ trans, set bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
			trans := c.trans
			set := c.set
			t.Run(fmt.Sprintf("%dx%dx%d/trans=%v/set=%v", rows, cols, k, trans, set), func(t *testing.T) {
				a := randSlice(rng, rows*k)
				rs, cs := k, 1
				if trans {
					rs, cs = 1, rows
				}
				ldb, ldc := cols+3, cols+1
				b := randSlice(rng, (k-1)*ldb+cols)
				c := randSlice(rng, (rows-1)*ldc+cols)
				want := append([]float64(nil), c...)
				for r := 0; r < rows && set; r++ {
					clear(want[r*ldc : r*ldc+cols])
				}
				for r := 0; r < rows; r++ {
					for j := 0; j < cols; j++ {
						var s float64
						for p := 0; p < k; p++ {
							s += a[r*rs+p*cs] * b[p*ldb+j]
						}
						want[r*ldc+j] += s
					}
				}
				if set {
					Set(rows, cols, k, a, rs, cs, b, ldb, c, ldc)
				} else {
					Add(rows, cols, k, a, rs, cs, b, ldb, c, ldc)
				}
				for i := range c {
					if r, j := i/ldc, i%ldc; j >= cols {
						if c[i] != want[i] {
							t.Fatalf("wrote outside the block at row %d column %d", r, j)
						}
						continue
					}
					if math.Abs(c[i]-want[i]) > 1e-12*math.Sqrt(float64(k))*(1+math.Abs(want[i])) {
						t.Fatalf("c[%d] = %.17g, want %.17g", i, c[i], want[i])
					}
				}
			})
		}
	}
}

func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rng.NormFloat64()
	}
	return s
}
