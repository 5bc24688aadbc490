package layers

import (
	"fmt"

	"github.com/fpareto/fp/model"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// MLP is the fully connected network of docs/method.md §2 as graph nodes: L Dense
// layers, ReLU and dropout after every hidden one, a single output unit.
// Its parameter nodes can be applied to several inputs of the same graph
// (say a training batch with dropout and an evaluation batch without).
type MLP struct {
	Arch   model.Arch
	Dim    int
	Layers []*Dense
}

// Output is the MLP applied to one batch of N rows.
type Output struct {
	// Hidden holds the pre-activations h^(1) … h^(L−1) (N×H each), before
	// ReLU and dropout; modulated by the conditioning network under
	// ForwardFiLM.
	Hidden []*G.Node
	// Unmodulated holds, under ForwardFiLM, the pre-activations before the
	// modulation, v^(l−1) W_l + b_l (N×H each), where v^(l−1) is the
	// previous layer's modulated, rectified and masked output; nil under
	// Forward. A penalty reads them instead of Hidden when it is to see the
	// layer before the modulation (docs/method.md §12).
	Unmodulated []*G.Node
	// Logit is the output before the sigmoid, an N-vector.
	Logit *G.Node
}

// NewMLP adds the parameters of p to g, copied into fresh slices. Its
// nodes are named layer0.W, layer0.b, layer1.W, …; a second network in the
// same graph needs NewMLPNamed.
func NewMLP(g *G.ExprGraph, p *model.Params) (*MLP, error) { return NewMLPNamed(g, p, "") }

// NewMLPNamed is NewMLP with the node names prefixed by name (name.layer0.W,
// …), so that several networks can live in one graph (say a classifier and
// its adversary).
func NewMLPNamed(g *G.ExprGraph, p *model.Params, name string) (*MLP, error) {
	if p == nil {
		return nil, fmt.Errorf("mlp %s: no parameters", name)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("mlp %s: %w", name, err)
	}
	prefix := ""
	if name != "" {
		prefix = name + "."
	}
	m := &MLP{Arch: p.Arch, Dim: p.Dim}
	for l, s := range p.Arch.Shapes(p.Dim) {
		d, err := NewDense(g, s.In, s.Out, p.W[l], p.B[l], fmt.Sprintf("%slayer%d", prefix, l))
		if err != nil {
			return nil, fmt.Errorf("mlp %s: %w", name, err)
		}
		m.Layers = append(m.Layers, d)
	}
	return m, nil
}

// Params returns the parameter nodes in model.Params order: W0, B0, W1, B1, ….
func (m *MLP) Params() G.Nodes {
	ns := make(G.Nodes, 0, 2*len(m.Layers))
	for _, d := range m.Layers {
		ns = append(ns, d.W, d.B)
	}
	return ns
}

// Values returns the slices backing the parameter nodes, in the order of
// Params. Writing to them changes the network for the next run.
func (m *MLP) Values() [][]float64 {
	vs := make([][]float64, 0, 2*len(m.Layers))
	for _, d := range m.Layers {
		vs = append(vs, d.w, d.b)
	}
	return vs
}

// Network returns a copy of the current parameter values.
func (m *MLP) Network() *model.Params {
	p := model.NewParams(m.Arch, m.Dim)
	for l, d := range m.Layers {
		copy(p.W[l], d.w)
		copy(p.B[l], d.b)
	}
	return p
}

// Forward applies the network to x (N×Dim). With masks (one N×H node per
// hidden layer) it is in training mode: h ↦ ReLU(h) ⊙ mask. With nil masks it
// is in evaluation mode, without dropout. Gorgonia's ReLU has ReLU′(0) = 1.
func (m *MLP) Forward(x *G.Node, masks []*G.Node) (Output, error) {
	return m.forward(x, masks, nil)
}

// ForwardFiLM is Forward with every hidden pre-activation z_l modulated by
// the conditioning network f before ReLU and dropout: γ_l ⊙ z_l + δ_l
// (docs/method.md §12). Output.Hidden holds the modulated pre-activations,
// so a penalty on hidden layers reads the layer the network computes with;
// Output.Unmodulated holds the z_l themselves. With f.Output the logit is
// modulated too, γ_out·z + δ_out.
func (m *MLP) ForwardFiLM(x *G.Node, masks []*G.Node, f *FiLM) (Output, error) {
	if f == nil {
		return Output{}, fmt.Errorf("mlp %v: no conditioning network", m.Arch)
	}
	if f.Layers != m.Arch.HiddenLayers() || f.Hidden != m.Arch.Hidden {
		return Output{}, fmt.Errorf("mlp %v: the conditioning network modulates %d layers of %d units, want %d of %d",
			m.Arch, f.Layers, f.Hidden, m.Arch.HiddenLayers(), m.Arch.Hidden)
	}
	return m.forward(x, masks, f)
}

func (m *MLP) forward(x *G.Node, masks []*G.Node, f *FiLM) (Output, error) {
	hidden := m.Arch.HiddenLayers()
	if masks != nil && len(masks) != hidden {
		return Output{}, fmt.Errorf("mlp %v: %d dropout masks for %d hidden layers", m.Arch, len(masks), hidden)
	}
	if s := x.Shape(); len(s) != 2 || s[1] != m.Dim {
		return Output{}, fmt.Errorf("mlp %v: input has shape %v, want (N, %d)", m.Arch, s, m.Dim)
	}
	n := x.Shape()[0]
	var out Output
	h := x
	for l, d := range m.Layers {
		pre, err := d.Forward(h)
		if err != nil {
			return Output{}, fmt.Errorf("mlp layer %d: %w", l+1, err)
		}
		if l == len(m.Layers)-1 {
			if f != nil && f.Output {
				// γ_out and δ_out are scalars, which Mul and Add apply to
				// every row.
				if pre, err = G.Mul(pre, f.Gamma[l]); err != nil {
					return Output{}, fmt.Errorf("mlp output: modulation: %w", err)
				}
				if pre, err = G.Add(pre, f.Delta[l]); err != nil {
					return Output{}, fmt.Errorf("mlp output: modulation: %w", err)
				}
			}
			if out.Logit, err = G.Reshape(pre, tensor.Shape{n}); err != nil {
				return Output{}, fmt.Errorf("mlp output: %w", err)
			}
			break
		}
		if f != nil {
			out.Unmodulated = append(out.Unmodulated, pre)
			// Pattern {0} repeats γ and δ along the batch axis.
			if pre, err = G.BroadcastHadamardProd(pre, f.Gamma[l], nil, []byte{0}); err != nil {
				return Output{}, fmt.Errorf("mlp layer %d: modulation: %w", l+1, err)
			}
			if pre, err = G.BroadcastAdd(pre, f.Delta[l], nil, []byte{0}); err != nil {
				return Output{}, fmt.Errorf("mlp layer %d: modulation: %w", l+1, err)
			}
		}
		out.Hidden = append(out.Hidden, pre)
		if h, err = G.Rectify(pre); err != nil {
			return Output{}, fmt.Errorf("mlp layer %d: %w", l+1, err)
		}
		var mask *G.Node
		if masks != nil {
			mask = masks[l]
		}
		if h, err = Dropout(h, mask); err != nil {
			return Output{}, fmt.Errorf("mlp layer %d: %w", l+1, err)
		}
	}
	return out, nil
}

// Build adds the network p to g and applies it to x: NewMLP then Forward.
func Build(g *G.ExprGraph, x *G.Node, p *model.Params, masks []*G.Node) (*MLP, Output, error) {
	m, err := NewMLP(g, p)
	if err != nil {
		return nil, Output{}, err
	}
	out, err := m.Forward(x, masks)
	if err != nil {
		return nil, Output{}, err
	}
	return m, out, nil
}
