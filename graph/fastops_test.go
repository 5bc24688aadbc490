package graph

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// The fast paths compute what Gorgonia's ops compute: trainers with and
// without them agree on losses (relative 1e-12) and gradients (1e-10) over
// training steps, for narrow layers (plain loops), wide ones (the matrix
// kernel, with edges) and a custom penalty made of other ops.
func TestFastOpsMatchGorgonia(t *testing.T) {
	for _, pen := range []penalties.Penalty{penalties.ATOAll, probGap} {
		for _, arch := range []model.Arch{{Layers: 3, Hidden: 4}, {Layers: 3, Hidden: 9}, {Layers: 3, Hidden: 32}} {
			t.Run(fmt.Sprintf("%s/%v", pen.Name(), arch), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(5, 6))
				d := synth(rng, 120, 11)
				spec := train.Spec{Arch: arch, Dim: 11, BatchSize: 37, Dropout: 0.2,
					Init: model.Init(arch, 11, rng),
					Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.4,
						Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0, UMax: 0.2}},
					Penalty: pen}
				fast, err := New(spec)
				if err != nil {
					t.Fatal(err)
				}
				fastOps = false
				slow, err := New(spec)
				fastOps = true
				if err != nil {
					t.Fatal(err)
				}
				adamF, _ := optim.NewAdamFor(optim.DefaultAdam, fast.Params())
				adamS, _ := optim.NewAdamFor(optim.DefaultAdam, slow.Params())
				for step := 0; step < 20; step++ {
					b := batchOf(d, 37, 1+rng.IntN(37), arch, 0.2, rng)
					lf, err := fast.Gradient(b)
					if err != nil {
						t.Fatal(err)
					}
					ls, err := slow.Gradient(b)
					if err != nil {
						t.Fatal(err)
					}
					if !nearly(lf.Objective, ls.Objective, 1e-12) || !nearly(lf.R, ls.R, 1e-12) || !nearly(lf.U, ls.U, 1e-12) {
						t.Fatalf("step %d: %+v with fast paths, %+v without", step, lf, ls)
					}
					if r := relDiff(fast.Grads(), slow.Grads()); r > 1e-10 {
						t.Fatalf("step %d: gradients differ by %g (relative)", step, r)
					}
					adamF.Step(fast.Params(), fast.Grads())
					adamS.Step(slow.Params(), slow.Grads())
				}
			})
		}
	}
}

func nearly(a, b, tol float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := max(a, -a, b, -b, 1e-300)
	return d <= tol*m
}
