package bootstrap

import "github.com/fpareto/fp/fairness"

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
