package graph

import (
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// BenchmarkGraphStep is one training step as train.Fit takes it: the
// Chebyshev objective with the ato-penultimate penalty and dropout masks
// (Gradient), then the Adam update. Filling the masks is not included (it
// is the same work for every engine). Run with GOMAXPROCS=1.
func BenchmarkGraphStep(b *testing.B) { benchSteps(b, true) }

// BenchmarkGraphStepFreshValues is the same step with the executor
// computing fresh values on every run (every intermediate allocated anew), the
// baseline that value reuse improves on.
func BenchmarkGraphStepFreshValues(b *testing.B) { benchSteps(b, false) }

func benchSteps(b *testing.B, reuse bool) {
	for _, bc := range []struct {
		name       string
		arch       model.Arch
		batch, dim int
	}{
		{"compas", model.Arch{Layers: 4, Hidden: 4}, 150, 12},
		{"adult", model.Arch{Layers: 10, Hidden: 32}, 1000, 93},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			d := synth(rng, bc.batch, bc.dim)
			spec := train.Spec{Arch: bc.arch, Dim: bc.dim, BatchSize: bc.batch, Dropout: 0.2,
				Init: model.Init(bc.arch, bc.dim, rng),
				Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.3,
					Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0, UMax: 1}},
				Penalty: penalties.ATOPenultimate}
			tr, err := New(spec)
			if err != nil {
				b.Fatal(err)
			}
			if !reuse {
				tr.trainM.freshValues()
			}
			batch := batchOf(d, bc.batch, bc.batch, bc.arch, 0.2, rng)
			var sizes []int
			for _, p := range tr.Params() {
				sizes = append(sizes, len(p))
			}
			adam, err := optim.NewAdam(optim.DefaultAdam, sizes)
			if err != nil {
				b.Fatal(err)
			}
			// The first step probes register reuse; time the steady state.
			if _, err := tr.Gradient(batch); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tr.Gradient(batch); err != nil {
					b.Fatal(err)
				}
				adam.Step(tr.Params(), tr.Grads())
			}
		})
	}
}
