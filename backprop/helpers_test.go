package backprop_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// problem is a random network, batch and objective to differentiate.
type problem struct {
	name    string
	arch    model.Arch
	dim     int
	size, n int     // batch rows, real rows (n < size pads)
	dropout float64 // mask probability
	obj     scalarize.Objective
	penalty penalties.Penalty
}

// std has ranges wide enough that R̃ and Ũ are of order 1.
var std = scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0.01, UMax: 0.4}

func objective(m scalarize.Method, lambda float64) scalarize.Objective {
	return scalarize.Objective{Method: m, Lambda: lambda, Std: std}
}

// augmented is the augmented Chebyshev objective at λ with ρ.
func augmented(lambda, rho float64) scalarize.Objective {
	return scalarize.Objective{Method: scalarize.ChebyshevAugmented, Lambda: lambda, Std: std, Scalarization: scalarize.ChebAug{Rho: rho}}
}

// randomData draws n rows: standard normal features, balanced labels and
// groups, overlap weights in (0.05, 0.95).
func randomData(rng *rand.Rand, n, dim int) train.Data {
	d := train.Data{X: make([]float64, n*dim), N: n, Dim: dim,
		Y: make([]float64, n), A: make([]float64, n), W: make([]float64, n)}
	for i := range d.X {
		d.X[i] = rng.NormFloat64()
	}
	for i := 0; i < n; i++ {
		d.Y[i] = float64(rng.IntN(2))
		d.A[i] = float64(i % 2) // both groups in every batch of ≥ 2 rows
		d.W[i] = 0.05 + 0.9*rng.Float64()
	}
	return d
}

// randomBatch fills a batch of p's shape with n random real rows and fresh
// dropout masks.
func randomBatch(rng *rand.Rand, p problem) *train.Batch {
	d := randomData(rng, p.n, p.dim)
	b := train.NewBatch(p.size, p.dim, p.arch.HiddenLayers(), p.arch.Hidden, penalties.Contrast)
	idx := make([]int, p.n)
	for i := range idx {
		idx[i] = i
	}
	b.Fill(d, idx)
	for _, m := range b.Masks {
		model.FillMask(rng, m, p.dropout)
	}
	return b
}

func (p problem) spec(init *model.Params) train.Spec {
	return train.Spec{Arch: p.arch, Dim: p.dim, BatchSize: p.size, Dropout: p.dropout,
		Init: init, Objective: p.obj, Penalty: p.penalty}
}

// compare checks that got matches want to relative tolerance tol: elementwise
// against max(|want_i|, 1e-3·‖want‖∞), so components far below the
// gradient's scale are held to an absolute bound.
func compare(t *testing.T, what string, got, want [][]float64, tol float64) {
	t.Helper()
	var scale float64
	for _, w := range want {
		for _, v := range w {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	bad := 0
	for k := range want {
		if len(got[k]) != len(want[k]) {
			t.Fatalf("%s: tensor %d has %d entries, want %d", what, k, len(got[k]), len(want[k]))
		}
		for i := range want[k] {
			g, w := got[k][i], want[k][i]
			if math.Abs(g-w) > tol*math.Max(math.Abs(w), 1e-3*scale) || math.IsNaN(g) {
				if bad < 5 {
					t.Errorf("%s: tensor %d [%d] = %.15g, want %.15g (rel %.2g)", what, k, i, g, w, math.Abs(g-w)/math.Abs(w))
				}
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d entries differ beyond %g", what, bad, tol)
	}
}

func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b)) || a == b
}

func copyTensors(ts [][]float64) [][]float64 {
	out := make([][]float64, len(ts))
	for i, t := range ts {
		out[i] = append([]float64(nil), t...)
	}
	return out
}
