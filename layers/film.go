package layers

import (
	"fmt"

	"github.com/fpareto/fp/model"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// FiLM is the conditioning network of a λ-conditioned MLP (model.FiLM,
// docs/method.md §12) as graph nodes: from the encoding e = EncodeLambda(λ),
// a 1×2 input, c = tanh(e·W1 + b1) and o = c·W2 + b2, and for every hidden
// layer l the modulation γ_l = 1 + o[2lH : 2lH+H], δ_l = o[2lH+H : 2lH+2H]
// (H-vectors) that MLP.ForwardFiLM applies to the layer's pre-activations;
// with Output also γ_out = 1 + o[2LH] and δ_out = o[2LH+1] (scalars) for
// the logit.
// λ is data: SetLambda rewrites the encoding, which the next run reads, so
// one graph serves every λ.
type FiLM struct {
	Width, Layers, Hidden int
	// Output says the logit is modulated too (model.FiLM.Output).
	Output bool
	// Enc is the encoding input (1×EncodingWidth).
	Enc *G.Node
	// W1 (EncodingWidth×Width), B1, W2 (Width×2·Layers·Hidden) and B2 are
	// the parameters, in model.FiLM.Tensors order.
	W1, B1, W2, B2 *G.Node
	// Gamma and Delta are the modulation of each hidden layer, then with
	// Output of the output layer.
	Gamma, Delta []*G.Node

	outputs        int // model.FiLM.Outputs: the length of o
	enc            []float64
	w1, b1, w2, b2 []float64
}

// NewFiLM adds the conditioning network f to g, its parameters copied into
// fresh slices and its encoding set to λ = lambda. Its nodes are named
// film.enc, film.W1, film.b1, film.W2 and film.b2.
func NewFiLM(g *G.ExprGraph, f *model.FiLM, lambda float64) (*FiLM, error) {
	if f == nil {
		return nil, fmt.Errorf("film: no conditioning network")
	}
	if err := f.Validate(model.Arch{Layers: f.Layers + 1, Hidden: f.Hidden}); err != nil {
		return nil, fmt.Errorf("film: %w", err)
	}
	m := &FiLM{Width: f.Width, Layers: f.Layers, Hidden: f.Hidden, Output: f.Output, outputs: f.Outputs(),
		enc: make([]float64, model.EncodingWidth),
		w1:  append([]float64(nil), f.W1...), b1: append([]float64(nil), f.B1...),
		w2: append([]float64(nil), f.W2...), b2: append([]float64(nil), f.B2...)}
	if err := m.SetLambda(lambda); err != nil {
		return nil, err
	}
	out := f.Outputs()
	var err error
	for _, in := range []struct {
		dst   **G.Node
		data  []float64
		name  string
		shape []int
	}{
		{&m.Enc, m.enc, "film.enc", []int{1, model.EncodingWidth}},
		{&m.W1, m.w1, "film.W1", []int{model.EncodingWidth, f.Width}},
		{&m.B1, m.b1, "film.b1", []int{f.Width}},
		{&m.W2, m.w2, "film.W2", []int{f.Width, out}},
		{&m.B2, m.b2, "film.b2", []int{out}},
	} {
		if *in.dst, err = Input(g, in.data, in.name, in.shape...); err != nil {
			return nil, fmt.Errorf("film: %w", err)
		}
	}
	if err := m.build(); err != nil {
		return nil, fmt.Errorf("film: %w", err)
	}
	return m, nil
}

// build adds the conditioning network's computation: o as a vector of
// model.FiLM.Outputs values, then one slice of it per γ_l and δ_l.
func (m *FiLM) build() error {
	pre, err := G.Mul(m.Enc, m.W1)
	if err != nil {
		return err
	}
	if pre, err = G.BroadcastAdd(pre, m.B1, nil, []byte{0}); err != nil {
		return err
	}
	c, err := G.Tanh(pre)
	if err != nil {
		return err
	}
	o, err := G.Mul(c, m.W2)
	if err != nil {
		return err
	}
	if o, err = G.BroadcastAdd(o, m.B2, nil, []byte{0}); err != nil {
		return err
	}
	n := m.outputs
	if o, err = G.Reshape(o, tensor.Shape{n}); err != nil {
		return err
	}
	one := G.NewConstant(1.0)
	h := m.Hidden
	for l := 0; l < m.Layers; l++ {
		g, err := G.Slice(o, G.S(2*l*h, 2*l*h+h))
		if err != nil {
			return fmt.Errorf("γ of layer %d: %w", l+1, err)
		}
		if g, err = G.Add(one, g); err != nil {
			return fmt.Errorf("γ of layer %d: %w", l+1, err)
		}
		d, err := G.Slice(o, G.S(2*l*h+h, 2*l*h+2*h))
		if err != nil {
			return fmt.Errorf("δ of layer %d: %w", l+1, err)
		}
		m.Gamma = append(m.Gamma, g)
		m.Delta = append(m.Delta, d)
	}
	if !m.Output {
		return nil
	}
	// A one-element slice is a scalar node.
	g, err := G.Slice(o, G.S(n-2, n-1))
	if err != nil {
		return fmt.Errorf("γ of the output layer: %w", err)
	}
	if g, err = G.Add(one, g); err != nil {
		return fmt.Errorf("γ of the output layer: %w", err)
	}
	d, err := G.Slice(o, G.S(n-1, n))
	if err != nil {
		return fmt.Errorf("δ of the output layer: %w", err)
	}
	m.Gamma = append(m.Gamma, g)
	m.Delta = append(m.Delta, d)
	return nil
}

// SetLambda writes EncodeLambda(λ) into the encoding input for the next
// runs. λ must lie in [0, 1].
func (m *FiLM) SetLambda(lambda float64) error {
	if !(lambda >= 0 && lambda <= 1) {
		return fmt.Errorf("film: λ = %g is outside [0, 1]", lambda)
	}
	e := model.EncodeLambda(lambda)
	copy(m.enc, e[:])
	return nil
}

// Params returns the parameter nodes in model.FiLM.Tensors order: W1, B1,
// W2, B2.
func (m *FiLM) Params() G.Nodes { return G.Nodes{m.W1, m.B1, m.W2, m.B2} }

// Values returns the slices backing the parameter nodes, in Params order.
// Writing to them changes the network for the next run.
func (m *FiLM) Values() [][]float64 { return [][]float64{m.w1, m.b1, m.w2, m.b2} }

// Network returns a copy of the current parameter values.
func (m *FiLM) Network() *model.FiLM {
	f := &model.FiLM{Width: m.Width, Layers: m.Layers, Hidden: m.Hidden, Output: m.Output}
	f.W1 = append([]float64(nil), m.w1...)
	f.B1 = append([]float64(nil), m.b1...)
	f.W2 = append([]float64(nil), m.w2...)
	f.B2 = append([]float64(nil), m.b2...)
	return f
}
