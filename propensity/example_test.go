package propensity_test

import (
	"fmt"
	"math"

	"github.com/fpareto/fp/propensity"
)

// A network whose logits are three times too large is over-confident; the
// temperature that calibrates it divides them by about three.
func ExampleFitTemperature() {
	// Labels that occur with frequency sigmoid(z/3) at each logit z: of every
	// 1000 rows at logit z, round(1000·sigmoid(z/3)) have a = 1.
	var z, a []float64
	for _, zi := range []float64{-6, -3, -1, 0, 1, 3, 6} {
		k := int(1000/(1+math.Exp(-zi/3)) + 0.5)
		for i := 0; i < 1000; i++ {
			z = append(z, zi)
			if i < k {
				a = append(a, 1)
			} else {
				a = append(a, 0)
			}
		}
	}
	T, err := propensity.FitTemperature(z, a)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("T = %.2f\n", T)
	fmt.Printf("NLL at T = 1: %.3f, at T: %.3f\n", propensity.NLL(z, a, 1), propensity.NLL(z, a, T))
	// Output:
	// T = 3.00
	// NLL at T = 1: 0.757, at T: 0.564
}
