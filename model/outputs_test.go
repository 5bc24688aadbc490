package model

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// A network of R outputs computes, output by output, what the one-output
// network with the same hidden layers and that output's column of the last
// layer computes; Clone keeps its outputs and Validate checks them.
func TestOutputsAreColumnsOfTheLastLayer(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	a := Arch{Layers: 3, Hidden: 5}
	const dim, R, n = 4, 3, 7
	p := InitOutputs(a, dim, R, rng)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.Out() != R || len(p.B[2]) != R || len(p.W[2]) != 5*R {
		t.Fatalf("outputs %d, last layer %d biases and %d weights", p.Out(), len(p.B[2]), len(p.W[2]))
	}
	x := make([]float64, n*dim)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	got := make([]float64, n*R)
	p.Forward(x, n, got)
	for r := range R {
		q := NewParams(a, dim)
		for l := range 2 {
			copy(q.W[l], p.W[l])
			copy(q.B[l], p.B[l])
		}
		for j := range 5 {
			q.W[2][j] = p.W[2][j*R+r]
		}
		q.B[2][0] = p.B[2][r]
		want := make([]float64, n)
		q.Forward(x, n, want)
		for i := range n {
			if got[i*R+r] != want[i] {
				t.Fatalf("row %d, output %d: %v, one-output network %v", i, r, got[i*R+r], want[i])
			}
		}
	}
	if c := p.Clone(); c.Out() != R || c.Validate() != nil {
		t.Errorf("clone has %d outputs (%v)", c.Out(), c.Validate())
	}
	one := *p
	one.Outputs = 0 // the last layer is R wide, not one
	if err := one.Validate(); err == nil || !strings.Contains(err.Error(), `"weights[2]"`) {
		t.Errorf("a network of %d outputs read as one: %v", R, err)
	}
}
