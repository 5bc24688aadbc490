package model_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
)

// movedConditioned is a λ-conditioned network of arch with its
// conditioning network moved off the identity, modulating the output layer
// too when output is set.
func movedConditioned(arch model.Arch, dim int, output bool, seed uint64) *model.Conditioned {
	rng := rand.New(rand.NewPCG(seed, 7))
	c := &model.Conditioned{Net: model.Init(arch, dim, rng), FiLM: model.NewFiLM(arch, 5, output, rng)}
	for _, t := range [][]float64{c.FiLM.W2, c.FiLM.B2} {
		for i := range t {
			t[i] = rng.NormFloat64() * 0.5
		}
	}
	return c
}

// modulatedForward is the conditioned network computed as docs/method.md
// §12 writes it, without the fold: h_l = relu(γ_l ⊙ (v W_l + b_l) + δ_l)
// and, with the output modulated, z = γ_out·(v W_L + b_L) + δ_out.
func modulatedForward(c *model.Conditioned, lambda float64, x []float64, n int) []float64 {
	gamma, delta := c.FiLM.Modulation(lambda)
	shapes := c.Net.Arch.Shapes(c.Net.Dim)
	out := make([]float64, n)
	for r := 0; r < n; r++ {
		v := x[r*c.Net.Dim : (r+1)*c.Net.Dim]
		for l, s := range shapes {
			next := make([]float64, s.Out)
			for j := range next {
				z := c.Net.B[l][j]
				for i, vi := range v {
					z += vi * c.Net.W[l][i*s.Out+j]
				}
				if l < len(gamma) {
					z = gamma[l][j]*z + delta[l][j]
				}
				if l < len(shapes)-1 {
					z = math.Max(z, 0)
				}
				next[j] = z
			}
			v = next
		}
		out[r] = v[0]
	}
	return out
}

// The fold (Conditioned.At) computes the modulated network at every λ,
// with and without the output layer modulated; with it, the modulation
// reaches the logit, so the two disagree when it is dropped.
func TestFoldMatchesModulatedForward(t *testing.T) {
	const n, dim = 7, 4
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, n*dim)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	for _, arch := range []model.Arch{{Layers: 2, Hidden: 3}, {Layers: 4, Hidden: 5}} {
		for _, output := range []bool{false, true} {
			t.Run(fmt.Sprintf("%dx%d/output-%t", arch.Layers, arch.Hidden, output), func(t *testing.T) {
				c := movedConditioned(arch, dim, output, uint64(arch.Layers))
				gamma, _ := c.FiLM.Modulation(0.5)
				if want := arch.HiddenLayers() + map[bool]int{false: 0, true: 1}[output]; len(gamma) != want || c.FiLM.Modulated() != want {
					t.Fatalf("%d modulated layers (Modulated %d), want %d", len(gamma), c.FiLM.Modulated(), want)
				}
				for _, lambda := range []float64{0, 1e-3, 0.27, 0.5, 0.93, 1} {
					want := modulatedForward(c, lambda, x, n)
					got := make([]float64, n)
					c.At(lambda).Forward(x, n, got)
					for i := range want {
						if math.Abs(got[i]-want[i]) > 1e-12*math.Max(1, math.Abs(want[i])) {
							t.Errorf("λ = %g row %d: folded logit %.17g, modulated %.17g", lambda, i, got[i], want[i])
						}
					}
					if output {
						hiddenOnly := c.Clone()
						hiddenOnly.FiLM.Output = false
						hiddenOnly.FiLM.W2, hiddenOnly.FiLM.B2 = dropOutputColumns(c.FiLM)
						other := make([]float64, n)
						hiddenOnly.At(lambda).Forward(x, n, other)
						if math.Abs(other[0]-got[0]) < 1e-9 {
							t.Errorf("λ = %g: the output modulation does not change the logit (%g)", lambda, got[0])
						}
					}
				}
			})
		}
	}
}

// dropOutputColumns returns f's W2 and B2 without the output layer's two
// columns.
func dropOutputColumns(f *model.FiLM) (w2, b2 []float64) {
	n := f.Outputs()
	for j := 0; j < f.Width; j++ {
		w2 = append(w2, f.W2[j*n:(j+1)*n-2]...)
	}
	return w2, append([]float64(nil), f.B2[:n-2]...)
}

