package vec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The vector kernels give what the plain loops give, bit for bit, at every
// length around their block sizes, for signed zeros, NaNs and infinities.
func TestLoops(t *testing.T) {
	if !Have {
		t.Skip("no vector kernels on this CPU or build")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1, -1}
	for n := 0; n <= 19; n++ {
		a, b := make([]float64, n), make([]float64, n)
		for i := range a {
			a[i], b[i] = rng.NormFloat64(), rng.NormFloat64()
			if rng.IntN(3) == 0 {
				a[i] = special[rng.IntN(len(special))]
			}
			if rng.IntN(3) == 0 {
				b[i] = special[rng.IntN(len(special))]
			}
		}
		for _, s := range []float64{0, math.Copysign(0, -1), 0.5, math.NaN()} {
			got, want := make([]float64, n), make([]float64, n)
			GE(got, a, s)
			for i, v := range a {
				want[i] = ge(v, s)
			}
			if !sameBits(got, want) {
				t.Fatalf("n=%d: %v ≥ %v gave %v, want %v", n, a, s, got, want)
			}
		}
		for _, c := range []struct {
			name string
			asm  func(o, a, b []float64)
			op   func(x, y float64) float64
		}{
			{"mul", Mul, func(x, y float64) float64 { return x * y }},
			{"add", Add, func(x, y float64) float64 { return x + y }},
		} {
			got, want := make([]float64, n), make([]float64, n)
			c.asm(got, a, b)
			for i := range a {
				want[i] = c.op(a[i], b[i])
			}
			for i := range got {
				if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Fatalf("n=%d %s: element %d is %v, want %v", n, c.name, i, got[i], want[i])
				}
			}
		}
	}
}

func ge(a, s float64) float64 {
	if a >= s {
		return 1
	}
	return 0
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
