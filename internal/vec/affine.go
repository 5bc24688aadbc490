package vec

// AffinePlain is Affine's plain loop: o = b, then o[j] += x[k]·w[k·len(o)+j]
// for each k in order.
func AffinePlain(o, b, x, w []float64) {
	affineTail(o, b, x, w, 0)
}

// affineTail is AffinePlain for the columns from j0 on.
func affineTail(o, b, x, w []float64, j0 int) {
	n := len(o)
	copy(o[j0:], b[j0:n])
	for k, v := range x {
		row := w[k*n : (k+1)*n]
		for j := j0; j < n; j++ {
			o[j] += v * row[j]
		}
	}
}
