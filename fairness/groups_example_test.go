package fairness_test

import (
	"fmt"

	"github.com/fpareto/fp/fairness"
)

// Three groups: the majority (0) is scored in the middle, one minority (1)
// higher and the other (2) lower. Against "the majority vs the rest" the two
// minorities cancel; the R-group indices see both.
func ExampleEvaluate_groups() {
	p := []float64{0.4, 0.6, 0.4, 0.6, 0.6, 0.6, 0.4, 0.4}
	y := []float64{0, 0, 1, 1, 0, 1, 0, 1}
	z := []int{0, 0, 0, 0, 1, 1, 2, 2}
	// P(group = k | x) of each row, for k = 0, 1, 2: the same for every row here.
	e := make([]float64, 0, 3*len(z))
	for range z {
		e = append(e, 0.5, 0.25, 0.25)
	}
	w := make([]float64, len(z))
	if err := fairness.OverlapWeights(e, 3, z, w); err != nil {
		fmt.Println(err)
		return
	}
	m, err := fairness.Evaluate(p, y, z, w)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("R groups:  ato %.4f  dp %.4f  eo %.4f  eopp %.4f\n", m.ATO, m.DP, m.EO, m.EOpp)

	// The binary contrast of the majority against the rest.
	rest := []int{0, 0, 0, 0, 1, 1, 1, 1}
	wb := make([]float64, len(rest))
	if err := fairness.OverlapWeights([]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 2, rest, wb); err != nil {
		fmt.Println(err)
		return
	}
	b, err := fairness.Evaluate(p, y, rest, wb)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("0 vs rest: ato %.4f  dp %.4f  eo %.4f  eopp %.4f\n", b.ATO, b.DP, b.EO, b.EOpp)
	// Output:
	// R groups:  ato 0.2000  dp 0.0625  eo 0.0625  eopp 0.0625
	// 0 vs rest: ato 0.0000  dp 0.0000  eo 0.0000  eopp 0.0000
}
