package propensity

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// drawGroups returns n rows of R logits u ~ N(0, sd²) and groups drawn from
// softmax(u/T0).
func drawGroups(rng *rand.Rand, n, groups int, sd, T0 float64) (u []float64, a []int) {
	u, a = make([]float64, n*groups), make([]int, n)
	p := make([]float64, groups)
	for i := range a {
		row := u[i*groups : (i+1)*groups]
		for r := range row {
			row[r] = sd * rng.NormFloat64()
		}
		SoftmaxInto(p, row, 1/T0)
		v, c := rng.Float64(), 0.0
		a[i] = groups - 1
		for r, q := range p {
			if c += q; v < c {
				a[i] = r
				break
			}
		}
	}
	return u, a
}

// TestFitSoftmaxTemperatureCalibrates: a model that reports logits u while
// the groups are drawn from softmax(u/T0) is miscalibrated (overconfident
// for T0 > 1, underconfident below); the fitted T recovers T0 within 10%,
// lowers the held-out NLL below T = 1's and beats every point of a grid.
func TestFitSoftmaxTemperatureCalibrates(t *testing.T) {
	for _, T0 := range []float64{0.4, 2.5, 4} {
		rng := rand.New(rand.NewPCG(11, uint64(T0*10)))
		z, a := drawGroups(rng, 5000, 4, 2, T0)
		T, err := FitSoftmaxTemperature(z, 4, a)
		if err != nil {
			t.Fatal(err)
		}
		before, after := SoftmaxNLL(z, 4, a, 1), SoftmaxNLL(z, 4, a, T)
		t.Logf("T0 = %g: fitted %.3f, NLL %.4f → %.4f", T0, T, before, after)
		if math.Abs(T-T0) > 0.1*T0 {
			t.Errorf("true T = %g: fitted %g", T0, T)
		}
		if !(after < before-1e-3) {
			t.Errorf("true T = %g: NLL %g at T = %g, %g at T = 1: not lowered", T0, after, T, before)
		}
		// No temperature of a fine grid does better.
		for k := 0; k <= 200; k++ {
			g := math.Exp(math.Log(MinT) + float64(k)/200*(math.Log(MaxT)-math.Log(MinT)))
			if v := SoftmaxNLL(z, 4, a, g); v < after-1e-12 {
				t.Errorf("NLL(%g) = %.15g < NLL(fitted %g) = %.15g", g, v, T, after)
			}
		}
	}
}

// TestFitSoftmaxTemperatureTwoGroupsIsBinary: with logits (0, z) two groups
// are the binary model, so both fits and both NLLs agree.
func TestFitSoftmaxTemperatureTwoGroupsIsBinary(t *testing.T) {
	for _, tc := range []struct {
		sd, T0 float64
	}{{3, 0.5}, {2, 1.7}, {1, 4}} {
		z, a := drawLabels(rand.New(rand.NewPCG(3, uint64(tc.T0*10))), 3000, tc.sd, tc.T0)
		zz, ga := make([]float64, 2*len(z)), make([]int, len(z))
		for i, v := range z {
			zz[2*i+1] = v
			ga[i] = int(a[i])
		}
		want, err := FitTemperature(z, a)
		if err != nil {
			t.Fatal(err)
		}
		got, err := FitSoftmaxTemperature(zz, 2, ga)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("sd %g, T0 %g: softmax T %.15g, binary T %.15g", tc.sd, tc.T0, got, want)
		}
		if d := SoftmaxNLL(zz, 2, ga, got) - NLL(z, a, want); math.Abs(d) > 1e-12 {
			t.Errorf("NLLs differ by %g", d)
		}
	}
}

func TestFitSoftmaxTemperatureEdges(t *testing.T) {
	for _, tc := range []struct {
		name string
		z    []float64
		a    []int
		want float64
	}{
		// Every row's logits equal: the NLL does not depend on T.
		{"flat", []float64{1, 1, 1, -2, -2, -2}, []int{0, 2}, 1},
		// The largest logit is always the row's group: sharper is better.
		{"separable", []float64{5, 0, 0, 0, 4, 1, 0, 1, 3}, []int{0, 1, 2}, MinT},
		// The smallest logit is always the row's group.
		{"anti-informative", []float64{-5, 0, 0, 0, -4, 1, 0, 1, -3}, []int{0, 1, 2}, MaxT},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FitSoftmaxTemperature(tc.z, 3, tc.a)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("T = %g, want %g", got, tc.want)
			}
		})
	}
}

func TestFitSoftmaxTemperatureInvalid(t *testing.T) {
	for _, tc := range []struct {
		name   string
		z      []float64
		groups int
		a      []int
		want   string
	}{
		{"one group", []float64{1, 2}, 1, []int{0, 0}, "1 groups, want ≥ 2"},
		{"empty", nil, 3, nil, "no logits"},
		{"shape", []float64{1, 2, 3, 4}, 3, []int{0, 1}, "4 logits for 2 rows of 3 groups"},
		{"code", []float64{1, 2, 3, 4, 5, 6}, 3, []int{0, 3}, "row 1: group 3, want a code in 0…2"},
		{"nan", []float64{1, 2, 3, 4, math.NaN(), 6}, 3, []int{0, 1}, "row 1, logit 1 is NaN"},
		{"inf", []float64{1, 2, math.Inf(-1), 4, 5, 6}, 3, []int{0, 1}, "row 0, logit 2 is -Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := FitSoftmaxTemperature(tc.z, tc.groups, tc.a); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
