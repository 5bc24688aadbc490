package losses

import (
	"fmt"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// BCE is the mean binary cross-entropy computed from logits in the stable
// form Σ sw·(softplus(z) − y·z) (docs/method.md §3): finite for any z, never log(sigmoid(z)).
var BCE Risk = bce{}

// bce is BCE's own type, so that the handwritten engine can recognise it
// (a Risk made by NewRisk holds a func and cannot be compared).
type bce struct{}

func (bce) Name() string                               { return "bce" }
func (bce) Version() string                            { return "" }
func (bce) Inputs() []train.Input                      { return nil }
func (bce) Node(logit, y, sw *G.Node) (*G.Node, error) { return bceNode(logit, y, sw) }

// BinaryCrossEntropy marks the built-in BCE, whose gradient the handwritten
// engine knows (backprop.BCERisk).
func (bce) BinaryCrossEntropy() {}

// IsBCE reports whether r is the built-in BCE.
func IsBCE(r train.Term) bool {
	_, ok := r.(bce)
	return ok
}

func bceNode(z, y, sw *G.Node) (*G.Node, error) {
	sp, err := G.Softplus(z)
	if err != nil {
		return nil, fmt.Errorf("bce: %w", err)
	}
	yz, err := G.HadamardProd(y, z)
	if err != nil {
		return nil, fmt.Errorf("bce: %w", err)
	}
	l, err := G.Sub(sp, yz)
	if err != nil {
		return nil, fmt.Errorf("bce: %w", err)
	}
	wl, err := G.HadamardProd(sw, l)
	if err != nil {
		return nil, fmt.Errorf("bce: %w", err)
	}
	s, err := G.Sum(wl)
	if err != nil {
		return nil, fmt.Errorf("bce: %w", err)
	}
	return s, nil
}

// BCEValue is BCE's numeric twin: the mean over i of softplus(z_i) − y_i·z_i.
func BCEValue(z, y []float64) float64 {
	if len(z) == 0 {
		return 0
	}
	var s float64
	for i, zi := range z {
		s += model.Softplus(zi) - y[i]*zi
	}
	return s / float64(len(z))
}
