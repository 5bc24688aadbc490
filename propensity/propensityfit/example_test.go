package propensityfit_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/propensity/propensityfit"
)

// Fit a propensity model on groups that depend on the first feature, then
// score new rows.
func ExampleFit() {
	const n, dim = 2000, 3
	rng := rand.New(rand.NewPCG(1, 2))
	x, a := make([]float64, n*dim), make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < dim; j++ {
			x[i*dim+j] = rng.NormFloat64()
		}
		if rng.Float64() < 1/(1+math.Exp(-2*x[i*dim])) { // true e(x) = sigmoid(2·x₀)
			a[i] = 1
		}
	}
	cfg := propensityfit.DefaultConfig()
	cfg.Epochs = 20
	m, rep, err := propensityfit.Fit(context.Background(), graph.Engine{}, x, n, dim, a, cfg, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("trained on %d rows, temperature fitted on %d\n", rep.NTrain, rep.NCalib)
	fmt.Println("scaling lowered the held-out NLL:", rep.NLLAfter <= rep.NLLBefore)

	// Rows with x₀ = −2, 0, 2: true propensities 0.018, 0.5, 0.982.
	e := m.Predict([]float64{-2, 0, 0, 0, 0, 0, 2, 0, 0}, 3)
	fmt.Println("increasing in x₀:", e[0] < e[1] && e[1] < e[2])
	fmt.Println("within 0.1 of the truth:", math.Abs(e[0]-0.018) < 0.1 && math.Abs(e[1]-0.5) < 0.1 && math.Abs(e[2]-0.982) < 0.1)
	// Output:
	// trained on 1600 rows, temperature fitted on 400
	// scaling lowered the held-out NLL: true
	// increasing in x₀: true
	// within 0.1 of the truth: true
}