// A fresh conditioning network is the identity, the output layer's
// modulation included: γ = 1, δ = 0 and At(λ) is the MLP, bit for bit.
func TestNewFiLMIsIdentity(t *testing.T) {
	arch := model.Arch{Layers: 3, Hidden: 4}
	for _, output := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(2, 3))
		net := model.Init(arch, 3, rng)
		f := model.NewFiLM(arch, 6, output, rng)
		if err := f.Validate(arch); err != nil {
			t.Fatal(err)
		}
		want := 2 * 2 * 4
		if output {
			want += 2
		}
		if f.Outputs() != want || len(f.B2) != want || len(f.W2) != 6*want || f.Output != output {
			t.Fatalf("output %t: %d outputs, B2 %d, W2 %d, want %d", output, f.Outputs(), len(f.B2), len(f.W2), want)
		}
		c := &model.Conditioned{Net: net, FiLM: f}
		for _, lambda := range []float64{0, 0.01, 0.6, 1} {
			gamma, delta := f.Modulation(lambda)
			for l := range gamma {
				for j := range gamma[l] {
					if gamma[l][j] != 1 || delta[l][j] != 0 {
						t.Errorf("output %t, λ = %g: layer %d unit %d: γ = %g, δ = %g", output, lambda, l, j, gamma[l][j], delta[l][j])
					}
				}
			}
			at := c.At(lambda).Tensors()
			for k, tensor := range net.Tensors() {
				for i := range tensor {
					if at[k][i] != tensor[i] {
						t.Fatalf("output %t, λ = %g: tensor %d [%d] = %g, the MLP's %g", output, lambda, k, i, at[k][i], tensor[i])
					}
				}
			}
		}
	}
}

// Backward, the output layer's entry included, is the gradient of
// Σ_l a_l·γ_l + b_l·δ_l by central differences.
func TestFiLMBackwardOutput(t *testing.T) {
	arch := model.Arch{Layers: 3, Hidden: 2}
	c := movedConditioned(arch, 2, true, 9)
	f := c.FiLM
	rng := rand.New(rand.NewPCG(4, 4))
	const lambda = 0.37
	g0, _ := f.Modulation(lambda)
	a, b := make([][]float64, len(g0)), make([][]float64, len(g0))
	for l := range g0 {
		a[l], b[l] = make([]float64, len(g0[l])), make([]float64, len(g0[l]))
		for j := range a[l] {
			a[l][j], b[l][j] = rng.NormFloat64(), rng.NormFloat64()
		}
	}
	loss := func() float64 {
		gamma, delta := f.Modulation(lambda)
		s := 0.0
		for l := range gamma {
			for j := range gamma[l] {
				s += a[l][j]*gamma[l][j] + b[l][j]*delta[l][j]
			}
		}
		return s
	}
	grads := [][]float64{make([]float64, len(f.W1)), make([]float64, len(f.B1)), make([]float64, len(f.W2)), make([]float64, len(f.B2))}
	f.Backward(lambda, a, b, grads)
	if n := len(f.B2); grads[3][n-2] != a[len(a)-1][0] || grads[3][n-1] != b[len(b)-1][0] {
		t.Errorf("output layer's B2 gradient (%g, %g), want (%g, %g)", grads[3][n-2], grads[3][n-1], a[len(a)-1][0], b[len(b)-1][0])
	}
	const h = 1e-6
	for k, p := range f.Tensors() {
		for i := range p {
			orig := p[i]
			p[i] = orig + h
			lp := loss()
			p[i] = orig - h
			lm := loss()
			p[i] = orig
			if num := (lp - lm) / (2 * h); math.Abs(num-grads[k][i]) > 1e-7*math.Max(1, math.Abs(num)) {
				t.Errorf("tensor %d [%d]: gradient %g, numeric %g", k, i, grads[k][i], num)
			}
		}
	}
}

// A file whose conditioning network modulates the output layer keeps the
// option through Save and Load and folds the same; a file without the
// field (as written before it existed) loads as hidden layers only, and the
// field is written only when set.
func TestFiLMOutputFileRoundTrip(t *testing.T) {
	for _, output := range []bool{false, true} {
		c := movedConditioned(model.Arch{Layers: 3, Hidden: 4}, 2, output, 5)
		f := model.NewConditionedFile(c, []string{"a", "b"}, []float64{0, 1}, []float64{1, 2})
		path := filepath.Join(t.TempDir(), "net.json")
		if err := model.Save(path, f); err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(c.FiLM)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), `"output"`) != output {
			t.Errorf("output %t: the JSON %s… names the field: %t", output, raw[:60], !output)
		}
		g, err := model.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		lc, err := g.Conditioned()
		if err != nil {
			t.Fatal(err)
		}
		if lc.FiLM.Output != output {
			t.Fatalf("loaded: Output %t, want %t", lc.FiLM.Output, output)
		}
		x := []float64{0.3, 1.4, -1, 2.5}
		for _, lambda := range []float64{0.05, 0.8} {
			at, err := g.At(lambda)
			if err != nil {
				t.Fatal(err)
			}
			got, err := at.Logits(x, 2)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, 2)
			c.At(lambda).Forward([]float64{0.3, 0.2, -1, 0.75}, 2, want) // x standardized by hand
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12 {
					t.Errorf("output %t, λ = %g row %d: logit %g, want %g", output, lambda, i, got[i], want[i])
				}
			}
		}
	}
	// A conditioning network that says it modulates the output layer but
	// has the hidden layers' outputs only is refused.
	c := movedConditioned(model.Arch{Layers: 3, Hidden: 4}, 2, false, 5)
	c.FiLM.Output = true
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "tensor 3") {
		t.Errorf("Output set on a network without its outputs: %v", err)
	}
}
