package scalarizations

import (
	"fmt"

	"github.com/fpareto/fp/scalarize"
	G "gorgonia.org/gorgonia"
)

// Scalarization is a scalarization written as graph code, with its numeric
// twin (scalarize.Scalarization).
type Scalarization interface {
	scalarize.Scalarization
	// Node builds the objective from the scalar nodes rt (R̃), ut (Ũ) and
	// lambda (λ). It is called once, when the trainer's graph is built.
	Node(rt, ut, lambda *G.Node) (*G.Node, error)
}

// New wraps two functions as a Scalarization. name is the sweep's method in
// records and must not be a built-in's; version identifies the code and
// enters a sweep's digest, so change it whenever node or value computes
// something else. node is the graph form; value its numeric twin, the
// objective and its partial derivatives with respect to R̃ and Ũ, which
// must agree with node: the plateau schedule and held-out stopping read it.
func New(name, version string, node func(rt, ut, lambda *G.Node) (*G.Node, error),
	value func(rt, ut, lambda float64) (v, dRt, dUt float64)) Scalarization {
	return funcScalarization{name: name, version: version, node: node, value: value}
}

type funcScalarization struct {
	name, version string
	node          func(rt, ut, lambda *G.Node) (*G.Node, error)
	value         func(rt, ut, lambda float64) (float64, float64, float64)
}

func (s funcScalarization) Name() string    { return s.name }
func (s funcScalarization) Version() string { return s.version }
func (s funcScalarization) Node(rt, ut, lambda *G.Node) (*G.Node, error) {
	return s.node(rt, ut, lambda)
}
func (s funcScalarization) Value(rt, ut, lambda float64) (float64, float64, float64) {
	return s.value(rt, ut, lambda)
}

// Chebyshev is max{(1−λ)R̃, λŨ}, written 0.5(a + b + |a − b|): Gorgonia's
// Max over a vector counts a tie twice, MaxBetween rejects scalars, and
// Gorgonia's scalar |x|′(0) = +1 sends the whole gradient at a tie to the
// risk side, as scalarize.Cheb does.
var Chebyshev Scalarization = chebyshev{}

// Linear is (1−λ)R̃ + λŨ.
var Linear Scalarization = linear{}

// AugmentedChebyshev is max{(1−λ)R̃, λŨ} + ρ((1−λ)R̃ + λŨ), ρ > 0 (checked
// by Validate).
func AugmentedChebyshev(rho float64) Scalarization { return augmented{scalarize.ChebAug{Rho: rho}} }

type chebyshev struct{ scalarize.Cheb }

func (chebyshev) Node(rt, ut, lambda *G.Node) (*G.Node, error) {
	e := &ops{}
	a, b := sides(e, rt, ut, lambda)
	out := maxOf(e, a, b)
	return out, e.err
}

type linear struct{ scalarize.Lin }

func (linear) Node(rt, ut, lambda *G.Node) (*G.Node, error) {
	e := &ops{}
	a, b := sides(e, rt, ut, lambda)
	out := e.do(func() (*G.Node, error) { return G.Add(a, b) })
	return out, e.err
}

type augmented struct{ scalarize.ChebAug }

func (s augmented) Node(rt, ut, lambda *G.Node) (*G.Node, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	e := &ops{}
	a, b := sides(e, rt, ut, lambda)
	m := maxOf(e, a, b)
	lin := e.do(func() (*G.Node, error) { return G.Add(a, b) })
	aug := e.do(func() (*G.Node, error) { return G.Mul(G.NewConstant(s.Rho), lin) })
	out := e.do(func() (*G.Node, error) { return G.Add(m, aug) })
	return out, e.err
}

// sides are a = (1−λ)·R̃ and b = λ·Ũ, the products scalarize computes.
func sides(e *ops, rt, ut, lambda *G.Node) (a, b *G.Node) {
	w := e.do(func() (*G.Node, error) { return G.Sub(G.NewConstant(1.0), lambda) })
	a = e.do(func() (*G.Node, error) { return G.Mul(w, rt) })
	b = e.do(func() (*G.Node, error) { return G.Mul(lambda, ut) })
	return a, b
}

// maxOf is 0.5·(a + b + |a − b|).
func maxOf(e *ops, a, b *G.Node) *G.Node {
	sum := e.do(func() (*G.Node, error) { return G.Add(a, b) })
	diff := e.do(func() (*G.Node, error) { return G.Sub(a, b) })
	abs := e.do(func() (*G.Node, error) { return G.Abs(diff) })
	s := e.do(func() (*G.Node, error) { return G.Add(sum, abs) })
	return e.do(func() (*G.Node, error) { return G.Mul(G.NewConstant(0.5), s) })
}

// ops chains graph operations, keeping the first error.
type ops struct{ err error }

func (e *ops) do(f func() (*G.Node, error)) *G.Node {
	if e.err != nil {
		return nil
	}
	n, err := f()
	if err != nil {
		e.err = err
	}
	return n
}

// Of returns the graph form of s: s itself when it is graph code, the
// built-in of the same arithmetic for scalarize's numeric built-ins, and an
// error wrapping nothing for anything else.
func Of(s scalarize.Scalarization) (Scalarization, error) {
	switch v := s.(type) {
	case Scalarization:
		return v, nil
	case scalarize.Cheb:
		return Chebyshev, nil
	case scalarize.Lin:
		return Linear, nil
	case scalarize.ChebAug:
		return AugmentedChebyshev(v.Rho), nil
	}
	return nil, fmt.Errorf("scalarization %q has no graph form: write it with scalarizations.New", s.Name())
}

// Builtin returns the built-in scalarization of method, with ρ = rho for
// cheb-aug.
func Builtin(method scalarize.Method, rho float64) (Scalarization, error) {
	s, err := scalarize.Builtin(method, rho)
	if err != nil {
		return nil, err
	}
	return Of(s)
}
