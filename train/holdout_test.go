package train_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

func riskSpec(rng *rand.Rand, dim int) train.Spec {
	arch := model.Arch{Layers: 3, Hidden: 8}
	return train.Spec{Arch: arch, Dim: dim, BatchSize: 16, Dropout: 0.2, Init: model.Init(arch, dim, rng),
		Objective: scalarize.Objective{Method: scalarize.Risk}, Penalty: penalties.ATOPenultimate}
}

// The evaluator's R is the mean cross-entropy of the network's evaluation-
// mode logits over every row, and it measures U although the spec's
// objective is the risk alone.
func TestEvaluatorMeasuresRAndUInEvaluationMode(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	d := synth(120, 5, rng)
	spec := riskSpec(rng, 5)
	tr, err := backprop.Engine{}.NewTrainer(spec)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := train.NewEvaluator(backprop.Engine{}, spec, 200)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ev.Loss(tr.Params(), d)
	if err != nil {
		t.Fatal(err)
	}
	z := make([]float64, d.N)
	if err := tr.Predict(d.X, d.N, z); err != nil {
		t.Fatal(err)
	}
	var want float64
	for i, zi := range z {
		want += math.Max(zi, 0) + math.Log1p(math.Exp(-math.Abs(zi))) - d.Y[i]*zi
	}
	want /= float64(d.N)
	if math.Abs(got.R-want) > 1e-12 {
		t.Errorf("R = %.15g, want the mean cross-entropy %.15g", got.R, want)
	}
	if !(got.U > 0) {
		t.Errorf("U = %g, want the penalty measured (> 0)", got.U)
	}
	// In blocks: R is still the exact mean; U the row-weighted mean of the
	// blocks' penalties.
	small, err := train.NewEvaluator(backprop.Engine{}, spec, 50)
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := small.Loss(tr.Params(), d)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(blocks.R-want) > 1e-12 {
		t.Errorf("R in blocks of 50 = %.15g, want %.15g", blocks.R, want)
	}
	var u float64
	for _, b := range [][2]int{{0, 50}, {50, 100}, {100, 120}} {
		part := train.Data{N: b[1] - b[0], Dim: d.Dim, X: d.X[b[0]*d.Dim : b[1]*d.Dim], Y: d.Y[b[0]:b[1]], A: d.A[b[0]:b[1]], W: d.W[b[0]:b[1]]}
		l, err := ev.Loss(tr.Params(), part)
		if err != nil {
			t.Fatal(err)
		}
		u += l.U * float64(part.N) / float64(d.N)
	}
	if math.Abs(blocks.U-u) > 1e-12 || blocks.U == got.U {
		t.Errorf("U in blocks of 50 = %.15g, want the blocks' weighted mean %.15g (and not the all-rows %.15g)", blocks.U, u, got.U)
	}
}

// With a holdout, Fit ends with the network of the epoch whose validation
// objective was lowest, and reports that epoch and its score.
func TestFitRestoresTheBestValidationEpoch(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	d, val := synth(200, 5, rng), synth(60, 5, rng)
	// Noise labels on the validation part make its risk turn up while the
	// training risk keeps falling, so the best epoch is not the last.
	for i := range val.Y {
		val.Y[i] = float64(rng.IntN(2))
	}
	spec := riskSpec(rng, 5)
	tr, err := backprop.Engine{}.NewTrainer(spec)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := train.NewEvaluator(backprop.Engine{}, spec, val.N)
	if err != nil {
		t.Fatal(err)
	}
	const epochs = 60
	h := &train.Holdout{Data: val, Eval: ev, Objective: spec.Objective}
	res, err := train.Fit(context.Background(), tr, d, train.Options{Epochs: epochs, Adam: optim.DefaultAdam, Holdout: h}, rng)
	if err != nil {
		t.Fatal(err)
	}
	best, at := math.Inf(1), 0
	for _, st := range res.History {
		if st.Val == nil {
			t.Fatalf("epoch %d has no validation score", st.Epoch)
		}
		if st.Val.Objective < best {
			best, at = st.Val.Objective, st.Epoch
		}
	}
	if res.Kept != at || res.Val == nil || res.Val.Objective != best {
		t.Fatalf("kept epoch %d (score %v), want %d (%g)", res.Kept, res.Val, at, best)
	}
	if at == epochs {
		t.Errorf("the best epoch is the last: the test does not show a restore")
	}
	now, err := ev.Loss(tr.Params(), val)
	if err != nil {
		t.Fatal(err)
	}
	if now.R != res.Val.R || now.U != res.Val.U {
		t.Errorf("the trainer holds a network scoring R %g, U %g on the holdout, want the kept epoch's %g, %g", now.R, now.U, res.Val.R, res.Val.U)
	}
}
