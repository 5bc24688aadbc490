package backprop_test

import (
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// benchShapes are the two default configurations of docs/method.md §2.
var benchShapes = []problem{
	{"compas", model.Arch{Layers: 4, Hidden: 4}, 12, 150, 150, 0.2,
		objective(scalarize.Chebyshev, 0.3), penalties.ATOPenultimate},
	{"adult", model.Arch{Layers: 10, Hidden: 32}, 93, 1000, 1000, 0.2,
		objective(scalarize.Chebyshev, 0.3), penalties.ATOPenultimate},
}

// BenchmarkStep measures one training step — Gradient of a Chebyshev +
// ato-penultimate objective with dropout masks, then an Adam update — for
// both engines on synthetic batches of the default shapes. Run it with
// GOMAXPROCS=1 for single-thread figures. cpu-ns/op is the process's CPU
// time per step, steadier than ns/op on a machine shared with other work.
func BenchmarkStep(b *testing.B) {
	for _, eng := range []train.Engine{graph.Engine{}, backprop.Engine{}} {
		b.Run(eng.Name(), func(b *testing.B) {
			for _, p := range benchShapes {
				b.Run(p.name, func(b *testing.B) { benchStep(b, eng, p) })
			}
		})
	}
}

func benchStep(b *testing.B, eng train.Engine, p problem) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr, err := eng.NewTrainer(p.spec(model.Init(p.arch, p.dim, rng)))
	if err != nil {
		b.Fatal(err)
	}
	// A few batches, so that the masks and the rows change between steps.
	batches := make([]*train.Batch, 4)
	for i := range batches {
		batches[i] = randomBatch(rng, p)
	}
	params, grads := tr.Params(), tr.Grads()
	adam, err := optim.NewAdamFor(optim.DefaultAdam, params)
	if err != nil {
		b.Fatal(err)
	}
	// One untimed step: the graph engine's first run sets up its values.
	if _, err := tr.Gradient(batches[0]); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, n := cpuTime(), 0
	for i := 0; b.Loop(); i++ {
		if _, err := tr.Gradient(batches[i%len(batches)]); err != nil {
			b.Fatal(err)
		}
		adam.Step(params, grads)
		n++
	}
	if cpu := cpuTime() - cpu0; cpu > 0 && n > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
	}
}

// BenchmarkGradient measures one Gradient — the Chebyshev + ato-penultimate
// objective with dropout masks, no optimizer step — for both engines on the
// default shapes, for the plain network and for the λ-conditioned one
// (docs/method.md §12, a conditioning network of model.DefaultFiLMWidth
// units away from the identity, λ set before every step as training does).
// The graph engine differentiates the modulation as graph code; the
// handwritten one folds it into the weights (train.Folded). Run it with
// GOMAXPROCS=1.
func BenchmarkGradient(b *testing.B) {
	for _, eng := range []train.Engine{graph.Engine{}, backprop.Engine{}} {
		b.Run(eng.Name(), func(b *testing.B) {
			for _, p := range benchShapes {
				b.Run(p.name, func(b *testing.B) {
					b.Run("plain", func(b *testing.B) { benchGradient(b, eng, p, false) })
					b.Run("conditioned", func(b *testing.B) { benchGradient(b, eng, p, true) })
				})
			}
		})
	}
}

func benchGradient(b *testing.B, eng train.Engine, p problem, conditioned bool) {
	rng := rand.New(rand.NewPCG(1, 2))
	spec := p.spec(model.Init(p.arch, p.dim, rng))
	if conditioned {
		spec.FiLM = movedFiLM(rng, p.arch, model.DefaultFiLMWidth, 0.1, false)
	}
	tr, err := eng.NewTrainer(spec)
	if err != nil {
		b.Fatal(err)
	}
	setter, _ := tr.(train.ConditionedTrainer)
	batches := make([]*train.Batch, 4)
	for i := range batches {
		batches[i] = randomBatch(rng, p)
	}
	lambdas := []float64{0.001, 0.03, 0.3, 1}
	if _, err := tr.Gradient(batches[0]); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, n := cpuTime(), 0
	for i := 0; b.Loop(); i++ {
		if setter != nil {
			if err := setter.SetLambda(lambdas[i%len(lambdas)]); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := tr.Gradient(batches[i%len(batches)]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if cpu := cpuTime() - cpu0; cpu > 0 && n > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
	}
}
