package adversarial

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// advBatch is a small batch of 6 real rows padded to 8.
func advBatch(rng *rand.Rand, dim int) *train.Batch {
	b := train.NewBatch(8, dim, 1, 5)
	d := train.Data{N: 6, Dim: dim, X: make([]float64, 6*dim), Y: []float64{1, 0, 1, 1, 0, 0}, A: []float64{1, 1, 0, 0, 1, 0}, W: []float64{.3, .5, .2, .7, .4, .6}}
	for i := range d.X {
		d.X[i] = rng.NormFloat64()
	}
	b.Fill(d, []int{0, 1, 2, 3, 4, 5})
	return b
}

// TestAdversaryPenaltyFollowsTheAdversary checks that the classifier's
// objective R + β·U, U = −BCE(adversary(p̂), a), uses the adversary weights
// copied in last (they are graph inputs, read on every run), and that its
// gradient matches central finite differences through the adversary.
func TestAdversaryPenaltyFollowsTheAdversary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	arch, dim := model.Arch{Layers: 2, Hidden: 5}, 3
	clfInit := model.Init(arch, dim, rng)
	adv0 := model.Init(AdversaryArch, 1, rng)
	adv1 := model.Init(AdversaryArch, 1, rng)
	b := advBatch(rng, dim)
	const beta = 0.7
	build := func(adv *model.Params) (train.Trainer, *Penalty) {
		pen := NewPenalty(adv)
		tr, err := graph.Engine{}.NewTrainer(train.Spec{Arch: arch, Dim: dim, BatchSize: 8, Init: clfInit,
			Objective: scalarize.Objective{Method: scalarize.Sum, Lambda: beta}, Penalty: pen})
		if err != nil {
			t.Fatal(err)
		}
		return tr, pen
	}
	tr, pen := build(adv0)
	l0, err := tr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	pen.Set(adv1.Tensors())
	l1, err := tr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := build(adv1)
	want, err := fresh.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	if l1 != want || l0.U == l1.U {
		t.Fatalf("after set: %+v, a trainer built with those weights: %+v (before: %+v)", l1, want, l0)
	}
	if math.Abs(l1.Objective-(l1.R+beta*l1.U)) > 1e-12 || !(l1.U < 0) {
		t.Errorf("objective %g ≠ R + βU = %g + %g·%g, or U ≥ 0", l1.Objective, l1.R, beta, l1.U)
	}

	// Central finite differences on every classifier parameter.
	params, grads := tr.Params(), tr.Grads()
	analytic := make([][]float64, len(grads))
	for k := range grads {
		analytic[k] = append([]float64(nil), grads[k]...)
	}
	const h = 1e-6
	var num2, diff2 float64
	for k, p := range params {
		for i := range p {
			orig := p[i]
			p[i] = orig + h
			lp, _ := tr.Gradient(b)
			p[i] = orig - h
			lm, _ := tr.Gradient(b)
			p[i] = orig
			num := (lp.Objective - lm.Objective) / (2 * h)
			num2 += num * num
			diff2 += (num - analytic[k][i]) * (num - analytic[k][i])
		}
	}
	if rel := math.Sqrt(diff2 / num2); !(rel < 1e-6) {
		t.Errorf("gradient through the adversary: ‖Δ‖/‖num‖ = %g, want < 1e-6", rel)
	}
}
