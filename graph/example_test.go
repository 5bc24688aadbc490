package graph_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Train a 3×8 network on the Chebyshev scalarization of BCE and the
// ato-penultimate penalty with the graph engine, then predict.
func ExampleEngine() {
	rng := rand.New(rand.NewPCG(1, 2))
	d := train.Data{N: 200, Dim: 2, X: make([]float64, 400), Y: make([]float64, 200),
		A: make([]float64, 200), W: make([]float64, 200)}
	for i := 0; i < d.N; i++ {
		d.X[2*i], d.X[2*i+1] = rng.NormFloat64(), rng.NormFloat64()
		if d.X[2*i]+0.5*d.X[2*i+1] > 0 {
			d.Y[i] = 1
		}
		d.A[i] = float64(i % 2)
		d.W[i] = 0.5
	}
	arch := model.Arch{Layers: 3, Hidden: 8}
	spec := train.Spec{Arch: arch, Dim: 2, BatchSize: 32, Dropout: 0.2,
		Init: model.Init(arch, 2, rng),
		Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.2,
			Std: scalarize.Standardizer{RMin: 0, RMax: 0.7, UMin: 0, UMax: 0.5}},
		Penalty: penalties.ATOPenultimate}
	var eng train.Engine = graph.Engine{}
	tr, err := eng.NewTrainer(spec)
	if err != nil {
		panic(err)
	}
	res, err := train.Fit(context.Background(), tr, d, train.Options{Epochs: 20,
		Adam: optim.AdamConfig{LR: 1e-2, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}}, rng)
	if err != nil {
		panic(err)
	}
	logits := make([]float64, d.N)
	if err := tr.Predict(d.X, d.N, logits); err != nil {
		panic(err)
	}
	correct := 0
	for i, z := range logits {
		if (z >= 0) == (d.Y[i] == 1) {
			correct++
		}
	}
	fmt.Printf("%s engine: %d steps, accuracy %.2f\n", eng.Name(), res.Steps, float64(correct)/float64(d.N))
	// Output:
	// graph engine: 140 steps, accuracy 0.97
}
