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

// Affine gives AffinePlain's result bit for bit, at every width around the
// 32- and 4-column blocks, for any number of inputs, signed zeros and
// infinities included.
func TestAffine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1)}
	draw := func(s []float64) {
		for i := range s {
			s[i] = rng.NormFloat64()
			if rng.IntN(20) == 0 {
				s[i] = special[rng.IntN(len(special))]
			}
		}
	}
	for _, in := range []int{0, 1, 2, 7, 32, 93} {
		for n := 0; n <= 70; n++ {
			x, b, w := make([]float64, in), make([]float64, n), make([]float64, in*n)
			draw(x)
			draw(b)
			draw(w)
			got, want := make([]float64, n), make([]float64, n)
			Affine(got, b, x, w)
			AffinePlain(want, b, x, w)
			for i := range got { // NaN payloads may differ; every NaN is the same answer
				if math.IsNaN(got[i]) && math.IsNaN(want[i]) {
					got[i], want[i] = 0, 0
				}
			}
			if !sameBits(got, want) {
				t.Fatalf("%d inputs, %d outputs: %v, want %v", in, n, got, want)
			}
		}
	}
}

func BenchmarkAffine(b *testing.B) {
	x, bias, w, o := make([]float64, 32), make([]float64, 32), make([]float64, 32*32), make([]float64, 32)
	for i := range w {
		w[i] = float64(i%7) - 3
	}
	for _, c := range []struct {
		name string
		f    func(o, b, x, w []float64)
	}{{"vector", Affine}, {"plain", AffinePlain}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				c.f(o, bias, x, w)
			}
		})
	}
}
