package pareto

import (
	"math"
	"slices"
)

// BenjaminiHochberg returns the Benjamini–Hochberg q-value of each of the
// p-values p, tested together as one family: q of the i-th smallest of m
// p-values is the smallest m·p₍ⱼ₎/j over j ≥ i, capped at 1. A test whose
// q is below α is a discovery at false discovery rate α (the step-up
// procedure of Benjamini and Hochberg, 1995, valid for independent or
// positively dependent tests). A NaN p-value gives a NaN q and does not
// count among the m tests.
func BenjaminiHochberg(p []float64) []float64 {
	q := make([]float64, len(p))
	var order []int
	for i, v := range p {
		if math.IsNaN(v) {
			q[i] = math.NaN()
			continue
		}
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	m := float64(len(order))
	running := 1.0
	for k := len(order) - 1; k >= 0; k-- {
		i := order[k]
		running = math.Min(running, m*p[i]/float64(k+1))
		q[i] = running
	}
	return q
}
