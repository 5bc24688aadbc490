package fairness

import (
	"fmt"

	G "gorgonia.org/gorgonia"
)

// Net is the graph view of a network that a penalty reads. Every node has a
// fixed batch dimension (the trainer's batch size); rows past the batch's
// real size are padding, with zero weight everywhere in BatchNodes.
type Net struct {
	// Hidden holds the pre-activations h^(1) … h^(L−1) of the hidden layers,
	// each a batch×H matrix (SPEC §2).
	Hidden []*G.Node
	// Logit is the output before the sigmoid, a batch vector.
	Logit *G.Node
}

// BatchNodes are a mini-batch's per-row inputs as graph vectors (length =
// batch size). Padding rows are 0 in every one of them.
type BatchNodes struct {
	A  *G.Node // sensitive attribute, 0 or 1
	Y  *G.Node // label, 0 or 1
	W  *G.Node // overlap weights from the calibrated propensity model
	SW *G.Node // 1/n on the batch's n real rows: Σ SW·o is the batch mean of o
	C  *G.Node // ATO contrast: Σ C·o is τ̂(o) (0 everywhere when a group is missing)
	G1 *G.Node // a_i/n₁: Σ G1·o is the mean of o over group a = 1 (0 if the group is missing)
	G0 *G.Node // (1−a_i)/n₀: the same for group a = 0
}

// Penalty is an unfairness term U written as graph code: it returns a scalar
// node built from the network's nodes and the batch. Gradients come from
// Gorgonia's automatic differentiation, and the result plugs into the same
// standardization and scalarization as the built-in penalties.
type Penalty interface {
	// Name identifies the penalty in records (e.g. "ato-penultimate").
	Name() string
	// Node builds U for one batch. It is called once, when the trainer's
	// graph is built; the batch values change between steps.
	Node(net Net, b BatchNodes) (*G.Node, error)
}

// NewPenalty wraps a function as a Penalty with the given name.
func NewPenalty(name string, f func(Net, BatchNodes) (*G.Node, error)) Penalty {
	return funcPenalty{name: name, f: f}
}

type funcPenalty struct {
	name string
	f    func(Net, BatchNodes) (*G.Node, error)
}

func (p funcPenalty) Name() string                              { return p.name }
func (p funcPenalty) Node(n Net, b BatchNodes) (*G.Node, error) { return p.f(n, b) }

// Names of the built-in penalties.
const (
	NameATOPenultimate = "ato-penultimate"
	NameATOAll         = "ato-all"
)

// ATOPenultimate is U = |τ̂(h^(L−1))|, the ATO of the sensitive attribute on
// the last hidden layer's pre-activations, summed over units (SPEC §3).
var ATOPenultimate Penalty = atoPenalty{all: false}

// ATOAll is U = Σ_l |τ̂(h^(l))| over every hidden layer (SPEC §3).
var ATOAll Penalty = atoPenalty{all: true}

type atoPenalty struct{ all bool }

func (p atoPenalty) Name() string {
	if p.all {
		return NameATOAll
	}
	return NameATOPenultimate
}

// IsBuiltinATO reports whether p is one of the built-in ATO penalties and, if
// so, whether it covers all hidden layers. The handwritten engine uses it to
// know which penalties it can differentiate by hand.
func IsBuiltinATO(p Penalty) (all, ok bool) {
	b, ok := p.(atoPenalty)
	return b.all, ok
}

// Builtin returns a built-in penalty by name.
func Builtin(name string) (Penalty, error) {
	switch name {
	case NameATOPenultimate:
		return ATOPenultimate, nil
	case NameATOAll:
		return ATOAll, nil
	}
	return nil, fmt.Errorf("penalty %q: want %s or %s", name, NameATOPenultimate, NameATOAll)
}
