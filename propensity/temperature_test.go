package propensity

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
)

// drawLabels returns n logits z ~ N(0, sd²) and labels a ~ Bernoulli(sigmoid(z/T)).
func drawLabels(rng *rand.Rand, n int, sd, T float64) (z, a []float64) {
	z, a = make([]float64, n), make([]float64, n)
	for i := range z {
		z[i] = sd * rng.NormFloat64()
		if rng.Float64() < model.Sigmoid(z[i]/T) {
			a[i] = 1
		}
	}
	return z, a
}

// TestFitTemperatureRecoversTrueT: labels drawn from sigmoid(z/T₀) give back
// T₀. With n = 20000 and z ~ N(0, 3²) the relative standard error of the
// estimate is at most about 2% over the T₀ tested (worst of 200 seeds: 6.4%),
// so a tolerance of 10% of T₀ holds with margin for any seed.
func TestFitTemperatureRecoversTrueT(t *testing.T) {
	for _, T0 := range []float64{0.5, 1, 2, 4} {
		rng := rand.New(rand.NewPCG(7, uint64(T0*100)))
		z, a := drawLabels(rng, 20000, 3, T0)
		T, err := FitTemperature(z, a)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(T-T0) > 0.1*T0 {
			t.Errorf("true T = %g: fitted %g", T0, T)
		}
	}
}

// TestFitTemperatureIsMinimiser checks the answer against an independent
// search: it is no worse than every point of a fine grid in log T, the slope
// vanishes there, and nearby temperatures are worse.
func TestFitTemperatureIsMinimiser(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	z, a := drawLabels(rng, 3000, 2, 1.7)
	T, err := FitTemperature(z, a)
	if err != nil {
		t.Fatal(err)
	}
	best := NLL(z, a, T)
	for k := 0; k <= 4000; k++ {
		g := math.Exp(math.Log(MinT) + float64(k)/4000*(math.Log(MaxT)-math.Log(MinT)))
		if v := NLL(z, a, g); v < best-1e-12 {
			t.Fatalf("NLL(%g) = %.15g < NLL(fitted T = %g) = %.15g", g, v, T, best)
		}
	}
	// Central finite difference of NLL in T at the answer.
	h := 1e-5 * T
	if d := (NLL(z, a, T+h) - NLL(z, a, T-h)) / (2 * h); math.Abs(d) > 1e-7 {
		t.Errorf("dNLL/dT at fitted T = %g is %g, want ≈ 0", T, d)
	}
	for _, f := range []float64{0.99, 1.01} {
		if NLL(z, a, T*f) <= best {
			t.Errorf("NLL(%g·T) = %.15g is not above NLL(T) = %.15g", f, NLL(z, a, T*f), best)
		}
	}
}

// TestFitTemperatureScaleEquivariant: scaling every logit by c scales the
// optimal temperature by c (NLL depends on z/T only).
func TestFitTemperatureScaleEquivariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	z, a := drawLabels(rng, 2000, 1.5, 1.3)
	T1, err := FitTemperature(z, a)
	if err != nil {
		t.Fatal(err)
	}
	const c = 3.0
	zc := make([]float64, len(z))
	for i, v := range z {
		zc[i] = c * v
	}
	Tc, err := FitTemperature(zc, a)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(Tc-c*T1) > 1e-9*Tc {
		t.Errorf("T(%g·z) = %.12g, want %g·T(z) = %.12g", c, Tc, c, c*T1)
	}
}

// TestFitTemperatureEdges covers the cases whose minimum is not interior.
func TestFitTemperatureEdges(t *testing.T) {
	for _, tc := range []struct {
		name string
		z, a []float64
		want float64
	}{
		// Every label on the side of its logit's sign: the NLL falls
		// monotonically as T → 0, so the lower edge is returned.
		{"separable", []float64{-3, -1, -0.2, 0.5, 1, 2}, []float64{0, 0, 0, 1, 1, 1}, MinT},
		// Every label on the wrong side: the best positive T is infinite.
		{"anti-separable", []float64{-2, -1, 1, 2}, []float64{1, 1, 0, 0}, MaxT},
		// Logits all zero: the NLL is log 2 whatever T is.
		{"constant", []float64{0, 0, 0}, []float64{0, 1, 1}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			T, err := FitTemperature(tc.z, tc.a)
			if err != nil {
				t.Fatal(err)
			}
			if T != tc.want {
				t.Errorf("T = %g, want %g", T, tc.want)
			}
			if math.IsNaN(NLL(tc.z, tc.a, T)) {
				t.Errorf("NLL at T = %g is NaN", T)
			}
		})
	}
}

func TestFitTemperatureInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		z, a []float64
		want string
	}{
		{"empty", nil, nil, "no logits"},
		{"lengths", []float64{1, 2}, []float64{1}, "2 logits but 1 labels"},
		{"label", []float64{1, 2}, []float64{1, 0.5}, "label 1 is 0.5"},
		{"nan", []float64{1, math.NaN()}, []float64{1, 0}, "logit 1 is NaN"},
		{"inf", []float64{math.Inf(-1), 1}, []float64{1, 0}, "logit 0 is -Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitTemperature(tc.z, tc.a)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestNLL compares the stable NLL with the naive formula where the latter is exact enough.
func TestNLL(t *testing.T) {
	z := []float64{-2, -0.5, 0, 1, 3}
	a := []float64{0, 1, 1, 0, 1}
	const T = 1.5
	var want float64
	for i, v := range z {
		p := 1 / (1 + math.Exp(-v/T))
		want -= a[i]*math.Log(p) + (1-a[i])*math.Log(1-p)
	}
	want /= float64(len(z))
	if got := NLL(z, a, T); math.Abs(got-want) > 1e-14 {
		t.Errorf("NLL = %.16g, want %.16g", got, want)
	}
	// Far in the tails the stable form stays finite and ≈ |z|/T.
	if got := NLL([]float64{-800}, []float64{1}, 1); math.Abs(got-800) > 1e-9 {
		t.Errorf("NLL(z = −800, a = 1) = %g, want 800", got)
	}
}

// BenchmarkFitTemperature: a calibration set the size of Adult's (20% of a
// 24k-row training split).
func BenchmarkFitTemperature(b *testing.B) {
	z, a := drawLabels(rand.New(rand.NewPCG(1, 1)), 4800, 2, 1.5)
	for b.Loop() {
		if _, err := FitTemperature(z, a); err != nil {
			b.Fatal(err)
		}
	}
}
