package pareto

import (
	"math"
	"testing"
)

// The q-values are checked against an independent computation: numpy's
// step-up of the sorted p-values (m·p₍ⱼ₎/j, then the running minimum from
// the largest), worked by hand here as fractions.
func TestBenjaminiHochberg(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		p    []float64
		want []float64
	}{
		{"one test is its own q", []float64{0.03}, []float64{0.03}},
		{"eight tests, ties and a 1",
			[]float64{0.01, 0.04, 0.03, 0.2, 0.005, 0.04, 1.0, 0.0002},
			// sorted: 0.0002, 0.005, 0.01, 0.03, 0.04, 0.04, 0.2, 1 → 8p/j:
			// 0.0016, 0.02, 0.08/3, 0.06, 0.064, 0.32/6, 1.6/7, 1; the running
			// minimum from the end lowers 0.06 and 0.064 to 0.32/6.
			[]float64{0.08 / 3, 0.32 / 6, 0.32 / 6, 1.6 / 7, 0.02, 0.32 / 6, 1, 0.0016}},
		{"capped at 1", []float64{0.9, 0.8}, []float64{0.9, 0.9}},
		{"NaN left out of the family", []float64{0.01, nan, 0.04}, []float64{0.02, nan, 0.04}},
		{"none", nil, []float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := BenjaminiHochberg(tc.p)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if math.IsNaN(tc.want[i]) != math.IsNaN(got[i]) || math.Abs(got[i]-tc.want[i]) > 1e-12 {
					t.Errorf("q[%d] = %v, want %v (all: %v)", i, got[i], tc.want[i], got)
				}
			}
		})
	}
}
