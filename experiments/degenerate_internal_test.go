package experiments

import (
	"math"
	"testing"
)

// logitsWithSD returns logits whose probabilities alternate 0.5 ± sd over n
// rows: a population standard deviation of sd.
func logitsWithSD(n int, sd float64) []float64 {
	z := make([]float64, n)
	for i := range z {
		p := 0.5 + sd
		if i%2 == 1 {
			p = 0.5 - sd
		}
		z[i] = math.Log(p / (1 - p))
	}
	return z
}

func TestScoreSpreadFlags(t *testing.T) {
	cases := []struct {
		sd                      float64
		collapsed, nearConstant bool
	}{
		{0, true, true},
		{1e-7, true, true},
		{2e-6, false, true}, // varies, but barely: not collapsed, near-constant
		{5e-4, false, true},
		{2e-3, false, false},
		{0.2, false, false},
	}
	for _, tc := range cases {
		got := scoreSD(logitsWithSD(1000, tc.sd))
		if math.Abs(got-tc.sd) > 1e-8 { // the one-pass variance loses some digits near 0
			t.Errorf("sd %g: scoreSD = %g", tc.sd, got)
		}
		if (got < collapsedSD) != tc.collapsed || (got < nearConstantSD) != tc.nearConstant {
			t.Errorf("sd %g: collapsed %v near-constant %v, want %v %v", tc.sd, got < collapsedSD, got < nearConstantSD, tc.collapsed, tc.nearConstant)
		}
	}
}

func TestConstRisk(t *testing.T) {
	// Training rows: 3 of 4 positive (the rows trained on and the validation
	// part together); test rows: 1 of 2 positive.
	base := baseRate([]float64{1, 1, 0}, []float64{1})
	if base != 0.75 {
		t.Fatalf("base rate %g, want 0.75", base)
	}
	want := -(math.Log(0.75) + math.Log(0.25)) / 2
	if got := constRisk([]float64{1, 0}, base); math.Abs(got-want) > 1e-15 {
		t.Errorf("constRisk = %g, want %g", got, want)
	}
	// A training split of one class gives a finite risk.
	if got := constRisk([]float64{1, 0}, baseRate([]float64{0, 0})); math.IsInf(got, 0) || math.IsNaN(got) || got < 17 {
		t.Errorf("constRisk at base rate 0 = %g, want finite and large", got)
	}
}
