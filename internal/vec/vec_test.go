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

// MaskEntriesPlain's entries read the bits its documentation names, at
// every length around its block of 12 and thresholds at the ends of the
// range.
func TestMaskEntriesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 40; n++ {
		words := make([]uint64, (n+11)/12*4)
		for i := range words {
			words[i] = rng.Uint64()
		}
		for _, th := range []uint64{0, 1, 419431, 1 << 20, 1<<21 - 1, 1 << 21} {
			got := make([]float64, n)
			MaskEntriesPlain(got, words, th, 1.25)
			for i := range got {
				v := words[4*(i/12)+i%4] >> (21 * (i % 12 / 4)) & (1<<21 - 1)
				rule := 1.25
				if v < th {
					rule = 0
				}
				if math.Float64bits(got[i]) != math.Float64bits(rule) {
					t.Fatalf("n = %d, t = %d, entry %d: %v, rule %v", n, th, i, got[i], rule)
				}
			}
		}
	}
}

// Adam gives AdamPlain's parameters and moments bit for bit at lengths
// around its block of 4, with zero and tiny gradients and moments.
func TestAdam(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 0; n <= 13; n++ {
		fill := func() []float64 {
			s := make([]float64, n)
			for i := range s {
				switch rng.IntN(6) {
				case 0:
					s[i] = 0
				case 1:
					s[i] = 1e-300
				default:
					s[i] = rng.NormFloat64()
				}
			}
			return s
		}
		p, g, m, v := fill(), fill(), fill(), fill()
		for i := range v {
			v[i] = math.Abs(v[i])
		}
		p2, m2, v2 := append([]float64(nil), p...), append([]float64(nil), m...), append([]float64(nil), v...)
		for step := 0; step < 3; step++ {
			Adam(p, g, m, v, 0.9, 0.999, 1e-3/0.271, 0.0447, 1e-8)
			AdamPlain(p2, g, m2, v2, 0.9, 0.999, 1e-3/0.271, 0.0447, 1e-8)
		}
		for i := range p {
			if math.Float64bits(p[i]) != math.Float64bits(p2[i]) || math.Float64bits(m[i]) != math.Float64bits(m2[i]) || math.Float64bits(v[i]) != math.Float64bits(v2[i]) {
				t.Fatalf("n = %d, entry %d: p m v %v %v %v, plain %v %v %v", n, i, p[i], m[i], v[i], p2[i], m2[i], v2[i])
			}
		}
	}
}

// MaskSplitMix gives MaskSplitMixPlain's masks bit for bit at lengths
// around its block of 12 and its plain chunk of 768, and word j is
// SplitMix64's output after j+1 increments.
func TestMaskSplitMix(t *testing.T) {
	seeds := []uint64{0, 1, 0xdeadbeefcafef00d, ^uint64(0)}
	for _, n := range []int{0, 1, 11, 12, 13, 24, 767, 768, 769, 1800, 2000} {
		for _, seed := range seeds {
			got, want := make([]float64, n), make([]float64, n)
			MaskSplitMix(got, seed, 419431, 1.25)
			MaskSplitMixPlain(want, seed, 419431, 1.25)
			words := make([]uint64, (n+11)/12*4)
			s := seed
			for j := range words {
				s += 0x9e3779b97f4a7c15
				z := (s ^ s>>30) * 0xbf58476d1ce4e5b9
				z = (z ^ z>>27) * 0x94d049bb133111eb
				words[j] = z ^ z>>31
			}
			rule := make([]float64, n)
			MaskEntriesPlain(rule, words, 419431, 1.25)
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) || want[i] != rule[i] {
					t.Fatalf("n = %d, seed %#x, entry %d: %v, plain %v, rule %v", n, seed, i, got[i], want[i], rule[i])
				}
			}
		}
	}
}
