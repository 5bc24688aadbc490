package backprop

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gemmTN44 gives gemmTN's results bit for bit, also with rows cut off by
// ReLU or dropout (all zero, some −0) that the other paths skip.
func TestGemmTN44IsTheRowSkippingProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 150} {
		a := make([]float64, n*4)
		d := make([]float64, n*4)
		for i := range a {
			a[i] = rng.NormFloat64()
			d[i] = rng.NormFloat64()
		}
		for i := 0; i < n; i++ {
			switch rng.IntN(3) {
			case 0: // a row cut off
				for j := 0; j < 4; j++ {
					d[i*4+j] = 0
					if rng.IntN(2) == 0 {
						d[i*4+j] = math.Copysign(0, -1)
					}
				}
			case 1: // some units cut off
				d[i*4+rng.IntN(4)] = 0
				a[i*4+rng.IntN(4)] = 0
			}
		}
		want := make([]float64, 16)
		for i := 0; i < n; i++ { // the generic m = 4 path
			r := d[i*4 : i*4+4]
			if r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 0 {
				continue
			}
			for kk, v := range a[i*4 : i*4+4] {
				for j := 0; j < 4; j++ {
					want[kk*4+j] += v * r[j]
				}
			}
		}
		got := make([]float64, 16)
		for i := range got {
			got[i] = math.NaN() // overwritten, not accumulated into
		}
		gemmTN44(got, a, n, d)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("n = %d, entry %d: %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}
