package propensity

import (
	"errors"
	"fmt"
	"math"

	"github.com/fpareto/fp/model"
)

// Clip is how close to 0 or 1 a calibrated score may come (docs/method.md §4): Predict
// returns values in [Clip, 1−Clip].
const Clip = model.PropensityClip

// AtClip reports whether a propensity (or one minus it) sits at the clip
// bound Clip: within a billionth of it, relatively, so that a value that
// went through a file and back (1 − 0.999999 is 1.00000000003e-06) still
// counts.
func AtClip(v float64) bool { return v <= Clip*(1+1e-9) }

// Model is a trained propensity network with its temperature.
type Model struct {
	Net *model.Params
	T   float64 // temperature > 0: ê = sigmoid(logit/T)
}

// Validate checks that m can predict: a well-formed, finite network and a
// finite temperature > 0 (a model read back from a file, say).
func (m *Model) Validate() error {
	if m == nil || m.Net == nil {
		return errors.New("propensity model: no network")
	}
	if !(m.T > 0) || math.IsInf(m.T, 1) {
		return fmt.Errorf("propensity model: temperature %v, want a finite value > 0", m.T)
	}
	if err := m.Net.Validate(); err != nil {
		return fmt.Errorf("propensity model: %w", err)
	}
	return nil
}

// Predict returns the calibrated propensity scores ê = sigmoid(logit/T) of n
// rows of x (row-major n×Net.Dim, standardized as the training rows were),
// clipped to [Clip, 1−Clip]. A shape mismatch is a programming error and
// panics, as an out-of-range slice would.
func (m *Model) Predict(x []float64, n int) []float64 {
	if n < 0 || len(x) != n*m.Net.Dim {
		panic(fmt.Sprintf("propensity: predict %d rows of %d inputs from %d values", n, m.Net.Dim, len(x)))
	}
	e := make([]float64, n)
	m.Net.Forward(x, n, e)
	for i, z := range e {
		e[i] = model.CalibratedPropensity(z, m.T)
	}
	return e
}
