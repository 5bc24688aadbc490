package model_test

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
)

// conditioned is a λ-conditioned network whose conditioning network is
// moved off the identity, so that its output depends on λ.
func conditioned(dim int) *model.Conditioned {
	rng := rand.New(rand.NewPCG(3, 4))
	c := model.NewConditioned(model.Init(model.Arch{Layers: 3, Hidden: 4}, dim, rng), 5, rng)
	for _, t := range [][]float64{c.FiLM.W2, c.FiLM.B2} {
		for i := range t {
			t[i] = rng.NormFloat64() * 0.5
		}
	}
	return c
}

// A fp-network/3 file survives Save and Load, refuses Params, and At
// gives the plain file of the network at λ, whose card says it came from a
// conditioned network.
func TestConditionedFileAt(t *testing.T) {
	c := conditioned(3)
	f := model.NewConditionedFile(c, []string{"a", "b", "c"}, []float64{1, 2, 3}, []float64{2, 0, 0.5})
	f.Card = &model.Card{Dataset: "d", Method: "cheb", Split: 2, Conditioned: true}
	path := filepath.Join(t.TempDir(), "net.json")
	if err := model.Save(path, f); err != nil {
		t.Fatal(err)
	}
	g, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !g.IsConditioned() || g.Card == nil || !g.Card.Conditioned {
		t.Fatalf("loaded: conditioned %v, card %+v", g.IsConditioned(), g.Card)
	}
	if _, err := g.Params(); err == nil || !strings.Contains(err.Error(), "--lambda") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Params of a conditioned file: err = %v, want one line naming --lambda", err)
	}
	if _, err := g.Predict([]float64{1, 2, 3}, 1); err == nil {
		t.Error("Predict of a conditioned file: no error")
	}
	x := []float64{3, 7, 2, -1, 2, 4}
	std := []float64{1, 0, -2, -1, 0, 2} // x standardized by hand (sd 0 → 0)
	var first []float64
	for _, lambda := range []float64{0.01, 0.9} {
		at, err := g.At(lambda)
		if err != nil {
			t.Fatal(err)
		}
		if at.Format != model.FileFormat || at.FiLM != nil || at.Card.Lambda != lambda || !at.Card.Conditioned || at.Card.Split != 2 {
			t.Errorf("At(%g): format %q, film %v, card %+v", lambda, at.Format, at.FiLM != nil, at.Card)
		}
		got, err := at.Logits(x, 2)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, 2)
		c.At(lambda).Forward(std, 2, want)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("At(%g) row %d: logit %g, want %g", lambda, i, got[i], want[i])
			}
		}
		if first == nil {
			first = got
		} else if math.Abs(first[0]-got[0]) < 1e-6 {
			t.Errorf("the logits at two λ agree (%g, %g): the conditioning has no effect", first[0], got[0])
		}
	}
	if g.Card.Lambda != 0 {
		t.Errorf("At changed the conditioned file's card: λ = %g", g.Card.Lambda)
	}
	for _, lambda := range []float64{-0.1, 1.5, math.NaN()} {
		if _, err := g.At(lambda); err == nil {
			t.Errorf("At(%g): no error", lambda)
		}
	}
	plain, _ := g.At(0.5)
	if _, err := plain.At(0.5); err == nil {
		t.Error("At of a plain file: no error")
	}
}
