package fairness_test

import (
	"fmt"

	"github.com/fpareto/fp/fairness"
)

// The per-group breakdown behind the fairness metrics: how often each
// group is positive, how the classifier scores it, how often it selects it
// (p ≥ 0.5) and how often it is right.
func ExampleByGroup() {
	p := []float64{0.1, 0.7, 0.2, 0.8, 0.9, 0.6}
	y := []float64{0, 1, 0, 1, 1, 0}
	z := []int{0, 0, 0, 1, 1, 1}
	groups, err := fairness.ByGroup(p, y, z)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range groups {
		fmt.Printf("a=%d  n %d  base rate %.2f  mean score %.2f  selection rate %.2f  accuracy %.2f\n",
			g.A, g.Count, g.BaseRate, g.MeanScore, g.SelectionRate, g.Accuracy)
	}
	// Output:
	// a=0  n 3  base rate 0.33  mean score 0.33  selection rate 0.33  accuracy 1.00
	// a=1  n 3  base rate 0.67  mean score 0.77  selection rate 1.00  accuracy 0.67
}
