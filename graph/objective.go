package graph

import (
	"fmt"

	"github.com/fpareto/fp/graph/scalarizations"
	"github.com/fpareto/fp/scalarize"
	G "gorgonia.org/gorgonia"
)

// ObjectiveNode builds the objective o as a graph node from the scalar nodes r (risk R)
// and u (penalty U); u may be nil for Risk and r for Penalty. Sum is
// R + λ·U. λ and the standardization constants become constants of the
// graph, so a graph is built per objective; ObjectiveNodeAt takes λ as a
// node instead.
//
// The standardization is scalarize.Standardizer's, operation for operation
// (R̃ = (R−RMin)·d with d = 1/(RMax−RMin)); the scalarization's graph form
// (scalarizations.Of) then combines R̃, Ũ and λ. The built-ins compute
// what scalarize's numeric forms compute, in the same order, so the graph
// and Objective.Value agree to the last bit on which side of a Chebyshev
// tie they are.
func ObjectiveNode(o scalarize.Objective, r, u *G.Node) (*G.Node, error) {
	return ObjectiveNodeAt(o, r, u, nil)
}

// ObjectiveNodeAt is ObjectiveNode with λ given as the scalar node lambda
// (an input whose value may change between runs: the trainers' SetLambda)
// in place of o.Lambda; a nil lambda makes it a constant of the graph, as
// ObjectiveNode does. Only the scalarizations read lambda; the numbers are
// the same either way, to the last bit.
func ObjectiveNodeAt(o scalarize.Objective, r, u, lambda *G.Node) (*G.Node, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	switch o.Method {
	case scalarize.Risk:
		if r == nil {
			return nil, fmt.Errorf("objective %s: no risk node", o.Method)
		}
		return r, nil
	case scalarize.Penalty:
		if u == nil {
			return nil, fmt.Errorf("objective %s: no penalty node", o.Method)
		}
		return u, nil
	}
	if r == nil || u == nil {
		return nil, fmt.Errorf("objective %s: needs both the risk and the penalty node", o.Method)
	}
	for _, n := range []*G.Node{r, u} {
		if !n.IsScalar() {
			return nil, fmt.Errorf("objective %s: %v has shape %v, want a scalar", o.Method, n.Name(), n.Shape())
		}
	}
	e := &scalarOps{}
	if o.Method == scalarize.Sum {
		out := e.add(r, e.mulL(o.Lambda, u)) // R + λ·U, as in Value
		if e.err != nil {
			return nil, fmt.Errorf("objective %s: %w", o.Method, e.err)
		}
		return out, nil
	}
	s, err := scalarizations.Of(o.Scalar())
	if err != nil {
		return nil, err
	}
	_, dr := o.Std.R(0)
	_, du := o.Std.U(0)
	rt := e.mul(e.sub(r, o.Std.RMin), dr)
	ut := e.mul(e.sub(u, o.Std.UMin), du)
	if e.err != nil {
		return nil, fmt.Errorf("objective %s: %w", o.Method, e.err)
	}
	switch {
	case lambda == nil:
		// λ is a constant of rt's graph, so that graph code may compute
		// with it alone (1 − λ); a constant outside any graph could not.
		lambda = rt.Graph().Constant(G.NewF64(o.Lambda))
	case !lambda.IsScalar() || lambda.Dtype() != G.Float64:
		return nil, fmt.Errorf("objective %s: λ node %v has shape %v and type %v, want a float64 scalar",
			o.Method, lambda.Name(), lambda.Shape(), lambda.Dtype())
	}
	out, err := s.Node(rt, ut, lambda)
	if err != nil {
		return nil, fmt.Errorf("scalarization %s: %w", s.Name(), err)
	}
	if err := wantScalar(out, "scalarization "+s.Name()); err != nil {
		return nil, err
	}
	return out, nil
}

// scalarOps chains scalar graph operations, keeping the first error.
type scalarOps struct{ err error }

func (e *scalarOps) do(f func() (*G.Node, error)) *G.Node {
	if e.err != nil {
		return nil
	}
	n, err := f()
	if err != nil {
		e.err = err
	}
	return n
}

func (e *scalarOps) sub(a *G.Node, c float64) *G.Node {
	return e.do(func() (*G.Node, error) { return G.Sub(a, G.NewConstant(c)) })
}
func (e *scalarOps) mul(a *G.Node, c float64) *G.Node {
	return e.do(func() (*G.Node, error) { return G.Mul(a, G.NewConstant(c)) })
}
func (e *scalarOps) mulL(c float64, a *G.Node) *G.Node {
	return e.do(func() (*G.Node, error) { return G.Mul(G.NewConstant(c), a) })
}
func (e *scalarOps) add(a, b *G.Node) *G.Node {
	return e.do(func() (*G.Node, error) { return G.Add(a, b) })
}
