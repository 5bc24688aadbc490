package adversarial

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/train"
)

// BenchmarkTrainAdultSize times 20 rounds of the baseline on data of Adult's
// size (15,470 rows, 93 columns, a 10×32 classifier): the adversary's epochs,
// which feed it the classifier's training-mode output row by row, dominate.
func BenchmarkTrainAdultSize(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, dim := 15470, 93
	d := train.Data{X: make([]float64, n*dim), Y: make([]float64, n), A: make([]float64, n), N: n, Dim: dim}
	for i := range d.X {
		d.X[i] = rng.NormFloat64()
	}
	for i := 0; i < n; i++ {
		d.Y[i] = float64(rng.IntN(2))
		d.A[i] = float64(rng.IntN(2))
	}
	for i := 0; i < b.N; i++ {
		s := Setup{Engine: graph.Engine{}, Arch: model.Arch{Layers: 10, Hidden: 32}, Batch: 1000, Dropout: 0.2,
			Adam: optim.DefaultAdam, Beta: 10, Rounds: 20, PretrainClf: 2, PretrainAdv: 5}
		if _, err := Train(context.Background(), s, d, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTrainCompasMatched times one network of the matched budget on
// data of COMPAS's size (3,086 rows, 12 columns, a 4×4 classifier, batches
// of 150): 200 rounds of 53 classifier steps and one adversary epoch.
func BenchmarkTrainCompasMatched(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, dim := 3086, 12
	d := train.Data{X: make([]float64, n*dim), Y: make([]float64, n), A: make([]float64, n), N: n, Dim: dim}
	for i := range d.X {
		d.X[i] = rng.NormFloat64()
	}
	for i := 0; i < n; i++ {
		d.Y[i] = float64(rng.IntN(2))
		d.A[i] = float64(rng.IntN(2))
	}
	for i := 0; i < b.N; i++ {
		s := Setup{Engine: graph.Engine{}, Arch: model.Arch{Layers: 4, Hidden: 4}, Batch: 150, Dropout: 0.2,
			Adam: optim.DefaultAdam, Beta: 1, Rounds: 200, PretrainClf: 2, PretrainAdv: 5, ClfSteps: 53}
		if _, err := Train(context.Background(), s, d, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
}
