package layers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func matrix(g *G.ExprGraph, r, c int, v []float64, name string) *G.Node {
	return G.NewMatrix(g, tensor.Float64, G.WithShape(r, c), G.WithName(name),
		G.WithValue(tensor.New(tensor.WithShape(r, c), tensor.WithBacking(append([]float64(nil), v...)))))
}

// run compiles the outputs (plus the gradients of cost with respect to wrt,
// when cost is not nil) and returns their values, read safely with G.Read.
func run(t *testing.T, g *G.ExprGraph, outputs G.Nodes, cost *G.Node, wrt G.Nodes) []G.Value {
	t.Helper()
	if cost != nil {
		grads, err := G.Grad(cost, wrt...)
		if err != nil {
			t.Fatal(err)
		}
		outputs = append(outputs, grads...)
	}
	vals := make([]G.Value, len(outputs))
	reads := make(G.Nodes, len(outputs))
	for i, n := range outputs {
		reads[i] = G.Read(n, &vals[i])
	}
	m := G.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	return vals
}

func data(v G.Value) []float64 { return v.Data().([]float64) }

func near(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// x = [1 2 3; −1 0 2], W = [1 0; 0 1; 1 −1], b = [0.5 −0.5]:
// xW = [4 −1; 1 −2], xW + b = [4.5 −1.5; 1.5 −2.5].
func TestDenseForward(t *testing.T) {
	g := G.NewGraph()
	x := matrix(g, 2, 3, []float64{1, 2, 3, -1, 0, 2}, "x")
	w := []float64{1, 0, 0, 1, 1, -1}
	d, err := NewDense(g, 3, 2, w, []float64{0.5, -0.5}, "d")
	if err != nil {
		t.Fatal(err)
	}
	w[0] = 100 // NewDense copied the weights: this changes nothing
	h, err := d.Forward(x)
	if err != nil {
		t.Fatal(err)
	}
	v := run(t, g, G.Nodes{h}, nil, nil)
	if got, want := data(v[0]), []float64{4.5, -1.5, 1.5, -2.5}; !near(got, want, 0) {
		t.Errorf("xW + b = %v, want %v", got, want)
	}
	if d.Weights()[0] != 1 || len(d.Biases()) != 2 {
		t.Errorf("Weights/Biases do not hold the layer's values: %v %v", d.Weights(), d.Biases())
	}
}

// Writing to Weights changes the next run: they back the node's value.
func TestDenseWeightsAreLive(t *testing.T) {
	g := G.NewGraph()
	x := matrix(g, 1, 2, []float64{1, 1}, "x")
	d, err := NewDense(g, 2, 1, []float64{1, 2}, []float64{0}, "d")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := d.Forward(x)
	var v G.Value
	G.Read(h, &v)
	m := G.NewTapeMachine(g)
	defer m.Close()
	for _, want := range []float64{3, 13} {
		if err := m.RunAll(); err != nil {
			t.Fatal(err)
		}
		m.Reset()
		if got := data(v)[0]; got != want {
			t.Errorf("output %v, want %v", got, want)
		}
		d.Weights()[1] = 12
	}
}

func TestNewDenseRejectsShapes(t *testing.T) {
	g := G.NewGraph()
	for _, c := range []struct {
		in, out int
		w, b    []float64
	}{
		{2, 2, make([]float64, 3), make([]float64, 2)},
		{2, 2, make([]float64, 4), make([]float64, 1)},
		{0, 2, nil, make([]float64, 2)},
	} {
		if _, err := NewDense(g, c.in, c.out, c.w, c.b, "bad"); err == nil {
			t.Errorf("%d×%d with %d weights and %d biases was accepted", c.in, c.out, len(c.w), len(c.b))
		}
	}
}

// Gorgonia's ReLU is x·(x ≥ 0), so ReLU′(0) = 1: the handwritten engine
// mirrors this convention.
func TestRectifyDerivativeAtZero(t *testing.T) {
	g := G.NewGraph()
	x := G.NewVector(g, tensor.Float64, G.WithShape(3), G.WithName("x"),
		G.WithValue(tensor.New(tensor.WithBacking([]float64{-1, 0, 2}))))
	s := G.Must(G.Sum(G.Must(G.Rectify(x))))
	v := run(t, g, nil, s, G.Nodes{x})
	if got := data(v[0]); !near(got, []float64{0, 1, 1}, 0) {
		t.Errorf("ReLU′ at [−1 0 2] = %v, want [0 1 1]", got)
	}
}

// The gradient through Dropout(h, m) is m ⊙ upstream: with the mask
// [0 1.25; 1.25 1.25] and upstream c, it is m ⊙ c exactly (Gorgonia's own
// Dropout op would give 4× that at p = 0.2).
func TestDropoutGradient(t *testing.T) {
	g := G.NewGraph()
	h := matrix(g, 2, 2, []float64{1, -2, 3, 4}, "h")
	m, err := NewMask(g, 2, 2, "m")
	if err != nil {
		t.Fatal(err)
	}
	copy(m.Data, []float64{0, 1.25, 1.25, 1.25})
	c := matrix(g, 2, 2, []float64{0.5, -1, 2, 3}, "c")
	out, err := Dropout(h, m.Node)
	if err != nil {
		t.Fatal(err)
	}
	cost := G.Must(G.Sum(G.Must(G.HadamardProd(out, c))))
	v := run(t, g, G.Nodes{out}, cost, G.Nodes{h})
	if got, want := data(v[0]), []float64{0, -2.5, 3.75, 5}; !near(got, want, 0) {
		t.Errorf("h ⊙ m = %v, want %v", got, want)
	}
	if got, want := data(v[1]), []float64{0, -1.25, 2.5, 3.75}; !near(got, want, 0) {
		t.Errorf("d/dh = %v, want m ⊙ c = %v", got, want)
	}
	if same, _ := Dropout(h, nil); same != h {
		t.Error("Dropout with a nil mask (evaluation) must return its input")
	}
	fresh, err := NewMask(g, 2, 3, "ones")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range fresh.Data {
		if v != 1 {
			t.Fatalf("a new mask is %v, want all ones", fresh.Data)
		}
	}
}

// refForward is a plain forward pass with masks, independent of the graph.
func refForward(p *model.Params, x []float64, n int, masks [][]float64) (hidden [][]float64, logits []float64) {
	shapes := p.Arch.Shapes(p.Dim)
	in := x
	for l, s := range shapes {
		pre := make([]float64, n*s.Out)
		for i := 0; i < n; i++ {
			for j := 0; j < s.Out; j++ {
				v := p.B[l][j]
				for k := 0; k < s.In; k++ {
					v += in[i*s.In+k] * p.W[l][k*s.Out+j]
				}
				pre[i*s.Out+j] = v
			}
		}
		if l == len(shapes)-1 {
			return hidden, pre
		}
		hidden = append(hidden, pre)
		act := make([]float64, len(pre))
		for i, v := range pre {
			act[i] = math.Max(v, 0) * masks[l][i]
		}
		in = act
	}
	return nil, nil
}

func TestMLPMatchesNumericForward(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	arch := model.Arch{Layers: 4, Hidden: 3}
	const n, dim = 6, 5
	p := model.Init(arch, dim, rng)
	x := make([]float64, n*dim)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	masks := make([][]float64, arch.HiddenLayers())
	for l := range masks {
		masks[l] = make([]float64, n*arch.Hidden)
		model.FillMask(rng, masks[l], 0.3)
	}
	g := G.NewGraph()
	xn := matrix(g, n, dim, x, "X")
	var maskNodes []*G.Node
	for l := range masks {
		m, err := NewMask(g, n, arch.Hidden, fmt.Sprintf("mask%d", l))
		if err != nil {
			t.Fatal(err)
		}
		copy(m.Data, masks[l])
		maskNodes = append(maskNodes, m.Node)
	}
	mlp, train, err := Build(g, xn, p, maskNodes)
	if err != nil {
		t.Fatal(err)
	}
	eval, err := mlp.Forward(xn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(train.Hidden) != 3 || train.Logit.Shape()[0] != n || train.Logit.Dims() != 1 {
		t.Fatalf("outputs: %d hidden layers, logit shape %v", len(train.Hidden), train.Logit.Shape())
	}
	v := run(t, g, append(G.Nodes{train.Logit, eval.Logit}, train.Hidden...), nil, nil)

	hidden, logits := refForward(p, x, n, masks)
	if got := data(v[0]); !near(got, logits, 1e-13) {
		t.Errorf("training logits %v, numeric %v", got, logits)
	}
	for l := range hidden {
		if got := data(v[2+l]); !near(got, hidden[l], 1e-13) {
			t.Errorf("h^(%d) = %v, numeric %v", l+1, got, hidden[l])
		}
	}
	want := make([]float64, n)
	p.Forward(x, n, want)
	if got := data(v[1]); !near(got, want, 1e-13) {
		t.Errorf("evaluation logits %v, model.Params.Forward %v", got, want)
	}
	// Parameters come in model.Params order and alias the values.
	ts := p.Tensors()
	for i, vals := range mlp.Values() {
		if !near(vals, ts[i], 0) || mlp.Params()[i].Shape().TotalSize() != len(ts[i]) {
			t.Errorf("parameter %d is not model.Params tensor %d", i, i)
		}
	}
	if net := mlp.Network(); !near(net.W[2], p.W[2], 0) || &net.W[2][0] == &mlp.Values()[4][0] {
		t.Error("Network must be a copy of the current values")
	}
}

func TestMLPErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	arch := model.Arch{Layers: 3, Hidden: 2}
	p := model.Init(arch, 3, rng)
	g := G.NewGraph()
	x := matrix(g, 4, 3, make([]float64, 12), "x")
	wide := matrix(g, 4, 5, make([]float64, 20), "wide")
	m, err := NewMask(g, 4, 2, "m")
	if err != nil {
		t.Fatal(err)
	}
	one := m.Node
	mlp, err := NewMLP(g, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mlp.Forward(x, []*G.Node{one}); err == nil || !strings.Contains(err.Error(), "masks") {
		t.Errorf("one mask for two hidden layers: %v", err)
	}
	if _, err := mlp.Forward(wide, nil); err == nil || !strings.Contains(err.Error(), "shape") {
		t.Errorf("5 inputs for a 3-input network: %v", err)
	}
	if _, err := NewMask(g, 4, 2, "m"); err == nil || !strings.Contains(err.Error(), "already has an input") {
		t.Errorf("a second mask named m: %v", err)
	}
	if _, err := NewMLP(g, p); err == nil {
		t.Error("a second network in the same graph reused the layer names without an error")
	}
	adv, err := NewMLPNamed(g, p, "adversary")
	if err != nil {
		t.Fatalf("a second, named network in the same graph: %v", err)
	}
	if name := adv.Params()[0].Name(); name != "adversary.layer0.W" {
		t.Errorf("named network's first node is %q", name)
	}
	if _, err := NewMLP(g, nil); err == nil {
		t.Error("nil parameters accepted")
	}
	bad := p.Clone()
	bad.B[1] = bad.B[1][:1]
	if _, err := NewMLP(g, bad); err == nil {
		t.Error("parameters of the wrong shape accepted")
	}
}
