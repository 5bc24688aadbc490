package model

import (
	"math/rand/v2"
	"testing"
)

// FillMask draws the masks of the plain rule: 0 where Float64() < p.
func TestFillMaskIsThePlainRule(t *testing.T) {
	for _, p := range []float64{0.2, 0.5, 0.3, 1e-9, 0.999999, 0.1 + 0.2} {
		got := make([]float64, 20000)
		FillMask(rand.New(rand.NewPCG(4, 2)), got, p)
		rng := rand.New(rand.NewPCG(4, 2))
		keep, zeros := 1/(1-p), 0
		for i, v := range got {
			want := keep
			if rng.Float64() < p {
				want = 0
				zeros++
			}
			if v != want {
				t.Fatalf("p = %g, entry %d: %v, want %v", p, i, v, want)
			}
		}
		if p == 0.5 && (zeros < 9500 || zeros > 10500) {
			t.Errorf("p = 0.5: %d zeros of 20000", zeros)
		}
	}
}
