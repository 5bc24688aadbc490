package fairness

import (
	"fmt"
	"math"
)

// ATO returns τ̂(o), the overlap-weighted difference of the mean outcome
// between the groups a = 1 and a = 0 (docs/method.md §3):
//
//	τ̂(o) = Σ a_i w_i o_i / Σ a_i w_i − Σ (1−a_i) w_i o_i / Σ (1−a_i) w_i.
//
// The result is signed; the metric of docs/method.md §7 is its absolute value. a must
// be 0 or 1, w finite and ≥ 0 (usually from OverlapWeights) and o finite. A
// group whose total weight is zero (absent, or every weight 0) makes τ̂
// undefined and is an error.
func ATO(o, a, w []float64) (float64, error) {
	if len(o) != len(a) || len(w) != len(a) {
		return 0, fmt.Errorf("ato: %d outcomes, %d groups and %d weights: want equal lengths", len(o), len(a), len(w))
	}
	s1, s0, err := groupWeights(a, w)
	if err != nil {
		return 0, err
	}
	var t1, t0 float64
	for i, ai := range a {
		if math.IsNaN(o[i]) || math.IsInf(o[i], 0) {
			return 0, fmt.Errorf("ato: example %d: outcome %v, want a finite number", i, o[i])
		}
		if ai == 1 {
			t1 += w[i] * o[i]
		} else {
			t0 += w[i] * o[i]
		}
	}
	return t1/s1 - t0/s0, nil
}

// ATOVec returns τ̂ of each of the k units of a vector outcome: o is the
// row-major n×k matrix whose row i is example i's outcome. |τ̂(o)| of docs/method.md §3
// is the sum of the absolute values of the result. The conditions of ATO
// apply.
func ATOVec(o []float64, n, k int, a, w []float64) ([]float64, error) {
	if n < 0 || k < 0 || len(o) != n*k {
		return nil, fmt.Errorf("ato: outcome of %d values, want %d×%d", len(o), n, k)
	}
	if len(a) != n || len(w) != n {
		return nil, fmt.Errorf("ato: %d rows, %d groups and %d weights: want equal lengths", n, len(a), len(w))
	}
	s1, s0, err := groupWeights(a, w)
	if err != nil {
		return nil, err
	}
	t1 := make([]float64, k)
	t0 := make([]float64, k)
	for i, ai := range a {
		row := o[i*k : (i+1)*k]
		t := t0
		if ai == 1 {
			t = t1
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("ato: example %d, unit %d: outcome %v, want a finite number", i, j, v)
			}
			t[j] += w[i] * v
		}
	}
	for j := range t1 {
		t1[j] = t1[j]/s1 - t0[j]/s0
	}
	return t1, nil
}

// groupWeights validates a and w and returns the total weight of each group.
func groupWeights(a, w []float64) (s1, s0 float64, err error) {
	for i, ai := range a {
		if ai != 0 && ai != 1 {
			return 0, 0, fmt.Errorf("ato: example %d: group %v, want 0 or 1", i, ai)
		}
		if !(w[i] >= 0) || math.IsInf(w[i], 0) {
			return 0, 0, fmt.Errorf("ato: example %d: weight %v, want a finite number ≥ 0", i, w[i])
		}
		if ai == 1 {
			s1 += w[i]
		} else {
			s0 += w[i]
		}
	}
	if !(s1 > 0) {
		return 0, 0, fmt.Errorf("ato: group a=1 has zero total weight: τ̂ is undefined")
	}
	if !(s0 > 0) {
		return 0, 0, fmt.Errorf("ato: group a=0 has zero total weight: τ̂ is undefined")
	}
	return s1, s0, nil
}
