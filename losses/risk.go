package losses

import (
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// Risk is a risk term R written as graph code: a scalar node from the logits,
// the labels and the per-row weights sw (1/n on the batch's n real rows, 0 on
// padding), so that Σ sw·ℓ is the batch mean of a per-row loss ℓ. As a
// train.Term it states its name and the version of its code; it reads no
// input column.
type Risk interface {
	train.Term
	// Node builds R for one batch; called once when the graph is built.
	Node(logit, y, sw *G.Node) (*G.Node, error)
}

// NewRisk wraps a function as a Risk. name identifies it in records;
// version identifies its code and enters a sweep's digest, so change it
// whenever f computes something else.
func NewRisk(name, version string, f func(logit, y, sw *G.Node) (*G.Node, error)) Risk {
	return funcRisk{name: name, version: version, f: f}
}

type funcRisk struct {
	name, version string
	f             func(logit, y, sw *G.Node) (*G.Node, error)
}

func (r funcRisk) Name() string                               { return r.name }
func (r funcRisk) Version() string                            { return r.version }
func (funcRisk) Inputs() []train.Input                        { return nil }
func (r funcRisk) Node(logit, y, sw *G.Node) (*G.Node, error) { return r.f(logit, y, sw) }
