package fairness

import (
	"fmt"
	"math"
	"slices"
)

// ATO is the average treatment effect for the overlap population of an
// outcome o (docs/method.md §3 and §7) over the groups z (integer labels):
// the largest pairwise difference of the overlap-weighted group means of
// OverlapMeans,
//
//	max_{r,s} |m_r − m_s| = max_r m_r − min_r m_r.
//
// With two groups it is |τ̂(o)|, the absolute overlap-weighted difference of
// the mean outcome between group 1 and group 0,
//
//	τ̂(o) = Σ_{z_i=1} w_i o_i / Σ_{z_i=1} w_i − Σ_{z_i=0} w_i o_i / Σ_{z_i=0} w_i.
//
// w must be finite and ≥ 0 (usually from OverlapWeights) and o finite. It
// needs at least two groups; a group whose total weight is zero (every
// weight 0) makes its mean undefined and is an error, as are the other
// errors of OverlapMeans.
func ATO(o []float64, z []int, w []float64) (float64, error) {
	_, means, err := OverlapMeans(o, z, w)
	if err != nil {
		return 0, err
	}
	if len(means) < 2 {
		return 0, fmt.Errorf("ato: %d group, want at least 2 to compare", len(means))
	}
	return slices.Max(means) - slices.Min(means), nil
}

// OverlapMeans returns the overlap-weighted mean outcome of each group,
//
//	m_r = Σ_{i: z_i = r} w_i o_i / Σ_{i: z_i = r} w_i,
//
// with the groups' labels in increasing order. o must be finite, w finite
// and ≥ 0; a group whose total weight is 0 has no mean and is an error.
func OverlapMeans(o []float64, z []int, w []float64) (labels []int, means []float64, err error) {
	if len(o) != len(z) || len(w) != len(z) {
		return nil, nil, fmt.Errorf("ato: %d outcomes, %d groups and %d weights: want equal lengths", len(o), len(z), len(w))
	}
	codes, r := denseCodes(z)
	labels = make([]int, r)
	tw, to := make([]float64, r), make([]float64, r)
	for i, g := range codes {
		if math.IsNaN(o[i]) || math.IsInf(o[i], 0) {
			return nil, nil, fmt.Errorf("ato: example %d: outcome %v, want a finite number", i, o[i])
		}
		if !(w[i] >= 0) || math.IsInf(w[i], 0) {
			return nil, nil, fmt.Errorf("ato: example %d: weight %v, want a finite number ≥ 0", i, w[i])
		}
		labels[g] = z[i]
		tw[g] += w[i]
		to[g] += w[i] * o[i]
	}
	means = make([]float64, r)
	for g := range means {
		if !(tw[g] > 0) {
			return nil, nil, fmt.Errorf("ato: group %d has zero total weight: its mean is undefined", labels[g])
		}
		means[g] = to[g] / tw[g]
	}
	return labels, means, nil
}

// ATOVec returns the signed τ̂ (group 1 minus group 0, as at ATO) of each
// of the k units of a vector outcome over two groups z_i ∈ {0, 1}: o is the
// row-major n×k matrix whose row i is example i's outcome. The penultimate
// layer's |τ̂(o)| of docs/method.md §3 is the sum of the absolute values of
// the result. The conditions of ATO apply, and every label must be 0 or 1.
func ATOVec(o []float64, n, k int, z []int, w []float64) ([]float64, error) {
	if n < 0 || k < 0 || len(o) != n*k {
		return nil, fmt.Errorf("ato: outcome of %d values, want %d×%d", len(o), n, k)
	}
	if len(z) != n || len(w) != n {
		return nil, fmt.Errorf("ato: %d rows, %d groups and %d weights: want equal lengths", n, len(z), len(w))
	}
	var s [2]float64
	for i, g := range z {
		if g != 0 && g != 1 {
			return nil, fmt.Errorf("ato: example %d: group %d, want 0 or 1", i, g)
		}
		if !(w[i] >= 0) || math.IsInf(w[i], 0) {
			return nil, fmt.Errorf("ato: example %d: weight %v, want a finite number ≥ 0", i, w[i])
		}
		s[g] += w[i]
	}
	for g, sg := range s {
		if !(sg > 0) {
			return nil, fmt.Errorf("ato: group %d has zero total weight: τ̂ is undefined", g)
		}
	}
	t := [2][]float64{make([]float64, k), make([]float64, k)}
	for i, g := range z {
		row := o[i*k : (i+1)*k]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("ato: example %d, unit %d: outcome %v, want a finite number", i, j, v)
			}
			t[g][j] += w[i] * v
		}
	}
	for j := range t[1] {
		t[1][j] = t[1][j]/s[1] - t[0][j]/s[0]
	}
	return t[1], nil
}
