package fairness

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// atoCase is the hand-worked example used by the ATO and Evaluate tests:
//
//	p = 0.1  0.2  0.2  0.3  0.5  0.6
//	a = 0    0    1    1    1    0
//	e = 0.5  0.5  0.25 0.25 0.75 0.5
//	w = 0.5  0.5  0.75 0.75 0.25 0.5   (w = 1−e if a = 1, else e)
//
// a = 1: Σw = 1.75, Σw·p = 0.75·0.2 + 0.75·0.3 + 0.25·0.5 = 0.5 → mean 2/7
// a = 0: Σw = 1.5,  Σw·p = 0.5·(0.1 + 0.2 + 0.6) = 0.45      → mean 0.3
// τ̂ = 2/7 − 3/10 = −1/70.
var (
	atoP = []float64{0.1, 0.2, 0.2, 0.3, 0.5, 0.6}
	atoA = []float64{0, 0, 1, 1, 1, 0}
	atoE = []float64{0.5, 0.5, 0.25, 0.25, 0.75, 0.5}
)

const atoTau = -1.0 / 70

func TestATOHandWorked(t *testing.T) {
	z := zOf(atoA)
	w := make([]float64, len(atoA))
	if err := OverlapWeights(atoE, 2, z, w); err != nil {
		t.Fatal(err)
	}
	got, err := ATO(atoP, z, w)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-math.Abs(atoTau)) > 1e-15 {
		t.Errorf("ATO = %.17g, want |−1/70| = %.17g", got, -atoTau)
	}
	signed, err := ATOVec(atoP, len(atoP), 1, z, w)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(signed[0]-atoTau) > 1e-15 {
		t.Errorf("ATOVec = %.17g, want −1/70 = %.17g", signed[0], atoTau)
	}
}

// ATOVec must give, unit by unit, what ATO gives on each column.
func TestATOVecMatchesColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, k = 50, 3
	o := make([]float64, n*k)
	a := make([]int, n)
	w := make([]float64, n)
	for i := range n {
		a[i] = i % 2
		w[i] = rng.Float64()
		for j := range k {
			o[i*k+j] = rng.NormFloat64()
		}
	}
	got, err := ATOVec(o, n, k, a, w)
	if err != nil {
		t.Fatal(err)
	}
	col := make([]float64, n)
	for j := range k {
		for i := range n {
			col[i] = o[i*k+j]
		}
		want, err := ATO(col, a, w)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(math.Abs(got[j])-want) > 1e-14 {
			t.Errorf("unit %d: |ATOVec| %.17g, ATO %.17g", j, math.Abs(got[j]), want)
		}
	}
}

// τ̂ is a ratio of weighted sums, so scaling every weight by one factor
// leaves it unchanged.
func TestATOWeightScaleInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		n := 2 + rng.IntN(40)
		o, a, w := make([]float64, n), make([]int, n), make([]float64, n)
		for i := range n {
			o[i] = rng.Float64()
			a[i] = rng.IntN(2)
			w[i] = rng.Float64()
		}
		a[0], a[1] = 0, 1
		base, err := ATO(o, a, w)
		if err != nil {
			t.Fatal(err)
		}
		c := math.Exp(rng.NormFloat64() * 5)
		ws := make([]float64, n)
		for i := range w {
			ws[i] = c * w[i]
		}
		scaled, err := ATO(o, a, ws)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(scaled-base) > 1e-12*(1+math.Abs(base)) {
			t.Errorf("trial %d: weights ×%g changed τ̂ from %.17g to %.17g", trial, c, base, scaled)
		}
	}
}

func TestATOErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		o, w   []float64
		z      []int
		want   string
		vecToo bool // ATOVec refuses it too
	}{
		{"lengths", []float64{1, 2}, []float64{1}, []int{0, 1}, "equal lengths", true},
		{"one group", []float64{1, 2}, []float64{1, 1}, []int{0, 0}, "1 group, want at least 2", true},
		{"group 0 weightless", []float64{1, 2}, []float64{0, 1}, []int{0, 1}, "group 0 has zero total weight", true},
		{"negative weight", []float64{1, 2}, []float64{-1, 1}, []int{0, 1}, "example 0: weight -1", true},
		{"NaN weight", []float64{1, 2}, []float64{1, math.NaN()}, []int{0, 1}, "example 1: weight NaN", true},
		{"NaN outcome", []float64{math.NaN(), 2}, []float64{1, 1}, []int{0, 1}, "example 0: outcome NaN", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ATO(tc.o, tc.z, tc.w)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ATO error %v, want one containing %q", err, tc.want)
			}
			if tc.vecToo {
				if _, err := ATOVec(tc.o, len(tc.o), 1, tc.z, tc.w); err == nil {
					t.Errorf("ATOVec accepted the input")
				}
			}
		})
	}
	if _, err := ATOVec([]float64{1, 2, 3}, 2, 2, []int{0, 1}, []float64{1, 1}); err == nil {
		t.Error("ATOVec accepted 3 values for a 2×2 outcome")
	}
	// The signed contrast is of groups 0 and 1 only; ATO compares any labels.
	if _, err := ATOVec([]float64{1, 2}, 2, 1, []int{0, 2}, []float64{1, 1}); err == nil || !strings.Contains(err.Error(), "example 1: group 2") {
		t.Errorf("ATOVec on labels 0 and 2: error %v, want one naming example 1", err)
	}
	if got, err := ATO([]float64{1, 2}, []int{0, 2}, []float64{1, 1}); err != nil || got != 1 {
		t.Errorf("ATO on labels 0 and 2 = %v (%v), want 1", got, err)
	}
}
