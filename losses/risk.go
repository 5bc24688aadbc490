package losses

import G "gorgonia.org/gorgonia"

// Risk is a risk term R written as graph code: a scalar node from the logits,
// the labels and the per-row weights sw (1/n on the batch's n real rows, 0 on
// padding), so that Σ sw·ℓ is the batch mean of a per-row loss ℓ.
type Risk interface {
	// Name identifies the risk in records.
	Name() string
	// Node builds R for one batch; called once when the graph is built.
	Node(logit, y, sw *G.Node) (*G.Node, error)
}

// NewRisk wraps a function as a Risk with the given name.
func NewRisk(name string, f func(logit, y, sw *G.Node) (*G.Node, error)) Risk {
	return funcRisk{name: name, f: f}
}

type funcRisk struct {
	name string
	f    func(logit, y, sw *G.Node) (*G.Node, error)
}

func (r funcRisk) Name() string                               { return r.name }
func (r funcRisk) Node(logit, y, sw *G.Node) (*G.Node, error) { return r.f(logit, y, sw) }
