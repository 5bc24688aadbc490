package model

import (
	"math/rand/v2"
	"testing"
)

// Scorer gives Predict's probabilities bit for bit, and allocates nothing.
func TestScorerMatchesPredict(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	arch := Arch{Layers: 3, Hidden: 5}
	const dim, n = 6, 50
	p := Init(arch, dim, rng)
	mean, sd := make([]float64, dim), make([]float64, dim)
	for j := range mean {
		mean[j], sd[j] = rng.NormFloat64(), rng.Float64()+0.5
	}
	sd[2] = 0 // a constant column
	f := NewFile(p, nil, mean, sd)
	x := make([]float64, n*dim)
	for i := range x {
		x[i] = rng.NormFloat64() * 3
		if i%7 == 0 {
			x[i] = 0
		}
	}
	want, err := f.Predict(x, n)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.NewScorer()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if got := Sigmoid(s.Logit(x[i*dim : (i+1)*dim])); got != want[i] {
			t.Fatalf("row %d: %v, Predict %v", i, got, want[i])
		}
	}
	if a := testing.AllocsPerRun(100, func() { s.Logit(x[:dim]) }); a != 0 {
		t.Errorf("Logit allocates %v times per row", a)
	}
}
