package layers

import (
	"fmt"

	G "gorgonia.org/gorgonia"
)

// Mask is a dropout mask input: a rows×cols matrix node bound to a tensor
// backed by Data, which the caller refills before every run (for example
// with model.FillMask: 0 with probability p, else 1/(1−p)). It starts as all
// ones, the evaluation mask.
type Mask struct {
	Node *G.Node
	Data []float64
}

// NewMask adds a rows×cols mask input named name to g. The name must be
// unused in g (see Input).
func NewMask(g *G.ExprGraph, rows, cols int, name string) (*Mask, error) {
	m := &Mask{Data: make([]float64, rows*cols)}
	for i := range m.Data {
		m.Data[i] = 1
	}
	var err error
	if m.Node, err = Input(g, m.Data, name, rows, cols); err != nil {
		return nil, fmt.Errorf("dropout mask: %w", err)
	}
	return m, nil
}

// Dropout returns h ⊙ mask, inverted dropout with the mask given as data.
// A nil mask means evaluation mode: h is returned unchanged. The gradient
// with respect to h is mask ⊙ upstream, which is exactly right (unlike
// Gorgonia's own Dropout op in v0.9.18).
func Dropout(h, mask *G.Node) (*G.Node, error) {
	if mask == nil {
		return h, nil
	}
	out, err := G.HadamardProd(h, mask)
	if err != nil {
		return nil, fmt.Errorf("dropout: %w", err)
	}
	return out, nil
}
