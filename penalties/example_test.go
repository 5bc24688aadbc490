package penalties_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// A penalty of one's own, in a few lines of graph code: the squared gap
// between the two groups' mean predicted probabilities (a demographic
// parity gap). It declares the two input columns it reads: Group1Mean and
// Group0Mean weight each row by 1/n₁ and 1/n₀ of its group, so g1·p and
// g0·p are the groups' mean probabilities in the batch. Its version enters
// a sweep's digest: change it whenever the code below changes. Gorgonia
// differentiates it; train.Fit standardizes and scalarizes it like the
// built-in penalties.
func ExampleNewPenalty() {
	meanGap := penalties.NewPenalty("mean-gap", "1", []train.Input{penalties.Group1Mean, penalties.Group0Mean},
		func(net penalties.Net, b penalties.BatchNodes) (*G.Node, error) {
			g1, err := b.Column(penalties.Group1Mean.Name)
			if err != nil {
				return nil, err
			}
			g0, err := b.Column(penalties.Group0Mean.Name)
			if err != nil {
				return nil, err
			}
			p := G.Must(G.Sigmoid(net.Logit))
			gap := G.Must(G.Sub(G.Must(G.Mul(g1, p)), G.Must(G.Mul(g0, p))))
			return G.Square(gap)
		})

	data := toyData(400)
	// Minimising the risk alone, then (1−λ)R̃ + λŨ with λ = 0.5.
	gap0, risk0 := trainToy(data, scalarize.Objective{Method: scalarize.Risk}, nil)
	gap1, risk1 := trainToy(data, scalarize.Objective{Method: scalarize.Linear, Lambda: 0.5,
		Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.7, UMin: 0, UMax: 0.1}}, meanGap)
	fmt.Printf("risk only:     gap %.2f, risk %.2f\n", gap0, risk0)
	fmt.Printf("with %s: gap %.2f, risk %.2f\n", meanGap.Name(), gap1, risk1)
	// Output:
	// risk only:     gap 0.32, risk 0.40
	// with mean-gap: gap 0.10, risk 0.53
}

// toyData has a label that depends on the features, one of which is
// shifted by the group, so an unconstrained classifier treats the groups
// differently.
func toyData(n int) train.Data {
	rng := rand.New(rand.NewPCG(1, 1))
	d := train.Data{N: n, Dim: 3, X: make([]float64, 3*n), Y: make([]float64, n), A: make([]float64, n)}
	for i := 0; i < n; i++ {
		if rng.Float64() < 0.5 {
			d.A[i] = 1
		}
		x := d.X[3*i : 3*i+3]
		x[0] = rng.NormFloat64() + 1.2*d.A[i]
		x[1], x[2] = rng.NormFloat64(), rng.NormFloat64()
		if rng.Float64() < model.Sigmoid(2*x[0]+x[1]-1.2) {
			d.Y[i] = 1
		}
	}
	return d
}

// trainToy trains a 3×8 network for 40 epochs and returns the gap between
// the groups' mean predicted probabilities on the data, and the risk (BCE).
func trainToy(d train.Data, obj scalarize.Objective, pen penalties.Penalty) (gap, risk float64) {
	rng := rand.New(rand.NewPCG(7, 7))
	arch := model.Arch{Layers: 3, Hidden: 8}
	spec := train.Spec{Arch: arch, Dim: d.Dim, BatchSize: 50, Dropout: 0.2,
		Init: model.Init(arch, d.Dim, rng), Objective: obj}
	if pen != nil {
		spec.Penalty = pen
	}
	tr, err := graph.Engine{}.NewTrainer(spec)
	if err != nil {
		panic(err)
	}
	opts := train.Options{Epochs: 40, Adam: optim.AdamConfig{LR: 1e-2, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}}
	if _, err := train.Fit(context.Background(), tr, d, opts, rng); err != nil {
		panic(err)
	}
	logits := make([]float64, d.N)
	if err := tr.Predict(d.X, d.N, logits); err != nil {
		panic(err)
	}
	var s1, s0, n1, n0 float64
	for i, z := range logits {
		if d.A[i] == 1 {
			s1, n1 = s1+model.Sigmoid(z), n1+1
		} else {
			s0, n0 = s0+model.Sigmoid(z), n0+1
		}
	}
	return s1/n1 - s0/n0, losses.BCEValue(logits, d.Y)
}
