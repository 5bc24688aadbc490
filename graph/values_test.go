package graph

import (
	"math"
	"testing"

	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"gorgonia.org/tensor"
)

// Trainer.Value reads intermediate nodes of the last training step: the
// logits agree with a plain forward pass, R with the reported loss, and the
// copy it returns does not change with the next step.
func TestValue(t *testing.T) {
	c := newSmallCase(11)
	tr, err := New(c.spec(scalarize.Objective{Method: scalarize.Linear, Lambda: 0.5,
		Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0, UMax: 0.2}}, penalties.ATOAll, nil))
	if err != nil {
		t.Fatal(err)
	}
	p := tr.Program()
	if _, err := tr.Value(p.Net.Logit); err == nil {
		t.Error("a value before the first step")
	}
	l, err := tr.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	_, z := refForward(c.p, c.b.X, smallSize, c.b.Masks)
	v, err := tr.Value(p.Net.Logit)
	if err != nil {
		t.Fatal(err)
	}
	got := v.(tensor.Tensor).Data().([]float64)
	for i := range z {
		if math.Abs(got[i]-z[i]) > 1e-12*(1+math.Abs(z[i])) {
			t.Fatalf("logit %d = %v, want %v", i, got[i], z[i])
		}
	}
	r, err := tr.Value(p.R)
	if err != nil {
		t.Fatal(err)
	}
	if rv, err := scalar(r); err != nil || rv != l.R {
		t.Errorf("R node %v (%v), loss R %v", rv, err, l.R)
	}
	before := append([]float64(nil), got...)
	c.b.X[0] += 1 // another batch
	if _, err := tr.Gradient(c.b); err != nil {
		t.Fatal(err)
	}
	if !sameBits(got, before) {
		t.Error("the returned value changed with the next step")
	}
	if _, err := tr.Value(p.EvalLogit); err == nil {
		t.Error("a value for a node of the evaluation path")
	}
}
