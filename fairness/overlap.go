package fairness

// OverlapWeights writes the overlap weights of docs/method.md §3 into w:
// w_i = 1 − ê_i when a_i = 1, else ê_i.
func OverlapWeights(e, a, w []float64) {
	for i := range a {
		if a[i] == 1 {
			w[i] = 1 - e[i]
		} else {
			w[i] = e[i]
		}
	}
}

// Contrast writes the ATO contrast vector c into c[:len(a)], so that for any
// outcome o, τ̂(o) = Σ c_i o_i:
//
//	c_i = a_i w_i / Σ a w − (1−a_i) w_i / Σ (1−a) w.
//
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
