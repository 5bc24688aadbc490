package graph

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// positiveMean is an input column no built-in penalty uses: y_i/n₊ on the
// batch's n₊ rows with label 1, so Σ col·o is the mean of o over them. It
// is defined here, next to the penalty that needs it: neither train nor
// the engine knows it.
var positiveMean = train.Input{Name: "positive-mean", Fill: func(b *train.Batch, col []float64) {
	var n float64
	for _, y := range b.Y[:b.N] {
		n += y
	}
	for k := range col {
		col[k] = 0
		if n > 0 {
			col[k] = b.Y[k] / n
		}
	}
}}

// positiveRate is U = mean predicted probability over the positives.
var positiveRate = penalties.NewPenalty("positive-rate", "1", []train.Input{positiveMean},
	func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) {
		col, err := b.Column(positiveMean.Name)
		if err != nil {
			return nil, err
		}
		p, err := G.Sigmoid(n.Logit)
		if err != nil {
			return nil, err
		}
		return G.Mul(col, p)
	})

// A penalty with an input of its own trains through the unchanged trainer
// contract: the batch computes the column from the penalty's declaration,
// the engine feeds it, and U is what the column says.
func TestPenaltyWithItsOwnInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	d := synth(rng, 60, smallDim)
	spec := train.Spec{Arch: smallArch, Dim: smallDim, BatchSize: 16, Init: model.Init(smallArch, smallDim, rng),
		Objective: scalarize.Objective{Method: scalarize.Penalty}, Penalty: positiveRate}
	tr, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	// U on one batch against the mean of σ(z) over its positive rows.
	b := train.NewBatch(16, smallDim, smallArch.HiddenLayers(), smallArch.Hidden, spec.Inputs()...)
	idx := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	b.Fill(d, idx)
	for _, m := range b.Masks {
		model.FillMask(nil, m, 0)
	}
	l, err := tr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	z := make([]float64, len(idx))
	if err := tr.Predict(b.X[:len(idx)*smallDim], len(idx), z); err != nil {
		t.Fatal(err)
	}
	var s, n float64
	for k := range idx {
		if b.Y[k] == 1 {
			s, n = s+model.Sigmoid(z[k]), n+1
		}
	}
	if n == 0 || math.Abs(l.U-s/n) > 1e-12 {
		t.Fatalf("U = %v, want the positives' mean probability %v (%v positives)", l.U, s/n, n)
	}
	// train.Fit builds its batches with the column and minimises U.
	res, err := train.Fit(context.Background(), tr, d, train.Options{Epochs: 30, Adam: optim.AdamConfig{LR: 1e-2, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}}, rng)
	if err != nil {
		t.Fatal(err)
	}
	if h := res.History; !(h[len(h)-1].U < h[0].U/2) {
		t.Errorf("U went from %g to %g, want it at least halved", h[0].U, h[len(h)-1].U)
	}
	// The graph engine accepts it up front; the handwritten engine, which
	// does not know it, refuses it.
	if err := (Engine{}).Check(train.Requirements{Penalty: positiveRate}); err != nil {
		t.Errorf("graph engine refuses a graph penalty: %v", err)
	}
	if err := (backprop.Engine{}).Check(train.Requirements{Penalty: positiveRate}); !errors.Is(err, train.ErrUnsupported) {
		t.Errorf("backprop engine: %v, want ErrUnsupported", err)
	}
}

// descriptor is a term with no graph form.
type descriptor struct{}

func (descriptor) Name() string          { return "numbers-only" }
func (descriptor) Version() string       { return "1" }
func (descriptor) Inputs() []train.Input { return nil }

// A term without graph code is refused up front, as a penalty and as a risk.
func TestCheckRefusesTermsWithoutGraphForm(t *testing.T) {
	for _, req := range []train.Requirements{{Penalty: descriptor{}}, {Risk: descriptor{}}} {
		err := (Engine{}).Check(req)
		var ue *train.UnsupportedError
		if !errors.As(err, &ue) || !errors.Is(err, train.ErrUnsupported) || ue.Engine != Name || ue.Term != "numbers-only" {
			t.Errorf("%+v: err = %v, want an *UnsupportedError naming the graph engine and the term", req, err)
		}
	}
	if err := (Engine{}).Check(train.Requirements{Penalty: penalties.ATOAll}); err != nil {
		t.Errorf("built-in penalty: %v", err)
	}
}
