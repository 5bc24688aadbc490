package bootstrap

import (
	"math"
	"testing"

	"github.com/fpareto/fp/fairness"
)

// The tests below are mostly written with a 0/1 attribute a and its
// propensity scores e; these turn them into the groups and overlap weights
// the package takes (two groups: r = 2).

func groupsOf(a []float64) []int {
	z := make([]int, len(a))
	for i, v := range a {
		z[i] = int(v)
	}
	return z
}

func weightsOf(e, a []float64) []float64 {
	if e == nil {
		return nil
	}
	w := make([]float64, len(e))
	if err := fairness.OverlapWeights(e, 2, groupsOf(a), w); err != nil {
		panic(err)
	}
	return w
}

func binaryNew(p, y, a, e []float64) (*Sample, error) {
	return New(p, y, groupsOf(a), 2, weightsOf(e, a))
}

func binaryLogits(s, y, a, e []float64) (*Sample, error) {
	return NewLogits(s, y, groupsOf(a), 2, weightsOf(e, a))
}

func evalBinary(p, y, a, e []float64) (fairness.Metrics, error) {
	return fairness.Evaluate(p, y, groupsOf(a), weightsOf(e, a))
}

func evalBinaryLogits(s, y, a, e []float64) (fairness.Metrics, error) {
	return fairness.EvaluateLogits(s, y, groupsOf(a), weightsOf(e, a))
}

// checkDecision compares s's decision metrics and accuracy at unit
// multiplicities (the sample itself) with want and accuracy, computed
// independently (how says how, in the error).
func checkDecision(t *testing.T, s *Sample, want Rates, accuracy float64, what, how string) {
	t.Helper()
	one := ones(s.Len())
	got := s.Decision(one)
	met, _ := s.Metrics(one)
	for _, m := range []struct {
		name      string
		got, want float64
	}{{"dp_diff", got.DPDiff, want.DPDiff}, {"dp_ratio", got.DPRatio, want.DPRatio},
		{"eo_diff", got.EODiff, want.EODiff}, {"eopp_diff", got.EOppDiff, want.EOppDiff},
		{"accuracy", met.Accuracy, accuracy}} {
		if math.Abs(m.got-m.want) > 1e-12 {
			t.Errorf("%s: %s = %.15g, %s %.15g", what, m.name, m.got, how, m.want)
		}
	}
}
