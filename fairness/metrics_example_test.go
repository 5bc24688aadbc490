package fairness_test

import (
	"fmt"

	"github.com/fpareto/fp/fairness"
)

// Metrics of a handful of predictions: probabilities p, labels y, a binary
// attribute a and the propensity ê(x) = P(a=1 | x) that gives the overlap
// weights. Two groups are the labels 0 and 1.
func ExampleEvaluate() {
	p := []float64{0.1, 0.2, 0.2, 0.3, 0.5, 0.6}
	y := []float64{1, 1, 1, 1, 0, 0}
	a := []float64{0, 0, 1, 1, 1, 0}
	e := []float64{0.5, 0.5, 0.25, 0.25, 0.75, 0.5}
	z, err := fairness.BinaryGroups(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := make([]float64, len(z))
	if err := fairness.OverlapWeights(e, 2, z, w); err != nil { // 1 − ê in group 1, ê in group 0
		fmt.Println(err)
		return
	}
	m, err := fairness.Evaluate(p, y, z, w)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("accuracy %.2f  ato %.4f  dp %.4f  eo %.4f  eopp %.4f\n", m.Accuracy, m.ATO, m.DP, m.EO, m.EOpp)
	// Output:
	// accuracy 0.00  ato 0.0143  dp 0.0185  eo 0.1250  eopp 0.0469
}

// The mean-variance index compares the distribution of a score across
// groups; it depends only on the order of the scores.
func ExampleMV() {
	s := []float64{0.1, 0.2, 0.2, 0.3}
	fmt.Println(fairness.MV(s, []int{0, 0, 1, 1})) // group 1 scores higher: 3/64
	same := []float64{0.1, 0.1, 0.3, 0.3}
	fmt.Println(fairness.MV(same, []int{0, 1, 1, 0})) // both groups {0.1, 0.3}: 0
	// Output:
	// 0.046875
	// 0
}
