package experiments_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// A row of weight k counts as k copies of it in the risk, in both engines:
// the gradient on rows weighted (2, 1, 0, 3) is 6/4 times the gradient on
// the same rows repeated (row 0 twice, row 1 once, row 3 three times),
// since each batch's risk is a mean over its rows.
func TestRowWeightsCountAsCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const dim = 3
	x := make([]float64, 4*dim)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	y := []float64{1, 0, 1, 0}
	a := []float64{0, 1, 1, 0}
	weighted := train.Data{X: x, N: 4, Dim: dim, Y: y, A: a, RW: []float64{2, 1, 0, 3}}
	var copies train.Data
	copies.Dim = dim
	for i, k := range []int{2, 1, 0, 3} {
		for range k {
			copies.X = append(copies.X, x[i*dim:(i+1)*dim]...)
			copies.Y = append(copies.Y, y[i])
			copies.A = append(copies.A, a[i])
			copies.N++
		}
	}
	arch := model.Arch{Layers: 2, Hidden: 4}
	init := model.Init(arch, dim, rand.New(rand.NewPCG(1, 2)))
	for _, name := range []string{"graph", "backprop"} {
		eng, err := experiments.EngineByName(name)
		if err != nil {
			t.Fatal(err)
		}
		grad := func(d train.Data) [][]float64 {
			spec := train.Spec{Arch: arch, Dim: dim, BatchSize: d.N, Init: init.Clone(),
				Objective: scalarize.Objective{Method: scalarize.Risk}}
			tr, err := eng.NewTrainer(spec)
			if err != nil {
				t.Fatal(err)
			}
			b := train.NewBatch(d.N, dim, arch.Layers-1, arch.Hidden)
			idx := make([]int, d.N)
			for i := range idx {
				idx[i] = i
			}
			b.Fill(d, idx)
			if _, err := tr.Gradient(b); err != nil {
				t.Fatal(err)
			}
			var out [][]float64
			for _, g := range tr.Grads() {
				out = append(out, append([]float64(nil), g...))
			}
			return out
		}
		gw, gc := grad(weighted), grad(copies)
		for l := range gw {
			for k := range gw[l] {
				if want := gc[l][k] * 6 / 4; math.Abs(gw[l][k]-want) > 1e-9*(1+math.Abs(want)) {
					t.Fatalf("%s: gradient %d[%d] = %g with row weights, want %g (6/4 of the copies')", name, l, k, gw[l][k], want)
				}
			}
		}
	}
}
