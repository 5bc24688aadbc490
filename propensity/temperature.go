package propensity

import (
	"errors"
	"fmt"
	"math"

	"github.com/fpareto/fp/model"
)

// MinT and MaxT bound the temperature FitTemperature returns.
const (
	MinT = 1e-2
	MaxT = 1e2
)

// FitTemperature returns the temperature T ∈ [MinT, MaxT] that minimises the
// mean negative log-likelihood of the labels a under sigmoid(z/T):
//
//	NLL(T) = mean_i softplus(z_i/T) − a_i z_i/T.
//
// In the inverse temperature s = 1/T this is mean softplus(s z_i) − a_i s z_i,
// a sum of convex functions of s, so its derivative
//
//	NLL'(s) = mean_i (sigmoid(s z_i) − a_i) z_i
//
// is non-decreasing in s (its second derivative is mean σ(1−σ) z² ≥ 0). NLL is therefore
// unimodal in s and in log T (though not always convex in log T), and its
// minimiser over the bracket is found by bisection on the sign of NLL' over
// log s, which needs no tolerance tuning and cannot leave the bracket.
//
// When the minimum lies outside the bracket, the nearest edge is returned:
// MinT when the logits separate the labels perfectly (the NLL keeps falling as
// T → 0), MaxT when they are anti-informative (the best positive temperature
// is infinite). When every z_i is 0 the NLL does not depend on T and 1 is
// returned.
//
// Errors: empty input, lengths that differ, a label other than 0 or 1, or a
// logit that is NaN or infinite.
func FitTemperature(z, a []float64) (float64, error) {
	if len(z) == 0 {
		return 0, errors.New("temperature: no logits")
	}
	if len(z) != len(a) {
		return 0, fmt.Errorf("temperature: %d logits but %d labels", len(z), len(a))
	}
	allZero := true
	for i, v := range z {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("temperature: logit %d is %v", i, v)
		}
		if a[i] != 0 && a[i] != 1 {
			return 0, fmt.Errorf("temperature: label %d is %v, want 0 or 1", i, a[i])
		}
		if v != 0 {
			allZero = false
		}
	}
	if allZero {
		return 1, nil
	}

	// Work on v = log s = −log T; NLL' has the sign of dNLL/dv.
	lo, hi := -math.Log(MaxT), -math.Log(MinT)
	if nllSlope(z, a, math.Exp(lo)) >= 0 {
		return MaxT, nil
	}
	if nllSlope(z, a, math.Exp(hi)) <= 0 {
		return MinT, nil
	}
	// Invariant: slope(lo) < 0 < slope(hi). 64 halvings of a bracket of width
	// ln 1e4 ≈ 9.2 reach the spacing of float64 around the answer.
	for it := 0; it < 64 && hi-lo > 1e-14; it++ {
		mid := 0.5 * (lo + hi)
		if nllSlope(z, a, math.Exp(mid)) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(-0.5 * (lo + hi)), nil
}

// nllSlope is dNLL/ds at inverse temperature s (up to the positive factor 1/n).
func nllSlope(z, a []float64, s float64) float64 {
	var g float64
	for i, v := range z {
		g += (model.Sigmoid(s*v) - a[i]) * v
	}
	return g
}

// NLL is the mean negative log-likelihood of labels a under sigmoid(z/T),
// computed stably from the logits.
func NLL(z, a []float64, T float64) float64 {
	if len(z) == 0 {
		return 0
	}
	var s float64
	for i, v := range z {
		u := v / T
		s += model.Softplus(u) - a[i]*u
	}
	return s / float64(len(z))
}
