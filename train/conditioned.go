package train

import (
	"fmt"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
)

// LambdaSetter is a trainer whose objective's λ can change between steps:
// SetLambda sets it for the Gradient calls that follow. It is refused (with
// an error) for an objective that is not a scalarization (cheb, linear,
// cheb-aug or a custom one) or for λ outside [0, 1]. Both engines' plain
// trainers implement it.
type LambdaSetter interface {
	SetLambda(lambda float64) error
}

// ConditionedTrainer trains a λ-conditioned network (docs/method.md §12):
// one network f_θ(x; λ) whose hidden pre-activations a conditioning
// network modulates. Params and Grads list the MLP's tensors, then the
// conditioning network's (model.Conditioned.Tensors order); Gradient and
// Predict use the λ last set; Network returns the plain network at that λ
// (model.Conditioned.At).
type ConditionedTrainer interface {
	Trainer
	LambdaSetter
	// Lambda is the λ last set (initially the spec's Objective.Lambda).
	Lambda() float64
	// Conditioned returns a copy of the current weights.
	Conditioned() *model.Conditioned
}

// Where a penalty on hidden layers reads a conditioned network
// (Spec.FiLMPenalty, docs/method.md §12).
const (
	// PenaltyAfterFiLM reads the modulated pre-activations, the layers the
	// network at λ (model.Conditioned.At) computes: the default.
	PenaltyAfterFiLM = "after"
	// PenaltyBeforeFiLM reads the pre-activations before the modulation.
	// It has no form in the fold (model.Conditioned.At), so only an engine
	// that builds the modulation itself (the graph engine) trains it.
	PenaltyBeforeFiLM = "before"
)

// FiLMPenalties lists the values of Spec.FiLMPenalty besides "".
var FiLMPenalties = []string{PenaltyAfterFiLM, PenaltyBeforeFiLM}

// outputPenalty is the marker of a penalty on the predicted probability
// only (penalties.ATOOutput, DPMean, EOMean, DPMV, EOMV and their R-group
// forms): it reads no hidden layer.
type outputPenalty interface{ OutputOnly() }

// CheckFiLMPenalty is the rule Spec.Validate applies to where a penalty
// reads (Spec.FiLMPenalty): one of FiLMPenalties or "", and
// PenaltyBeforeFiLM only for a conditioned network and a penalty that
// reads hidden layers.
func CheckFiLMPenalty(where string, conditioned bool, penalty Term) error {
	switch {
	case where == "" || where == PenaltyAfterFiLM:
		return nil
	case where != PenaltyBeforeFiLM:
		return fmt.Errorf("penalty position %q: want %s or %s", where, PenaltyAfterFiLM, PenaltyBeforeFiLM)
	case !conditioned:
		return fmt.Errorf("penalty position %q: only a λ-conditioned network has a modulation to read before", where)
	}
	if _, ok := penalty.(outputPenalty); ok {
		return fmt.Errorf("penalty position %q: %s reads the predicted probability, which the modulation does not act on directly, so it has no layer before the modulation to read; use a penalty on hidden layers or %s",
			where, penalty.Name(), PenaltyAfterFiLM)
	}
	return nil
}

// CheckLambda is the rule every LambdaSetter applies to objective o.
func CheckLambda(o scalarize.Objective, lambda float64) error {
	if o.Scalar() == nil {
		return fmt.Errorf("set λ: the objective %q has no trade-off weight to set", o.Method)
	}
	if !(lambda >= 0 && lambda <= 1) {
		return fmt.Errorf("set λ: %g is outside [0, 1]", lambda)
	}
	return nil
}

// Folded is a ConditionedTrainer built on a plain trainer of any engine: before
// every Gradient or Predict it writes the network at the current λ
// (model.FoldInto) into the plain trainer, and after Gradient it carries the
// plain trainer's gradient back to the MLP and to the conditioning network
// through the fold's chain rule. The handwritten engine trains conditioned
// networks this way; the graph engine builds the modulation as graph code
// instead, and the two are checked against each other.
type Folded struct {
	inner  Trainer
	setter LambdaSetter
	spec   Spec
	lambda float64

	net    *model.Params // the MLP's own weights
	film   *model.FiLM
	view   *model.Params // views of inner's parameters
	gview  *model.Params // views of inner's gradients
	params [][]float64   // net's tensors, then film's
	grads  [][]float64
	gnet   *model.Params // gradient of the MLP's own weights (views of grads)
}

var _ ConditionedTrainer = (*Folded)(nil)

