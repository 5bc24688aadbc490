package propensity

import (
	"errors"
	"fmt"
	"math"

	"github.com/fpareto/fp/model"
)

// Multinomial is a trained propensity model of R ≥ 3 groups
// (docs/method.md §4.4): the network of Model with R outputs, one logit per
// group (Net.Outputs = R), and one temperature on its logits. Two groups
// are the one-logit case, Model, where softmax(0, z) is the logistic
// sigmoid(z).
type Multinomial struct {
	Net *model.Params
	T   float64 // temperature > 0: e = softmax(logits/T)
}

// Groups is R, the number of groups the model predicts.
func (m *Multinomial) Groups() int { return m.Net.Out() }

// Validate checks that m can predict: a well-formed, finite network of at
// least three groups and a finite temperature > 0.
func (m *Multinomial) Validate() error {
	if m == nil || m.Net == nil {
		return errors.New("multinomial propensity model: no network")
	}
	if !(m.T > 0) || math.IsInf(m.T, 1) {
		return fmt.Errorf("multinomial propensity model: temperature %v, want a finite value > 0", m.T)
	}
	if m.Net.Outputs == 2 {
		return errors.New("multinomial propensity model: 2 groups, want ≥ 3 (two groups use the binary model)")
	}
	if err := validateSoftmax(m.Net, 3); err != nil {
		return fmt.Errorf("multinomial propensity model: %w", err)
	}
	return nil
}

// Predict returns the calibrated propensities of n rows of x (row-major
// n×Net.Dim, standardized as the training rows were): row-major n×R, row i
// holding e_0(x_i) … e_{R−1}(x_i), each at least about Clip and adding up
// to 1 (CalibratedProbabilities). A shape mismatch is a programming error
// and panics, as an out-of-range slice would.
func (m *Multinomial) Predict(x []float64, n int) []float64 {
	if n < 0 || len(x) != n*m.Net.Dim {
		panic(fmt.Sprintf("propensity: predict %d rows of %d inputs from %d values", n, m.Net.Dim, len(x)))
	}
	R := m.Net.Out()
	z := make([]float64, n*R)
	m.Net.Forward(x, n, z)
	e := make([]float64, n*R)
	for i := 0; i < n; i++ {
		CalibratedProbabilities(e[i*R:(i+1)*R], z[i*R:(i+1)*R], m.T)
	}
	return e
}

// ColumnName is the name of the column that holds the propensity of the
// group whose level is level, in a file of scored rows: "propensity_" + level.
func ColumnName(level string) string { return "propensity_" + level }
