package graph

import (
	"fmt"

	G "gorgonia.org/gorgonia"
)

// Value returns the value node n of the training program (see Program) took
// in the last Gradient call, as a copy: the trainer's executor writes every
// node's value again on the next call, and node.Value() is not set by it.
// It fails for a node the program does not compute (the evaluation path, a
// node of another graph) and before the first Gradient call.
func (t *Trainer) Value(n *G.Node) (G.Value, error) {
	v, ok := t.trainM.value(n)
	if !ok {
		return nil, fmt.Errorf("graph engine: node %v has no value in the training program", n)
	}
	return G.CloneValue(v)
}
