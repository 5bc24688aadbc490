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

// A trainer whose executor keeps its values between runs follows, bit for
// bit, the trajectory of one that computes fresh values on every run, over
// many steps with batches of every size, dropout, the optimizer's updates
// and evaluation in between.
func TestReusedValuesMatchFreshValues(t *testing.T) {
	for _, pen := range []penalties.Penalty{penalties.ATOAll, penalties.ATOPenultimate, probGap} {
		for _, arch := range []model.Arch{{Layers: 4, Hidden: 4}, {Layers: 3, Hidden: 7}, {Layers: 2, Hidden: 1}} {
			rng := rand.New(rand.NewPCG(1, 2))
			d := synth(rng, 200, 6)
			spec := train.Spec{Arch: arch, Dim: 6, BatchSize: 32, Dropout: 0.2,
				Init: model.Init(arch, 6, rng),
				Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.3,
					Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0, UMax: 0.2}},
				Penalty: pen}
			reuse, err := New(spec)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := New(spec)
			if err != nil {
				t.Fatal(err)
			}
			fresh.trainM.freshValues() // fresh values on every run
			fresh.evalM.freshValues()
			var sizes []int
			for _, p := range reuse.Params() {
				sizes = append(sizes, len(p))
			}
			adamR, _ := optim.NewAdam(optim.DefaultAdam, sizes)
			adamF, _ := optim.NewAdam(optim.DefaultAdam, sizes)
			b := train.NewBatch(32, 6, arch.HiddenLayers(), arch.Hidden, allColumns...)
			predR, predF := make([]float64, 45), make([]float64, 45)
			for step := 0; step < 200; step++ {
				b.Fill(d, rng.Perm(200)[:1+rng.IntN(32)])
				for _, m := range b.Masks {
					model.FillMask(rng, m, 0.2)
				}
				lr, err := reuse.Gradient(b)
				if err != nil {
					t.Fatal(err)
				}
				lf, err := fresh.Gradient(b)
				if err != nil {
					t.Fatal(err)
				}
				if lr != lf || relDiff(reuse.Grads(), fresh.Grads()) != 0 {
					t.Fatalf("%s %v step %d: %+v with reused values, %+v with fresh ones", pen.Name(), arch, step, lr, lf)
				}
				adamR.Step(reuse.Params(), reuse.Grads())
				adamF.Step(fresh.Params(), fresh.Grads())
				if step%50 == 0 {
					if err := reuse.Predict(d.X[:45*6], 45, predR); err != nil {
						t.Fatal(err)
					}
					if err := fresh.Predict(d.X[:45*6], 45, predF); err != nil {
						t.Fatal(err)
					}
					if !sameBits(predR, predF) {
						t.Fatalf("%s %v step %d: predictions differ", pen.Name(), arch, step)
					}
				}
			}
			if !reuse.trainM.reuses() || !reuse.evalM.reuses() {
				t.Errorf("%s %v: value reuse was not switched on (train %v, eval %v)",
					pen.Name(), arch, reuse.trainM.reuses(), reuse.evalM.reuses())
			}
		}
	}
}

// When the probe sees different outputs from the two runs, the machine
// falls back to fresh values, and the step's outputs are still right.
func TestProbeFallsBack(t *testing.T) {
	c := newSmallCase(4)
	spec := c.spec(scalarize.Objective{Method: scalarize.Penalty}, penalties.ATOAll, nil)
	tr, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	outputs := tr.trainM.record
	tr.trainM.record = func(dst []float64) []float64 { // a program that is not repeatable
		calls++
		return append(outputs(dst), float64(calls))
	}
	for step := 0; step < 3; step++ {
		l, err := tr.Gradient(c.b)
		if err != nil {
			t.Fatal(err)
		}
		lr, err := ref.Gradient(c.b)
		if err != nil {
			t.Fatal(err)
		}
		if l != lr || relDiff(tr.Grads(), ref.Grads()) != 0 {
			t.Fatalf("step %d after the fallback: %+v, want %+v", step, l, lr)
		}
	}
	if tr.trainM.reuses() || tr.trainM.reuse {
		t.Error("the machine kept its values although the probe failed")
	}
	if !ref.trainM.reuses() {
		t.Error("the reference machine should reuse its values")
	}
}
