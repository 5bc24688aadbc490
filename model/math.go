package model

import "math"

// Sigmoid is 1/(1+e^−z), computed without overflow for either sign of z.
func Sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// Softplus is log(1+e^z), computed stably.
func Softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// PropensityClip is how close to 0 or 1 a calibrated propensity may come
// (docs/method.md §4.2), so that every overlap weight is positive.
const PropensityClip = 1e-6

// CalibratedPropensity is the calibrated propensity of a row whose
// propensity network gives the logit z under temperature T: σ(z/T)
// clipped to [PropensityClip, 1 − PropensityClip]. Training and the
// scoring of raw rows both go through it, so their ê agree.
func CalibratedPropensity(z, T float64) float64 {
	return math.Min(math.Max(Sigmoid(z/T), PropensityClip), 1-PropensityClip)
}
