package fairness

import (
	"fmt"
	"math"
)

// OverlapWeights writes the overlap weights of docs/method.md §3 into w,
// for n examples in the groups z (codes 0 … r−1, r ≥ 2) with the
// propensities e. They are the generalised overlap weights of
// docs/method.md §3.2 (Li & Li 2019),
//
//	w_i = h_i / e_{z_i,i},  h_i = 1 / Σ_r 1/e_{r,i},
//
// where e is the row-major n×r matrix of propensities, row i holding
// P(group = k | x_i) for k = 0 … r−1; each row should sum to 1. The weight
// is computed as 1 / Σ_r e_{z_i,i}/e_{r,i}, the same number without forming
// 1/e: it is 1 when e_{z_i,i} = 0 and every other propensity is positive
// (the limit), and 0 when another group's propensity is 0 (h_i = 0).
//
// Two groups are the special case r = 2, where h/e_{z_i} is the other
// group's propensity. There e may instead hold one propensity per example,
// the propensity score ê_i = P(z = 1 | x_i) of a binary attribute, and the
// weights are then w_i = 1 − ê_i in group 1 and ê_i in group 0, as written.
//
// Propensities outside [0, 1] or not finite, groups outside [0, r) and
// mismatched lengths are errors naming the first offending example.
func OverlapWeights(e []float64, r int, z []int, w []float64) error {
	n := len(z)
	if r < 2 {
		return fmt.Errorf("overlap weights: %d groups, want at least 2", r)
	}
	score := r == 2 && len(e) == n // one propensity score per example
	if (!score && len(e) != n*r) || len(w) != n {
		return fmt.Errorf("overlap weights: %d propensities, %d groups and %d weights: want %d×%d, %d and %d",
			len(e), n, len(w), n, r, n, n)
	}
	for i, g := range z {
		if g < 0 || g >= r {
			return fmt.Errorf("overlap weights: example %d: group %d, want 0 … %d", i, g, r-1)
		}
		if score {
			if v := e[i]; !(v >= 0 && v <= 1) {
				return fmt.Errorf("overlap weights: example %d: propensity %v, want a number in [0, 1]", i, v)
			}
			if g == 1 {
				w[i] = 1 - e[i]
			} else {
				w[i] = e[i]
			}
			continue
		}
		row := e[i*r : (i+1)*r]
		for k, v := range row {
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("overlap weights: example %d: propensity of group %d is %v, want a number in [0, 1]", i, k, v)
			}
		}
		own := row[g]
		var sum float64 // Σ_r e_own/e_r, with the own term exactly 1
		for k, v := range row {
			switch {
			case k == g:
				sum++
			case v == 0:
				sum = math.Inf(1)
			default:
				sum += own / v
			}
		}
		w[i] = 1 / sum
	}
	return nil
}

// Contrast writes the signed ATO contrast vector of two groups into
// c[:len(a)], so that for any outcome o, τ̂(o) = Σ c_i o_i is the
// overlap-weighted mean of group 1 minus that of group 0 (a_i = 1 marks
// group 1):
//
//	c_i = a_i w_i / Σ a w − (1−a_i) w_i / Σ (1−a) w.
//
// It is the kernel of the binary ATO penalty, run on every training batch
// (whose attribute is a float column), hence its float a; ATO is the metric.
// Rows with w_i = 0 (padding) get c_i = 0. When either group has zero total
// weight the estimate is undefined: c is all zeros and ok is false, so a
// penalty built on c contributes 0 (docs/method.md §3).
func Contrast(a, w, c []float64) (ok bool) {
	var s1, s0 float64
	for i, ai := range a {
		if ai == 1 {
			s1 += w[i]
		} else {
			s0 += w[i]
		}
	}
	if !(s1 > 0 && s0 > 0) {
		for i := range a {
			c[i] = 0
		}
		return false
	}
	for i, ai := range a {
		if ai == 1 {
			c[i] = w[i] / s1
		} else {
			c[i] = -w[i] / s0
		}
	}
	return true
}
