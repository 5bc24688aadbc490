package penalties

import (
	"fmt"

	G "gorgonia.org/gorgonia"
)

// Node builds Σ_l Σ_units |cᵀ h^(l)|. The contrast c is data (the Contrast
// column, computed per batch by fairness.Contrast), so τ̂(h) = hᵀc is one
// matrix–vector product per layer.
// Gorgonia's tensor |·|′(0) = 0, so a batch with a missing group (c = 0)
// contributes neither value nor gradient.
func (p atoPenalty) Node(n Net, b BatchNodes) (*G.Node, error) {
	if len(n.Hidden) == 0 {
		return nil, fmt.Errorf("%s: the network has no hidden layer", p.Name())
	}
	layers := n.Hidden
	if !p.all {
		layers = layers[len(layers)-1:]
	}
	c, err := b.Column(Contrast.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return sumOverLayers(p.Name(), layers, func(h *G.Node) (*G.Node, error) {
		tau, err := G.Mul(c, h) // (batch)·(batch×H) = hᵀc, an H-vector
		if err != nil {
			return nil, err
		}
		return G.Abs(tau)
	})
}

// sumOverLayers builds Σ_l Σ_units unit(h^(l)): unit maps a layer to one
// value per unit, and the layers' sums are added in order. Errors name the
// penalty and the layer (1-based).
func sumOverLayers(name string, layers []*G.Node, unit func(h *G.Node) (*G.Node, error)) (*G.Node, error) {
	var u *G.Node
	for l, h := range layers {
		v, err := unit(h)
		if err != nil {
			return nil, fmt.Errorf("%s: layer %d: %w", name, l+1, err)
		}
		s, err := G.Sum(v)
		if err != nil {
			return nil, fmt.Errorf("%s: layer %d: %w", name, l+1, err)
		}
		if u == nil {
			u = s
		} else if u, err = G.Add(u, s); err != nil {
			return nil, fmt.Errorf("%s: layer %d: %w", name, l+1, err)
		}
	}
	return u, nil
}
