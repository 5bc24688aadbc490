package layers

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
	G "gorgonia.org/gorgonia"
)

// A conditioning network away from the identity.
func movedFiLM(arch model.Arch, output bool, rng *rand.Rand) *model.FiLM {
	f := model.NewFiLM(arch, 4, output, rng)
	for _, t := range [][]float64{f.W2, f.B2} {
		for i := range t {
			t[i] = 0.3 * rng.NormFloat64()
		}
	}
	return f
}

// The graph's γ_l and δ_l are model.FiLM.Modulation's, and ForwardFiLM
// computes the plain network model.Conditioned.At(λ): its hidden layers are
// the modulated pre-activations, its logits At(λ)'s, and its unmodulated
// layers z_l are what the modulation γ_l ⊙ z_l + δ_l turns into them.
// SetLambda moves both. With the output layer modulated too, the logit is
// γ_out·z + δ_out, still At(λ)'s.
func TestFiLMMatchesModel(t *testing.T) {
	for _, output := range []bool{false, true} {
		t.Run(fmt.Sprintf("output-%t", output), func(t *testing.T) { testFiLMMatchesModel(t, output) })
	}
}

func testFiLMMatchesModel(t *testing.T, output bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	arch := model.Arch{Layers: 4, Hidden: 3}
	const n, dim = 6, 5
	p := model.Init(arch, dim, rng)
	film := movedFiLM(arch, output, rng)
	x := make([]float64, n*dim)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	g := G.NewGraph()
	xn := matrix(g, n, dim, x, "X")
	mlp, err := NewMLP(g, p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFiLM(g, film, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	out, err := mlp.ForwardFiLM(xn, nil, f)
	if err != nil {
		t.Fatal(err)
	}
	outputs := append(G.Nodes{out.Logit}, out.Hidden...)
	outputs = append(outputs, f.Gamma...)
	outputs = append(outputs, f.Delta...)
	if len(out.Unmodulated) != arch.HiddenLayers() {
		t.Fatalf("%d unmodulated layers, want %d", len(out.Unmodulated), arch.HiddenLayers())
	}
	outputs = append(outputs, out.Unmodulated...)
	if plain, err := mlp.Forward(xn, nil); err != nil || plain.Unmodulated != nil {
		t.Fatalf("Forward: unmodulated layers %v (%v), want none", plain.Unmodulated, err)
	}
	cond := &model.Conditioned{Net: p, FiLM: film}
	ones := make([][]float64, arch.HiddenLayers())
	for l := range ones {
		ones[l] = make([]float64, n*arch.Hidden)
		model.FillMask(rng, ones[l], 0)
	}
	for _, lambda := range []float64{0, 1e-3, 0.3, 0.6180339887, 1} {
		if err := f.SetLambda(lambda); err != nil {
			t.Fatal(err)
		}
		v := run(t, g, outputs, nil, nil) // a fresh machine reads the rewritten encoding
		at := cond.At(lambda)
		hidden, logits := refForward(at, x, n, ones)
		if got := data(v[0]); !near(got, logits, 1e-13) {
			t.Errorf("λ = %g: logits %v, At(λ) %v", lambda, got, logits)
		}
		h, m := arch.HiddenLayers(), film.Modulated()
		if len(f.Gamma) != m || len(f.Delta) != m {
			t.Fatalf("%d γ and %d δ, want %d", len(f.Gamma), len(f.Delta), m)
		}
		for l := range hidden {
			if got := data(v[1+l]); !near(got, hidden[l], 1e-13) {
				t.Errorf("λ = %g: modulated h^(%d) = %v, At(λ)'s pre-activations %v", lambda, l+1, got, hidden[l])
			}
		}
		gamma, delta := film.Modulation(lambda)
		for l := 0; l < h; l++ {
			if got := data(v[1+h+l]); !near(got, gamma[l], 1e-15) {
				t.Errorf("λ = %g: γ_%d = %v, model %v", lambda, l+1, got, gamma[l])
			}
			if got := data(v[1+h+m+l]); !near(got, delta[l], 1e-15) {
				t.Errorf("λ = %g: δ_%d = %v, model %v", lambda, l+1, got, delta[l])
			}
			z := data(v[1+h+2*m+l])
			mod := make([]float64, len(z))
			for i := range z {
				u := i % arch.Hidden
				mod[i] = gamma[l][u]*z[i] + delta[l][u]
			}
			if !near(mod, hidden[l], 1e-13) {
				t.Errorf("λ = %g: γ ⊙ z_%d + δ = %v, At(λ)'s pre-activations %v", lambda, l+1, mod, hidden[l])
			}
		}
		if output {
			if got := []float64{v[1+h+h].Data().(float64)}; !near(got, gamma[h], 1e-15) || gamma[h][0] == 1 {
				t.Errorf("λ = %g: γ_out = %v, model %v (want ≠ 1)", lambda, got, gamma[h])
			}
			if got := []float64{v[1+h+m+h].Data().(float64)}; !near(got, delta[h], 1e-15) || delta[h][0] == 0 {
				t.Errorf("λ = %g: δ_out = %v, model %v (want ≠ 0)", lambda, got, delta[h])
			}
		}
	}
	// Parameters in model.FiLM.Tensors order, aliasing the values; Network a copy.
	for i, vals := range f.Values() {
		if !near(vals, film.Tensors()[i], 0) || f.Params()[i].Shape().TotalSize() != len(vals) {
			t.Errorf("parameter %d is not model.FiLM tensor %d", i, i)
		}
	}
	if net := f.Network(); !near(net.W2, film.W2, 0) || &net.W2[0] == &f.Values()[2][0] || net.Width != 4 || net.Output != output {
		t.Error("Network must be a copy of the current values")
	}
}

func TestFiLMErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	arch := model.Arch{Layers: 3, Hidden: 2}
	g := G.NewGraph()
	x := matrix(g, 4, 3, make([]float64, 12), "x")
	mlp, err := NewMLP(g, model.Init(arch, 3, rng))
	if err != nil {
		t.Fatal(err)
	}
	other, err := NewFiLM(g, model.NewFiLM(model.Arch{Layers: 3, Hidden: 4}, 2, false, rng), 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mlp.ForwardFiLM(x, nil, other); err == nil || !strings.Contains(err.Error(), "modulates 2 layers of 4 units, want 2 of 2") {
		t.Errorf("a conditioning network for another width: %v", err)
	}
	if _, err := mlp.ForwardFiLM(x, nil, nil); err == nil || !strings.Contains(err.Error(), "no conditioning network") {
		t.Errorf("no conditioning network: %v", err)
	}
	if _, err := NewFiLM(g, model.NewFiLM(arch, 2, false, rng), 0.5); err == nil || !strings.Contains(err.Error(), "already has an input") {
		t.Errorf("a second conditioning network in the same graph: %v", err)
	}
	if _, err := NewFiLM(G.NewGraph(), nil, 0.5); err == nil {
		t.Error("nil conditioning network accepted")
	}
	bad := model.NewFiLM(arch, 2, false, rng)
	bad.W2 = bad.W2[:3]
	if _, err := NewFiLM(G.NewGraph(), bad, 0.5); err == nil || !strings.Contains(err.Error(), "tensor 3") {
		t.Errorf("a conditioning network of the wrong shape: %v", err)
	}
	for _, lambda := range []float64{-0.5, 1.5} {
		if _, err := NewFiLM(G.NewGraph(), model.NewFiLM(arch, 2, false, rng), lambda); err == nil || !strings.Contains(err.Error(), "outside [0, 1]") {
			t.Errorf("λ = %g: %v", lambda, err)
		}
	}
}
