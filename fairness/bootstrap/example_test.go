package bootstrap_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/fpareto/fp/fairness/bootstrap"
)

// The 95% interval of the test risk and of demographic parity of eight
// predictions, from 1,000 resamples of a seeded generator; dp is shown as
// the unbiased estimate its interval is built around.
func Example() {
	p := []float64{0.1, 0.3, 0.35, 0.6, 0.2, 0.55, 0.8, 0.9}
	y := []float64{0, 0, 1, 1, 0, 0, 1, 1}
	z := []int{0, 0, 0, 0, 1, 1, 1, 1} // two groups
	s, err := bootstrap.New(p, y, z, 2, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, err := s.Intervals(1000, 0.95, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("risk [%.2f, %.2f]\n", iv.Risk.Lo, iv.Risk.Hi)
	fmt.Printf("dp %.3f [%.3f, %.3f] from the %d of %d resamples with both groups\n", iv.Corrected.DP, iv.DP.Lo, iv.DP.Hi, iv.Valid, iv.Resamples)
	// Output:
	// risk [0.22, 0.68]
	// dp 0.000 [0.000, 0.080] from the 994 of 1000 resamples with both groups
}
