package backprop_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Train a small network on the raw ATO penalty of its last hidden layer with
// the handwritten engine.
func ExampleEngine() {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, dim = 400, 4
	d := train.Data{X: make([]float64, n*dim), N: n, Dim: dim,
		Y: make([]float64, n), A: make([]float64, n), W: make([]float64, n)}
	for i := 0; i < n; i++ {
		d.A[i] = float64(rng.IntN(2))
		for j := 0; j < dim; j++ {
			d.X[i*dim+j] = rng.NormFloat64() + d.A[i] // every feature depends on the group
		}
		if d.X[i*dim] > 0.5 {
			d.Y[i] = 1
		}
		d.W[i] = 0.5
	}
	a := model.Arch{Layers: 3, Hidden: 8}
	spec := train.Spec{Arch: a, Dim: dim, BatchSize: 100, Dropout: 0.2,
		Init:      model.Init(a, dim, rng),
		Objective: scalarize.Objective{Method: scalarize.Penalty, Lambda: 1},
		Penalty:   penalties.ATOPenultimate}
	tr, err := backprop.Engine{}.NewTrainer(spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	opt := train.Options{Epochs: 30, Adam: optim.DefaultAdam}
	res, err := train.Fit(context.Background(), tr, d, opt, rng)
	if err != nil {
		fmt.Println(err)
		return
	}
	first, last := res.History[0], res.History[len(res.History)-1]
	fmt.Println("engine:", backprop.Engine{}.Name())
	fmt.Println("unfairness reduced fivefold:", last.U < first.U/5)
	// Output:
	// engine: backprop
	// unfairness reduced fivefold: true
}
