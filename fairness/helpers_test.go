package fairness

// zOf is the group labels of a 0/1 attribute, for the tests written with
// one (BinaryGroups, without its check).
func zOf(a []float64) []int {
	z := make([]int, len(a))
	for i, v := range a {
		z[i] = int(v)
	}
	return z
}

// wOf is the overlap weights of the propensity scores e of a binary
// attribute: 1 − e in group 1, e in group 0; nil for nil e.
func wOf(e, a []float64) []float64 {
	if e == nil {
		return nil
	}
	w := make([]float64, len(e))
	for i := range e {
		if a[i] == 1 {
			w[i] = 1 - e[i]
		} else {
			w[i] = e[i]
		}
	}
	return w
}