// NewFolded wraps inner, a plain trainer for spec without its FiLM (inner
// must implement LambdaSetter), into a trainer of the conditioned network
// (spec.Init, spec.FiLM), both copied. Its λ starts at spec.Objective.Lambda.
func NewFolded(inner Trainer, spec Spec) (*Folded, error) {
	if spec.FiLM == nil {
		return nil, fmt.Errorf("conditioned trainer: the spec has no conditioning network")
	}
	setter, ok := inner.(LambdaSetter)
	if !ok {
		return nil, fmt.Errorf("conditioned trainer: the plain trainer cannot change its λ")
	}
	f := &Folded{inner: inner, setter: setter, spec: spec, lambda: spec.Objective.Lambda,
		net: spec.Init.Clone(), film: spec.FiLM.Clone()}
	f.view = paramsView(spec.Init, inner.Params())
	f.gview = paramsView(spec.Init, inner.Grads())
	f.params = append(f.net.Tensors(), f.film.Tensors()...)
	f.gnet = model.NewParams(spec.Arch, spec.Dim)
	f.grads = append(f.gnet.Tensors(), make([]float64, len(f.film.W1)), make([]float64, len(f.film.B1)),
		make([]float64, len(f.film.W2)), make([]float64, len(f.film.B2)))
	if err := f.SetLambda(f.lambda); err != nil {
		return nil, err
	}
	return f, nil
}

// paramsView is a model.Params over the tensors ts (W0, B0, W1, B1, …).
func paramsView(shape *model.Params, ts [][]float64) *model.Params {
	p := &model.Params{Arch: shape.Arch, Dim: shape.Dim}
	for l := 0; l+1 < len(ts); l += 2 {
		p.W = append(p.W, ts[l])
		p.B = append(p.B, ts[l+1])
	}
	return p
}

// SetLambda sets λ for the following steps.
func (f *Folded) SetLambda(lambda float64) error {
	if err := CheckLambda(f.spec.Objective, lambda); err != nil {
		return err
	}
	if err := f.setter.SetLambda(lambda); err != nil {
		return err
	}
	f.lambda = lambda
	return nil
}

// Lambda is the current λ.
func (f *Folded) Lambda() float64 { return f.lambda }

// BatchSize is the plain trainer's.
func (f *Folded) BatchSize() int { return f.inner.BatchSize() }

// Spec is the conditioned spec.
func (f *Folded) Spec() Spec { return f.spec }

// Params are the MLP's tensors, then the conditioning network's.
func (f *Folded) Params() [][]float64 { return f.params }

// Grads are in Params order, valid after Gradient.
func (f *Folded) Grads() [][]float64 { return f.grads }

// Network is the plain network at the current λ.
func (f *Folded) Network() *model.Params {
	return (&model.Conditioned{Net: f.net, FiLM: f.film}).At(f.lambda)
}

// Conditioned returns a copy of the weights.
func (f *Folded) Conditioned() *model.Conditioned {
	return &model.Conditioned{Net: f.net.Clone(), FiLM: f.film.Clone()}
}

// Gradient computes the objective at the current λ on b and its gradient
// with respect to every parameter. With γ, δ the modulation of hidden layer
// l and G_W, g_b the plain gradient of its folded weights W·diag γ and
// biases γ⊙b + δ: ∂/∂W = G_W·diag γ, ∂/∂b = γ⊙g_b, ∂/∂γ_j = Σ_i W_ij G_W,ij
// + b_j g_b,j and ∂/∂δ = g_b. The output layer, when the conditioning
// network modulates it (model.FiLM.Output), is one more such layer of one
// unit.
func (f *Folded) Gradient(b *Batch) (Loss, error) {
	gamma, delta := f.film.Modulation(f.lambda)
	model.FoldWith(f.view, f.net, gamma, delta)
	loss, err := f.inner.Gradient(b)
	if err != nil {
		return loss, err
	}
	shapes := f.spec.Arch.Shapes(f.spec.Dim)
	dGamma := make([][]float64, len(gamma))
	dDelta := make([][]float64, len(gamma))
	for l, s := range shapes {
		gw, gb := f.gview.W[l], f.gview.B[l]
		if l >= len(gamma) {
			copy(f.gnet.W[l], gw)
			copy(f.gnet.B[l], gb)
			continue
		}
		g, w, bias := gamma[l], f.net.W[l], f.net.B[l]
		dg := make([]float64, s.Out)
		for i := 0; i < s.In; i++ {
			for j := 0; j < s.Out; j++ {
				k := i*s.Out + j
				f.gnet.W[l][k] = gw[k] * g[j]
				dg[j] += w[k] * gw[k]
			}
		}
		for j := 0; j < s.Out; j++ {
			f.gnet.B[l][j] = gb[j] * g[j]
			dg[j] += bias[j] * gb[j]
		}
		dGamma[l] = dg
		dDelta[l] = append([]float64(nil), gb...)
	}
	n := len(f.gnet.Tensors())
	f.film.Backward(f.lambda, dGamma, dDelta, f.grads[n:])
	return loss, nil
}

// Predict writes the logits of the network at the current λ.
func (f *Folded) Predict(x []float64, n int, logits []float64) error {
	model.FoldInto(f.view, f.net, f.film, f.lambda)
	return f.inner.Predict(x, n, logits)
}
