package losses_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// A risk of one's own: binary cross-entropy that counts every positive
// example three times, ℓ = 3·y·softplus(−z) + (1−y)·softplus(z), averaged
// with the batch weights sw. Trained in place of the default BCE, it makes
// the network predict the rare positive class more often.
func ExampleNewRisk() {
	weighted := losses.NewRisk("bce-pos3", "1", func(z, y, sw *G.Node) (*G.Node, error) {
		pos := G.Must(G.HadamardProd(y, G.Must(G.Softplus(G.Must(G.Neg(z))))))
		neg := G.Must(G.HadamardProd(G.Must(G.Sub(G.NewConstant(1.0), y)), G.Must(G.Softplus(z))))
		l := G.Must(G.Add(G.Must(G.Mul(G.NewConstant(3.0), pos)), neg))
		return G.Sum(G.Must(G.HadamardProd(sw, l)))
	})

	data := rareData(600)
	for _, r := range []losses.Risk{losses.BCE, weighted} {
		fmt.Printf("%-8s predicts positive for %.2f of the rows (base rate %.2f)\n", r.Name(), trainRare(data, r), mean(data.Y))
	}
	// Output:
	// bce      predicts positive for 0.12 of the rows (base rate 0.20)
	// bce-pos3 predicts positive for 0.35 of the rows (base rate 0.20)
}

// rareData has about one positive in five.
func rareData(n int) train.Data {
	rng := rand.New(rand.NewPCG(3, 3))
	d := train.Data{N: n, Dim: 2, X: make([]float64, 2*n), Y: make([]float64, n), A: make([]float64, n)}
	for i := 0; i < n; i++ {
		x := d.X[2*i : 2*i+2]
		x[0], x[1] = rng.NormFloat64(), rng.NormFloat64()
		if rng.Float64() < model.Sigmoid(1.5*x[0]-2) {
			d.Y[i] = 1
		}
	}
	return d
}

// trainRare trains a 3×8 network on risk r and returns the share of rows
// whose predicted probability is at least 0.5.
func trainRare(d train.Data, r losses.Risk) float64 {
	rng := rand.New(rand.NewPCG(5, 5))
	arch := model.Arch{Layers: 3, Hidden: 8}
	tr, err := graph.Engine{}.NewTrainer(train.Spec{Arch: arch, Dim: d.Dim, BatchSize: 60, Dropout: 0.2,
		Init: model.Init(arch, d.Dim, rng), Objective: scalarize.Objective{Method: scalarize.Risk}, Risk: r})
	if err != nil {
		panic(err)
	}
	opts := train.Options{Epochs: 30, Adam: optim.AdamConfig{LR: 1e-2, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}}
	if _, err := train.Fit(context.Background(), tr, d, opts, rng); err != nil {
		panic(err)
	}
	logits := make([]float64, d.N)
	if err := tr.Predict(d.X, d.N, logits); err != nil {
		panic(err)
	}
	var pos float64
	for _, z := range logits {
		if z >= 0 {
			pos++
		}
	}
	return pos / float64(d.N)
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
