package propensity

import (
	"errors"
	"fmt"
	"math"
)

// FitSoftmaxTemperature is FitTemperature for R groups: z holds the
// logits of n rows (row-major n×groups), a their groups in 0…groups−1, and
// it returns the T ∈ [MinT, MaxT] that minimises
//
//	NLL(T) = mean_i logsumexp(z_i/T) − z_{i,a_i}/T.
//
// In s = 1/T each term is a log-sum-exp of functions linear in s minus a
// linear one, so NLL is convex in s and its derivative
//
//	NLL'(s) = mean_i Σ_r softmax(s z_i)_r z_ir − z_{i,a_i}
//
// is non-decreasing; the minimiser is found by bisection on its sign over
// log s, as for two groups, with the same edges: MinT when the logits
// separate the groups (NLL keeps falling as T → 0), MaxT when they are
// anti-informative. When every row's logits are all equal, the NLL does not
// depend on T and 1 is returned. With two groups and logits (0, z_i) it is
// FitTemperature of z.
//
// Errors: no rows, fewer than two groups, lengths that differ, a group
// outside 0…groups−1, or a logit that is NaN or infinite.
func FitSoftmaxTemperature(z []float64, groups int, a []int) (float64, error) {
	if groups < 2 {
		return 0, fmt.Errorf("temperature: %d groups, want ≥ 2", groups)
	}
	if len(a) == 0 {
		return 0, errors.New("temperature: no logits")
	}
	if len(z) != len(a)*groups {
		return 0, fmt.Errorf("temperature: %d logits for %d rows of %d groups", len(z), len(a), groups)
	}
	flat := true
	for i, g := range a {
		if g < 0 || g >= groups {
			return 0, fmt.Errorf("temperature: row %d: group %d, want a code in 0…%d", i, g, groups-1)
		}
		row := z[i*groups : (i+1)*groups]
		for r, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("temperature: row %d, logit %d is %v", i, r, v)
			}
			if v != row[0] {
				flat = false
			}
		}
	}
	if flat {
		return 1, nil
	}
	slope := func(v float64) float64 { return softmaxNLLSlope(z, groups, a, math.Exp(v)) }
	lo, hi := -math.Log(MaxT), -math.Log(MinT)
	if slope(lo) >= 0 {
		return MaxT, nil
	}
	if slope(hi) <= 0 {
		return MinT, nil
	}
	for it := 0; it < 64 && hi-lo > 1e-14; it++ {
		mid := 0.5 * (lo + hi)
		if slope(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(-0.5 * (lo + hi)), nil
}

// softmaxNLLSlope is dNLL/ds at inverse temperature s, times n.
func softmaxNLLSlope(z []float64, groups int, a []int, s float64) float64 {
	p := make([]float64, groups)
	var g float64
	for i, ai := range a {
		row := z[i*groups : (i+1)*groups]
		SoftmaxInto(p, row, s)
		for r, v := range row {
			g += p[r] * v
		}
		g -= row[ai]
	}
	return g
}

// SoftmaxNLL is the mean negative log-likelihood of groups a under
// softmax(z/T), z row-major n×groups, computed stably from the logits.
func SoftmaxNLL(z []float64, groups int, a []int, T float64) float64 {
	if len(a) == 0 {
		return 0
	}
	u := make([]float64, groups)
	var s float64
	for i, ai := range a {
		for r := range u {
			u[r] = z[i*groups+r] / T
		}
		s += LogSumExp(u) - u[ai]
	}
	return s / float64(len(a))
}
